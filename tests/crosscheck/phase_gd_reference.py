#!/usr/bin/env python3
"""Steps to the stopping loss of the phase diagram's gradient descent, in float64 numpy with exact Hessians.

The model is the book's normalized two-layer ReLU net (chapter 7; Luo et al., JMLR 2021) on 4 points:

    f(x) = Σ_k a_k ReLU(w_k · (x, 1)),  a_k ~ N(0, β₁²), w_k ~ N(0, β₂² I),  β₁ = m^−(γ+γ′)/2, β₂ = m^−(γ−γ′)/2,
    L = 1/(2n) Σ_i (f(x_i) − y_i)²,  x = (−0.8, −0.3, 0.2, 0.7), y = (0.6, 0.2, 0.5, −0.2).

Protocol: plain GD at η = 0.5/λ_max, λ_max the top eigenvalue of the loss Hessian re-estimated every 100 steps; a
step that raises the loss by more than 1% is undone and retried at half the step (the halved η stays until the next
estimate); a run stops once L ≤ 1e-4 × the zero predictor's loss. The Hessian-vector products are exact (below);
λ_max comes from Lanczos with full reorthogonalization, converged to 1e-10 relative (no step-size error from it).

Prints one row per run: gamma gamma' width seed steps reached(0/1). Inits come from numpy (--widths, --seeds,
--points) or, with --engine-init FILE, from `muplay export-init` (the engine's members, its data), so a run here and
the engine's run start from the same weights. tests/crosscheck/phase_gd_steps.py compares the two.
"""
import argparse
import json
import math
import sys

import numpy as np

X = np.array([-0.8, -0.3, 0.2, 0.7])
Y = np.array([0.6, 0.2, 0.5, -0.2])
ESTIMATE_EVERY = 100
REJECT_RISE = 0.01
MAX_HALVINGS = 30


class TwoLayer:
    """θ = (W: m × 2, a: m). Inputs carry a constant 1 as the second coordinate (the hidden units' bias)."""

    def __init__(self, x, y):
        self.xt = np.stack([x, np.ones_like(x)], axis=1)  # n × 2
        self.y = y
        self.n = len(y)

    def loss(self, W, a):
        r = np.maximum(W @ self.xt.T, 0).T @ a - self.y
        return 0.5 * np.mean(r * r)

    def loss_and_grad(self, W, a):
        z = W @ self.xt.T  # m × n
        h, on = np.maximum(z, 0), (z > 0).astype(float)
        r = h.T @ a - self.y
        ga = h @ r / self.n
        gW = ((on * a[:, None]) * r) @ self.xt / self.n
        return 0.5 * np.mean(r * r), gW, ga

    def hvp_operator(self, W, a):
        """H v at θ, exact: ReLU'' = 0 off the kinks, so H = JᵀJ/n (Gauss-Newton) + the residual's a-w coupling.

        With z_ki = w_k · x̃_i, s_ki = 1[z_ki > 0], r_i = f_i − y_i, and a direction (dW, da):
          df_i = Σ_k da_k ReLU(z_ki) + a_k s_ki dw_k · x̃_i
          (Hv)_a_k = (1/n) Σ_i [df_i ReLU(z_ki) + r_i s_ki dw_k · x̃_i]
          (Hv)_w_k = (1/n) Σ_i [df_i a_k s_ki + r_i s_ki da_k] x̃_i
        """
        z = W @ self.xt.T
        h, on = np.maximum(z, 0), (z > 0).astype(float)
        r = h.T @ a - self.y
        m = len(a)

        def hvp(v):
            dW, da = v[: 2 * m].reshape(m, 2), v[2 * m :]
            dz = dW @ self.xt.T  # m × n
            df = h.T @ da + (on * dz).T @ a
            ha = (h @ df + (on * dz) @ r) / self.n
            hW = ((on * (a[:, None] * df[None, :] + da[:, None] * r[None, :])) @ self.xt) / self.n
            return np.concatenate([hW.ravel(), ha])

        return hvp


