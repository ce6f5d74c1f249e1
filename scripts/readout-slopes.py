#!/usr/bin/python3
"""What parametrization.readout_init changes in the coordinate check: for the presets 10 (muP) and 11 (SP), with the
readout drawn at random and at zero, the log-log slope against the width of each layer's act_delta_rms (the RMS of
h - h at init, mean over the seeds) at the presets' last step. The engine's own runs, through `muplay run`.

Usage: /usr/bin/python3 scripts/readout-slopes.py [--muplay build/native/engine/muplay]
"""
import argparse
import json
import math
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def slope(xs, ys):
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--muplay", default=os.path.join(ROOT, "build", "native", "engine", "muplay"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for preset in ("10-coord-check-mup", "11-coord-check-sp"):
            for readout in ("random", "zero"):
                with open(os.path.join(ROOT, "examples", preset + ".json")) as f:
                    spec = json.load(f)
                spec["parametrization"]["readout_init"] = readout
                spec_path, result_path = os.path.join(tmp, "spec.json"), os.path.join(tmp, "result.json")
                with open(spec_path, "w") as f:
                    json.dump(spec, f)
                subprocess.run([args.muplay, "run", spec_path, "--out", result_path, "--quiet"], check=True)
                with open(result_path) as f:
                    runs = json.load(f)["runs"]
                widths = sorted({r["width"] for r in runs})
                slopes = []
                for layer in ("h1", "h2", "f"):
                    key = "act_delta_rms/" + layer
                    means = [sum(r["series"][key][-1] for r in runs if r["width"] == w) /
                             sum(1 for r in runs if r["width"] == w) for w in widths]
                    slopes.append(f"{layer} {slope(widths, means):+.3f}")
                print(f"{preset}, readout {readout:6s} step {spec['schedule']['steps']}: " + ", ".join(slopes))


if __name__ == "__main__":
    main()
