#!/usr/bin/python3
"""The exported train.py's task data against the engine's, bit for bit (float64).

engine/export/torch/tasks.py rebuilds every task generator of the engine in Python. For every preset in examples/
and for extra specs that reach the options the presets leave out (input_bias, center_target, every function_1d and
boolean_cube target, every anchor kind with other sizes and seeds, sectors' twist and classes, odd input_dim, a
large seed, ...), this script writes the spec trimmed to one small sweep member (`muplay export-init` builds every
member's weights; the data does not depend on the member), asks `muplay export-init` for the data the engine trains
on, and compares it with make_task(doc["spec"], data_dir): every array must be equal (torch.equal), shapes and
outputs included. On a mismatch it prints the largest difference and the first index that differs.

tasks.py is a piece of train.py, pasted below a header that imported math, os, struct, gzip, json, sys and torch;
it is exec'd here in a namespace holding just those.

Run with Debian's interpreter (/usr/bin/python3), which has python3-torch. Exit 0: all agree; 1: a mismatch.
Table tasks (a data set the user brings) read scikit-learn's CSV files (Debian's python3-sklearn: iris, wine,
breast cancer, and the diabetes data joined into one space-separated file) and files written here with numpy: a CSV
with text labels, quotes and semicolons, a float32 Fortran-order .npy, an .npz of an int64 X and a uint8 y.

Usage: export_tasks.py --muplay PATH/TO/muplay [--data-dir FASHION_MNIST_DIR] [--workdir DIR]
(without --data-dir: $MUPLAY_FASHION_MNIST_DIR; where neither holds the files, the Fashion-MNIST presets are
skipped with a line saying so, as the engine's Fashion-MNIST unit tests skip)
"""
import argparse
import ast
import copy
import glob
import gzip
import hashlib
import io
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zipfile

try:
    import torch
except ImportError as e:  # scripts/setup installs python3-torch: missing torch is a broken setup, not a skip
    print(f"export_tasks: cannot import torch ({e}); install python3-torch (scripts/setup does) and run with "
          "/usr/bin/python3", file=sys.stderr)
    sys.exit(1)

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TASKS_PY = os.path.join(ROOT, "engine", "export", "torch", "tasks.py")
SMALL_WIDTH = 4           # the one MLP width the trimmed specs keep
FASHION_MNIST_SIZES = (300, 100)  # train, test: enough images to cover the reader, few enough for a quick JSON


def load_tasks_piece():
    """tasks.py as train.py runs it: below the header's imports, nothing else in scope."""
    namespace = {"__name__": "train", "math": math, "os": os, "struct": struct, "gzip": gzip, "json": json,
                 "sys": sys, "torch": torch, "ast": ast, "hashlib": hashlib, "io": io, "re": re, "zipfile": zipfile}
    with open(TASKS_PY) as f:
        exec(compile(f.read(), TASKS_PY, "exec"), namespace)
    return namespace


def mlp(task, **model):
    return {"version": 1, "model": dict({"widths": [SMALL_WIDTH]}, **model), "task": task}


def transformer(task):
    return {"version": 1, "model": {"kind": "transformer", "transformer": {"layers": 1, "d_model": 8, "heads": 1,
                                                                           "d_ff": 8}},
            "parametrization": {"preset": "sp"}, "optimizer": {"kind": "adamw", "lr": 0.001},
            "task": dict({"kind": "anchor"}, **task)}


