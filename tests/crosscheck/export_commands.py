#!/usr/bin/python3
"""The PyTorch export as a user meets it (examples/README.md, "PyTorch export"):

1. the README's block of commands, run as written, line by line in one shell whose `muplay` is this build and whose
   `python3` is Debian's (with python3-torch, as on a fresh machine): it exports preset 10, trains it in one process,
   under torchrun with 2 processes (members split, and each member DDP: the one-process numbers to FLOAT32_TOL and
   DDP_TOL, as the preset trains in float32 and one process uses 2 threads where torchrun's use 1 each; the exact
   agreement at equal threads is export_torch.py's) and at widths past the page's; torchrun leaves each process's log in
   logs/ and nothing in TMPDIR; the README's several-machines command, as two "machines" of one process on this one
   (c10d rendezvous on 127.0.0.1), gives the one-process members;
2. the machine: each run's backend, precision and device; --dtype auto follows the spec's precision; --threads;
   the progress bar on a terminal;
3. the frictions, each by its message: `muplay export SPEC`, `muplay export onnx SPEC`, files already in the output
   folder (and --force), a spec past a field's range, a spec over the command line's memory budget (exported all
   the same), a missing Fashion-MNIST, a python3 that cannot import torch, a bad --threads.

Usage: export_commands.py --muplay PATH/TO/muplay. Exit 0: all hold; 1: a failure.
"""
import argparse
import glob
import json
import math
import os
import pty
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from export_torch import worst_difference  # noqa: E402  (the export check's comparison of two result documents)

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
README = os.path.join(ROOT, "examples", "README.md")
PYTHON = "/usr/bin/python3"  # Debian's, with python3-torch
FLOAT32_TOL = 1e-5
# Each member DDP over 2 processes sums two half-batch gradients and halves them (the allreduce) where one process sums
# the whole batch: another order of float32 additions, every step, whose drift over the run depends on the BLAS kernels
# the CPU selects. So DDP gets a bound of its own, five times the others' and still far below any real error.
DDP_TOL = 5e-5
MARKER = "<!-- the block below is run line by line, as written, by tests/crosscheck/export_commands.py -->"


def readme_block():
    """The command lines of the fenced block after MARKER."""
    with open(README) as f:
        text = f.read()
    at = text.index(MARKER)
    block = re.search(r"```\n(.*?)```", text[at:], re.S).group(1)
    return [line for line in block.splitlines() if line.strip()]


def load(path):
    with open(path) as f:
        return json.load(f)


def max_relative(a, b):
    """The largest relative difference over every run's every series; inf when the runs, statuses or series differ."""
    mismatched = []
    worst = worst_difference(a, b, "", mismatched, math.inf)
    return math.inf if mismatched else worst


class Checks:
    def __init__(self):
        self.problems = []

    def expect(self, ok, what, detail=""):
        print(f"  {'ok  ' if ok else 'FAIL'} {what}" + (f": {detail}" if detail and not ok else ""))
        if not ok:
            self.problems.append(what + (f": {detail}" if detail else ""))


def run(command, cwd, env=None, shell=False):
    return subprocess.run(command, cwd=cwd, env=env, shell=shell, capture_output=True, text=True)


