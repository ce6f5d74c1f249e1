// Adam / AdamW step of one tensor (engine/model/optimizer.cpp). The bias corrections 1 − β^t change every step, so they
// come from the step buffer the host writes each step (step_data[1] = 1 − β1^t, step_data[2] = 1 − β2^t), not from the
// uniform block, which a plan fixes once. With `scheduled` set, the learning rate is also scaled by step_data[3], the
// schedule's factor at this step (warm-up, cosine), which the host writes with the bias corrections.
struct Params {
  n: u32, decoupled: u32, scheduled: u32, u3: u32, u4: u32, u5: u32, u6: u32, u7: u32,
  lr: f32, beta1: f32, beta2: f32, eps: f32, weight_decay: f32, f5: f32, f6: f32, f7: f32,
}
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> g: array<f32>;
@group(0) @binding(2) var<storage, read> step_data: array<f32>;
@group(0) @binding(3) var<storage, read_write> w: array<f32>;
@group(0) @binding(4) var<storage, read_write> m: array<f32>;
@group(0) @binding(5) var<storage, read_write> v: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let i = flat_index(gid, groups);
  if (i >= p.n) { return; }
  let decoupled = p.decoupled != 0u;
  let gi = select(g[i] + p.weight_decay * w[i], g[i], decoupled);
  let mi = p.beta1 * m[i] + (1.0 - p.beta1) * gi;
  let vi = p.beta2 * v[i] + (1.0 - p.beta2) * gi * gi;
  m[i] = mi;
  v[i] = vi;
  let update = (mi / step_data[1]) / (sqrt(vi / step_data[2]) + p.eps);
  let lr = select(p.lr, p.lr * step_data[3], p.scheduled != 0u);
  w[i] -= lr * select(update, update + p.weight_decay * w[i], decoupled);
}