# Options the presets do not reach (or reach with one value only).
EXTRA_CASES = [
    ("sin_regression odd input_dim, bias, centred, large seed",
     mlp({"kind": "sin_regression", "input_dim": 5, "train_size": 33, "test_size": 17, "frequency": 3.5,
          "seed": 9007199254740991, "center_target": True}, input_bias=True)),
    ("sin_regression input_dim 1, seed 12", mlp({"kind": "sin_regression", "input_dim": 1, "train_size": 9,
                                                  "test_size": 7, "frequency": 11, "seed": 12})),
    ("sectors 5 classes, twist -3.7, bias", mlp({"kind": "sectors", "input_dim": 2, "train_size": 200,
                                                   "test_size": 50, "classes": 5, "twist": -3.7, "seed": 3},
                                                  input_bias=True)),
    ("sectors 2 classes, twist 40", mlp({"kind": "sectors", "input_dim": 2, "train_size": 100, "test_size": 30,
                                         "classes": 2, "twist": 40, "seed": 5})),
    ("skipgram 10 words, centred, bias", mlp({"kind": "skipgram", "input_dim": 10, "train_size": 37,
                                              "test_size": 3, "seed": 4, "center_target": True}, input_bias=True)),
] + [
    (f"function_1d {target}", mlp({"kind": "function_1d", "target": target, "input_dim": 1, "train_size": 50,
                                   "test_size": 31, "seed": 6}))
    for target in ("sin135", "sin15", "step", "noisy_sin", "piecewise_relu")
] + [
    ("function_1d noisy_sin noise 0.05, centred, bias",
     mlp({"kind": "function_1d", "target": "noisy_sin", "input_dim": 1, "train_size": 41, "test_size": 20,
          "noise": 0.05, "seed": 8, "center_target": True}, input_bias=True)),
    ("function_1d four_points test_size 1", mlp({"kind": "function_1d", "target": "four_points", "input_dim": 1,
                                                 "train_size": 4, "test_size": 1})),
    ("function_1d four_points centred", mlp({"kind": "function_1d", "target": "four_points", "input_dim": 1,
                                             "train_size": 4, "test_size": 33, "center_target": True})),
    ("boolean_cube x1x2", mlp({"kind": "boolean_cube", "target": "x1x2", "input_dim": 6, "train_size": 40,
                               "test_size": 24, "seed": 9})),
    ("boolean_cube parity, bias", mlp({"kind": "boolean_cube", "target": "parity", "input_dim": 3,
                                       "train_size": 5, "test_size": 3, "seed": 2}, input_bias=True)),
    ("sum_sin input_dim 3, centred", mlp({"kind": "sum_sin", "input_dim": 3, "train_size": 21, "test_size": 13,
                                          "seed": 10, "center_target": True})),
    ("image_2d 8 x 8, centred", mlp({"kind": "image_2d", "input_dim": 2, "train_size": 32, "test_size": 32,
                                     "center_target": True})),
] + [
    (f"anchor {kind} seed 3", transformer({"train_size": 300, "test_size": 60, "seed": 3,
                                           "anchor": {"kind": kind, "ood_test_size": 40, "modulus": 5,
                                                      "vocab": 120}}))
    for kind in ("identity", "reading", "classification", "composite", "two_anchor", "statistical1",
                 "statistical2", "multi_anchor", "working_memory", "recite_previous", "recite_next")
] + [
    ("anchor synonyms seed 3", transformer({"train_size": 450, "test_size": 60, "seed": 3,
                                            "anchor": {"kind": "synonyms", "ood_test_size": 40, "vocab": 120}})),
] + [
    (f"anchor {kind} seq_len 12", transformer({"train_size": 203, "test_size": 31, "seed": 1,
                                               "anchor": {"kind": kind, "seq_len": 12, "ood_test_size": 17}}))
    for kind in ("identity", "composite", "two_anchor", "statistical1", "multi_anchor", "working_memory",
                 "recite_previous", "recite_next")
]


SKLEARN_DATA = "/usr/lib/python3/dist-packages/sklearn/datasets/data"


