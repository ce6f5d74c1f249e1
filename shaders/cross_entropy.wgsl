// Softmax cross-entropy L = 1/B Σ_i −log softmax(f_i)[label_i] (engine/model/loss.cpp): one invocation per row (the
// classes are few). dout = (softmax(f_i) − onehot)/B; terms[i] = the row's loss / B, for reduce_sum.
// Labels arrive as f32 (exact integers).
struct Params {
  rows: u32, classes: u32, u2: u32, u3: u32, u4: u32, u5: u32, u6: u32, u7: u32,
  f0: f32, f1: f32, f2: f32, f3: f32, f4: f32, f5: f32, f6: f32, f7: f32,
}
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> f: array<f32>;
@group(0) @binding(2) var<storage, read> labels: array<f32>;
@group(0) @binding(3) var<storage, read_write> dout: array<f32>;
@group(0) @binding(4) var<storage, read_write> terms: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let i = flat_index(gid, groups);
  if (i >= p.rows) { return; }
  let base = i * p.classes;
  var zmax = f[base];
  for (var k = 1u; k < p.classes; k++) { zmax = max(zmax, f[base + k]); }
  var norm = 0.0;
  for (var k = 0u; k < p.classes; k++) { norm += exp(f[base + k] - zmax); }
  let log_norm = log(norm) + zmax;  // subtracting the max keeps exp finite
  let label = u32(labels[i]);
  let batch = f32(p.rows);
  terms[i] = (log_norm - f[base + label]) / batch;
  for (var k = 0u; k < p.classes; k++) {
    dout[base + k] = (exp(f[base + k] - log_norm) - select(0.0, 1.0, k == label)) / batch;
  }
}
