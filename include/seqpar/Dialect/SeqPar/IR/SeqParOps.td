//===- SeqParOps.td - seqpar operations --------------------*- tablegen -*-===//

#ifndef SEQPAR_OPS_TD
#define SEQPAR_OPS_TD

include "seqpar/Dialect/SeqPar/IR/SeqParDialect.td"
include "seqpar/Dialect/SeqPar/IR/SeqParAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

class SeqPar_Op<string mnemonic, list<Trait> traits = []>
    : Op<SeqPar_Dialect, mnemonic, traits>;

// The attention ops' optional dropout of the probabilities: a region of
// the element's global (batch, head, query, key) coordinates yielding its
// keep multiplier, and the global index of the op's first query head.
defvar SeqPar_AttentionDropoutDoc = [{

    Dropout of the probabilities (optional): with a non-empty `dropout`
    region, P is replaced by `P'[b, h, i, j] = P[b, h, i, j] *
    m(b, head_offset + h, qpos(i), kpos(j))`, where `m` is the region, a
    function of the element's *global* coordinates: four `index`
    arguments (batch, query head, query position, key position) and a
    `seqpar.yield` of the keep multiplier in the query's element type
    (0 for a dropped element, 1/(1-p) for a kept one; any value is
    allowed). `head_offset` (default 0) is the global index of the op's
    first query head (a TP rank holds heads [head_offset, head_offset +
    a)); qpos and kpos are the positions (0.. for the whole attention, the
    position operands for a block). The region is isolated from above and
    free of side effects, so the mask depends on nothing but the
    coordinates: every block of a distributed attention, forward or
    backward, evaluates it at its own global coordinates and draws exactly
    the single-device mask, and a backward regenerates it rather than
    keeping it (nothing [b, a, s, s] is saved; the trap of a ring
    backward drawing another mask). The row statistics (max, sum, LSE) are
    those of P, not P'. docs/semantics.md §4.8.
}];

def SeqPar_DropoutOp : SeqPar_Op<"dropout", [
    Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "Dropout whose mask is keyed by global element position";
  let description = [{
    `result[i] = keep(i) ? input[i] / (1 - rate) : 0`, where `keep(i)` is a
    counter-based (Philox-4x32-10) draw keyed by (`seed`, `site`, linear
    index of element i in the *global* tensor of shape `global_shape`):
    `keep(i) = u >= rate` with `u` the top 24 bits of the first output word
    scaled to [0, 1). Because the key is the global linear index, a rank
    holding a piece of the tensor draws exactly the mask the single-device
    program draws for those elements (docs/semantics.md §3.2), unlike Megatron's
    per-rank RNG fork.

    On a single device `offsets` is empty and `global_shape` is absent (the
    input is the global tensor). On a shard, `offsets` gives the global
    coordinates of the shard's first element, one index per dim, and
    `global_shape` the global tensor's shape; the shard covers a
    contiguous box of the global tensor.

    Each dropout site in a program has its own `site` number, so two sites
    never share a mask stream.

    Constraints:
    * `rate` is in [0, 1);
    * the input has a static shape and a floating-point element type;
    * `offsets` is empty or has one index per input dim;
    * `global_shape`, when present, has one entry per dim, each at least the
      local size; it requires `offsets`.

    Example:
    ```mlir
    // Single device.
    %y = seqpar.dropout %x seed %seed {rate = 0.1 : f64, site = 0 : i64}
        : tensor<2x16x64xf32>
    // Rank holding tokens [%off, %off + 8) of 16 (sequence-parallel, t = 2).
    %y1 = seqpar.dropout %x1 seed %seed offsets(%c0, %off, %c0)
        {rate = 0.1 : f64, site = 0 : i64, global_shape = array<i64: 2, 16, 64>}
        : tensor<2x8x64xf32>
    ```
  }];
  let arguments = (ins
    AnyRankedTensor:$input,
    I64:$seed,
    Variadic<Index>:$offsets,
    F64Attr:$rate,
    I64Attr:$site,
    OptionalAttr<DenseI64ArrayAttr>:$global_shape
  );
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $input `seed` $seed (`offsets` `(` $offsets^ `)`)? attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
}

