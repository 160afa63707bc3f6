"""Prints '<file>: <dtype> <shape> min <m> max <M>' for a little-endian C-order
.npy (format 1-3) of f32, i32 or i64, without numpy."""
import ast
import struct
import sys

CODES = {"<f4": "f", "<i4": "i", "<i8": "q"}

for path in sys.argv[1:]:
    data = open(path, "rb").read()
    assert data[:6] == b"\x93NUMPY", path
    size_bytes = 2 if data[6] == 1 else 4
    length = int.from_bytes(data[8:8 + size_bytes], "little")
    start = 8 + size_bytes
    header = ast.literal_eval(data[start:start + length].decode("latin1"))
    code = CODES[header["descr"]]
    values = [v for (v,) in struct.iter_unpack("<" + code, data[start + length:])]
    print("%s: %s %s min %s max %s" % (path.rsplit("/", 1)[-1], header["descr"],
                                       list(header["shape"]), min(values), max(values)))
