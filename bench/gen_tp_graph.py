#!/usr/bin/env python3
"""Generate transformer model graphs (GPT, Llama, BERT) as MLIR text.

Two forms are emitted:

* ``tp``: a per-rank Megatron tensor-parallel program, the input of seqpar's
  ``seqpar-sequence-parallel`` pass. Weights are function arguments already cut
  to their per-rank size and carry ``seqpar.sharding`` attributes; every
  row-parallel matmul is followed by ``shard.all_reduce`` over grid axis 0.
* ``upstream``: the unsharded single-device GPT model written so that upstream
  MLIR's ``sharding-propagation`` + ``shard-partition`` can partition it
  (explicit head dims, no reshapes/slices, no constant-index maps, no non-splat
  constants), annotated with ``shard.sharding``/``shard.shard`` for Megatron TP.

Only the Python 3.11 standard library is used. Weights are arguments, never
literals, so even the 80-layer h=8192 reference model is a small text file.

Example:
    python3 bench/gen_tp_graph.py --model gpt --layers 2 --tp 2 --dropout \\
        -o examples/gpt2_tp2.mlir
"""

import argparse
import math
import os
import re
import shlex
import sys
from dataclasses import dataclass

GRID = "@grid"
NEG_BIG = -1.0e9  # additive causal-mask value ("-inf-ish")
DROPOUT_P = 0.1

# seqpar per-rank sharding attributes (docs/semantics.md §2).
SH_REPL = "#seqpar.sharding<@grid, replicated>"
SH_COL_W = "#seqpar.sharding<@grid, [[], [0]]>"
SH_ROW_W = "#seqpar.sharding<@grid, [[0]]>"
SH_COL_B = "#seqpar.sharding<@grid, [[0]]>"
SH_QKV_W = "#seqpar.sharding<@grid, [[], [0] groups 3]>"
SH_QKV_B = "#seqpar.sharding<@grid, [[0] groups 3]>"

MASK64 = (1 << 64) - 1


# ---------------------------------------------------------------------------
# Configuration
# ---------------------------------------------------------------------------


@dataclass
class Config:
    """Model and emission parameters (global, unsharded sizes)."""

    model: str
    layers: int
    b: int
    s: int
    h: int
    a: int
    a_kv: int
    f: int
    t: int
    form: str
    elem: str
    layout: str
    flatten: bool
    dropout: bool
    seed: int
    eps: float = 1e-5
    rope_theta: float = 10000.0
    dropout_op: bool = False
    attn_dropout: bool = False
    # Forms other frontends write (--form plain/tp at tp 1; see parse_args):
    # each default is the form this generator always wrote.
    logits: str = "qk"
    pv: str = "bmm"
    gqa_repeat: str = "generic"
    softmax: str = "generics"
    mask: str = "none"
    window: int = 3
    init: str = "fill"
    mixed_bf16: bool = False
    linear: str = "default"

    @property
    def new_attention_forms(self):
        """True when the attention is written in a form of parse_args'
        --logits/--pv/--gqa-repeat/--softmax/--mask other than the default."""
        return (self.logits, self.pv, self.gqa_repeat, self.softmax, self.mask) != \
            ("qk", "bmm", "generic", "generics", "none")

    @property
    def d(self):
        """Head dim."""
        return self.h // self.a

    @property
    def seq_dim(self):
        """Sequence dim of the [.., .., h] activations."""
        return 1 if self.layout == "bsh" else 0

    def act_shape(self, n):
        """Shape of an activation with n features in the chosen layout."""
        if self.layout == "bsh":
            return (self.b, self.s, n)
        return (self.s, self.b, n)


# ---------------------------------------------------------------------------
# Text emission helpers
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Val:
    """An SSA tensor value: its name, static shape and element type."""

    name: str
    shape: tuple
    elem: str

    @property
    def type(self):
        """The MLIR tensor type of the value."""
        return tensor_type(self.shape, self.elem)


def tensor_type(shape, elem):
    """Returns the MLIR ranked tensor type for `shape` and `elem`."""
    dims = "".join(f"{d}x" for d in shape)
    return f"tensor<{dims}{elem}>"


def float_lit(value, elem):
    """Returns an MLIR float literal for `value` of type `elem`."""
    if value == -math.inf:
        return {"f32": "0xFF800000", "f64": "0xFFF0000000000000"}.get(elem, "0xFF80")
    return f"{value:.9e}"


def to_signed64(value):
    """Returns the two's-complement signed reading of a 64-bit pattern."""
    value &= MASK64
    return value - (1 << 64) if value >> 63 else value


# splitmix64: z = x + GOLDEN; per round z = (z ^ (z >> shift)) * mult; then
# z ^ (z >> FINAL). The position-keyed dropout below (and seqpar-import's
# training dropout, docs/import.md) apply it to GOLDEN * linear index + a
# per-site seed and keep the element when the top U_BITS bits, read as
# u in [0, 1), are >= p.
SPLITMIX_GOLDEN = 0x9E3779B97F4A7C15
SPLITMIX_ROUNDS = ((30, 0xBF58476D1CE4E5B9), (27, 0x94D049BB133111EB))
SPLITMIX_FINAL = 31
DROPOUT_U_BITS = 24


def splitmix64(x):
    """One splitmix64 step (used offline to derive per-site seeds)."""
    x = (x + SPLITMIX_GOLDEN) & MASK64
    for shift, mult in SPLITMIX_ROUNDS:
        x = ((x ^ (x >> shift)) * mult) & MASK64
    return x ^ (x >> SPLITMIX_FINAL)


def dropout_site_seed(seed, site):
    """The signed 64-bit seed of dropout site `site` under `seed`."""
    return to_signed64(splitmix64((seed << 16) + site))


class Body:
    """Builder for the scalar region of a linalg.generic."""

    def __init__(self, bld):
        """Creates an empty body that takes fresh names from `bld`."""
        self.bld = bld
        self.lines = []

    def _op(self, hint, text):
        """Emits `%name = text` and returns the name."""
        name = self.bld.fresh(hint)
        self.lines.append(f"{name} = {text}")
        return name

    def const(self, value, ty):
        """A float constant of type `ty`."""
        return self._op("cst", f"arith.constant {float_lit(value, ty)} : {ty}")

    def iconst(self, value, ty="i64"):
        """An integer (or index) constant of type `ty`."""
        return self._op("c", f"arith.constant {value} : {ty}")

    def bin(self, op, x, y, ty):
        """A binary arith/math op `op` on values of type `ty`."""
        return self._op("t", f"{op} {x}, {y} : {ty}")

    def un(self, op, x, ty):
        """A unary arith/math op `op` on a value of type `ty`."""
        return self._op("t", f"{op} {x} : {ty}")

    def cast(self, op, x, src, dst):
        """A conversion op `op` from `src` to `dst`."""
        return self._op("t", f"{op} {x} : {src} to {dst}")

    def index(self, dim):
        """`linalg.index dim`."""
        return self._op("i", f"linalg.index {dim} : index")

    def index_i64(self, dim):
        """`linalg.index dim` cast to i64."""
        return self.cast("arith.index_cast", self.index(dim), "index", "i64")

    def index_f32(self, dim):
        """`linalg.index dim` converted to f32."""
        return self.cast("arith.sitofp", self.index_i64(dim), "i64", "f32")

    def cmpf(self, pred, x, y, ty):
        """`arith.cmpf pred`."""
        return self._op("p", f"arith.cmpf {pred}, {x}, {y} : {ty}")

    def cmpi(self, pred, x, y, ty):
        """`arith.cmpi pred`."""
        return self._op("p", f"arith.cmpi {pred}, {x}, {y} : {ty}")

    def select(self, cond, x, y, ty):
        """`arith.select cond, x, y`."""
        return self._op("t", f"arith.select {cond}, {x}, {y} : {ty}")

    def to_f32(self, x, ty):
        """Extends `x` to f32 when `ty` is narrower."""
        return x if ty == "f32" else self.cast("arith.extf", x, ty, "f32")

    def from_f32(self, x, ty):
        """Truncates the f32 `x` to `ty` when narrower."""
        return x if ty == "f32" else self.cast("arith.truncf", x, "f32", ty)


