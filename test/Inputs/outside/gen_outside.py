#!/usr/bin/env python3
"""Generate (and numerically check) unsharded single-device transformer programs
written the way other frontends emit them, as inputs for seqpar's TP planner.

These programs were written independently of seqpar's sources: they use upstream
MLIR 22 dialects only (func, linalg, tensor, arith, math, tosa), no shard ops and
no sharding attributes.  Each has one public `func.func @forward` whose first
argument is the activation x and whose remaining arguments are f32 weights.

Usage:
  gen_outside.py            # (re)write the .mlir files next to this script
  gen_outside.py --check    # also parse each with mlir-opt, lower + run it with
                            # mlir-runner on deterministic inputs and compare to
                            # a numpy float64 reference (err <= 1e-4)
  gen_outside.py --check --only llama_gqa
Environment: MLIR_BIN (default /usr/lib/llvm-22/bin).  numpy is needed for --check only.
"""
import argparse
import math
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MLIR_BIN = os.environ.get("MLIR_BIN", "/usr/lib/llvm-22/bin")
TOL = 1e-4

B, S, H, A, HD = 2, 8, 32, 4, 8   # batch, sequence, hidden, heads, head dim
NEG_INF = "0xFF800000"


def T(shape, et="f32"):
    return "tensor<" + "x".join(str(d) for d in shape) + "x" + et + ">"


def fl(v):
    if isinstance(v, str):
        return v
    return "%.9e" % v


class Fn:
    """Tiny text builder for one func.func."""

    def __init__(self, name):
        self.name = name
        self.args = []          # (name, shape, init-kind)
        self.lines = []
        self.n = 0
        self.consts = {}
        self.result = None

    # ---- basics -------------------------------------------------------------
    def arg(self, name, shape, kind):
        self.args.append((name, tuple(shape), kind))
        return "%" + name

    def fresh(self, hint):
        self.n += 1
        return "%%%s%d" % (hint, self.n)

    def emit(self, s):
        self.lines.append("    " + s)

    def cf(self, v):
        """f32 scalar constant at function top level (memoized)."""
        key = fl(v)
        if key not in self.consts:
            r = self.fresh("cst")
            self.emit("%s = arith.constant %s : f32" % (r, key))
            self.consts[key] = r
        return self.consts[key]

    def ci(self, v):
        key = ("idx", v)
        if key not in self.consts:
            r = self.fresh("c")
            self.emit("%s = arith.constant %d : index" % (r, v))
            self.consts[key] = r
        return self.consts[key]

    def empty(self, shape):
        r = self.fresh("empty")
        self.emit("%s = tensor.empty() : %s" % (r, T(shape)))
        return r

    def fill(self, v, shape):
        e = self.empty(shape)
        c = self.cf(v)
        r = self.fresh("fill")
        self.emit("%s = linalg.fill ins(%s : f32) outs(%s : %s) -> %s" % (r, c, e, T(shape), T(shape)))
        return r

    # ---- linalg.generic -----------------------------------------------------
    def generic(self, hint, ins, outs, maps, iters, body):
        """ins/outs: lists of (value, shape).  maps: affine map bodies, e.g.
        "(d0, d1) -> (d1)".  body(bb, in_args, out_args) returns yielded values.
        Returns result value(s)."""
        bb = Body(self)
        in_args = [self.fresh("in") for _ in ins]
        out_args = [self.fresh("out") for _ in outs]
        ys = body(bb, in_args, out_args)
        if isinstance(ys, str):
            ys = [ys]
        r = self.fresh(hint)
        res = r if len(outs) == 1 else "%s:%d" % (r, len(outs))
        maps_s = ", ".join("affine_map<%s>" % m for m in maps)
        it_s = ", ".join('"%s"' % i for i in iters)
        ins_s = ""
        if ins:
            ins_s = "ins(%s : %s) " % (", ".join(v for v, _ in ins), ", ".join(T(s) for _, s in ins))
        outs_s = "outs(%s : %s)" % (", ".join(v for v, _ in outs), ", ".join(T(s) for _, s in outs))
        rty = T(outs[0][1]) if len(outs) == 1 else "(" + ", ".join(T(s) for _, s in outs) + ")"
        self.emit("%s = linalg.generic {indexing_maps = [%s], iterator_types = [%s]} %s%s {"
                  % (res, maps_s, it_s, ins_s, outs_s))
        self.emit("^bb0(%s):" % ", ".join("%s: f32" % a for a in in_args + out_args))
        for l in bb.lines:
            self.emit("  " + l)
        self.emit("  linalg.yield %s : %s" % (", ".join(ys), ", ".join("f32" for _ in ys)))
        self.emit("} -> %s" % rty)
        if len(outs) == 1:
            return r
        return ["%s#%d" % (r, i) for i in range(len(outs))]

    # ---- tensor reshapes / named linalg ops ----------------------------------
    def collapse(self, v, src, reassoc, dst):
        r = self.fresh("collapsed")
        self.emit("%s = tensor.collapse_shape %s %s : %s into %s" % (r, v, reassoc, T(src), T(dst)))
        return r

    def expand(self, v, src, reassoc, dst):
        r = self.fresh("expanded")
        self.emit("%s = tensor.expand_shape %s %s output_shape [%s] : %s into %s"
                  % (r, v, reassoc, ", ".join(map(str, dst)), T(src), T(dst)))
        return r

    def transpose(self, v, src, perm):
        dst = [src[p] for p in perm]
        e = self.empty(dst)
        r = self.fresh("transposed")
        self.emit("%s = linalg.transpose ins(%s : %s) outs(%s : %s) permutation = [%s]"
                  % (r, v, T(src), e, T(dst), ", ".join(map(str, perm))))
        return r, dst

    def broadcast(self, v, src, dst, dims):
        e = self.empty(dst)
        r = self.fresh("bcast")
        self.emit("%s = linalg.broadcast ins(%s : %s) outs(%s : %s) dimensions = [%s]"
                  % (r, v, T(src), e, T(dst), ", ".join(map(str, dims))))
        return r

    def named_ew(self, op, operands, shape):
        """Named elementwise linalg op (linalg.add, linalg.exp, ...)."""
        e = self.empty(shape)
        r = self.fresh(op.split(".")[-1])
        self.emit("%s = %s ins(%s : %s) outs(%s : %s) -> %s"
                  % (r, op, ", ".join(operands), ", ".join(T(shape) for _ in operands), e, T(shape), T(shape)))
        return r

    def reduce(self, v, src, dims, combiner, init):
        dst = [d for i, d in enumerate(src) if i not in dims]
        z = self.fill(init, dst)
        a, b, r = self.fresh("in"), self.fresh("acc"), self.fresh("red")
        y = self.fresh("y")
        self.emit("%s = linalg.reduce ins(%s : %s) outs(%s : %s) dimensions = [%s]"
                  % (r, v, T(src), z, T(dst), ", ".join(map(str, dims))))
        self.emit("  (%s: f32, %s: f32) {" % (a, b))
        self.emit("    %s = %s %s, %s : f32" % (y, combiner, a, b))
        self.emit("    linalg.yield %s : f32" % y)
        self.emit("  }")
        return r

    def text(self):
        sig = ",\n      ".join("%%%s: %s" % (n, T(s)) for n, s, _ in self.args)
        out = ["  func.func @%s(%s) -> %s {" % (self.name, sig, T(self.result[1]))]
        out += self.lines
        out.append("    return %s : %s" % (self.result[0], T(self.result[1])))
        out.append("  }")
        return "\n".join(out) + "\n"


class Body:
    """Builder for the body of a linalg.generic (scalar ops)."""

    def __init__(self, fn):
        self.fn = fn
        self.lines = []

    def op(self, text_fmt, *operands, ty="f32", hint="t"):
        r = self.fn.fresh(hint)
        self.lines.append("%s = %s" % (r, text_fmt.format(*operands)) + (" : " + ty if ty else ""))
        return r

    def bin(self, opname, a, b):
        return self.op(opname + " {}, {}", a, b)

    def un(self, opname, a):
        return self.op(opname + " {}", a)

    def index(self, d):
        return self.op("linalg.index %d" % d, ty="index", hint="idx")

    def c(self, v):
        return self.fn.cf(v)