def SeqPar_AttentionOp : SeqPar_Op<"attention", [Pure,
    AttrSizedOperandSegments, IsolatedFromAbove]> {
  let summary = "Scaled dot-product attention with GQA, causal flag or mask";
  let description = [{
    `result[b, h, i, :] = sum_j P[b, h, i, j] * value[b, h / r, j, :]` with
    `P = softmax_j(scale * query[b, h, i, :] . key[b, h / r, j, :]
    + mask[b, h, i, j])`, where r = a / a_kv (grouped-query attention: query
    head h reads key/value head h / r; MQA is a_kv = 1) and, with `causal`,
    keys after the query position are excluded (j > i gets -inf before the
    softmax, so s must equal s_kv). This is the single-device semantics
    (Vaswani et al. 2017, eq. 1; GQA: Ainslie et al. 2023) that the
    context-parallel rewrites distribute; `seqpar-decompose-attention`
    lowers it to linalg (a reference, not a fast kernel).

    Masked rows follow the softmax exactly: a row whose mask is a large
    finite negative everywhere (-1e9, finfo(f32).min) still weighs its
    visible keys uniformly, and a row whose every logit is -inf is NaN
    (softmax's 0/0, which the exported programs compute). Every
    distributed form (`seqpar-context-parallel`, `seqpar-tile-attention`)
    reproduces both.

    Shapes: query [b, a, s, d], key and value [b, a_kv, s_kv, d], result
    [b, a, s, d]; `mask` (additive, e.g. 0 / -inf) has rank 4 and each dim
    equal to [b, a, s, s_kv]'s or 1 (broadcast). Element types are the same
    floating-point type.

    Constraints:
    * query [b, a, s, d], key and value [b, a_kv, s_kv, d], static shapes,
      a_kv divides a, one floating-point element type; the result is the
      query's type; with `causal`, s = s_kv;
    * the mask, if any, has the query's element type and broadcasts to
      [b, a, s, s_kv];
    * with a `dropout` region: one block of four `index` arguments, ending
      in `seqpar.yield` of one value of the query's element type, and no
      op in it with side effects; `head_offset` only with a `dropout`
      region.

    Example (causal GQA, 8 query heads, 2 KV heads):
    ```mlir
    %o = seqpar.attention %q, %k, %v {causal, scale = 0.125 : f32}
        : tensor<2x8x16x64xf32>, tensor<2x2x16x64xf32>, tensor<2x2x16x64xf32>
        -> tensor<2x8x16x64xf32>
    ```

    Example (dropout keeping the elements whose key is even, heads 4.. of
    a TP rank):
    ```mlir
    %o = seqpar.attention %q, %k, %v head_offset(%c4) {scale = 0.125 : f32}
        : tensor<2x4x16x64xf32>, tensor<2x4x16x64xf32>, tensor<2x4x16x64xf32>
        -> tensor<2x4x16x64xf32>
        dropout {
        ^bb0(%b: index, %h: index, %i: index, %j: index):
          %c2 = arith.constant 2 : index
          %c0 = arith.constant 0 : index
          %r = arith.remui %j, %c2 : index
          %keep = arith.cmpi eq, %r, %c0 : index
          %two = arith.constant 2.0 : f32
          %zero = arith.constant 0.0 : f32
          %m = arith.select %keep, %two, %zero : f32
          seqpar.yield %m : f32
        }
    ```
  }] # SeqPar_AttentionDropoutDoc;
  let arguments = (ins
    AnyRankedTensor:$query,
    AnyRankedTensor:$key,
    AnyRankedTensor:$value,
    Optional<AnyRankedTensor>:$mask,
    Optional<Index>:$head_offset,
    F32Attr:$scale,
    UnitAttr:$causal
  );
  let results = (outs AnyRankedTensor:$result);
  let regions = (region MaxSizedRegion<1>:$dropout);
  let assemblyFormat = [{
    $query `,` $key `,` $value (`mask` `(` $mask^ `:` type($mask) `)`)?
    (`head_offset` `(` $head_offset^ `)`)?
    attr-dict `:` type($query) `,` type($key) `,` type($value) `->` type($result)
    (`dropout` $dropout^)?
  }];
  let hasVerifier = 1;
}

def SeqPar_AttentionBackwardOp : SeqPar_Op<"attention_backward", [Pure,
    AttrSizedOperandSegments, IsolatedFromAbove,
    AllTypesMatch<["query", "out", "out_grad", "query_grad"]>,
    AllTypesMatch<["key", "key_grad", "value_grad"]>]> {
  let summary = "Gradients of seqpar.attention: dQ, dK, dV from its out and out_grad";
  let description = [{
    The backward of `seqpar.attention` with the same query, key, value,
    mask, scale and causal flag: with P the attention's probabilities,
    `out` its result and `out_grad` the gradient of the loss with respect
    to it, `dV = P^T . dO`, `dP = dO . V^T`, the softmax backward
    `dS = P * (dP - rowsum(dP * P))` (rowsum(dP * P) = rowsum(dO * out)),
    then `query_grad = scale * dS . K` and `key_grad = scale * dS^T . Q`;
    the key and value gradients are summed over the query heads of each
    GQA group, never repeated (docs/semantics.md §4.7; Dao 2023,
    FlashAttention-2, Algorithm 2). The mask gets no gradient. A row whose
    every logit is -inf has none either (0, where the single-device softmax
    is 0/0). This is what `seqpar-raise-attention` makes of the backward
    an exporter writes out (matmuls and the softmax backward) and what the
    context-parallel rewrites distribute as blocks of
    `seqpar.attention_block_backward` using the forward's LSE;
    `seqpar-decompose-attention` lowers it to linalg, with the LSE of the
    attention whose result is `out` when that attention has the same
    query, key, value, mask, scale and causal flag (`getForwardAttention`),
    else recomputing it.

    With dropout (below), P' = P * m replaces P in the products with dO:
    `dV = P'^T . dO`, `dP = m * (dO . V^T)`, and `out` must be the
    attention's result with the same dropout (rowsum(dP * P) is computed
    as rowsum(dO * out)).

    Constraints: shapes as `seqpar.attention`'s: query, out, out_grad and
    query_grad [b, a, s, d]; key, value, key_grad and value_grad
    [b, a_kv, s_kv, d]; one floating-point element type; the gradients
    are computed in f32 and rounded once; mask and dropout as
    `seqpar.attention`'s.

    Example (causal GQA, 4 query heads on 2 KV heads):
    ```mlir
    %dq, %dk, %dv = seqpar.attention_backward %q, %k, %v, %o, %do
        {causal, scale = 0.125 : f32}
        : tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>
        -> tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>
    ```
  }] # SeqPar_AttentionDropoutDoc;
  let arguments = (ins
    AnyRankedTensor:$query,
    AnyRankedTensor:$key,
    AnyRankedTensor:$value,
    AnyRankedTensor:$out,
    AnyRankedTensor:$out_grad,
    Optional<AnyRankedTensor>:$mask,
    Optional<Index>:$head_offset,
    F32Attr:$scale,
    UnitAttr:$causal
  );
  let regions = (region MaxSizedRegion<1>:$dropout);
  let results = (outs AnyRankedTensor:$query_grad, AnyRankedTensor:$key_grad,
                      AnyRankedTensor:$value_grad);
  let extraClassDeclaration = [{
    /// The seqpar.attention whose result is `out`, when it has this op's
    /// query, key, value, mask, scale and causal flag: its row statistics
    /// (LSE) are the ones this backward needs (dropout scales the
    /// probabilities, not their row sums), so the lowering reads them
    /// instead of recomputing them. Null otherwise.
    AttentionOp getForwardAttention();
  }];
  let assemblyFormat = [{
    $query `,` $key `,` $value `,` $out `,` $out_grad
    (`mask` `(` $mask^ `:` type($mask) `)`)?
    (`head_offset` `(` $head_offset^ `)`)?
    attr-dict `:` type($query) `,` type($key) `,` type($value) `->`
    type($query_grad) `,` type($key_grad)
    (`dropout` $dropout^)?
  }];
  let hasVerifier = 1;
}