class Builder:
    """Accumulates the ops of one function and the module's affine maps."""

    def __init__(self, elem, init="fill"):
        """Creates an empty builder for element type `elem`; `init` is how
        contractions' zero inits are written (zero_init)."""
        self.elem = elem
        self.init = init
        self.inits = 0
        self.lines = []
        self.maps = {}
        self.consts = {}
        self.counter = 0
        self.dropout_sites = 0

    # -- names, maps, constants ------------------------------------------

    def fresh(self, hint="v"):
        """Returns a fresh SSA name starting with `hint`."""
        self.counter += 1
        return f"%{hint}{self.counter}"

    def emit(self, text):
        """Appends one line to the function body."""
        self.lines.append("  " + text)

    def amap(self, ndims, results):
        """Returns the alias of affine_map<(d0..) -> (results)>.

        `results` holds dim positions (int) or constant expressions (str).
        """
        dims = ", ".join(f"d{i}" for i in range(ndims))
        res = ", ".join(f"d{r}" if isinstance(r, int) else r for r in results)
        text = f"affine_map<({dims}) -> ({res})>"
        if text not in self.maps:
            self.maps[text] = f"#map{len(self.maps)}"
        return self.maps[text]

    def identity(self, rank):
        """The identity map of `rank` dims."""
        return self.amap(rank, list(range(rank)))

    def const(self, value, elem=None):
        """A function-level float constant (deduplicated)."""
        elem = elem or self.elem
        key = (float_lit(value, elem), elem)
        if key not in self.consts:
            name = self.fresh("cst")
            self.emit(f"{name} = arith.constant {key[0]} : {elem}")
            self.consts[key] = name
        return self.consts[key]

    # -- tensor ops --------------------------------------------------------

    def empty(self, shape, elem=None):
        """`tensor.empty` of `shape`."""
        v = Val(self.fresh("e"), tuple(shape), elem or self.elem)
        self.emit(f"{v.name} = tensor.empty() : {v.type}")
        return v

    def filled(self, shape, value, elem=None):
        """A tensor of `shape` filled with the scalar `value`."""
        c = self.const(value, elem)
        e = self.empty(shape, elem)
        v = Val(self.fresh("fill"), e.shape, e.elem)
        self.emit(f"{v.name} = linalg.fill ins({c} : {e.elem}) outs({e.name} : {e.type}) -> {v.type}")
        return v

    def zero_init(self, shape, elem=None):
        """The zero init of a contraction: a linalg.fill ("fill"), a splat
        `arith.constant dense<0.0>` ("const"), a fill seen through a
        tensor.cast to a dynamic leading dim and back ("cast"), or these
        three in turn ("mixed"), as different frontends write it."""
        style = self.init
        if style == "mixed":
            style = ("const", "cast", "fill")[self.inits % 3]
        self.inits += 1
        elem = elem or self.elem
        if style == "const":
            v = Val(self.fresh("zero"), tuple(shape), elem)
            self.emit(f"{v.name} = arith.constant dense<0.000000e+00> : {v.type}")
            return v
        f = self.filled(shape, 0.0, elem)
        if style == "cast":
            dyn = tensor_type(("?",) + tuple(shape[1:]), elem)
            d = self.fresh("dyn")
            self.emit(f"{d} = tensor.cast {f.name} : {f.type} to {dyn}")
            v = Val(self.fresh("zc"), f.shape, elem)
            self.emit(f"{v.name} = tensor.cast {d} : {dyn} to {v.type}")
            return v
        return f

    def matmul(self, x, w, acc=None):
        """`linalg.matmul` of [m,k] x [k,n] into a zero-filled [m,n] (of
        element type `acc`, default the operands': f32 for bf16 operands is
        a mixed-precision matmul, which extends them)."""
        init = self.zero_init((x.shape[0], w.shape[1]), acc)
        v = Val(self.fresh("mm"), init.shape, init.elem)
        self.emit(f"{v.name} = linalg.matmul ins({x.name}, {w.name} : {x.type}, {w.type}) "
                  f"outs({init.name} : {init.type}) -> {v.type}")
        return v

    def batch_matmul(self, x, y, acc=None):
        """`linalg.batch_matmul` of [B,m,k] x [B,k,n] into a zero-filled
        [B,m,n] (of element type `acc`, default the program's)."""
        init = self.zero_init((x.shape[0], x.shape[1], y.shape[2]), acc)
        v = Val(self.fresh("bmm"), init.shape, init.elem)
        self.emit(f"{v.name} = linalg.batch_matmul ins({x.name}, {y.name} : {x.type}, {y.type}) "
                  f"outs({init.name} : {init.type}) -> {v.type}")
        return v

    def broadcast(self, x, n):
        """`linalg.broadcast` of x to [n, *x.shape] (a copy per leading index)."""
        e = self.empty((n,) + tuple(x.shape), x.elem)
        v = Val(self.fresh("bc"), e.shape, x.elem)
        self.emit(f"{v.name} = linalg.broadcast ins({x.name} : {x.type}) outs({e.name} : {e.type}) "
                  f"dimensions = [0]")
        return v

    def transpose(self, x, perm):
        """`linalg.transpose` with result dim i = input dim perm[i]."""
        e = self.empty([x.shape[p] for p in perm], x.elem)
        v = Val(self.fresh("tr"), e.shape, x.elem)
        p = ", ".join(map(str, perm))
        self.emit(f"{v.name} = linalg.transpose ins({x.name} : {x.type}) outs({e.name} : {e.type}) "
                  f"permutation = [{p}]")
        return v

    def collapse(self, x, groups):
        """`tensor.collapse_shape` with reassociation `groups`."""
        shape = tuple(math.prod(x.shape[i] for i in g) for g in groups)
        v = Val(self.fresh("cl"), shape, x.elem)
        self.emit(f"{v.name} = tensor.collapse_shape {x.name} {reassoc(groups)} : {x.type} into {v.type}")
        return v

    def expand(self, x, groups, shape):
        """`tensor.expand_shape` with reassociation `groups` into `shape`."""
        v = Val(self.fresh("ex"), tuple(shape), x.elem)
        out = ", ".join(map(str, shape))
        self.emit(f"{v.name} = tensor.expand_shape {x.name} {reassoc(groups)} output_shape [{out}] "
                  f": {x.type} into {v.type}")
        return v

    def extract_slice(self, x, offsets, sizes, result_shape):
        """`tensor.extract_slice` with unit strides (rank-reducing if asked)."""
        v = Val(self.fresh("sl"), tuple(result_shape), x.elem)
        o = ", ".join(map(str, offsets))
        s = ", ".join(map(str, sizes))
        st = ", ".join("1" for _ in sizes)
        self.emit(f"{v.name} = tensor.extract_slice {x.name}[{o}] [{s}] [{st}] : {x.type} to {v.type}")
        return v

    def all_reduce(self, x):
        """`shard.all_reduce` (sum) over grid axis 0."""
        v = Val(self.fresh("ar"), x.shape, x.elem)
        self.emit(f"{v.name} = shard.all_reduce {x.name} on {GRID} grid_axes = [0] : {x.type} -> {v.type}")
        return v

    def generic(self, ins, init, init_map, iterators, body_fn, hint="g"):
        """Emits a linalg.generic and returns its result.

        `ins` is a list of (Val, map alias); `init` the output tensor with map
        `init_map`; `body_fn(body, in_names, out_name)` returns the yielded name.
        """
        res = Val(self.fresh(hint), init.shape, init.elem)
        block_args = [(self.fresh("in"), v.elem) for v, _ in ins] + [(self.fresh("out"), init.elem)]
        body = Body(self)
        y = body_fn(body, [n for n, _ in block_args[:-1]], block_args[-1][0])
        maps = ", ".join([m for _, m in ins] + [init_map])
        its = ", ".join(f'"{i}"' for i in iterators)
        head = f"{res.name} = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{its}]}}"
        if ins:
            names = ", ".join(v.name for v, _ in ins)
            types = ", ".join(v.type for v, _ in ins)
            head += f" ins({names} : {types})"
        head += f" outs({init.name} : {init.type}) {{"
        self.emit(head)
        args = ", ".join(f"{n}: {t}" for n, t in block_args)
        self.emit(f"^bb0({args}):")
        for line in body.lines:
            self.emit("  " + line)
        self.emit(f"  linalg.yield {y} : {init.elem}")
        self.emit(f"}} -> {res.type}")
        return res

    # -- generic shorthands -------------------------------------------------

    def elementwise(self, xs, body_fn, hint="ew", broadcast=None):
        """Elementwise generic over the shape of xs[0].

        `broadcast` maps an input position to the list of dims it indexes
        (default: all dims, identity map).
        """
        shape = xs[0].shape
        rank = len(shape)
        broadcast = broadcast or {}
        ins = [(x, self.amap(rank, broadcast.get(i, list(range(rank))))) for i, x in enumerate(xs)]
        init = self.empty(shape)
        return self.generic(ins, init, self.identity(rank), ["parallel"] * rank, body_fn, hint)

    def contract(self, x, x_dims, y, y_dims, out_shape, n_red, hint="ct", acc=None):
        """Contraction generic: loops are out dims (parallel) then n_red reductions.

        `x_dims`/`y_dims` list the loop dim indexing each operand dim; `acc`
        (default the element type) is the accumulator's type: f32 for bf16
        operands extends both factors in the body.
        """
        rank = len(out_shape) + n_red
        init = self.zero_init(out_shape, acc)
        its = ["parallel"] * len(out_shape) + ["reduction"] * n_red
        ty = init.elem

        def body(bb, ins, out):
            a, b = (bb.to_f32(n, v.elem) if ty != v.elem else n for n, v in zip(ins, (x, y)))
            return bb.bin("arith.addf", out, bb.bin("arith.mulf", a, b, ty), ty)

        return self.generic([(x, self.amap(rank, x_dims)), (y, self.amap(rank, y_dims))], init,
                            self.amap(rank, list(range(len(out_shape)))), its, body, hint)


def reassoc(groups):
    """Prints a reassociation list such as [[0, 1], [2]]."""
    return "[" + ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups) + "]"


# ---------------------------------------------------------------------------
# Blocks shared by both forms
# ---------------------------------------------------------------------------


def reduce_last(bld, x, keepdim, init_value, combine_op, pre=None, extra=(), hint="red"):
    """Reduces the last dim of `x` into a [.., 1] (keepdim) or [..] tensor.

    Each value `v` is folded into the accumulator with the binary arith op
    `combine_op`; `pre(bb, ins)` maps the block inputs (x, then the `extra`
    per-row statistics, read with the output map) to `v` (default: x).
    """
    rank = len(x.shape)
    stat_shape = x.shape[:-1] + ((1,) if keepdim else ())
    init = bld.filled(stat_shape, init_value)
    out_map = stat_map(bld, rank, keepdim)
    ins = [(x, bld.identity(rank))] + [(e, out_map) for e in extra]

    def body(bb, names, out):
        v = pre(bb, names) if pre else names[0]
        return bb.bin(combine_op, out, v, bld.elem)

    its = ["parallel"] * (rank - 1) + ["reduction"]
    return bld.generic(ins, init, out_map, its, body, hint)


def stat_map(bld, rank, keepdim):
    """Map from a rank-`rank` loop nest to a per-row statistic.

    keepdim: (d0, .., dn) -> (d0, .., d(n-1), 0), a [.., 1] tensor (the tp form);
    otherwise (d0, .., dn) -> (d0, .., d(n-1)) (upstream cannot shard
    constant-index maps).
    """
    return bld.amap(rank, list(range(rank - 1)) + (["0"] if keepdim else []))


