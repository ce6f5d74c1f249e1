// The spectral norm ‖M‖_* (largest singular value) by power iteration, for experiment E4, weight change (Yang, Simon
// & Bernstein, "A Spectral Condition for Feature Learning"): how far a weight matrix moved, ‖W − W⁰‖_* / ‖W⁰‖_*,
// is Θ(1) under μP and shrinks like n^-1/2 under NTP.
//
// Why power iteration: only the top singular value is needed; each iteration is two matrix-vector products
// and needs two vectors of scratch, so a member can measure it while training without allocating.
// The start vector is a fixed pseudo-random draw (not the run's seed): the same matrix always gives the
// same number, natively and in wasm.
#pragma once

struct PowerIteration {
  int max_iters = 300;
  double tol = 1e-7;  // stop when an iteration raises the estimate by less than tol (relative)
};

// ‖A − B‖_* for row-major rows×cols matrices A and B; B may be null for ‖A‖_*. The difference is taken
// entry by entry inside the products, never stored. u (rows doubles) and v (cols doubles) are scratch.
// The estimate ‖Mᵀu‖ with unit u never exceeds the true norm and rises with every iteration.
double spectral_norm(const double* a, const double* b, int rows, int cols, double* u, double* v,
                     PowerIteration it = {});
