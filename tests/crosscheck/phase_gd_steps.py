#!/usr/bin/env python3
"""The engine's gd_auto against the float64 reference (phase_gd_reference.py) on the phase diagram's runs.

Writes the spec below for the sweep asked for, takes every member's initial weights from `muplay export-init`,
trains them with `muplay run` and with the reference (exact Hessians, the same protocol), and prints per run the
steps each took to reach 1e-4 × the zero predictor's loss. Fails (exit 1) unless every engine run reaches it within
--cap steps and in at most --ratio × the reference's steps from the same init.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import phase_gd_reference as reference

STOP_RATIO = 1e-4


def spec(points, widths, seeds, cap):
    return {
        "version": 1,
        "model": {"widths": [widths[0]], "activation": "relu", "input_bias": True},
        "parametrization": {"preset": "two_layer_gamma"},
        "task": {"kind": "function_1d", "target": "four_points", "input_dim": 1, "train_size": 4, "test_size": 11},
        "optimizer": {"kind": "gd_auto", "lr": 0.5},
        "schedule": {"steps": cap, "record_every": cap, "stop_loss_ratio": STOP_RATIO},
        "sweep": {"width": widths, "seeds": seeds, "phase_points": points},
        "metrics": ["train_loss"],
    }


def engine_runs(muplay, spec_path, out_dir, threads):
    result = os.path.join(out_dir, "result.json")
    subprocess.run([muplay, "run", spec_path, "--out", result, "--quiet", "--threads", str(threads)], check=True)
    zero_loss = 0.5 * sum(y * y for y in reference.Y) / len(reference.Y)
    runs = {}
    for r in json.load(open(result))["runs"]:
        reached = r["summary"]["final_train_loss"] <= STOP_RATIO * zero_loss
        runs[(r["gamma"], r["gamma_prime"], r["width"], r["seed"])] = (r["steps_done"], reached)
    return runs


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--muplay", required=True)
    p.add_argument("--points", default="0.5,0;1,0;1.75,0")
    p.add_argument("--widths", default="100,300,1000,3000")
    p.add_argument("--seeds", default="0,1,2")
    p.add_argument("--cap", type=int, default=10000)
    p.add_argument("--ratio", type=float, default=2.0)
    p.add_argument("--threads", type=int, default=2)
    args = p.parse_args()
    points = [[float(v) for v in pt.split(",")] for pt in args.points.split(";")]
    widths = [int(w) for w in args.widths.split(",")]
    seeds = [int(s) for s in args.seeds.split(",")]

    with tempfile.TemporaryDirectory() as out_dir:
        spec_path, init_path = os.path.join(out_dir, "spec.json"), os.path.join(out_dir, "init.json")
        json.dump(spec(points, widths, seeds, args.cap), open(spec_path, "w"))
        subprocess.run([args.muplay, "export-init", spec_path, "--out", init_path], check=True)
        engine = engine_runs(args.muplay, spec_path, out_dir, args.threads)
        failures = []
        print("gamma gamma' width seed engine_steps reference_steps ratio")
        for gamma, gamma_prime, m, seed, W, a in reference.engine_members(init_path):
            ref_steps, ref_reached = reference.train(W, a, STOP_RATIO, args.cap)
            steps, reached = engine[(gamma, gamma_prime, m, seed)]
            ratio = steps / max(ref_steps, 1)
            print(f"{gamma:g} {gamma_prime:g} {m} {seed} {steps}{'' if reached else ' (cap)'} {ref_steps} {ratio:.2f}")
            if not ref_reached:
                failures.append(f"({gamma:g}, {gamma_prime:g}, m={m}, seed {seed}): the reference did not converge")
            if not reached or ratio > args.ratio:
                failures.append(f"({gamma:g}, {gamma_prime:g}, m={m}, seed {seed}): engine {steps} steps"
                                f"{'' if reached else ' without reaching the loss'}, reference {ref_steps}")
    for f in failures:
        print("FAIL", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
