#!/usr/bin/env python3
"""Break an attention dropout the way the traps of docs/semantics.md §7 do, for negative tests:
rewrite every attention op's `dropout` region of a per-rank program (the
output of seqpar-pipeline) to key its mask by local positions (query and
key positions modulo --local, a rank's block length under contiguous
blocks) instead of global ones; with --backward-only, only the regions of
seqpar.attention_block_backward (a backward drawing another mask than its
forward); with --local-heads N, the head instead (modulo N, a rank's
heads under TP or Ulysses: head_offset ignored). Reads argv[1], writes
stdout."""
import argparse
import re
import sys

ap = argparse.ArgumentParser()
ap.add_argument("input")
ap.add_argument("--local", type=int)
ap.add_argument("--local-heads", type=int)
ap.add_argument("--backward-only", action="store_true")
ns = ap.parse_args()

lines = open(ns.input).read().split("\n")
entry = re.compile(r"^(\s*)\^bb0\((%\w+): index, (%\w+): index, (%\w+): index, (%\w+): index\):$")
out, broken = [], 0
for k, line in enumerate(lines):
    m = entry.match(line)
    owner = lines[k - 1] if k else ""
    if m and owner.rstrip().endswith("dropout {") and (
            not ns.backward_only or "attention_block_backward" in owner):
        ind, b, h, i, j = m.groups()
        n = broken
        if ns.local_heads:
            out.append(f"{ind}^bb0({b}: index, %gh{n}: index, {i}: index, {j}: index):")
            out.append(f"{ind}  %heads{n} = arith.constant {ns.local_heads} : index")
            out.append(f"{ind}  {h} = arith.remui %gh{n}, %heads{n} : index")
        else:
            out.append(f"{ind}^bb0({b}: index, {h}: index, %gi{n}: index, %gj{n}: index):")
            out.append(f"{ind}  %len{n} = arith.constant {ns.local} : index")
            out.append(f"{ind}  {i} = arith.remui %gi{n}, %len{n} : index")
            out.append(f"{ind}  {j} = arith.remui %gj{n}, %len{n} : index")
        broken += 1
        continue
    out.append(line)
if not broken:
    sys.exit("break_dropout_keys: no dropout region found")
sys.stdout.write("\n".join(out))