def SeqPar_AttentionBlockOp : SeqPar_Op<"attention_block", [Pure,
    AttrSizedOperandSegments, IsolatedFromAbove,
    AllTypesMatch<["row_max", "row_sum"]>]> {
  let summary = "Attention of a query block against one key/value block, with its LSE in two parts";
  let description = [{
    One step of ring attention (docs/semantics.md §4.1): the attention of the
    query block against the key/value block, normalised over this block
    only, and the block's log-sum-exp per query row in two parts:
    `row_max[b, h, i] = max_j l[b, h, i, j]`,
    `row_sum[b, h, i] = sum_j exp(l[b, h, i, j] - row_max[b, h, i])`,
    `out[b, h, i, :] = sum_j exp(l[b, h, i, j] - row_max) / row_sum * value[b, h / r, j, :]`
    with `l = scale * query . key` and, when `causal`, `l = -inf` where
    `kv_positions[j] > q_positions[i]`. The row's LSE is
    `row_max + log(row_sum)`; it is kept in two parts because in f32 a large
    |row_max| absorbs log(row_sum): a row whose mask is entirely -1e9 or
    finfo(f32).min (how Hugging Face masks padding) has LSE = row_max in
    every block, and a merge of such LSEs would weigh c blocks as if each
    held all the keys (docs/semantics.md §4.3). Positions are the tokens' global
    positions (index tensors [s] and [s_kv]), so contiguous and zigzag
    blocks are both expressed. A fully masked row (every l = -inf) has
    row_max = -inf, row_sum = 0 and out = 0.
    An optional additive `mask`, the block's own [b|1, a|1, s|1, s_kv|1]
    (query rows and key columns of this block, e.g. gathered from a whole
    mask by the positions), is added to l before the causal rule.
    `seqpar.attention_merge` combines blocks.

    Constraints:
    * query [b, a, s, d], key and value [b, a_kv, s_kv, d], static shapes,
      a_kv divides a; f32, f16 or bf16, all the same;
    * q_positions is tensor<s x index>, kv_positions tensor<s_kv x index>;
    * out is f32 [b, a, s, d] (the products accumulate and the merge runs
      in f32); row_max and row_sum are f32 [b, a, s];
    * the mask, if any, has the query's element type and broadcasts to
      [b, a, s, s_kv];
    * with a `dropout` region: one block of four `index` arguments, ending
      in `seqpar.yield` of one value of the query's element type, and no
      op in it with side effects; `head_offset` only with a `dropout`
      region.

    With dropout, `out` is the block's P' (below; P normalised over the
    block) times V, while row_max and row_sum stay P's statistics, so
    `seqpar.attention_merge` combines blocks exactly as without it.

    Example (one ring step of causal GQA, 4 query heads on 2 KV heads):
    ```mlir
    %out, %max, %sum = seqpar.attention_block %q, %k, %v positions(%qpos, %kvpos)
        {causal, scale = 0.125 : f32}
        : tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>,
          tensor<8xindex>, tensor<8xindex> -> tensor<1x4x8x16xf32>, tensor<1x4x8xf32>
    ```
  }] # SeqPar_AttentionDropoutDoc;
  let arguments = (ins
    AnyRankedTensor:$query,
    AnyRankedTensor:$key,
    AnyRankedTensor:$value,
    AnyRankedTensor:$q_positions,
    AnyRankedTensor:$kv_positions,
    Optional<AnyRankedTensor>:$mask,
    Optional<Index>:$head_offset,
    F32Attr:$scale,
    UnitAttr:$causal
  );
  let regions = (region MaxSizedRegion<1>:$dropout);
  let results = (outs AnyRankedTensor:$out, AnyRankedTensor:$row_max,
                      AnyRankedTensor:$row_sum);
  let assemblyFormat = [{
    $query `,` $key `,` $value `positions` `(` $q_positions `,` $kv_positions `)`
    (`mask` `(` $mask^ `:` type($mask) `)`)?
    (`head_offset` `(` $head_offset^ `)`)?
    attr-dict `:` type($query) `,` type($key) `,` type($value) `,`
    type($q_positions) `,` type($kv_positions) `->` type($out) `,` type($row_max)
    (`dropout` $dropout^)?
  }];
  let hasVerifier = 1;
}

