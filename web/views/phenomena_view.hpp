// The "phenomena" tab: the pictures of the book's chapters 4-9, each shown when the
// experiment records what it needs:
//   fp_delta      Δ_F(k) per peak vs step (curves and a heat map), target vs output, |ŷ_k| and |ĥ_k| vs k
//   weight_rd     with two_layer_gamma: the (γ, γ′) map coloured by S_w with the theory's boundary lines; a
//                 point with runs that stopped at schedule.steps above the stopping loss is hatched (grey when no
//                 slope is left) and its S_w fits only the widths whose runs converged
//   condensation  (and the phase map) neurons in polar coordinates (web/views/neuron_polar.hpp) at init and now, with
//                 their paths when neuron_paths is recorded, beside the train loss; the cosine matrix
//   sharpness     λ_max vs step with 2/η per learning rate
// Everything drawn is read from the Runner (series, weights); nothing here trains.
// The tab's content scrolls in a child window under the view tabs, so the tab bar stays in place.
#pragma once
#include "engine/analysis/phase_diagram.hpp"
#include "engine/run/runner.hpp"

#include <vector>

// A picture's numbers computed from a member's network (its outputs on a data set, its cosine matrix), kept until
// the member steps or records again: the view draws every frame, the network changes far less often.
struct NetworkPicture {
  const Member* member = nullptr;
  const Dataset* data = nullptr;  // null for a picture of the weights alone
  int steps = -1, records = -1, adopted = -1;  // the member's state it was computed at
  std::vector<double> values;
};

// A phase point as the map shows it. An unconverged run's weights are still moving, so its RD is not the end of
// training the order parameter is defined at: S_w fits only the widths whose runs all reached the stopping loss.
struct PhasePointFit {
  PhaseSlope all;                        // phase_slopes(runner, false): every finished run; `unconverged` counted
  double slope = 0;                      // S_w over the converged widths; NaN below two of them
  std::vector<double> converged_widths;  // the widths that slope fits
  std::vector<int> unconverged_widths;   // of the runs that stopped at schedule.steps above the stopping loss
  int runs = 0;                          // sweep members at the point (widths × seeds)
};

std::vector<PhasePointFit> phase_point_fits(const Runner& runner);

struct PhenomenaView {
  int run = 0;  // which sweep member the per-run pictures show
  // Kept between frames; cleared when a new Runner starts (App's reset).
  std::vector<NetworkPicture> pictures;  // every picture drawn so far (a handful of members and sets)
  std::vector<PhasePointFit> slopes;     // the phase map's fits, at the sweep's state_revision `slopes_at`
  long slopes_at = -1;
};

void phenomena_view(PhenomenaView& v, const Runner& runner);