def write_table_files(workdir):
    """The table cases' files, in the folder of the specs (muplay reads a table beside its spec)."""
    import numpy as np  # a dependency of python3-torch and python3-sklearn
    for name in ("iris.csv", "wine_data.csv", "breast_cancer.csv"):
        shutil.copy(os.path.join(SKLEARN_DATA, name), workdir)
    with gzip.open(os.path.join(SKLEARN_DATA, "diabetes_data_raw.csv.gz"), "rt") as x, \
            gzip.open(os.path.join(SKLEARN_DATA, "diabetes_target.csv.gz"), "rt") as y, \
            open(os.path.join(workdir, "diabetes.txt"), "w") as out:
        for features, target in zip(x, y):
            out.write(f"{features.strip()} {target.strip()}\n")
    with open(os.path.join(workdir, "labels.csv"), "w") as f:
        f.write('size;"weight; kg";kind\n')
        rng = np.random.default_rng(1)
        for i in range(40):
            f.write(f"{rng.normal():.6g};{rng.normal() * 3 + 1!r};{['b', 'a', 'c', '1.0'][i % 4]}\n")
    with open(os.path.join(SKLEARN_DATA, "wine_data.csv")) as f:  # a separate test file: the header in both
        header, *rows = f.readlines()
    with open(os.path.join(workdir, "wine_train.csv"), "w") as f:
        f.writelines([header] + rows[:130])
    with open(os.path.join(workdir, "wine_test.csv"), "w") as f:
        f.writelines([header] + rows[130:])
    with open(os.path.join(workdir, "labels_test.csv"), "w") as f:  # a class only the test file has
        f.write('size;"weight; kg";kind\n1;2;d\n3;4;b\n')
    np.save(os.path.join(workdir, "test.npy"), np.random.default_rng(3).normal(size=(12, 3)))
    x = np.random.default_rng(2).normal(size=(30, 3)).astype(np.float32)
    np.save(os.path.join(workdir, "fortran.npy"), np.asfortranarray(x))
    np.savez(os.path.join(workdir, "arrays.npz"), X=np.arange(60, dtype=np.int64).reshape(20, 3) ** 2 % 17,
             y=(np.arange(20) % 3).astype(np.uint8))


def table(file, input_dim, train_size, test_size, seed=0, **table):
    return mlp({"kind": "table", "input_dim": input_dim, "train_size": train_size, "test_size": test_size,
                "seed": seed, "table": dict({"file": file}, **table)})


TABLE_CASES = [
    ("table iris classification", table("iris.csv", 4, 120, 30, type="classification")),
    ("table wine classification, seed 7, two inputs unscaled",
     table("wine_data.csv", 2, 100, 78, seed=7, type="classification", inputs=[12, 0], standardize="none")),
    ("table breast cancer classification", table("breast_cancer.csv", 30, 455, 114, seed=3, type="classification")),
    ("table wine regression of two columns, inputs and targets scaled",
     table("wine_data.csv", 3, 150, 28, inputs=[1, 2, 3], targets=[0, 12], standardize="inputs_and_targets")),
    ("table diabetes regression (spaces), targets scaled",
     table("diabetes.txt", 10, 400, 42, seed=11, standardize="inputs_and_targets")),
    ("table text labels, quotes, semicolons", table("labels.csv", 2, 30, 10, seed=5, type="classification")),
    ("table float32 fortran .npy, regression of column 1", table("fortran.npy", 2, 20, 10, targets=[1])),
    ("table .npz of int64 X and uint8 y", table("arrays.npz", 3, 15, 5, type="classification")),
    ("table wine classification, separate test file", table("wine_train.csv", 13, 130, 48, seed=4,
                                                            type="classification", test_file="wine_test.csv")),
    ("table text labels, a test file with a class of its own",
     table("labels.csv", 2, 40, 2, seed=6, type="classification", test_file="labels_test.csv")),
    ("table .npy regression, separate float64 test file", table("fortran.npy", 2, 30, 12, targets=[1],
                                                               test_file="test.npy")),
]


def trimmed(spec):
    """The spec with one sweep member of small width, and few Fashion-MNIST images: the same data, less to write."""
    spec = copy.deepcopy(spec)
    sweep = spec.setdefault("sweep", {})
    for key, values in sweep.items():
        if isinstance(values, list) and values:
            sweep[key] = values[:1]
    model = spec.setdefault("model", {})
    if model.get("kind", "mlp") != "transformer":
        sweep["width"] = [SMALL_WIDTH]
        model["widths"] = [SMALL_WIDTH] * len(model.get("widths", [1]))
    task = spec.setdefault("task", {})
    if task.get("kind") == "fashion_mnist":
        task["train_size"], task["test_size"] = FASHION_MNIST_SIZES
    return spec


