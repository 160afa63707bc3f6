#!/usr/bin/env python3
"""Checks seqpar-plan-auto's training workload against the programs its
layouts build.

For one training graph (docs/training-graphs.md) it runs the planner once
over every layout (--exhaustive, --json), and for each requested layout
builds the program with the planner's own seqpar-pipeline options, reads it
with seqpar-report, and compares, per collective kind and grid axes, the
calls and bytes one rank sends, and the bytes kept for the backward
(docs/planning-auto.md, "Training").

Exact, but for what the planner does not model, each named on its line:
  * index-typed saved tensors: the global positions the CP rewrite builds
    (s_l indices each), rematerializable, which the saved-for-backward
    analysis counts as computed from no argument;
  * the all-gathers the CP remark counts "for ops that need all tokens"
    (an exporter's loss that reads the label's logit inside a linalg body
    with flattened indices): subtracted, with the remark's bytes, from the
    CP axes' all_gather; the loss then runs on all tokens and its scalar is
    not all-reduced over CP;
  * the loss's own collectives: on the TP axis the vocab-parallel
    cross-entropy's per-token row max, row sum and label logit (at most 5
    extra calls of one value per token each, at most 2 b s_l max(e, 4)
    bytes per call), on the CP axes the loss's scalar sum (at most 2 extra
    calls of at most 2 * 8 bytes);
  * with SP and CP together, the TP axis's all_reduce (the planner counts
    the attention input gradient's all-reduce, not which norm parameters'
    gradients the rewrite then finds whole) and, with Ulysses or hybrid,
    its reduce_scatter (docs/planning-auto.md, "Limits"): printed, not
    compared.

Usage: check_training.py --plan-auto P --opt O --report R --graph G
       --devices D --element-bytes E --work DIR LAYOUT...
LAYOUT: tp=T,sp=0|1,cp=C[,strategy=S][,u=U][,lb=zigzag|none][,keepkv=1],
or `chosen`: the layout the planner chooses as a user runs it (branch and
bound, the cpu preset's memory budget).
Prints one line per layout ("ok ..." or "FAIL ...") with one line per
collective kind and axes (predicted, measured), and a summary; exit
status 1 on any failure. With --runs K it also runs the first layout on
K ranks (--mpirun) and compares seqpar-run's per-rank counters, exactly,
with the same exclusions.
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def parse_layout(text):
    spec = {"tp": 1, "sp": 0, "cp": 1, "strategy": "", "u": 1, "lb": "none",
            "keepkv": 0}
    for item in text.split(","):
        key, value = item.split("=")
        if key not in spec:
            sys.exit("check_training: unknown layout key '%s'" % key)
        spec[key] = value if key in ("strategy", "lb") else int(value)
    return spec


def layout_of(plan):
    """The LAYOUT text of a planned layout."""
    text = "tp=%d,sp=%d,cp=%d" % (plan["tp"], int(plan["sp"]), plan["cp"])
    if plan["cp"] > 1:
        text += ",strategy=%s,u=%d,lb=%s,keepkv=%d" % (
            plan["strategy"], plan["ulysses"], plan["load_balance"],
            int(plan["keep_kv"]))
    return text


def matches(plan, spec):
    if (plan["tp"], int(plan["sp"]), plan["cp"]) != (spec["tp"], spec["sp"],
                                                     spec["cp"]):
        return False
    if spec["cp"] == 1:
        return True
    return (plan["strategy"] == spec["strategy"] and
            (spec["strategy"] != "hybrid" or plan["ulysses"] == spec["u"]) and
            plan["load_balance"] == spec["lb"] and
            int(plan["keep_kv"]) == spec["keepkv"])


def boundary_gathers(remarks):
    """The CP remark's all-gathers for ops that need all tokens: (axes,
    calls, bytes)."""
    m = re.search(r"context-parallel over @\w+ axes \[([0-9, ]+)\].*, "
                  r"(\d+) all_gather \((\d+) bytes\) for ops that need all "
                  r"tokens", remarks)
    if not m:
        return None
    axes = "[" + ",".join(a.strip() for a in m.group(1).split(",")) + "]"
    return axes, int(m.group(2)), int(m.group(3))


def compare(label, predicted, measured, plan, spec, shape, e, remarks):
    """Lines of differences the exclusions do not explain (empty: ok) and
    notes for the exclusions used."""
    errors, notes = [], []
    boundary = boundary_gathers(remarks)
    if boundary and boundary[1]:
        axes, calls, sent = boundary
        key = ("all_gather", axes)
        if key in measured:
            c, b = measured[key]
            measured[key] = (c - calls, b - sent)
            notes.append("boundary all_gather %s: %d calls, %d bytes" %
                         (axes, calls, sent))
    tokens = shape["batch"] * plan["local_tokens"]
    per_token = 2 * tokens * max(e, 4)
    for key in sorted(set(predicted) | set(measured)):
        pc, pb = predicted.get(key, (0, 0))
        mc, mb = measured.get(key, (0, 0))
        kind, axes = key
        what = "%s %s: predicted %d calls %d bytes, measured %d calls %d " \
               "bytes" % (kind, axes, pc, pb, mc, mb)
        if (pc, pb) == (mc, mb):
            continue
        ulysses = spec["strategy"] in ("ulysses", "hybrid")
        if axes == "[0]" and spec["sp"] and spec["cp"] > 1 and (
                kind == "all_reduce" or
                (ulysses and kind == "reduce_scatter")):
            notes.append("SP x CP deviation: " + what)
            continue
        dc, db = mc - pc, mb - pb
        if axes == "[0]":
            loss_calls, loss_bytes = 5, per_token
        elif kind == "all_reduce":
            loss_calls, loss_bytes = 2, 2 * 8
        else:
            loss_calls, loss_bytes = 0, 0
        if 0 < dc <= loss_calls and 0 <= db <= dc * loss_bytes:
            notes.append("loss: %s %s +%d calls +%d bytes" %
                         (kind, axes, dc, db))
            continue
        errors.append(what)
    return errors, notes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plan-auto", required=True)
    ap.add_argument("--opt", required=True)
    ap.add_argument("--report", required=True)
    ap.add_argument("--graph", required=True)
    ap.add_argument("--devices", type=int, required=True)
    ap.add_argument("--element-bytes", type=int, required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--keep-kv", action="store_true")
    ap.add_argument("--runs", type=int, default=0)
    # A drifted planner, for the test that shows a drift fails: the
    # planner's figures of this collective kind are dropped.
    ap.add_argument("--drop-predicted", default="")
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--run", default="seqpar-run")
    ap.add_argument("layouts", nargs="+")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    e = args.element_bytes

    cmd = [args.plan_auto, args.graph, "--workload=training", "--json",
           "--exhaustive", "--hardware=cpu", "--memory-gib=1024",
           "--runners-up=100000", "--devices=%d" % args.devices,
           "--element-bytes=%d" % e]
    if args.keep_kv:
        cmd.append("--keep-kv")
    proc = run(cmd)
    if proc.returncode:
        sys.exit("check_training: %s failed:\n%s" % (" ".join(cmd),
                                                     proc.stderr))
    result = json.loads(proc.stdout)
    chosen = None
    if "chosen" in args.layouts:
        # As a user runs it: the search prunes, the preset's budget holds.
        cmd = [c for c in cmd if c not in ("--exhaustive",
                                           "--memory-gib=1024")]
        cmd = [c for c in cmd if not c.startswith("--runners-up")]
        proc = run(cmd + ["--runners-up=0"])
        if proc.returncode:
            sys.exit("check_training: %s failed:\n%s" % (" ".join(cmd),
                                                         proc.stderr))
        chosen = json.loads(proc.stdout)["ranked"][0]
    shape = {"batch": result["batch"], "seq": result["seq"]}
    name = os.path.basename(args.graph)
    failures = 0
    for index, text in enumerate(args.layouts):
        if text == "chosen":
            text = "chosen %s" % layout_of(chosen)
            spec = parse_layout(layout_of(chosen))
        else:
            spec = parse_layout(text)
        plans = [p for p in result["ranked"] if matches(p, spec)]
        if len(plans) != 1:
            print("FAIL %s %s: %d planned layouts match" %
                  (name, text, len(plans)))
            failures += 1
            continue
        plan = plans[0]
        pieces = 2 * plan["cp"] if plan["load_balance"] == "zigzag" \
            else plan["cp"]
        plan["local_tokens"] = -(-shape["seq"] // pieces) * pieces // \
            plan["cp"]
        out = os.path.join(args.work, "%s.%d.mlir" % (name, index))
        proc = run([args.opt, args.graph,
                    "--seqpar-pipeline=" + plan["pipeline"], "-o", out])
        if proc.returncode:
            print("FAIL %s %s: seqpar-opt failed:\n%s" %
                  (name, text, proc.stderr))
            failures += 1
            continue
        remarks = proc.stderr
        proc = run([args.report, out, "--json", "--peak=false"])
        if proc.returncode:
            print("FAIL %s %s: seqpar-report failed:\n%s" %
                  (name, text, proc.stderr))
            failures += 1
            continue
        report = json.loads(proc.stdout)[0]
        measured = {(c["kind"], c["axes"]): (c["calls"], c["bytes_sent"])
                    for c in report["total"]["collectives"]}
        predicted = {(c["kind"], c["axes"]): (round(c["calls"]),
                                              round(c["bytes_sent"]))
                     for c in plan["collectives"]
                     if c["kind"] != args.drop_predicted}
        errors, notes = compare(text, predicted, dict(measured), plan, spec,
                                shape, e, remarks)
        saved = report["saved_for_backward"]["total"]
        index_bytes = saved["by_element_type"].get("index", 0)
        saved_measured = saved["bytes"] - index_bytes
        saved_predicted = round(plan["saved_activation_bytes"])
        if saved_measured != saved_predicted:
            errors.append("saved: predicted %d, measured %d (+ %d index)" %
                          (saved_predicted, saved_measured, index_bytes))
        if args.runs and index == 0:
            errors += check_counters(args, out, predicted, plan, spec,
                                     shape, e, remarks)
        sent_p = sum(b for _, b in predicted.values())
        sent_m = sum(b for _, b in measured.values())
        line = "%s %s (%s): sent predicted %d measured %d; saved predicted " \
               "%d measured %d + %d index" % (
                   name, text, plan["pipeline"], sent_p, sent_m,
                   saved_predicted, saved_measured, index_bytes)
        if errors:
            failures += 1
            print("FAIL " + line)
            for err in errors:
                print("  " + err)
        else:
            print("ok " + line)
        for key in sorted(set(predicted) | set(measured)):
            pc, pb = predicted.get(key, (0, 0))
            mc, mb = measured.get(key, (0, 0))
            print("  %s %s: predicted %d calls %d bytes, measured %d calls "
                  "%d bytes" % (key[0], key[1], pc, pb, mc, mb))
        for note in notes:
            print("  not modelled: " + note)
    print("check_training: %d failure(s)" % failures)
    return 1 if failures else 0


def check_counters(args, program, predicted, plan, spec, shape, e, remarks):
    """seqpar-run's per-rank counters of `program` on args.runs ranks
    against the prediction (rank 0's lines)."""
    cmd = shlex.split(args.mpirun) + [str(args.runs), args.run, program]
    proc = run(cmd)
    if proc.returncode:
        return ["seqpar-run failed:\n" + proc.stdout + proc.stderr]
    measured = {}
    in_rank0 = False
    for line in proc.stdout.splitlines():
        if line.startswith("seqpar runtime counters: "):
            in_rank0 = line.strip().endswith("rank 0")
            continue
        fields = line.split()
        if in_rank0 and len(fields) == 7 and fields[0] in (
                "all_reduce", "all_gather", "reduce_scatter", "all_to_all",
                "send"):
            measured[(fields[0], fields[2])] = (int(fields[3]),
                                                int(fields[4]))
    if not measured:
        return ["no counters in seqpar-run's output:\n" + proc.stdout]
    errors, notes = compare("run", predicted, measured, plan, spec, shape, e,
                            remarks)
    print("  seqpar-run on %d ranks, rank 0: %s" % (
        args.runs, " ".join("%s %s %d/%d" % (k[0], k[1], v[0], v[1])
                            for k, v in sorted(measured.items()))))
    return ["seqpar-run: " + err for err in errors]


if __name__ == "__main__":
    sys.exit(main())