# =============================================================================
# 1. gpt_bsh: GPT-2, [b, s, h], separate Q/K/V, PyTorch [out, in] weights,
#    flatten around linears, everything else as linalg.generic.
# =============================================================================
def layernorm_generic(f, x, g, b, shape, eps):
    bs = list(shape[:-1])
    n = shape[-1]
    m3 = "(d0, d1, d2) -> (d0, d1, d2)"
    m2 = "(d0, d1, d2) -> (d0, d1)"
    mh = "(d0, d1, d2) -> (d2)"
    s = f.generic("sum", [(x, shape)], [(f.fill(0.0, bs), bs)], [m3, m2],
                  ["parallel", "parallel", "reduction"],
                  lambda bb, i, o: bb.bin("arith.addf", i[0], o[0]))
    mean = f.generic("mean", [(s, bs)], [(f.empty(bs), bs)],
                     ["(d0, d1) -> (d0, d1)"] * 2, ["parallel", "parallel"],
                     lambda bb, i, o: bb.bin("arith.divf", i[0], bb.c(float(n))))

    def var_body(bb, i, o):
        d = bb.bin("arith.subf", i[0], i[1])
        return bb.bin("arith.addf", bb.bin("arith.mulf", d, d), o[0])
    var = f.generic("varsum", [(x, shape), (mean, bs)], [(f.fill(0.0, bs), bs)], [m3, m2, m2],
                    ["parallel", "parallel", "reduction"], var_body)

    def norm_body(bb, i, o):
        d = bb.bin("arith.subf", i[0], i[1])
        v = bb.bin("arith.addf", bb.bin("arith.divf", i[2], bb.c(float(n))), bb.c(eps))
        r = bb.un("math.rsqrt", v)
        return bb.bin("arith.addf", bb.bin("arith.mulf", bb.bin("arith.mulf", d, r), i[3]), i[4])
    return f.generic("ln", [(x, shape), (mean, bs), (var, bs), (g, [n]), (b, [n])],
                     [(f.empty(shape), shape)], [m3, m2, m2, mh, mh, m3],
                     ["parallel"] * 3, norm_body)


def bias_add_2d(f, y, bias, shape):
    return f.generic("biased", [(y, shape), (bias, [shape[1]])], [(f.empty(shape), shape)],
                     ["(d0, d1) -> (d0, d1)", "(d0, d1) -> (d1)", "(d0, d1) -> (d0, d1)"],
                     ["parallel", "parallel"], lambda bb, i, o: bb.bin("arith.addf", i[0], i[1]))


def linear_flat(f, x, din, dout, w, bias, style):
    """y = x @ w^T + b with w [dout, din], x [B, S, din] flattened to [B*S, din]."""
    xf = f.collapse(x, [B, S, din], "[[0, 1], [2]]", [B * S, din])
    z = f.fill(0.0, [B * S, dout])
    mm = f.fresh("mm")
    if style == "transpose":
        wt, _ = f.transpose(w, [dout, din], [1, 0])
        f.emit("%s = linalg.matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
               % (mm, xf, wt, T([B * S, din]), T([din, dout]), z, T([B * S, dout]), T([B * S, dout])))
    else:  # matmul with transposed-B indexing maps
        f.emit("%s = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, "
               "affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] "
               "ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
               % (mm, xf, w, T([B * S, din]), T([dout, din]), z, T([B * S, dout]), T([B * S, dout])))
    yb = bias_add_2d(f, mm, bias, [B * S, dout])
    return f.expand(yb, [B * S, dout], "[[0, 1], [2]]", [B, S, dout])


def add3(f, a, b, shape):
    m = "(d0, d1, d2) -> (d0, d1, d2)"
    return f.generic("resid", [(a, shape), (b, shape)], [(f.empty(shape), shape)], [m] * 3,
                     ["parallel"] * 3, lambda bb, i, o: bb.bin("arith.addf", i[0], i[1]))


def split_heads_bsh(f, v):
    e = f.expand(v, [B, S, H], "[[0], [1], [2, 3]]", [B, S, A, HD])
    t, _ = f.transpose(e, [B, S, A, HD], [0, 2, 1, 3])
    return t


def merge_heads_bsh(f, v):
    t, _ = f.transpose(v, [B, A, S, HD], [0, 2, 1, 3])
    return f.collapse(t, [B, S, A, HD], "[[0], [1], [2, 3]]", [B, S, H])


def softmax_generic(f, s, shape):
    """max / exp / sum / div as linalg.generic over the last dim of a rank-n tensor."""
    n = len(shape)
    d = ["d%d" % i for i in range(n)]
    full = "(%s) -> (%s)" % (", ".join(d), ", ".join(d))
    red = "(%s) -> (%s)" % (", ".join(d), ", ".join(d[:-1]))
    it_r = ["parallel"] * (n - 1) + ["reduction"]
    rs = list(shape[:-1])
    mx = f.generic("rowmax", [(s, shape)], [(f.fill(NEG_INF, rs), rs)], [full, red], it_r,
                   lambda bb, i, o: bb.bin("arith.maximumf", i[0], o[0]))
    ex = f.generic("exp", [(s, shape), (mx, rs)], [(f.empty(shape), shape)], [full, red, full],
                   ["parallel"] * n,
                   lambda bb, i, o: bb.un("math.exp", bb.bin("arith.subf", i[0], i[1])))
    sm = f.generic("rowsum", [(ex, shape)], [(f.fill(0.0, rs), rs)], [full, red], it_r,
                   lambda bb, i, o: bb.bin("arith.addf", i[0], o[0]))
    return f.generic("probs", [(ex, shape), (sm, rs)], [(f.empty(shape), shape)], [full, red, full],
                     ["parallel"] * n, lambda bb, i, o: bb.bin("arith.divf", i[0], i[1]))


def gpt_bsh():
    L, FF = 2, 4 * H
    f = Fn("forward")
    x = f.arg("x", [B, S, H], "x")
    P = []
    for l in range(L):
        p = {}
        for nm, shp, kind in [("ln1_g", [H], "gain"), ("ln1_b", [H], "bias"),
                              ("wq", [H, H], "w_oi"), ("bq", [H], "bias"),
                              ("wk", [H, H], "w_oi"), ("bk", [H], "bias"),
                              ("wv", [H, H], "w_oi"), ("bv", [H], "bias"),
                              ("wo", [H, H], "w_oi"), ("bo", [H], "bias"),
                              ("ln2_g", [H], "gain"), ("ln2_b", [H], "bias"),
                              ("w_fc", [FF, H], "w_oi"), ("b_fc", [FF], "bias"),
                              ("w_proj", [H, FF], "w_oi"), ("b_proj", [H], "bias")]:
            p[nm] = f.arg("l%d_%s" % (l, nm), shp, kind)
        P.append(p)
    lnf_g = f.arg("lnf_g", [H], "gain")
    lnf_b = f.arg("lnf_b", [H], "bias")
    scale = 1.0 / math.sqrt(HD)
    h = x
    for l in range(L):
        p = P[l]
        hn = layernorm_generic(f, h, p["ln1_g"], p["ln1_b"], [B, S, H], 1e-5)
        q = linear_flat(f, hn, H, H, p["wq"], p["bq"], "transpose")
        k = linear_flat(f, hn, H, H, p["wk"], p["bk"], "transpose")
        v = linear_flat(f, hn, H, H, p["wv"], p["bv"], "transpose")
        qh, kh, vh = split_heads_bsh(f, q), split_heads_bsh(f, k), split_heads_bsh(f, v)
        sh = [B, A, S, S]
        sc = f.generic("scores", [(qh, [B, A, S, HD]), (kh, [B, A, S, HD])], [(f.fill(0.0, sh), sh)],
                       ["(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)", "(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)",
                        "(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)"],
                       ["parallel"] * 4 + ["reduction"],
                       lambda bb, i, o: bb.bin("arith.addf", bb.bin("arith.mulf", i[0], i[1]), o[0]))

        def mask_body(bb, i, o):
            qi, kj = bb.index(2), bb.index(3)
            fut = bb.op("arith.cmpi ugt, {}, {}", kj, qi, ty="index", hint="future")
            # arith.cmpi's type is the operand type; the result is i1
            s = bb.bin("arith.mulf", i[0], bb.c(scale))
            return bb.op("arith.select {}, {}, {}", fut, bb.c(-1e9), s)
        m4 = "(d0, d1, d2, d3) -> (d0, d1, d2, d3)"
        msk = f.generic("masked", [(sc, sh)], [(f.empty(sh), sh)], [m4, m4], ["parallel"] * 4, mask_body)
        pr = softmax_generic(f, msk, sh)
        ctx = f.generic("ctx", [(pr, sh), (vh, [B, A, S, HD])], [(f.fill(0.0, [B, A, S, HD]), [B, A, S, HD])],
                        ["(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)", "(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)",
                         "(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)"],
                        ["parallel"] * 4 + ["reduction"],
                        lambda bb, i, o: bb.bin("arith.addf", bb.bin("arith.mulf", i[0], i[1]), o[0]))
        o = linear_flat(f, merge_heads_bsh(f, ctx), H, H, p["wo"], p["bo"], "transpose")
        h = add3(f, h, o, [B, S, H])
        hn2 = layernorm_generic(f, h, p["ln2_g"], p["ln2_b"], [B, S, H], 1e-5)
        fc = linear_flat(f, hn2, H, FF, p["w_fc"], p["b_fc"], "tmaps")

        def gelu_tanh(bb, i, o):
            xx = i[0]
            x3 = bb.bin("arith.mulf", bb.bin("arith.mulf", xx, xx), xx)
            inner = bb.bin("arith.addf", xx, bb.bin("arith.mulf", bb.c(0.044715), x3))
            t = bb.un("math.tanh", bb.bin("arith.mulf", bb.c(math.sqrt(2.0 / math.pi)), inner))
            return bb.bin("arith.mulf", bb.bin("arith.mulf", bb.c(0.5), xx), bb.bin("arith.addf", bb.c(1.0), t))
        m3 = "(d0, d1, d2) -> (d0, d1, d2)"
        g = f.generic("gelu", [(fc, [B, S, FF])], [(f.empty([B, S, FF]), [B, S, FF])], [m3, m3],
                      ["parallel"] * 3, gelu_tanh)
        pj = linear_flat(f, g, FF, H, p["w_proj"], p["b_proj"], "tmaps")
        h = add3(f, h, pj, [B, S, H])
    out = layernorm_generic(f, h, lnf_g, lnf_b, [B, S, H], 1e-5)
    f.result = (out, [B, S, H])
    return f


