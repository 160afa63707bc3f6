"""set_length.py IN.npz L OUT.npz: a copy of a seqpar-import --decode
reference whose length argument (the 0-d int64 array among arg0..) holds L
instead. The standard library only (zipfile), as check-import's run path."""
import sys
import zipfile

src, length, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3]
found = 0
with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
    for name in zin.namelist():
        data = zin.read(name)
        header_end = data.index(b"\n") + 1
        header = data[:header_end].decode("latin1")
        if name.startswith("arg") and "'<i8'" in header and "'shape': ()" in header:
            data = data[:header_end] + length.to_bytes(8, "little", signed=True)
            found += 1
        zout.writestr(name, data)
if found != 1:
    sys.exit("set_length.py: %d 0-d int64 arguments in %s (expected 1)"
             % (found, src))
