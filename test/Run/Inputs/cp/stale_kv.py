"""Rewrites a per-rank ring-attention program so that its first ring
backward reuses a stale K/V block: from the first K/V transfer after the
first seqpar.attention_block_backward on, the received blocks are replaced
by the blocks the rank sent (its own). Used to show that the comparison of
a training graph's gradients catches the trap (docs/context-parallelism.md,
"Training: the attention backward").

Usage: stale_kv.py IN.mlir OUT.mlir
"""
import re
import sys

lines = open(sys.argv[1]).read().split('\n')
start = next(i for i, line in enumerate(lines)
             if 'seqpar.attention_block_backward' in line)
# Request -> the value it sends, for the ring shifts started so far.
sent = {}
for line in lines[:start + 1]:
    m = re.match(r'\s*(%\w+) = seqpar\.shift_start (%\w+)', line)
    if m:
        sent[m.group(1)] = m.group(2)
stale = []
for i in range(start, len(lines)):
    m = re.match(r'\s*(%\w+) = seqpar\.wait (%\w+)', lines[i])
    if m and m.group(2) in sent:
        stale.append((i, m.group(1), sent[m.group(2)]))
    if len(stale) == 2:
        break
if len(stale) != 2:
    sys.exit('stale_kv.py: no K/V transfer after the first block backward')
for i, received, own in stale:
    for j in range(i + 1, len(lines)):
        lines[j] = re.sub(re.escape(received) + r'\b', own, lines[j])
open(sys.argv[2], 'w').write('\n'.join(lines))
