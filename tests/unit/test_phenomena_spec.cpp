// The phenomena additions to the spec and engine: validation messages, defaults that keep
// old share links unchanged, the data sets, and the instruments (DFT peaks, Hessian, eigenvalues, neurons).
#include <gtest/gtest.h>

#include <cmath>

#include "engine/analysis/phase_diagram.hpp"
#include "engine/kernels/symmetric_eigen.hpp"
#include "engine/metrics/frequency.hpp"
#include "engine/metrics/hessian.hpp"
#include "engine/metrics/neurons.hpp"
#include "engine/task/phenomena_tasks.hpp"
#include "phenomena_util.hpp"

namespace {

std::vector<std::string> errors_of(const std::string& text) { return parse_spec_text(text).errors; }

bool has_error(const std::vector<std::string>& errors, const std::string& text) {
  for (const auto& e : errors)
    if (e == text) return true;
  return false;
}

std::string joined(const std::vector<std::string>& errors) {
  std::string out;
  for (const auto& e : errors) out += e + "\n";
  return out;
}

}  // namespace

TEST(PhenomenaSpec, NewFieldsAreValidatedWithPreciseMessages) {
  auto e = errors_of(R"({"version":1,"task":{"kind":"function_1d","target":"parity","input_dim":2}})");
  EXPECT_TRUE(has_error(e, "task.target: \"parity\" is not a function_1d target (sin135, sin15, step, noisy_sin, "
                           "piecewise_relu, four_points)")) << joined(e);
  EXPECT_TRUE(has_error(e, "task.input_dim: 2 is not 1 (function_1d is a 1-D task)")) << joined(e);
  e = errors_of(R"({"version":1,"task":{"kind":"boolean_cube","target":"parity","input_dim":10,"train_size":200,
                   "test_size":900}})");
  EXPECT_TRUE(has_error(e, "task.test_size: train_size + test_size = 1100 is more than the 1024 corners of {-1,1}^10"))
      << joined(e);
  e = errors_of(R"({"version":1,"task":{"target":"step"}})");
  EXPECT_TRUE(has_error(e, "task.target: only for task.kind \"function_1d\" or \"boolean_cube\"")) << joined(e);
  e = errors_of(R"({"version":1,"task":{"kind":"function_1d","target":"sin3"}})");
  EXPECT_EQ(e.size(), 1u) << joined(e);
  EXPECT_NE(e[0].find("task.target: \"sin3\" is not one of none, sin135"), std::string::npos) << e[0];
  e = errors_of(R"({"version":1,"parametrization":{"preset":"two_layer_gamma","gamma":1.5},"model":{"widths":[8,8]}})");
  EXPECT_TRUE(has_error(e, "parametrization.preset: two_layer_gamma is defined for exactly 1 hidden layer, the model "
                           "has 2")) << joined(e);
  e = errors_of(R"({"version":1,"parametrization":{"gamma":0.5},"sweep":{"phase_points":[[1,0]]}})");
  EXPECT_TRUE(has_error(e, "parametrization.gamma: only for parametrization.preset \"two_layer_gamma\"")) << joined(e);
  EXPECT_TRUE(has_error(e, "sweep.phase_points: only for parametrization.preset \"two_layer_gamma\"")) << joined(e);
  e = errors_of(R"({"version":1,"parametrization":{"preset":"two_layer_gamma"},"model":{"widths":[8]},
                   "sweep":{"phase_points":[[1,0],[5,0],[1]]}})");
  EXPECT_TRUE(has_error(e, "sweep.phase_points[1][0]: 5 is not in [-4, 4]")) << joined(e);
  EXPECT_TRUE(has_error(e, "sweep.phase_points[2]: expected a pair [gamma, gamma_prime], got array")) << joined(e);
  e = errors_of(R"({"version":1,"optimizer":{"kind":"gd_auto","lr":3},"schedule":{"batch_size":8}})");
  EXPECT_TRUE(has_error(e, "optimizer.lr: 3 is not below 2 (gd_auto takes the step lr/lambda_max; GD is unstable from "
                           "2/lambda_max on)")) << joined(e);
  EXPECT_TRUE(has_error(e, "optimizer.kind: gd_auto is full-batch gradient descent, schedule.batch_size must be 0"))
      << joined(e);
  e = errors_of(R"({"version":1,"metrics":["fp_delta","condensation"],"model":{"widths":[8,8]}})");
  EXPECT_TRUE(has_error(e, "metrics[0]: fp_delta needs a function_1d task on a grid (not four_points)")) << joined(e);
  EXPECT_TRUE(has_error(e, "metrics[1]: condensation needs exactly 1 hidden layer (neurons = input weights and output "
                           "weight)")) << joined(e);
  e = errors_of(R"({"version":1,"parametrization":{"init_scale":0,"init_scale_layers":"last"}})");
  EXPECT_TRUE(has_error(e, "parametrization.init_scale: 0 is not in [1e-12, 1000000]")) << joined(e);
  EXPECT_TRUE(has_error(e, "parametrization.init_scale_layers: \"last\" is not one of all, first")) << joined(e);
  e = errors_of(R"({"version":1,"task":{"kind":"sectors","input_dim":2},"schedule":{"stop_loss_ratio":0.1}})");
  EXPECT_TRUE(has_error(e, "schedule.stop_loss_ratio: needs a regression task (it compares with the zero predictor)"))
      << joined(e);
}

