"""Writes a 0-d int64 .npy (format 1.0) holding argv[2] to argv[1], without
numpy: a decode step's length L outside the [0, 8) seqpar-run generates."""
import struct
import sys

header = "{'descr': '<i8', 'fortran_order': False, 'shape': (), }"
# Magic, version, header length; the header padded with spaces to a
# multiple of 64 bytes (with the 10 bytes before it) and ended by a newline.
pad = 64 - (10 + len(header) + 1) % 64
header = header + " " * pad + "\n"
with open(sys.argv[1], "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
    f.write(header.encode("latin1"))
    f.write(struct.pack("<q", int(sys.argv[2])))
