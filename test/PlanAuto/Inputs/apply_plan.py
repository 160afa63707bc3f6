#!/usr/bin/env python3
"""Applies the best plan of `seqpar-plan-auto --json` (read from stdin) to a
graph: runs seqpar-opt GRAPH --seqpar-pipeline="<its options>" -o OUT and
prints the options it used."""
import json
import subprocess
import sys

seqpar_opt, graph, out = sys.argv[1:4]
best = json.load(sys.stdin)["ranked"][0]
print("applying: " + best["pipeline"])
sys.exit(subprocess.run([seqpar_opt, graph,
                         "--seqpar-pipeline=" + best["pipeline"], "-o", out],
                        stderr=subprocess.DEVNULL).returncode)
