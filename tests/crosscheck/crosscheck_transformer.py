#!/usr/bin/python3
"""Cross-check of the engine's Transformer against PyTorch (float64): the same initial weights (exported by
`muplay export-init`), the same token data and mini-batches, and a sequence of optimizer steps with the
warm-up + cosine schedule, global gradient-norm clipping and (coupled or decoupled) weight decay on matrices and
embeddings only. The train loss (first 1000 train sequences) and the ID-test loss recorded by `muplay run`
before every step and after the last must agree with PyTorch's to REL_TOL relative.

PyTorch's side is written from the definitions (engine/model/transformer.hpp): embeddings, pre-/post-LN blocks with
F.layer_norm, causal softmax attention per head, ReLU or tanh-GELU FFN, the last position's head; torch.optim.Adam /
AdamW with one param group per tensor (lr = eta * lr_multiplier, weight decay only where the export says so),
LambdaLR for the schedule, torch.nn.utils.clip_grad_norm_. The mini-batch order comes from crosscheck.py's
independent copy of the engine's shuffling.

Usage: crosscheck_transformer.py --muplay PATH/TO/muplay. Exit 0: all agree; 1: a mismatch.
"""
import argparse
import json
import math
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from crosscheck import batches, muplay  # noqa: E402  (also sets float64 and one thread)

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

REL_TOL = 1e-5
STEPS = 12
TRAIN_EVAL = 1000  # engine/run/run.cpp kTransformerTrainEval

BASE = {
    "version": 1,
    "parametrization": {"preset": "sp"},
    "task": {"kind": "anchor", "train_size": 240, "test_size": 60, "seed": 5,
             "anchor": {"kind": "two_anchor", "ood_test_size": 40}},
    "schedule": {"steps": STEPS, "batch_size": 32, "record_every": 1, "warmup_fraction": 0.25, "cosine": True,
                 "clip_norm": 1.0},
    "sweep": {"seeds": [0, 1]},
    "metrics": ["train_loss", "test_loss"],
}

# name, model.transformer, optimizer, overrides of schedule / parametrization / task.anchor
CASES = [
    ("pre-ln-adamw-gamma", {"layers": 2, "d_model": 16, "heads": 2, "d_ff": 32, "gamma": 0.5},
     {"kind": "adamw", "lr": 0.01, "weight_decay": 0.1}, {}),
    ("post-ln-adam-l2-uniform-gelu-biases",
     {"layers": 2, "d_model": 12, "heads": 3, "d_ff": 24, "norm": "post", "activation": "gelu", "attention_bias": True,
      "mlp_bias": True, "gamma": 0.3, "init_distribution": "uniform", "attention_scale": "linear"},
     {"kind": "adam", "lr": 0.01, "weight_decay": 0.05}, {"schedule": {"clip_norm": 0.3, "final_lr_fraction": 0.1}}),
    ("mup-pytorch-init-identity", {"layers": 3, "d_model": 16, "heads": 4, "d_ff": 16, "init": "pytorch"},
     {"kind": "adamw", "lr": 0.05, "weight_decay": 0.01},
     {"parametrization": {"preset": "mup"}, "anchor": {"kind": "identity"}}),
    ("sp-zero-readout-classification", {"layers": 1, "d_model": 8, "heads": 1, "d_head": 6, "d_ff": 20,
                                        "init": "pytorch", "zero_readout": True},
     {"kind": "adamw", "lr": 0.02, "weight_decay": 0.01}, {"anchor": {"kind": "classification"}}),
]


def spec_for(case):
    name, model, opt, extra = case
    spec = json.loads(json.dumps(BASE))
    spec["name"] = "crosscheck transformer " + name
    spec["model"] = {"kind": "transformer", "transformer": model}
    spec["optimizer"] = opt
    spec["schedule"].update(extra.get("schedule", {}))
    spec["parametrization"].update(extra.get("parametrization", {}))
    spec["task"]["anchor"].update(extra.get("anchor", {}))
    return spec


def gelu(x):  # the engine's tanh form
    return 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


class Model:
    def __init__(self, spec, member):
        t = spec["model"]["transformer"]
        self.layers, self.heads = t["layers"], t["heads"]
        self.pre_ln = t["norm"] == "pre"
        self.act = gelu if t["activation"] == "gelu" else torch.relu
        tf = member["transformer"]
        self.scale = tf["attention_scale"]
        self.p, self.mult, self.info = {}, {}, {}
        for x in tf["tensors"]:
            w = torch.tensor(x["w"], dtype=torch.float64).reshape(x["rows"], x["cols"])
            if x["rows"] == 1 and not x["name"].startswith("wpe"):
                w = w.reshape(-1)
            self.p[x["name"]] = w.requires_grad_(True)
            self.mult[x["name"]] = x["multiplier"]
            self.info[x["name"]] = x

    def linear(self, x, w, b=None):
        y = self.mult[w] * (x @ self.p[w].T)
        return y + self.p[b] if b in self.p else y

    def ln(self, x, name):
        return F.layer_norm(x, (x.shape[-1],), self.p[name + ".g"], self.p[name + ".b"], eps=1e-5)

    def attention(self, x, h):
        B, T, _ = x.shape
        q, k, v = (self.linear(x, h + "w" + c, h + "b" + c) for c in "qkv")
        dh = q.shape[-1] // self.heads
        q, k, v = (z.reshape(B, T, self.heads, dh).transpose(1, 2) for z in (q, k, v))
        s = self.scale * (q @ k.transpose(-1, -2))
        s = s.masked_fill(torch.triu(torch.ones(T, T, dtype=torch.bool), 1), float("-inf"))
        y = (s.softmax(-1) @ v).transpose(1, 2).reshape(B, T, -1)
        return self.linear(y, h + "wo", h + "bo")

    def ffn(self, x, h):
        return self.linear(self.act(self.linear(x, h + "w1", h + "b1")), h + "w2", h + "b2")

    def __call__(self, tokens):
        T = tokens.shape[1]
        x = self.mult["wte"] * self.p["wte"][tokens] + self.mult["wpe"] * self.p["wpe"][:T]
        for l in range(self.layers):
            h = f"h{l}."
            if self.pre_ln:
                x = x + self.attention(self.ln(x, h + "ln1"), h)
                x = x + self.ffn(self.ln(x, h + "ln2"), h)
            else:
                x = self.ln(x + self.attention(x, h), h + "ln1")
                x = self.ln(x + self.ffn(x, h), h + "ln2")
        z = x[:, -1]
        if self.pre_ln:
            z = self.ln(z, "ln_f")
        return self.linear(z, "head.w", "head.b")


