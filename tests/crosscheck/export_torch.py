#!/usr/bin/python3
"""The exported PyTorch program (`muplay export torch`) against the engine, as examples/README.md's
"PyTorch export" claims:

1. exact: from the engine's initial weights (`--init-from` a `muplay export-init` file), in float64 on the CPU,
   every recorded series equals `muplay run`'s to REL_TOL relative, for SP/NTP/MFP/μP × SGD/Adam, mini-batches,
   cross-entropy, one phenomena preset, anchor Transformer presets (with each of its own metrics: commutativity,
   wq_cosine, embedding_order, plus_one_share, transformer_coords), and residual MLPs (every depth rule, plain,
   pre-norm and two-weight blocks, a depth sweep, and `--depths` replacing it), phase points, and the zero readout
   (parametrization.readout_init) under SGD and Adam and on a residual MLP, table tasks on scikit-learn's CSV
   files (the export copies the file; train.py reads, splits and scales it as the engine does), the
   frequency-principle presets (fp_delta, fp_filter, model.asi, task.gradient_loss and its slope_loss), the
   condensation and stability presets (condensation, neuron_paths, sharpness, model.dropout, gd_auto); the sharpness
   at a saddle to SADDLE_TOL, which rounding decides beyond REL_TOL (rounding_bound_cases);
2. scaling: with its own torch random numbers, the coordinate check's slopes (log RMS of Δh¹, Δh², Δf after one
   step against log n) agree with the engine's over n = 64…1024 within SLOPE_AGREEMENT, and at n = 2048…8192 μP
   stays flat (|slope| ≤ 0.1) while SP's Δh² grows (slope ≥ 0.3);
3. scale-out: `torchrun --nproc_per_node=2` (gloo) gives the one-process numbers: members split across the
   processes identically, a member trained data-parallel (--ddp-member) to DDP_TOL relative;
4. refusal: a spec the exporter cannot express (e.g. model.transformer.attention_cut) exits 2 naming the field;
5. zero readout with train.py's own init: the output is exactly 0 at step 0 at every width.

Usage: export_torch.py --muplay PATH/TO/muplay [--workdir DIR] [--skip-large] [--only TEXT]. Exit 0: all hold; 1: a
failure. --only runs the exact cases whose name holds TEXT and nothing else (a loop while porting one feature).
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from crosscheck import CASES, muplay, spec_for  # noqa: E402  (the engine cross-check's cases, reused)

REL_TOL = 1e-9
DDP_TOL = 1e-10
SLOPE_AGREEMENT = 0.1
EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples")
PYTHON = "/usr/bin/python3"  # Debian's, with python3-torch


def example(name, **changes):
    """A preset of examples/, with some of its sections' fields changed (e.g. schedule={"steps": 24})."""
    with open(os.path.join(EXAMPLES, name + ".json")) as f:
        spec = json.load(f)
    for section, fields in changes.items():
        spec[section].update(fields)
    return spec