TEST(PhenomenaSpec, DefaultsAreAbsentFromJsonAndSetFieldsRoundTrip) {
  const std::string plain = json::write(spec_to_json(ExperimentSpec{}));
  for (const char* field : {"activation_param", "init_scale", "gamma", "target", "noise", "center_target",
                            "stop_loss_ratio", "phase_points"})
    EXPECT_EQ(plain.find(field), std::string::npos) << field;
  const ExperimentSpec s = spec_from(R"({"version":1,"model":{"widths":[16],"activation":"ricker",
    "activation_param":0.3,"input_bias":true},"parametrization":{"preset":"two_layer_gamma","gamma":1.25,
    "gamma_prime":0.25,"init_scale":2,"init_scale_layers":"first"},"task":{"kind":"function_1d","target":"noisy_sin",
    "input_dim":1,"noise":0.1,"center_target":true},"optimizer":{"kind":"gd_auto","lr":0.5},
    "schedule":{"stop_loss_ratio":0.001},"sweep":{"phase_points":[[0.5,0],[1.75,0.25]]},
    "metrics":["train_loss","fp_delta","weight_rd","sharpness","sign_accuracy","condensation"]})");
  const std::string text = json::write(spec_to_json(s));
  const SpecResult again = parse_spec_text(text);
  ASSERT_TRUE(again.ok()) << again.errors[0];
  EXPECT_EQ(json::write(spec_to_json(again.spec)), text);
  EXPECT_EQ(again.spec.sweep.phase_points.size(), 2u);
  EXPECT_EQ(again.spec.sweep.phase_points[1].gamma_prime, 0.25);
  EXPECT_EQ(again.spec.model.activation, Activation::ricker);
  EXPECT_EQ(again.spec.task.target, Target::noisy_sin);
}

// ASI, dropout, the gradient-augmented loss, image_2d and fp_filter.
TEST(PhenomenaSpec, TogglesAreValidatedAndRoundTrip) {
  auto e = errors_of(R"({"version":1,"model":{"dropout":0.99}})");
  EXPECT_TRUE(has_error(e, "model.dropout: 0.99 is not in [0, 0.95]")) << joined(e);
  e = errors_of(R"({"version":1,"model":{"activation":"gelu","dropout":0.5},
    "task":{"kind":"function_1d","target":"step","input_dim":1,"gradient_loss":true},"schedule":{"batch_size":8}})");
  EXPECT_TRUE(has_error(e, "task.gradient_loss: not with model.dropout")) << joined(e);
  EXPECT_TRUE(has_error(e, "task.gradient_loss: needs a function_1d task with a smooth target (sin135, sin15)"))
      << joined(e);
  EXPECT_TRUE(has_error(e, "task.gradient_loss: full batch only, schedule.batch_size must be 0")) << joined(e);
  EXPECT_TRUE(has_error(e, "task.gradient_loss: needs phi'' of the activation; gelu is not supported (use tanh, "
                           "sigmoid, softplus, ...)")) << joined(e);
  e = errors_of(R"({"version":1,"task":{"kind":"image_2d","input_dim":3,"train_size":500,"test_size":400},
    "metrics":["fp_filter"]})");
  EXPECT_TRUE(has_error(e, "task.input_dim: 3 is not 2 (image_2d: the pixel position)")) << joined(e);
  EXPECT_TRUE(has_error(e, "task.train_size: 500 is not side^2/2 for an even side (image_2d trains on the odd "
                           "columns of a side x side image: 512 for 32 x 32)")) << joined(e);
  EXPECT_TRUE(has_error(e, "task.test_size: 400 is not train_size (image_2d tests on the even columns)")) << joined(e);
  e = errors_of(R"({"version":1,"task":{"kind":"sin_regression","train_size":5000},"metrics":["fp_filter"],
    "optimizer":{"kind":"gd_auto","lr":0.5},"model":{"dropout":0.5}})");
  EXPECT_TRUE(has_error(e, "metrics[0]: fp_filter holds a train_size^2 kernel: train_size 5000 is more than 2048"))
      << joined(e);
  EXPECT_TRUE(has_error(e, "model.dropout: not with gd_auto (its step size comes from the loss without dropout)"))
      << joined(e);
  e = errors_of(R"({"version":1,"task":{"kind":"skipgram","input_dim":10,"train_size":40},"metrics":["fp_filter"]})");
  EXPECT_TRUE(has_error(e, "metrics[0]: fp_filter needs a regression with one output, not 10")) << joined(e);

  const std::string plain = json::write(spec_to_json(ExperimentSpec{}));
  for (const char* field : {"asi", "dropout", "gradient_loss", "filter_width"})
    EXPECT_EQ(plain.find(field), std::string::npos) << field;
  const ExperimentSpec s = spec_from(R"({"version":1,"model":{"widths":[8,8],"activation":"tanh","asi":true,
    "dropout":0.25},"task":{"kind":"function_1d","target":"sin135","input_dim":1,"filter_width":0.5},
    "metrics":["train_loss","fp_filter"]})");
  const std::string text = json::write(spec_to_json(s));
  const SpecResult again = parse_spec_text(text);
  ASSERT_TRUE(again.ok()) << again.errors[0];
  EXPECT_EQ(json::write(spec_to_json(again.spec)), text);
  EXPECT_TRUE(again.spec.model.asi);
  EXPECT_EQ(again.spec.model.dropout, 0.25);
  EXPECT_EQ(again.spec.task.filter_width, 0.5);
  const ExperimentSpec g = spec_from(R"({"version":1,"model":{"activation":"tanh"},
    "task":{"kind":"function_1d","target":"sin15","input_dim":1,"gradient_loss":true}})");
  EXPECT_TRUE(parse_spec_text(json::write(spec_to_json(g))).spec.task.gradient_loss);
}

