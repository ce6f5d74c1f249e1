#include "engine/param/parametrization.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>


const char* regime_name(Regime r) {
  switch (r) {
    case Regime::unstable: return "unstable";
    case Regime::trivial: return "trivial";
    case Regime::kernel: return "kernel";
    case Regime::feature_learning: return "feature_learning";
  }
  return "?";
}

std::vector<Abc> preset_exponents(Preset p, int layers, UpdateRule rule) {
  std::vector<Abc> abc(size_t(std::max(layers, 0)));
  const int last = layers - 1;
  for (int l = 0; l < layers; l++) {
    Abc& e = abc[size_t(l)];
    const bool input = l == 0, output = l == last;
    switch (p) {
      case Preset::sp:  // W ~ N(0, 1/fan_in), one global learning rate
        e = {0, input ? 0.0 : 0.5, 0};
        break;
      case Preset::sp_lr_over_n:
        e = {0, input ? 0.0 : 0.5, 1};
        break;
      case Preset::ntp:  // N(0,1) weights, 1/sqrt(fan_in) in the forward pass
        e = {input ? 0.0 : 0.5, 0, 0};
        break;
      case Preset::mfp:  // defined for one hidden layer: f = (1/n) sum v_i phi(u_i x), LR eta*n
        e = {output ? 1.0 : 0.0, 0, rule == UpdateRule::sgd ? -1.0 : 0.0};
        break;
      case Preset::mup:
        // SGD: a = (-1/2, 0, ..., 1/2), b = 1/2, c = 0.  Adam: per-layer c so the effective LR on W is
        // eta (input), eta/n (hidden, output) — the Tensor Programs V table.
        e.a = input ? -0.5 : (output ? 0.5 : 0.0);
        e.b = 0.5;
        e.c = rule == UpdateRule::sgd ? 0.0 : (input || output ? 0.5 : 1.0);
        break;
      case Preset::custom:
      case Preset::normal:
      case Preset::two_layer_gamma:
        break;  // the caller supplies its own exponents, or the init is not an abc table
    }
  }
  return abc;
}

int scaling_width(int layer, const std::vector<int>& dims) {
  return layer == 0 ? dims[1] : dims[size_t(layer)];
}

std::vector<TensorScaling> scale_layers(const std::vector<Abc>& abc, const std::vector<int>& dims,
                                        UpdateRule rule, double theta) {
  std::vector<TensorScaling> out(abc.size());
  for (size_t l = 0; l < abc.size(); l++) {
    const double n = scaling_width(int(l), dims);
    const double a = abc[l].a + theta, b = abc[l].b - theta;
    const double c = abc[l].c - (rule == UpdateRule::sgd ? 2 * theta : theta);
    // The input dimension d is not a width: its 1/sqrt(d) stays a constant, as in every preset table.
    const double base = l == 0 ? 1.0 / std::sqrt(double(dims[0])) : 1.0;
    out[l].init_std = base * std::pow(n, -b);
    out[l].multiplier = std::pow(n, -a);
    out[l].lr_multiplier = std::pow(n, -c);
  }
  return out;
}

std::vector<TensorScaling> bias_scaling(const std::vector<Abc>& abc, const std::vector<int>& dims, UpdateRule rule,
                                        double theta) {
  std::vector<TensorScaling> out(abc.size());
  if (abc.empty()) return out;
  const double a = abc[0].a + theta, b = abc[0].b - theta;
  const double c = abc[0].c - (rule == UpdateRule::sgd ? 2 * theta : theta);
  for (size_t l = 0; l < abc.size(); l++) {
    const double n = dims[l + 1];
    out[l].init_std = std::pow(n, -b);
    out[l].multiplier = std::pow(n, -a);
    out[l].lr_multiplier = std::pow(n, -c);
  }
  return out;
}

std::vector<TensorScaling> normal_scaling(int layers) {
  TensorScaling unit;
  unit.init_std = 1;
  return std::vector<TensorScaling>(size_t(std::max(layers, 0)), unit);
}

