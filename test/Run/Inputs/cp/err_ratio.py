"""Compares seqpar-run's reported errors of two runs: passes when the second
run's error (e.g. context parallel on c ranks) is at most LIMIT times the
first's (the single-device program). Usage: err_ratio.py FIRST SECOND LIMIT
(seqpar-run outputs); exits 1 when the ratio exceeds LIMIT."""
import re
import sys


def err(path):
    with open(path) as f:
        found = re.findall(r"err = ([0-9.eE+-]+)", f.read())
    if len(found) != 1:
        sys.exit(f"err_ratio.py: {path}: expected one 'err =', found {len(found)}")
    return float(found[0])


first, second, limit = err(sys.argv[1]), err(sys.argv[2]), float(sys.argv[3])
ratio = second / first if first > 0 else (0.0 if second == 0 else float("inf"))
ok = ratio <= limit
print(f"first err {first:.3g}, second err {second:.3g}, ratio {ratio:.3f} "
      f"(limit {limit:g}): {'ok' if ok else 'FAIL'}")
sys.exit(0 if ok else 1)