def exact_cases():
    """(name, spec): the engine cross-check's MLP cases with every exported MLP metric, MFP, and presets."""
    metrics = ["train_loss", "test_loss", "batch_loss_mean", "act_rms", "act_delta_rms", "weight_delta_spectral",
               "weight_rd"]
    out = []
    for case in CASES:
        spec = spec_for(case)
        spec["metrics"] = metrics + (["test_accuracy"] if spec["task"]["kind"] == "sectors" else [])
        out.append((case[0], spec))
    for opt in ({"kind": "sgd", "lr": 0.5}, {"kind": "adam", "lr": 0.01}):
        spec = spec_for(("mfp", "mfp", opt, "tanh", 0, "sin_regression", False))
        spec["model"]["widths"] = [64]  # MFP is defined for one hidden layer
        spec["metrics"] = metrics
        out.append(("mfp-" + opt["kind"], spec))
    short = {"steps": 24, "record_every": 1}
    out.append(("preset 26 (phenomena)", example("26-embedding-plateaus", schedule=short)))
    out.append(("preset 22 (phenomena)", example("22-parity", schedule=short)))
    out.append(("preset 34 (anchor)", example("34-anchor-composite", schedule={"steps": 24, "record_every": 3})))
    # task.data_per_seed: each seed's member trains on its own seed's data in both programs
    per_seed = example("34-anchor-composite", schedule={"steps": 12, "record_every": 3}, sweep={"seeds": [0, 1]},
                       task={"data_per_seed": True})
    out.append(("preset 34, data per seed, seeds 0 and 1 (anchor)", per_seed))
    mup = example("30-anchor-identity", schedule={"steps": 20, "record_every": 2}, sweep={"width": [16, 32]},
                  parametrization={"preset": "mup"})
    out.append(("preset 30, muP, d_model 16 and 32 (anchor)", mup))
    out += anchor_metric_cases()
    # the frequency principle (presets 20, 21 and 28): fp_delta, fp_filter, ASI and the gradient-augmented loss; the
    # presets cut to a few steps, in float64 (two of them train with float32 products)
    fp = {"steps": 12, "record_every": 2}
    out.append(("fp preset 20, fp_delta", example("20-frequency-principle", schedule=fp)))
    out.append(("fp preset 21, fp_delta, large init", example("21-frequency-principle-large-init", schedule=fp)))
    asi = example("28-frequency-principle-asi", schedule=fp, sweep={"width": [16, 32], "seeds": [0, 1]})
    asi.pop("precision")
    out.append(("fp preset 28, asi, fp_delta, widths 16 and 32", asi))
    gradient = example("28-frequency-principle-gradient-loss", schedule=fp)
    out.append(("fp preset 28, gradient_loss, slope_loss", gradient))
    image = example("28-frequency-principle-image", schedule={"steps": 12, "record_every": 3})
    image.pop("precision")
    out.append(("fp preset 28, image, fp_filter", image))
    # together, under SGD with momentum, with the per-tensor metrics too: ASI's masked weights stay 0 under momentum
    both = example("28-frequency-principle-gradient-loss", schedule=fp, model={"asi": True, "widths": [16, 16]},
                   optimizer={"kind": "sgd", "lr": 0.05, "momentum": 0.9})
    both["metrics"] = metrics + ["fp_delta", "fp_filter"]
    out.append(("fp asi + gradient_loss, sgd momentum, fp_filter", both))
    # sweep.phase_points, written as [gamma, gamma'] pairs, with SGD
    phases = example("23-phase-diagram", optimizer={"kind": "sgd", "lr": 0.05}, schedule={"steps": 5},
                     sweep={"seeds": [0]})
    phases["sweep"]["phase_points"] = phases["sweep"]["phase_points"][:2]
    phases["metrics"] = ["train_loss", "test_loss"]
    phases["schedule"].pop("stop_loss_ratio", None)
    out.append(("preset 23's phase points, SGD (phenomena)", phases))
    out += condensation_and_stability_cases()
    # schedule.stop_loss_ratio with mini-batches: the stop step's record measures the train loss (not the batch's)
    stop = spec_for(("mup-adam-minibatch", "mup", {"kind": "adam", "lr": 0.01}, "gelu", 16, "sin_regression", False))
    stop["schedule"].update(steps=300, stop_loss_ratio=0.2, record_every=7)
    stop["sweep"] = {"width": [32, 64], "seeds": [0, 1]}
    out.append(("stop at a target loss, mini-batches", stop))
    # parametrization.readout_init "zero", under muP with SGD and with Adam, and on a residual MLP
    for opt in ({"kind": "sgd", "lr": 0.5}, {"kind": "adam", "lr": 0.01}):
        zero = example("10-coord-check-mup", schedule={"steps": 6}, sweep={"width": [64, 256], "seeds": [0]},
                       optimizer=opt, parametrization={"readout_init": "zero"})
        zero.pop("precision", None)  # the preset trains in float32; the exact check compares float64 with float64
        out.append((f"zero readout, muP {opt['kind']}", zero))
    zero = residual_spec("depth_mup", {"kind": "sgd", "lr": 0.2}, 1, False, 0, metrics)
    zero["parametrization"]["readout_init"] = "zero"
    out.append(("zero readout, residual depth_mup sgd", zero))
    for name, rule, opt, block_depth, block_norm, batch in (
            ("residual depth_mup sgd", "depth_mup", {"kind": "sgd", "lr": 0.2}, 1, False, 0),
            ("residual completep adam pre-norm 2-layer", "completep", {"kind": "adam", "lr": 0.01}, 2, True, 0),
            ("residual standard adam 2-layer minibatch", "standard", {"kind": "adam", "lr": 0.01}, 2, False, 16),
            ("residual custom sgd-momentum pre-norm minibatch", "custom", {"kind": "sgd", "lr": 0.1, "momentum": 0.9},
             1, True, 16)):
        out.append((name, residual_spec(rule, opt, block_depth, block_norm, batch, metrics)))
    # a data set the user brings (scikit-learn's CSVs): the export copies the file; train.py reads it to the same rows
    out.append(("table breast cancer, muP adam minibatch", table_spec(
        "breast_cancer.csv", 30, 455, 114, {"type": "classification"}, "mup", {"kind": "adam", "lr": 0.05}, 32,
        metrics + ["test_accuracy"])))
    out.append(("table wine regression, scaled targets, sp sgd", table_spec(
        "wine_data.csv", 12, 150, 28, {"inputs": list(range(1, 13)), "targets": [0, 13],
                                       "standardize": "inputs_and_targets"}, "sp", {"kind": "sgd", "lr": 0.05}, 0,
        metrics)))
    out.append(("table iris with a separate test file, sp adam", table_spec(
        "iris_train.csv", 4, 75, 75, {"type": "classification", "test_file": "iris_test.csv"}, "sp",
        {"kind": "adam", "lr": 0.01}, 20, metrics + ["test_accuracy"])))
    return out