def check_readme_block(muplay, work, checks):
    print("1. the README's commands, as written")
    bin_dir, tmp = os.path.join(work, "bin"), os.path.join(work, "tmp")
    os.makedirs(bin_dir)
    os.makedirs(tmp)
    os.symlink(muplay, os.path.join(bin_dir, "muplay"))
    os.symlink(PYTHON, os.path.join(bin_dir, "python3"))
    os.symlink(os.path.join(ROOT, "examples"), os.path.join(work, "examples"))
    env = dict(os.environ, PATH=bin_dir + ":/usr/bin:/bin", TMPDIR=tmp)
    lines = readme_block()
    r = run(["bash", "-e", "-c", "\n".join(lines)], work, env)
    checks.expect(r.returncode == 0, f"{len(lines)} lines ran", r.stderr[-3000:])
    if r.returncode != 0:
        return None
    folder = os.path.join(work, "coord-check")
    one = load(os.path.join(folder, "result.json"))
    split = max_relative(one, load(os.path.join(folder, "split.json")))
    ddp = max_relative(one, load(os.path.join(folder, "ddp.json")))
    checks.expect(split <= FLOAT32_TOL, f"members split over 2 processes: difference {split:.2e} ≤ {FLOAT32_TOL:g}")
    checks.expect(ddp <= DDP_TOL, f"each member DDP over 2 processes: difference {ddp:.2e} ≤ {DDP_TOL:g}")
    large = sorted({run["width"] for run in load(os.path.join(folder, "large.json"))["runs"]})
    checks.expect(large == [4096, 8192], f"--widths 4096,8192 trained widths {large}")
    logs = glob.glob(os.path.join(folder, "logs", "**", "stderr.log"), recursive=True)
    written = [p for p in logs if "finished after" in open(p).read()]
    # under --ddp-member only process 0 reports; the split run's two processes each report their members
    checks.expect(len(logs) == 4 and len(written) == 3, f"torchrun kept {len(logs)} process logs in logs/ (4), "
                  f"{len(written)} with member lines (3)")
    left = glob.glob(os.path.join(tmp, "torchelastic_*"))
    checks.expect(not left, "torchrun left nothing in TMPDIR", str(left))
    return folder


def check_two_nodes(folder, checks):
    """The several-machines command of the README with HOST 127.0.0.1: two torchrun launchers, one per "node"."""
    command = ["torchrun", "--nnodes=2", "--nproc_per_node=1", "--rdzv_backend=c10d",
               "--rdzv_endpoint=127.0.0.1:29517", "--redirects", "2", "--tee", "2", "--log_dir", "logs", "train.py",
               "--quiet", "--out", "nodes.json", "--csv", "nodes.csv"]
    env = dict(os.environ, PATH="/usr/bin:/bin")
    nodes = [subprocess.Popen(command, cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True) for _ in range(2)]
    errors = [node.communicate(timeout=300)[1] for node in nodes]
    ok = all(node.returncode == 0 for node in nodes)
    difference = max_relative(load(os.path.join(folder, "result.json")), load(os.path.join(folder, "nodes.json"))) \
        if ok else float("inf")
    checks.expect(ok and difference <= FLOAT32_TOL, f"two nodes (c10d on 127.0.0.1): difference {difference:.2e}",
                  "".join(errors)[-2000:])