def SeqPar_AttentionBlockBackwardOp : SeqPar_Op<"attention_block_backward", [Pure,
    AttrSizedOperandSegments, IsolatedFromAbove,
    AllTypesMatch<["row_max", "row_sum"]>, AllTypesMatch<["key_grad", "value_grad"]>]> {
  let summary = "Gradients of a query block's attention against one key/value block, from the rows' global LSE";
  let description = [{
    The backward of `seqpar.attention` for one query block and one
    key/value block (docs/semantics.md §4.7; Dao 2023, FlashAttention-2,
    Algorithm 2). `row_max` and `row_sum` are the rows' LSE in two parts over
    *all* keys (what merging every block's `seqpar.attention_block` gives),
    and `out` the rows' final output, so that the block's probabilities are
    the single-device ones:
    `P[b, h, i, j] = exp(l[b, h, i, j] - row_max[b, h, i]) / row_sum[b, h, i]`
    (0 where l = -inf or row_sum = 0: a fully masked row has no gradient),
    with `l` as in `seqpar.attention_block` (scale, optional additive
    mask, causal by the global positions). With
    `D[b, h, i] = sum_e out_grad[b, h, i, e] * out[b, h, i, e]` and
    `dS = scale * P * (out_grad . value^T - D)`:
    * `query_grad[b, h, i, :] = sum_j dS[b, h, i, j] * key[b, h / r, j, :]`,
    * `key_grad[b, g, j, :] = sum_{h / r = g} sum_i dS[b, h, i, j] * query[b, h, i, :]`,
    * `value_grad[b, g, j, :] = sum_{h / r = g} sum_i P[b, h, i, j] * out_grad[b, h, i, :]`,
    r = a / a_kv (GQA-compact: the key/value gradients are summed over the
    query heads of each group, never repeated). Because P uses the global
    statistics, the attention's gradients are sums of blocks: the query
    gradient is the sum over key/value blocks, a key/value block's gradient
    the sum over query blocks. The mask gets no gradient.

    Constraints: query, key, value as `seqpar.attention_block`'s;
    out_grad the query's type; out the query's shape in its element type or
    f32; row_max and row_sum f32 [b, a, s]; positions and mask as
    `seqpar.attention_block`'s; query_grad f32 [b, a, s, d], key_grad and
    value_grad f32 [b, a_kv, s_kv, d].

    Example (one block of causal GQA, 4 query heads on 2 KV heads):
    ```mlir
    %dq, %dk, %dv = seqpar.attention_block_backward %q, %k, %v, %do, %o, %max, %sum
        positions(%qpos, %kvpos) {causal, scale = 0.125 : f32}
        : tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>,
          tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8xf32>,
          tensor<8xindex>, tensor<8xindex> -> tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>
    ```
  }] # SeqPar_AttentionDropoutDoc;
  let arguments = (ins
    AnyRankedTensor:$query,
    AnyRankedTensor:$key,
    AnyRankedTensor:$value,
    AnyRankedTensor:$out_grad,
    AnyRankedTensor:$out,
    AnyRankedTensor:$row_max,
    AnyRankedTensor:$row_sum,
    AnyRankedTensor:$q_positions,
    AnyRankedTensor:$kv_positions,
    Optional<AnyRankedTensor>:$mask,
    Optional<Index>:$head_offset,
    F32Attr:$scale,
    UnitAttr:$causal
  );
  let regions = (region MaxSizedRegion<1>:$dropout);
  let results = (outs AnyRankedTensor:$query_grad, AnyRankedTensor:$key_grad,
                      AnyRankedTensor:$value_grad);
  let assemblyFormat = [{
    $query `,` $key `,` $value `,` $out_grad `,` $out `,` $row_max `,` $row_sum
    `positions` `(` $q_positions `,` $kv_positions `)`
    (`mask` `(` $mask^ `:` type($mask) `)`)?
    (`head_offset` `(` $head_offset^ `)`)?
    attr-dict `:` type($query) `,` type($key) `,` type($value) `,`
    type($out_grad) `,` type($out) `,` type($row_max) `,`
    type($q_positions) `,` type($kv_positions) `->` type($query_grad) `,`
    type($key_grad)
    (`dropout` $dropout^)?
  }];
  let hasVerifier = 1;
}

def SeqPar_AttentionMergeOp : SeqPar_Op<"attention_merge", [Pure,
    AllTypesMatch<["out_a", "out_b", "out"]>,
    AllTypesMatch<["max_a", "sum_a", "max_b", "sum_b", "row_max", "row_sum"]>]> {
  let summary = "Merge two attention block results by their two-part LSE (f32)";
  let description = [{
    The LSE merge of docs/semantics.md §4.3 with each LSE in two parts (see
    `seqpar.attention_block`), i.e. one step of an online softmax
    (Milakov and Gimelshein 2018), computed in f32: with
    `row_max = max(max_a, max_b)`, block weights
    `w_x = sum_x * exp(max_x - row_max)` (0 when max_x = -inf),
    `row_sum = w_a + w_b` and
    `out = (out_a * w_a + out_b * w_b) / row_sum`.
    This equals `out_a * exp(lse_a - lse) + out_b * exp(lse_b - lse)` with
    `lse = m + log1p(exp(n - m))`, but stays exact where
    max_a = max_b is so large that log(sum) vanishes next to it (a row
    masked entirely by a large finite negative weighs its blocks by their
    key counts, as the single-device softmax does). A row where both blocks
    are fully masked gives row_max = -inf, row_sum = 0 and out = 0, never
    NaN.

    Constraints: out_a, out_b and out are f32 [b, a, s, d]; the four inputs
    max_a, sum_a, max_b, sum_b and the results row_max, row_sum are f32
    [b, a, s].

    Example:
    ```mlir
    %o, %m, %l = seqpar.attention_merge (%o0, %m0, %l0), (%o1, %m1, %l1)
        : tensor<1x4x8x16xf32>, tensor<1x4x8xf32>
    ```
  }];
  let arguments = (ins
    AnyRankedTensor:$out_a, AnyRankedTensor:$max_a, AnyRankedTensor:$sum_a,
    AnyRankedTensor:$out_b, AnyRankedTensor:$max_b, AnyRankedTensor:$sum_b
  );
  let results = (outs AnyRankedTensor:$out, AnyRankedTensor:$row_max,
                      AnyRankedTensor:$row_sum);
  let assemblyFormat = [{
    `(` $out_a `,` $max_a `,` $sum_a `)` `,` `(` $out_b `,` $max_b `,` $sum_b `)`
    attr-dict `:` type($out_a) `,` type($max_a)
  }];
  let hasVerifier = 1;
}

def SeqPar_YieldOp : SeqPar_Op<"yield", [Pure, Terminator,
    ParentOneOf<["AttentionOp", "AttentionBackwardOp", "AttentionBlockOp",
                 "AttentionBlockBackwardOp"]>]> {
  let summary = "Yields an attention dropout region's keep multiplier";
  let description = [{
    Ends the `dropout` region of an attention op with the multiplier of
    the probability at the region's (batch, head, query, key) coordinates
    (see `seqpar.attention`).

    Example:
    ```mlir
    seqpar.yield %m : f32
    ```
  }];
  let arguments = (ins AnyType:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

include "seqpar/Dialect/SeqPar/IR/SeqParCollectives.td"

#endif // SEQPAR_OPS_TD
