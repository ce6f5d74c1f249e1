#!/usr/bin/python3
"""Every preset of examples/ goes to PyTorch: each, cut to STEPS steps, is exported with `muplay export torch` and its
train.py runs on the CPU (torch's own init, the spec's precision) to a result document shaped as `muplay run`'s for
the same cut spec: the same schema and version, the same members in the same order, and each run the same series
names and, where both finished, the same recorded steps (a run that diverges may do so at another step in each
program: their random inits differ).

Usage: export_presets.py --muplay PATH/TO/muplay [--only TEXT]. Exit 0: every preset; 1: a preset failed.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
EXAMPLES = os.path.join(ROOT, "examples")
PYTHON = "/usr/bin/python3"  # Debian's, with python3-torch
STEPS = 2


def cut(spec):
    spec = json.loads(json.dumps(spec))
    spec.setdefault("schedule", {}).update(steps=STEPS, record_every=1)
    return spec


def shape_problems(engine, torch_doc):
    """How the PyTorch document's shape differs from the engine's ([] when it does not)."""
    problems = []
    if (torch_doc.get("schema"), torch_doc.get("version")) != (engine["schema"], engine["version"]):
        problems.append(f"schema {torch_doc.get('schema')} v{torch_doc.get('version')}")
    if len(torch_doc["runs"]) != len(engine["runs"]):
        return problems + [f"{len(torch_doc['runs'])} runs, the engine {len(engine['runs'])}"]
    for i, (a, b) in enumerate(zip(engine["runs"], torch_doc["runs"])):
        if (a["width"], a["lr"], a["seed"]) != (b["width"], b["lr"], b["seed"]):
            problems.append(f"run {i}: member {(b['width'], b['lr'], b['seed'])}, the engine "
                            f"{(a['width'], a['lr'], a['seed'])}")
        if sorted(a["series"]) != sorted(b["series"]):
            problems.append(f"run {i}: series {sorted(b['series'])}, the engine {sorted(a['series'])}")
        if a["status"] == b["status"] == "finished" and a["recorded_steps"] != b["recorded_steps"]:
            problems.append(f"run {i}: recorded steps {b['recorded_steps']}, the engine {a['recorded_steps']}")
    return problems


def check_preset(muplay, name, folder):
    """'' when the preset exports and its train.py runs to a result shaped as the engine's; else what failed."""
    with open(os.path.join(EXAMPLES, name)) as f:
        spec = cut(json.load(f))
    os.makedirs(folder)
    with open(os.path.join(folder, "spec.json"), "w") as f:
        json.dump(spec, f)
    r = subprocess.run([muplay, "export", "torch", "spec.json", "--out", "project"], cwd=folder, capture_output=True,
                       text=True)
    if r.returncode != 0:
        return "export refused: " + r.stderr.strip().replace("\n", "; ")
    subprocess.run([muplay, "run", "spec.json", "--out", "engine.json", "--quiet"], cwd=folder, capture_output=True)
    data = os.path.join(os.path.dirname(muplay), "..", "data", "fashion-mnist")  # the build's subset
    r = subprocess.run([PYTHON, "train.py", "--quiet", "--device", "cpu", "--data-dir", data], capture_output=True,
                       text=True, cwd=os.path.join(folder, "project"))
    if r.returncode != 0:
        return f"train.py exited {r.returncode}: {r.stderr.strip()[-600:]}"
    with open(os.path.join(folder, "engine.json")) as f, open(os.path.join(folder, "project", "result.json")) as g:
        return "; ".join(shape_problems(json.load(f), json.load(g)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--muplay", required=True)
    ap.add_argument("--only", help="only the presets whose file name holds this text")
    args = ap.parse_args()
    muplay = os.path.abspath(args.muplay)
    names = sorted(n for n in os.listdir(EXAMPLES) if n.endswith(".json") and (not args.only or args.only in n))
    failed = []
    with tempfile.TemporaryDirectory() as work:
        for i, name in enumerate(names):
            problem = check_preset(muplay, name, os.path.join(work, str(i)))
            print(f"  {'ok  ' if not problem else 'FAIL'} {name}" + (f": {problem}" if problem else ""), flush=True)
            if problem:
                failed.append(name)
    print(f"export_presets: {len(names) - len(failed)} of {len(names)} presets export and run"
          + (f"; failed: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
