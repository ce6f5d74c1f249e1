// The "phenomena" tab: the pictures of the book's chapters 4-9, each shown when the
// experiment records what it needs:
//   fp_delta      Δ_F(k) per peak vs step (curves and a heat map), target vs output, |ŷ_k| and |ĥ_k| vs k
//   weight_rd     with two_layer_gamma: the (γ, γ′) map coloured by S_w with the theory's boundary lines
//   condensation  (and the phase map) neurons as points, angle vs amplitude at init and now; the cosine matrix
//   sharpness     λ_max vs step with 2/η per learning rate
// Everything drawn is read from the Runner (series, weights); nothing here trains.
#pragma once
#include "engine/run/runner.hpp"

struct PhenomenaView {
  int run = 0;  // which sweep member the per-run pictures show
};

void phenomena_view(PhenomenaView& v, const Runner& runner);
