#!/usr/bin/env python3
"""Generate training graphs (forward + hand-written backward) of small GPT,
Llama and BERT stacks as MLIR text in upstream dialects.

The sibling of gen_tp_graph.py (whose building blocks it reuses) for
training: one function takes the activations entering the first layer, the
labels and the parameters, and returns the loss and the gradient of every
parameter (docs/semantics.md §10), the backward written out op by op (linalg, tensor,
arith, math on tensors):

  func.func @forward(%x: [b,s,h] (or [s,b,h]), %labels: [b,s] i64, %w...)
      -> (tensor<f32> loss, grad w...)

The head: GPT and Llama an LM head W [h, vocab] with causal-LM cross-entropy
on labels shifted by one position (the last position and labels equal to
-100 are ignored), BERT a token classifier W [h, labels] + bias with
cross-entropy per token; the loss is the mean over the valid labels (0/0, NaN,
when none is valid, as PyTorch). Dropout (--dropout P, gpt): masks kept as i1
tensors from forward to backward.

Forms:
  single   the single-device program on a 1-device grid with replicated
           seqpar.sharding attributes (what seqpar-run runs; the reference)
  tp       the per-rank Megatron TP program of --tp t ranks, written by hand:
           column-parallel Q/K/V (fused QKV in 3 groups), MLP-in and
           row-parallel output weights cut to their per-rank size with their
           shardings; shard.all_reduce after each row-parallel linear
           (forward) and on the input gradient of each block's
           column-parallel linears (backward; Megatron's f and g); norms, the
           head and their gradients replicated
  plain    the same without grid or attributes (the input of seqpar-pipeline)
  loss     the forward only: the loss (plain)
  fdcheck  the finite-difference check of the backward: @forward takes the
           arguments of `single` (f32), runs the training graph and the
           loss in f64 and returns, per parameter p, rel_p = |<grad_p, v_p> -
           fd_p| / max(|fd_p|, |<grad_p, v_p>|, 1e-3), <grad_p, v_p> and
           fd_p = (loss(w_p + eps v_p) - loss(w_p - eps v_p)) / (2 eps), for a
           fixed pseudo-random direction v_p; test/lib/check_train_grad.py
           reads them.
Other choices: --layout bsh|sbh, --flatten (collapse [b,s,h] -> [b*s,h]
around every linear and use linalg.matmul, as exporters do; otherwise
contraction generics), GQA (--kv-heads, llama).

Standard library only.

Example:
    python3 bench/gen_train_graph.py --model llama --kv-heads 2 --flatten -o llama_train.mlir
"""

import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_tp_graph as g  # noqa: E402  (the building blocks)
from gen_tp_graph import Val  # noqa: E402

IGNORE = -100  # ignore_index of the labels
FD_EPS = 1e-5  # finite-difference step (f64)
# Smallest denominator of the relative difference: gradients that are 0 in
# exact arithmetic (BERT's key bias: softmax ignores a per-row constant) are
# compared absolutely.
FD_FLOOR = 1e-3
SH_REPL = g.SH_REPL


# ---------------------------------------------------------------------------
# Reductions and elementwise helpers
# ---------------------------------------------------------------------------


def ew(bld, xs, fn, hint="ew", broadcast=None):
    """Elementwise generic whose body is fn(bb, ins, ty)."""
    ty = bld.elem
    return bld.elementwise(xs, lambda bb, ins, out: fn(bb, ins, ty), hint, broadcast)


def add(bld, x, y):
    """x + y (gradient accumulation)."""
    return g.residual_add(bld, x, y)


def mul(bld, x, y):
    """x * y elementwise."""
    return ew(bld, [x, y], lambda bb, i, ty: bb.bin("arith.mulf", i[0], i[1], ty), "mul")


def sum_rows(bld, x, keep):
    """Sums x over every dim but its last `keep` ones: the gradient of a
    parameter broadcast over the leading (token) dims."""
    rank = len(x.shape)
    lead = rank - keep
    init = bld.filled(x.shape[lead:], 0.0)
    its = ["reduction"] * lead + ["parallel"] * keep
    return bld.generic([(x, bld.identity(rank))], init, bld.amap(rank, list(range(lead, rank))), its,
                       lambda bb, ins, out: bb.bin("arith.addf", out, ins[0], bld.elem), "dsum")


def row_mean(bld, x):
    """mean over the last dim, [.., n] -> [.., 1] (keepdim)."""
    c = 1.0 / x.shape[-1]
    total = g.reduce_last(bld, x, True, 0.0, "arith.addf", hint="rsum")
    return ew(bld, [total], lambda bb, i, ty: bb.bin("arith.mulf", i[0], bb.const(c, ty), ty), "rmean")


def stat(bld, rank):
    """Map of a per-row [.., 1] statistic in a rank-`rank` loop nest."""
    return g.stat_map(bld, rank, True)


def with_stats(bld, xs, stats, fn, hint):
    """Elementwise generic over xs[0]'s shape reading full tensors `xs` and
    per-row statistics `stats` ([.., 1]); body fn(bb, ins, ty)."""
    rank = len(xs[0].shape)
    ins = [(x, bld.identity(rank)) for x in xs] + [(s, stat(bld, rank)) for s in stats]
    ty = bld.elem
    return bld.generic(ins, bld.empty(xs[0].shape), bld.identity(rank), ["parallel"] * rank,
                       lambda bb, i, out: fn(bb, i, ty), hint)


def with_vec(bld, xs, vecs, fn, hint):
    """Elementwise generic over xs[0]'s shape reading full tensors `xs` and
    vectors `vecs` broadcast along the last dim."""
    rank = len(xs[0].shape)
    ins = [(x, bld.identity(rank)) for x in xs] + [(v, bld.amap(rank, [rank - 1])) for v in vecs]
    ty = bld.elem
    return bld.generic(ins, bld.empty(xs[0].shape), bld.identity(rank), ["parallel"] * rank,
                       lambda bb, i, out: fn(bb, i, ty), hint)


# ---------------------------------------------------------------------------
# Layers: each forward returns (value, backward), backward(dy) -> dx, and
# records parameter gradients in `grads` (keyed by the argument's name).
# ---------------------------------------------------------------------------