def check_machine(folder, checks):
    print("2. the machine: where each run was computed, precision, threads, progress")
    one = load(os.path.join(folder, "result.json"))
    where = {(r["backend"], r["precision"], r["device"]) for r in one["runs"]}
    checks.expect(where == {("cpu", "float32", "cpu")}, f"preset 10 (precision float32), --dtype auto: runs {where}")
    checks.expect("float32, " in one["device"] and " thread" in one["device"], f"header device {one['device']!r}")
    r = run([PYTHON, "train.py", "--dtype", "float64", "--threads", "1", "--steps", "1", "--quiet", "--out",
             "f64.json", "--csv", "f64.csv"], folder)
    doc = load(os.path.join(folder, "f64.json")) if r.returncode == 0 else {"runs": [], "device": r.stderr}
    precisions = {run["precision"] for run in doc["runs"]}
    checks.expect(precisions == {"float64"} and doc["device"] == "cpu (float64, 1 thread)",
                  "--dtype float64 --threads 1", doc["device"])
    # a terminal: the bar is redrawn in place ("\r", then "[#...")
    controller, terminal = pty.openpty()
    p = subprocess.Popen([PYTHON, "train.py", "--widths", "2048", "--seeds", "0", "--steps", "300", "--out",
                          "bar.json", "--csv", "bar.csv"], cwd=folder, stderr=terminal, stdout=subprocess.DEVNULL)
    os.close(terminal)
    seen = b""
    while True:
        try:
            chunk = os.read(controller, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    p.wait()
    os.close(controller)
    text = seen.decode(errors="replace")
    checks.expect(p.returncode == 0 and "\r" in text and "[#" in text and "step " in text,
                  "a progress bar on a terminal", text[-400:])


def check_frictions(muplay, work, folder, checks):
    print("3. the frictions, by their messages")
    spec = os.path.join(ROOT, "examples", "10-coord-check-mup.json")

    def expect_refusal(args, text, what):
        r = run([muplay, *args], work)
        checks.expect(r.returncode == 2 and text in r.stderr, what, f"exit {r.returncode}: {r.stderr}")
        return r

    expect_refusal(["export", spec], "export needs a format before the spec: `muplay export torch",
                   "muplay export SPEC names the format")
    expect_refusal(["export", "onnx", spec], "export has no format 'onnx': `muplay export torch",
                   "muplay export onnx SPEC names the one format there is")
    before = open(os.path.join(folder, "train.py")).read()
    with open(os.path.join(folder, "train.py"), "a") as f:
        f.write("# the user's edit\n")
    expect_refusal(["export", "torch", spec, "--out", folder], "already has train.py, README.md",
                   "an output folder with the files in it is refused")
    kept = open(os.path.join(folder, "train.py")).read().endswith("# the user's edit\n")
    checks.expect(kept, "the refused export left the user's train.py as it was")
    r = run([muplay, "export", "torch", spec, "--out", folder, "--force"], work)
    checks.expect(r.returncode == 0 and open(os.path.join(folder, "train.py")).read() == before,
                  "--force overwrites them", r.stderr)

    wide = load(spec)
    wide["sweep"]["width"] = [32768]
    with open(os.path.join(work, "wide.json"), "w") as f:
        json.dump(wide, f)
    expect_refusal(["export", "torch", os.path.join(work, "wide.json"), "--out", os.path.join(work, "wide")],
                   "export the spec within them and give train.py the large values: --widths",
                   "a width past the field's range says how train.py goes past it")

    with open(README) as f:  # the E2 book-sized spec of examples/README.md, over the command line's memory budget
        text = f.read()
    e2 = re.search(r'```\n(\{"version": 1, "name": "E2 book-sized, muP",.*?)```', text, re.S).group(1)
    with open(os.path.join(work, "e2.json"), "w") as f:
        f.write(e2)
    expect_refusal(["validate", os.path.join(work, "e2.json")], "more than the limit of 1000 MB",
                   "the README's E2 spec is over the command line's memory budget")
    r = run([muplay, "export", "torch", os.path.join(work, "e2.json"), "--out", os.path.join(work, "e2")], work)
    checks.expect(r.returncode == 0, "... and exports all the same", r.stderr)

    fashion = os.path.join(work, "fashion")
    run([muplay, "export", "torch", os.path.join(ROOT, "examples", "15-fashion-mnist-transfer-mup.json"), "--out",
         fashion], work)
    r = run([PYTHON, "train.py", "--data-dir", os.path.join(work, "nowhere"), "--steps", "1"], fashion)
    checks.expect(r.returncode != 0 and "--data-dir DIR" in r.stderr and "/usr/share/datasets/fashion-mnist" in
                  r.stderr and "Traceback" not in r.stderr, "a missing Fashion-MNIST names --data-dir and Debian's "
                  "folder", r.stderr[-1500:])
    # -S leaves out site-packages, so this python3 cannot import torch
    r = run([PYTHON, "-S", "train.py"], folder)
    checks.expect(r.returncode != 0 and "cannot import torch" in r.stderr and "requirements.txt" in r.stderr and
                  "Traceback" not in r.stderr, "a Python without torch is told how to get it", r.stderr[-1500:])
    r = run([PYTHON, "train.py", "--threads", "0"], folder)
    checks.expect(r.returncode == 2 and "a whole number from 1 up" in r.stderr, "--threads 0 is refused", r.stderr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--muplay", required=True)
    args = ap.parse_args()
    checks = Checks()
    with tempfile.TemporaryDirectory() as work:
        folder = check_readme_block(os.path.abspath(args.muplay), work, checks)
        if folder:
            check_two_nodes(folder, checks)
            check_machine(folder, checks)
            check_frictions(os.path.abspath(args.muplay), work, folder, checks)
    for p in checks.problems:
        print("FAIL", p)
    print("export_commands:", "FAILED" if checks.problems else "all checks hold")
    return 1 if checks.problems else 0


if __name__ == "__main__":
    sys.exit(main())
