//===- Passes.td - seqpar passes ---------------------------*- tablegen -*-===//

#ifndef SEQPAR_TRANSFORMS_PASSES_TD
#define SEQPAR_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def SequenceParallel : Pass<"seqpar-sequence-parallel", "::mlir::ModuleOp"> {
  let summary = "Rewrite a tensor-parallel program into Megatron sequence parallelism";
  let description = [{
    Input: a per-rank tensor-parallel (TP) program in which every row-parallel
    matmul is followed by `shard.all_reduce` (sum) over the TP grid axis.
    Output: the same per-rank program with Megatron sequence parallelism
    (Korthikanti et al. 2022, section 4.2.2): each such all-reduce becomes a
    `shard.reduce_scatter` along the sequence dim, the token-wise ops after it
    (bias, dropout, residual add, LayerNorm/RMSNorm, ...) run on s/t tokens,
    and a `shard.all_gather` along the sequence is placed just before each
    consumer that needs all tokens (a column-parallel matmul, the function's
    return). Communication bytes are unchanged: one all-reduce (2N(t-1)/t
    bytes sent per rank) becomes one reduce-scatter plus one all-gather
    (N(t-1)/t each).

    The sequence dim is read from the `seqpar.seq_dim` argument attribute
    (which wins) or from the `seq-dim` option applied to the first argument;
    when neither is given it is inferred, with a remark, as the dim the
    function's attention (written out or `seqpar.attention`) reads as its
    tokens, followed back to an argument. An explicit choice the attention
    contradicts is kept, with a remark naming both. It is propagated
    through the graph by the token-wise analysis. Values
    that are replicated and indexed by the sequence (the program's input, a
    position table) are sliced locally, without communication, where they
    meet the sharded residual stream. Position-dependent ops (`linalg.index`
    on the sequence loop, `seqpar.dropout`) get the rank's global token
    offset.

    A reduction over the sequence (sum, max or min combiner) of sharded
    values is computed on each shard and combined with an all-reduce over the
    TP axis instead of gathering its input.

    An all-reduce is left in place, with a remark naming the op and the
    reason, when its token-wise region reaches an op the pass cannot prove
    correct on a sequence shard, or when nothing token-wise follows it. Only
    the top level of single-block functions is rewritten. A function with
    call sites keeps its signature (input-sharded and output-sharded are
    ignored for it).

    Before:
    ```mlir
    %p = linalg.matmul ins(%a, %w2 : ...) outs(%z : tensor<16x64xf32>) -> ...
    %r = shard.all_reduce %p on @grid grid_axes = [0] : tensor<16x64xf32> -> tensor<16x64xf32>
    %y = linalg.add ins(%r, %x : ...) outs(%e : tensor<16x64xf32>) -> ...
    ```
    After (t = 2):
    ```mlir
    %rs = shard.reduce_scatter %p on @grid grid_axes = [0] scatter_axis = 0
        : tensor<16x64xf32> -> tensor<8x64xf32>
    %xl = tensor.extract_slice %x[%off, 0] [8, 64] [1, 1] : ...
    %y = linalg.add ins(%rs, %xl : ...) outs(%e : tensor<8x64xf32>) -> ...
    %g = shard.all_gather %y on @grid grid_axes = [0] gather_axis = 0
        : tensor<8x64xf32> -> tensor<16x64xf32>
    ```
  }];
  let options = [
    Option<"gridName", "grid", "std::string", /*default=*/"\"\"",
           "Grid symbol (default: the module's only shard.grid)">,
    Option<"gridAxis", "grid-axis", "int64_t", /*default=*/"-1",
           "TP grid axis; -1 (the default): the grid's only axis">,
    Option<"seqDim", "seq-dim", "int64_t", /*default=*/"-1",
           "Sequence dim of the first tensor argument of rank > seq-dim, "
           "used when no argument has a seqpar.seq_dim attribute; -1 (the "
           "default): inferred from the attention">,
    Option<"inputSharded", "input-sharded", "bool", /*default=*/"false",
           "Take sequence-carrying arguments already sequence-sharded "
           "(changes their type and sharding attribute)">,
    Option<"outputSharded", "output-sharded", "bool", /*default=*/"false",
           "Leave sequence-carrying results sequence-sharded instead of "
           "gathering them back">,
    Option<"padUneven", "pad", "bool", /*default=*/"false",
           "Pad the sequence with zeros to a multiple of the TP size when it "
           "is not divisible (else refuse)">
  ];
  let statistics = [
    Statistic<"numAllReducesBefore", "all-reduces-before",
              "TP all-reduces along the sequence path before the rewrite">,
    Statistic<"numReduceScatters", "reduce-scatters", "Reduce-scatters emitted">,
    Statistic<"numAllGathers", "all-gathers", "All-gathers emitted">,
    Statistic<"numKeptAllReduces", "kept-all-reduces",
              "All-reduces left in place (see remarks)">,
    Statistic<"bytesBefore", "bytes-before",
              "Bytes sent per rank by the rewritten collectives before (docs/semantics.md, section 5)">,
    Statistic<"bytesAfter", "bytes-after",
              "Bytes sent per rank by their replacements after (docs/semantics.md, section 5)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::seqpar::SeqParDialect",
    "::mlir::shard::ShardDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def PlanTensorParallel : Pass<"seqpar-plan-tensor-parallel", "::mlir::ModuleOp"> {
  let summary = "Partition an unsharded transformer graph into the per-rank Megatron TP program";
  let description = [{
    Finds the Megatron structure (Shoeybi et al. 2019, section 3) in an
    unsharded graph and rewrites it into the per-rank tensor-parallel (TP)
    program over one grid axis of t ranks: column-parallel linears (Q/K/V or a
    fused QKV projection, MLP up/gate) keep 1/t of their output features, the
    attention heads and MLP activations between them stay split, and each
    row-parallel linear (attention output, MLP down projection) contracts its
    1/t of the input features and is followed by a `shard.all_reduce` (sum).

    A block starts at the linears that read one activation (a contraction
    with a weight function argument, possibly transposed or broadcast, over
    a replicated input). Their output-feature split is followed through
    bias adds, activations, head reshapes ([b, s, a*hd] <-> [b, s, a, hd],
    flattened [b*s, h] rows), transposes, slices (fused QKV: the weight is
    split in `groups 3`), concat, softmax and attention matmuls (split heads
    are a parallel loop) until every path ends in a contraction over the
    split dim. Weight and bias arguments on the way are split at the source
    (`#seqpar.sharding` on the argument, per-rank type); shape-only inits are
    rebuilt per rank; other replicated values read on split loops (a
    materialised mask, KV heads when a_kv < t) are sliced locally.

    A block the planner cannot prove correct stays replicated, with a remark
    naming the op and the reason (e.g. an LM head: nothing closes its split;
    a norm over the split features). A recognised block whose head or
    feature count t does not divide is an error. Dynamic dims are an error.
    Arguments and results without a split get `#seqpar.sharding<@grid,
    replicated>`. The grid is created (`@grid`, shape [t]) when the module
    has none.

    Before (t = 2, one MLP):
    ```mlir
    %u = linalg.matmul ins(%x, %w1 : tensor<16x64xf32>, tensor<64x256xf32>) ...
    %g = linalg.generic ... ins(%u ...)  // GELU
    %y = linalg.matmul ins(%g, %w2 : tensor<16x256xf32>, tensor<256x64xf32>) ...
    ```
    After:
    ```mlir
    %u = linalg.matmul ins(%x, %w1 : tensor<16x64xf32>, tensor<64x128xf32>) ...
    %g = linalg.generic ... ins(%u ...)
    %p = linalg.matmul ins(%g, %w2 : tensor<16x128xf32>, tensor<128x64xf32>) ...
    %y = shard.all_reduce %p on @grid grid_axes = [0] : ...
    ```
  }];
  let options = [
    Option<"tp", "tp", "int64_t", /*default=*/"0",
           "TP size t (default: the size of the grid axis)">,
    Option<"gridName", "grid", "std::string", /*default=*/"\"grid\"",
           "Grid symbol (created with shape [tp], [tp, cp] or "
           "[tp, cp/cp-ulysses, cp-ulysses] when missing)">,
    Option<"cp", "cp", "int64_t", /*default=*/"1",
           "Size of a second grid axis for context parallelism, used when "
           "the pass creates the grid">,
    Option<"cpUlysses", "cp-ulysses", "int64_t", /*default=*/"1",
           "With u > 1 (dividing cp), the created grid is [tp, cp/u, u]: "
           "ring and Ulysses axes for hybrid context parallelism">,
    Option<"gridAxis", "grid-axis", "int64_t", /*default=*/"0",
           "TP grid axis">
  ];
  let statistics = [
    Statistic<"numBlocks", "blocks", "Megatron blocks partitioned">,
    Statistic<"numColumnParallel", "column-parallel", "Column-parallel linears">,
    Statistic<"numRowParallel", "row-parallel", "Row-parallel linears (all-reduces)">,
    Statistic<"numReplicated", "left-replicated", "Linears left replicated (see remarks)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::seqpar::SeqParDialect",
    "::mlir::shard::ShardDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def FoldReduceScatter : Pass<"seqpar-fold-reduce-scatter"> {
  let summary = "Fold all_reduce followed by all_slice into reduce_scatter";
  let description = [{
    Upstream `shard-partition` never emits `reduce_scatter`: an output
    sharded along a dim after a partial-sum matmul becomes `all_reduce` then
    `all_slice`. When the all-reduce is a sum over the same grid axes as the
    slice, and the slice is its only user, the pair is one `reduce_scatter`
    (N(t-1)/t bytes sent per rank instead of 2N(t-1)/t).

    Before:
    ```mlir
    %r = shard.all_reduce %p on @grid grid_axes = [0] : tensor<16x64xf32> -> tensor<16x64xf32>
    %s = shard.all_slice %r on @grid grid_axes = [0] slice_axis = 0 : tensor<16x64xf32> -> tensor<8x64xf32>
    ```
    After:
    ```mlir
    %s = shard.reduce_scatter %p on @grid grid_axes = [0] scatter_axis = 0 : tensor<16x64xf32> -> tensor<8x64xf32>
    ```
  }];
  let dependentDialects = ["::mlir::shard::ShardDialect"];
}

def ExpandDropout : Pass<"seqpar-expand-dropout"> {
  let summary = "Lower seqpar.dropout to Philox-4x32-10 arithmetic in a linalg.generic";
  let description = [{
    Replaces each `seqpar.dropout` with a `linalg.generic` that computes, for
    every element, the global coordinates (`linalg.index` plus `offsets`),
    the row-major linear index in `global_shape`, and one Philox-4x32-10 draw
    (Salmon et al., "Parallel Random Numbers: As Easy as 1, 2, 3", SC 2011)
    with counter (index low 32 bits, index high 32 bits, site, 0) and key
    (seed low 32 bits, seed high 32 bits): u = (word0 >> 8) * 2^-24, keep
    when u >= rate, result = keep ? x * (1 / (1 - rate)) : 0. A shard and the
    single device therefore draw the same mask for the same element.

    Before:
    ```mlir
    %y = seqpar.dropout %x seed %s {rate = 0.1 : f64, site = 0 : i64} : tensor<2x8xf32>
    ```
    After: a `linalg.generic` over [2, 8] with 20 `arith.mului_extended`.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def LowerToUpstream : Pass<"seqpar-lower-to-upstream", "::mlir::ModuleOp"> {
  let summary = "Lower every seqpar op and attribute to upstream MLIR";
  let description = [{
    For stacks that consume upstream dialects only (e.g. IREE's shard-to-flow
    conversion of `shard` collectives): `seqpar.dropout` becomes its Philox
    `linalg.generic` (as in `seqpar-expand-dropout`), and every `seqpar.*`
    function argument or result attribute becomes a builtin string attribute
    `seqpar_lowered.<name>` holding the printed value (kept for humans and
    tools; the `seqpar_lowered` prefix names no dialect, so upstream
    verifiers accept it). The result parses and verifies
    with upstream `mlir-opt`. Fails on any seqpar op it cannot lower.

    Before:
    ```mlir
    func.func @f(%x: tensor<8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>})
    ```
    After:
    ```mlir
    func.func @f(%x: tensor<8xf32> {seqpar_lowered.sharding = "#seqpar.sharding<@grid, [[0]]>"})
    ```
  }];
  let options = [
    Option<"keepCollectives", "keep-collectives", "bool", /*default=*/"false",
           "Leave seqpar's asynchronous collectives for "
           "seqpar-lower-collectives-to-runtime (used by seqpar-lower-to-llvm)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def RaiseAttention : Pass<"seqpar-raise-attention"> {
  let summary = "Raise attention written out by exporters to seqpar.attention";
  let description = [{
    Anchored on any plain contraction P.V (into zeros) whose P is a softmax
    over the keys: `linalg.softmax`, or exp(x - max) / sum written as
    generics, named ops or `linalg.reduce` (keepdim or not; / sum or
    * (1 / sum)). The logits are Q.K^T, a plain contraction, optionally
    times constants (in the body, a fill or a splat operand) and plus an
    additive mask or masked by a select. Elements are followed back through
    reshapes, broadcasts, transposes, slices and copy generics, so Q, K, V
    may be held in any layout (batch_matmul on [b*a, s, d], rank-4 generics
    over [b, a], transposed maps): the op gets the tensors holding them as
    [b, heads, tokens, d] (transposed when held otherwise), K and V before a
    GQA repeat. A mask or select proven causal (symbolically, or a constant
    table element by element) whose hidden value is at or below -1e8
    (-32752 for f16 logits; it then acts as -inf unless a row's logits span
    more than that)
    becomes the `causal` flag; any other additive mask, Megatron's -1e4
    causal mask included, stays an operand. The P.V result becomes `seqpar.attention`'s
    (collapsed when the batch was); the rest becomes dead. Attention that
    does not match stays as it was, with a remark at P.V naming the step
    that failed; every other `linalg.softmax` or written-out softmax it
    knows gets a remark too.
  }];
  let statistics = [
    Statistic<"numRaised", "raised", "Attention blocks raised">
  ];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect",
    "::mlir::seqpar::SeqParDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def InstrumentAttention : Pass<"seqpar-instrument-attention", "::mlir::ModuleOp"> {
  let summary = "Count attention FLOPs and time in runtime compute regions";
  let description = [{
    Wraps every `seqpar.attention` and `seqpar.attention_block` in calls of
    `seqpar_rt_region_begin("attention", flops)` and
    `seqpar_rt_region_end("attention")` (llvm.call on a module string), so
    the runtime's per-rank counters (printed by seqpar-run) hold the number
    of attention blocks each rank ran, their FLOPs and their wall time.
    flops = 4 * b * a * s * t * d: the multiply-adds of Q.K^T and P.V as the
    decomposition computes them (a causal block counts whole; softmax is not
    counted, as in seqpar-run's contraction FLOPs). Blocks a ring skips
    (scf.if on the causal order) are not counted, since they do not run.
    Runs in `seqpar-lower-to-llvm` before `seqpar-decompose-attention`, whose
    ops land between the two calls. Without an initialised runtime the calls
    return an error status that compiled code ignores.
  }];
  let statistics = [
    Statistic<"numInstrumented", "instrumented", "Attention ops wrapped">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def TileAttention : Pass<"seqpar-tile-attention"> {
  let summary = "Split attention over key/value tiles merged by their LSEs";
  let description = [{
    Every `seqpar.attention_block` with more than `kv-tile` keys (a multiple
    of it) becomes an `scf.for` over key/value tiles: each iteration an
    `attention_block` of the queries against `kv-tile` keys (and their
    positions), merged into the running (out, row max, row sum) by
    `seqpar.attention_merge` (the rule of docs/semantics.md §4.3 with the LSE in
    two parts, i.e. an online softmax), starting from out = 0, row max = -inf,
    row sum = 0; a mask's key columns are sliced with the tile. A
    `seqpar.attention` (f32, f16 or bf16) with more keys is first written
    as one block over positions 0.. (finished in its type: NaN on rows
    whose every key is masked by -inf, as the softmax). The decomposition
    then materialises
    [b, a, s, kv-tile] scores instead of [b, a, s, t]: for a 16k x 16k f32
    block, about 0.4 GiB per head instead of 6 GiB (six score-sized
    buffers).
    Runs in `seqpar-lower-to-llvm` before `seqpar-decompose-attention`.
  }];
  let options = [
    Option<"kvTile", "kv-tile", "int64_t", /*default=*/"1024",
           "Keys per tile; blocks with at most this many keys, or a number "
           "not divisible by it, stay whole (0 disables; negative is an "
           "error)">
  ];
  let statistics = [
    Statistic<"numTiled", "tiled", "Attention blocks split into tiles">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def DecomposeAttention : Pass<"seqpar-decompose-attention"> {
  let summary = "Lower seqpar.attention (and its ring-step ops) to linalg references";
  let description = [{
    Replaces each `seqpar.attention` with its reference decomposition:
    scores = Q.K^T (a `linalg.generic` contraction over the head dim whose
    key map reads KV head h / (a / a_kv), so GQA/MQA never materialise
    repeated K/V), then scale, + mask, causal select (-inf where the key
    position exceeds the query position, from `linalg.index`),
    `linalg.softmax` over the keys, and P.V (contraction over the keys),
    all in f32 (f16/bf16 operands are extended; the result is rounded once).
    Used by `seqpar-lower-to-llvm` (before aggregate decomposition) so a
    program holding the op runs under seqpar-run; it is the semantics the
    context-parallel strategies are checked against.
    `seqpar.attention_block` (one ring step: out and the two-part LSE, row
    max and row sum, of a query block against a K/V block, causal by global
    positions) and `seqpar.attention_merge` (the LSE merge of
    docs/semantics.md §4.3) lower the same way, with fully masked rows giving
    row max = -inf, row sum = 0 and out = 0, never NaN.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def ContextParallel : Pass<"seqpar-context-parallel", "::mlir::ModuleOp"> {
  let summary = "Shard the whole sequence over a CP grid axis and distribute attention";
  let description = [{
    Context parallelism (docs/semantics.md §4). Input: a program whose attention
    is `seqpar.attention` (see `seqpar-raise-attention`), with the sequence
    dim of its inputs named by `seqpar.seq_dim` or the `seq-dim` option, or
    else inferred from the attention as in `seqpar-sequence-parallel`; it
    may already be a TP per-rank program (the CP axis is then another axis
    of the same grid). Output: the per-rank program on a CP axis of c ranks
    in which every sequence-carrying argument holds s/c tokens (contiguous,
    or with `load-balance=zigzag` the chunks r and 2c-1-r of 2c chunks) and
    carries a `#seqpar.sharding` saying so; token-wise ops (linears, norms,
    residuals, dropout, RoPE) run on the local tokens, position-dependent ops
    read global positions (zigzag included), replicated position tables are
    sliced locally, and sequence-carrying results stay sharded.

    Each `seqpar.attention` (f32, f16 or bf16; causal, masked or neither) is rewritten by
    `strategy`:
    * `ring`: c steps of `seqpar.attention_block` (out and the f32 LSE, in
      two parts, of the local queries against one K/V block, causal by
      global positions), merged with `seqpar.attention_merge`; K and V move to the next rank
      with `seqpar.shift_start` started before the step's compute and waited
      after it (c-1 transfers, compact a_kv heads). Causal blocks entirely
      in the future are skipped; with zigzag each step after the first
      computes exactly half a dense block (the local queries against the
      first half of the K/V block, or the second half of the queries against
      all of it).
    * `all-gather`: K and V are all-gathered over the CP axis once; one
      `seqpar.attention_block` with global positions.
    * `ulysses`: `shard.all_to_all` of Q, K, V from sequence-sharded to
      head-sharded (a and a_kv must be divisible by c), attention over the
      whole sequence on a/c heads, and back.
    * `hybrid` (USP, Fang and Zhao 2024): the sequence is split over the
      group [grid-axis, ulysses-axis] (r x u = c ranks, row-major); Ulysses'
      all-to-all over `ulysses-axis` (a and a_kv divisible by u) gives each
      rank a/u heads of the u*s/c tokens of its ring rank, a ring over
      `grid-axis` (r steps, as above, with zigzag over the ring's 2r chunks)
      computes them, and the all-to-all goes back.
    Bytes per rank (docs/semantics.md §5) are reported in a remark per function.

    With `pad`, a sequence not divisible by c (2c with zigzag) is padded at
    its end to s' = c*ceil(s/c) (2c*ceil(s/2c)): the sequence-carrying
    arguments stay whole (replicated) and each rank pads and takes its own
    tokens; attention masks the padding keys (positions >= s); every
    sequence-carrying result is all-gathered and cut back to s.

    An additive mask (whole on every rank) is read by each block at its
    query and key positions. Values that reach an op that needs all tokens
    (an op without a token-wise rule, an attention on f64 or whose mask is
    split along the sequence) are all-gathered (and un-permuted) before it,
    with a remark naming the op. Without `pad`, sequence lengths not
    divisible by c (2c with zigzag) are located errors, and so is a CP
    size c larger than s (padded or not). Functions with call sites are
    left as they are, with a remark.
  }];
  let options = [
    Option<"gridName", "grid", "std::string", /*default=*/"\"\"",
           "Grid symbol (default: the module's only shard.grid)">,
    Option<"gridAxis", "grid-axis", "int64_t", /*default=*/"-1",
           "CP grid axis; -1 (the default): the grid's only axis">,
    Option<"seqDim", "seq-dim", "int64_t", /*default=*/"-1",
           "Sequence dim of the first tensor argument of rank > seq-dim, "
           "used when no argument has a seqpar.seq_dim attribute; -1 (the "
           "default): inferred from the attention">,
    Option<"strategy", "strategy", "std::string", /*default=*/"\"ring\"",
           "Distributed attention: ring, all-gather, ulysses or hybrid">,
    Option<"ulyssesAxis", "ulysses-axis", "int64_t", /*default=*/"-1",
           "Grid axis of hybrid's Ulysses all-to-all (the ring runs on "
           "grid-axis); the sequence is split over both; -1 (the default): "
           "none, for the other strategies">,
    Option<"pad", "pad", "bool", /*default=*/"false",
           "Pad a sequence not divisible by c (2c with zigzag) and mask the "
           "padding (arguments stay whole, results are gathered)">,
    Option<"loadBalance", "load-balance", "std::string",
           /*default=*/"\"zigzag\"",
           "Token assignment: zigzag (chunks r and 2c-1-r of 2c) or none "
           "(contiguous s/c tokens per rank)">
  ];
  let statistics = [
    Statistic<"numRewritten", "num-attention-rewritten",
              "seqpar.attention ops distributed over the CP axis">,
    Statistic<"numGathered", "num-values-gathered",
              "Values all-gathered for ops that need all tokens">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::seqpar::SeqParDialect",
    "::mlir::shard::ShardDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def CheckTosaShapes : Pass<"seqpar-check-tosa-shapes", "::mlir::func::FuncOp"> {
  let summary = "Refuse tosa ops with dynamic shapes before tosa is lowered";
  let description = [{
    Emits an error at the first tosa op with an operand or result that is not
    a static ranked tensor, and fails. The upstream tosa-to-linalg lowering
    of MLIR 22 assumes static shapes in places (a `tosa.reduce_sum` whose
    result dim is dynamic over a static input crashes it, without
    assertions to say why), and seqpar plans static shapes only, so the
    pipelines that lower tosa (`seqpar-pipeline`, `seqpar-sp-pipeline`,
    `seqpar-lower-to-llvm`, and the graph reading of seqpar-report and
    seqpar-plan-auto) run this first.

    ```mlir
    // error: 'tosa.reduce_sum' op result #0 has type 'tensor<?x8x1xf32>':
    // seqpar lowers tosa with static shapes only
    %r = tosa.reduce_sum %a {axis = 2 : i32} : (tensor<2x8x16xf32>) -> tensor<?x8x1xf32>
    ```
  }];
}

def DecomposeAggregates : Pass<"seqpar-decompose-aggregates"> {
  let summary = "Decompose aggregate linalg ops (linalg.softmax) into generics";
  let description = [{
    Replaces every op implementing `linalg::AggregatedOpInterface` (e.g.
    `linalg.softmax`) with its decomposition into linalg generics and named
    ops (max, sub+exp, sum, div), which bufferize and lower to loops. Used by
    `seqpar-lower-to-llvm` before bufferization.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def TestTokenWise : Pass<"seqpar-test-token-wise", "::mlir::func::FuncOp"> {
  let summary = "Report the token-wise analysis as remarks (for tests)";
  let description = [{
    Runs the token-wise analysis (docs/semantics.md §3.1) on each function and
    emits one remark per op with a tensor result: `token-wise along dim D` (with
    `position-dependent` when it reads positions along the sequence loop),
    or `not token-wise: <reason>`, or `no sequence dim`.
  }];
  let options = [
    Option<"seqDim", "seq-dim", "int64_t", /*default=*/"-1",
           "Sequence dim of the first tensor argument of rank > seq-dim, "
           "used when no argument has a seqpar.seq_dim attribute">
  ];
}

def TestSeqDim : Pass<"seqpar-test-seq-dim", "::mlir::func::FuncOp"> {
  let summary = "Report each function's sequence dims as a remark (for tests)";
  let description = [{
    Chooses the sequence dim of each argument as the sequence-parallel and
    context-parallel rewrites do (a `seqpar.seq_dim` attribute, else the
    `seq-dim` option, else the dim the function's attention reads as its
    tokens, followed back to an argument) and emits one remark per
    function: `argument sequence dims: [d0, d1, ...]` (-1: none), or
    `no sequence dim: <why>`. The choice's own remarks (inferred, or an
    explicit choice the attention contradicts) come with it.
  }];
  let options = [
    Option<"seqDim", "seq-dim", "int64_t", /*default=*/"-1",
           "Sequence dim of the first tensor argument of rank > seq-dim, "
           "used when no argument has a seqpar.seq_dim attribute; -1 (the "
           "default): inferred from the attention">
  ];
}

def TestSimulateRanks : Pass<"seqpar-test-simulate-ranks", "::mlir::ModuleOp"> {
  let summary = "Simulate the t ranks of a per-rank program in one function (for tests)";
  let description = [{
    Proof by execution, without a communication runtime: given a per-rank
    entry function on a 1-D `shard.grid` of static size t, creates
    `<func>_simulated` whose signature is the global (single-device) one,
    derived from each argument's and result's `seqpar.sharding` (replicated:
    same type; split, grouped or zigzag: the split dim times t; partial:
    refused). Its body cuts rank r's arguments from the global ones
    (`tensor.extract_slice`, plus `tensor.concat` for grouped and zigzag
    splits), runs t copies of the per-rank body in lockstep with per-rank
    value maps, and replaces each shard op by what it computes across ranks:
    `process_multi_index`/`process_linear_index` -> the constant r,
    `grid_shape` -> t, `all_reduce` (sum/max/min/product) -> elementwise arith
    on the t inputs, `reduce_scatter` -> that combination sliced per rank
    along `scatter_axis`, `all_gather` -> `tensor.concat` of the t inputs
    along `gather_axis`, `all_slice` -> each rank's slice. Results are
    assembled per their sharding (replicated: rank 0's value). Any other
    shard op, a shard op nested in a region, a collective on another grid, a
    missing sharding attribute, a partial sharding, or a grid that is not
    1-D and static is an error. The per-rank function is left unchanged.

    Before (t = 2):
    ```mlir
    func.func @forward(%x: tensor<4x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>})
        -> (tensor<8x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
      %g = shard.all_gather %x on @grid grid_axes = [0] gather_axis = 0
          : tensor<4x8xf32> -> tensor<8x8xf32>
      return %g : tensor<8x8xf32>
    }
    ```
    After (added):
    ```mlir
    func.func @forward_simulated(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
      %x0 = tensor.extract_slice %x[0, 0] [4, 8] [1, 1] : tensor<8x8xf32> to tensor<4x8xf32>
      %x1 = tensor.extract_slice %x[4, 0] [4, 8] [1, 1] : tensor<8x8xf32> to tensor<4x8xf32>
      %g = tensor.concat dim(0) %x0, %x1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
      return %g : tensor<8x8xf32>
    }
    ```
  }];
  let options = [
    Option<"funcName", "func", "std::string", /*default=*/"\"forward\"",
           "Per-rank entry function to simulate">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def FreeAtLastUse : Pass<"seqpar-free-at-last-use", "::mlir::func::FuncOp"> {
  let summary = "Move each memref.dealloc to just after the buffer's last use";
  let description = [{
    Upstream's ownership-based deallocation (`buffer-deallocation-pipeline`)
    frees a buffer at the end of the block that allocated it, so a
    straight-line forward pass holds every intermediate until it returns:
    its peak is the sum of all its buffers. This pass moves a
    `memref.dealloc` of a `memref.alloc` in the same block to just after the
    last op of that block that uses the buffer or any view of it
    (`ViewLikeOpInterface`, `memref.cast`, `memref.extract_strided_metadata`;
    a use nested in a loop or branch counts at that op). A
    `seqpar.memref_wait` names both buffers of its asynchronous collective,
    so they stay alive until the transfer completes.

    Left alone: buffers that escape (yielded, returned, passed to a
    branch), that are freed more than once, or whose uses lie outside the
    block's ops. Runs in `seqpar-lower-to-llvm` after deallocation
    placement; `seqpar-report` replays the same lowering.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def LowerCollectivesToRuntime
    : Pass<"seqpar-lower-collectives-to-runtime", "::mlir::ModuleOp"> {
  let summary = "Lower memref-level collectives and process queries to seqpar runtime calls";
  let description = [{
    A dialect conversion, run after bufferization (and after
    `buffer-deallocation-pipeline`, which the memref-level ops' memory
    effects keep working): every `seqpar.memref_{all_gather, reduce_scatter,
    all_reduce, all_to_all, shift}` becomes a call of the runtime C ABI
    (`seqpar_rt_<op>`, or `seqpar_rt_<op>_start` for the asynchronous form,
    whose `!seqpar.request` becomes the runtime's request pointer),
    `seqpar.memref_wait` a call of `seqpar_rt_wait`, and
    `shard.process_multi_index` / `process_linear_index` / `grid_shape` the
    process's coordinates (`seqpar_rt_process_multi_index`) or constants.

    Calls take: the communicator of the (grid, axes) pair, created with
    `seqpar_rt_comm_get` on first use and cached in a global; the dtype
    code of the element type (f32 0, f16 1, bf16 2); buffer addresses
    (aligned pointer + offset); the input shape as a private constant
    global. The first runtime use calls `seqpar_rt_set_error_mode(ABORT)`
    and `seqpar_rt_init`, so the compiled code never checks status codes:
    any runtime error prints the rank and aborts the job. A collective over
    a group of one rank becomes a `memref.copy` (no runtime call), and a
    process index on a grid of one process the constant 0, so single-device
    programs do not need the runtime.

    Errors (located at the op): an element type other than f32/f16/bf16, a
    dynamic shape, a buffer that is not a contiguous row-major block, a
    dynamic grid, a collective still on tensors (bufferize first), any other
    `shard` op.

    Before:
    ```mlir
    seqpar.memref_all_gather %in, %out on @grid grid_axes = [0] gather_axis = 1
        : memref<2x8x64xf32>, memref<2x16x64xf32>
    ```
    After:
    ```mlir
    %comm = llvm.call @__seqpar_comm_grid_a0() : () -> !llvm.ptr
    %dtype = llvm.mlir.constant(0 : i32) : i32
    %pin = llvm.inttoptr %in_address : i64 to !llvm.ptr
    %pout = llvm.inttoptr %out_address : i64 to !llvm.ptr
    %shape = llvm.mlir.addressof @__seqpar_i64_2_8_64 : !llvm.ptr
    %rank = llvm.mlir.constant(3 : i32) : i32
    %dim = llvm.mlir.constant(1 : i32) : i32
    %status = llvm.call @seqpar_rt_all_gather(%comm, %dtype, %pin, %pout, %shape, %rank, %dim)
        : (!llvm.ptr, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, i32) -> i32
    ```
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

def LowerMatmulToBlas : Pass<"seqpar-lower-matmul-to-blas", "::mlir::ModuleOp"> {
  let summary = "Lower f32 matmul-like linalg ops on buffers to cblas_sgemm calls";
  let description = [{
    After bufferization, every linalg op on f32 buffers that is a
    contraction (`linalg.matmul`, `linalg.batch_matmul`, or a
    `linalg.generic` with a multiply-add body, e.g. the [b, s, h] x [h, n]
    linear layers of exported graphs) whose operands map onto one row-major
    GEMM per batch becomes calls of CBLAS `cblas_sgemm` (alpha = 1,
    beta = 1, since linalg accumulates into its output): one call, or an
    `scf.for` over the batch dim with one call per batch. Conditions: one
    k dim, one n dim, at most one batch dim (or two, as attention's [b, a],
    that every operand lays out as one equally spaced batch); the m dims
    contiguous in memory in A and C, unit stride on the innermost dim of
    each operand (A and B may be transposed); static strides. Anything else, and
    contractions on f16/bf16 (with a remark), stays for
    `convert-linalg-to-loops`. The program then needs a CBLAS library at
    link or JIT time (Debian: libopenblas-dev).

    Before:
    ```mlir
    linalg.matmul ins(%a, %b : memref<32x64xf32>, memref<64x16xf32>)
                  outs(%c : memref<32x16xf32>)
    ```
    After:
    ```mlir
    llvm.call @cblas_sgemm(%row_major, %no_trans, %no_trans, %m, %n, %k, %one,
        %pa, %lda, %pb, %ldb, %one, %pc, %ldc) : (i32, i32, i32, i32, i32, i32, f32,
        !llvm.ptr, i32, !llvm.ptr, i32, f32, !llvm.ptr, i32) -> ()
    ```
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

#endif // SEQPAR_TRANSFORMS_PASSES_TD
