#!/usr/bin/python3
"""Cross-check of the engine's residual MLP (model.kind "residual_mlp") against PyTorch in float64 (check D5): for
every depth rule (standard, Depth-μP, CompleteP, custom α and γ) × SGD and Adam × block shape (plain, pre-norm,
two weights per block, both), a small net (n = 16, depths 2 and 4 as a sweep.depth axis, sin_regression) trains for
STEPS full-batch steps in both, from the engine's initial weights; train_loss and every preactivation's act_rms and
act_delta_rms must agree with `muplay run` to REL_TOL relative at every step. The gradients are compared through
what they do: each step moves every layer by them, and the next step's series read the result.

The net, written here from the definition (not from the engine's code):
    h = m_1 · x W_1ᵀ
    per block b = 1 … L, with weights A (one) or A', A (two):
        z = LN(h) (torch's layer_norm without weight or bias, eps 1e-5) with block_norm, else h
        h ← h + m_A · φ(z) W_Aᵀ                         (one weight)
        h ← h + m_A · φ(m_A' · φ(z) W_A'ᵀ) W_Aᵀ         (two weights)
    f = m_out · φ(h) W_outᵀ                             (φ of the last stream, not normalized)
act_rms/h<i> is the i-th preactivation in layer order: the streams, and a two-weight block's inner m_A' φ(z) W_A'ᵀ.

It also checks the exported factors (`muplay export-init`: each layer's multiplier and learning-rate multiplier,
and the "residual" object) against an independent table of the depth rules: α and γ per rule and optimizer,
L^-α on each block's last weight only, L^-γ on every block weight, the rest of each factor μP's width rule; and
Adam's ε is the spec's for every tensor (the reference uses it unchanged, and a large ε makes a change visible).

Run with Debian's interpreter (/usr/bin/python3), which has python3-torch. Exit 0: all agree; 1: a mismatch.
Usage: crosscheck_residual.py --muplay PATH/TO/muplay [--workdir DIR]
"""
import argparse
import json
import math
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from crosscheck import PROBE, activation, direct_form, muplay  # noqa: E402  (the MLP cross-check's pieces)

try:
    import torch
    import torch.nn.functional as F
except ImportError as e:  # scripts/setup installs python3-torch: missing torch is a broken setup, not a skip
    print(f"crosscheck_residual: cannot import torch ({e}); install python3-torch and run with /usr/bin/python3",
          file=sys.stderr)
    sys.exit(1)

REL_TOL = 1e-9  # the depth spec's D5 tolerance
STEPS = 8
WIDTH = 16
DEPTHS = [2, 4]
ADAM_EPS = 1e-3  # large enough that an ε scaled by the depth rule would move the series far past REL_TOL
CUSTOM = (0.75, 0.25)  # custom α, γ

torch.set_default_dtype(torch.float64)
torch.set_num_threads(1)

# The depth rules, independently of engine/param/depth_rule.cpp: rule → (α, γ under SGD, γ under Adam).
DEPTH_TABLE = {"standard": (0.0, 0.0, 0.0), "depth_mup": (0.5, 0.0, 0.5), "completep": (1.0, -1.0, 0.0),
               "custom": (CUSTOM[0], CUSTOM[1], CUSTOM[1])}
RULES = ["standard", "depth_mup", "completep", "custom"]
OPTIMIZERS = [{"kind": "sgd", "lr": 0.1}, {"kind": "adam", "lr": 0.01, "eps": ADAM_EPS}]
SHAPES = [(1, False), (1, True), (2, False), (2, True)]  # (block_depth, block_norm)


def spec_for(rule, opt, shape):
    block_depth, block_norm = shape
    model = {"kind": "residual_mlp", "widths": [WIDTH], "depth": DEPTHS[0], "activation": "relu"}
    if block_depth != 1:
        model["block_depth"] = block_depth
    if block_norm:
        model["block_norm"] = True
    param = {"preset": "mup", "depth_rule": rule}
    if rule == "custom":
        param.update(depth_alpha=CUSTOM[0], depth_gamma=CUSTOM[1])
    return {
        "version": 1, "name": "crosscheck residual",
        "model": model, "parametrization": param,
        "task": {"kind": "sin_regression", "input_dim": 8, "train_size": 64, "test_size": 16},
        "optimizer": opt,
        "schedule": {"steps": STEPS, "batch_size": 0, "record_every": 1},
        "sweep": {"depth": DEPTHS, "seeds": [5]},
        "metrics": ["train_loss", "act_rms", "act_delta_rms"],
    }


