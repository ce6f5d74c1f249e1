#!/usr/bin/env python3
"""The PyTorch export on a GPU: one prepared run for a machine with CUDA (examples/README.md, "PyTorch export").

It exports preset 10 (the μP coordinate check) with `muplay export torch`, writes the engine's initial weights
(`muplay export-init`), and runs the exported train.py from them:
  1. on the CPU in float64: the reference (equal to `muplay run` to 1e-9, tests/crosscheck/export_torch.py);
  2. on CUDA in float32 and in bf16, and under `torchrun --nproc_per_node=<GPUs>` (members split, float32):
     each series' largest relative difference from the reference;
  3. at widths 4096, 8192, 16384 for STEPS steps (torch's own init): member-steps per second on CUDA in float32 and
     bf16 against the CPU in float64.
It prints a table, writes build/bench/torch-gpu.json and replaces its section of tests/bench/RESULTS.md (as
scripts/bench-results.mjs does for the other benchmarks), with the command, date and devices.

Usage: scripts/torch-gpu-check.py [--muplay build/native/engine/muplay] [--python /usr/bin/python3]
"""
import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
PRESET = os.path.join(ROOT, "examples", "10-coord-check-mup.json")
RESULTS = os.path.join(ROOT, "tests", "bench", "RESULTS.md")
SECTION = "scripts/torch-gpu-check.py"
STEPS = 50


def run(command, cwd):
    start = time.time()
    r = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"torch-gpu-check: {' '.join(command)} exited {r.returncode}:\n{r.stderr[-3000:]}")
    return time.time() - start


def largest_difference(reference, other):
    """The largest relative difference over every run's every series value."""
    worst = 0.0
    for a, b in zip(reference["runs"], other["runs"]):
        for name, xs in a["series"].items():
            for x, y in zip(xs, b["series"][name]):
                if x is None or y is None:
                    return float("inf")
                worst = max(worst, abs(x - y) / max(abs(x), abs(y), 1e-300))
    return worst


def replace_section(text, body):
    """`text` with the section headed `## SECTION` replaced by `body`, or with `body` appended."""
    sections = re.split(r"(?m)^(?=## )", text)
    for i, s in enumerate(sections):
        if s.startswith(f"## {SECTION}\n"):
            sections[i] = body.rstrip() + "\n\n"
            return "".join(sections).rstrip() + "\n"
    return text.rstrip() + "\n\n" + body.rstrip() + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--muplay", default=os.path.join(ROOT, "build", "native", "engine", "muplay"))
    ap.add_argument("--python", default="/usr/bin/python3")
    args = ap.parse_args()
    probe = "import json, torch; print(json.dumps([torch.__version__, torch.cuda.device_count(), " \
            "torch.cuda.get_device_name(0) if torch.cuda.is_available() else '']))"
    version, gpus, name = json.loads(subprocess.run([args.python, "-c", probe], capture_output=True, text=True,
                                                    check=True).stdout)
    if gpus == 0:
        sys.exit("torch-gpu-check: this machine's torch sees no CUDA device; nothing to measure")
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([args.muplay, "export", "torch", PRESET, "--out", folder], check=True)
        subprocess.run([args.muplay, "export-init", PRESET, "--out", os.path.join(folder, "init.json")], check=True)
        train = [args.python, "train.py", "--quiet"]
        run(train + ["--init-from", "init.json", "--device", "cpu", "--dtype", "float64", "--out", "cpu.json"], folder)
        reference = json.load(open(os.path.join(folder, "cpu.json")))
        torchrun = ["torchrun", "--standalone", f"--nproc_per_node={gpus}", "--redirects", "2", "--tee", "2",
                    "--log_dir", "logs", "train.py", "--quiet"]
        for label, command in (
                ("cuda float32", train + ["--device", "cuda", "--dtype", "float32"]),
                ("cuda bf16", train + ["--device", "cuda", "--dtype", "bf16"]),
                (f"torchrun, {gpus} processes, float32", torchrun + ["--device", "cuda", "--dtype", "float32"])):
            run(command + ["--init-from", "init.json", "--out", "gpu.json"], folder)
            difference = largest_difference(reference, json.load(open(os.path.join(folder, "gpu.json"))))
            rows.append({"run": f"preset 10 from the engine's init, {label}", "largest relative difference from "
                         "the CPU float64 run": difference})
        member_steps = 3 * STEPS
        for label, device, dtype in (("cpu float64", "cpu", "float64"), ("cuda float32", "cuda", "float32"),
                                     ("cuda bf16", "cuda", "bf16")):
            seconds = run(train + ["--widths", "4096,8192,16384", "--seeds", "0", "--steps", str(STEPS), "--device",
                                   device, "--dtype", dtype, "--out", "speed.json"], folder)
            rows.append({"run": f"n = 4096, 8192, 16384, {STEPS} steps, {label}",
                         "member-steps per second": member_steps / seconds})
    os.makedirs(os.path.join(ROOT, "build", "bench"), exist_ok=True)
    with open(os.path.join(ROOT, "build", "bench", "torch-gpu.json"), "w") as f:
        json.dump({"torch": version, "gpus": gpus, "gpu": name, "rows": rows}, f, indent=1)
    lines = [f"## {SECTION}", "", f"Command: `{' '.join(['scripts/torch-gpu-check.py'] + sys.argv[1:])}`  ",
             f"Date: {datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC; torch {version}; {gpus} × {name}", "",
             "| run | value |", "|---|---:|"]
    for row in rows:
        (key, value), = [(k, v) for k, v in row.items() if k != "run"]
        lines.append(f"| {row['run']} | {key}: {value:.3g} |")
    print("\n".join(lines))
    text = open(RESULTS).read() if os.path.exists(RESULTS) else ""
    with open(RESULTS, "w") as f:
        f.write(replace_section(text, "\n".join(lines) + "\n"))


if __name__ == "__main__":
    main()
