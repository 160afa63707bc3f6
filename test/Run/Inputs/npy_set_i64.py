"""Sets element argv[2] (flat, C order) of the little-endian int64 .npy
argv[1] (format 1-3) to argv[3], in place, without numpy: a token id or
label out of range among generated ones."""
import ast
import struct
import sys

path, index, value = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
data = bytearray(open(path, "rb").read())
assert data[:6] == b"\x93NUMPY", path
size_bytes = 2 if data[6] == 1 else 4
length = int.from_bytes(data[8:8 + size_bytes], "little")
start = 8 + size_bytes
header = ast.literal_eval(data[start:start + length].decode("latin1"))
assert header["descr"] == "<i8" and not header["fortran_order"], header
struct.pack_into("<q", data, start + length + 8 * index, value)
open(path, "wb").write(data)
