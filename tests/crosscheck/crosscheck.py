#!/usr/bin/python3
"""Cross-check of the engine against PyTorch (float64): the same MLP, the same initial weights and data, the
same parametrization, trained for STEPS steps; the train loss and every layer's preactivation RMS (act_rms/*)
must agree with `muplay run` to REL_TOL relative at every step.

How: for each case a spec is written, `muplay export-init` gives every member's initial parameters w (row-major
fan_out x fan_in, like nn.Linear), forward multipliers n^-a and learning-rate multipliers n^-c (schema
muplay-init), and `muplay run` gives the engine's series. PyTorch then trains its own copy: h = m * (x @ w.T)
(+ m' * b with model.biases), one optimizer param group per tensor with lr = eta * lr_multiplier (biases without
weight decay), loss 1/(2B) sum (f - y)^2 (or
mean cross-entropy), GELU in its tanh form. Mini-batches follow the engine's order, which this script derives
independently (SplitMix64 + Fisher-Yates, engine/base/rng.hpp and Run::next_batch), so the batches are a check too.
The exported multipliers are also checked against the direct-form table of init stds and learning rates (below).

Run with Debian's interpreter (/usr/bin/python3), which has python3-torch. Exit 0: all agree; 1: a mismatch.
Usage: crosscheck.py --muplay PATH/TO/muplay [--workdir DIR] [--keep]
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

try:
    import torch
    import torch.nn.functional as F
except ImportError as e:  # scripts/setup installs python3-torch: missing torch is a broken setup, not a skip
    print(f"crosscheck: cannot import torch ({e}); install python3-torch (scripts/setup does) and run with "
          "/usr/bin/python3", file=sys.stderr)
    sys.exit(1)

REL_TOL = 1e-5  # the tolerance; in practice the two agree to ~1e-12
STEPS = 25      # the issue asks for at least 20
PROBE = 128     # engine/run/run.cpp kMaxProbe: act_rms is measured on the first 128 train inputs

torch.set_default_dtype(torch.float64)
torch.set_num_threads(1)

# name, preset, optimizer, activation, batch_size (0: full batch), task kind, model.biases
CASES = [
    ("sp-sgd", "sp", {"kind": "sgd", "lr": 0.2}, "relu", 0, "sin_regression", False),
    ("ntp-sgd", "ntp", {"kind": "sgd", "lr": 0.5}, "relu", 0, "sin_regression", False),
    ("mup-sgd", "mup", {"kind": "sgd", "lr": 0.5}, "relu", 0, "sin_regression", False),
    ("sp-adam", "sp", {"kind": "adam", "lr": 0.003}, "relu", 0, "sin_regression", False),
    ("ntp-adam", "ntp", {"kind": "adam", "lr": 0.01}, "relu", 0, "sin_regression", False),
    ("mup-adam", "mup", {"kind": "adam", "lr": 0.01}, "relu", 0, "sin_regression", False),
    ("mup-sgd-momentum-gelu-minibatch", "mup", {"kind": "sgd", "lr": 0.2, "momentum": 0.9, "weight_decay": 1e-3},
     "gelu", 16, "sin_regression", False),
    ("ntp-adam-tanh-minibatch", "ntp", {"kind": "adam", "lr": 0.01, "weight_decay": 1e-3}, "tanh", 16,
     "sin_regression", False),
    ("mup-adam-sectors-crossentropy", "mup", {"kind": "adam", "lr": 0.02}, "gelu", 0, "sectors", False),
    # model.biases: a zero-initialized bias in every layer, an input weight of fan-in 1 (no weight decay)
    ("sp-sgd-biases", "sp", {"kind": "sgd", "lr": 0.2}, "relu", 0, "sin_regression", True),
    ("mup-sgd-biases", "mup", {"kind": "sgd", "lr": 0.5}, "relu", 0, "sin_regression", True),
    ("sp-adam-biases", "sp", {"kind": "adam", "lr": 0.003}, "tanh", 0, "sin_regression", True),
    ("mup-adam-biases-minibatch-decay", "mup", {"kind": "adam", "lr": 0.01, "weight_decay": 1e-2}, "gelu", 16,
     "sin_regression", True),
    ("mup-sgd-biases-sectors-crossentropy", "mup", {"kind": "sgd", "lr": 0.3, "momentum": 0.9}, "relu", 0,
     "sectors", True),
]
WIDTHS = [32, 128]


def spec_for(case):
    name, preset, opt, act, batch, task, biases = case
    return {
        "version": 1, "name": "crosscheck " + name,
        "model": {"widths": [64, 64], "activation": act, "biases": biases},
        "parametrization": {"preset": preset},
        "task": {"kind": task, "input_dim": 2 if task == "sectors" else 8, "train_size": 64, "test_size": 16},
        "optimizer": opt,
        "schedule": {"steps": STEPS, "batch_size": batch, "record_every": 1},
        "sweep": {"width": WIDTHS, "seeds": [3]},
        "metrics": ["train_loss", "act_rms"],
    }


# ---- the engine's random numbers (engine/base/rng.hpp), for the mini-batch order ----
MASK = (1 << 64) - 1


def mix(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


class Rng:
    def __init__(self, seed, purpose):  # Rng::stream(seed, purpose)
        self.state = mix(seed ^ mix(purpose + 0x51ED27))

    def below(self, n):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        uniform = (mix(self.state) >> 11) * (1.0 / 9007199254740992.0)
        return int(uniform * n)


def batches(seed, size, batch):
    """Yields index lists in Run::next_batch's order: full batch, or reshuffled epochs (purpose 3)."""
    if batch == 0 or batch >= size:
        while True:
            yield list(range(size))
    rng = Rng(seed, 3)
    order = list(range(size))
    pos = size
    while True:
        if pos + batch > size:
            for i in range(size - 1, 0, -1):
                j = rng.below(i + 1)
                order[i], order[j] = order[j], order[i]
            pos = 0
        yield order[pos:pos + batch]
        pos += batch