TEST(PhenomenaTasks, GridsCubeAndFourPoints) {
  TaskConfig c;
  c.kind = TaskKind::function_1d;
  c.target = Target::sin135;
  c.input_dim = 1;
  c.train_size = 128;
  c.test_size = 64;
  TaskData d = make_task(c);
  ASSERT_EQ(d.train.size, 128);
  EXPECT_NEAR(d.train.x[0], -M_PI, 1e-15);
  EXPECT_NEAR(d.train.x[127], -M_PI + 2 * M_PI * 127 / 128, 1e-12);
  const double x = d.train.x[37];
  EXPECT_NEAR(d.train.y[37], std::sin(x) + std::sin(3 * x) + std::sin(5 * x), 1e-12);
  EXPECT_EQ(spectrum_peaks(d.train.y.data(), 128), (std::vector<int>{1, 3, 5}));
  c.target = Target::step;
  d = make_task(c);
  EXPECT_EQ(spectrum_peaks(d.train.y.data(), 128), (std::vector<int>{1, 3, 5}));  // 1/k decay: 7 is below 20%

  c.kind = TaskKind::boolean_cube;
  c.target = Target::parity;
  c.input_dim = 10;
  c.train_size = 200;
  c.test_size = 824;
  d = make_task(c);
  std::vector<int> seen(1024, 0);
  for (const Dataset* set : {&d.train, &d.test})
    for (int i = 0; i < set->size; i++) {
      int corner = 0;
      double product = 1;
      for (int k = 0; k < 10; k++) {
        corner |= (set->x[size_t(i * 10 + k)] > 0) << k;
        product *= set->x[size_t(i * 10 + k)];
      }
      seen[size_t(corner)]++;
      EXPECT_EQ(set->y[size_t(i)], product);
    }
  for (int n : seen) EXPECT_EQ(n, 1);  // train and test split the cube, no corner twice

  c.kind = TaskKind::function_1d;
  c.target = Target::four_points;
  c.input_dim = 1;
  c.train_size = 4;
  c.test_size = 201;
  d = make_task(c);
  EXPECT_EQ(d.train.x, (std::vector<double>{-0.8, -0.3, 0.2, 0.7}));
  EXPECT_EQ(d.train.y, (std::vector<double>{0.6, 0.2, 0.5, -0.2}));
  EXPECT_NEAR(d.test.x[100], 0.0, 1e-15);
  EXPECT_NEAR(d.test.y[100], 0.2 + (0.0 + 0.3) / 0.5 * 0.3, 1e-12);  // x = 0 lies between (−0.3, 0.2) and (0.2, 0.5)
}

