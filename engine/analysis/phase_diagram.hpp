// The phase diagram of two-layer ReLU nets (the book's chapter 7; Luo et al., JMLR 2021): the order parameter
// RD(θ_w) = ‖θ_w(t*) − θ_w(0)‖ / ‖θ_w(0)‖ at the end of training, and its width exponent S_w, the slope of the
// seed-mean log RD against log m. S_w < 0: linear (weights barely move as m grows); ≈ 0: critical; > 0: condensed.
#pragma once
#include <vector>

#include "engine/run/runner.hpp"

struct PhaseSlope {
  PhasePoint phase;
  std::vector<double> widths;       // ascending
  std::vector<double> mean_log_rd;  // per width: mean over seeds of log RD at the run's last record
  double slope = 0;                 // S_w; NaN if a width has no finished run
  int unconverged = 0;              // runs that stopped at schedule.steps before schedule.stop_loss_ratio
};

// One entry per phase point of a two_layer_gamma sweep with the weight_rd metric. A diverged run makes its width
// missing (NaN slope), never silently dropped; so does one that never reached schedule.stop_loss_ratio (when set)
// if require_converged, else its RD at the last step counts and `unconverged` says how many such runs there were.
std::vector<PhaseSlope> phase_slopes(const Runner& runner, bool require_converged = true);

enum class PhaseRegime { linear, critical, condensed };
const char* phase_regime_name(PhaseRegime r);
// The theory's regime (Luo et al. 2021): linear iff γ < 1 or γ′ > γ − 1; condensed iff γ > 1 and γ′ < γ − 1;
// critical on the lines {γ = 1, γ′ ≤ 0} ∪ {γ ≥ 1, γ′ = γ − 1}.
PhaseRegime theoretical_regime(double gamma, double gamma_prime);
