#include "engine/analysis/limit_curve.hpp"

#include <algorithm>
#include <cstdio>

#include "engine/analysis/dmft.hpp"
#include "engine/analysis/infinite_width.hpp"
#include "engine/analysis/mean_field_limit.hpp"
#include "engine/analysis/ntk.hpp"
#include "engine/run/mlp_member.hpp"

namespace {

constexpr int kQuadratureNodes = 20;      // per dimension, as experiment E8
constexpr int kMaxQuadratureDims = 4;     // (u, v) dimensions: 20^4 = 160 000 weighted neurons at most
constexpr long kMaxKernelDoubles = 8000000;  // the NTK's gradient rows: 64 MB
// DMFT: its Monte Carlo histories hold samples × (steps + 1) × points floats (four of them), and its response
// functions cost ~ (points · steps)³ per response draw, so it is drawn for short runs on a few points only.
constexpr int kMaxDmftPoints = 4, kMaxDmftSteps = 60;
constexpr long kDmftHistoryFloats = 1L << 21;  // per history: 8 MB; 2^14 draws at 20 steps of 4 points

// Square loss of outputs f (count × outputs) on targets y, as the engine's mse_loss defines it.
double square_loss(const double* f, const double* y, long count, int outputs) {
  double sum = 0;
  for (long i = 0; i < count * outputs; i++) sum += (f[i] - y[i]) * (f[i] - y[i]);
  return sum / (2.0 * double(count));
}

// The steps a member of `spec` records: every record_every-th step, then the last.
std::vector<int> recorded_steps(const ExperimentSpec& spec) {
  std::vector<int> out;
  for (int t = 0; t < spec.schedule.steps; t++)
    if (t % spec.schedule.record_every == 0) out.push_back(t);
  out.push_back(spec.schedule.steps);
  return out;
}

// Losses at the recorded steps from outputs at every step 0…T (row t: `row` doubles).
LimitCurve sample(const ExperimentSpec& spec, const Dataset& train, const std::vector<double>& outputs, long row) {
  LimitCurve c;
  c.steps = recorded_steps(spec);
  for (int t : c.steps)
    c.train_loss.push_back(square_loss(outputs.data() + size_t(t) * size_t(row), train.y.data(), train.size, train.outputs));
  return c;
}

// Why plain full-batch SGD on the square loss does not apply, or "".
std::string plain_gd_problem(const ExperimentSpec& s, const TaskData& data) {
  if (s.optimizer.kind != OptimizerKind::sgd) return "needs plain SGD (the limits are of gradient descent)";
  if (s.optimizer.momentum != 0) return "needs SGD without momentum";
  if (s.optimizer.weight_decay != 0) return "needs SGD without weight decay";
  if (data.classification) return "needs a regression task (square loss)";
  if (s.schedule.batch_size != 0 && s.schedule.batch_size < data.train.size) return "needs full-batch training";
  return "";
}

int widest(const ExperimentSpec& s) {
  if (!s.sweep.width.empty()) return *std::max_element(s.sweep.width.begin(), s.sweep.width.end());
  return 0;  // model.widths as written
}

std::vector<double> learning_rates(const ExperimentSpec& s) {
  return s.sweep.lr.empty() ? std::vector<double>{s.optimizer.lr} : s.sweep.lr;
}

// f at every step of the n = ∞ linear net (the P/Q recursion with Ĝ at infinity).
std::vector<double> linear_outputs(const Mlp& m, const Dataset& train, double lr, int steps) {
  return linear_limit(gram_at_infinity(m), train.x.data(), train.y.data(), train.size, train.input_dim, train.outputs,
                      lr, steps);
}

// f at every step of the mean-field limit by quadrature over a neuron's initial (u, v).
std::vector<double> quadrature_outputs(const Mlp& m, const Dataset& train, double lr, int steps) {
  double u_std, v_std;
  mean_field_init_std(m, &u_std, &v_std);
  Neurons limit = gauss_hermite_neurons(train.input_dim, kQuadratureNodes, u_std, v_std);
  return mean_field_trajectory(limit, {train.size, train.input_dim, train.x.data(), train.y.data()}, m.activation(),
                               lr, steps);
}

// f at every step of the two-hidden-layer μP limit by DMFT, and the number of Monte Carlo draws it used.
std::vector<double> dmft_outputs(const DmftNet& net, const Dataset& train, double lr, int steps, int* samples) {
  DmftSettings set;
  set.lr = lr;
  set.steps = steps;
  const long per_draw = long(steps + 1) * train.size;
  set.samples = int(std::min<long>(1L << 14, kDmftHistoryFloats / per_draw)) & ~1;  // even: antithetic pairs
  set.response_samples = set.samples / 8;
  *samples = set.samples;
  return solve_dmft(net, {train.size, train.input_dim, train.x.data(), train.y.data()}, set).f;
}

// f at every step of kernel gradient descent with m's tangent kernel at init, from m's own f₀.
std::vector<double> kernel_outputs(Mlp& m, const Dataset& train, double lr, int steps) {
  const int count = train.size;
  Ntk ntk(m, count);
  std::vector<double> K(size_t(count) * size_t(count));
  std::vector<double> scratch(static_cast<size_t>(count));
  ntk.compute(m, train.x.data(), K.data());
  const double* f0 = m.forward(train.x.data(), count);
  std::vector<double> f(f0, f0 + count), out;
  out.reserve(size_t(steps + 1) * size_t(count));
  for (int t = 0;; t++) {
    out.insert(out.end(), f.begin(), f.end());
    if (t == steps) break;
    kernel_gd_step(K.data(), train.y.data(), count, lr, f.data(), scratch.data());
  }
  return out;
}

std::string format_lr(double lr) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", lr);
  return text;
}

}  // namespace