def linear(bld, cfg, grads, x, w):
    """y = x @ w; backward dx = dy @ w^T, dw = x^T @ dy."""
    y = g.linear(bld, x, w, cfg)

    def backward(dy):
        l0, l1, k = x.shape
        n = w.shape[1]
        if cfg.flatten:
            x2, dy2 = bld.collapse(x, [[0, 1], [2]]), bld.collapse(dy, [[0, 1], [2]])
            dx = bld.expand(bld.matmul(dy2, bld.transpose(w, (1, 0))), [[0, 1], [2]], (l0, l1, k))
            dw = bld.matmul(bld.transpose(x2, (1, 0)), dy2)
        else:
            dx = bld.contract(dy, [0, 1, 3], w, [2, 3], (l0, l1, k), 1, "dlin")
            dw = bld.contract(x, [2, 3, 0], dy, [2, 3, 1], (k, n), 2, "dw")
        grads[w.name] = dw
        return dx
    return y, backward


def bias(bld, grads, x, b):
    """y = x + b; backward db = sum over the tokens."""
    def backward(dy):
        grads[b.name] = sum_rows(bld, dy, len(b.shape))
        return dy
    return g.add_bias(bld, x, b), backward


def layer_norm(bld, grads, x, gamma, beta, eps):
    """LayerNorm; backward dx = r (dxh - mean(dxh) - xh mean(dxh xh)), dxh = dy gamma."""
    mean = row_mean(bld, x)
    dev = with_stats(bld, [x], [mean], lambda bb, i, ty: bb.bin("arith.subf", i[0], i[1], ty), "dev")
    var = row_mean(bld, mul(bld, dev, dev))
    r = ew(bld, [var], lambda bb, i, ty: bb.un("math.rsqrt", bb.bin("arith.addf", i[0], bb.const(eps, ty), ty),
                                                ty), "rstd")
    xh = with_stats(bld, [dev], [r], lambda bb, i, ty: bb.bin("arith.mulf", i[0], i[1], ty), "xhat")
    y = with_vec(bld, [xh], [gamma, beta], lambda bb, i, ty: bb.bin(
        "arith.addf", bb.bin("arith.mulf", i[0], i[1], ty), i[2], ty), "ln")

    def backward(dy):
        grads[gamma.name] = sum_rows(bld, mul(bld, dy, xh), 1)
        grads[beta.name] = sum_rows(bld, dy, 1)
        dxh = with_vec(bld, [dy], [gamma], lambda bb, i, ty: bb.bin("arith.mulf", i[0], i[1], ty), "dxh")
        m1 = row_mean(bld, dxh)
        m2 = row_mean(bld, mul(bld, dxh, xh))

        def body(bb, i, ty):
            dxh_v, xh_v, m1_v, m2_v, r_v = i
            t = bb.bin("arith.subf", bb.bin("arith.subf", dxh_v, m1_v, ty), bb.bin("arith.mulf", xh_v, m2_v, ty), ty)
            return bb.bin("arith.mulf", t, r_v, ty)
        return with_stats(bld, [dxh, xh], [m1, m2, r], body, "dln")
    return y, backward


def rms_norm(bld, grads, x, gamma, eps):
    """RMSNorm; backward dx = r (dxh - x r^2 mean(dxh x)), dxh = dy gamma."""
    ms = row_mean(bld, mul(bld, x, x))
    r = ew(bld, [ms], lambda bb, i, ty: bb.un("math.rsqrt", bb.bin("arith.addf", i[0], bb.const(eps, ty), ty),
                                               ty), "rrms")
    xr = with_stats(bld, [x], [r], lambda bb, i, ty: bb.bin("arith.mulf", i[0], i[1], ty), "xr")
    y = with_vec(bld, [xr], [gamma], lambda bb, i, ty: bb.bin("arith.mulf", i[0], i[1], ty), "rms")

    def backward(dy):
        grads[gamma.name] = sum_rows(bld, mul(bld, dy, xr), 1)
        dxh = with_vec(bld, [dy], [gamma], lambda bb, i, ty: bb.bin("arith.mulf", i[0], i[1], ty), "dxh")
        m = row_mean(bld, mul(bld, dxh, x))

        def body(bb, i, ty):
            dxh_v, x_v, m_v, r_v = i
            r2 = bb.bin("arith.mulf", r_v, r_v, ty)
            t = bb.bin("arith.subf", dxh_v, bb.bin("arith.mulf", bb.bin("arith.mulf", x_v, r2, ty), m_v, ty), ty)
            return bb.bin("arith.mulf", t, r_v, ty)
        return with_stats(bld, [dxh, x], [m, r], body, "drms")
    return y, backward


def gelu(bld, x):
    """GELU (tanh form); backward 0.5 (1 + t) + 0.5 x (1 - t^2) c (1 + 3 a x^2)."""
    y = g.gelu_tanh(bld, x)
    c, a = math.sqrt(2.0 / math.pi), 0.044715

    def backward(dy):
        def body(bb, i, ty):
            v, d = i
            v2 = bb.bin("arith.mulf", v, v, ty)
            inner = bb.bin("arith.mulf", bb.bin("arith.addf", v, bb.bin(
                "arith.mulf", bb.bin("arith.mulf", v2, v, ty), bb.const(a, ty), ty), ty), bb.const(c, ty), ty)
            t = bb.un("math.tanh", inner, ty)
            one = bb.const(1.0, ty)
            half = bb.const(0.5, ty)
            left = bb.bin("arith.mulf", half, bb.bin("arith.addf", one, t, ty), ty)
            sech2 = bb.bin("arith.subf", one, bb.bin("arith.mulf", t, t, ty), ty)
            du = bb.bin("arith.mulf", bb.const(c, ty), bb.bin(
                "arith.addf", one, bb.bin("arith.mulf", bb.const(3.0 * a, ty), v2, ty), ty), ty)
            right = bb.bin("arith.mulf", bb.bin("arith.mulf", half, v, ty), bb.bin("arith.mulf", sech2, du, ty), ty)
            return bb.bin("arith.mulf", d, bb.bin("arith.addf", left, right, ty), ty)
        return ew(bld, [x, dy], body, "dgelu")
    return y, backward


def swiglu(bld, gate, up):
    """silu(gate) * up; backward dgate = dy up silu'(gate), dup = dy silu(gate)."""
    y = g.swiglu(bld, gate, up)

    def sigmoid(bb, v, ty):
        one = bb.const(1.0, ty)
        return bb.bin("arith.divf", one, bb.bin("arith.addf", one, bb.un("math.exp", bb.un("arith.negf", v, ty), ty),
                                                 ty), ty)

    def backward(dy):
        def dgate(bb, i, ty):
            v, u, d = i
            sg = sigmoid(bb, v, ty)
            one = bb.const(1.0, ty)
            ds = bb.bin("arith.mulf", sg, bb.bin("arith.addf", one, bb.bin(
                "arith.mulf", v, bb.bin("arith.subf", one, sg, ty), ty), ty), ty)
            return bb.bin("arith.mulf", bb.bin("arith.mulf", d, u, ty), ds, ty)

        def dup(bb, i, ty):
            v, d = i
            return bb.bin("arith.mulf", d, bb.bin("arith.mulf", v, sigmoid(bb, v, ty), ty), ty)
        return ew(bld, [gate, up, dy], dgate, "dgate"), ew(bld, [gate, dy], dup, "dup")
    return y, backward