def layer_norm(bld, x, gamma, beta, eps, keepdim):
    """LayerNorm over the last dim: mean and variance as reduction generics."""
    ty = bld.elem
    n = x.shape[-1]
    rank = len(x.shape)
    total = reduce_last(bld, x, keepdim, 0.0, "arith.addf", hint="sum")

    def mean_body(bb, ins, out):
        return bb.bin("arith.mulf", ins[0], bb.const(1.0 / n, ty), ty)

    mean = bld.elementwise([total], mean_body, "mean")

    def sq_dev(bb, ins):
        dev = bb.bin("arith.subf", ins[0], ins[1], ty)
        return bb.bin("arith.mulf", dev, dev, ty)

    sq = reduce_last(bld, x, keepdim, 0.0, "arith.addf", pre=sq_dev, extra=[mean], hint="sqsum")

    def norm_body(bb, ins, out):
        xv, mv, sv, g, b = ins
        var = bb.bin("arith.mulf", sv, bb.const(1.0 / n, ty), ty)
        inv = bb.un("math.rsqrt", bb.bin("arith.addf", var, bb.const(eps, ty), ty), ty)
        y = bb.bin("arith.mulf", bb.bin("arith.subf", xv, mv, ty), inv, ty)
        return bb.bin("arith.addf", bb.bin("arith.mulf", y, g, ty), b, ty)

    smap = stat_map(bld, rank, keepdim)
    cmap = bld.amap(rank, [rank - 1])
    ins = [(x, bld.identity(rank)), (mean, smap), (sq, smap), (gamma, cmap), (beta, cmap)]
    init = bld.empty(x.shape)
    return bld.generic(ins, init, bld.identity(rank), ["parallel"] * rank, norm_body, "ln")


def rms_norm(bld, x, gamma, eps, keepdim):
    """RMSNorm over the last dim (no mean subtraction, no beta)."""
    ty = bld.elem
    n = x.shape[-1]
    rank = len(x.shape)
    sq = reduce_last(bld, x, keepdim, 0.0, "arith.addf",
                     pre=lambda bb, ins: bb.bin("arith.mulf", ins[0], ins[0], ty), hint="sqsum")

    def norm_body(bb, ins, out):
        xv, sv, g = ins
        ms = bb.bin("arith.mulf", sv, bb.const(1.0 / n, ty), ty)
        inv = bb.un("math.rsqrt", bb.bin("arith.addf", ms, bb.const(eps, ty), ty), ty)
        return bb.bin("arith.mulf", bb.bin("arith.mulf", xv, inv, ty), g, ty)

    ins = [(x, bld.identity(rank)), (sq, stat_map(bld, rank, keepdim)), (gamma, bld.amap(rank, [rank - 1]))]
    init = bld.empty(x.shape)
    return bld.generic(ins, init, bld.identity(rank), ["parallel"] * rank, norm_body, "rms")


def add_bias(bld, x, bias):
    """x + bias, the bias broadcast over x's leading dims."""
    ty = bld.elem
    rank, k = len(x.shape), len(bias.shape)
    return bld.elementwise([x, bias], lambda bb, ins, out: bb.bin("arith.addf", ins[0], ins[1], ty),
                           "bias", broadcast={1: list(range(rank - k, rank))})


def residual_add(bld, x, y):
    """Elementwise x + y (residual connection)."""
    ty = bld.elem
    return bld.elementwise([x, y], lambda bb, ins, out: bb.bin("arith.addf", ins[0], ins[1], ty), "res")


def scale(bld, x, factor):
    """Elementwise x * factor."""
    ty = bld.elem
    return bld.elementwise([x], lambda bb, ins, out: bb.bin("arith.mulf", ins[0], bb.const(factor, ty), ty),
                           "scale")