std::vector<LimitCurve> limit_curves(const ExperimentSpec& spec, const TaskData& data, std::string* why) {
  auto none = [&](const std::string& text) {
    if (why) *why = text;
    return std::vector<LimitCurve>{};
  };
  if (!is_plain_mlp(spec.model.kind)) return none("the width-inf curves are for MLPs");
  const std::string gd = plain_gd_problem(spec, data);
  if (!gd.empty()) return none(gd);
  const Dataset& train = data.train;
  const int width = widest(spec);
  std::vector<LimitCurve> out;
  for (double lr : learning_rates(spec)) {
    MemberCoords coords;
    coords.width = width;
    coords.lr = lr;
    const MlpMember member(spec, data, coords);
    Mlp m = *member.mlp();
    std::string mean_field_why, dmft_why;
    DmftNet net;
    std::vector<double> f;
    std::string kind;
    if (mean_field_form(m, &mean_field_why) && m.activation() == Activation::linear) {
      f = linear_outputs(m, train, lr, spec.schedule.steps);
      kind = "n=inf (exact linear limit)";
    } else if (mean_field_form(m, nullptr)) {
      if (train.outputs != 1 || train.input_dim + 1 > kMaxQuadratureDims)
        return none("the mean-field quadrature needs one output and input_dim <= " +
                    std::to_string(kMaxQuadratureDims - 1));
      f = quadrature_outputs(m, train, lr, spec.schedule.steps);
      kind = "n=inf (mean-field quadrature)";
    } else if (dmft_form(m, &net, &dmft_why)) {
      if (train.size > kMaxDmftPoints || spec.schedule.steps > kMaxDmftSteps)
        return none("the DMFT curve (two hidden layers, muP) is drawn for train_size <= " +
                    std::to_string(kMaxDmftPoints) + " and steps <= " + std::to_string(kMaxDmftSteps));
      int samples = 0;
      f = dmft_outputs(net, train, lr, spec.schedule.steps, &samples);
      kind = "n=inf (DMFT, " + std::to_string(samples) + " samples)";
    } else if (classify(spec_exponents(spec)).regime == Regime::kernel) {
      if (train.outputs != 1) return none("the kernel curve needs one output");
      const long doubles = long(train.size) * long(m.params().size());
      if (doubles > kMaxKernelDoubles)
        return none("the tangent kernel of the widest member would need " + std::to_string(doubles * 8 / 1000000) +
                    " MB (limit " + std::to_string(kMaxKernelDoubles * 8 / 1000000) + " MB)");
      f = kernel_outputs(m, train, lr, spec.schedule.steps);
      kind = "kernel GD, NTK at init of n=" + std::to_string(m.dims()[1]);
    } else {
      return none("known for one hidden layer in mean-field form (MFP, muP), two hidden layers in muP (DMFT) or a "
                  "kernel-regime parametrization (NTP, SP with lr ~ 1/n); here: " +
                  (m.layers() == 3 ? dmft_why : mean_field_why));
    }
    LimitCurve c = sample(spec, train, f, long(train.size) * train.outputs);
    c.lr = lr;
    c.label = kind + (learning_rates(spec).size() > 1 ? ", lr=" + format_lr(lr) : "");
    out.push_back(std::move(c));
  }
  return out;
}
