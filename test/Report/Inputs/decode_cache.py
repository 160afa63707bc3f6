"""Writes a decode step with the KV caches of seed 003's example (shapes
only): 40 layers, 32 K/V heads of d = 128, L_max = 32768 slots, fp16, b = 1,
T = 1. Its caches hold 2 x 40 x 32 x 128 x 32768 x 2 bytes = 21.5 GB on one
device (docs/decode.md)."""
import sys

layers, heads, d, slots = 40, 32, 128, 32768
q = f"tensor<1x{heads}x1x{d}xf16>"
cache = f"tensor<1x{heads}x{slots}x{d}xf16>"
args = [f"%q: {q}", f"%kn: {q}", f"%vn: {q}", "%len: tensor<i64>"]
args += [f"%{kv}{i}: {cache}" for i in range(layers) for kv in "kv"]
out = [f"func.func @decode({', '.join(args)})",
       f"    -> ({', '.join([q] + [cache] * (2 * layers))}) {{",
       "  %l64 = tensor.extract %len[] : tensor<i64>",
       "  %l = arith.index_cast %l64 : i64 to index"]
x = "%q"
returned = []
for i in range(layers):
    for kv in "kv":
        out.append(f"  %{kv}u{i} = tensor.insert_slice %{kv}n into %{kv}{i}"
                   f"[0, 0, %l, 0] [1, {heads}, 1, {d}] [1, 1, 1, 1] : {q} "
                   f"into {cache}")
        returned.append(f"%{kv}u{i}")
    out.append(f"  %o{i} = seqpar.attention {x}, %ku{i}, %vu{i} "
               f"{{scale = 0.088 : f32}} : {q}, {cache}, {cache} -> {q}")
    x = f"%o{i}"
out.append(f"  return {', '.join([x] + returned)} : "
           f"{', '.join([q] + [cache] * (2 * layers))}")
out.append("}")
sys.stdout.write("\n".join(out) + "\n")