def dropout(bld, cfg, x):
    """Position-keyed dropout (gen_tp_graph.dropout_keep's hash, rate
    cfg.dropout_p) with its mask kept: an i1 tensor computed in forward,
    y = mask ? x / (1 - p) : 0, and backward dx = mask ? dy / (1 - p) : 0
    reading the same mask (what training keeps for backward, 1 byte per
    element; docs/training-graphs.md). Identity when cfg.dropout_p is 0."""
    p = getattr(cfg, "dropout_p", 0.0)
    if not p:
        return x, lambda dy: dy
    if cfg.dropout_op:
        # seqpar.dropout (Philox keyed by seed, site, global index); the
        # backward draws the same mask at the same site: dx = dy * m.
        site = bld.dropout_sites
        bld.dropout_sites += 1
        return (g.dropout_op(bld, x, p, cfg.seed, site),
                lambda dy: g.dropout_op(bld, dy, p, cfg.seed, site))
    seed = g.dropout_site_seed(cfg.seed, bld.dropout_sites)
    bld.dropout_sites += 1
    rank = len(x.shape)
    mask = bld.generic([], bld.empty(x.shape, "i1"), bld.identity(rank), ["parallel"] * rank,
                       lambda bb, ins, out: g.dropout_keep(bb, x.shape, seed, p), "mask")

    def apply(t):
        def body(bb, i, ty):
            kept = bb.bin("arith.mulf", i[1], bb.const(1.0 / (1.0 - p), ty), ty)
            return bb.select(i[0], kept, bb.const(0.0, ty), ty)
        ins = [(mask, bld.identity(rank)), (t, bld.identity(rank))]
        return bld.generic(ins, bld.empty(t.shape), bld.identity(rank), ["parallel"] * rank,
                           lambda bb, i, out: body(bb, i, bld.elem), "drop")
    return apply(x), apply


def attention(bld, cfg, q, k, v, n_heads, n_kv, causal, use_rope):
    """Multi-head attention on [L0, L1, heads*d] projections (GQA: K/V heads
    repeated); backward dV = P^T dO, dS = P (dP - rowsum(dP P)) scale with
    dP = dO V^T, dQ = dS K, dK = dS^T Q (K/V gradients summed over the
    repeats), RoPE's backward the inverse rotation."""
    bsh = cfg.layout == "bsh"
    to_bhsd = (0, 2, 1, 3) if bsh else (1, 2, 0, 3)
    from_bhsd = (0, 2, 1, 3) if bsh else (2, 0, 1, 3)
    l0, l1, _ = q.shape
    b, s, d = cfg.b, cfg.s, cfg.d
    groups = n_heads // n_kv
    sc = 1.0 / math.sqrt(d)

    def batched(x, n):
        return bld.collapse(bld.transpose(g.heads(bld, x, n, cfg, use_rope and x is not v), to_bhsd),
                            [[0, 1], [2], [3]])

    qb = batched(q, n_heads)
    kb, vb = batched(k, n_kv), batched(v, n_kv)
    if groups > 1:
        kb = g.repeat_kv(bld, bld.expand(kb, [[0, 1], [2], [3]], (b, n_kv, s, d)), groups)
        vb = g.repeat_kv(bld, bld.expand(vb, [[0, 1], [2], [3]], (b, n_kv, s, d)), groups)
    scores = g.scale(bld, bld.batch_matmul(qb, bld.transpose(kb, (0, 2, 1))), sc)
    if causal:
        scores = g.causal_mask(bld, scores, 1, 2)
    probs = g.softmax_last(bld, scores, keepdim=True)
    dropped, b_drop = dropout(bld, cfg, probs)
    o = bld.batch_matmul(dropped, vb)

    def to_layout(t, n):
        """[b*n, s, d] -> [L0, L1, n*d] in the activation layout."""
        t4 = bld.transpose(bld.expand(t, [[0, 1], [2], [3]], (b, n, s, d)), from_bhsd)
        return bld.collapse(t4, [[0], [1], [2, 3]])

    y = to_layout(o, n_heads)

    def backward(dy):
        do = bld.collapse(bld.transpose(bld.expand(dy, [[0], [1], [2, 3]], (l0, l1, n_heads, d)), to_bhsd),
                          [[0, 1], [2], [3]])
        dv = bld.batch_matmul(bld.transpose(dropped, (0, 2, 1)), do)
        dp = b_drop(bld.batch_matmul(do, bld.transpose(vb, (0, 2, 1))))
        rs = g.reduce_last(bld, mul(bld, dp, probs), True, 0.0, "arith.addf", hint="rsum")

        def ds_body(bb, i, ty):
            dp_v, p_v, rs_v = i
            return bb.bin("arith.mulf", bb.bin("arith.mulf", p_v, bb.bin("arith.subf", dp_v, rs_v, ty), ty),
                          bb.const(sc, ty), ty)
        ds = with_stats(bld, [dp, probs], [rs], ds_body, "dsoft")
        dq = bld.batch_matmul(ds, kb)
        dk = bld.batch_matmul(bld.transpose(ds, (0, 2, 1)), qb)

        def unrepeat(t):
            """GQA: sums the gradient over the repeats of each K/V head."""
            if groups == 1:
                return t
            t5 = bld.expand(t, [[0, 1, 2], [3], [4]], (b, n_kv, groups, s, d))
            init = bld.filled((b, n_kv, s, d), 0.0)
            red = bld.generic([(t5, bld.identity(5))], init, bld.amap(5, [0, 1, 3, 4]),
                              ["parallel", "parallel", "reduction", "parallel", "parallel"],
                              lambda bb, ins, out: bb.bin("arith.addf", out, ins[0], bld.elem), "dkv")
            return bld.collapse(red, [[0, 1], [2], [3]])

        def back(t, n, rot):
            t = to_layout(t, n)
            if rot:
                t = bld.collapse(g.rope(bld, t, n, cfg, inverse=True), [[0], [1], [2, 3]])
            return t
        return (back(dq, n_heads, use_rope), back(unrepeat(dk), n_kv, use_rope),
                back(unrepeat(dv), n_kv, False))
    return y, backward


