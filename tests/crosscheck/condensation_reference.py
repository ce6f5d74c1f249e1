#!/usr/bin/python3
"""Independent float64 reference of initial condensation (the book's chapter 8, C-3): how many lines (directions up
to sign) the input weights of a 5-50-1 net gather on under small init, per activation.

The net: f(x) = sum_k a_k sigma(w_k . (x, 1)), the bias folded in as a sixth input, no output bias; every parameter
~ N(0, s^2). Data: n = 80 points, x_k ~ U[-4, 2] (this script's own generator, not the engine's), target
y = sum_k 3.5 sin(5 x_k + 1), centered (mean of y subtracted). Loss (1/2n) sum (f - y)^2, full-batch Adam.

Line count (the engine's condensed_lines, engine/metrics/neurons.cpp): A_k = |a_k| ||w_k||; greedily take the
largest remaining neuron and every neuron with |cos(w_j, w_k)| >= 0.9, until 95% of sum_k A_k is covered.

Read at the end of the initial stage: the first recorded step where the loss has fallen below ESCAPE x its
initial value (the plateau around the saddle at 0 ends there), and at fixed steps.

Usage: condensation_reference.py [--seeds 0,1,2] [--steps 30000] [--lr 5e-4] [--s 1e-2] [--every 250]
Prints one line per (activation, seed): escape step, lines at the escape step, lines at the fixed steps.
"""
import argparse
import math

import torch

torch.set_default_dtype(torch.float64)
torch.set_num_threads(1)

ACTIVATIONS = {
    "tanh": torch.tanh,
    "x_tanh": lambda z: z * torch.tanh(z),
    "x2_tanh": lambda z: z * z * torch.tanh(z),
}
ESCAPE = 0.9  # the loss has left the initial plateau once it is below 90% of its value at step 0


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


def run(activation, seed, steps, lr, s, every, fixed, optimizer):
    g = torch.Generator().manual_seed(1000 + seed)
    x = -4 + 6 * torch.rand(80, 5, generator=g)
    y = (3.5 * torch.sin(5 * x + 1)).sum(dim=1)
    y = y - y.mean()
    xb = torch.cat([x, torch.ones(80, 1)], dim=1)
    w = (s * torch.randn(50, 6, generator=g)).requires_grad_()
    a = (s * torch.randn(50, generator=g)).requires_grad_()
    opt = (torch.optim.Adam([w, a], lr=lr, betas=(0.9, 0.999), eps=1e-8) if optimizer == "adam"
           else torch.optim.SGD([w, a], lr=lr))
    sigma = ACTIVATIONS[activation]
    loss0, escape, at_escape, at_fixed = None, None, None, {}
    for t in range(steps + 1):
        loss = 0.5 * ((sigma(xb @ w.T) @ a - y) ** 2).mean()
        if loss0 is None:
            loss0 = loss.item()
        if t % every == 0:
            lines = condensed_lines(w.detach(), a.detach())
            if t in fixed:
                at_fixed[t] = lines
            if escape is None and loss.item() < ESCAPE * loss0:
                escape, at_escape = t, lines
        if t == steps:
            break
        opt.zero_grad()
        loss.backward()
        opt.step()
    return escape, at_escape, at_fixed, loss.item() / loss0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--seeds", default="0,1,2")
    p.add_argument("--activations", default="tanh,x_tanh,x2_tanh")
    p.add_argument("--steps", type=int, default=30000)
    p.add_argument("--lr", type=float, default=5e-4)
    p.add_argument("--s", type=float, default=1e-2)
    p.add_argument("--optimizer", default="gd", choices=["gd", "adam"])
    p.add_argument("--every", type=int, default=250)
    p.add_argument("--fixed", default="50,1000,5000,10000,20000,30000")
    args = p.parse_args()
    fixed = [int(t) for t in args.fixed.split(",")]
    for act in args.activations.split(","):
        for seed in [int(v) for v in args.seeds.split(",")]:
            escape, at_escape, at_fixed, rel = run(act, seed, args.steps, args.lr, args.s, args.every, fixed,
                                                   args.optimizer)
            print(f"{act:8s} seed {seed}: escape step {escape}, lines at escape {at_escape}, "
                  f"lines at {at_fixed}, final loss/initial {rel:.3g}", flush=True)


if __name__ == "__main__":
    main()