# ---- the direct-form table: effective init std of W and effective learning rate on W ----
# (its μP-Adam column is Tensor Programs V's table 3)
def direct_form(preset, rule, layer, layers, d, n):
    """(std of W = n^-a w at init, effective LR on W divided by eta); the LR is None where the table has no
    column (NTP under Adam: the engine keeps NTP's c = 0, an effective Adam LR of eta n^-1/2 past the input)."""
    inp, out = layer == 0, layer == layers - 1
    std = 1 / math.sqrt(d) if inp else (1 / n if (preset == "mup" and out) else 1 / math.sqrt(n))
    if preset == "sp":
        lr = 1.0
    elif preset == "ntp":
        lr = (1.0 if inp else 1 / n) if rule == "sgd" else None
    elif rule == "sgd":  # mup
        lr = n if inp else (1.0 if not out else 1 / n)
    else:  # mup, adam
        lr = 1.0 if inp else 1 / n
    return std, lr


def bias_direct_lr(preset, rule, length):
    """Effective LR on a bias B = m b divided by eta: the input layer's with fan-in 1 and fan-out the bias's length
    (Tensor Programs V table 3, "input weights & all biases": SGD eta fan_out under μP, else eta)."""
    return length if (preset == "mup" and rule == "sgd") else 1.0


def check_table(case, member, d, problems):
    _, preset, opt, *_ = case
    rule = "sgd" if opt["kind"] == "sgd" else "adam"
    layers = member["layers"]
    n = member["width"]
    for l, layer in enumerate(layers):
        std_want, lr_want = direct_form(preset, rule, l, len(layers), d, n)
        m = layer["multiplier"]
        std = m * layer["init_std"]
        # SGD on w moves W = m w by eta lr_mult m^2 per unit gradient in W; Adam's step ignores scale: eta lr_mult m.
        lr = layer["lr_multiplier"] * (m * m if rule == "sgd" else m)
        for what, got, want in (("init std", std, std_want), ("effective lr", lr, lr_want)):
            if want is not None and abs(got - want) > 1e-12 * abs(want):
                problems.append(f"{case[0]} n={n} {layer['name']}: {what} {got} != table {want}")
    for l, bias in enumerate(member.get("biases", [])):
        m = bias["multiplier"]
        lr = bias["lr_multiplier"] * (m * m if rule == "sgd" else m)
        want = bias_direct_lr(preset, rule, layers[l]["rows"])
        if abs(lr - want) > 1e-12 * want or any(v != 0 for v in bias["w"]):
            problems.append(f"{case[0]} n={n} {bias['name']}: effective lr {lr} != {want}, or not zero at init")


# ---- PyTorch's copy of the network ----
def activation(name):
    return {
        "relu": torch.relu, "tanh": torch.tanh, "linear": lambda h: h, "sigmoid": torch.sigmoid,
        "gelu": lambda h: F.gelu(h, approximate="tanh"),
    }[name]


def forward(ws, mults, act, x, bs=(), bias_mults=()):
    """Returns the preactivations [h1, ..., hL, f]; with biases h = m (x @ w.T) + m' b."""
    hs = []
    inp = x
    for l, (w, m) in enumerate(zip(ws, mults)):
        h = m * (inp @ w.T)
        if bs:
            h = h + bias_mults[l] * bs[l]
        hs.append(h)
        if l + 1 < len(ws):
            inp = act(h)
    return hs


def loss_of(f, x_idx, data):
    if "labels" in data:
        return F.cross_entropy(f, data["labels"][x_idx])
    y = data["y"][x_idx]
    return ((f - y) ** 2).sum() / (2 * f.shape[0])