def small_anchor(preset, d_model, train_size, test_size, schedule, metrics=None, ood_test_size=None):
    """An anchor preset cut down (fewer sequences and steps, a narrower model, float64) to check its metrics."""
    spec = example(preset, schedule=schedule, task={"train_size": train_size, "test_size": test_size})
    spec["model"]["transformer"].update({"d_model": d_model, "d_ff": 2 * d_model})
    if ood_test_size is not None:
        spec["task"]["anchor"]["ood_test_size"] = ood_test_size
    if metrics is not None:
        spec["metrics"] = metrics
    spec.pop("precision", None)  # the exact check compares float64 with float64
    return spec


def anchor_metric_cases():
    """The anchor Transformer's own metrics on their presets: commutativity and wq_cosine (31, with embedding_order),
    plus_one_share (35, 36) and transformer_coords (46, both parametrizations, two widths)."""
    out = []
    gamma = small_anchor("31-anchor-gamma-sweep", 16, 400, 100, {"steps": 8, "record_every": 2},
                         ood_test_size=200)
    gamma["metrics"].append("embedding_order")
    gamma["sweep"]["gamma"] = [0.5, 0.8]
    out.append(("preset 31, commutativity wq_cosine embedding_order (anchor)", gamma))
    for preset in ("35-anchor-statistical1", "36-anchor-statistical2"):
        out.append((f"preset {preset[:2]}, plus_one_share (anchor)",
                    small_anchor(preset, 16, 300, 100, {"steps": 8, "record_every": 2})))
    for rule in ("mup", "sp"):
        coords = small_anchor("46-transformer-coord-check-" + rule, 16, 256, 64, {"steps": 4, "record_every": 1})
        coords["sweep"].update({"width": [16, 32], "seeds": [0]})
        out.append((f"preset 46 {rule}, transformer_coords, d_model 16 and 32 (anchor)", coords))
    post = small_anchor("46-transformer-coord-check-sp", 16, 256, 64, {"steps": 4, "record_every": 1})
    post["model"]["transformer"]["norm"] = "post"  # the stream the probe reads is then the last LayerNorm's output
    post["sweep"].update({"width": [16], "seeds": [1]})
    out.append(("preset 46 sp post-LN, transformer_coords (anchor)", post))
    return out


