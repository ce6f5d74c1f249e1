// The Transformer's float32 mode (Transformer::set_precision; products in float32 on engine/kernels/gemm_f32.hpp,
// everything else double) against the float64 reference: one forward/backward on a small model, a short anchor
// training run, the spec field, and determinism (two float32 runs are bit-identical).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/model/loss.hpp"
#include "engine/model/transformer.hpp"
#include "engine/run/runner.hpp"
#include "engine/spec/memory_budget.hpp"
#include "engine/spec/presets.hpp"
#include "engine/spec/spec.hpp"

namespace {

// max |a − b| / max |b| over a range: the error relative to the reference's scale (a normwise bound, since single
// entries near 0 have no meaningful relative error).
double relative_error(const double* a, const double* b, long n) {
  double diff = 0, scale = 0;
  for (long i = 0; i < n; i++) {
    diff = std::max(diff, std::fabs(a[i] - b[i]));
    scale = std::max(scale, std::fabs(b[i]));
  }
  return diff / scale;
}

struct Pass {
  std::vector<double> logits, grads;
};

// One forward and backward (cross-entropy at the last position) of an anchor-sized model in precision `p`.
Pass forward_backward(const TransformerConfig& c, Precision p) {
  const int batch = 16;
  Transformer model(c, TransformerInit{}, batch);
  model.set_precision(p);
  Rng rng(7);
  model.init(rng);
  std::vector<int> tokens(size_t(batch) * size_t(c.seq_len)), labels(size_t(batch), 0);
  for (int& t : tokens) t = int(rng.below(uint64_t(c.vocab)));
  for (int& l : labels) l = int(rng.below(uint64_t(c.outputs)));
  const double* logits = model.forward(tokens.data(), batch);
  Pass out{{logits, logits + batch * c.outputs}, {}};
  std::vector<double> dlogits(out.logits.size());
  cross_entropy_loss(logits, labels.data(), batch, c.outputs, dlogits.data(), nullptr);
  model.backward(dlogits.data(), batch);
  out.grads = model.grads();
  return out;
}

ExperimentSpec identity_preset(int steps) {
  std::string text;
  EXPECT_TRUE(read_text_file(std::string(MUPLAY_EXAMPLES_DIR) + "/30-anchor-identity.json", text));
  SpecResult r = parse_spec_text(text);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.errors[0]);
  r.spec.schedule.steps = steps;
  r.spec.precision = Precision::float64;  // the reference; the preset itself ships in float32
  return r.spec;
}

const Member& trained(Runner& runner) {
  while (runner.step()) {
  }
  return *runner.members()[0];
}

}  // namespace

// Measured on this model (pre-LN and post-LN, 2 layers, d_model 64, 2 heads, d_ff 256, vocab 128, T 9, batch 16):
// logits within 2.7e-7 of float64 and every tensor's gradient within 1.2e-6 (relative to its largest entry), about
// float32's rounding (6e-8) times the depth of the sums; asserted with a margin of ~8x.
TEST(TransformerFloat32, ForwardAndBackwardTrackFloat64) {
  for (bool pre_ln : {true, false}) {
    TransformerConfig c;
    c.layers = 2, c.d_model = 64, c.heads = 2, c.d_ff = 256, c.pre_ln = pre_ln;
    const Pass f64 = forward_backward(c, Precision::float64), f32 = forward_backward(c, Precision::float32);
    const double logits = relative_error(f32.logits.data(), f64.logits.data(), long(f64.logits.size()));
    EXPECT_LT(logits, 2e-6) << "pre_ln " << pre_ln;
    EXPECT_GT(logits, 0) << "the float32 products were not used";
    const Transformer layout(c, TransformerInit{}, 1);
    for (const TransformerTensor& t : layout.tensors())
      EXPECT_LT(relative_error(f32.grads.data() + t.offset, f64.grads.data() + t.offset, t.size()), 1e-5)
          << t.name << " pre_ln " << pre_ln;
  }
}

// Preset 30 (the identity task, its 500-step schedule) for its first 200 steps, through the runner: ID accuracy
// climbs from 0.02 to 0.99 in steps 100-200, the most sensitive stretch of the run. Measured, float64 / float32:
// step 150: ID accuracy 0.658 / 0.660; step 200: ID 0.994 / 0.994, train loss 0.38038 / 0.38026, test loss
// 0.60310 / 0.60263. Asserted: accuracies within 0.01 (5 of the 500 test sequences), losses within 5e-3.
TEST(TransformerFloat32, AnchorTrainingTracksFloat64) {
  ExperimentSpec spec = identity_preset(500);
  spec.schedule.record_every = 50;
  Runner f64(spec);
  spec.precision = Precision::float32;
  Runner f32(spec);
  for (int t = 0; t <= 200; t++) {
    f64.step();
    f32.step();
  }
  const Member &a = *f64.members()[0], &b = *f32.members()[0];
  ASSERT_EQ(a.recorded_steps(), (std::vector<int>{0, 50, 100, 150, 200}));
  ASSERT_EQ(b.recorded_steps(), a.recorded_steps());
  for (const char* name : {"train_loss", "test_loss", "train_accuracy", "id_accuracy"}) {
    const double tolerance = std::string(name).find("loss") != std::string::npos ? 5e-3 : 0.01;
    for (size_t r = 0; r < a.recorded_steps().size(); r++)
      EXPECT_NEAR(b.find_series(name)->values[r], a.find_series(name)->values[r], tolerance)
          << name << " at step " << a.recorded_steps()[r];
  }
}

// Same spec, same seed: two float32 runs give the same numbers bit for bit (the kernels sum in one fixed order).
TEST(TransformerFloat32, RunsAreBitIdentical) {
  ExperimentSpec spec = identity_preset(30);
  spec.precision = Precision::float32;
  spec.schedule.record_every = 10;
  Runner a(spec), b(spec);
  const Member &x = trained(a), &y = trained(b);
  for (const char* name : {"train_loss", "test_loss", "id_accuracy"})
    EXPECT_EQ(x.find_series(name)->values, y.find_series(name)->values) << name;
  EXPECT_EQ(x.transformer()->model().params(), y.transformer()->model().params());
}

// "precision": "float32" is accepted for a transformer, kept through JSON, and its packing buffers are counted in the
// memory estimate.
TEST(TransformerFloat32, SpecFieldIsAcceptedAndBudgeted) {
  ExperimentSpec spec = identity_preset(500);
  const double f64_bytes = estimate_memory_bytes(spec);
  spec.precision = Precision::float32;
  const SpecResult r = parse_spec_text(json::write(spec_to_json(spec)));
  ASSERT_TRUE(r.ok()) << r.errors[0];
  EXPECT_EQ(r.spec.precision, Precision::float32);
  const TransformerConfig c = transformer_config(spec.model.transformer, spec.task.anchor, 64);
  EXPECT_EQ(estimate_memory_bytes(spec) - f64_bytes, gemm_f32_workspace_bytes(transformer_f32_shapes(c, 128)));
}
