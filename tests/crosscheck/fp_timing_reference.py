#!/usr/bin/python3
"""The frequency principle's timings t1, t3, t5 in an independent PyTorch float64 net, for comparison with the
engine's (examples/README.md, "Biases"): tanh 1-64-64-64-1 (or other hidden widths), weights LeCun-normal
N(0, 1/fan_in), biases zero (or
PyTorch's default U(±1/√fan_in), or none with the first layer's bias folded in as a constant input like the engine's
model.input_bias),
sin x + sin 3x + sin 5x on the 128-point grid x_j = −π + 2πj/128, full-batch Adam (lr 1e-3), loss (1/2n) Σ (f − y)².
Δ_F(k) = |ĥ_k − ŷ_k| / |ŷ_k| with F_k = (1/n) Σ_j v_j e^{−2πi jk/n}; t_k = the first step with Δ_F(k) < 0.1.

Usage: fp_timing_reference.py [--bias zero|default|folded] [--widths 64 64 64] [--seeds 0 1 2] [--steps 4000]
       fp_timing_reference.py --engine RESULT.json   (the same timings read from a `muplay run` result recorded
                                                      every step with the fp_delta metric)
Prints one line per seed: seed t1 t3 t5 Δ_F(5) at t1. With --at-init, instead the share of the seeds whose untrained
net already has Δ_F(1) < 0.1 (t1 = 0), of PyTorch's nets or of the result's runs (record step 0).
"""
import argparse
import json
import math

import torch

torch.set_default_dtype(torch.float64)
torch.set_num_threads(1)


def net(bias, widths, generator):
    dims = [2 if bias == "folded" else 1, *widths, 1]
    layers = []
    for l in range(len(dims) - 1):
        lin = torch.nn.Linear(dims[l], dims[l + 1], bias=bias != "folded")
        with torch.no_grad():
            lin.weight.normal_(0.0, 1 / math.sqrt(dims[l]), generator=generator)
            if bias == "zero":
                lin.bias.zero_()
            elif bias == "default":
                bound = 1 / math.sqrt(dims[l])
                lin.bias.uniform_(-bound, bound, generator=generator)
        layers += [lin, torch.nn.Tanh()] if l + 2 < len(dims) else [lin]
    return torch.nn.Sequential(*layers)


def timings(bias, widths, seed, steps):
    n = 128
    x = -math.pi + 2 * math.pi * torch.arange(n) / n
    y = torch.sin(x) + torch.sin(3 * x) + torch.sin(5 * x)
    inputs = torch.stack([x, torch.ones(n)], 1) if bias == "folded" else x[:, None]
    model = net(bias, widths, torch.Generator().manual_seed(seed))
    optim = torch.optim.Adam(model.parameters(), lr=1e-3)
    y_hat = torch.fft.fft(y) / n
    peaks = [1, 3, 5]
    t = {}
    delta5_at_t1 = None
    for step in range(steps + 1):
        f = model(inputs)[:, 0]
        with torch.no_grad():
            h_hat = torch.fft.fft(f) / n
            delta = {k: (abs(h_hat[k] - y_hat[k]) / abs(y_hat[k])).item() for k in peaks}
        for k in peaks:
            if k not in t and delta[k] < 0.1:
                t[k] = step
                if k == 1:
                    delta5_at_t1 = delta[5]
        if 5 in t:
            break
        loss = ((f - y) ** 2).sum() / (2 * n)
        optim.zero_grad()
        loss.backward()
        optim.step()
    return [t.get(k, -1) for k in peaks], delta5_at_t1


def delta1_at_init(bias, widths, seed):
    n = 128
    x = -math.pi + 2 * math.pi * torch.arange(n) / n
    y = torch.sin(x) + torch.sin(3 * x) + torch.sin(5 * x)
    inputs = torch.stack([x, torch.ones(n)], 1) if bias == "folded" else x[:, None]
    with torch.no_grad():
        f = net(bias, widths, torch.Generator().manual_seed(seed))(inputs)[:, 0]
    h_hat, y_hat = torch.fft.fft(f) / n, torch.fft.fft(y) / n
    return (abs(h_hat[1] - y_hat[1]) / abs(y_hat[1])).item()


def engine_timings(path, at_init):
    with open(path) as f:
        result = json.load(f)
    if at_init:
        runs = result["runs"]
        below = sum(run["series"]["delta_F/k=1"][0] < 0.1 for run in runs)
        print(f"engine: Delta_F(1) < 0.1 at step 0 on {below} of {len(runs)} seeds ({below / len(runs):.3f})")
        return
    for run in result["runs"]:
        series = run["series"]
        delta = {k: series[f"delta_F/k={k}"] for k in (1, 3, 5)}
        t = {k: next((i for i, v in enumerate(d) if v < 0.1), -1) for k, d in delta.items()}
        d5 = delta[5][t[1]] if t[1] >= 0 else float("nan")
        print(f"engine seed {run['seed']}: t1 {t[1]} t3 {t[3]} t5 {t[5]} delta_F(5) at t1 {d5:.3f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", help="a muplay result document to read instead of training in PyTorch")
    ap.add_argument("--bias", choices=["zero", "default", "folded"], default="zero")
    ap.add_argument("--widths", type=int, nargs="+", default=[64, 64, 64], help="the hidden widths")
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--steps", type=int, default=4000)
    ap.add_argument("--at-init", action="store_true", help="the share of seeds with Delta_F(1) < 0.1 untrained")
    args = ap.parse_args()
    if args.engine:
        return engine_timings(args.engine, args.at_init)
    if args.at_init:
        below = sum(delta1_at_init(args.bias, args.widths, seed) < 0.1 for seed in args.seeds)
        print(f"{args.bias}: Delta_F(1) < 0.1 at step 0 on {below} of {len(args.seeds)} seeds "
              f"({below / len(args.seeds):.3f})")
        return
    for seed in args.seeds:
        (t1, t3, t5), d5 = timings(args.bias, args.widths, seed, args.steps)
        print(f"{args.bias} seed {seed}: t1 {t1} t3 {t3} t5 {t5} delta_F(5) at t1 {d5:.3f}", flush=True)


if __name__ == "__main__":
    main()