TEST(PhenomenaInstruments, HessianOfALinearModelIsXtXOverB) {
  // f = x Wᵀ with one weight matrix: L = 1/(2B) Σ (f − y)², so H = XᵀX / B exactly.
  Mlp m({2, 1}, Activation::linear, normal_scaling(1), 3);
  Rng rng(1);
  m.init(rng);
  const std::vector<double> x{1, 2, -1, 0.5, 3, -2}, y{0.1, -0.2, 0.3};
  HessianProbe probe(m, x.data(), y.data(), 3);
  const std::vector<double> h = probe.matrix();
  const double xtx[4] = {(1 + 1 + 9) / 3.0, (2 - 0.5 - 6) / 3.0, (2 - 0.5 - 6) / 3.0, (4 + 0.25 + 4) / 3.0};
  for (int i = 0; i < 4; i++) EXPECT_NEAR(h[size_t(i)], xtx[i], 1e-7);
  const std::vector<double> eig = symmetric_eigenvalues(h, 2);
  const double tr = xtx[0] + xtx[3], det = xtx[0] * xtx[3] - xtx[1] * xtx[2];
  const double top = tr / 2 + std::sqrt(tr * tr / 4 - det);
  EXPECT_NEAR(eig[1], top, 1e-7);
  EXPECT_NEAR(eig[0], tr / 2 - std::sqrt(tr * tr / 4 - det), 1e-7);
  EXPECT_NEAR(probe.top_eigenvalue(), top, 1e-5 * top);
}

TEST(PhenomenaInstruments, JacobiFindsKnownEigenvalues) {
  // diag(−2, 1, 5) rotated: eigenvalues unchanged, including the negative one
  const double c = std::cos(0.7), s = std::sin(0.7);
  const double r[9] = {c, -s, 0, s, c, 0, 0, 0, 1};
  const double d[3] = {-2, 1, 5};
  std::vector<double> a(9, 0.0);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 3; k++) a[size_t(i * 3 + j)] += r[i * 3 + k] * d[k] * r[j * 3 + k];
  const std::vector<double> eig = symmetric_eigenvalues(a, 3);
  EXPECT_NEAR(eig[0], -2, 1e-12);
  EXPECT_NEAR(eig[1], 1, 1e-12);
  EXPECT_NEAR(eig[2], 5, 1e-12);
}

TEST(PhenomenaInstruments, CondensedNeuronsFormOneLineAndSortedBlocks) {
  // Four neurons on the line ±(1, 2) and two on (1, −1): two lines; the cosine matrix sorts into blocks.
  Mlp m({2, 6, 1}, Activation::relu, normal_scaling(2), 1);
  const double w[12] = {1, 2, -2, -4, 0.5, 1, 1, -1, -3, -6, 2, -2};
  const double a[6] = {1, 1, 1, 0.1, 1, 0.1};
  std::copy(w, w + 12, m.weights(0));
  std::copy(a, a + 6, m.weights(1));
  EXPECT_EQ(condensed_lines(m, 0.9, 0.999), 2);
  std::vector<int> order;
  const std::vector<double> d = cosine_matrix(m, &order);
  // |D| is 1 inside a line and 0.316 across; sorted by the leading eigenvector the (1, −1) neurons are adjacent
  int pos3 = 0, pos5 = 0;
  for (int i = 0; i < 6; i++) {
    if (order[size_t(i)] == 3) pos3 = i;
    if (order[size_t(i)] == 5) pos5 = i;
  }
  EXPECT_EQ(std::abs(pos3 - pos5), 1);
  const double total = 1 * std::sqrt(5) + 1 * std::sqrt(20) + 1 * std::sqrt(1.25) + 0.1 * std::sqrt(2) +
                       1 * std::sqrt(45) + 0.1 * std::sqrt(8);
  EXPECT_NEAR(antipodal_share(m), (total - 0.1 * std::sqrt(2) - 0.1 * std::sqrt(8)) / total, 1e-12);
  const std::vector<NeuronPoint> pts = neuron_scatter(m);
  EXPECT_NEAR(pts[0].angle, std::atan2(2, 1), 1e-12);
  EXPECT_NEAR(pts[1].amplitude, std::sqrt(20), 1e-12);
}

TEST(PhenomenaInstruments, TheoreticalPhaseRegimes) {
  EXPECT_EQ(theoretical_regime(0.5, 0), PhaseRegime::linear);     // NTK
  EXPECT_EQ(theoretical_regime(0.5, 0.5), PhaseRegime::linear);   // LeCun / He
  EXPECT_EQ(theoretical_regime(1, 0), PhaseRegime::critical);     // mean field, Xavier
  EXPECT_EQ(theoretical_regime(1.75, 0), PhaseRegime::condensed);
  EXPECT_EQ(theoretical_regime(1.75, 0.75), PhaseRegime::critical);
  EXPECT_EQ(theoretical_regime(1.75, 1), PhaseRegime::linear);
}