std::vector<TensorScaling> gamma_scaling(double gamma, double gamma_prime, int width) {
  std::vector<TensorScaling> out(2);
  out[0].init_std = std::pow(double(width), -(gamma - gamma_prime) / 2);  // β₂, input weights w
  out[1].init_std = std::pow(double(width), -(gamma + gamma_prime) / 2);  // β₁, output weights a
  return out;
}

void apply_init_scale(std::vector<TensorScaling>& layers, double factor, InitScaleLayers which) {
  for (size_t l = 0; l < layers.size(); l++)
    if (which == InitScaleLayers::all || l == 0) layers[l].init_std *= factor;
}

namespace {

bool eq(double x, double y) { return std::fabs(x - y) < 1e-9; }
bool ge(double x, double y) { return x > y - 1e-9; }

std::string fmt(const char* pattern, double x) {
  char buf[160];
  std::snprintf(buf, sizeof buf, pattern, x);
  return buf;
}

}  // namespace

Classification classify(const std::vector<Abc>& abc_in) {
  Classification out;
  if (abc_in.size() < 2) {
    out.reason = "needs at least one hidden layer";
    return out;
  }
  // Fold per-layer c into (a, b): (a+θ, b−θ, c−2θ) is a symmetry of each layer under SGD.
  std::vector<Abc> abc = abc_in;
  const double c = abc[0].c;
  for (auto& e : abc) {
    const double theta = (e.c - c) / 2;
    e = {e.a + theta, e.b - theta, c};
  }
  const size_t L = abc.size() - 1;  // hidden layers
  const Abc& out_layer = abc[L];
  const double out_ab = out_layer.a + out_layer.b, out_2ac = 2 * out_layer.a + c;
  double min_hidden = 1e300;
  for (size_t l = 0; l < L; l++) min_hidden = std::min(min_hidden, 2 * abc[l].a + (l == 0 ? 1.0 : 0.0));
  out.r = std::min(out_ab, out_2ac) + c - 1 + min_hidden;

  std::vector<std::string> broken;
  if (!eq(abc[0].a + abc[0].b, 0))
    broken.push_back(fmt("a1+b1 = %g, not 0: first-layer preactivations do not stay Θ(1) at init", abc[0].a + abc[0].b));
  for (size_t l = 1; l < L; l++)
    if (!eq(abc[l].a + abc[l].b, 0.5))
      broken.push_back(fmt("a+b = %g in a hidden layer, not 1/2: hidden preactivations blow up or vanish",
                           abc[l].a + abc[l].b));
  if (!ge(out_ab, 0.5)) broken.push_back(fmt("a+b = %g for the readout, below 1/2: the output blows up at init", out_ab));
  if (!ge(out.r, 0)) broken.push_back(fmt("r = %g < 0: the features' update blows up with width", out.r));
  if (!ge(out_2ac, 1)) broken.push_back(fmt("2a+c = %g for the readout, below 1: its update blows up", out_2ac));
  if (!ge(out_ab + out.r, 1))
    broken.push_back(fmt("a+b+r = %g for the readout, below 1: the output's change blows up", out_ab + out.r));
  if (!broken.empty()) {
    out.regime = Regime::unstable;
    for (size_t k = 0; k < broken.size(); k++) out.reason += (k ? "; " : "") + broken[k];
    return out;
  }
  const bool nontrivial = eq(out_ab + out.r, 1) || eq(out_2ac, 1);
  if (!nontrivial) {
    out.regime = Regime::trivial;
    out.reason = fmt("stable but a+b+r = %g > 1 and 2a+c > 1 for the readout: the function stops moving as n grows",
                     out_ab + out.r);
  } else if (eq(out.r, 0)) {
    out.regime = Regime::feature_learning;
    out.reason = "stable, nontrivial and r = 0: the last layer's features move by Θ(1) (feature learning)";
  } else {
    out.regime = Regime::kernel;
    out.reason = fmt("stable and nontrivial with r = %g > 0: features move by n^-r → 0, the limit is kernel gradient descent",
                     out.r);
  }
  return out;
}
