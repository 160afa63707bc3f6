#!/usr/bin/env python3
"""A training step's measured peak per rank against seqpar-report's
predicted one, TP and TP+SP, and the TP+SP / TP peak ratio.

For each model and t, bench/gen_train_graph.py writes the Megatron TP
training program (f32). TP is that program after `seqpar-opt --canonicalize
--cse` (the clean-up seqpar-sp-pipeline ends with, so both programs are
lowered from equally cleaned IR); TP+SP is seqpar-sp-pipeline of it. Each
runs one training step under seqpar-run on t ranks: its largest per-rank
peak of program allocations ("rank R: ... peak N bytes (program
allocations)") must be within 5% of seqpar-report's predicted
training-step peak. The raw generator output's peak is printed too (it keeps
one zero-filled init per op; CSE shares them between forward and backward,
docs/report.md "Training graphs").

Usage: training_peaks.py SEQPAR_OPT SEQPAR_REPORT SEQPAR_RUN GEN WORKDIR MPIRUN...
Prints one line per program (with its saved-for-backward bytes) and one
ratio line per (model, t); exits 1 when
a prediction is more than 5% off.
"""

import json
import os
import re
import subprocess
import sys

OPT, REPORT, RUN, GEN, WORK = sys.argv[1:6]
MPIRUN = sys.argv[6:]

MODELS = {
    "gpt": ["--model", "gpt", "--layers", "2", "--batch", "2", "--seq", "32",
            "--hidden", "64", "--heads", "4"],
    "llama": ["--model", "llama", "--layers", "2", "--batch", "2", "--seq",
              "32", "--hidden", "64", "--heads", "8", "--kv-heads", "4"],
}


def run(cmd):
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{done.stdout}\n{done.stderr}")
    return done.stdout


failures = 0


def peaks(path, t):
    """(measured largest per-rank peak, predicted peak, saved for backward)
    of one program."""
    report = json.loads(run([REPORT, path, "--json"]))[0]
    if report.get("peak_of") != "training step":
        sys.exit(f"{path}: not reported as a training step")
    saved = report["saved_for_backward"]["total"]["bytes"]
    text = run(MPIRUN + [str(t), RUN, path])
    measured = [int(m) for m in re.findall(
        r"rank \d+: wall [\d.e+-]+ s, peak (\d+) bytes \(program allocations\)",
        text)]
    if len(measured) != t:
        sys.exit(f"{path}: {len(measured)} rank peaks in\n{text}")
    return max(measured), report["forward_peak_bytes"], saved


def check(label, path, t):
    global failures
    measured, predicted, saved = peaks(path, t)
    ratio = predicted / measured
    ok = abs(ratio - 1) <= 0.05
    failures += not ok
    print(f"{label}: measured {measured} predicted {predicted} ratio "
          f"{ratio:.3f} {'ok' if ok else 'MISMATCH'} (saved for backward "
          f"{saved})")
    return measured, saved


for model, args in MODELS.items():
    for t in (2, 4):
        base = os.path.join(WORK, f"{model}_t{t}")
        run([sys.executable, GEN, *args, "--tp", str(t), "-o", base + ".mlir"])
        run([OPT, base + ".mlir", "--canonicalize", "--cse", "-o",
             base + ".tp.mlir"])
        run([OPT, base + ".mlir", "--seqpar-sp-pipeline", "-o",
             base + ".sp.mlir"])
        check(f"{model} t={t} TP as generated", base + ".mlir", t)
        tp = check(f"{model} t={t} TP", base + ".tp.mlir", t)
        sp = check(f"{model} t={t} TP+SP", base + ".sp.mlir", t)
        print(f"{model} t={t} measured peak TP+SP / TP = {sp[0] / tp[0]:.3f}"
              f" (saved for backward {sp[1] / tp[1]:.3f})")
sys.exit(1 if failures else 0)
