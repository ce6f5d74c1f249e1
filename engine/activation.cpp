#include "engine/activation.hpp"

#include "engine/detmath.hpp"

const char* activation_name(Activation a) {
  switch (a) {
    case Activation::relu: return "relu";
    case Activation::tanh: return "tanh";
    case Activation::gelu: return "gelu";
    case Activation::linear: return "linear";
    case Activation::sigmoid: return "sigmoid";
  }
  return "?";
}

namespace {
// GELU in its tanh form (PyTorch's approximate="tanh"): 0.5 h (1 + tanh(k (h + 0.044715 h^3))).
constexpr double kGeluK = 0.79788456080286535588;  // sqrt(2/pi)
constexpr double kGeluC = 0.044715;
}  // namespace

void activation_forward(Activation a, double* x, const double* h, long n) {
  switch (a) {
    case Activation::relu:
      for (long i = 0; i < n; i++) x[i] = h[i] > 0 ? h[i] : 0;
      break;
    case Activation::tanh:
      for (long i = 0; i < n; i++) x[i] = detmath::tanh(h[i]);
      break;
    case Activation::gelu:
      for (long i = 0; i < n; i++) {
        const double v = h[i];
        x[i] = 0.5 * v * (1 + detmath::tanh(kGeluK * (v + kGeluC * v * v * v)));
      }
      break;
    case Activation::linear:
      for (long i = 0; i < n; i++) x[i] = h[i];
      break;
    case Activation::sigmoid:
      for (long i = 0; i < n; i++) x[i] = detmath::sigmoid(h[i]);
      break;
  }
}

void activation_backward(Activation a, double* dh, const double* dx, const double* h, const double* x, long n) {
  switch (a) {
    case Activation::relu:
      for (long i = 0; i < n; i++) dh[i] = h[i] > 0 ? dx[i] : 0;
      break;
    case Activation::tanh:
      for (long i = 0; i < n; i++) dh[i] = dx[i] * (1 - x[i] * x[i]);
      break;
    case Activation::gelu:
      for (long i = 0; i < n; i++) {
        const double v = h[i];
        const double t = detmath::tanh(kGeluK * (v + kGeluC * v * v * v));
        const double dt = (1 - t * t) * kGeluK * (1 + 3 * kGeluC * v * v);
        dh[i] = dx[i] * (0.5 * (1 + t) + 0.5 * v * dt);
      }
      break;
    case Activation::linear:
      for (long i = 0; i < n; i++) dh[i] = dx[i];
      break;
    case Activation::sigmoid:
      for (long i = 0; i < n; i++) dh[i] = dx[i] * x[i] * (1 - x[i]);
      break;
  }
}
