#!/usr/bin/env python3
"""Drops one shard.all_reduce from an MLIR file (for negative tests): the
N-th (1-based) one (--nth N), or the one whose value the function returns as
result K (--result K); its uses read its operand instead. Exits 1 when there
is no such all_reduce.

Usage: drop_all_reduce.py IN OUT (--nth N | --result K)
"""
import argparse
import re
import sys


def main(argv=None):
    """Entry point."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input")
    ap.add_argument("output")
    which = ap.add_mutually_exclusive_group(required=True)
    which.add_argument("--nth", type=int)
    which.add_argument("--result", type=int)
    ns = ap.parse_args(argv)
    text = open(ns.input).read()
    pattern = re.compile(r"^ *(%[\w.]+) = shard\.all_reduce (%[\w.]+) on .*\n", re.M)
    hits = list(pattern.finditer(text))
    if ns.result is not None:
        ret = re.findall(r"^ *return (.*) :", text, re.M)
        values = ret[-1].split(", ") if ret else []
        if not 0 <= ns.result < len(values):
            sys.exit("drop_all_reduce: the function returns %d values, no result #%d" % (len(values), ns.result))
        hits = [m for m in hits if m.group(1) == values[ns.result]]
        if not hits:
            sys.exit("drop_all_reduce: result #%d (%s) is not an all_reduce" % (ns.result, values[ns.result]))
        m = hits[0]
    elif not 1 <= ns.nth <= len(hits):
        sys.exit("drop_all_reduce: %d all_reduce ops, no #%d" % (len(hits), ns.nth))
    else:
        m = hits[ns.nth - 1]
    result, operand = m.group(1), m.group(2)
    text = text[:m.start()] + text[m.end():]
    text = re.sub(re.escape(result) + r"(?![\w.])", operand, text)
    open(ns.output, "w").write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