def condensation_and_stability_cases():
    """The presets of condensation, dropout, edge of stability and the phase diagram, cut short: the condensation,
    neuron_paths and sharpness metrics, model.dropout's masks and gd_auto's steps (its λ_max and halvings)."""
    out = [("preset 24, condensation and neuron_paths (phenomena)",
            example("24-condensation", schedule={"steps": 40, "record_every": 5})),
           ("preset 25, condensation of a 5-D tanh net (phenomena)",
            example("25-initial-condensation", schedule={"steps": 30, "record_every": 3})),
           ("preset 27, sharpness at two lrs (phenomena)",
            example("27-edge-of-stability", schedule={"steps": 60, "record_every": 4}))]
    # GELU has no φ″ in the engine: its Hessian-vector products are central differences of the gradient; biases
    # follow the weights in the probe's vector
    gelu = example("27-edge-of-stability", schedule={"steps": 20, "record_every": 4}, sweep={"lr": [0.1]},
                   model={"activation": "gelu", "biases": True})
    out.append(("sharpness of a GELU net with biases, central differences (phenomena)", gelu))
    out.append(("preset 29 with dropout (phenomena)",
                example("29-condensation-dropout-with", schedule={"steps": 40, "record_every": 5})))
    # two hidden layers' masks, mini-batches and biases: the order of the draws across layers and rows
    dropout = example("29-condensation-dropout-with", schedule={"steps": 30, "record_every": 3, "batch_size": 16},
                      model={"widths": [24, 24], "dropout": 0.3, "biases": True}, sweep={"seeds": [0, 1]})
    dropout["metrics"] = ["train_loss", "test_loss", "batch_loss_mean", "act_rms"]
    out.append(("dropout 2 hidden layers, mini-batches, biases", dropout))
    # gd_auto: λ_max re-estimated every 100 steps, halved steps, n = 400 at (0.5, −0.5) stopping at its target loss
    # (step 540), n = 50 at (2, −0.5) taking all 50 iterations at step 0 and at (2, 0) the shifted one at step 100
    gd_auto = example("23-phase-diagram", schedule={"steps": 600, "record_every": 50},
                      sweep={"width": [50, 400], "phase_points": [[0.5, -0.5], [1.25, 0], [2, -0.5], [2, 0]]})
    out.append(("preset 23, gd_auto (phenomena)", gd_auto))
    # with sharpness, the two share the probe and so its warm start
    shared = example("23-phase-diagram", schedule={"steps": 300, "record_every": 20},
                     sweep={"width": [50], "phase_points": [[1.25, 0]]})
    shared["metrics"] += ["sharpness"]
    out.append(("preset 23, gd_auto and sharpness, one probe (phenomena)", shared))
    return out


# The sharpness at a saddle: when the eigenvalue of largest magnitude λ is negative, the power iteration runs again on
# H̃ + |λ| I from λ's eigenvector, which that matrix maps to almost 0. The next vector is what is left: the first
# iteration's residual plus the rounding of the product, so another summation order starts the second iteration
# elsewhere and its stop at tolerance 1e-6 lands elsewhere (changing the start vector by 1e-15 relative moves the
# value by up to 1e-5). Its bound: SADDLE_TOL, a hundred times that tolerance.
SADDLE_TOL = 1e-4


def rounding_bound_cases():
    """(name, spec, tolerance): the cases whose numbers depend on rounding beyond REL_TOL, with their bound."""
    # x tanh x from a tiny init (φ′(0) = 0, φ″(0) = 2): a saddle whose eigenvalue of largest magnitude is negative
    saddle = example("25-initial-condensation", schedule={"steps": 12, "record_every": 3},
                     model={"activation": "x_tanh"}, sweep={"seeds": [0, 1]})
    saddle["metrics"] = ["train_loss", "sharpness", "condensation"]
    return [("sharpness at a saddle, x_tanh from a tiny init (phenomena)", saddle, SADDLE_TOL)]


SKLEARN_DATA = "/usr/lib/python3/dist-packages/sklearn/datasets/data"  # Debian's python3-sklearn


def write_table_file(name, folder):
    """scikit-learn's file of that name, or iris split in two: iris_train.csv (its even rows), iris_test.csv (odd)."""
    if os.path.exists(os.path.join(SKLEARN_DATA, name)):
        return shutil.copy(os.path.join(SKLEARN_DATA, name), folder)
    with open(os.path.join(SKLEARN_DATA, "iris.csv")) as f:
        header, *rows = f.readlines()
    with open(os.path.join(folder, name), "w") as f:
        f.writelines([header] + rows[name != "iris_train.csv"::2])
    return None


def table_spec(file, input_dim, train_size, test_size, table, preset, optimizer, batch, metrics):
    return {"version": 1, "model": {"widths": [32, 32]}, "parametrization": {"preset": preset},
            "optimizer": optimizer, "schedule": {"steps": 20, "batch_size": batch, "record_every": 5},
            "task": {"kind": "table", "input_dim": input_dim, "train_size": train_size, "test_size": test_size,
                     "seed": 2, "table": dict({"file": file}, **table)},
            "sweep": {"width": [32, 128], "seeds": [0, 1]}, "metrics": metrics}