def case_name(rule, opt, shape):
    return f"{rule}-{opt['kind']}-" + {(1, False): "plain", (1, True): "prenorm", (2, False): "2layer",
                                      (2, True): "2layer-prenorm"}[shape]


# ---- the independent table of the factors ----
def check_factors(name, rule, opt, shape, member, depth, d, problems):
    kind = opt["kind"]
    alpha, gamma_sgd, gamma_adam = DEPTH_TABLE[rule]
    gamma = gamma_sgd if kind == "sgd" else gamma_adam
    k = shape[0]
    r = member["residual"]
    want = {"depth": depth, "block_depth": k, "block_norm": shape[1], "alpha": alpha, "gamma": gamma,
            "branch_multiplier": depth ** -alpha, "block_lr_multiplier": depth ** -gamma}
    for key, value in want.items():
        if r[key] != value and not (isinstance(value, float) and abs(r[key] - value) <= 1e-15 * abs(value)):
            problems.append(f"{name} L={depth}: residual.{key} {r[key]!r}, the table says {value!r}")
    layers = member["layers"]
    if len(layers) != k * depth + 2 or r["blocks"] != [[f"W{b * k + j + 2}" for j in range(k)] for b in range(depth)]:
        problems.append(f"{name} L={depth}: {len(layers)} layers, blocks {r['blocks']}")
        return
    for l, layer in enumerate(layers):
        block = 1 <= l <= k * depth
        depth_mult = depth ** -alpha if block and l % k == 0 else 1.0
        depth_lr = depth ** -gamma if block else 1.0
        # the layer's factors are the depth rule's times μP's width rule, which the MLP table gives
        m = layer["multiplier"] / depth_mult
        std_want, lr_want = direct_form("mup", kind, l, len(layers), d, WIDTH)
        std = m * layer["init_std"]
        lr = layer["lr_multiplier"] / depth_lr * (m * m if kind == "sgd" else m)
        for what, got, expected in (("depth multiplier", layer["depth_multiplier"], depth_mult),
                                    ("depth lr multiplier", layer["depth_lr_multiplier"], depth_lr),
                                    ("width rule's init std", std, std_want), ("width rule's lr", lr, lr_want)):
            if abs(got - expected) > 1e-12 * abs(expected):
                problems.append(f"{name} L={depth} {layer['name']}: {what} {got!r}, the table says {expected!r}")


# ---- PyTorch's residual net ----
def preactivations(ws, mults, act, x, k, norm):
    """[h_1, the blocks' preactivations in layer order, f]."""
    h = mults[0] * (x @ ws[0].T)
    hs = [h]
    depth = (len(ws) - 2) // k
    for b in range(depth):
        z = F.layer_norm(h, (h.shape[-1],), eps=1e-5) if norm else h
        u = act(z)
        for j in range(k):
            l = 1 + b * k + j
            pre = mults[l] * (u @ ws[l].T)
            if j + 1 < k:
                hs.append(pre)
                u = act(pre)
            else:
                h = h + pre
                hs.append(h)
    hs.append(mults[-1] * (h @ ws[-1].T))
    return hs