def factor(step, spec):
    s = spec["schedule"]
    warm = int(s["warmup_fraction"] * s["steps"])
    if step < warm:
        return (step + 1) / warm
    if not s["cosine"] or s["steps"] <= warm:
        return 1.0
    progress = min(1.0, (step - warm) / (s["steps"] - warm))
    return s["final_lr_fraction"] + (1 - s["final_lr_fraction"]) * 0.5 * (1 + math.cos(math.pi * progress))


def torch_series(spec, member, data):
    model = Model(spec, member)
    opt = spec["optimizer"]
    groups = [{"params": [model.p[n]], "lr": member["lr"] * x["lr_multiplier"],
               "weight_decay": member["weight_decay"] if x["decay"] else 0.0} for n, x in model.info.items()]
    kind = torch.optim.AdamW if opt["kind"] == "adamw" else torch.optim.Adam
    optimizer = kind(groups, betas=(opt["beta1"], opt["beta2"]), eps=opt["eps"])
    sched = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda t: factor(t, spec))
    train_x, train_y, test_x, test_y = data
    n_eval = min(TRAIN_EVAL, len(train_y))
    series = {"train_loss": [], "test_loss": []}
    clipped = 0

    def record():
        with torch.no_grad():
            series["train_loss"].append(F.cross_entropy(model(train_x[:n_eval]), train_y[:n_eval]).item())
            series["test_loss"].append(F.cross_entropy(model(test_x), test_y).item())

    order = batches(int(member["seed"]), len(train_y), spec["schedule"]["batch_size"])
    params = list(model.p.values())
    for _ in range(spec["schedule"]["steps"]):
        record()
        idx = next(order)
        loss = F.cross_entropy(model(train_x[idx]), train_y[idx])
        optimizer.zero_grad()
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(params, spec["schedule"]["clip_norm"])
        clipped += int(norm.item() > spec["schedule"]["clip_norm"])
        optimizer.step()
        sched.step()
    record()
    return series, clipped


def load(s):
    return (torch.tensor(s["tokens"], dtype=torch.long).reshape(s["size"], s["seq_len"]),
            torch.tensor(s["labels"], dtype=torch.long))


def run_case(binary, workdir, case, problems):
    paths = {k: os.path.join(workdir, f"{case[0]}.{k}.json") for k in ("spec", "init", "result")}
    with open(paths["spec"], "w") as f:
        json.dump(spec_for(case), f)
    muplay(binary, "export-init", paths["spec"], "--out", paths["init"])
    muplay(binary, "run", paths["spec"], "--out", paths["result"], "--quiet")
    with open(paths["init"]) as f:
        init = json.load(f)
    with open(paths["result"]) as f:
        result = json.load(f)
    spec = init["spec"]  # with every default filled in
    data = (*load(init["anchor"]["train"]), *load(init["anchor"]["test"]))
    worst = 0.0
    clipped = 0
    for member, run in zip(init["members"], result["runs"]):
        ours, c = torch_series(spec, member, data)
        clipped += c
        for name, values in ours.items():
            engine = run["series"][name]
            if len(engine) != len(values):
                problems.append(f"{case[0]} {name}: {len(engine)} records, torch {len(values)}")
                continue
            for t, (a, b) in enumerate(zip(engine, values)):
                rel = abs(a - b) / max(abs(b), 1e-300)
                worst = max(worst, rel)
                if not rel <= REL_TOL:
                    problems.append(f"{case[0]} seed {member['seed']} {name} step {t}: engine {a!r} torch {b!r} "
                                    f"(relative {rel:.3g})")
                    break
    loss = result["runs"][0]["series"]["train_loss"]
    print(f"  {case[0]:40s} max relative difference {worst:.2e} over {STEPS} steps "
          f"(train loss {loss[0]:.4f} -> {loss[-1]:.4f}; {clipped} of {2 * STEPS} steps clipped)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--muplay", required=True)
    ap.add_argument("--workdir")
    args = ap.parse_args()
    print(f"crosscheck_transformer: engine vs PyTorch {torch.__version__} (float64), tolerance {REL_TOL:g} relative")
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        workdir = args.workdir or tmp
        os.makedirs(workdir, exist_ok=True)
        for case in CASES:
            run_case(args.muplay, workdir, case, problems)
    for p in problems:
        print("MISMATCH", p)
    print("crosscheck_transformer:", "FAILED" if problems else "all series agree")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