def residual_spec(rule, opt, block_depth, block_norm, batch, metrics):
    """A residual MLP of width 16 and depths 2 and 4 (a sweep.depth axis) on the sin task."""
    param = {"preset": "mup", "depth_rule": rule}
    if rule == "custom":
        param.update(depth_alpha=0.75, depth_gamma=0.25)
    return {"version": 1, "name": "export residual",
            "model": {"kind": "residual_mlp", "widths": [16], "depth": 3, "block_depth": block_depth,
                      "block_norm": block_norm},
            "parametrization": param,
            "task": {"kind": "sin_regression", "input_dim": 8, "train_size": 64, "test_size": 16},
            "optimizer": opt, "schedule": {"steps": 12, "batch_size": batch, "record_every": 1},
            "sweep": {"depth": [2, 4], "width": [16, 32], "seeds": [3]}, "metrics": metrics}


def export(binary, spec, workdir, name):
    """Writes the spec and its exported project into workdir/name; returns the folder."""
    folder = os.path.join(workdir, name.replace(" ", "_").replace(",", "").replace("(", "").replace(")", ""))
    os.makedirs(folder, exist_ok=True)
    if spec["task"].get("kind") == "table":  # muplay reads a table beside its spec
        for key in ("file", "test_file"):
            if key in spec["task"]["table"]:
                write_table_file(spec["task"]["table"][key], folder)
    with open(os.path.join(folder, "spec.json"), "w") as f:
        json.dump(spec, f)
    muplay(binary, "export", "torch", os.path.join(folder, "spec.json"), "--out", folder, "--force")
    return folder


# torch 1.13's torchrun on Python 3.11 fails on its default "--redirects 0" (the flag enum's 0 is not iterated
# there); 2 (stderr, where train.py writes) works, as the exported README says.
TORCHRUN = ["torchrun", "--standalone", "--nproc_per_node=2", "--redirects", "2", "--tee", "2"]


def train_py(folder, *args, torchrun=False):
    command = (TORCHRUN if torchrun else [PYTHON]) + ["train.py", "--quiet", *args]
    r = subprocess.run(command, cwd=folder, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"export_torch: {' '.join(command)} in {folder} exited {r.returncode}:\n{r.stderr[-3000:]}")


def load(path):
    with open(path) as f:
        return json.load(f)


def worst_difference(ours, theirs, where, problems, tol):
    """The largest relative difference between two result documents' series; each one past tol is a problem."""
    worst = 0.0
    if len(ours["runs"]) != len(theirs["runs"]):
        problems.append(f"{where}: {len(ours['runs'])} runs, the other has {len(theirs['runs'])}")
        return math.inf
    for a, b in zip(ours["runs"], theirs["runs"]):
        if (a["status"], a["recorded_steps"]) != (b["status"], b["recorded_steps"]) or a["series"].keys() != b[
                "series"].keys():
            problems.append(f"{where} n={a['width']} seed={a['seed']}: status, steps or series names differ: "
                            f"{a['status']} {sorted(a['series'])} vs {b['status']} {sorted(b['series'])}")
            continue
        for name, values in a["series"].items():
            for t, (x, y) in enumerate(zip(values, b["series"][name])):
                rel = 0.0 if x == y else abs(x - y) / max(abs(x), abs(y))
                worst = max(worst, rel)
                if not rel <= tol:
                    problems.append(f"{where} n={a['width']} seed={a['seed']} {name} record {t}: {x!r} vs {y!r} "
                                    f"(relative {rel:.3g})")
                    break
    return worst