def first_mismatch(want, got):
    """'' if equal, else where and by how much they differ."""
    if want.shape != got.shape:
        return f"shape {tuple(got.shape)}, engine {tuple(want.shape)}"
    if want.dtype != got.dtype:
        return f"dtype {got.dtype}, engine {want.dtype}"
    if torch.equal(want, got):
        return ""
    differ = (want != got).reshape(-1).nonzero()
    i = int(differ[0])
    w, g = want.reshape(-1)[i].item(), got.reshape(-1)[i].item()
    largest = (want.double() - got.double()).abs().max().item()
    return (f"{len(differ)} of {want.numel()} differ, max |diff| {largest:.3g}; first at flat index {i}: "
            f"{g!r}, engine {w!r}")


def compare(doc, got):
    """Mismatches between the engine's data (muplay-init document) and make_task's, as 'what: how' strings."""
    problems = []

    def check(what, want, tensor):
        why = first_mismatch(want, tensor)
        if why:
            problems.append(f"{what}: {why}")

    spec, member = doc["spec"], doc["members"][0]
    if spec["task"]["kind"] == "anchor":
        tensors = {t["name"]: t for t in member["transformer"]["tensors"]}
        for what, want, value in (("vocab", tensors["wte"]["rows"], got.get("vocab")),
                                  ("seq_len", tensors["wpe"]["rows"], got.get("seq_len")),
                                  ("outputs", tensors["head.w"]["rows"], got.get("outputs")),
                                  ("classification", True, got.get("classification"))):
            if want != value:
                problems.append(f"{what}: {value!r}, engine {want!r}")
        for part in ("train", "test", "ood"):
            s = doc["anchor"][part]
            check(f"{part}.tokens", torch.tensor(s["tokens"], dtype=torch.int64).reshape(s["size"], s["seq_len"]),
                  got["anchor"][part]["tokens"])
            check(f"{part}.labels", torch.tensor(s["labels"], dtype=torch.int64), got["anchor"][part]["labels"])
        ood = doc["anchor"]["ood"]
        if "swapped" in ood:  # the composite kinds' OOD sequences with the anchor pair swapped (commutativity)
            check("ood.swapped", torch.tensor(ood["swapped"], dtype=torch.int64).reshape(ood["size"], ood["seq_len"]),
                  got["anchor"]["ood"]["swapped"])
        return problems
    classification = "labels" in doc["train"]
    if got["classification"] != classification:
        problems.append(f"classification: {got['classification']!r}, engine {classification!r}")
    if got["outputs"] != member["dims"][-1]:
        problems.append(f"outputs: {got['outputs']!r}, engine {member['dims'][-1]!r}")
    for part in ("train", "test"):
        d = doc[part]
        check(f"{part}.x", torch.tensor(d["x"], dtype=torch.float64).reshape(d["size"], d["input_dim"]),
              got[part]["x"])
        if classification:
            check(f"{part}.labels", torch.tensor(d["labels"], dtype=torch.int64), got[part].get("labels"))
        else:
            check(f"{part}.y", torch.tensor(d["y"], dtype=torch.float64).reshape(d["size"], -1), got[part].get("y"))
    return problems


def torchvision_layout(data_dir, root):
    """root/FashionMNIST/raw/ with the first images of the subset gzip'd under the original names (a cut of the
    originals: same header, fewer items): the layout torchvision.datasets.FashionMNIST(root, download=True) leaves."""
    raw = os.path.join(root, "FashionMNIST", "raw")
    os.makedirs(raw, exist_ok=True)
    for subset, original in (("train-images.idx3", "train-images-idx3-ubyte.gz"),
                             ("train-labels.idx1", "train-labels-idx1-ubyte.gz"),
                             ("test-images.idx3", "t10k-images-idx3-ubyte.gz"),
                             ("test-labels.idx1", "t10k-labels-idx1-ubyte.gz")):
        header, item = (16, 784) if "images" in subset else (8, 1)
        with open(os.path.join(data_dir, subset), "rb") as f, \
                gzip.open(os.path.join(raw, original), "wb", compresslevel=1) as g:
            g.write(f.read(header + max(FASHION_MNIST_SIZES) * item))
    return root


