"""Writes an attention mask as a little-endian int64 .npy (no numpy needed):
mask01.py OUT S PAD0 PAD1 ...: one row per batch of S ones, the last PADk
of row k zeros (padding keys)."""
import sys

out, s, pads = sys.argv[1], int(sys.argv[2]), [int(p) for p in sys.argv[3:]]
values = []
for pad in pads:
    values += [1] * (s - pad) + [0] * pad
header = "{'descr': '<i8', 'fortran_order': False, 'shape': (%d, %d), }" % (
    len(pads), s)
header += " " * (63 - (10 + len(header)) % 64) + "\n"
with open(out, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little"))
    f.write(header.encode("latin1"))
    for v in values:
        f.write(v.to_bytes(8, "little", signed=True))