def check_exact(binary, workdir, problems, only=None):
    print(f"1. from the engine's initial weights, float64: every series to {REL_TOL:g} relative (else as stated)")
    for name, spec, tol in [(name, spec, REL_TOL) for name, spec in exact_cases()] + rounding_bound_cases():
        if only is not None and only not in name:
            continue
        folder = export(binary, spec, workdir, name)
        muplay(binary, "export-init", os.path.join(folder, "spec.json"), "--out",
               os.path.join(folder, "init.json"))
        muplay(binary, "run", os.path.join(folder, "spec.json"), "--out", os.path.join(folder, "engine.json"),
               "--quiet")
        train_py(folder, "--init-from", "init.json", "--device", "cpu", "--dtype", "float64")
        engine, torch_result = load(os.path.join(folder, "engine.json")), load(os.path.join(folder, "result.json"))
        worst = worst_difference(engine, torch_result, name, problems, tol)
        steps = engine["spec"]["schedule"]["steps"]
        series = sum(len(r["series"]) for r in engine["runs"])
        print(f"  {name:44s} {len(engine['runs'])} members, {series} series, {steps} steps: "
              f"max relative difference {worst:.2e}" + (f" (to {tol:g})" if tol != REL_TOL else ""))
    if only is not None:
        return
    # train.py --depths replaces the depth axis: from the init of the spec with those depths, the engine's numbers
    spec = residual_spec("depth_mup", {"kind": "adam", "lr": 0.01}, 2, True, 0, ["train_loss", "act_rms"])
    folder = export(binary, spec, workdir, "residual --depths")
    spec["sweep"]["depth"] = [1, 3]
    with open(os.path.join(folder, "depths.json"), "w") as f:
        json.dump(spec, f)
    muplay(binary, "export-init", os.path.join(folder, "depths.json"), "--out", os.path.join(folder, "init.json"))
    muplay(binary, "run", os.path.join(folder, "depths.json"), "--out", os.path.join(folder, "engine.json"), "--quiet")
    train_py(folder, "--depths", "1,3", "--init-from", "init.json", "--device", "cpu", "--dtype", "float64")
    engine = load(os.path.join(folder, "engine.json"))
    worst = worst_difference(engine, load(os.path.join(folder, "result.json")), "residual --depths", problems, REL_TOL)
    print(f"  {'residual, exported at L 2, 4, run --depths 1,3':44s} {len(engine['runs'])} members: "
          f"max relative difference {worst:.2e}")


def slope(xs, ys):
    """Least-squares slope of log y against log x."""
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)


def one_step_slopes(result):
    """{layer: slope} of the seed-mean log act_delta_rms after the first step, against log width."""
    by_width = {}
    for run in result["runs"]:
        for layer in ("h1", "h2", "f"):
            value = run["series"]["act_delta_rms/" + layer][1]
            by_width.setdefault(layer, {}).setdefault(run["width"], []).append(math.log(value))
    out = {}
    for layer, logs in by_width.items():
        widths = sorted(logs)
        out[layer] = slope(widths, [math.exp(sum(logs[w]) / len(logs[w])) for w in widths])
    return out


def check_slopes(binary, workdir, skip_large, problems):
    print(f"2. the coordinate check with torch's own random numbers (slopes of log Δh after one step vs log n)")
    for preset in ("10-coord-check-mup", "11-coord-check-sp"):
        spec = example(preset, schedule={"steps": 2})
        folder = export(binary, spec, workdir, preset)
        muplay(binary, "run", os.path.join(folder, "spec.json"), "--out", os.path.join(folder, "engine.json"),
               "--quiet")
        train_py(folder, "--device", "cpu")
        engine = one_step_slopes(load(os.path.join(folder, "engine.json")))
        ours = one_step_slopes(load(os.path.join(folder, "result.json")))
        line = ", ".join(f"{k} {engine[k]:+.3f} / {ours[k]:+.3f}" for k in ("h1", "h2", "f"))
        print(f"  {preset}, n = 64…1024, engine / export: {line}")
        for k in engine:
            if not abs(engine[k] - ours[k]) <= SLOPE_AGREEMENT:
                problems.append(f"{preset} {k}: slope {ours[k]:.3f}, engine {engine[k]:.3f} (more than "
                                f"{SLOPE_AGREEMENT} apart)")
        if skip_large:
            continue
        train_py(folder, "--device", "cpu", "--widths", "2048,4096,8192", "--seeds", "0", "--steps", "1", "--out",
                 "large.json", "--csv", "large.csv")
        large = one_step_slopes(load(os.path.join(folder, "large.json")))
        print(f"  {preset}, n = 2048…8192 (export only): " + ", ".join(f"{k} {large[k]:+.3f}" for k in large))
        if preset.endswith("mup") and not all(abs(v) <= 0.1 for v in large.values()):
            problems.append(f"μP at n = 2048…8192 is not flat: {large}")
        if preset.endswith("sp") and not large["h2"] >= 0.3:
            problems.append(f"SP's Δh² at n = 2048…8192 does not grow: slope {large['h2']:.3f}")


