#!/usr/bin/python3
"""Independent float64 reference (PyTorch) of experiment E1, "max LR vs width", on the default toy:
a 2-hidden-layer ReLU MLP, d = 8, inputs on the unit sphere, y = sin(2 x.v), square loss 1/(2B) sum (f - y)^2,
full-batch gradient descent for T = 10 steps.

eta_max of one member (parametrization, width n, seed) is the largest eta of the 1/4-octave grid
lo * 2^(k/4) <= hi whose run passes: the loss stays finite, L_T < L_0, and the output is not identically zero
(a net whose ReLUs all died outputs 0, whose loss mean(y^2)/2 can be below L_0). Every grid value is run, so the
answer does not depend on where an upward scan stops. The slope is that of log2 eta_max against log2 n, fitted
per seed, then mean +- standard error over seeds.

The parametrization is the abc table of Tensor Programs IV (Yang & Hu 2021), written out here, not read from the
engine: W_l = n^-a_l w_l, w_l ~ N(0, (base n^-b_l)^2) with base 1/sqrt(d) for the input layer and 1 otherwise,
SGD learning rate eta n^-c on w.
  SP: a = (0, 0, 0),     b = (0, 1/2, 1/2), c = 0
  muP: a = (-1/2, 0, 1/2), b = (1/2, 1/2, 1/2), c = 0

Initial weights: --init torch draws them (and the data) with torch's generator, an independent sample;
--init engine reads every member's w and the train set from `muplay export-init`, so a difference to the engine's
scan is protocol, not sampling. With --muplay and --init engine the script also runs the engine's scan
(`muplay max-lr`) on the same settings and prints both.

--check (the ctest crosscheck_max_lr) implies --init engine and exits 1 unless: the engine's muP slope |s| <= 0.2
and its SP slope is in [-1.2, -0.6] (the E1 acceptance check), and each engine slope is within 0.1 of the
reference's on the same initial weights.

Other toys: --input-dim, --frequency, --init-scale with --init-scale-layers (all or first), and --data-seed (the
data set of --init torch).

Run with Debian's interpreter (/usr/bin/python3), which has python3-torch.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

import torch

torch.set_default_dtype(torch.float64)
torch.set_num_threads(1)

D = 8  # the input dimension and the target's frequency: --input-dim and --frequency set them
FREQUENCY = 2.0
INIT_SCALE, INIT_SCALE_LAYERS = 1.0, "all"  # --init-scale and --init-scale-layers: w's init std times this
EXPONENTS = {  # (a, b) per layer, c = 0 for both
    "sp": [(0.0, 0.0), (0.0, 0.5), (0.0, 0.5)],
    "mup": [(-0.5, 0.5), (0.0, 0.5), (0.5, 0.5)],
}


def grid(lo, hi, per_octave=4):
    out, k = [], 0
    while lo * 2 ** (k / per_octave) <= hi * (1 + 1e-12):
        out.append(lo * 2 ** (k / per_octave))
        k += 1
    return out


def multipliers(param, n):
    """(forward multiplier n^-a, init std of w) per layer."""
    out = []
    for l, (a, b) in enumerate(EXPONENTS[param]):
        base = 1 / math.sqrt(D) if l == 0 else 1.0
        scale = INIT_SCALE if INIT_SCALE_LAYERS == "all" or l == 0 else 1.0
        out.append((n ** -a, scale * base * n ** -b))
    return out


def forward(ws, mults, x):
    h = x
    for l, (w, m) in enumerate(zip(ws, mults)):
        h = m * (h @ w.T)
        if l + 1 < len(ws):
            h = torch.relu(h)
    return h


def loss_of(ws, mults, x, y):
    f = forward(ws, mults, x)
    return ((f - y) ** 2).sum() / (2 * x.shape[0]), f


def passes(ws0, mults, x, y, eta, steps):
    """Runs T steps of full-batch GD at learning rate eta from ws0; returns (passed, why, L_0, L_T)."""
    ws = [w.clone().requires_grad_(True) for w in ws0]
    with torch.no_grad():
        l0 = loss_of(ws, mults, x, y)[0].item()
    for _ in range(steps):
        loss, _ = loss_of(ws, mults, x, y)
        grads = torch.autograd.grad(loss, ws)
        with torch.no_grad():
            for w, g in zip(ws, grads):
                w -= eta * g  # c = 0: the learning rate on w is eta at every width
    with torch.no_grad():
        lt, f = loss_of(ws, mults, x, y)
    lt = lt.item()
    if not math.isfinite(lt):
        return False, "diverged", l0, lt
    if not lt < l0:
        return False, "loss did not fall", l0, lt
    if bool((f == 0).all()):
        return False, "output is zero", l0, lt
    return True, "passed", l0, lt


def scan(ws0, mults, x, y, lrs, steps):
    """eta_max over the whole grid, and the passes/failures in order."""
    results = [passes(ws0, mults, x, y, eta, steps)[0] for eta in lrs]
    passed = [eta for eta, ok in zip(lrs, results) if ok]
    return (max(passed) if passed else 0.0), results


def slope(xs, ys):
    lx, ly = [math.log2(v) for v in xs], [math.log2(v) for v in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)


def mean_sem(values):
    m = sum(values) / len(values)
    if len(values) < 2:
        return m, 0.0
    var = sum((v - m) ** 2 for v in values) / (len(values) - 1)
    return m, math.sqrt(var / len(values))


# ---- initial weights and data ----
def torch_data(train_size, data_seed=12345):
    g = torch.Generator().manual_seed(data_seed)
    x = torch.randn(train_size, D, generator=g)
    x = x / x.norm(dim=1, keepdim=True)
    v = torch.randn(D, generator=g)
    v = v / v.norm()
    return x, torch.sin(FREQUENCY * (x @ v)).reshape(-1, 1)


def torch_init(param, n, seed):
    g = torch.Generator().manual_seed(1000003 * seed + n)
    shapes = [(n, D), (n, n), (1, n)]
    return [std * torch.randn(*shape, generator=g) for shape, (_, std) in zip(shapes, multipliers(param, n))]


def engine_spec(param, widths, seeds, train_size, steps):
    return {
        "version": 1, "name": "E1 reference " + param,
        "model": {"widths": [64, 64], "activation": "relu"},
        "parametrization": {"preset": param, "init_scale": INIT_SCALE, "init_scale_layers": INIT_SCALE_LAYERS},
        "task": {"kind": "sin_regression", "input_dim": D, "frequency": FREQUENCY, "train_size": train_size,
                 "test_size": 16},
        "optimizer": {"kind": "sgd", "lr": 1.0},
        "schedule": {"steps": steps, "record_every": steps, "divergence_loss": 1e300},
        "sweep": {"width": widths, "seeds": seeds},
        "metrics": ["train_loss", "act_rms"],
    }


def muplay(binary, *args):
    r = subprocess.run([binary, *args], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"max_lr_reference: muplay {' '.join(args)} exited {r.returncode}:\n{r.stderr}")
    return r.stdout


def engine_members(binary, workdir, param, widths, seeds, train_size, steps):
    """{(n, seed): ws} and (x, y) from `muplay export-init`; checks its multipliers against the table above."""
    spec_path = os.path.join(workdir, param + ".spec.json")
    init_path = os.path.join(workdir, param + ".init.json")
    with open(spec_path, "w") as f:
        json.dump(engine_spec(param, widths, seeds, train_size, steps), f)
    muplay(binary, "export-init", spec_path, "--out", init_path)
    with open(init_path) as f:
        init = json.load(f)
    t = init["train"]
    x = torch.tensor(t["x"]).reshape(t["size"], t["input_dim"])
    y = torch.tensor(t["y"]).reshape(t["size"], t["outputs"])
    members = {}
    for m in init["members"]:
        n = m["width"]
        for layer, (mult, _) in zip(m["layers"], multipliers(param, n)):
            if abs(layer["multiplier"] - mult) > 1e-12 * mult or layer["lr_multiplier"] != 1:
                sys.exit(f"max_lr_reference: engine's {param} n={n} {layer['name']} multipliers "
                         f"({layer['multiplier']}, lr x{layer['lr_multiplier']}) differ from the abc table ({mult}, 1)")
        members[(n, int(m["seed"]))] = [torch.tensor(L["w"]).reshape(L["rows"], L["cols"]) for L in m["layers"]]
    return members, (x, y), spec_path


def engine_scan(binary, spec_path, lo, hi):
    """{(n, seed): eta_max} from the engine's own scan, `muplay max-lr`."""
    doc = json.loads(muplay(binary, "max-lr", spec_path, "--lo", repr(lo), "--hi", repr(hi)))
    return {(m["width"], int(m["seed"])): m["max_lr"] for m in doc["members"]}