def gelu_tanh(bld, x):
    """GELU, tanh approximation: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
    ty = bld.elem

    def body(bb, ins, out):
        v = ins[0]
        v3 = bb.bin("arith.mulf", bb.bin("arith.mulf", v, v, ty), v, ty)
        inner = bb.bin("arith.addf", v, bb.bin("arith.mulf", v3, bb.const(0.044715, ty), ty), ty)
        th = bb.un("math.tanh", bb.bin("arith.mulf", inner, bb.const(math.sqrt(2.0 / math.pi), ty), ty), ty)
        half = bb.bin("arith.mulf", v, bb.const(0.5, ty), ty)
        return bb.bin("arith.mulf", half, bb.bin("arith.addf", th, bb.const(1.0, ty), ty), ty)

    return bld.elementwise([x], body, "gelu")


def swiglu(bld, gate, up):
    """silu(gate) * up, silu(g) = g / (1 + exp(-g))."""
    ty = bld.elem

    def body(bb, ins, out):
        g, u = ins
        den = bb.bin("arith.addf", bb.un("math.exp", bb.un("arith.negf", g, ty), ty), bb.const(1.0, ty), ty)
        return bb.bin("arith.mulf", bb.bin("arith.divf", g, den, ty), u, ty)

    return bld.elementwise([gate, up], body, "swiglu")


def dropout_keep(bb, shape, seed, p):
    """The i1 keep bit of the element at the loops' `linalg.index`es in a
    tensor of `shape`: hash(seed, row-major linear index) >= p."""
    lin = bb.index_i64(0)
    for dim in range(1, len(shape)):
        lin = bb.bin("arith.muli", lin, bb.iconst(shape[dim]), "i64")
        lin = bb.bin("arith.addi", lin, bb.index_i64(dim), "i64")
    z = bb.bin("arith.muli", lin, bb.iconst(to_signed64(SPLITMIX_GOLDEN)), "i64")
    z = bb.bin("arith.addi", z, bb.iconst(seed), "i64")
    for shift, mult in SPLITMIX_ROUNDS:
        z = bb.bin("arith.xori", z, bb.bin("arith.shrui", z, bb.iconst(shift), "i64"), "i64")
        z = bb.bin("arith.muli", z, bb.iconst(to_signed64(mult)), "i64")
    z = bb.bin("arith.xori", z, bb.bin("arith.shrui", z, bb.iconst(SPLITMIX_FINAL), "i64"), "i64")
    top = bb.bin("arith.shrui", z, bb.iconst(64 - DROPOUT_U_BITS), "i64")
    u = bb.bin("arith.mulf", bb.cast("arith.uitofp", top, "i64", "f32"),
               bb.const(2.0 ** -DROPOUT_U_BITS, "f32"), "f32")
    return bb.cmpf("oge", u, bb.const(p, "f32"), "f32")


def dropout(bld, x, p, cfg):
    """Position-keyed dropout: keep x/(1-p) where hash(seed_site, linear index) >= p.

    The linear index is the element's row-major index in the (unsharded)
    tensor, computed from `linalg.index` of every loop; it is mixed with a
    per-site seed by splitmix64-style xor-shift/multiply rounds and the top 24
    bits give u in [0, 1).
    """
    ty = bld.elem
    site = bld.dropout_sites
    bld.dropout_sites += 1
    if cfg.dropout_op:
        return dropout_op(bld, x, p, cfg.seed, site)
    seed = dropout_site_seed(cfg.seed, site)

    def body(bb, ins, out):
        keep = dropout_keep(bb, x.shape, seed, p)
        kept = bb.bin("arith.mulf", ins[0], bb.const(1.0 / (1.0 - p), ty), ty)
        return bb.select(keep, kept, bb.const(0.0, ty), ty)

    return bld.elementwise([x], body, "drop")


def dropout_op(bld, x, p, seed, site):
    """Dropout as `seqpar.dropout` (Philox keyed by seed, site, global index)."""
    seed_name = bld.fresh("seed")
    bld.emit(f"{seed_name} = arith.constant {seed} : i64")
    v = Val(bld.fresh("drop"), x.shape, x.elem)
    bld.emit(f"{v.name} = seqpar.dropout {x.name} seed {seed_name} "
             f"{{rate = {p!r} : f64, site = {site} : i64}} : {x.type}")
    return v


def causal_mask(bld, scores, q_dim, k_dim):
    """Sets scores[.., q, .., k] to -1e9 where key index k > query index q."""
    ty = bld.elem

    def body(bb, ins, out):
        future = bb.cmpi("ugt", bb.index(k_dim), bb.index(q_dim), "index")
        return bb.select(future, bb.const(NEG_BIG, ty), ins[0], ty)

    return bld.elementwise([scores], body, "mask")


def softmax_last(bld, x, keepdim):
    """Softmax over the last dim as max / sub+exp / sum / div generics."""
    ty = bld.elem
    rank = len(x.shape)
    mx = reduce_last(bld, x, keepdim, -math.inf, "arith.maximumf", hint="max")
    smap = stat_map(bld, rank, keepdim)

    def exp_body(bb, ins, out):
        return bb.un("math.exp", bb.bin("arith.subf", ins[0], ins[1], ty), ty)

    ex = bld.generic([(x, bld.identity(rank)), (mx, smap)], bld.empty(x.shape), bld.identity(rank),
                     ["parallel"] * rank, exp_body, "exp")
    total = reduce_last(bld, ex, keepdim, 0.0, "arith.addf", hint="sum")

    def div_body(bb, ins, out):
        return bb.bin("arith.divf", ins[0], ins[1], ty)

    return bld.generic([(ex, bld.identity(rank)), (total, smap)], bld.empty(x.shape), bld.identity(rank),
                       ["parallel"] * rank, div_body, "softmax")


# ---------------------------------------------------------------------------
# Blocks of the per-rank TP form
# ---------------------------------------------------------------------------


def linear(bld, x, w, cfg):
    """x [L0, L1, k] @ w [k, n] -> [L0, L1, n].

    With --flatten: collapse to [L0*L1, k], linalg.matmul, expand back (as
    PyTorch exporters do); otherwise one contraction generic. --linear
    bmm-broadcast / bmm-copy: ONNX MatMul as torch-mlir's ONNX importer
    writes it, a linalg.batch_matmul over L0 whose right operand copies w
    once per L0 index (by linalg.broadcast, or by a copying generic).
    """
    l0, l1, _ = x.shape
    n = w.shape[1]
    # --mixed-bf16: bf16 weights and the input truncated to bf16, the
    # product accumulated in f32 (autocast's linear, as mixed-precision
    # exports write it: extf in the body, or a matmul of bf16 into f32).
    acc = None
    if cfg.mixed_bf16:
        x, acc = narrow(bld, x, "bf16"), "f32"
    if cfg.linear != "default":
        if cfg.linear == "bmm-broadcast":
            copies = bld.broadcast(w, l0)
        else:
            copies = bld.generic([(w, bld.amap(3, [1, 2]))], bld.empty((l0,) + tuple(w.shape), w.elem),
                                 bld.identity(3), ["parallel"] * 3, lambda bb, ins, out: ins[0], "wcopy")
        return narrow(bld, bld.batch_matmul(x, copies, acc))
    if cfg.flatten:
        flat = bld.collapse(x, [[0, 1], [2]])
        mm = narrow(bld, bld.matmul(flat, w, acc))
        return bld.expand(mm, [[0, 1], [2]], (l0, l1, n))
    return narrow(bld, bld.contract(x, [0, 1, 3], w, [3, 2], (l0, l1, n), 1, "lin", acc))


def narrow(bld, x, elem=None):
    """x truncated to `elem` (default the program's element type; x itself
    when of it)."""
    elem = elem or bld.elem
    if x.elem == elem:
        return x
    rank = len(x.shape)
    return bld.generic([(x, bld.identity(rank))], bld.empty(x.shape, elem), bld.identity(rank), ["parallel"] * rank,
                       lambda bb, ins, out: bb.cast("arith.truncf", ins[0], x.elem, elem), "trunc")


def rope(bld, x, n_heads, cfg, inverse=False):
    """Rotary embedding (rotate-half) of x [L0, L1, n_heads*d] -> [L0, L1, n_heads, d].

    The angle pos * theta^(-2i/d) is computed in the body from `linalg.index` of
    the sequence loop (pos) and of the frequency loop (i), in f32. `inverse`
    rotates by minus the angle: the transpose of the rotation, i.e. RoPE's
    backward (bench/gen_train_graph.py).
    """
    l0, l1, _ = x.shape
    d, half = cfg.d, cfg.d // 2
    x5 = bld.expand(x, [[0], [1], [2, 3, 4]], (l0, l1, n_heads, 2, half))
    sizes = [l0, l1, n_heads, 1, half]
    x1 = bld.extract_slice(x5, [0, 0, 0, 0, 0], sizes, (l0, l1, n_heads, half))
    x2 = bld.extract_slice(x5, [0, 0, 0, 1, 0], sizes, (l0, l1, n_heads, half))
    ty = bld.elem
    log_theta = math.log(cfg.rope_theta)

    # The angle is computed in f32; the rotation in f32, or in f64 for f64
    # programs (the finite-difference checks of bench/gen_train_graph.py).
    cty = "f64" if ty == "f64" else "f32"

    def body(bb, ins, out):
        a = ins[0] if ty == cty else bb.cast("arith.extf", ins[0], ty, cty)
        b = ins[1] if ty == cty else bb.cast("arith.extf", ins[1], ty, cty)
        pos = bb.index_f32(cfg.seq_dim)
        freq = bb.index_f32(4)
        inv = bb.un("math.exp", bb.bin("arith.mulf", freq, bb.const(-2.0 * log_theta / d, "f32"), "f32"), "f32")
        ang = bb.bin("arith.mulf", pos, inv, "f32")
        c = bb.un("math.cos", ang, "f32")
        s = bb.un("math.sin", ang, "f32")
        if cty != "f32":
            c, s = bb.cast("arith.extf", c, "f32", cty), bb.cast("arith.extf", s, "f32", cty)
        if inverse:
            s = bb.un("arith.negf", s, cty)
        first = bb.bin("arith.subf", bb.bin("arith.mulf", a, c, cty), bb.bin("arith.mulf", b, s, cty), cty)
        second = bb.bin("arith.addf", bb.bin("arith.mulf", b, c, cty), bb.bin("arith.mulf", a, s, cty), cty)
        is_first = bb.cmpi("eq", bb.index(3), bb.iconst(0, "index"), "index")
        r = bb.select(is_first, first, second, cty)
        return r if ty == cty else bb.cast("arith.truncf", r, cty, ty)

    in_map = bld.amap(5, [0, 1, 2, 4])
    r = bld.generic([(x1, in_map), (x2, in_map)], bld.empty(x5.shape), bld.identity(5),
                    ["parallel"] * 5, body, "rope")
    return bld.collapse(r, [[0], [1], [2], [3, 4]])


def heads(bld, x, n_heads, cfg, use_rope):
    """Views x [L0, L1, n_heads*d] as [L0, L1, n_heads, d] (applying RoPE if asked)."""
    if use_rope:
        return rope(bld, x, n_heads, cfg)
    l0, l1, _ = x.shape
    return bld.expand(x, [[0], [1], [2, 3]], (l0, l1, n_heads, cfg.d))


def repeat_kv(bld, x, groups):
    """GQA: repeats each KV head `groups` times, [b, kv, m, n] -> [b*kv*groups, m, n]."""
    b, kv, m, n = x.shape
    rep = bld.generic([(x, bld.amap(5, [0, 1, 3, 4]))], bld.empty((b, kv, groups, m, n)), bld.identity(5),
                      ["parallel"] * 5, lambda bb, ins, out: ins[0], "rep")
    return bld.collapse(rep, [[0, 1, 2], [3], [4]])


def attention_tp(bld, q, k, v, n_heads, n_kv, cfg, causal, use_rope):
    """Per-rank multi-head attention on [L0, L1, heads*d] projections.

    Heads are made explicit, transposed to [b, heads, s, d], collapsed to
    [b*heads, s, d] for batch_matmul; K/V heads are repeated for GQA. Returns
    [L0, L1, n_heads*d] in the activation layout.
    """
    if cfg.new_attention_forms:
        return attention_forms(bld, q, k, v, n_heads, n_kv, cfg, causal, use_rope)
    bsh = cfg.layout == "bsh"
    to_bhsd = (0, 2, 1, 3) if bsh else (1, 2, 0, 3)
    to_bhds = (0, 2, 3, 1) if bsh else (1, 2, 3, 0)
    q4 = bld.transpose(heads(bld, q, n_heads, cfg, use_rope), to_bhsd)
    k4 = bld.transpose(heads(bld, k, n_kv, cfg, use_rope), to_bhds)
    v4 = bld.transpose(heads(bld, v, n_kv, cfg, False), to_bhsd)
    groups = n_heads // n_kv
    qb = bld.collapse(q4, [[0, 1], [2], [3]])
    if groups > 1:
        kb, vb = repeat_kv(bld, k4, groups), repeat_kv(bld, v4, groups)
    else:
        kb, vb = bld.collapse(k4, [[0, 1], [2], [3]]), bld.collapse(v4, [[0, 1], [2], [3]])
    scores = scale(bld, bld.batch_matmul(qb, kb), 1.0 / math.sqrt(cfg.d))
    if causal:
        scores = causal_mask(bld, scores, 1, 2)
    probs = softmax_last(bld, scores, keepdim=True)
    if cfg.attn_dropout:
        probs = dropout(bld, probs, DROPOUT_P, cfg)
    o = bld.batch_matmul(probs, vb)
    o4 = bld.expand(o, [[0, 1], [2], [3]], (cfg.b, n_heads, cfg.s, cfg.d))
    back = bld.transpose(o4, (0, 2, 1, 3) if bsh else (2, 0, 1, 3))
    return bld.collapse(back, [[0], [1], [2, 3]])


# ---------------------------------------------------------------------------
# Attention as other frontends write it (--logits, --pv, --gqa-repeat,
# --softmax, --mask): the same function as attention_tp's default form (a
# tile of K/V heads and the masks aside, which change it), written the ways
# torch-mlir, JAX-style einsums and hand-written exports do, so that the
# randomized test (scripts/random-diff.sh) checks that seqpar raises each.
# ---------------------------------------------------------------------------

PADDING_MASKS = ("pad", "pad-min", "pad-body", "causal-pad")
FINFO_MIN = {"f32": -3.4028234663852886e38, "bf16": -3.3895313892515355e38}
PAD_BIG = -1.0e4  # Hugging Face's (1 - mask) * -10000


def repeat_kv_form(bld, x, groups, style):
    """GQA repeat of x [b, kv, m, n] to [b*kv*groups, m, n] in `style`:
    zero-add (+ a broadcast zero constant), broadcast (linalg.broadcast +
    collapse), concat (along a new dim, collapsed), index-select (a gather
    at a constant index list), gather (at h floordiv groups, computed), or
    concat-tile (along the heads: query head h reads K/V head h mod kv,
    another function than the others, which read h floordiv groups)."""
    b, kv, m, n = x.shape
    a = kv * groups
    ty = x.elem
    five = (b, kv, groups, m, n)
    if style == "generic":
        return repeat_kv(bld, x, groups)
    if style in ("zero-add", "concat"):
        x5 = bld.expand(x, [[0], [1, 2], [3], [4]], (b, kv, 1, m, n))
        if style == "zero-add":
            z = Val(bld.fresh("zeros"), five, ty)
            bld.emit(f"{z.name} = arith.constant dense<0.000000e+00> : {z.type}")
            r = bld.generic([(x5, bld.amap(5, [0, 1, "0", 3, 4])), (z, bld.identity(5))], bld.empty(five),
                            bld.identity(5), ["parallel"] * 5,
                            lambda bb, ins, out: bb.bin("arith.addf", ins[0], ins[1], ty), "rep")
        else:
            r = Val(bld.fresh("cat"), five, ty)
            parts = ", ".join([x5.name] * groups)
            types = ", ".join([x5.type] * groups)
            bld.emit(f"{r.name} = tensor.concat dim(2) {parts} : ({types}) -> {r.type}")
        return bld.collapse(r, [[0, 1, 2], [3], [4]])
    if style == "broadcast":
        e = bld.empty(five, ty)
        r = Val(bld.fresh("bc"), five, ty)
        bld.emit(f"{r.name} = linalg.broadcast ins({x.name} : {x.type}) outs({e.name} : {e.type}) dimensions = [2]")
        return bld.collapse(r, [[0, 1, 2], [3], [4]])
    if style == "concat-tile":
        r = Val(bld.fresh("tile"), (b, a, m, n), ty)
        parts = ", ".join([x.name] * groups)
        types = ", ".join([x.type] * groups)
        bld.emit(f"{r.name} = tensor.concat dim(1) {parts} : ({types}) -> {r.type}")
        return bld.collapse(r, [[0, 1], [2], [3]])

    def gather(bb, head):
        idx = ", ".join([bb.index(0), head, bb.index(2), bb.index(3)])
        return bb._op("x", f"tensor.extract {x.name}[{idx}] : {x.type}")

    if style == "index-select":
        table = Val(bld.fresh("heads"), (a,), "i64")
        bld.emit(f"{table.name} = arith.constant dense<[{', '.join(str(h // groups) for h in range(a))}]> : "
                 f"{table.type}")
        r = bld.generic([(table, bld.amap(4, [1]))], bld.empty((b, a, m, n), ty), bld.identity(4),
                        ["parallel"] * 4,
                        lambda bb, ins, out: gather(bb, bb.cast("arith.index_cast", ins[0], "i64", "index")), "sel")
    elif style == "gather":
        r = bld.generic([], bld.empty((b, a, m, n), ty), bld.identity(4), ["parallel"] * 4,
                        lambda bb, ins, out: gather(bb, bb.bin("arith.divui", bb.index(1),
                                                                bb.iconst(groups, "index"), "index")), "gat")
    else:
        raise ValueError(style)
    return bld.collapse(r, [[0, 1], [2], [3]])


def masked_logits(bld, scores, cfg, causal):
    """scores [b, a, s, t] scaled by 1/sqrt(d) and masked as --mask says;
    the padding masks read the integer attention mask bld.attn_mask [b, s]
    (1: attend, 0: padding). A causal model keeps its causal select,
    before an added padding mask as Hugging Face's GPT-2 writes it (in the
    scale op's body for pad-body); causal-pad, window and window-body
    replace it."""
    ty = bld.elem
    c = 1.0 / math.sqrt(cfg.d)
    b, _, s, t = scores.shape
    m = getattr(bld, "attn_mask", None)
    lowest = FINFO_MIN[ty]
    kind = cfg.mask
    keys = bld.amap(4, [0, 3])
    if kind == "pad-body":
        def body(bb, ins, out):
            y = bb.bin("arith.mulf", ins[0], bb.const(c, ty), ty)
            if causal:
                future = bb.cmpi("ugt", bb.index(3), bb.index(2), "index")
                y = bb.select(future, bb.const(NEG_BIG, ty), y, ty)
            inv = bb.bin("arith.subf", bb.const(1.0, ty), bb.cast("arith.sitofp", ins[1], "i64", ty), ty)
            return bb.bin("arith.addf", y, bb.bin("arith.mulf", inv, bb.const(PAD_BIG, ty), ty), ty)
        return bld.generic([(scores, bld.identity(4)), (m, keys)], bld.empty(scores.shape), bld.identity(4),
                           ["parallel"] * 4, body, "padb")
    elif kind == "window-body":
        def body(bb, ins, out):
            i, j = bb.index(2), bb.index(3)
            future = bb.cmpi("ugt", j, i, "index")
            far = bb.cmpi("ule", bb.bin("arith.addi", j, bb.iconst(cfg.window, "index"), "index"), i, "index")
            hide = bb.bin("arith.ori", future, far, "i1")
            y = bb.bin("arith.mulf", ins[0], bb.const(c, ty), ty)
            return bb.select(hide, bb.const(-math.inf, ty), y, ty)
        return bld.generic([(scores, bld.identity(4))], bld.empty(scores.shape), bld.identity(4),
                           ["parallel"] * 4, body, "winb")
    x = scale(bld, scores, c)
    if causal and kind in ("pad", "pad-min"):
        x = causal_mask(bld, x, 2, 3)
    if kind == "pad":
        # (1 - float(m)) * -1e4 in three generics, as torch-mlir lowers it.
        mf = bld.generic([(m, bld.identity(2))], bld.empty((b, t)), bld.identity(2), ["parallel"] * 2,
                         lambda bb, ins, out: bb.cast("arith.sitofp", ins[0], "i64", ty), "mf")
        inv = bld.elementwise([mf], lambda bb, ins, out: bb.bin("arith.subf", bb.const(1.0, ty), ins[0], ty), "inv")
        pad = bld.elementwise([inv], lambda bb, ins, out: bb.bin("arith.mulf", ins[0], bb.const(PAD_BIG, ty), ty),
                              "pad")
        pad4 = bld.expand(pad, [[0, 1, 2], [3]], (b, 1, 1, t))
        x = bld.elementwise([x, pad4], lambda bb, ins, out: bb.bin("arith.addf", ins[0], ins[1], ty), "masked",
                            broadcast={1: [0, "0", "0", 3]})
    elif kind == "pad-min":
        def body(bb, ins, out):
            keep = bb.cmpi("ne", ins[0], bb.iconst(0), "i64")
            return bb.select(keep, bb.const(0.0, ty), bb.const(lowest, ty), ty)
        minf = bld.generic([(m, bld.identity(2))], bld.empty((b, t)), bld.identity(2), ["parallel"] * 2, body, "minf")
        e = bld.empty((b, 1, s, t))
        full = Val(bld.fresh("bmask"), e.shape, ty)
        bld.emit(f"{full.name} = linalg.broadcast ins({minf.name} : {minf.type}) outs({e.name} : {e.type}) "
                 f"dimensions = [1, 2]")
        x = bld.elementwise([x, full], lambda bb, ins, out: bb.bin("arith.addf", ins[0], ins[1], ty), "masked",
                            broadcast={1: [0, "0", 2, 3]})
    elif kind == "causal-pad":
        def body(bb, ins, out):
            past = bb.cmpi("ule", bb.index(3), bb.index(2), "index")
            keep = bb.cmpi("ne", ins[0], bb.iconst(0), "i64")
            vis = bb.bin("arith.andi", past, keep, "i1")
            return bb.select(vis, bb.const(0.0, ty), bb.const(lowest, ty), ty)
        both = bld.generic([(m, keys)], bld.empty((b, 1, s, t)), bld.identity(4), ["parallel"] * 4, body, "cpad")
        return bld.elementwise([x, both], lambda bb, ins, out: bb.bin("arith.addf", ins[0], ins[1], ty), "masked",
                               broadcast={1: [0, "0", 2, 3]})
    elif kind == "window":
        def body(bb, ins, out):
            i, j = bb.index(0), bb.index(1)
            past = bb.cmpi("ule", j, i, "index")
            near = bb.cmpi("ugt", bb.bin("arith.addi", j, bb.iconst(cfg.window, "index"), "index"), i, "index")
            vis = bb.bin("arith.andi", past, near, "i1")
            return bb.select(vis, bb.const(0.0, ty), bb.const(-math.inf, ty), ty)
        win = bld.generic([], bld.empty((s, t)), bld.identity(2), ["parallel"] * 2, body, "win")
        return bld.elementwise([x, win], lambda bb, ins, out: bb.bin("arith.addf", ins[0], ins[1], ty), "masked",
                               broadcast={1: [2, 3]})
    elif kind == "none" and causal:
        x = causal_mask(bld, x, 2, 3)
    return x


def softmax_form(bld, x, style):
    """Softmax over the last dim of x as --softmax says: generics (max /
    exp / sum / div), linalg (linalg.softmax), lse (exp(x - (max +
    log(sum)))), log-softmax (exp of (x - max) - log(sum)) or reciprocal
    (e * (1 / sum), the reciprocal in the multiplying op's body)."""
    ty = bld.elem
    rank = len(x.shape)
    ident = bld.identity(rank)
    par = ["parallel"] * rank
    if style == "generics":
        return softmax_last(bld, x, keepdim=True)
    if style == "linalg":
        e = bld.empty(x.shape)
        v = Val(bld.fresh("smx"), x.shape, ty)
        bld.emit(f"{v.name} = linalg.softmax dimension({rank - 1}) ins({x.name} : {x.type}) "
                 f"outs({e.name} : {e.type}) -> {v.type}")
        return v
    smap = stat_map(bld, rank, True)
    mx = reduce_last(bld, x, True, -math.inf, "arith.maximumf", hint="max")
    if style == "log-softmax":
        sh = bld.generic([(x, ident), (mx, smap)], bld.empty(x.shape), ident, par,
                         lambda bb, ins, out: bb.bin("arith.subf", ins[0], ins[1], ty), "shift")
        ex = bld.elementwise([sh], lambda bb, ins, out: bb.un("math.exp", ins[0], ty), "exp")
        total = reduce_last(bld, ex, True, 0.0, "arith.addf", hint="sum")
        ls = bld.elementwise([total], lambda bb, ins, out: bb.un("math.log", ins[0], ty), "log")
        lsm = bld.generic([(sh, ident), (ls, smap)], bld.empty(x.shape), ident, par,
                          lambda bb, ins, out: bb.bin("arith.subf", ins[0], ins[1], ty), "lsm")
        return bld.elementwise([lsm], lambda bb, ins, out: bb.un("math.exp", ins[0], ty), "softmax")
    ex = bld.generic([(x, ident), (mx, smap)], bld.empty(x.shape), ident, par,
                     lambda bb, ins, out: bb.un("math.exp", bb.bin("arith.subf", ins[0], ins[1], ty), ty), "exp")
    total = reduce_last(bld, ex, True, 0.0, "arith.addf", hint="sum")
    if style == "lse":
        lse = bld.elementwise([mx, total], lambda bb, ins, out: bb.bin(
            "arith.addf", ins[0], bb.un("math.log", ins[1], ty), ty), "lse")
        return bld.generic([(x, ident), (lse, smap)], bld.empty(x.shape), ident, par,
                           lambda bb, ins, out: bb.un("math.exp", bb.bin("arith.subf", ins[0], ins[1], ty), ty),
                           "softmax")
    if style == "reciprocal":
        def body(bb, ins, out):
            r = bb.bin("arith.divf", bb.const(1.0, ty), ins[1], ty)
            return bb.bin("arith.mulf", ins[0], r, ty)
        return bld.generic([(ex, ident), (total, smap)], bld.empty(x.shape), ident, par, body, "softmax")
    raise ValueError(style)


def attention_forms(bld, q, k, v, n_heads, n_kv, cfg, causal, use_rope):
    """attention_tp in the forms cfg names (see the section's comment)."""
    bsh = cfg.layout == "bsh"
    to_bhsd = (0, 2, 1, 3) if bsh else (1, 2, 0, 3)
    b, s, d, ty = cfg.b, cfg.s, cfg.d, bld.elem
    q4 = bld.transpose(heads(bld, q, n_heads, cfg, use_rope), to_bhsd)
    k4 = bld.transpose(heads(bld, k, n_kv, cfg, use_rope), to_bhsd)
    v4 = bld.transpose(heads(bld, v, n_kv, cfg, False), to_bhsd)
    groups = n_heads // n_kv
    qb = bld.collapse(q4, [[0, 1], [2], [3]])
    if groups > 1:
        kb, vb = (repeat_kv_form(bld, x, groups, cfg.gqa_repeat) for x in (k4, v4))
    else:
        kb, vb = bld.collapse(k4, [[0, 1], [2], [3]]), bld.collapse(v4, [[0, 1], [2], [3]])
    n = b * n_heads

    def mac(bb, ins, out):
        return bb.bin("arith.addf", out, bb.bin("arith.mulf", ins[0], ins[1], ty), ty)

    if cfg.logits == "kq":
        # K.Q^T, K the first operand: loops (n, j, i, e) into [n, i, j].
        init = bld.zero_init((n, s, s))
        scores = bld.generic([(kb, bld.amap(4, [0, 1, 3])), (qb, bld.amap(4, [0, 2, 3]))], init,
                             bld.amap(4, [0, 2, 1]), ["parallel"] * 3 + ["reduction"], mac, "kq")
    else:
        scores = bld.batch_matmul(qb, bld.transpose(kb, (0, 2, 1)))
    four = cfg.mask != "none" or cfg.pv != "bmm"
    if four:
        # Logits [b, a, s, t], as a 4-D matmul's exported result is.
        logits = masked_logits(bld, bld.expand(scores, [[0, 1], [2], [3]], (b, n_heads, s, s)), cfg, causal)
    else:
        logits = scale(bld, scores, 1.0 / math.sqrt(d))
        if causal:
            logits = causal_mask(bld, logits, 1, 2)
    probs = softmax_form(bld, logits, cfg.softmax)
    if cfg.pv == "bmm":
        if four:
            probs = bld.collapse(probs, [[0, 1], [2], [3]])
        o = bld.batch_matmul(probs, vb)
        o4 = bld.expand(o, [[0, 1], [2], [3]], (b, n_heads, s, d))
        back = bld.transpose(o4, (0, 2, 1, 3) if bsh else (2, 0, 1, 3))
        return bld.collapse(back, [[0], [1], [2, 3]])
    v4r = bld.expand(vb, [[0, 1], [2], [3]], (b, n_heads, s, d))
    its = ["parallel"] * 4 + ["reduction"]
    if cfg.pv == "token-major":
        # P.V written straight into the activation layout: loops (b, h, i, e, j).
        shape = (b, s, n_heads, d) if bsh else (s, b, n_heads, d)
        o = bld.generic([(probs, bld.amap(5, [0, 1, 2, 4])), (v4r, bld.amap(5, [0, 1, 4, 3]))],
                        bld.zero_init(shape), bld.amap(5, [0, 2, 1, 3] if bsh else [2, 0, 1, 3]), its, mac, "pv")
        return bld.collapse(o, [[0], [1], [2, 3]])
    # V^T.P^T: loops (b, h, e, i, j) into [b, a, d, s].
    o = bld.generic([(v4r, bld.amap(5, [0, 1, 4, 2])), (probs, bld.amap(5, [0, 1, 3, 4]))],
                    bld.zero_init((b, n_heads, d, s)), bld.amap(5, [0, 1, 2, 3]), its, mac, "vt")
    back = bld.transpose(o, (0, 3, 1, 2) if bsh else (3, 0, 1, 2))
    return bld.collapse(back, [[0], [1], [2, 3]])


def row_parallel_out(bld, x, w, bias, cfg):
    """Row-parallel linear: matmul, all_reduce, + bias, dropout (each if present)."""
    y = bld.all_reduce(linear(bld, x, w, cfg))
    if bias is not None:
        y = add_bias(bld, y, bias)
    if cfg.dropout:
        y = dropout(bld, y, DROPOUT_P, cfg)
    return y


class ArgList:
    """Function arguments of the per-rank program, in single-device order."""

    def __init__(self, elem):
        """Creates an empty argument list for element type `elem`."""
        self.elem = elem
        self.args = []

    def add(self, name, shape, attrs, elem=None):
        """Adds argument %name of `shape` with the attribute dict text `attrs`."""
        v = Val(f"%{name}", tuple(shape), elem or self.elem)
        self.args.append((v, attrs))
        return v

    def weight(self, name, shape, sharding):
        """Adds a weight argument with its seqpar.sharding attribute (a
        linear's, 2-D, of element type self.linear_elem when set)."""
        elem = getattr(self, "linear_elem", None) if len(shape) == 2 else None
        return self.add(name, shape, f"{{seqpar.sharding = {sharding}}}", elem)

    def signature(self):
        """The argument list text of the func.func."""
        return ",\n      ".join(f"{v.name}: {v.type} {a}" for v, a in self.args)


def gpt_layer(bld, args, x, i, cfg):
    """One pre-norm GPT-2 layer (fused QKV, causal attention, GELU MLP)."""
    h, t, f = cfg.h, cfg.t, cfg.f
    hr = h // t
    p = f"l{i}_"
    ln1_g = args.weight(p + "ln1_g", (h,), SH_REPL)
    ln1_b = args.weight(p + "ln1_b", (h,), SH_REPL)
    w_qkv = args.weight(p + "w_qkv", (h, 3 * hr), SH_QKV_W)
    b_qkv = args.weight(p + "b_qkv", (3 * hr,), SH_QKV_B)
    w_o = args.weight(p + "w_o", (hr, h), SH_ROW_W)
    b_o = args.weight(p + "b_o", (h,), SH_REPL)
    ln2_g = args.weight(p + "ln2_g", (h,), SH_REPL)
    ln2_b = args.weight(p + "ln2_b", (h,), SH_REPL)
    w_fc1 = args.weight(p + "w_fc1", (h, f // t), SH_COL_W)
    b_fc1 = args.weight(p + "b_fc1", (f // t,), SH_COL_B)
    w_fc2 = args.weight(p + "w_fc2", (f // t, h), SH_ROW_W)
    b_fc2 = args.weight(p + "b_fc2", (h,), SH_REPL)

    y = layer_norm(bld, x, ln1_g, ln1_b, cfg.eps, keepdim=True)
    qkv = add_bias(bld, linear(bld, y, w_qkv, cfg), b_qkv)
    l0, l1, _ = qkv.shape
    q, k, v = (bld.extract_slice(qkv, [0, 0, j * hr], [l0, l1, hr], (l0, l1, hr)) for j in range(3))
    a_r = cfg.a // t
    att = attention_tp(bld, q, k, v, a_r, a_r, cfg, causal=True, use_rope=False)
    x = residual_add(bld, x, row_parallel_out(bld, att, w_o, b_o, cfg))

    y = layer_norm(bld, x, ln2_g, ln2_b, cfg.eps, keepdim=True)
    m = gelu_tanh(bld, add_bias(bld, linear(bld, y, w_fc1, cfg), b_fc1))
    return residual_add(bld, x, row_parallel_out(bld, m, w_fc2, b_fc2, cfg))


def llama_layer(bld, args, x, i, cfg):
    """One Llama layer (RMSNorm, GQA with RoPE, SwiGLU MLP, no biases)."""
    h, t, d = cfg.h, cfg.t, cfg.d
    a_r, kv_r = cfg.a // t, cfg.a_kv // t
    fr = cfg.f // t
    p = f"l{i}_"
    g_attn = args.weight(p + "attn_norm_g", (h,), SH_REPL)
    w_q = args.weight(p + "w_q", (h, a_r * d), SH_COL_W)
    w_k = args.weight(p + "w_k", (h, kv_r * d), SH_COL_W)
    w_v = args.weight(p + "w_v", (h, kv_r * d), SH_COL_W)
    w_o = args.weight(p + "w_o", (a_r * d, h), SH_ROW_W)
    g_mlp = args.weight(p + "mlp_norm_g", (h,), SH_REPL)
    w_gate = args.weight(p + "w_gate", (h, fr), SH_COL_W)
    w_up = args.weight(p + "w_up", (h, fr), SH_COL_W)
    w_down = args.weight(p + "w_down", (fr, h), SH_ROW_W)

    y = rms_norm(bld, x, g_attn, cfg.eps, keepdim=True)
    q, k, v = linear(bld, y, w_q, cfg), linear(bld, y, w_k, cfg), linear(bld, y, w_v, cfg)
    att = attention_tp(bld, q, k, v, a_r, kv_r, cfg, causal=True, use_rope=True)
    x = residual_add(bld, x, row_parallel_out(bld, att, w_o, None, cfg))

    y = rms_norm(bld, x, g_mlp, cfg.eps, keepdim=True)
    m = swiglu(bld, linear(bld, y, w_gate, cfg), linear(bld, y, w_up, cfg))
    return residual_add(bld, x, row_parallel_out(bld, m, w_down, None, cfg))


def bert_layer(bld, args, x, i, cfg):
    """One post-norm BERT layer (separate Q/K/V with biases, no mask, GELU MLP)."""
    h, t, f = cfg.h, cfg.t, cfg.f
    hr = h // t
    p = f"l{i}_"
    w = {}
    for n in ("q", "k", "v"):
        w["w_" + n] = args.weight(p + "w_" + n, (h, hr), SH_COL_W)
        w["b_" + n] = args.weight(p + "b_" + n, (hr,), SH_COL_B)
    w_o = args.weight(p + "w_o", (hr, h), SH_ROW_W)
    b_o = args.weight(p + "b_o", (h,), SH_REPL)
    ln1_g = args.weight(p + "ln1_g", (h,), SH_REPL)
    ln1_b = args.weight(p + "ln1_b", (h,), SH_REPL)
    w_fc1 = args.weight(p + "w_fc1", (h, f // t), SH_COL_W)
    b_fc1 = args.weight(p + "b_fc1", (f // t,), SH_COL_B)
    w_fc2 = args.weight(p + "w_fc2", (f // t, h), SH_ROW_W)
    b_fc2 = args.weight(p + "b_fc2", (h,), SH_REPL)
    ln2_g = args.weight(p + "ln2_g", (h,), SH_REPL)
    ln2_b = args.weight(p + "ln2_b", (h,), SH_REPL)

    q, k, v = (add_bias(bld, linear(bld, x, w["w_" + n], cfg), w["b_" + n]) for n in ("q", "k", "v"))
    a_r = cfg.a // t
    att = attention_tp(bld, q, k, v, a_r, a_r, cfg, causal=False, use_rope=False)
    x = residual_add(bld, x, row_parallel_out(bld, att, w_o, b_o, cfg))
    x = layer_norm(bld, x, ln1_g, ln1_b, cfg.eps, keepdim=True)

    m = gelu_tanh(bld, add_bias(bld, linear(bld, x, w_fc1, cfg), b_fc1))
    x = residual_add(bld, x, row_parallel_out(bld, m, w_fc2, b_fc2, cfg))
    return layer_norm(bld, x, ln2_g, ln2_b, cfg.eps, keepdim=True)


def build_tp(cfg):
    """Returns (builder, func text) of the per-rank TP program."""
    bld = Builder(cfg.elem, cfg.init)
    args = ArgList(cfg.elem)
    if cfg.mixed_bf16:
        args.linear_elem = "bf16"
    x = args.add("x", cfg.act_shape(cfg.h),
                 f"{{seqpar.sharding = {SH_REPL}, seqpar.seq_dim = {cfg.seq_dim} : i64}}")
    if cfg.mask in PADDING_MASKS:
        # Hugging Face's integer attention mask [b, s]: 1 attend, 0 padding.
        bld.attn_mask = args.add("attn_mask", (cfg.b, cfg.s), f"{{seqpar.sharding = {SH_REPL}}}", "i64")
    layer = {"gpt": gpt_layer, "llama": llama_layer, "bert": bert_layer}[cfg.model]
    for i in range(cfg.layers):
        x = layer(bld, args, x, i, cfg)
    if cfg.model == "gpt":
        g = args.weight("lnf_g", (cfg.h,), SH_REPL)
        b = args.weight("lnf_b", (cfg.h,), SH_REPL)
        x = layer_norm(bld, x, g, b, cfg.eps, keepdim=True)
    elif cfg.model == "llama":
        g = args.weight("norm_g", (cfg.h,), SH_REPL)
        x = rms_norm(bld, x, g, cfg.eps, keepdim=True)
    if cfg.mixed_bf16:
        # A bf16 model's hidden states are bf16 (and seqpar-run compares
        # bf16 results with its bf16 bound against an f32 reference).
        x = narrow(bld, x, "bf16")
    bld.emit(f"return {x.name} : {x.type}")
    head = (f"  func.func @forward(\n      {args.signature()})\n"
            f"      -> ({x.type} {{seqpar.sharding = {SH_REPL}}}) {{")
    return bld, head


# ---------------------------------------------------------------------------
# The upstream (unsharded, shard-annotated) GPT form
# ---------------------------------------------------------------------------


class Annotator:
    """Emits upstream shard.sharding / shard.shard annotations."""

    def __init__(self, bld):
        """Creates an annotator emitting into `bld`."""
        self.bld = bld
        self.shardings = {}

    def sharding(self, split_axes):
        """Returns a (deduplicated) !shard.sharding value for `split_axes` text."""
        if split_axes not in self.shardings:
            name = self.bld.fresh("sharding")
            self.bld.emit(f"{name} = shard.sharding {GRID} split_axes = {split_axes} : !shard.sharding")
            self.shardings[split_axes] = name
        return self.shardings[split_axes]

    def shard(self, v, split_axes, for_users=True):
        """Annotates `v` (for its users, or as its own result) and returns the new value."""
        s = self.sharding(split_axes)
        r = Val(self.bld.fresh("sh"), v.shape, v.elem)
        flag = " annotate_for_users" if for_users else ""
        self.bld.emit(f"{r.name} = shard.shard {v.name} to {s}{flag} : {r.type}")
        return r


def up_attention(bld, y, w, cfg):
    """Unsharded causal attention with explicit head dims (no reshapes).

    q/k/v[b,s,a,d] = y[b,s,h] . W[h,a,d] + b[a,d]; scores[b,a,i,j];
    o[b,i,a,d]; out[b,s,h] = o[b,s,a,d] . Wo[a,d,h] (a reduction over the split
    head dim, which partitions into a partial sum + all_reduce).
    """
    b, s, a, d = cfg.b, cfg.s, cfg.a, cfg.d
    proj = {}
    for n in ("q", "k", "v"):
        p = bld.contract(y, [0, 1, 4], w["w_" + n], [4, 2, 3], (b, s, a, d), 1, "proj")
        proj[n] = add_bias(bld, p, w["b_" + n])
    scores = bld.contract(proj["q"], [0, 2, 1, 4], proj["k"], [0, 3, 1, 4], (b, a, s, s), 1, "scores")
    scores = causal_mask(bld, scale(bld, scores, 1.0 / math.sqrt(d)), 2, 3)
    probs = softmax_last(bld, scores, keepdim=False)
    o = bld.contract(probs, [0, 2, 1, 4], proj["v"], [0, 4, 2, 3], (b, s, a, d), 1, "pv")
    return bld.contract(o, [0, 1, 3, 4], w["w_o"], [3, 4, 2], (b, s, cfg.h), 2, "oproj")


def up_gpt_layer(bld, ann, args, x, i, cfg):
    """One unsharded pre-norm GPT layer with Megatron TP annotations on weights."""
    h, a, d, f = cfg.h, cfg.a, cfg.d, cfg.f
    pre = f"l{i}_"
    # Megatron TP: column-parallel weights split on their output (head / ffn)
    # dim 1, their biases and the row-parallel weights on dim 0.
    dim1, dim0, repl = "[[], [0]]", "[[0]]", "[[]]"

    def arg(name, shape, split):
        """Adds the weight argument `name` and annotates it with `split`."""
        return ann.shard(args.add(pre + name, shape, ""), split)

    ln1_g, ln1_b = arg("ln1_g", (h,), repl), arg("ln1_b", (h,), repl)
    w = {}
    for n in ("q", "k", "v"):
        w["w_" + n] = arg("w_" + n, (h, a, d), dim1)
        w["b_" + n] = arg("b_" + n, (a, d), dim0)
    w["w_o"] = arg("w_o", (a, d, h), dim0)
    b_o = arg("b_o", (h,), repl)
    ln2_g, ln2_b = arg("ln2_g", (h,), repl), arg("ln2_b", (h,), repl)
    w_fc1, b_fc1 = arg("w_fc1", (h, f), dim1), arg("b_fc1", (f,), dim0)
    w_fc2, b_fc2 = arg("w_fc2", (f, h), dim0), arg("b_fc2", (h,), repl)

    y = layer_norm(bld, x, ln1_g, ln1_b, cfg.eps, keepdim=False)
    o = add_bias(bld, up_attention(bld, y, w, cfg), b_o)
    if cfg.dropout:
        o = dropout(bld, o, DROPOUT_P, cfg)
    x = residual_add(bld, x, o)

    y = layer_norm(bld, x, ln2_g, ln2_b, cfg.eps, keepdim=False)
    m = gelu_tanh(bld, add_bias(bld, bld.contract(y, [0, 1, 3], w_fc1, [3, 2], (cfg.b, cfg.s, f), 1, "fc1"),
                                b_fc1))
    m = add_bias(bld, bld.contract(m, [0, 1, 3], w_fc2, [3, 2], (cfg.b, cfg.s, h), 1, "fc2"), b_fc2)
    if cfg.dropout:
        m = dropout(bld, m, DROPOUT_P, cfg)
    return residual_add(bld, x, m)


def build_upstream(cfg):
    """Returns (builder, func header) of the unsharded, shard-annotated GPT."""
    bld = Builder(cfg.elem)
    ann = Annotator(bld)
    args = ArgList(cfg.elem)
    x = ann.shard(args.add("x", cfg.act_shape(cfg.h), ""), "[[]]")
    for i in range(cfg.layers):
        x = up_gpt_layer(bld, ann, args, x, i, cfg)
    g = ann.shard(args.add("lnf_g", (cfg.h,), ""), "[[]]")
    b = ann.shard(args.add("lnf_b", (cfg.h,), ""), "[[]]")
    x = layer_norm(bld, x, g, b, cfg.eps, keepdim=False)
    x = ann.shard(x, "[[]]", for_users=False)
    bld.emit(f"return {x.name} : {x.type}")
    sig = ",\n      ".join(f"{v.name}: {v.type}" for v, _ in args.args)
    head = f"  func.func @forward(\n      {sig})\n      -> {x.type} {{"
    return bld, head


# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------


def render(cfg, command):
    """Returns the whole MLIR module text for `cfg`."""
    bld, head = build_upstream(cfg) if cfg.form == "upstream" else build_tp(cfg)
    out = [f"// {command}",
           f"// model={cfg.model} form={cfg.form} layers={cfg.layers} b={cfg.b} s={cfg.s} h={cfg.h} "
           f"a={cfg.a} a_kv={cfg.a_kv} ffn={cfg.f} tp={cfg.t} dtype={cfg.elem} layout={cfg.layout} "
           f"flatten={int(cfg.flatten)} dropout={int(cfg.dropout)}"]
    out += [f"{alias} = {text}" for text, alias in bld.maps.items()]
    out.append("module {")
    out.append(f'  shard.grid {GRID}(shape = {cfg.t}) {{sym_visibility = "private"}}')
    out.append(head)
    out += ["  " + line for line in bld.lines]
    out.append("  }")
    out.append("}")
    text = "\n".join(out) + "\n"
    return strip_sharding(text) if cfg.form == "plain" else text


def strip_sharding(text):
    """The single-device (tp=1) program without shard ops or sharding
    attributes: the input of seqpar-pipeline's TP planner."""
    text = text.replace('  shard.grid @grid(shape = 1) {sym_visibility = "private"}\n', "")
    text = re.sub(r" \{seqpar\.sharding = #seqpar\.sharding<[^>]*>(, seqpar\.seq_dim = \d+ : i64)?\}",
                  "", text)
    renames = {}

    def drop(match):
        renames[match.group(1)] = match.group(2)
        return ""
    text = re.sub(r"^ *(%[\w.]+) = shard\.all_reduce (%[\w.]+) on @grid grid_axes = \[0\] : .*\n", drop, text,
                  flags=re.M)
    if renames:
        text = re.sub(r"%[\w.]+", lambda m: renames.get(m.group(0), m.group(0)), text)
    return text


def default_ffn(model, h):
    """Default MLP width: 4h (GPT/BERT) or Llama's 8h/3 rounded up to 256."""
    if model == "llama":
        return 256 * -(-int(8 * h / 3) // 256)
    return 4 * h


def parse_args(argv):
    """Parses the command line into a Config (exits with a message if invalid)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", choices=["gpt", "llama", "bert"], default="gpt")
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--batch", type=int, default=2)
    ap.add_argument("--seq", type=int, default=16)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--kv-heads", type=int, default=None, help="KV heads (llama GQA; default: --heads)")
    ap.add_argument("--ffn", type=int, default=None, help="MLP width (default 4h; llama 8h/3 rounded to 256)")
    ap.add_argument("--tp", type=int, default=2, help="tensor-parallel size t (grid axis 0)")
    ap.add_argument("--form", choices=["tp", "upstream", "plain"], default="tp",
                    help="plain: the single-device program (tp=1) without shard ops or sharding attributes")
    ap.add_argument("--dtype", choices=["f32", "bf16"], default="f32")
    ap.add_argument("--layout", choices=["bsh", "sbh"], default=None,
                    help="activation layout (default: sbh for llama, bsh otherwise)")
    ap.add_argument("--flatten", action="store_true", help="collapse [b,s,h]->[b*s,h] around every linear")
    ap.add_argument("--dropout", action="store_true", help=f"position-keyed dropout (p={DROPOUT_P})")
    ap.add_argument("--dropout-op", action="store_true",
                    help="write dropout as seqpar.dropout instead of position-keyed arithmetic")
    ap.add_argument("--attn-dropout", action="store_true",
                    help="dropout on the attention probabilities (tp form; for "
                         "seqpar-report's saved-activation figures: under TP its "
                         "mask is keyed by per-rank positions)")
    ap.add_argument("--seed", type=int, default=1234, help="dropout seed (sites get distinct streams)")
    forms = ap.add_argument_group("forms other frontends write (tp form; the defaults are this generator's own)")
    forms.add_argument("--logits", choices=["qk", "kq"], default="qk",
                       help="kq: the logits as a K.Q^T generic, K the first operand")
    forms.add_argument("--pv", choices=["bmm", "token-major", "vt"], default="bmm",
                       help="P.V as batch_matmul, as a generic written into the activation layout, or as V^T.P^T")
    forms.add_argument("--gqa-repeat", choices=["generic", "zero-add", "broadcast", "concat", "index-select",
                                                 "gather", "concat-tile"], default="generic",
                       help="how GQA repeats K/V heads (concat-tile: query head h reads h mod kv-heads)")
    forms.add_argument("--softmax", choices=["generics", "linalg", "lse", "log-softmax", "reciprocal"],
                       default="generics")
    forms.add_argument("--mask", choices=["none", "pad", "pad-min", "pad-body", "causal-pad", "window",
                                          "window-body"], default="none",
                       help="attention mask; the padding ones take an i64 attention-mask argument [b, s] after x")
    forms.add_argument("--window", type=int, default=3, help="keys a sliding window sees (--mask window*)")
    forms.add_argument("--init", choices=["fill", "const", "cast", "mixed"], default="fill",
                       help="contractions' zero inits: linalg.fill, dense<0.0>, a fill through tensor.cast, in turn")
    forms.add_argument("--linear", choices=["default", "bmm-broadcast", "bmm-copy"], default="default",
                       help="linears as ONNX MatMul imports: a batch_matmul of the weight copied per "
                            "leading index by linalg.broadcast or by a copying generic (default: --flatten's form)")
    forms.add_argument("--mixed-bf16", action="store_true",
                       help="bf16 linear weights, each linear's input truncated to bf16 and its product "
                            "accumulated in f32 (the rest f32), the result truncated to bf16")
    ap.add_argument("-o", "--output", default="-", help="output file (default stdout)")
    ns = ap.parse_args(argv)

    a_kv = ns.kv_heads if ns.kv_heads is not None else ns.heads
    layout = ns.layout or ("sbh" if ns.model == "llama" else "bsh")
    cfg = Config(model=ns.model, layers=ns.layers, b=ns.batch, s=ns.seq, h=ns.hidden, a=ns.heads, a_kv=a_kv,
                 f=ns.ffn if ns.ffn is not None else default_ffn(ns.model, ns.hidden), t=ns.tp, form=ns.form, elem=ns.dtype,
                 layout=layout, flatten=ns.flatten, dropout=ns.dropout or ns.dropout_op, seed=ns.seed,
                 dropout_op=ns.dropout_op, attn_dropout=ns.attn_dropout, logits=ns.logits, pv=ns.pv,
                 gqa_repeat=ns.gqa_repeat, softmax=ns.softmax, mask=ns.mask, window=ns.window, init=ns.init,
                 mixed_bf16=ns.mixed_bf16, linear=ns.linear)
    err = validate(cfg)
    if err:
        ap.error(err)
    return cfg, ns.output


def validate(cfg):
    """Returns an error message if `cfg` cannot be emitted, else None."""
    positive = {"layers": cfg.layers, "batch": cfg.b, "seq": cfg.s, "hidden": cfg.h, "heads": cfg.a,
                "kv-heads": cfg.a_kv, "ffn": cfg.f, "tp": cfg.t}
    for name, value in positive.items():
        if value < 1:
            return f"--{name} must be positive (got {value})"
    if cfg.h % cfg.a:
        return f"hidden {cfg.h} is not divisible by heads {cfg.a}"
    if cfg.a_kv != cfg.a and cfg.model != "llama":
        return "--kv-heads (GQA) is only supported for --model llama"
    if cfg.a % cfg.a_kv:
        return f"heads {cfg.a} is not divisible by kv-heads {cfg.a_kv}"
    if cfg.form == "plain" and cfg.t != 1:
        return "--form plain is the single-device program: use --tp 1"
    if cfg.form == "tp":
        for name, value in (("heads", cfg.a), ("kv-heads", cfg.a_kv), ("ffn", cfg.f)):
            if value % cfg.t:
                return f"{name} {value} is not divisible by tp {cfg.t} (each rank holds {name}/tp)"
    if cfg.model == "llama" and cfg.d % 2:
        return f"head dim {cfg.d} must be even for RoPE"
    if cfg.mask in ("causal-pad", "window", "window-body") and cfg.model == "bert":
        return f"--mask {cfg.mask} is causal: not for --model bert"
    if cfg.window < 1:
        return f"--window must be positive (got {cfg.window})"
    if cfg.mixed_bf16 and cfg.elem != "f32":
        return "--mixed-bf16 is an f32 program with bf16 linears: not with --dtype bf16"
    if cfg.gqa_repeat == "concat-tile" and cfg.a_kv != cfg.a and cfg.t > 1:
        return ("--gqa-repeat concat-tile needs --tp 1: query head h reads K/V head h mod kv-heads, "
                "which Megatron's head split does not give the rank of h")
    if cfg.form == "upstream":
        if cfg.new_attention_forms or cfg.init != "fill" or cfg.mixed_bf16 or cfg.linear != "default":
            return "--form upstream takes none of the forms options"
        if cfg.model != "gpt":
            return "--form upstream is only available for --model gpt"
        if cfg.flatten or cfg.layout != "bsh":
            return "--form upstream takes neither --flatten nor --layout sbh (upstream cannot partition reshapes)"
        if cfg.a % cfg.t or cfg.f % cfg.t:
            return f"heads {cfg.a} and ffn {cfg.f} must be divisible by tp {cfg.t}"
    return None


def command_line(argv):
    """The regenerating command, with the script path relative to the repo root."""
    script = os.path.abspath(sys.argv[0])
    root = os.path.dirname(os.path.dirname(script))
    rel = os.path.relpath(script, root) if os.path.basename(os.path.dirname(script)) == "bench" else sys.argv[0]
    return shlex.join(["python3", rel] + list(argv))


def main(argv=None):
    """Entry point: parse arguments, render, write."""
    argv = sys.argv[1:] if argv is None else argv
    cfg, output = parse_args(argv)
    text = render(cfg, command_line(argv))
    if output == "-":
        sys.stdout.write(text)
    else:
        with open(output, "w", encoding="utf-8") as fh:
            fh.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
