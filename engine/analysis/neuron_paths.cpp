#include "engine/analysis/neuron_paths.hpp"

#include <algorithm>
#include <cmath>
#include <string>

NeuronPaths neuron_paths(const Member& run) {
  NeuronPaths out;
  double lowest = INFINITY, highest = -INFINITY;
  for (int k = 0;; k++) {
    const std::string prefix = "neuron_paths/" + std::to_string(k);
    const Series* angle = run.find_series(prefix + "/angle");
    const Series* amplitude = run.find_series(prefix + "/amplitude");
    if (!angle || !amplitude) break;
    std::vector<PolarPoint>& path = out.paths.emplace_back();
    for (size_t i = 0; i < std::min(angle->values.size(), amplitude->values.size()); i++) {
      const double log_a = amplitude->values[i] > 0 ? std::log10(amplitude->values[i]) : -INFINITY;
      path.push_back({angle->values[i], log_a});
      if (std::isfinite(log_a)) lowest = std::min(lowest, log_a), highest = std::max(highest, log_a);
    }
  }
  if (std::isfinite(lowest)) {
    out.floor = std::floor(lowest);
    out.top = highest - out.floor;
  }
  return out;
}