# ---------------------------------------------------------------------------
# Models
# ---------------------------------------------------------------------------


class Params:
    """The parameter arguments, in order, with their per-rank shapes and
    seqpar.sharding (docs/semantics.md §2; replicated at t = 1)."""

    def __init__(self, elem):
        self.elem = elem
        self.args = []
        self.sharding = {}

    def add(self, name, shape, sharding=SH_REPL):
        """Adds parameter %name (per-rank `shape`) and returns its value."""
        v = Val(f"%{name}", tuple(shape), self.elem)
        self.args.append(v)
        self.sharding[v.name] = sharding
        return v


def reduced(bld, cfg, x):
    """x summed over the TP ranks (a no-op at t = 1): Megatron's g in forward
    after a row-parallel linear, f's backward on the input gradient of
    column-parallel linears."""
    return bld.all_reduce(x) if cfg.t > 1 else x


def gpt_layer(bld, cfg, ps, grads, x, i):
    """Pre-norm GPT-2 layer (fused QKV, causal attention, GELU MLP)."""
    h, t = cfg.h, cfg.t
    hr, fr = h // t, cfg.f // t
    p = f"l{i}_"
    ln1_g, ln1_b = ps.add(p + "ln1_g", (h,)), ps.add(p + "ln1_b", (h,))
    w_qkv = ps.add(p + "w_qkv", (h, 3 * hr), g.SH_QKV_W)
    b_qkv = ps.add(p + "b_qkv", (3 * hr,), g.SH_QKV_B)
    w_o, b_o = ps.add(p + "w_o", (hr, h), g.SH_ROW_W), ps.add(p + "b_o", (h,))
    ln2_g, ln2_b = ps.add(p + "ln2_g", (h,)), ps.add(p + "ln2_b", (h,))
    w_fc1, b_fc1 = ps.add(p + "w_fc1", (h, fr), g.SH_COL_W), ps.add(p + "b_fc1", (fr,), g.SH_COL_B)
    w_fc2, b_fc2 = ps.add(p + "w_fc2", (fr, h), g.SH_ROW_W), ps.add(p + "b_fc2", (h,))

    y, b_ln1 = layer_norm(bld, grads, x, ln1_g, ln1_b, cfg.eps)
    qkv, b_qkvl = linear(bld, cfg, grads, y, w_qkv)
    qkv, b_qkvb = bias(bld, grads, qkv, b_qkv)
    l0, l1, _ = qkv.shape
    q, k, v = (bld.extract_slice(qkv, [0, 0, j * hr], [l0, l1, hr], (l0, l1, hr)) for j in range(3))
    att, b_att = attention(bld, cfg, q, k, v, cfg.a // t, cfg.a // t, True, False)
    o, b_ol = linear(bld, cfg, grads, att, w_o)
    o, b_ob = bias(bld, grads, reduced(bld, cfg, o), b_o)
    o, b_od = dropout(bld, cfg, o)
    x1 = add(bld, x, o)
    y2, b_ln2 = layer_norm(bld, grads, x1, ln2_g, ln2_b, cfg.eps)
    m, b_fc1l = linear(bld, cfg, grads, y2, w_fc1)
    m, b_fc1b = bias(bld, grads, m, b_fc1)
    m, b_gelu = gelu(bld, m)
    m, b_fc2l = linear(bld, cfg, grads, m, w_fc2)
    m, b_fc2b = bias(bld, grads, reduced(bld, cfg, m), b_fc2)
    m, b_md = dropout(bld, cfg, m)
    out = add(bld, x1, m)

    def backward(dout):
        dm = reduced(bld, cfg, b_fc1l(b_fc1b(b_gelu(b_fc2l(b_fc2b(b_md(dout)))))))
        dx1 = add(bld, dout, b_ln2(dm))
        dq, dk, dv = b_att(b_ol(b_ob(b_od(dx1))))
        dqkv = Val(bld.fresh("cat"), (l0, l1, 3 * hr), bld.elem)
        bld.emit(f"{dqkv.name} = tensor.concat dim(2) {dq.name}, {dk.name}, {dv.name} : "
                 f"({dq.type}, {dk.type}, {dv.type}) -> {dqkv.type}")
        return add(bld, dx1, b_ln1(reduced(bld, cfg, b_qkvl(b_qkvb(dqkv)))))
    return out, backward


def llama_layer(bld, cfg, ps, grads, x, i):
    """Llama layer (RMSNorm, GQA with RoPE, SwiGLU MLP, no biases)."""
    h, d, t = cfg.h, cfg.d, cfg.t
    a_r, kv_r, fr = cfg.a // t, cfg.a_kv // t, cfg.f // t
    p = f"l{i}_"
    col, row = g.SH_COL_W, g.SH_ROW_W
    g_attn = ps.add(p + "attn_norm_g", (h,))
    w_q, w_k = ps.add(p + "w_q", (h, a_r * d), col), ps.add(p + "w_k", (h, kv_r * d), col)
    w_v, w_o = ps.add(p + "w_v", (h, kv_r * d), col), ps.add(p + "w_o", (a_r * d, h), row)
    g_mlp = ps.add(p + "mlp_norm_g", (h,))
    w_gate, w_up = ps.add(p + "w_gate", (h, fr), col), ps.add(p + "w_up", (h, fr), col)
    w_down = ps.add(p + "w_down", (fr, h), row)

    y, b_n1 = rms_norm(bld, grads, x, g_attn, cfg.eps)
    (q, b_q), (k, b_k), (v, b_v) = (linear(bld, cfg, grads, y, w) for w in (w_q, w_k, w_v))
    att, b_att = attention(bld, cfg, q, k, v, a_r, kv_r, True, True)
    o, b_o = linear(bld, cfg, grads, att, w_o)
    x1 = add(bld, x, reduced(bld, cfg, o))
    y2, b_n2 = rms_norm(bld, grads, x1, g_mlp, cfg.eps)
    (gt, b_gate), (up, b_up) = linear(bld, cfg, grads, y2, w_gate), linear(bld, cfg, grads, y2, w_up)
    m, b_sw = swiglu(bld, gt, up)
    m, b_down = linear(bld, cfg, grads, m, w_down)
    out = add(bld, x1, reduced(bld, cfg, m))

    def backward(dout):
        dgt, dup = b_sw(b_down(dout))
        dx1 = add(bld, dout, b_n2(reduced(bld, cfg, add(bld, b_gate(dgt), b_up(dup)))))
        dq, dk, dv = b_att(b_o(dx1))
        dy = reduced(bld, cfg, add(bld, add(bld, b_q(dq), b_k(dk)), b_v(dv)))
        return add(bld, dx1, b_n1(dy))
    return out, backward


def bert_layer(bld, cfg, ps, grads, x, i):
    """Post-norm BERT layer (separate Q/K/V with biases, no mask, GELU MLP)."""
    h, t = cfg.h, cfg.t
    hr, fr = h // t, cfg.f // t
    p = f"l{i}_"
    w = {}
    for n in ("q", "k", "v"):
        w["w_" + n] = ps.add(p + "w_" + n, (h, hr), g.SH_COL_W)
        w["b_" + n] = ps.add(p + "b_" + n, (hr,), g.SH_COL_B)
    w_o, b_o = ps.add(p + "w_o", (hr, h), g.SH_ROW_W), ps.add(p + "b_o", (h,))
    ln1_g, ln1_b = ps.add(p + "ln1_g", (h,)), ps.add(p + "ln1_b", (h,))
    w_fc1, b_fc1 = ps.add(p + "w_fc1", (h, fr), g.SH_COL_W), ps.add(p + "b_fc1", (fr,), g.SH_COL_B)
    w_fc2, b_fc2 = ps.add(p + "w_fc2", (fr, h), g.SH_ROW_W), ps.add(p + "b_fc2", (h,))
    ln2_g, ln2_b = ps.add(p + "ln2_g", (h,)), ps.add(p + "ln2_b", (h,))

    proj = {}
    for n in ("q", "k", "v"):
        pr, bl = linear(bld, cfg, grads, x, w["w_" + n])
        pr, bb_ = bias(bld, grads, pr, w["b_" + n])
        proj[n] = (pr, bl, bb_)
    att, b_att = attention(bld, cfg, proj["q"][0], proj["k"][0], proj["v"][0], cfg.a // t, cfg.a // t, False,
                           False)
    o, b_ol = linear(bld, cfg, grads, att, w_o)
    o, b_ob = bias(bld, grads, reduced(bld, cfg, o), b_o)
    x1, b_ln1 = layer_norm(bld, grads, add(bld, x, o), ln1_g, ln1_b, cfg.eps)
    m, b_fc1l = linear(bld, cfg, grads, x1, w_fc1)
    m, b_fc1b = bias(bld, grads, m, b_fc1)
    m, b_gelu = gelu(bld, m)
    m, b_fc2l = linear(bld, cfg, grads, m, w_fc2)
    m, b_fc2b = bias(bld, grads, reduced(bld, cfg, m), b_fc2)
    out, b_ln2 = layer_norm(bld, grads, add(bld, x1, m), ln2_g, ln2_b, cfg.eps)

    def backward(dout):
        dm = b_ln2(dout)
        dx1 = add(bld, dm, reduced(bld, cfg, b_fc1l(b_fc1b(b_gelu(b_fc2l(b_fc2b(dm)))))))
        da = b_ln1(dx1)
        dq, dk, dv = b_att(b_ol(b_ob(da)))
        dqkv = None
        for n, dt in (("q", dq), ("k", dk), ("v", dv)):
            _, bl, bb_ = proj[n]
            dt = bl(bb_(dt))
            dqkv = dt if dqkv is None else add(bld, dqkv, dt)
        return add(bld, da, reduced(bld, cfg, dqkv))
    return out, backward


def cross_entropy(bld, cfg, logits, labels):
    """Mean cross-entropy over the valid labels and its gradient w.r.t. the
    logits [L0, L1, C]. Causal (gpt, llama): token i is scored on label i+1
    (the last token on none). Returns (loss [], backward() -> dlogits)."""
    ty = bld.elem
    sd = cfg.seq_dim
    l0, l1, n_cls = logits.shape
    if cfg.model != "bert":
        # Shift by one position along the sequence dim; the last gets IGNORE.
        sizes = [l0, l1]
        sizes[sd] -= 1
        offs = [0, 0]
        offs[sd] = 1
        head = bld.extract_slice(labels, offs, sizes, tuple(sizes))
        pad_shape = [l0, l1]
        pad_shape[sd] = 1
        e = bld.empty(pad_shape, "i64")
        c = bld.fresh("ign")
        bld.emit(f"{c} = arith.constant {IGNORE} : i64")
        pad = Val(bld.fresh("fill"), tuple(pad_shape), "i64")
        bld.emit(f"{pad.name} = linalg.fill ins({c} : i64) outs({e.name} : {e.type}) -> {pad.type}")
        shifted = Val(bld.fresh("cat"), (l0, l1), "i64")
        bld.emit(f"{shifted.name} = tensor.concat dim({sd}) {head.name}, {pad.name} : "
                 f"({head.type}, {pad.type}) -> {shifted.type}")
        labels = shifted
    mx = g.reduce_last(bld, logits, True, -math.inf, "arith.maximumf", hint="lmax")
    ex = with_stats(bld, [logits], [mx], lambda bb, i, t: bb.un("math.exp", bb.bin("arith.subf", i[0], i[1], t), t),
                    "lexp")
    se = g.reduce_last(bld, ex, True, 0.0, "arith.addf", hint="lsum")
    lab_map = bld.amap(3, [0, 1])

    def is_target(bb, lab):
        return bb.cmpi("eq", bb.cast("arith.index_cast", bb.index(2), "index", "i64"), lab, "i64")

    def valid(bb, lab):
        return bb.cmpi("ne", lab, bb.iconst(IGNORE), "i64")

    # Per token: valid * (log(sum) + max - logit[label]), and valid.
    tok_init = bld.filled((l0, l1), 0.0)
    smap = bld.amap(3, [0, 1, "0"])

    def nll_body(bb, ins, out):
        z, lab, m, s = ins
        lse = bb.bin("arith.addf", bb.un("math.log", s, ty), m, ty)
        hit = bb.bin("arith.andi", is_target(bb, lab), valid(bb, lab), "i1")
        term = bb.select(hit, bb.bin("arith.subf", lse, z, ty), bb.const(0.0, ty), ty)
        return bb.bin("arith.addf", out, term, ty)
    nll = bld.generic([(logits, bld.identity(3)), (labels, lab_map), (mx, smap), (se, smap)], tok_init,
                      bld.amap(3, [0, 1]), ["parallel", "parallel", "reduction"], nll_body, "nll")
    zero = bld.filled((), 0.0)
    scalar2 = bld.amap(2, [])
    total = bld.generic([(nll, bld.identity(2))], zero, scalar2, ["reduction"] * 2,
                        lambda bb, ins, out: bb.bin("arith.addf", out, ins[0], ty), "nllsum")

    def count_body(bb, ins, out):
        one = bb.select(valid(bb, ins[0]), bb.const(1.0, ty), bb.const(0.0, ty), ty)
        return bb.bin("arith.addf", out, one, ty)
    count = bld.generic([(labels, bld.identity(2))], bld.filled((), 0.0), scalar2, ["reduction"] * 2,
                        count_body, "count")
    loss = bld.generic([(total, bld.amap(0, [])), (count, bld.amap(0, []))], bld.empty(()), bld.amap(0, []), [],
                       lambda bb, ins, out: bb.bin("arith.divf", ins[0], ins[1], ty), "loss")

    def backward():
        # dlogits = valid * (softmax - onehot(label)) / count
        def body(bb, ins, out):
            e_v, s_v, lab, cnt = ins
            p = bb.bin("arith.divf", e_v, s_v, ty)
            p = bb.select(is_target(bb, lab), bb.bin("arith.subf", p, bb.const(1.0, ty), ty), p, ty)
            p = bb.select(valid(bb, lab), p, bb.const(0.0, ty), ty)
            return bb.bin("arith.divf", p, cnt, ty)
        return bld.generic([(ex, bld.identity(3)), (se, smap), (labels, lab_map), (count, bld.amap(3, []))],
                           bld.empty(logits.shape), bld.identity(3), ["parallel"] * 3, body, "dlogits")
    return loss, backward


def build_model(bld, cfg, x, labels, with_backward):
    """Emits the forward (and backward); returns (Params, loss, grads)."""
    ps = Params(bld.elem)
    grads = {}
    layer = {"gpt": gpt_layer, "llama": llama_layer, "bert": bert_layer}[cfg.model]
    backs = []
    for i in range(cfg.layers):
        x, back = layer(bld, cfg, ps, grads, x, i)
        backs.append(back)
    if cfg.model == "gpt":
        x, back = layer_norm(bld, grads, x, ps.add("lnf_g", (cfg.h,)), ps.add("lnf_b", (cfg.h,)), cfg.eps)
        backs.append(back)
    elif cfg.model == "llama":
        x, back = rms_norm(bld, grads, x, ps.add("norm_g", (cfg.h,)), cfg.eps)
        backs.append(back)
    logits, back = linear(bld, cfg, grads, x, ps.add("w_head", (cfg.h, cfg.vocab)))
    backs.append(back)
    if cfg.model == "bert":
        logits, back = bias(bld, grads, logits, ps.add("b_head", (cfg.vocab,)))
        backs.append(back)
    loss, dlogits = cross_entropy(bld, cfg, logits, labels)
    if with_backward:
        dy = dlogits()
        for back in reversed(backs):
            dy = back(dy)
    return ps, loss, [grads.get(p.name) for p in ps.args]


# ---------------------------------------------------------------------------
# Functions and forms
# ---------------------------------------------------------------------------


def grad_norm(bld, cfg, grads, shardings):
    """The global L2 norm of the gradients, sqrt(sum_p sum(g_p^2)), as a
    tensor<f32> (computed in f32). In the per-rank TP program each element
    of the global gradients is counted once: the sums of squares of the
    split gradients are all-reduced over the ranks, those of the replicated
    ones (already the whole gradient on every rank) are not
    (docs/training-graphs.md, "The gradient norm"). With
    cfg.norm_counts_replicas every local sum is all-reduced, so a
    replicated gradient counts t times: the NeMo-RL trap, for the negative
    test."""
    split, replicated = [], []
    for grad, sh in zip(grads, shardings):
        rank = len(grad.shape)
        ty = bld.elem

        def body(bb, ins, out, ty=ty):
            x = bb.to_f32(ins[0], ty)
            return bb.bin("arith.addf", out, bb.bin("arith.mulf", x, x, "f32"), "f32")
        sq = bld.generic([(grad, bld.identity(rank))], _zero_f32(bld), bld.amap(rank, []), ["reduction"] * rank, body,
                         "sumsq")
        (split if sh != SH_REPL or cfg.norm_counts_replicas else replicated).append(sq)

    def total(vals):
        acc = vals[0]
        for v in vals[1:]:
            acc = bld.generic([(acc, bld.amap(0, [])), (v, bld.amap(0, []))], bld.empty((), "f32"),
                              bld.amap(0, []), [],
                              lambda bb, ins, out: bb.bin("arith.addf", ins[0], ins[1], "f32"), "sumsq")
        return acc
    parts = []
    if split:
        parts.append(reduced(bld, cfg, total(split)))
    if replicated:
        parts.append(total(replicated))
    return bld.generic([(total(parts), bld.amap(0, []))], bld.empty((), "f32"), bld.amap(0, []), [],
                       lambda bb, ins, out: bb.un("math.sqrt", ins[0], "f32"), "norm")


def _zero_f32(bld):
    """A tensor<f32> holding 0 (whatever the builder's element type)."""
    c = bld.const(0.0, "f32")
    e = bld.empty((), "f32")
    v = Val(bld.fresh("fill"), (), "f32")
    bld.emit(f"{v.name} = linalg.fill ins({c} : f32) outs({e.name} : {e.type}) -> {v.type}")
    return v


def label_shape(cfg):
    """[b, s] or [s, b]: the activation layout without its feature dim."""
    return cfg.act_shape(cfg.h)[:2]


def emit_model(cfg, elem, maps, with_backward):
    """One function body (x, labels, params) -> (loss[, grads]) in `elem`:
    (builder, args, results, argument shardings, result shardings)."""
    bld = g.Builder(elem)
    bld.maps = maps
    x = Val("%x", cfg.act_shape(cfg.h), elem)
    labels = Val("%labels", label_shape(cfg), "i64")
    ps, loss, grads = build_model(bld, cfg, x, labels, with_backward)
    param_sh = [ps.sharding[p.name] for p in ps.args]
    outs = [loss] + (grads if with_backward else [])
    out_sh = [SH_REPL] + (param_sh if with_backward else [])
    if with_backward and cfg.grad_norm:
        outs.append(grad_norm(bld, cfg, grads, param_sh))
        out_sh.append(SH_REPL)
    bld.emit("return " + ", ".join(v.name for v in outs) + " : " + ", ".join(v.type for v in outs))
    return bld, [x, labels] + ps.args, outs, [SH_REPL, SH_REPL] + param_sh, out_sh


def signature(args, outs, arg_sh, out_sh, cfg):
    """The func.func argument and result lists (no attributes when the
    shardings are None)."""
    def attr(sh, extra=""):
        return f" {{seqpar.sharding = {sh}{extra}}}" if sh else ""
    seq = f", seqpar.seq_dim = {cfg.seq_dim} : i64"
    arg_sh = arg_sh or [None] * len(args)
    out_sh = out_sh or [None] * len(outs)
    a = ",\n      ".join(f"{v.name}: {v.type}{attr(sh, seq if i == 0 else '')}"
                         for i, (v, sh) in enumerate(zip(args, arg_sh)))
    r = ", ".join(f"{v.type}{attr(sh)}" for v, sh in zip(outs, out_sh))
    return a, r


def render_function(name, bld, args, outs, arg_sh, out_sh, cfg, visibility=""):
    """The lines of func.func @name with the body emitted into `bld`."""
    a, r = signature(args, outs, arg_sh, out_sh, cfg)
    vis = f"{visibility} " if visibility else ""
    lines = [f"  func.func {vis}@{name}(\n      {a})\n      -> ({r}) {{"]
    lines += ["  " + line for line in bld.lines]
    lines.append("  }")
    return lines


def fdcheck(cfg, maps):
    """@forward (f32 in, f32 out): per parameter the relative difference of
    the f64 analytic directional derivative and its central difference."""
    train, targs, touts, _, _ = emit_model(cfg, "f64", maps, True)
    loss = emit_model(cfg, "f64", maps, False)[0]
    bld = g.Builder("f64")
    bld.maps = maps
    args32 = [Val(v.name, v.shape, "f32" if v.elem == "f64" else v.elem) for v in targs]
    ext = []
    for v in args32:
        if v.elem != "f32":
            ext.append(v)
            continue
        ext.append(bld.elementwise([v], lambda bb, ins, out: bb.cast("arith.extf", ins[0], "f32", "f64"), "ext"))

    def call(fn, ins, outs):
        """func.call @fn(ins); returns values of the types of `outs`."""
        name = bld.fresh("call")
        n = len(outs)
        types = ", ".join(v.type for v in outs)
        bld.emit(f"{name}{':%d' % n if n > 1 else ''} = func.call @{fn}({', '.join(v.name for v in ins)}) : "
                 f"({', '.join(v.type for v in ins)}) -> ({types})")
        return [Val(f"{name}#{i}" if n > 1 else name, v.shape, v.elem) for i, v in enumerate(outs)]

    res = call("train", ext, [Val("", v.shape, v.elem) for v in touts])
    scalar = Val("", (), "f64")
    rel, an, fd = [], [], []
    for j, p in enumerate(ext[2:]):
        rank = len(p.shape)

        def direction(bb, ins, out, j=j, p=p):
            lin = bb.index_i64(0)
            for dim in range(1, len(p.shape)):
                lin = bb.bin("arith.muli", lin, bb.iconst(p.shape[dim]), "i64")
                lin = bb.bin("arith.addi", lin, bb.index_i64(dim), "i64")
            t = bb.cast("arith.sitofp", lin, "i64", "f64")
            t = bb.bin("arith.addf", bb.bin("arith.mulf", t, bb.const(12.9898, "f64"), "f64"),
                       bb.const(1.7 + 78.233 * j, "f64"), "f64")
            return bb.un("math.sin", t, "f64")
        vdir = bld.generic([], bld.empty(p.shape), bld.identity(rank), ["parallel"] * rank, direction, "dir")
        step = []
        for sign in (1.0, -1.0):
            step.append(bld.elementwise([p, vdir], lambda bb, ins, out, sign=sign: bb.bin(
                "arith.addf", ins[0], bb.bin("arith.mulf", ins[1], bb.const(sign * FD_EPS, "f64"), "f64"), "f64"),
                "step"))
        lp = call("loss", ext[:2 + j] + [step[0]] + ext[3 + j:], [scalar])[0]
        lm = call("loss", ext[:2 + j] + [step[1]] + ext[3 + j:], [scalar])[0]
        dot = bld.generic([(res[1 + j], bld.identity(rank)), (vdir, bld.identity(rank))], bld.filled((), 0.0),
                          bld.amap(rank, []), ["reduction"] * rank,
                          lambda bb, ins, out: bb.bin("arith.addf", out, bb.bin("arith.mulf", ins[0], ins[1], "f64"),
                                                      "f64"), "dot")
        sd, sp, sm = bld.fresh("s"), bld.fresh("s"), bld.fresh("s")
        for name, t in ((sd, dot), (sp, lp), (sm, lm)):
            bld.emit(f"{name} = tensor.extract {t.name}[] : {t.type}")
        body = g.Body(bld)
        f = body.bin("arith.divf", body.bin("arith.subf", sp, sm, "f64"), body.const(2 * FD_EPS, "f64"), "f64")
        diff = body.un("math.absf", body.bin("arith.subf", sd, f, "f64"), "f64")
        den = body.bin("arith.maximumf", body.un("math.absf", f, "f64"), body.un("math.absf", sd, "f64"), "f64")
        den = body.bin("arith.maximumf", den, body.const(FD_FLOOR, "f64"), "f64")
        r = body.bin("arith.divf", diff, den, "f64")
        for v, lst in ((r, rel), (sd, an), (f, fd)):
            lst.append(body.cast("arith.truncf", v, "f64", "f32"))
        for line in body.lines:
            bld.emit(line)
    outs = []
    for lst in (rel, an, fd):
        v = Val(bld.fresh("vec"), (len(lst),), "f32")
        bld.emit(f"{v.name} = tensor.from_elements {', '.join(lst)} : {v.type}")
        outs.append(v)
    bld.emit("return " + ", ".join(v.name for v in outs) + " : " + ", ".join(v.type for v in outs))
    lines = render_function("train", train, targs, touts, None, None, cfg, "private")
    lines += render_function("loss", loss, targs, [Val("", (), "f64")], None, None, cfg, "private")
    lines += render_function("forward", bld, args32, outs, [SH_REPL] * len(args32), [SH_REPL] * 3, cfg)
    return lines, targs


def render(cfg, form, command):
    """The whole module text."""
    maps = {}
    if form == "fdcheck":
        body, args = fdcheck(cfg, maps)
    else:
        bld, args, outs, arg_sh, out_sh = emit_model(cfg, cfg.elem, maps, form != "loss")
        sharded = form in ("single", "tp")
        body = render_function("forward", bld, args, outs, arg_sh if sharded else None,
                               out_sh if sharded else None, cfg)
    names = [v.name[1:] for v in args]
    out = [f"// {command}",
           f"// model={cfg.model} form={form} layers={cfg.layers} b={cfg.b} s={cfg.s} h={cfg.h} a={cfg.a} "
           f"a_kv={cfg.a_kv} ffn={cfg.f} vocab={cfg.vocab} dtype={cfg.elem} layout={cfg.layout} "
           f"flatten={int(cfg.flatten)} dropout={getattr(cfg, 'dropout_p', 0.0)}",
           "// arguments: " + " ".join(names),
           "// results: " + ("rel an fd over the parameters" if form == "fdcheck" else
                             "loss" + ("" if form == "loss" else " " + " ".join("d" + n for n in names[2:]) +
                                       (" grad_norm" if cfg.grad_norm else "")))]
    out += [f"{alias} = {text}" for text, alias in maps.items()]
    out.append("module {")
    if form in ("single", "tp", "fdcheck"):
        out.append(f'  shard.grid {g.GRID}(shape = {cfg.t}) {{sym_visibility = "private"}}')
    out += body
    out.append("}")
    return "\n".join(out) + "\n"


def parse_args(argv):
    """Parses the command line into (Config, form, output); exits with a
    message naming the option when the configuration cannot be emitted."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", choices=["gpt", "llama", "bert"], default="gpt")
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--batch", type=int, default=2)
    ap.add_argument("--seq", type=int, default=8)
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--kv-heads", type=int, default=None, help="KV heads (llama GQA; default: --heads)")
    ap.add_argument("--ffn", type=int, default=None, help="MLP width (default 4h; llama 8h/3 rounded up to 8)")
    ap.add_argument("--vocab", type=int, default=16,
                    help="LM head width (gpt, llama) or number of labels (bert); at least 8, the range of "
                         "seqpar-run's generated labels")
    ap.add_argument("--form", choices=["single", "tp", "plain", "loss", "fdcheck"], default=None,
                    help="default: single at --tp 1, tp otherwise")
    ap.add_argument("--tp", type=int, default=1, help="tensor-parallel size t (--form tp)")
    ap.add_argument("--layout", choices=["bsh", "sbh"], default="bsh")
    ap.add_argument("--flatten", action="store_true", help="collapse [b,s,h]->[b*s,h] around every linear")
    ap.add_argument("--dtype", choices=["f32", "bf16"], default="f32",
                    help="element type of the activations, parameters and gradients (fdcheck: f32 only)")
    ap.add_argument("--dropout", type=float, default=0.0, metavar="P",
                    help="dropout of rate P on the attention probabilities (every model) and, gpt, after the "
                         "attention and after the MLP, masks kept as i1 tensors (under --form tp the probabilities' "
                         "mask is keyed by per-rank positions: for memory reports, not for comparisons)")
    ap.add_argument("--dropout-op", action="store_true",
                    help="with --dropout: seqpar.dropout (Philox, no mask kept; the backward draws it again) "
                         "instead of i1 masks from the splitmix hash")
    ap.add_argument("--seed", type=int, default=1234, help="dropout seed (sites get distinct streams)")
    ap.add_argument("--grad-norm", action="store_true",
                    help="also return the global L2 norm of the gradients (a clipping step's input), each "
                         "element counted once")
    ap.add_argument("--norm-counts-replicas", action="store_true",
                    help="with --grad-norm --form tp: all-reduce every local sum of squares, counting each "
                         "replicated gradient t times (a known bug, for negative tests)")
    ap.add_argument("-o", "--output", default="-", help="output file (default stdout)")
    ns = ap.parse_args(argv)
    a_kv = ns.kv_heads if ns.kv_heads is not None else ns.heads
    ffn = ns.ffn if ns.ffn is not None else (4 * ns.hidden if ns.model != "llama" else -(-8 * ns.hidden // 3 // 8) * 8)
    cfg = g.Config(model=ns.model, layers=ns.layers, b=ns.batch, s=ns.seq, h=ns.hidden, a=ns.heads, a_kv=a_kv,
                   f=ffn, t=ns.tp, form="tp", elem=ns.dtype, layout=ns.layout, flatten=ns.flatten, dropout=False,
                   seed=ns.seed)
    cfg.vocab = ns.vocab
    cfg.dropout_p = ns.dropout
    cfg.dropout_op = ns.dropout_op
    cfg.grad_norm = ns.grad_norm
    cfg.norm_counts_replicas = ns.norm_counts_replicas
    form = ns.form or ("single" if ns.tp == 1 else "tp")
    err = g.validate(cfg)
    if not err and form == "tp" and ns.tp < 2:
        err = f"--form tp is the per-rank program of t >= 2 ranks (got --tp {ns.tp}; --form single for one)"
    if not err and form != "tp" and ns.tp != 1:
        err = f"--form {form} is a single-device program: use --tp 1 (got {ns.tp})"
    if not err and not 0.0 <= ns.dropout < 1.0:
        err = f"--dropout must be in [0, 1) (got {ns.dropout})"
    if not err and form == "fdcheck" and (ns.dtype != "f32" or ns.dropout):
        err = "--form fdcheck checks f32 programs without dropout"
    if not err and ns.grad_norm and form in ("loss", "fdcheck"):
        err = f"--grad-norm needs the gradients: --form single, tp or plain (got {form})"
    if not err and ns.norm_counts_replicas and not (ns.grad_norm and form == "tp"):
        err = "--norm-counts-replicas goes with --grad-norm --form tp"
    if not err and ns.vocab < 8:
        err = f"--vocab must be at least 8 (got {ns.vocab})"
    if not err and ns.model != "bert" and ns.seq < 2:
        err = f"--seq must be at least 2 for a causal-LM loss (got {ns.seq})"
    if err:
        ap.error(err)
    return cfg, form, ns.output


def main(argv=None):
    """Entry point: parse arguments, render, write."""
    argv = sys.argv[1:] if argv is None else argv
    cfg, form, output = parse_args(argv)
    text = render(cfg, form, g.command_line(argv).replace("gen_tp_graph", "gen_train_graph"))
    if output == "-":
        sys.stdout.write(text)
    else:
        with open(output, "w", encoding="utf-8") as fh:
            fh.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
