// The infinite-width limit of a linear network with one hidden layer (Tensor Programs IV; experiment E7), exactly.
//
// Mean-field form (MFP, or μP, which is the same net for one hidden layer): f(ξ) = (1/n) Vᵀ U ξ with U = W₁
// (n × d_in) and V = n W₂ᵀ (n × d_out), both with Θ(1) entries, trained by SGD with effective learning rate ηn on
// U and on V. For the engine's loss L = 1/(2B) Σ_b |f(ξ_b) − y_b|², let M_t = (1/B) Σ_b (f_t(ξ_b) − y_b) ξ_bᵀ
// (d_out × d_in). Then ∂L/∂U = (1/n) V M and ∂L/∂V = (1/n) U Mᵀ, so one step is
//   U ← U − η V M,   V ← V − η U Mᵀ.
// Every row of [U V] therefore stays in the span of its own initial row: [U V]_t = [U₀ V₀][P_t Q_t] with
//   P_{t+1} = P_t − η Q_t M_t,  Q_{t+1} = Q_t − η P_t M_tᵀ,  P₀ = (I; 0),  Q₀ = (0; I),
// and f_t(ξ) = (1/n) Q_tᵀ [U₀ V₀]ᵀ[U₀ V₀] P_t ξ = Q_tᵀ Ĝ P_t ξ. The width enters only through the Gram matrix Ĝ:
// with Ĝ of a finite network this recursion *is* that network (to rounding); at n = ∞, Ĝ is its expectation,
// diag(σ_U² I, σ_V² I) (σ_U = 1/√d_in and σ_V = 1 in the engine's init), and the recursion is the limit.
// For d_in = d_out = 1 and Ĝ = I it is the spec's scalar form f_t = (A_tC_t + B_tD_t)ξ (linear_limit_scalar).
#pragma once
#include <string>
#include <vector>

#include "engine/model/mlp.hpp"

// Whether m is a one-hidden-layer net whose SGD follows the mean-field form above (effective LR ηn on U = W₁ and
// on V = n W₂ᵀ; MFP and μP are, any activation); otherwise `why` says what differs.
bool mean_field_form(const Mlp& m, std::string* why);
// The same, and linear: the nets this file's recursion is exact for.
bool linear_mean_field(const Mlp& m, std::string* why);
// The init std of the entries of U = W₁ and of V = n W₂ᵀ (Θ(1) in the mean-field form).
void mean_field_init_std(const Mlp& m, double* u_std, double* v_std);

// Ĝ = [U₀ V₀]ᵀ[U₀ V₀] / n of m's current weights ((d_in + d_out)², row-major). m must pass linear_mean_field.
std::vector<double> gram_of(const Mlp& m);
// Its n = ∞ value for m's initialization: diag(σ_U² I_{d_in}, σ_V² I_{d_out}).
std::vector<double> gram_at_infinity(const Mlp& m);

// f on every input ξ_b (count × d_in) at every step: (steps + 1) × count × d_out, by the P/Q recursion with Gram
// matrix G, full-batch on targets y (count × d_out), base learning rate η. If `final_P` is given it receives P
// after the last step ((d_in + d_out) × d_in): the first layer is then U = [U₀ V₀] P, so Pᵀ Ĝ P is the Gram
// matrix (1/n) Uᵀ U of the first layer's columns — the learned input embeddings (experiment E9).
std::vector<double> linear_limit(const std::vector<double>& G, const double* x, const double* y, int count, int d_in,
                                 int d_out, double lr, int steps, std::vector<double>* final_P = nullptr);

// The spec's scalar form (d_in = d_out = 1, one example ξ with target y, Ĝ = I): f_0 … f_steps.
//   f_t = (A_tC_t + B_tD_t)ξ,  (A,B) ← (A,B) − η L′ξ (C,D),  (C,D) ← (C,D) − η L′ξ (A,B),  L′ = f_t − y,
// from A₀ = D₀ = 1, B₀ = C₀ = 0 (the spec writes it for η = 1).
std::vector<double> linear_limit_scalar(double xi, double y, double lr, int steps);
