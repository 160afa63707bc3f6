"""Sets elements of a little-endian f32 .npy file (format 1.0, as
seqpar-run's --save-inputs writes it) to NaN, in place.

Usage: put_nan.py FILE INDEX...   (flat, row-major element indices)
"""
import struct
import sys

path = sys.argv[1]
data = bytearray(open(path, "rb").read())
if data[:6] != b"\x93NUMPY" or data[6] != 1 or b"'<f4'" not in data[:128]:
    sys.exit(f"put_nan.py: {path} is not a format 1.0 f32 .npy file")
start = 10 + struct.unpack("<H", data[8:10])[0]
count = (len(data) - start) // 4
for index in map(int, sys.argv[2:]):
    if not 0 <= index < count:
        sys.exit(f"put_nan.py: index {index} outside the {count} elements")
    struct.pack_into("<f", data, start + 4 * index, float("nan"))
open(path, "wb").write(data)
