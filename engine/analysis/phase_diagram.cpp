#include "engine/analysis/phase_diagram.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/analysis/analysis.hpp"

const char* phase_regime_name(PhaseRegime r) {
  switch (r) {
    case PhaseRegime::linear: return "linear";
    case PhaseRegime::critical: return "critical";
    case PhaseRegime::condensed: return "condensed";
  }
  return "?";
}

PhaseRegime theoretical_regime(double gamma, double gamma_prime) {
  constexpr double tol = 1e-9;
  const bool on_gamma_1 = std::fabs(gamma - 1) < tol && gamma_prime <= tol;
  const bool on_diagonal = gamma >= 1 - tol && std::fabs(gamma_prime - (gamma - 1)) < tol;
  if (on_gamma_1 || on_diagonal) return PhaseRegime::critical;
  if (gamma < 1 || gamma_prime > gamma - 1) return PhaseRegime::linear;
  return PhaseRegime::condensed;
}

std::vector<PhaseSlope> phase_slopes(const Runner& runner, bool require_converged) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const ExperimentSpec& spec = runner.spec();
  std::vector<PhasePoint> phases = spec.sweep.phase_points;
  if (phases.empty()) phases.push_back({spec.parametrization.gamma, spec.parametrization.gamma_prime});
  std::vector<PhaseSlope> out;
  for (const PhasePoint& phase : phases) {
    PhaseSlope ps;
    ps.phase = phase;
    for (const auto& run : runner.members()) {
      const double w = run->width();
      if (std::find(ps.widths.begin(), ps.widths.end(), w) == ps.widths.end()) ps.widths.push_back(w);
    }
    std::sort(ps.widths.begin(), ps.widths.end());
    std::vector<double> rd_geomean;
    for (double w : ps.widths) {
      double sum = 0;
      int count = 0;
      bool missing = false;
      for (const auto& run : runner.members()) {
        if (run->coords().phase.gamma != phase.gamma || run->coords().phase.gamma_prime != phase.gamma_prime ||
            run->width() != int(w))
          continue;
        const Series* s = run->find_series("weight_rd");
        const bool unconverged = spec.schedule.stop_loss_ratio > 0 && !run->reached_stop_loss();
        ps.unconverged += unconverged && run->status() == RunStatus::finished;
        if (run->status() != RunStatus::finished || (unconverged && require_converged) || !s || s->values.empty() ||
            !(s->values.back() > 0)) {
          missing = true;
          continue;
        }
        sum += std::log(s->values.back());
        count++;
      }
      const double mean = missing || count == 0 ? nan : sum / count;
      ps.mean_log_rd.push_back(mean);
      rd_geomean.push_back(std::exp(mean));
    }
    ps.slope = loglog_slope(ps.widths, rd_geomean);
    out.push_back(ps);
  }
  return out;
}
