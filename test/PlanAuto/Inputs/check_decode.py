#!/usr/bin/env python3
"""Checks seqpar-plan-auto's decode workload against the decode steps its
layouts build and run.

Runs the planner once (--workload=decode, --json, every layout ranked) on
the model's forward graph; for each layout builds the decode-step graph
with the layout's own seqpar-pipeline options, runs it with seqpar-run on D
ranks against the single-device step, and compares, per collective kind
and grid axes, the calls and bytes one rank sends (the aggregate counters
over D) with the prediction, exactly (docs/planning-auto.md, "Decode").
With --report, also the KV-cache bytes one rank holds: the prediction
against seqpar-report's kv_cache_bytes of the built step.

Usage: check_decode.py --plan-auto P --opt O --run R --mpirun "mpirun ... -np"
       --model G --step S --devices D --context L --new-tokens T
       --element-bytes E --work DIR [--report seqpar-report]
Prints one line per layout and per collective, and a summary; exit status
1 on any difference or failed run.
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys

COUNTER = re.compile(r"^  (\w+)\s+\[[\d,]+\]\s+(\[[\d,]+\])\s+(\d+)\s+(\d+)\s")


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    return proc.returncode, proc.stdout + proc.stderr


def measured(output, devices):
    """Per-rank (calls, bytes) by (kind, axes) from the aggregate counters."""
    lines = output.splitlines()
    start = next((i for i, line in enumerate(lines)
                  if "counters: aggregate over" in line), None)
    counts = {}
    if start is None:
        return counts
    for line in lines[start + 1:]:
        if line.startswith("  alloc:"):
            break
        m = COUNTER.match(line)
        if m:
            kind, axes, calls, sent = m.groups()
            counts[(kind, axes)] = (int(calls) / devices, int(sent) / devices)
    return counts


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for name in ("--plan-auto", "--opt", "--run", "--mpirun", "--model",
                 "--step", "--work"):
        p.add_argument(name, required=True)
    for name in ("--devices", "--context", "--new-tokens", "--element-bytes"):
        p.add_argument(name, type=int, required=True)
    p.add_argument("--report", help="seqpar-report: compare the KV-cache "
                   "bytes per rank too")
    a = p.parse_args()
    os.makedirs(a.work, exist_ok=True)
    rc, out = run([a.plan_auto, a.model, "--workload=decode",
                   "--context=%d" % a.context, "--new-tokens=%d" % a.new_tokens,
                   "--devices=%d" % a.devices, "--hardware=cpu",
                   "--element-bytes=%d" % a.element_bytes, "--json",
                   "--runners-up=100"])
    if rc != 0:
        sys.exit("check_decode: seqpar-plan-auto failed:\n" + out)
    plans = json.loads(out)["ranked"]
    failures = 0
    for index, plan in enumerate(plans):
        program = os.path.join(a.work, "step%d.mlir" % index)
        rc, out = run([a.opt, a.step, "--seqpar-pipeline=" + plan["pipeline"],
                       "-o", program])
        if rc != 0:
            print("FAIL %s: seqpar-opt:\n%s" % (plan["pipeline"], out))
            failures += 1
            continue
        kv_note = ""
        kv_same = True
        if a.report:
            proc = subprocess.run([a.report, "--json", program],
                                  capture_output=True, text=True)
            rc = proc.returncode
            reports = json.loads(proc.stdout) if rc == 0 else []
            held = sum(r.get("kv_cache_bytes", 0) for r in reports)
            kv_same = rc == 0 and held == plan["kv_cache_bytes"]
            kv_note = (", %.0f KV-cache bytes per rank predicted (seqpar-report "
                       "%s)" % (plan["kv_cache_bytes"],
                                held if rc == 0 else "failed"))
        rc, out = run(shlex.split(a.mpirun) + [str(a.devices), a.run, program,
                                               "--entry=main",
                                               "--reference=" + a.step])
        passed = rc == 0 and "reference: pass" in out
        counts = measured(out, a.devices)
        predicted = {(c["kind"], c["axes"]): (c["calls"], c["bytes_sent"])
                     for c in plan["collectives"]}
        same = passed and counts == predicted and kv_same
        failures += 0 if same else 1
        print("%s %s: %s, %.0f bytes sent per rank predicted%s"
              % ("ok" if same else "FAIL", plan["pipeline"],
                 "reference pass" if passed else "run failed",
                 plan["bytes_sent"], kv_note))
        for key in sorted(set(counts) | set(predicted)):
            pc, pb = predicted.get(key, (0, 0))
            mc, mb = counts.get(key, (0, 0))
            print("  %s %s: predicted %g calls %g bytes, measured %g calls %g "
                  "bytes" % (key[0], key[1], pc, pb, mc, mb))
        if not passed:
            print(out)
    print("check_decode: %d layouts, %d failure(s)" % (len(plans), failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
