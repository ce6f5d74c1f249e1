// Layer normalization over the last dimension, with a learned gain and bias (as torch.nn.LayerNorm, eps 1e-5), or
// without them (g, b null: torch's elementwise_affine=False, as the residual MLP's pre-norm uses it).
//
//   out = (x − mean) · rstd · g + b,   rstd = 1 / sqrt(var + eps),  var the biased variance of the row.
//
// forward keeps each row's mean and rstd so backward needs no second pass over x's statistics.
#pragma once

constexpr double kLayerNormEps = 1e-5;

// rows × C input; mean and rstd have one entry per row. g and b: both given, or both null (g = 1, b = 0).
void layernorm_forward(double* out, double* mean, double* rstd, const double* x, const double* g, const double* b,
                       long rows, int C);
// Adds to dx, dg and db (callers zero them first or accumulate on purpose). Without a gain (g null) dg and db are
// null too.
void layernorm_backward(double* dx, double* dg, double* db, const double* dout, const double* x, const double* g,
                        const double* mean, const double* rstd, long rows, int C);