def torch_series(case, member, train, seed):
    _, _, opt, _, batch, _, _ = case
    ws = [torch.tensor(L["w"]).reshape(L["rows"], L["cols"]).requires_grad_(True) for L in member["layers"]]
    mults = [L["multiplier"] for L in member["layers"]]
    biases = member.get("biases", [])
    bs = [torch.tensor(B["w"], dtype=torch.float64).requires_grad_(True) for B in biases]
    bias_mults = [B["multiplier"] for B in biases]
    act = activation(member["activation"])
    wd = opt.get("weight_decay", 0.0)
    groups = [{"params": [w], "lr": member["lr"] * L["lr_multiplier"]} for w, L in zip(ws, member["layers"])]
    groups += [{"params": [b], "lr": member["lr"] * B["lr_multiplier"], "weight_decay": 0.0}
               for b, B in zip(bs, biases)]
    if opt["kind"] == "sgd":
        optim = torch.optim.SGD(groups, lr=member["lr"], momentum=opt.get("momentum", 0.0), weight_decay=wd)
    else:
        optim = torch.optim.Adam(groups, lr=member["lr"], betas=(opt.get("beta1", 0.9), opt.get("beta2", 0.999)),
                                 eps=opt.get("eps", 1e-8), weight_decay=wd)
    size = train["x"].shape[0]
    everything = list(range(size))
    probe = everything[:min(size, PROBE)]
    names = [f"act_rms/h{l + 1}" for l in range(len(ws) - 1)] + ["act_rms/f"]
    series = {k: [] for k in ["train_loss"] + names}

    def net(x):
        return forward(ws, mults, act, x, bs, bias_mults)

    def record():
        with torch.no_grad():
            series["train_loss"].append(loss_of(net(train["x"])[-1], everything, train).item())
            for name, h in zip(names, net(train["x"][probe])):
                series[name].append(torch.sqrt((h * h).mean()).item())

    order = batches(seed, size, batch)
    for _ in range(STEPS):
        record()
        idx = next(order)
        optim.zero_grad()
        loss_of(net(train["x"][idx])[-1], idx, train).backward()
        optim.step()
    record()
    return series


def load_data(d):
    out = {"x": torch.tensor(d["x"]).reshape(d["size"], d["input_dim"])}
    if "labels" in d:
        out["labels"] = torch.tensor(d["labels"], dtype=torch.long)
    else:
        out["y"] = torch.tensor(d["y"]).reshape(d["size"], d["outputs"])
    return out


def muplay(binary, *args):
    r = subprocess.run([binary, *args], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"crosscheck: muplay {' '.join(args)} exited {r.returncode}:\n{r.stderr}")


def run_case(binary, workdir, case, problems):
    spec_path = os.path.join(workdir, case[0] + ".spec.json")
    init_path = os.path.join(workdir, case[0] + ".init.json")
    result_path = os.path.join(workdir, case[0] + ".result.json")
    with open(spec_path, "w") as f:
        json.dump(spec_for(case), f)
    muplay(binary, "export-init", spec_path, "--out", init_path)
    muplay(binary, "run", spec_path, "--out", result_path, "--quiet")
    with open(init_path) as f:
        init = json.load(f)
    with open(result_path) as f:
        result = json.load(f)
    train = load_data(init["train"])
    worst = 0.0
    for member, run in zip(init["members"], result["runs"]):
        assert (member["width"], member["seed"]) == (run["width"], run["seed"])
        if run["status"] != "finished":
            problems.append(f"{case[0]} n={member['width']}: engine run {run['status']}")
            continue
        check_table(case, member, init["train"]["input_dim"], problems)
        ours = torch_series(case, member, train, int(member["seed"]))
        for name, values in ours.items():
            engine = run["series"][name]
            if len(engine) != len(values):
                problems.append(f"{case[0]} n={member['width']} {name}: {len(engine)} records, torch {len(values)}")
                continue
            for t, (a, b) in enumerate(zip(engine, values)):
                rel = abs(a - b) / max(abs(b), 1e-300)
                worst = max(worst, rel)
                if not rel <= REL_TOL:
                    problems.append(f"{case[0]} n={member['width']} {name} step {t}: engine {a!r} torch {b!r} "
                                    f"(relative {rel:.3g})")
                    break
    loss = result["runs"][0]["series"]["train_loss"]
    print(f"  {case[0]:34s} widths {WIDTHS}: max relative difference {worst:.2e} over {STEPS} steps "
          f"(loss {loss[0]:.4f} -> {loss[-1]:.4f})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--muplay", required=True)
    ap.add_argument("--workdir")
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    print(f"crosscheck: engine vs PyTorch {torch.__version__} (float64), tolerance {REL_TOL:g} relative")
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        workdir = args.workdir or tmp
        os.makedirs(workdir, exist_ok=True)
        for case in CASES:
            run_case(args.muplay, workdir, case, problems)
    for p in problems:
        print("MISMATCH", p)
    print("crosscheck:", "FAILED" if problems else "all series agree")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