def np_layernorm(x, g, b, eps):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * g + b


def np_softmax(s):
    s = s - s.max(-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(-1, keepdims=True)


def np_gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def np_heads(t, nh):   # [b, s, nh*hd] -> [b, nh, s, hd]
    b, s, _ = t.shape
    return t.reshape(b, s, nh, HD).transpose(0, 2, 1, 3)


def np_merge(t):       # [b, a, s, hd] -> [b, s, a*hd]
    b, a, s, hd = t.shape
    return t.transpose(0, 2, 1, 3).reshape(b, s, a * hd)


def ref_gpt_bsh(P):
    h = P["x"]
    causal = np.triu(np.ones((S, S), bool), 1)
    for l in range(2):
        g = lambda n: P["l%d_%s" % (l, n)]
        hn = np_layernorm(h, g("ln1_g"), g("ln1_b"), 1e-5)
        q = hn @ g("wq").T + g("bq")
        k = hn @ g("wk").T + g("bk")
        v = hn @ g("wv").T + g("bv")
        qh, kh, vh = np_heads(q, A), np_heads(k, A), np_heads(v, A)
        sc = qh @ kh.transpose(0, 1, 3, 2) / math.sqrt(HD)
        sc = np.where(causal, -1e9, sc)
        ctx = np_softmax(sc) @ vh
        h = h + np_merge(ctx) @ g("wo").T + g("bo")
        hn = np_layernorm(h, g("ln2_g"), g("ln2_b"), 1e-5)
        h = h + np_gelu_tanh(hn @ g("w_fc").T + g("b_fc")) @ g("w_proj").T + g("b_proj")
    return np_layernorm(h, P["lnf_g"], P["lnf_b"], 1e-5)


# =============================================================================
# 2. gpt_fused_qkv: GPT-2 with HF Conv1D [in, out] weights, fused c_attn [h, 3h]
#    split by extract_slice, named linalg ops, linalg.softmax, constant mask.
# =============================================================================
def layernorm_named(f, x, g, b, shape, eps):
    bs = list(shape[:-1])
    n = shape[-1]
    s = f.reduce(x, shape, [2], "arith.addf", 0.0)
    mean = f.named_ew("linalg.mul", [s, f.fill(1.0 / n, bs)], bs)
    mb = f.broadcast(mean, bs, shape, [2])
    xc = f.named_ew("linalg.sub", [x, mb], shape)
    sq = f.named_ew("linalg.mul", [xc, xc], shape)
    vs = f.reduce(sq, shape, [2], "arith.addf", 0.0)
    var = f.named_ew("linalg.mul", [vs, f.fill(1.0 / n, bs)], bs)
    ve = f.named_ew("linalg.add", [var, f.fill(eps, bs)], bs)
    r = f.named_ew("linalg.rsqrt", [ve], bs)
    rb = f.broadcast(r, bs, shape, [2])
    y = f.named_ew("linalg.mul", [xc, rb], shape)
    gb = f.broadcast(g, [n], shape, [0, 1])
    bb = f.broadcast(b, [n], shape, [0, 1])
    return f.named_ew("linalg.add", [f.named_ew("linalg.mul", [y, gb], shape), bb], shape)


def conv1d(f, x, din, dout, w, bias):
    """HF Conv1D: y = x @ w + b, w [din, dout]."""
    xf = f.collapse(x, [B, S, din], "[[0, 1], [2]]", [B * S, din])
    z = f.fill(0.0, [B * S, dout])
    mm = f.fresh("mm")
    f.emit("%s = linalg.matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
           % (mm, xf, w, T([B * S, din]), T([din, dout]), z, T([B * S, dout]), T([B * S, dout])))
    bb = f.broadcast(bias, [dout], [B * S, dout], [0])
    y = f.named_ew("linalg.add", [mm, bb], [B * S, dout])
    return f.expand(y, [B * S, dout], "[[0, 1], [2]]", [B, S, dout])


def gpt_fused_qkv():
    L, FF = 2, 4 * H
    f = Fn("forward")
    x = f.arg("x", [B, S, H], "x")
    P = []
    for l in range(L):
        p = {}
        for nm, shp, kind in [("ln_1_g", [H], "gain"), ("ln_1_b", [H], "bias"),
                              ("c_attn_w", [H, 3 * H], "w_io"), ("c_attn_b", [3 * H], "bias"),
                              ("attn_c_proj_w", [H, H], "w_io"), ("attn_c_proj_b", [H], "bias"),
                              ("ln_2_g", [H], "gain"), ("ln_2_b", [H], "bias"),
                              ("c_fc_w", [H, FF], "w_io"), ("c_fc_b", [FF], "bias"),
                              ("mlp_c_proj_w", [FF, H], "w_io"), ("mlp_c_proj_b", [H], "bias")]:
            p[nm] = f.arg("h%d_%s" % (l, nm), shp, kind)
        P.append(p)
    lnf_g = f.arg("ln_f_g", [H], "gain")
    lnf_b = f.arg("ln_f_b", [H], "bias")
    BA = B * A
    # additive causal mask, as a frontend constant-folds it
    rows = []
    for i in range(S):
        rows.append("[" + ", ".join("0.000000e+00" if j <= i else "-1.000000e+09" for j in range(S)) + "]")
    mask = f.fresh("causal_mask")
    f.emit("%s = arith.constant dense<[%s]> : %s" % (mask, ", ".join(rows), T([S, S])))
    h = x
    for l in range(L):
        p = P[l]
        hn = layernorm_named(f, h, p["ln_1_g"], p["ln_1_b"], [B, S, H], 1e-5)
        qkv = conv1d(f, hn, H, 3 * H, p["c_attn_w"], p["c_attn_b"])
        heads = []
        for i, nm in enumerate("qkv"):
            sl = f.fresh(nm)
            f.emit("%s = tensor.extract_slice %s[0, 0, %d] [%d, %d, %d] [1, 1, 1] : %s to %s"
                   % (sl, qkv, i * H, B, S, H, T([B, S, 3 * H]), T([B, S, H])))
            hh = split_heads_bsh(f, sl)
            heads.append(f.collapse(hh, [B, A, S, HD], "[[0, 1], [2], [3]]", [BA, S, HD]))
        q, k, v = heads
        kt, _ = f.transpose(k, [BA, S, HD], [0, 2, 1])
        z = f.fill(0.0, [BA, S, S])
        sc = f.fresh("scores")
        f.emit("%s = linalg.batch_matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
               % (sc, q, kt, T([BA, S, HD]), T([BA, HD, S]), z, T([BA, S, S]), T([BA, S, S])))
        scl = f.named_ew("linalg.mul", [sc, f.fill(1.0 / math.sqrt(HD), [BA, S, S])], [BA, S, S])
        mb = f.broadcast(mask, [S, S], [BA, S, S], [0])
        msk = f.named_ew("linalg.add", [scl, mb], [BA, S, S])
        pr = f.fresh("probs")
        f.emit("%s = linalg.softmax dimension(2) ins(%s : %s) outs(%s : %s) -> %s"
               % (pr, msk, T([BA, S, S]), f.empty([BA, S, S]), T([BA, S, S]), T([BA, S, S])))
        z2 = f.fill(0.0, [BA, S, HD])
        ctx = f.fresh("ctx")
        f.emit("%s = linalg.batch_matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
               % (ctx, pr, v, T([BA, S, S]), T([BA, S, HD]), z2, T([BA, S, HD]), T([BA, S, HD])))
        c4 = f.expand(ctx, [BA, S, HD], "[[0, 1], [2], [3]]", [B, A, S, HD])
        o = conv1d(f, merge_heads_bsh(f, c4), H, H, p["attn_c_proj_w"], p["attn_c_proj_b"])
        h = f.named_ew("linalg.add", [h, o], [B, S, H])
        hn2 = layernorm_named(f, h, p["ln_2_g"], p["ln_2_b"], [B, S, H], 1e-5)
        fc = conv1d(f, hn2, H, FF, p["c_fc_w"], p["c_fc_b"])
        sh = [B, S, FF]
        x3 = f.named_ew("linalg.mul", [f.named_ew("linalg.mul", [fc, fc], sh), fc], sh)
        inner = f.named_ew("linalg.add", [fc, f.named_ew("linalg.mul", [f.fill(0.044715, sh), x3], sh)], sh)
        t = f.named_ew("linalg.tanh", [f.named_ew("linalg.mul", [f.fill(math.sqrt(2 / math.pi), sh), inner], sh)], sh)
        half = f.named_ew("linalg.mul", [f.fill(0.5, sh), fc], sh)
        g = f.named_ew("linalg.mul", [half, f.named_ew("linalg.add", [f.fill(1.0, sh), t], sh)], sh)
        pj = conv1d(f, g, FF, H, p["mlp_c_proj_w"], p["mlp_c_proj_b"])
        h = f.named_ew("linalg.add", [h, pj], [B, S, H])
    out = layernorm_named(f, h, lnf_g, lnf_b, [B, S, H], 1e-5)
    f.result = (out, [B, S, H])
    return f


def ref_gpt_fused_qkv(P):
    h = P["x"]
    causal = np.triu(np.ones((S, S), bool), 1)
    for l in range(2):
        g = lambda n: P["h%d_%s" % (l, n)]
        hn = np_layernorm(h, g("ln_1_g"), g("ln_1_b"), 1e-5)
        qkv = hn @ g("c_attn_w") + g("c_attn_b")
        q, k, v = qkv[..., :H], qkv[..., H:2 * H], qkv[..., 2 * H:]
        qh, kh, vh = np_heads(q, A), np_heads(k, A), np_heads(v, A)
        sc = qh @ kh.transpose(0, 1, 3, 2) / math.sqrt(HD) + np.where(causal, -1e9, 0.0)
        h = h + np_merge(np_softmax(sc) @ vh) @ g("attn_c_proj_w") + g("attn_c_proj_b")
        hn = np_layernorm(h, g("ln_2_g"), g("ln_2_b"), 1e-5)
        h = h + np_gelu_tanh(hn @ g("c_fc_w") + g("c_fc_b")) @ g("mlp_c_proj_w") + g("mlp_c_proj_b")
    return np_layernorm(h, P["ln_f_g"], P["ln_f_b"], 1e-5)


# =============================================================================
# 3. llama_gqa: Llama, GQA (4 heads / 2 KV heads), RMSNorm, RoPE from positions
#    (linalg.index), rotate_half via extract_slice + concat, SwiGLU, no biases.
#    Linears are linalg.generic contractions on the rank-3 activation (no flatten).
# =============================================================================
KV = 2
THETA = 10000.0


def linear_generic3(f, x, din, dout, w):
    sh = [B, S, dout]
    return f.generic("proj", [(x, [B, S, din]), (w, [dout, din])], [(f.fill(0.0, sh), sh)],
                     ["(d0, d1, d2, d3) -> (d0, d1, d3)", "(d0, d1, d2, d3) -> (d2, d3)",
                      "(d0, d1, d2, d3) -> (d0, d1, d2)"],
                     ["parallel", "parallel", "parallel", "reduction"],
                     lambda bb, i, o: bb.bin("arith.addf", bb.bin("arith.mulf", i[0], i[1]), o[0]))


def rmsnorm_generic(f, x, w, shape, eps):
    n = shape[-1]
    bs = list(shape[:-1])
    m3 = "(d0, d1, d2) -> (d0, d1, d2)"
    m2 = "(d0, d1, d2) -> (d0, d1)"
    ss = f.generic("sumsq", [(x, shape)], [(f.fill(0.0, bs), bs)], [m3, m2],
                   ["parallel", "parallel", "reduction"],
                   lambda bb, i, o: bb.bin("arith.addf", bb.bin("arith.mulf", i[0], i[0]), o[0]))

    def body(bb, i, o):
        ms = bb.bin("arith.divf", i[1], bb.c(float(n)))
        r = bb.un("math.rsqrt", bb.bin("arith.addf", ms, bb.c(eps)))
        return bb.bin("arith.mulf", bb.bin("arith.mulf", i[0], r), i[2])
    return f.generic("rmsnorm", [(x, shape), (ss, bs), (w, [n])], [(f.empty(shape), shape)],
                     [m3, m2, "(d0, d1, d2) -> (d2)", m3], ["parallel"] * 3, body)


def rope_tables(f):
    """cos/sin [S, HD] from positions (linalg.index 0) and inv_freq = theta^(-2i/HD)."""
    def body(bb, i, o):
        pos = bb.index(0)
        j = bb.index(1)
        fi = bb.op("arith.remui {}, {}", j, bb.fn.ci(HD // 2), ty="index", hint="fi")
        pos_i = bb.op("arith.index_cast {}", pos, ty="index to i64", hint="posi")
        fi_i = bb.op("arith.index_cast {}", fi, ty="index to i64", hint="fii")
        pos_f = bb.op("arith.sitofp {}", pos_i, ty="i64 to f32", hint="posf")
        fi_f = bb.op("arith.sitofp {}", fi_i, ty="i64 to f32", hint="fif")
        inv = bb.un("math.exp", bb.bin("arith.mulf", fi_f, bb.c(-2.0 * math.log(THETA) / HD)))
        ang = bb.bin("arith.mulf", pos_f, inv)
        return [bb.un("math.cos", ang), bb.un("math.sin", ang)]
    m = "(d0, d1) -> (d0, d1)"
    return f.generic("rope", [], [(f.empty([S, HD]), [S, HD]), (f.empty([S, HD]), [S, HD])], [m, m],
                     ["parallel", "parallel"], body)


def apply_rope(f, t, nh, cos, sin):
    shp = [B, nh, S, HD]
    half = [B, nh, S, HD // 2]
    x1, x2 = f.fresh("x1_"), f.fresh("x2_")
    f.emit("%s = tensor.extract_slice %s[0, 0, 0, 0] [%d, %d, %d, %d] [1, 1, 1, 1] : %s to %s"
           % (x1, t, B, nh, S, HD // 2, T(shp), T(half)))
    f.emit("%s = tensor.extract_slice %s[0, 0, 0, %d] [%d, %d, %d, %d] [1, 1, 1, 1] : %s to %s"
           % (x2, t, HD // 2, B, nh, S, HD // 2, T(shp), T(half)))
    m4 = "(d0, d1, d2, d3) -> (d0, d1, d2, d3)"
    nx2 = f.generic("neg", [(x2, half)], [(f.empty(half), half)], [m4, m4], ["parallel"] * 4,
                    lambda bb, i, o: bb.un("arith.negf", i[0]))
    rot = f.fresh("rot")
    f.emit("%s = tensor.concat dim(3) %s, %s : (%s, %s) -> %s" % (rot, nx2, x1, T(half), T(half), T(shp)))
    mt = "(d0, d1, d2, d3) -> (d2, d3)"

    def body(bb, i, o):
        return bb.bin("arith.addf", bb.bin("arith.mulf", i[0], i[2]), bb.bin("arith.mulf", i[1], i[3]))
    return f.generic("roped", [(t, shp), (rot, shp), (cos, [S, HD]), (sin, [S, HD])], [(f.empty(shp), shp)],
                     [m4, m4, mt, mt, m4], ["parallel"] * 4, body)


def llama_gqa():
    L, FF = 2, 64
    f = Fn("forward")
    x = f.arg("x", [B, S, H], "x")
    P = []
    for l in range(L):
        p = {}
        for nm, shp, kind in [("input_layernorm", [H], "gain"),
                              ("q_proj", [A * HD, H], "w_oi"), ("k_proj", [KV * HD, H], "w_oi"),
                              ("v_proj", [KV * HD, H], "w_oi"), ("o_proj", [H, A * HD], "w_oi"),
                              ("post_attention_layernorm", [H], "gain"),
                              ("gate_proj", [FF, H], "w_oi"), ("up_proj", [FF, H], "w_oi"),
                              ("down_proj", [H, FF], "w_oi")]:
            p[nm] = f.arg("layers%d_%s" % (l, nm), shp, kind)
        P.append(p)
    norm_w = f.arg("norm", [H], "gain")
    cos, sin = rope_tables(f)
    BA = B * A
    REP = A // KV
    h = x
    for l in range(L):
        p = P[l]
        hn = rmsnorm_generic(f, h, p["input_layernorm"], [B, S, H], 1e-6)
        q = linear_generic3(f, hn, H, A * HD, p["q_proj"])
        k = linear_generic3(f, hn, H, KV * HD, p["k_proj"])
        v = linear_generic3(f, hn, H, KV * HD, p["v_proj"])
        qe = f.expand(q, [B, S, A * HD], "[[0], [1], [2, 3]]", [B, S, A, HD])
        qh, _ = f.transpose(qe, [B, S, A, HD], [0, 2, 1, 3])
        ke = f.expand(k, [B, S, KV * HD], "[[0], [1], [2, 3]]", [B, S, KV, HD])
        kh, _ = f.transpose(ke, [B, S, KV, HD], [0, 2, 1, 3])
        ve = f.expand(v, [B, S, KV * HD], "[[0], [1], [2, 3]]", [B, S, KV, HD])
        vh, _ = f.transpose(ve, [B, S, KV, HD], [0, 2, 1, 3])
        qh = apply_rope(f, qh, A, cos, sin)
        kh = apply_rope(f, kh, KV, cos, sin)

        def repeat_kv(t):  # [B, KV, S, HD] -> [B, KV, REP, S, HD] -> [B, A, S, HD]
            bc = f.broadcast(t, [B, KV, S, HD], [B, KV, REP, S, HD], [2])
            return f.collapse(bc, [B, KV, REP, S, HD], "[[0], [1, 2], [3], [4]]", [B, A, S, HD])
        kr, vr = repeat_kv(kh), repeat_kv(vh)
        q3 = f.collapse(qh, [B, A, S, HD], "[[0, 1], [2], [3]]", [BA, S, HD])
        k3 = f.collapse(kr, [B, A, S, HD], "[[0, 1], [2], [3]]", [BA, S, HD])
        v3 = f.collapse(vr, [B, A, S, HD], "[[0, 1], [2], [3]]", [BA, S, HD])
        z = f.fill(0.0, [BA, S, S])
        sc = f.fresh("scores")
        f.emit("%s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, "
               "affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] "
               "ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
               % (sc, q3, k3, T([BA, S, HD]), T([BA, S, HD]), z, T([BA, S, S]), T([BA, S, S])))

        def mask_body(bb, i, o):
            qi, kj = bb.index(1), bb.index(2)
            ok = bb.op("arith.cmpi ule, {}, {}", kj, qi, ty="index", hint="visible")
            s = bb.bin("arith.mulf", i[0], bb.c(1.0 / math.sqrt(HD)))
            return bb.op("arith.select {}, {}, {}", ok, s, bb.c(NEG_INF))
        m3 = "(d0, d1, d2) -> (d0, d1, d2)"
        msk = f.generic("masked", [(sc, [BA, S, S])], [(f.empty([BA, S, S]), [BA, S, S])], [m3, m3],
                        ["parallel"] * 3, mask_body)
        pr = softmax_generic(f, msk, [BA, S, S])
        z2 = f.fill(0.0, [BA, S, HD])
        ctx = f.fresh("ctx")
        f.emit("%s = linalg.batch_matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
               % (ctx, pr, v3, T([BA, S, S]), T([BA, S, HD]), z2, T([BA, S, HD]), T([BA, S, HD])))
        c4 = f.expand(ctx, [BA, S, HD], "[[0, 1], [2], [3]]", [B, A, S, HD])
        o = linear_generic3(f, merge_heads_bsh(f, c4), A * HD, H, p["o_proj"])
        h = add3(f, h, o, [B, S, H])
        hn2 = rmsnorm_generic(f, h, p["post_attention_layernorm"], [B, S, H], 1e-6)
        gt = linear_generic3(f, hn2, H, FF, p["gate_proj"])
        up = linear_generic3(f, hn2, H, FF, p["up_proj"])

        def swiglu(bb, i, o):
            sig = bb.bin("arith.divf", bb.c(1.0),
                         bb.bin("arith.addf", bb.c(1.0), bb.un("math.exp", bb.un("arith.negf", i[0]))))
            return bb.bin("arith.mulf", bb.bin("arith.mulf", i[0], sig), i[1])
        sh = [B, S, FF]
        act = f.generic("swiglu", [(gt, sh), (up, sh)], [(f.empty(sh), sh)], [m3] * 3, ["parallel"] * 3, swiglu)
        dn = linear_generic3(f, act, FF, H, p["down_proj"])
        h = add3(f, h, dn, [B, S, H])
    out = rmsnorm_generic(f, h, norm_w, [B, S, H], 1e-6)
    f.result = (out, [B, S, H])
    return f


def np_rmsnorm(x, w, eps):
    return x / np.sqrt((x * x).mean(-1, keepdims=True) + eps) * w


def np_rope(t, cos, sin):
    half = t.shape[-1] // 2
    rot = np.concatenate([-t[..., half:], t[..., :half]], -1)
    return t * cos + rot * sin


def np_rope_tables(theta):
    inv = 1.0 / theta ** (np.arange(0, HD, 2) / HD)
    fr = np.outer(np.arange(S), inv)
    emb = np.concatenate([fr, fr], -1)
    return np.cos(emb), np.sin(emb)


def np_silu(x):
    return x / (1 + np.exp(-x))


def np_gqa_attention(q, k, v, causal=True):
    rep = q.shape[1] // k.shape[1]
    k = np.repeat(k, rep, axis=1)   # == HF repeat_kv
    v = np.repeat(v, rep, axis=1)
    sc = q @ k.transpose(0, 1, 3, 2) / math.sqrt(HD)
    if causal:
        sc = np.where(np.triu(np.ones((S, S), bool), 1), -np.inf, sc)
    return np_softmax(sc) @ v


def ref_llama_gqa(P):
    h = P["x"]
    cos, sin = np_rope_tables(THETA)
    for l in range(2):
        g = lambda n: P["layers%d_%s" % (l, n)]
        hn = np_rmsnorm(h, g("input_layernorm"), 1e-6)
        q = np_rope(np_heads(hn @ g("q_proj").T, A), cos, sin)
        k = np_rope(np_heads(hn @ g("k_proj").T, KV), cos, sin)
        v = np_heads(hn @ g("v_proj").T, KV)
        h = h + np_merge(np_gqa_attention(q, k, v)) @ g("o_proj").T
        hn = np_rmsnorm(h, g("post_attention_layernorm"), 1e-6)
        h = h + (np_silu(hn @ g("gate_proj").T) * (hn @ g("up_proj").T)) @ g("down_proj").T
    return np_rmsnorm(h, P["norm"], 1e-6)


# =============================================================================
# 4. bert_post_norm: BERT encoder, post-LayerNorm, biases, GELU(erf), no mask.
#    Linears torch-mlir style: W^T broadcast over batch + linalg.batch_matmul.
# =============================================================================
def linear_bmm(f, x, din, dout, w, bias):
    wt, _ = f.transpose(w, [dout, din], [1, 0])
    wb = f.broadcast(wt, [din, dout], [B, din, dout], [0])
    z = f.fill(0.0, [B, S, dout])
    mm = f.fresh("bmm")
    f.emit("%s = linalg.batch_matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
           % (mm, x, wb, T([B, S, din]), T([B, din, dout]), z, T([B, S, dout]), T([B, S, dout])))
    sh = [B, S, dout]
    m3 = "(d0, d1, d2) -> (d0, d1, d2)"
    return f.generic("biased", [(mm, sh), (bias, [dout])], [(f.empty(sh), sh)],
                     [m3, "(d0, d1, d2) -> (d2)", m3], ["parallel"] * 3,
                     lambda bb, i, o: bb.bin("arith.addf", i[0], i[1]))


def layernorm_onepass(f, x, g, b, shape, eps):
    """sum and sum of squares in one two-result reduction generic; var = E[x^2] - E[x]^2."""
    n = shape[-1]
    bs = list(shape[:-1])
    m3 = "(d0, d1, d2) -> (d0, d1, d2)"
    m2 = "(d0, d1, d2) -> (d0, d1)"

    def stats(bb, i, o):
        return [bb.bin("arith.addf", i[0], o[0]),
                bb.bin("arith.addf", bb.bin("arith.mulf", i[0], i[0]), o[1])]
    s, ss = f.generic("stats", [(x, shape)], [(f.fill(0.0, bs), bs), (f.fill(0.0, bs), bs)],
                      [m3, m2, m2], ["parallel", "parallel", "reduction"], stats)

    def norm(bb, i, o):
        mean = bb.bin("arith.divf", i[1], bb.c(float(n)))
        ex2 = bb.bin("arith.divf", i[2], bb.c(float(n)))
        var = bb.bin("arith.subf", ex2, bb.bin("arith.mulf", mean, mean))
        r = bb.un("math.rsqrt", bb.bin("arith.addf", var, bb.c(eps)))
        y = bb.bin("arith.mulf", bb.bin("arith.subf", i[0], mean), r)
        return bb.bin("arith.addf", bb.bin("arith.mulf", y, i[3]), i[4])
    mh = "(d0, d1, d2) -> (d2)"
    return f.generic("ln", [(x, shape), (s, bs), (ss, bs), (g, [n]), (b, [n])], [(f.empty(shape), shape)],
                     [m3, m2, m2, mh, mh, m3], ["parallel"] * 3, norm)


def bert_post_norm():
    L, FF = 2, 4 * H
    f = Fn("forward")
    x = f.arg("x", [B, S, H], "x")
    P = []
    for l in range(L):
        p = {}
        for nm, shp, kind in [("query_w", [H, H], "w_oi"), ("query_b", [H], "bias"),
                              ("key_w", [H, H], "w_oi"), ("key_b", [H], "bias"),
                              ("value_w", [H, H], "w_oi"), ("value_b", [H], "bias"),
                              ("attn_out_w", [H, H], "w_oi"), ("attn_out_b", [H], "bias"),
                              ("attn_ln_g", [H], "gain"), ("attn_ln_b", [H], "bias"),
                              ("inter_w", [FF, H], "w_oi"), ("inter_b", [FF], "bias"),
                              ("out_w", [H, FF], "w_oi"), ("out_b", [H], "bias"),
                              ("out_ln_g", [H], "gain"), ("out_ln_b", [H], "bias")]:
            p[nm] = f.arg("enc%d_%s" % (l, nm), shp, kind)
        P.append(p)
    BA = B * A
    m3 = "(d0, d1, d2) -> (d0, d1, d2)"
    h = x
    for l in range(L):
        p = P[l]
        q = linear_bmm(f, h, H, H, p["query_w"], p["query_b"])
        k = linear_bmm(f, h, H, H, p["key_w"], p["key_b"])
        v = linear_bmm(f, h, H, H, p["value_w"], p["value_b"])
        q3 = f.collapse(split_heads_bsh(f, q), [B, A, S, HD], "[[0, 1], [2], [3]]", [BA, S, HD])
        ke = f.expand(k, [B, S, H], "[[0], [1], [2, 3]]", [B, S, A, HD])
        kt, _ = f.transpose(ke, [B, S, A, HD], [0, 2, 3, 1])       # [B, A, HD, S]
        kt3 = f.collapse(kt, [B, A, HD, S], "[[0, 1], [2], [3]]", [BA, HD, S])
        v3 = f.collapse(split_heads_bsh(f, v), [B, A, S, HD], "[[0, 1], [2], [3]]", [BA, S, HD])
        z = f.fill(0.0, [BA, S, S])
        sc = f.fresh("scores")
        f.emit("%s = linalg.batch_matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
               % (sc, q3, kt3, T([BA, S, HD]), T([BA, HD, S]), z, T([BA, S, S]), T([BA, S, S])))
        sh = [BA, S, S]
        scl = f.generic("scaled", [(sc, sh)], [(f.empty(sh), sh)], [m3, m3], ["parallel"] * 3,
                        lambda bb, i, o: bb.bin("arith.divf", i[0], bb.c(math.sqrt(HD))))
        mx = f.reduce(scl, sh, [2], "arith.maximumf", NEG_INF)
        ex = f.generic("exp", [(scl, sh), (mx, [BA, S])], [(f.empty(sh), sh)],
                       [m3, "(d0, d1, d2) -> (d0, d1)", m3], ["parallel"] * 3,
                       lambda bb, i, o: bb.un("math.exp", bb.bin("arith.subf", i[0], i[1])))
        sm = f.reduce(ex, sh, [2], "arith.addf", 0.0)
        pr = f.generic("probs", [(ex, sh), (sm, [BA, S])], [(f.empty(sh), sh)],
                       [m3, "(d0, d1, d2) -> (d0, d1)", m3], ["parallel"] * 3,
                       lambda bb, i, o: bb.bin("arith.divf", i[0], i[1]))
        z2 = f.fill(0.0, [BA, S, HD])
        ctx = f.fresh("ctx")
        f.emit("%s = linalg.batch_matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
               % (ctx, pr, v3, T(sh), T([BA, S, HD]), z2, T([BA, S, HD]), T([BA, S, HD])))
        c4 = f.expand(ctx, [BA, S, HD], "[[0, 1], [2], [3]]", [B, A, S, HD])
        ao = linear_bmm(f, merge_heads_bsh(f, c4), H, H, p["attn_out_w"], p["attn_out_b"])
        h = layernorm_onepass(f, add3(f, ao, h, [B, S, H]), p["attn_ln_g"], p["attn_ln_b"], [B, S, H], 1e-12)
        it = linear_bmm(f, h, H, FF, p["inter_w"], p["inter_b"])

        def gelu_erf(bb, i, o):
            e = bb.un("math.erf", bb.bin("arith.mulf", i[0], bb.c(1.0 / math.sqrt(2.0))))
            return bb.bin("arith.mulf", bb.bin("arith.mulf", i[0], bb.c(0.5)), bb.bin("arith.addf", e, bb.c(1.0)))
        fsh = [B, S, FF]
        g = f.generic("gelu", [(it, fsh)], [(f.empty(fsh), fsh)], [m3, m3], ["parallel"] * 3, gelu_erf)
        ot = linear_bmm(f, g, FF, H, p["out_w"], p["out_b"])
        h = layernorm_onepass(f, add3(f, ot, h, [B, S, H]), p["out_ln_g"], p["out_ln_b"], [B, S, H], 1e-12)
    f.result = (h, [B, S, H])
    return f


def ref_bert_post_norm(P):
    from math import erf
    verf = np.vectorize(erf)
    h = P["x"]
    for l in range(2):
        g = lambda n: P["enc%d_%s" % (l, n)]
        q = np_heads(h @ g("query_w").T + g("query_b"), A)
        k = np_heads(h @ g("key_w").T + g("key_b"), A)
        v = np_heads(h @ g("value_w").T + g("value_b"), A)
        ctx = np_softmax(q @ k.transpose(0, 1, 3, 2) / math.sqrt(HD)) @ v
        h = np_layernorm(np_merge(ctx) @ g("attn_out_w").T + g("attn_out_b") + h,
                         g("attn_ln_g"), g("attn_ln_b"), 1e-12)
        it = h @ g("inter_w").T + g("inter_b")
        it = 0.5 * it * (1 + verf(it / math.sqrt(2)))
        h = np_layernorm(it @ g("out_w").T + g("out_b") + h, g("out_ln_g"), g("out_ln_b"), 1e-12)
    return h


# =============================================================================
# 5. qwen2_tosa: one Qwen2 decoder layer, TOSA (+ func), b = 1.
# =============================================================================
QB = 1
QTHETA = 1000000.0


class Tosa:
    def __init__(self, f):
        self.f = f
        self.shapes = {}
        self._zp = None
        self._shift = None
        self.consts = {}

    def zp(self):
        if self._zp is None:
            self._zp = self.f.fresh("zp")
            self.f.emit('%s = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>'
                        % self._zp)
        return self._zp

    def shift(self):
        if self._shift is None:
            self._shift = self.f.fresh("shift")
            self.f.emit('%s = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>' % self._shift)
        return self._shift

    def shape_val(self, dims):
        key = ("shape",) + tuple(dims)
        if key not in self.consts:
            r = self.f.fresh("shape")
            self.f.emit("%s = tosa.const_shape {values = dense<[%s]> : tensor<%dxindex>} : () -> !tosa.shape<%d>"
                        % (r, ", ".join(map(str, dims)), len(dims), len(dims)))
            self.consts[key] = r
        return self.consts[key]

    def const(self, value, shape, hint="c"):
        """Scalar-broadcast constant of a given (all-ones broadcastable) shape or a dense literal."""
        key = (fl(value) if not isinstance(value, str) else value, tuple(shape))
        if key not in self.consts:
            r = self.f.fresh(hint)
            lit = fl(value) if not isinstance(value, str) else value
            self.f.emit('%s = "tosa.const"() <{values = dense<%s> : %s}> : () -> %s' % (r, lit, T(shape), T(shape)))
            self.consts[key] = r
        return self.consts[key]

    def op(self, name, operands, in_shapes, out_shape, attrs="", hint=None, extra_types=None):
        r = self.f.fresh(hint or name.split(".")[-1])
        tys = [T(s) for s in in_shapes] + (extra_types or [])
        self.f.emit("%s = %s %s%s : (%s) -> %s" % (r, name, ", ".join(operands), attrs, ", ".join(tys), T(out_shape)))
        return r

    # elementwise helpers (operands given with shapes)
    def add(self, a, sa, b, sb, out):
        return self.op("tosa.add", [a, b], [sa, sb], out)

    def sub(self, a, sa, b, sb, out):
        return self.op("tosa.sub", [a, b], [sa, sb], out)

    def mul(self, a, sa, b, sb, out):
        return self.op("tosa.mul", [a, b, self.shift()], [sa, sb], out, extra_types=["tensor<1xi8>"])

    def unary(self, name, a, s):
        return self.op("tosa." + name, [a], [s], s)

    def reshape(self, a, sa, out):
        sv = self.shape_val(out)
        return self.op("tosa.reshape", [a, sv], [sa], out, extra_types=["!tosa.shape<%d>" % len(out)])

    def transpose(self, a, sa, perm):
        out = [sa[p] for p in perm]
        return self.op("tosa.transpose", [a], [sa], out,
                       attrs=" {perms = array<i32: %s>}" % ", ".join(map(str, perm))), out

    def matmul(self, a, sa, b, sb):
        out = [sa[0], sa[1], sb[2]]
        z = self.zp()
        return self.op("tosa.matmul", [a, b, z, z], [sa, sb], out,
                       extra_types=["tensor<1xf32>", "tensor<1xf32>"])

    def reduce(self, name, a, sa, axis):
        out = list(sa)
        out[axis] = 1
        return self.op("tosa." + name, [a], [sa], out, attrs=" {axis = %d : i32}" % axis)

    def slice(self, a, sa, start, size):
        st, sz = self.shape_val(start), self.shape_val(size)
        n = len(sa)
        return self.op("tosa.slice", [a, st, sz], [sa], size,
                       extra_types=["!tosa.shape<%d>" % n, "!tosa.shape<%d>" % n])

    def concat(self, a, b, s, axis, out):
        return self.op("tosa.concat", [a, b], [s, s], out, attrs=" {axis = %d : i32}" % axis)

    def negate(self, a, s):
        z = self.zp()
        return self.op("tosa.negate", [a, z, z], [s], s, extra_types=["tensor<1xf32>", "tensor<1xf32>"])

    def tile(self, a, sa, mult):
        out = [d * m for d, m in zip(sa, mult)]
        sv = self.shape_val(mult)
        return self.op("tosa.tile", [a, sv], [sa], out, extra_types=["!tosa.shape<%d>" % len(mult)])


def dense_literal(arr):
    """Nested dense literal of a numpy-free list-of-lists."""
    if isinstance(arr, list):
        return "[" + ", ".join(dense_literal(a) for a in arr) + "]"
    return "%.9e" % arr


def qwen2_tosa():
    FF = 64
    f = Fn("forward")
    tz = Tosa(f)
    X = [QB, S, H]
    x = f.arg("x", X, "x")
    p = {}
    for nm, shp, kind in [("input_layernorm_weight", [H], "gain"),
                          ("q_proj_weight", [A * HD, H], "w_oi"), ("q_proj_bias", [A * HD], "bias"),
                          ("k_proj_weight", [KV * HD, H], "w_oi"), ("k_proj_bias", [KV * HD], "bias"),
                          ("v_proj_weight", [KV * HD, H], "w_oi"), ("v_proj_bias", [KV * HD], "bias"),
                          ("o_proj_weight", [H, A * HD], "w_oi"),
                          ("post_attention_layernorm_weight", [H], "gain"),
                          ("gate_proj_weight", [FF, H], "w_oi"), ("up_proj_weight", [FF, H], "w_oi"),
                          ("down_proj_weight", [H, FF], "w_oi")]:
        p[nm] = f.arg(nm, shp, kind)

    def rmsnorm(v, w):
        sq = tz.mul(v, X, v, X, X)
        ss = tz.reduce("reduce_sum", sq, X, 2)
        ms = tz.mul(ss, [QB, S, 1], tz.const(1.0 / H, [1, 1, 1]), [1, 1, 1], [QB, S, 1])
        r = tz.unary("rsqrt", tz.add(ms, [QB, S, 1], tz.const(1e-6, [1, 1, 1]), [1, 1, 1], [QB, S, 1]), [QB, S, 1])
        y = tz.mul(v, X, r, [QB, S, 1], X)
        w3 = tz.reshape(w, [H], [1, 1, H])
        return tz.mul(y, X, w3, [1, 1, H], X)

    def linear(v, din, dout, w, bias=None):
        wt, _ = tz.transpose(w, [dout, din], [1, 0])
        w3 = tz.reshape(wt, [din, dout], [1, din, dout])
        y = tz.matmul(v, [QB, S, din], w3, [1, din, dout])
        if bias is not None:
            b3 = tz.reshape(bias, [dout], [1, 1, dout])
            y = tz.add(y, [QB, S, dout], b3, [1, 1, dout], [QB, S, dout])
        return y

    # RoPE tables constant-folded by the frontend: [1, 1, S, HD]
    cos_l, sin_l = [], []
    for pos in range(S):
        cr, sr = [], []
        for j in range(HD):
            ang = pos * (QTHETA ** (-2.0 * (j % (HD // 2)) / HD))
            cr.append(math.cos(ang))
            sr.append(math.sin(ang))
        cos_l.append(cr)
        sin_l.append(sr)
    cos = f.fresh("cos")
    f.emit('%s = "tosa.const"() <{values = dense<%s> : %s}> : () -> %s'
           % (cos, dense_literal([[cos_l]]), T([1, 1, S, HD]), T([1, 1, S, HD])))
    sin = f.fresh("sin")
    f.emit('%s = "tosa.const"() <{values = dense<%s> : %s}> : () -> %s'
           % (sin, dense_literal([[sin_l]]), T([1, 1, S, HD]), T([1, 1, S, HD])))
    mask_l = [[[0.0 if j <= i else -1e9 for j in range(S)] for i in range(S)]]
    mask = f.fresh("mask")
    f.emit('%s = "tosa.const"() <{values = dense<%s> : %s}> : () -> %s'
           % (mask, dense_literal(mask_l), T([1, S, S]), T([1, S, S])))

    def rope(t, nh):
        shp = [QB, nh, S, HD]
        half = [QB, nh, S, HD // 2]
        x1 = tz.slice(t, shp, [0, 0, 0, 0], half)
        x2 = tz.slice(t, shp, [0, 0, 0, HD // 2], half)
        rot = tz.concat(tz.negate(x2, half), x1, half, 3, shp)
        a = tz.mul(t, shp, cos, [1, 1, S, HD], shp)
        b = tz.mul(rot, shp, sin, [1, 1, S, HD], shp)
        return tz.add(a, shp, b, shp, shp)

    hn = rmsnorm(x, p["input_layernorm_weight"])
    q = linear(hn, H, A * HD, p["q_proj_weight"], p["q_proj_bias"])
    k = linear(hn, H, KV * HD, p["k_proj_weight"], p["k_proj_bias"])
    v = linear(hn, H, KV * HD, p["v_proj_weight"], p["v_proj_bias"])

    def heads(t, nh):
        r = tz.reshape(t, [QB, S, nh * HD], [QB, S, nh, HD])
        return tz.transpose(r, [QB, S, nh, HD], [0, 2, 1, 3])[0]
    qh = rope(heads(q, A), A)
    kh = rope(heads(k, KV), KV)
    vh = heads(v, KV)
    REP = A // KV

    def repeat_kv(t):
        r5 = tz.reshape(t, [QB, KV, S, HD], [QB, KV, 1, S, HD])
        t5 = tz.tile(r5, [QB, KV, 1, S, HD], [1, 1, REP, 1, 1])
        return tz.reshape(t5, [QB, KV, REP, S, HD], [QB, A, S, HD])
    kr, vr = repeat_kv(kh), repeat_kv(vh)
    BA = QB * A
    q3 = tz.reshape(qh, [QB, A, S, HD], [BA, S, HD])
    k3 = tz.reshape(kr, [QB, A, S, HD], [BA, S, HD])
    v3 = tz.reshape(vr, [QB, A, S, HD], [BA, S, HD])
    kt, _ = tz.transpose(k3, [BA, S, HD], [0, 2, 1])
    sc = tz.matmul(q3, [BA, S, HD], kt, [BA, HD, S])
    SS = [BA, S, S]
    sc = tz.mul(sc, SS, tz.const(1.0 / math.sqrt(HD), [1, 1, 1]), [1, 1, 1], SS)
    sc = tz.add(sc, SS, mask, [1, S, S], SS)
    mx = tz.reduce("reduce_max", sc, SS, 2)
    ex = tz.unary("exp", tz.sub(sc, SS, mx, [BA, S, 1], SS), SS)
    sm = tz.reduce("reduce_sum", ex, SS, 2)
    pr = tz.mul(ex, SS, tz.unary("reciprocal", sm, [BA, S, 1]), [BA, S, 1], SS)
    ctx = tz.matmul(pr, SS, v3, [BA, S, HD])
    c4 = tz.reshape(ctx, [BA, S, HD], [QB, A, S, HD])
    ct, _ = tz.transpose(c4, [QB, A, S, HD], [0, 2, 1, 3])
    c3 = tz.reshape(ct, [QB, S, A, HD], [QB, S, A * HD])
    o = linear(c3, A * HD, H, p["o_proj_weight"])
    h = tz.add(x, X, o, X, X)
    hn2 = rmsnorm(h, p["post_attention_layernorm_weight"])
    gt = linear(hn2, H, FF, p["gate_proj_weight"])
    up = linear(hn2, H, FF, p["up_proj_weight"])
    F3 = [QB, S, FF]
    act = tz.mul(tz.mul(gt, F3, tz.unary("sigmoid", gt, F3), F3, F3), F3, up, F3, F3)
    dn = linear(act, FF, H, p["down_proj_weight"])
    out = tz.add(h, X, dn, X, X)
    f.result = (out, X)
    return f


def ref_qwen2_tosa(P):
    x = P["x"]
    g = lambda n: P[n]
    inv = 1.0 / QTHETA ** (np.arange(0, HD, 2) / HD)
    fr = np.outer(np.arange(S), inv)
    emb = np.concatenate([fr, fr], -1)
    cos, sin = np.cos(emb), np.sin(emb)
    hn = np_rmsnorm(x, g("input_layernorm_weight"), 1e-6)
    q = np_rope(np_heads(hn @ g("q_proj_weight").T + g("q_proj_bias"), A), cos, sin)
    k = np_rope(np_heads(hn @ g("k_proj_weight").T + g("k_proj_bias"), KV), cos, sin)
    v = np_heads(hn @ g("v_proj_weight").T + g("v_proj_bias"), KV)
    h = x + np_merge(np_gqa_attention(q, k, v)) @ g("o_proj_weight").T
    hn = np_rmsnorm(h, g("post_attention_layernorm_weight"), 1e-6)
    return h + (np_silu(hn @ g("gate_proj_weight").T) * (hn @ g("up_proj_weight").T)) @ g("down_proj_weight").T


# =============================================================================
MODELS = {
    "gpt_bsh": (gpt_bsh, ref_gpt_bsh,
                "GPT-2, 2 layers, pre-LN, separate Q/K/V, [out,in] weights, linalg.generic style"),
    "gpt_fused_qkv": (gpt_fused_qkv, ref_gpt_fused_qkv,
                      "GPT-2, 2 layers, HF Conv1D fused c_attn [h,3h], named linalg ops, linalg.softmax"),
    "llama_gqa": (llama_gqa, ref_llama_gqa,
                  "Llama, 2 layers, GQA 4/2 heads, RMSNorm, RoPE, SwiGLU, no biases"),
    "bert_post_norm": (bert_post_norm, ref_bert_post_norm,
                       "BERT encoder, 2 layers, post-LN, biases, GELU(erf), no mask"),
    "qwen2_tosa": (qwen2_tosa, ref_qwen2_tosa,
                   "Qwen2 decoder layer in TOSA, GQA 4/2, QKV biases, RMSNorm, RoPE, SwiGLU"),
}


def module_text(name, f):
    desc = MODELS[name][2]
    hdr = ("// Generated by gen_outside.py (%s) -- do not edit by hand; regenerate with\n"
           "//   python3 test/Inputs/outside/gen_outside.py\n"
           "// %s\n"
           "// Unsharded single-device program: first argument is the activation x,\n"
           "// the others are f32 weights; @forward returns the final hidden states.\n" % (name, desc))
    return hdr + "module {\n" + f.text() + "}\n"


def generate(names):
    out = {}
    for n in names:
        f = MODELS[n][0]()
        txt = module_text(n, f)
        path = os.path.join(HERE, n + ".mlir")
        with open(path, "w") as fh:
            fh.write(txt)
        out[n] = (f, path)
    return out


# ---- numeric check ---------------------------------------------------------------
def make_inputs(f, seed):
    rng = np.random.default_rng(seed)
    P = {}
    for nm, shp, kind in f.args:
        r = rng.standard_normal(shp)
        if kind == "x":
            v = r
        elif kind == "gain":
            v = 1.0 + 0.1 * r
        elif kind == "bias":
            v = 0.1 * r
        elif kind == "w_oi":      # [out, in]
            v = r / math.sqrt(shp[1])
        elif kind == "w_io":      # [in, out]
            v = r / math.sqrt(shp[0])
        else:
            raise ValueError(kind)
        P[nm] = v.astype(np.float32)
    return P


def hex_dense(a):
    return 'dense<"0x%s">' % a.astype("<f4").tobytes().hex().upper()


TRANSFORM = """  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %sm = transform.structured.match ops{["linalg.softmax"]} in %root : (!transform.any_op) -> !transform.any_op
    %dec = transform.structured.decompose_interface %sm : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
"""


def check_module(f, P):
    lines = ["module attributes {transform.with_named_sequence} {", f.text(),
             "  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}",
             "  func.func @main() {"]
    names = []
    for i, (nm, shp, _) in enumerate(f.args):
        lines.append("    %%in%d = arith.constant %s : %s" % (i, hex_dense(P[nm]), T(shp)))
        names.append("%%in%d" % i)
    rt = T(f.result[1])
    lines.append("    %%r = func.call @forward(%s) : (%s) -> %s"
                 % (", ".join(names), ", ".join(T(s) for _, s, _ in f.args), rt))
    mt = rt.replace("tensor<", "memref<")
    lines.append("    %%m = bufferization.to_buffer %%r : %s to %s" % (rt, mt))
    lines.append("    %%u = memref.cast %%m : %s to memref<*xf32>" % mt)
    lines.append("    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()")
    lines.append("    return")
    lines.append("  }")
    lines.append(TRANSFORM)
    lines.append("}")
    return "\n".join(lines) + "\n"


LOWER = ("builtin.module(transform-interpreter, test-transform-dialect-erase-schedule, canonicalize, "
         "one-shot-bufferize{bufferize-function-boundaries=true}, "
         "convert-linalg-to-loops, convert-math-to-llvm, convert-math-to-libm, convert-scf-to-cf, expand-strided-metadata, "
         "lower-affine, finalize-memref-to-llvm, convert-to-llvm, reconcile-unrealized-casts)")
TOSA_FIRST = ("builtin.module(func.func(tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith, tosa-to-tensor), "
              "canonicalize)")


def run(cmd, inp=None):
    p = subprocess.run(cmd, input=inp, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("command failed (%d): %s\n%s" % (p.returncode, " ".join(cmd), p.stderr[-4000:]))
    return p.stdout


def check(name, f, path, keep):
    opt = os.path.join(MLIR_BIN, "mlir-opt")
    runner = os.path.join(MLIR_BIN, "mlir-runner")
    libdir = os.path.join(os.path.dirname(MLIR_BIN), "lib")
    run([opt, path, "-o", os.devnull])                          # parses + verifies as written
    P = make_inputs(f, seed=sum(map(ord, name)))
    ref = MODELS[name][1]({k: v.astype(np.float64) for k, v in P.items()})
    mod = check_module(f, P)
    if name.startswith("qwen2_tosa"):
        mod = run([opt, "--pass-pipeline=" + TOSA_FIRST], mod)
    llvm = run([opt, "--pass-pipeline=" + LOWER], mod)
    if keep:
        with open(os.path.join(keep, name + ".check.mlir"), "w") as fh:
            fh.write(mod)
    out = run([runner, "-e", "main", "-entry-point-result=void",
               "-shared-libs=%s/libmlir_runner_utils.so,%s/libmlir_c_runner_utils.so" % (libdir, libdir)], llvm)
    data = out[out.index("data =") + len("data ="):]
    vals = np.array([float(t) for t in re.findall(r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|nan|inf)", data)])
    if vals.size != ref.size:
        raise RuntimeError("%s: got %d values, expected %d" % (name, vals.size, ref.size))
    got = vals.reshape(ref.shape)
    err = float(np.max(np.abs(got - ref)) / max(1.0, float(np.max(np.abs(ref)))))
    return err, float(np.max(np.abs(ref)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--only", action="append", choices=sorted(MODELS))
    ap.add_argument("--keep", help="directory to keep the check modules in")
    a = ap.parse_args()
    names = a.only or list(MODELS)
    gen = generate(names)
    if not a.check:
        for n in names:
            print("wrote", gen[n][1])
        return 0
    global np
    import numpy as np
    bad = 0
    for n in names:
        f, path = gen[n]
        try:
            err, mx = check(n, f, path, a.keep)
            ok = err <= TOL and math.isfinite(err)
            bad += not ok
            print("%-16s err=%.3e (max|ref|=%.3f) %s" % (n, err, mx, "PASS" if ok else "FAIL"))
        except Exception as e:  # noqa: BLE001
            bad += 1
            print("%-16s ERROR %s" % (n, e))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
