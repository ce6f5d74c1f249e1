// The pointwise nonlinearities of engine/kernels/activation.cpp, in float32. Codes: 0 relu, 1 tanh, 2 gelu (tanh form),
// 3 linear, 4 sigmoid (the order of enum class Activation).
const GELU_K = 0.7978845608028654;  // sqrt(2/pi)
const GELU_C = 0.044715;

// tanh of a clamped argument: some backends compute tanh from exp and return NaN for large |x|; tanh(±15) is ±1 in f32.
fn safe_tanh(x: f32) -> f32 { return tanh(clamp(x, -15.0, 15.0)); }

fn act_forward(code: u32, h: f32) -> f32 {
  switch code {
    case 0u: { return max(h, 0.0); }
    case 1u: { return safe_tanh(h); }
    case 2u: { return 0.5 * h * (1.0 + safe_tanh(GELU_K * (h + GELU_C * h * h * h))); }
    case 4u: { return 1.0 / (1.0 + exp(-h)); }
    default: { return h; }
  }
}

// phi'(h) · dx; x = phi(h) is given because tanh' and sigmoid' are cheapest from it.
fn act_backward(code: u32, dx: f32, h: f32, x: f32) -> f32 {
  switch code {
    case 0u: { return select(0.0, dx, h > 0.0); }
    case 1u: { return dx * (1.0 - x * x); }
    case 2u: {
      let t = safe_tanh(GELU_K * (h + GELU_C * h * h * h));
      let dt = (1.0 - t * t) * GELU_K * (1.0 + 3.0 * GELU_C * h * h);
      return dx * (0.5 * (1.0 + t) + 0.5 * h * dt);
    }
    case 4u: { return dx * x * (1.0 - x); }
    default: { return dx; }
  }
}