def torch_series(opt, shape, member, train):
    ws = [torch.tensor(L["w"]).reshape(L["rows"], L["cols"]).requires_grad_(True) for L in member["layers"]]
    mults = [L["multiplier"] for L in member["layers"]]
    act = activation(member["activation"])
    groups = [{"params": [w], "lr": member["lr"] * L["lr_multiplier"]} for w, L in zip(ws, member["layers"])]
    if opt["kind"] == "sgd":
        optim = torch.optim.SGD(groups, lr=member["lr"])
    else:
        optim = torch.optim.Adam(groups, lr=member["lr"], eps=opt["eps"])
    x, y = train["x"], train["y"]
    probe = x[:min(x.shape[0], PROBE)]
    count = len(ws)
    names = [f"h{l + 1}" if l + 1 < count else "f" for l in range(count)]
    series = {"train_loss": []}
    series.update({f"act_rms/{n}": [] for n in names})
    series.update({f"act_delta_rms/{n}": [] for n in names})
    h0 = None

    def net(inputs):
        return preactivations(ws, mults, act, inputs, *shape)

    def loss():
        f = net(x)[-1]
        return ((f - y) ** 2).sum() / (2 * f.shape[0])

    for t in range(STEPS + 1):
        with torch.no_grad():
            series["train_loss"].append(loss().item())
            hs = net(probe)
            h0 = h0 or [h.clone() for h in hs]
            for n, h, start in zip(names, hs, h0):
                series[f"act_rms/{n}"].append(torch.sqrt((h * h).mean()).item())
                series[f"act_delta_rms/{n}"].append(torch.sqrt(((h - start) ** 2).mean()).item())
        if t == STEPS:
            break
        optim.zero_grad()
        loss().backward()
        optim.step()
    return series


def run_case(binary, workdir, rule, opt, shape, problems):
    name = case_name(rule, opt, shape)
    paths = {k: os.path.join(workdir, f"{name}.{k}.json") for k in ("spec", "init", "result")}
    with open(paths["spec"], "w") as f:
        json.dump(spec_for(rule, opt, shape), f)
    muplay(binary, "export-init", paths["spec"], "--out", paths["init"])
    muplay(binary, "run", paths["spec"], "--out", paths["result"], "--quiet")
    with open(paths["init"]) as f:
        init = json.load(f)
    with open(paths["result"]) as f:
        result = json.load(f)
    d = init["train"]
    train = {"x": torch.tensor(d["x"]).reshape(d["size"], d["input_dim"]),
             "y": torch.tensor(d["y"]).reshape(d["size"], d["outputs"])}
    worst, losses = 0.0, []
    for member, run, depth in zip(init["members"], result["runs"], DEPTHS):
        if run.get("depth") != depth or run["status"] != "finished":
            problems.append(f"{name}: engine run depth {run.get('depth')} {run['status']}, expected L={depth}")
            continue
        check_factors(name, rule, opt, shape, member, depth, d["input_dim"], problems)
        ours = torch_series(opt, shape, member, train)
        if set(ours) != set(run["series"]):
            problems.append(f"{name} L={depth}: series {sorted(run['series'])}, torch {sorted(ours)}")
            continue
        for key, values in ours.items():
            engine = run["series"][key]
            for t, (a, b) in enumerate(zip(engine, values)):
                rel = abs(a - b) / max(abs(b), 1e-300)
                worst = max(worst, rel)
                if not rel <= REL_TOL or len(engine) != len(values):
                    problems.append(f"{name} L={depth} {key} step {t}: engine {a!r} torch {b!r} "
                                    f"(relative {rel:.3g}, {len(engine)} and {len(values)} records)")
                    break
        losses.append(f"L={depth} {run['series']['train_loss'][0]:.4f} -> {run['series']['train_loss'][-1]:.4f}")
    print(f"  {name:30s} worst relative difference {worst:.2e}  (loss {', '.join(losses)})")
    return worst


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--muplay", required=True)
    ap.add_argument("--workdir")
    args = ap.parse_args()
    print(f"crosscheck_residual: engine vs PyTorch {torch.__version__} (float64), n={WIDTH}, L={DEPTHS}, "
          f"{STEPS} full-batch steps, tolerance {REL_TOL:g} relative")
    problems = []
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        workdir = args.workdir or tmp
        os.makedirs(workdir, exist_ok=True)
        for rule in RULES:
            for opt in OPTIMIZERS:
                for shape in SHAPES:
                    worst = max(worst, run_case(args.muplay, workdir, rule, opt, shape, problems))
    for p in problems:
        print("MISMATCH", p)
    print(f"crosscheck_residual: worst relative difference {worst:.2e} over every case;",
          "FAILED" if problems else "all series and factors agree")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