def report(label, widths, seeds, table):
    """Prints eta_max per width (mean log2 over seeds) and the slope; returns (mean, sem) of the slope."""
    slopes = [slope(widths, [table[(n, s)] for n in widths]) for s in seeds]
    m, e = mean_sem(slopes)
    per_width = " ".join(f"{sum(math.log2(table[(n, s)]) for s in seeds) / len(seeds):+.2f}" for n in widths)
    print(f"  {label:28s} mean log2 eta_max per width: {per_width}   slope {m:+.3f} +- {e:.3f}")
    return m, e


BOUNDS = {"mup": (-0.2, 0.2), "sp": (-1.2, -0.6)}  # E1's acceptance range of the slope
AGREEMENT = 0.1  # |engine slope - reference slope| on the same initial weights


def measure(args, workdir, param, init, widths, seeds):
    """Scans every member with the reference (and the engine, for --init engine); returns the result entry."""
    lo, hi = (float(v) for v in getattr(args, "grid_" + param).split(","))
    lrs = grid(lo, hi)
    if init == "engine":
        members, (x, y), spec_path = engine_members(args.muplay, workdir, param, widths, seeds, args.train_size,
                                                    args.steps)
    else:
        x, y = torch_data(args.train_size, args.data_seed)
        members = {(n, s): torch_init(param, n, s) for n in widths for s in seeds}
    table = {}
    for (n, s), ws in sorted(members.items()):
        mults = [m for m, _ in multipliers(param, n)]
        table[(n, s)], results = scan(ws, mults, x, y, lrs, args.steps)
        if args.verbose:
            marks = "".join("+" if ok else "." for ok in results)
            print(f"    {param} n={n:5d} seed {s}: eta_max {table[(n, s)]:.4g}  {marks}")
        if table[(n, s)] < 2 * lrs[0] or table[(n, s)] > hi / 4:
            print(f"  warning: {param} n={n} seed {s}: eta_max {table[(n, s)]} within an octave of the grid's edge "
                  f"[{lo}, {hi}]", file=sys.stderr)
    ref = report(f"{param} reference ({init} init)", widths, seeds, table)
    entry = {"reference": {"slope": ref[0], "sem": ref[1],
                           "max_lr": [[n, s, table[(n, s)]] for n, s in sorted(table)]}}
    if init == "engine" and args.muplay:
        eng = engine_scan(args.muplay, spec_path, lo, hi)
        e = report(f"{param} engine scan", widths, seeds, eng)
        for n, s in sorted(table):
            if table[(n, s)] != eng[(n, s)]:
                print(f"    differs: n={n} seed {s}: reference {table[(n, s)]:.4g}, engine {eng[(n, s)]:.4g}")
        entry["engine"] = {"slope": e[0], "sem": e[1], "max_lr": [[n, s, eng[(n, s)]] for n, s in sorted(eng)]}
    return entry


