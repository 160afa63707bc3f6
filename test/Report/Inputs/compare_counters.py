#!/usr/bin/env python3
"""Checks seqpar-report's figures against what seqpar-run measured.

Usage: compare_counters.py REPORT_JSON RUN_OUTPUT

Every rank's collective counters (kind, grid axes, calls, bytes sent; the
runtime's 'recv' rows are the other side of 'send' and are skipped) must
equal the report's totals exactly; the largest per-rank 'attention' region
FLOPs must equal the report's attention FLOPs (the report counts the busier
branch of each causal ring step), and seqpar-run's contraction FLOPs the
report's matmul FLOPs. The largest per-rank peak of program allocations
must be within 5% of the report's predicted forward peak. Prints one line
per comparison, exits 1 on mismatch.
"""

import json
import re
import sys

whole = json.load(open(sys.argv[1]))[0]
report = whole["total"]
text = open(sys.argv[2]).read()

expected = {(c["kind"], c["axes"]): (c["calls"], c["bytes_sent"])
            for c in report["collectives"]}
ranks, attention, peaks, current = {}, {}, {}, None
for line in text.splitlines():
    m = re.match(r"seqpar runtime counters: rank (\d+)", line)
    if m:
        current = int(m.group(1))
        ranks[current] = {}
        continue
    if line.startswith("seqpar runtime counters: aggregate"):
        current = None
    if current is None:
        continue
    m = re.match(r"\s+(\w+)\s+\[[\d,]*\]\s+(\[[\d,]*\])\s+(\d+)\s+(\d+)\s", line)
    if m and m.group(1) != "recv":
        ranks[current][(m.group(1), m.group(2))] = (int(m.group(3)),
                                                    int(m.group(4)))
    m = re.match(r"\s+alloc: current \d+ bytes, peak (\d+) bytes", line)
    if m:
        peaks[current] = int(m.group(1))
    m = re.match(r"\s+region 'attention': calls \d+, flops (\d+)", line)
    if m:
        attention[current] = int(m.group(1))

failures = 0
if not ranks:
    sys.exit("no runtime counters in " + sys.argv[2])
for rank, measured in sorted(ranks.items()):
    ok = measured == expected
    failures += not ok
    print(f"rank {rank} collectives {sorted(measured.items())} report "
          f"{sorted(expected.items())} {'ok' if ok else 'MISMATCH'}")
flops = report["flops"]
if attention or "attention" in flops:
    got = max(attention.values(), default=0)
    ok = got == flops.get("attention", 0)
    failures += not ok
    print(f"attention flops max over ranks {got} report "
          f"{flops.get('attention', 0)} {'ok' if ok else 'MISMATCH'}")
m = re.search(r"(\d+) FLOPs per rank \(contractions\)", text)
if m:
    ok = int(m.group(1)) == flops.get("matmul", 0)
    failures += not ok
    print(f"contraction flops {m.group(1)} report {flops.get('matmul', 0)} "
          f"{'ok' if ok else 'MISMATCH'}")
if "forward_peak_bytes" in whole:
    measured = max(peaks.values(), default=0)
    predicted = whole["forward_peak_bytes"]
    ratio = predicted / measured if measured else 0.0
    ok = abs(ratio - 1) <= 0.05
    failures += not ok
    print(f"forward peak measured {measured} predicted {predicted} ratio "
          f"{ratio:.3f} {'ok' if ok else 'MISMATCH'}")
sys.exit(1 if failures else 0)