def lanczos_top_eigenvalue(hvp, size, v0, tol=1e-10, max_steps=300):
    """Largest eigenvalue of a symmetric operator: Lanczos with full reorthogonalization until the top Ritz pair's
    residual β_j |e_jᵀ s| is below tol·|λ| (Golub & Van Loan §10.1)."""
    steps = min(size, max_steps)
    Q = np.zeros((steps + 1, size))
    alpha, beta = np.zeros(steps), np.zeros(steps)
    Q[0] = v0 / np.linalg.norm(v0)
    top = 0.0
    for j in range(steps):
        w = hvp(Q[j])
        alpha[j] = w @ Q[j]
        w -= Q[: j + 1].T @ (Q[: j + 1] @ w)
        w -= Q[: j + 1].T @ (Q[: j + 1] @ w)  # twice is enough (Kahan)
        beta[j] = np.linalg.norm(w)
        T = np.diag(alpha[: j + 1]) + np.diag(beta[:j], 1) + np.diag(beta[:j], -1)
        evals, evecs = np.linalg.eigh(T)
        top = evals[-1]
        if beta[j] * abs(evecs[-1, -1]) <= tol * max(abs(top), 1e-300) or beta[j] < 1e-300:
            return top
        Q[j + 1] = w / beta[j]
    return top


def train(W, a, stop_ratio, cap, start_vector_seed=12345):
    """GD as in the module docstring; returns (steps, reached)."""
    model = TwoLayer(X, Y)
    stop_loss = stop_ratio * 0.5 * np.mean(Y * Y)
    rng = np.random.default_rng(start_vector_seed)
    eta = 0.0
    for t in range(cap):
        loss, gW, ga = model.loss_and_grad(W, a)
        if loss <= stop_loss:
            return t, True
        if t % ESTIMATE_EVERY == 0:
            v0 = rng.standard_normal(W.size + a.size)
            eta = 0.5 / lanczos_top_eigenvalue(model.hvp_operator(W, a), W.size + a.size, v0)
        for _ in range(MAX_HALVINGS):
            W_next, a_next = W - eta * gW, a - eta * ga
            if model.loss(W_next, a_next) <= loss * (1 + REJECT_RISE):
                break
            eta *= 0.5
        else:
            return t, False
        W, a = W_next, a_next
    return cap, model.loss(W, a) <= stop_loss


def numpy_init(gamma, gamma_prime, width, seed):
    rng = np.random.default_rng(seed)
    beta1 = width ** (-(gamma + gamma_prime) / 2)
    beta2 = width ** (-(gamma - gamma_prime) / 2)
    return beta2 * rng.standard_normal((width, 2)), beta1 * rng.standard_normal(width)


def engine_members(path):
    """(γ, γ′, width, seed, W, a) for each member of a `muplay export-init` document. The init stds give (γ, γ′):
    β₁β₂ = m^−γ and β₁/β₂ = m^−γ′."""
    doc = json.load(open(path))
    train_x = np.array(doc["train"]["x"]).reshape(-1, 2)
    if not (np.allclose(train_x[:, 0], X) and np.allclose(train_x[:, 1], 1) and np.allclose(doc["train"]["y"], Y)):
        sys.exit("the engine's train set is not the four points with a folded-in bias")
    for member in doc["members"]:
        w_layer, a_layer = member["layers"]
        m = member["width"]
        beta2, beta1 = w_layer["init_std"], a_layer["init_std"]
        gamma = round(-math.log(beta1 * beta2) / math.log(m), 6)
        gamma_prime = round(-math.log(beta1 / beta2) / math.log(m), 6) + 0.0
        W = np.array(w_layer["w"]).reshape(m, 2)
        a = np.array(a_layer["w"])
        yield gamma, gamma_prime, m, member["seed"], W, a


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--engine-init", help="muplay export-init JSON: train the engine's members from its inits")
    p.add_argument("--points", default="0.5,0;1,0;1.75,0", help="(γ, γ′) pairs, 'g,gp;g,gp'")
    p.add_argument("--widths", default="100,300,1000,3000,10000")
    p.add_argument("--seeds", default="0,1,2")
    p.add_argument("--stop-ratio", type=float, default=1e-4)
    p.add_argument("--cap", type=int, default=30000)
    args = p.parse_args()
    if args.engine_init:
        runs = list(engine_members(args.engine_init))
    else:
        points = [tuple(float(v) for v in pt.split(",")) for pt in args.points.split(";")]
        runs = [(g, gp, m, s, *numpy_init(g, gp, m, s)) for g, gp in points
                for m in map(int, args.widths.split(",")) for s in map(int, args.seeds.split(","))]
    print("gamma gamma' width seed steps reached")
    for gamma, gamma_prime, m, seed, W, a in runs:
        steps, reached = train(W, a, args.stop_ratio, args.cap)
        print(f"{gamma:g} {gamma_prime:g} {m} {seed} {steps} {int(reached)}", flush=True)


if __name__ == "__main__":
    main()
