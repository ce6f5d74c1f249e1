// The neuron_paths metric and the polar picture's data (engine/analysis/neuron_paths.hpp): the chapter-8 ReLU net
// (preset 24's model and task) trained 200 steps, recorded every 50. Each neuron's path must start at its point
// from the initial weights and end at its point from the trained weights, computed here by neuron_point directly.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/analysis/neuron_paths.hpp"
#include "engine/metrics/neurons.hpp"
#include "phenomena_util.hpp"

namespace {

const char* kSpec = R"({"version":1,
  "model":{"widths":[100],"activation":"relu","input_bias":true},
  "parametrization":{"preset":"normal","init_scale":0.001},
  "task":{"kind":"function_1d","target":"piecewise_relu","input_dim":1,"train_size":64,"test_size":201},
  "optimizer":{"kind":"adam","lr":0.001},"schedule":{"steps":200,"record_every":50},
  "sweep":{"seeds":[0]},"metrics":["train_loss","condensation","neuron_paths"]})";

Mlp with_params(const Mlp& m, const std::vector<double>& params) {
  Mlp copy(m.dims(), m.activation(), m.scaling(), 1);
  copy.params() = params;
  return copy;
}

}  // namespace

TEST(NeuronPaths, StartAtInitAndEndAtTheTrainedWeights) {
  Runner runner(spec_from(kSpec));
  while (runner.step()) {}
  const Member& run = *runner.members()[0];
  const NeuronPaths p = neuron_paths(run);
  ASSERT_EQ(p.paths.size(), 100u);
  const Mlp init = with_params(*run.mlp(), run.initial_params());
  double moved = 0;
  for (int k = 0; k < 100; k++) {
    const std::vector<PolarPoint>& path = p.paths[size_t(k)];
    ASSERT_EQ(path.size(), 5u);  // steps 0, 50, 100, 150, 200
    const NeuronPoint first = neuron_point(init, k), last = neuron_point(*run.mlp(), k);
    EXPECT_DOUBLE_EQ(path.front().angle, first.angle);
    EXPECT_DOUBLE_EQ(path.front().log10_amplitude, std::log10(first.amplitude));
    EXPECT_DOUBLE_EQ(path.back().angle, last.angle);
    EXPECT_DOUBLE_EQ(path.back().log10_amplitude, std::log10(last.amplitude));
    EXPECT_GE(path.front().log10_amplitude - p.floor, 0);
    EXPECT_LE(path.back().log10_amplitude - p.floor, p.top + 1e-12);
    moved = std::max(moved, path.back().log10_amplitude - path.front().log10_amplitude);
  }
  EXPECT_GT(moved, 1);  // small init: the leading neurons grow by more than a decade in 200 Adam steps
  EXPECT_LE(p.floor, -6);  // A_k ~ (1e-3)² at init
}

TEST(NeuronPaths, NeedsOneHiddenLayer) {
  SpecResult r = parse_spec_text(R"({"version":1,"model":{"widths":[8,8]},"metrics":["neuron_paths"]})");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors[0].find("neuron_paths needs exactly 1 hidden layer"), std::string::npos) << r.errors[0];
}

// A run without the metric has no paths (the page then draws init and now only).
TEST(NeuronPaths, EmptyWithoutTheMetric) {
  std::string spec = kSpec;
  spec.replace(spec.find(",\"neuron_paths\""), 15, "");
  Runner runner(spec_from(spec));
  runner.step();
  EXPECT_TRUE(neuron_paths(*runner.members()[0]).paths.empty());
}
