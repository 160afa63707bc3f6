#!/usr/bin/env python3
"""Prints the bytes seqpar-plan-auto's cost model gives the CPU attention's
f32 score tiles, per layout: its transient bytes with the cpu preset (tiles
of docs/runtime-and-run.md, "Attention tiles") minus the same layout's with
the h100 preset (flash attention, no tiles), every other term being the
same (docs/planning-auto.md, "Memory").

Usage: score_tiles.py PLAN_AUTO GRAPH [seqpar-plan-auto options...]
Prints "<pipeline options>: score tiles <bytes>" per layout; exit status 1
if a layout is missing from one of the two runs.
"""
import json
import subprocess
import sys


def layouts(plan_auto, graph, hardware, extra):
    out = subprocess.run([plan_auto, graph, "--hardware=" + hardware, "--json",
                          "--exhaustive", "--runners-up=1000", *extra],
                         check=True, capture_output=True, text=True).stdout
    return {l["pipeline"]: l["transient_bytes"] for l in json.loads(out)["ranked"]}


def main():
    plan_auto, graph, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
    cpu = layouts(plan_auto, graph, "cpu", extra)
    flash = layouts(plan_auto, graph, "h100", extra)
    if cpu.keys() != flash.keys():
        print("layouts differ: cpu %s, h100 %s" % (sorted(cpu), sorted(flash)))
        return 1
    for pipeline in sorted(cpu):
        print("%s: score tiles %d" % (pipeline, cpu[pipeline] - flash[pipeline]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
