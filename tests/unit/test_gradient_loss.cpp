// The instruments behind the frequency-principle toggles: the gradient-augmented loss
// (book eq. 6.3) and ASI's masked gradients against central differences, and the filtering method's errors.
// Quick, so they also run under the sanitizers (test_fp_toggles holds the training runs).
#include <gtest/gtest.h>

#include <cmath>

#include "engine/metrics/frequency_filter.hpp"
#include "engine/model/gradient_loss.hpp"
#include "engine/task/phenomena_tasks.hpp"
#include "engine/task/task.hpp"

namespace {

// A small net with the same layout (bias folded in), random weights, 6 points of x ∈ [−1, 1].
struct SmallNet {
  Mlp mlp;
  std::vector<double> x, y, dy;
  static MlpConfig config(Activation act, bool asi) {
    MlpConfig c(asi ? std::vector<int>{2, 6, 8, 1} : std::vector<int>{2, 5, 4, 1}, act,
                {{0.9, 1.0, 1}, {0.5, 0.7, 1}, {0.4, 1.3, 1}}, 6);
    c.antisymmetric = asi;
    return c;
  }
  SmallNet(Activation act, bool asi) : mlp(config(act, asi)) {
    Rng rng(7);
    mlp.init(rng);
    if (asi)  // break the twin symmetry so the masked gradients are not zero by accident
      for (double& w : mlp.params()) w += w != 0 ? 0.1 * rng.normal() : 0;
    for (int i = 0; i < 6; i++) {
      const double xi = -1 + 0.4 * i;
      x.insert(x.end(), {xi, 1.0});
      y.push_back(std::sin(2 * xi));
      dy.push_back(2 * std::cos(2 * xi));
    }
  }
};

}  // namespace

// ∂f/∂x and ∂L_grad/∂θ against central differences, for every activation with a second derivative; with ASI the
// weights linking the two copies get gradient 0.
TEST(GradientLoss, MatchesCentralDifferences) {
  for (bool asi : {false, true})
    for (Activation act : {Activation::tanh, Activation::sigmoid, Activation::softplus, Activation::x_tanh,
                           Activation::x2_tanh, Activation::sin, Activation::ricker, Activation::linear}) {
      SmallNet net(act, asi);
      GradientLoss loss(net.mlp);
      loss.evaluate(net.mlp, net.x.data(), net.y.data(), net.dy.data(), 6, true);
      const std::vector<double> slopes(loss.slopes(), loss.slopes() + 6);
      const std::vector<double> grads = net.mlp.grads();
      const double h = 1e-5;
      for (int i = 0; i < 6; i++) {  // ∂f/∂x
        double xp[2] = {net.x[size_t(2 * i)] + h, 1}, xm[2] = {net.x[size_t(2 * i)] - h, 1};
        const double fp = net.mlp.forward(xp, 1)[0];
        const double fm = net.mlp.forward(xm, 1)[0];
        EXPECT_NEAR(slopes[size_t(i)], (fp - fm) / (2 * h), 1e-7) << activation_name(act) << " asi " << asi;
      }
      std::vector<double>& theta = net.mlp.params();
      for (size_t k = 0; k < theta.size(); k++) {
        const double keep = theta[k];
        theta[k] = keep + h;
        const double lp = loss.evaluate(net.mlp, net.x.data(), net.y.data(), net.dy.data(), 6, false).total();
        theta[k] = keep - h;
        const double lm = loss.evaluate(net.mlp, net.x.data(), net.y.data(), net.dy.data(), 6, false).total();
        theta[k] = keep;
        const bool masked = asi && keep == 0;  // a zero block between the copies (the only zeros here)
        const double expected = masked ? 0.0 : (lp - lm) / (2 * h);
        EXPECT_NEAR(grads[k], expected, 1e-6 * (1 + std::fabs(expected))) << activation_name(act) << " asi " << asi
                                                                            << " parameter " << k;
      }
    }
}

// The filtering method's two errors are relative: 1 for the zero function, 0 for the target itself.
TEST(FilteringMethod, ErrorsAreRelativeToTheTargetsParts) {
  TaskConfig c;
  c.kind = TaskKind::image_2d;
  c.input_dim = 2;
  c.train_size = c.test_size = 128;  // 16 x 16
  const TaskData d = make_task(c);
  FilterProbe probe(d.train, 0.2);
  const std::vector<double> zero(size_t(d.train.size), 0.0);
  double low = 0, high = 0;
  probe.measure(zero.data(), low, high);
  EXPECT_NEAR(low, 1, 1e-12);
  EXPECT_NEAR(high, 1, 1e-12);
  probe.measure(d.train.y.data(), low, high);
  EXPECT_NEAR(low, 0, 1e-12);
  EXPECT_NEAR(high, 0, 1e-12);
}