def problems_of(param, results):
    """The acceptance checks of --check on one parametrization's entry."""
    lo, hi = BOUNDS[param]
    out = []
    engine, reference = results["engine"]["slope"], results["reference"]["slope"]
    if not lo <= engine <= hi:
        out.append(f"{param} engine slope {engine:+.3f} not in [{lo}, {hi}]")
    gap = abs(engine - reference)
    if not gap <= AGREEMENT:
        out.append(f"{param} engine and reference slopes differ by {gap:.3f} > {AGREEMENT} on the same init")
    return out


def main():
    global D, FREQUENCY, INIT_SCALE, INIT_SCALE_LAYERS
    ap = argparse.ArgumentParser()
    ap.add_argument("--params", default="sp,mup")
    ap.add_argument("--widths", default="32,64,128,256,512")
    ap.add_argument("--seeds", type=int, default=8)
    ap.add_argument("--train-size", type=int, default=64)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--init", choices=["torch", "engine"], default="torch")
    ap.add_argument("--muplay", help="the engine's CLI (needed for --init engine; then its scan runs too)")
    ap.add_argument("--grid-sp", default="0.25,64")
    ap.add_argument("--grid-mup", default="2,64")
    ap.add_argument("--json", help="write every eta_max and slope here")
    ap.add_argument("--verbose", action="store_true", help="print each member's eta_max")
    ap.add_argument("--check", action="store_true", help="engine init; assert the E1 checks")
    ap.add_argument("--input-dim", type=int, default=D, help="d, the inputs' dimension (unit sphere in R^d)")
    ap.add_argument("--frequency", type=float, default=FREQUENCY, help="y = sin(frequency x.v)")
    ap.add_argument("--init-scale", type=float, default=INIT_SCALE, help="w's init std times this")
    ap.add_argument("--init-scale-layers", choices=["all", "first"], default=INIT_SCALE_LAYERS)
    ap.add_argument("--data-seed", type=int, default=12345, help="--init torch: the seed of its data set")
    args = ap.parse_args()
    D, FREQUENCY, INIT_SCALE, INIT_SCALE_LAYERS = args.input_dim, args.frequency, args.init_scale, args.init_scale_layers
    widths = [int(v) for v in args.widths.split(",")]
    seeds = list(range(args.seeds))
    out = {"settings": vars(args), "results": {}}
    init = "engine" if args.check else args.init
    if init == "engine" and not args.muplay:
        sys.exit("max_lr_reference: --init engine and --check need --muplay")
    problems = []
    with tempfile.TemporaryDirectory() as workdir:
        for param in args.params.split(","):
            results = measure(args, workdir, param, init, widths, seeds)
            out["results"][param] = results
            if args.check:
                problems += problems_of(param, results)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    for p in problems:
        print("FAIL: " + p)
    if args.check:
        print("max_lr_reference: " + ("FAILED" if problems else "all checks passed"))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
