#!/usr/bin/python3
"""Independent float64 reference of initial condensation (the book's chapter 8, C-3): how many lines (directions up
to sign) the input weights of a 5-50-1 net gather on under small init, per activation. The numbers of the section
"Condensation: directions and the polar view" of examples/README.md and of tests/unit/test_condensation*.cpp.

The net: f(x) = sum_k a_k sigma(w_k . (x, 1)), the bias folded in as a sixth input, no output bias; every parameter
~ N(0, s^2), s = 1e-2. Data: n = 80 points, x_k ~ U[-4, 2] (this script's own generator and init, not the engine's),
target y = sum_k 3.5 sin(5 x_k + 1), centered. Loss (1/2n) sum (f - y)^2, full batch, lr 5e-4.

Line count (the engine's condensed_lines, engine/metrics/neurons.cpp): A_k = |a_k| ||w_k||; greedily take the
largest remaining neuron and every neuron with |cos(w_j, w_k)| >= 0.9, until 95% of sum_k A_k is covered.

Two readings:
  adam: the line count at steps 50, 100, 150, 200, and at step 100 the sizes of the groups of >= 5 neurons.
  gd:   the end of the plateau, the first step with loss <= 0.99 x its start (as the engine's stop_loss_ratio 0.99
        with the zero predictor's loss, which is the start's to within s^2): its step, the largest neuron's share of
        sum_k A_k, and the line count there.

Usage: condensation_reference.py [--seeds 0,1,2] [--optimizer adam|gd|both]
"""
import argparse

import torch

torch.set_default_dtype(torch.float64)
torch.set_num_threads(1)

ACTIVATIONS = {
    "tanh": torch.tanh,
    "x_tanh": lambda z: z * torch.tanh(z),
    "x2_tanh": lambda z: z * z * torch.tanh(z),
}
LR, S = 5e-4, 1e-2
ADAM_READS = (50, 100, 150, 200)
GD_MAX_STEPS = 60000


def condensed_lines(w, a, threshold=0.9, mass=0.95):
    norm = w.norm(dim=1)
    amp = a.abs() * norm
    cos = (w @ w.T) / torch.outer(norm, norm)
    taken = torch.zeros(len(a), dtype=torch.bool)
    total, held, lines = amp.sum().item(), 0.0, 0
    while held < mass * total and not taken.all():
        k = int(torch.where(taken, torch.tensor(-1.0), amp).argmax())
        group = (~taken) & ((cos[k].abs() >= threshold) | (torch.arange(len(a)) == k))
        taken |= group
        held += amp[group].sum().item()
        lines += 1
    return lines


def neuron_groups(w, min_size=5, threshold=0.9):
    """Sizes of the groups of >= min_size neurons, each neuron counted once whatever its amplitude (as the book's
    cosine heat maps show them): greedily the neuron with the most untaken neighbours within |cos| >= threshold."""
    norm = w.norm(dim=1)
    near = ((w @ w.T) / torch.outer(norm, norm)).abs() >= threshold
    taken = torch.zeros(len(w), dtype=torch.bool)
    sizes = []
    while not taken.all():
        free = near & ~taken[None, :] & ~taken[:, None]
        k = int(torch.where(taken, torch.tensor(-1), free.sum(dim=1)).argmax())
        group = free[k] | (torch.arange(len(w)) == k)
        taken |= group
        sizes.append(int(group.sum()))
    return [n for n in sorted(sizes, reverse=True) if n >= min_size]


def problem(seed):
    g = torch.Generator().manual_seed(1000 + seed)
    x = -4 + 6 * torch.rand(80, 5, generator=g)
    y = (3.5 * torch.sin(5 * x + 1)).sum(dim=1)
    xb = torch.cat([x, torch.ones(80, 1)], dim=1)
    w = (S * torch.randn(50, 6, generator=g)).requires_grad_()
    a = (S * torch.randn(50, generator=g)).requires_grad_()
    return xb, y - y.mean(), w, a


def adam_lines(activation, seed):
    xb, y, w, a = problem(seed)
    opt = torch.optim.Adam([w, a], lr=LR, betas=(0.9, 0.999), eps=1e-8)
    lines = []
    for t in range(max(ADAM_READS) + 1):
        if t in ADAM_READS:
            lines.append(condensed_lines(w.detach(), a.detach()))
        if t == 100:
            groups = neuron_groups(w.detach())
        loss = 0.5 * ((ACTIVATIONS[activation](xb @ w.T) @ a - y) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return lines, groups


def gd_escape(activation, seed):
    xb, y, w, a = problem(seed)
    opt = torch.optim.SGD([w, a], lr=LR)
    start = None
    for t in range(GD_MAX_STEPS + 1):
        loss = 0.5 * ((ACTIVATIONS[activation](xb @ w.T) @ a - y) ** 2).mean()
        start = start or loss.item()
        if loss.item() <= 0.99 * start:
            amp = a.detach().abs() * w.detach().norm(dim=1)
            return t, (amp.max() / amp.sum()).item(), condensed_lines(w.detach(), a.detach())
        opt.zero_grad()
        loss.backward()
        opt.step()
    return None, None, None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--seeds", default="0,1,2")
    p.add_argument("--optimizer", default="both", choices=["adam", "gd", "both"])
    args = p.parse_args()
    seeds = [int(v) for v in args.seeds.split(",")]
    for act in ACTIVATIONS:
        for seed in seeds:
            if args.optimizer in ("adam", "both"):
                lines, groups = adam_lines(act, seed)
                print(f"adam {act:8s} seed {seed}: lines at steps {ADAM_READS}: {lines}; groups of >= 5 neurons at "
                      f"step 100: {groups}", flush=True)
            if args.optimizer in ("gd", "both"):
                t, share, lines = gd_escape(act, seed)
                print(f"gd   {act:8s} seed {seed}: escape step {t}, largest neuron's share {share:.2f}, lines {lines}"
                      if t is not None else f"gd   {act:8s} seed {seed}: no escape in {GD_MAX_STEPS} steps", flush=True)


if __name__ == "__main__":
    main()