def run_case(name, spec, args, tasks, workdir, index):
    spec_path = os.path.join(workdir, f"case{index}.json")
    init_path = os.path.join(workdir, f"case{index}-init.json")
    with open(spec_path, "w") as f:
        json.dump(trimmed(spec), f)
    env = dict(os.environ)
    if args.data_dir:
        env["MUPLAY_FASHION_MNIST_DIR"] = args.data_dir
    started = time.time()
    p = subprocess.run([args.muplay, "export-init", spec_path, "--out", init_path], env=env,
                       capture_output=True, text=True)
    if p.returncode != 0:
        print(f"FAIL {name}: muplay export-init exited {p.returncode}: {p.stderr.strip()}")
        return False
    with open(init_path) as f:
        doc = json.load(f)
    engine_s = time.time() - started
    started = time.time()
    try:
        table = doc["spec"]["task"]["kind"] == "table"  # its file is beside the spec
        got = tasks["make_task"](doc["spec"], workdir if table else args.data_dir)
        problems = compare(doc, got)
        if doc["spec"]["task"]["kind"] == "fashion_mnist":
            # the original files as torchvision keeps them (gzip'd, root/FashionMNIST/raw/) must read the same
            root = torchvision_layout(args.data_dir, os.path.join(workdir, f"case{index}-torchvision"))
            problems += ["torchvision layout " + p for p in compare(doc, tasks["make_task"](doc["spec"], root))]
    except (Exception, SystemExit) as e:
        print(f"FAIL {name}: make_task raised {type(e).__name__}: {e}")
        return False
    task = doc["spec"]["task"]
    sizes = (f"{len(doc['anchor']['train']['labels'])}/{len(doc['anchor']['test']['labels'])}/"
             f"{len(doc['anchor']['ood']['labels'])} sequences" if task["kind"] == "anchor"
             else f"{doc['train']['size']}+{doc['test']['size']} rows x {doc['train']['input_dim']}")
    timing = f"engine {engine_s:.2f} s, python {time.time() - started:.2f} s"
    if problems:
        print(f"FAIL {name} ({sizes}): " + "; ".join(problems))
        return False
    print(f"ok   {name} ({sizes}, {timing})")
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--muplay", required=True)
    parser.add_argument("--data-dir", default=os.environ.get("MUPLAY_FASHION_MNIST_DIR") or None,
                        help="Fashion-MNIST folder (the build's data/fashion-mnist)")
    parser.add_argument("--workdir", help="keep the specs and init documents here")
    args = parser.parse_args()
    tasks = load_tasks_piece()
    cases = []
    for path in sorted(glob.glob(os.path.join(ROOT, "examples", "*.json"))):
        with open(path) as f:
            cases.append((os.path.basename(path), json.load(f)))
    cases += EXTRA_CASES + TABLE_CASES
    workdir = args.workdir or tempfile.mkdtemp(prefix="export_tasks_")
    os.makedirs(workdir, exist_ok=True)
    write_table_files(workdir)
    # like the engine's Fashion-MNIST unit tests: a build without the data skips these cases, saying so
    fashion_files = [tasks["fashion_mnist_path"](args.data_dir, *key) for key in tasks["FASHION_MNIST_FILES"]
                     ] if args.data_dir else [None]
    failed = skipped = 0
    for index, (name, spec) in enumerate(cases):
        if spec.get("task", {}).get("kind") == "fashion_mnist" and None in fashion_files:
            print(f"skip {name}: no Fashion-MNIST files in {args.data_dir or '(no folder given)'} "
                  "(--data-dir or $MUPLAY_FASHION_MNIST_DIR)")
            skipped += 1
            continue
        failed += not run_case(name, spec, args, tasks, workdir, index)
    if not args.workdir:
        shutil.rmtree(workdir)
    print(f"{len(cases) - failed - skipped} of {len(cases)} cases agree bit for bit, {failed} differ, "
          f"{skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