def check_torchrun(binary, workdir, problems):
    print(f"3. torchrun --nproc_per_node=2 (gloo) against one process")
    spec = spec_for(("mup-adam-minibatch", "mup", {"kind": "adam", "lr": 0.01}, "gelu", 16, "sin_regression",
                     False))
    spec["sweep"] = {"width": [32, 64], "seeds": [0, 1, 2]}
    spec["metrics"] = ["train_loss", "test_loss", "batch_loss_mean", "act_rms", "weight_delta_spectral"]
    folder = export(binary, spec, workdir, "torchrun")
    # one thread in every process: the same arithmetic, so the same numbers
    train_py(folder, "--device", "cpu", "--threads", "1", "--out", "one.json", "--csv", "one.csv")
    train_py(folder, "--device", "cpu", "--threads", "1", "--out", "split.json", "--csv", "split.csv", torchrun=True)
    train_py(folder, "--device", "cpu", "--threads", "1", "--ddp-member", "--out", "ddp.json", "--csv", "ddp.csv",
             torchrun=True)
    one = load(os.path.join(folder, "one.json"))
    split_worst = worst_difference(one, load(os.path.join(folder, "split.json")), "members split", problems, 0.0)
    ddp_worst = worst_difference(one, load(os.path.join(folder, "ddp.json")), "DDP member", problems, DDP_TOL)
    print(f"  {len(one['runs'])} members, batch 16: members split over 2 processes: max relative difference "
          f"{split_worst:.2e} (must be 0); each member DDP over 2 processes: {ddp_worst:.2e} (≤ {DDP_TOL:g})")


def check_zero_readout(binary, workdir, problems):
    print("5. train.py's own init with readout_init zero: the output is 0 at step 0, at every width")
    spec = example("10-coord-check-mup", schedule={"steps": 1}, sweep={"width": [64, 1024], "seeds": [0, 1]},
                   parametrization={"readout_init": "zero"})
    folder = export(binary, spec, workdir, "zero readout, own init")
    train_py(folder, "--device", "cpu", "--dtype", "float64")
    outputs = [r["series"]["act_rms/f"][0] for r in load(os.path.join(folder, "result.json"))["runs"]]
    print(f"  act_rms/f at step 0 over {len(outputs)} members: {outputs}")
    if any(v != 0 for v in outputs):
        problems.append(f"zero readout, own init: act_rms/f at step 0 is {outputs}, not 0")


def refused_specs():
    """(name, spec, the field its refusal names): what the export leaves to the engine."""
    cut = example("34-anchor-composite")  # the masking analysis is the engine's own (muplay attention-cut)
    cut["model"]["transformer"]["attention_cut"] = {"layer": 1}
    return [("preset 34 with an attention cut", cut, "model.transformer.attention_cut")]


def check_refusals(binary, workdir, problems):
    print("4. specs the exporter cannot express are refused, naming the field")
    for name, spec, field in refused_specs():
        path = os.path.join(workdir, "refused.json")
        with open(path, "w") as f:
            json.dump(spec, f)
        r = subprocess.run([binary, "export", "torch", path, "--out", os.path.join(workdir, "refused")],
                           capture_output=True, text=True)
        ok = r.returncode == 2 and field in r.stderr and not os.path.exists(os.path.join(workdir, "refused"))
        print(f"  {name}: exit {r.returncode}, " + ("names " + field if field in r.stderr else "MISSING " + field))
        if not ok:
            problems.append(f"{name}: expected exit 2 naming {field} and no output, got {r.returncode}: {r.stderr}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--muplay", required=True)
    ap.add_argument("--workdir")
    ap.add_argument("--skip-large", action="store_true", help="leave out the n = 2048…8192 runs (about a minute)")
    ap.add_argument("--only", help="run only the exact cases whose name holds this text")
    args = ap.parse_args()
    binary = os.path.abspath(args.muplay)
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        workdir = args.workdir or tmp
        os.makedirs(workdir, exist_ok=True)
        check_exact(binary, workdir, problems, args.only)
        if args.only is None:
            check_slopes(binary, workdir, args.skip_large, problems)
            check_torchrun(binary, workdir, problems)
            check_refusals(binary, workdir, problems)
            check_zero_readout(binary, workdir, problems)
    for p in problems:
        print("FAIL", p)
    print("export_torch:", "FAILED" if problems else "all checks hold")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
