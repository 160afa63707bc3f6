//===- Passes.td - seqpar transform passes -----------------*- tablegen -*-===//
//
// The transforms, grouped by stage as in lib/Dialect/SeqPar/Transforms/
// (one library per stage). The conversions to runtime calls and BLAS are in
// seqpar/Conversion/Passes.td, the test passes in test/lib.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_TRANSFORMS_PASSES_TD
#define SEQPAR_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// The grid (Sharding/)
//===----------------------------------------------------------------------===//

def CreateGrid : Pass<"seqpar-create-grid", "::mlir::ModuleOp"> {
  let summary = "Create the TP x CP grid whose axes seqpar-pipeline shards over";
  let description = [{
    Creates the private `shard.grid @grid` of the grid contract
    (docs/semantics.md §4.6): axis 0 holds the `tp` ranks of tensor
    parallelism; with `cp` > 1, axis 1 holds the `cp` ranks of context
    parallelism; with `cp-ulysses` = u > 1 (hybrid), axis 1 is the ring of
    cp/u ranks and axis 2 the Ulysses all-to-all of u ranks. The
    tensor-parallel, sequence-parallel and context-parallel passes then run
    on those axes (`seqpar-pipeline` does all of it).

    A module that already holds `@grid` of that shape is left as it is;
    any other symbol `@grid` is an error. Sizes below 1, a `cp-ulysses`
    that does not divide `cp`, and tp x cp ranks that overflow a 64-bit
    count are errors at the module. With `canonicalize-first` the pass
    first runs the clean-up `seqpar-canonicalize-cse` runs, as
    `seqpar-pipeline` does where no TP planner runs (the frontend's closing
    clean-up and the grid, one verification of the module for both,
    docs/benchmarks.md §1).

    Before (`tp=2 cp=4 cp-ulysses=2`):
    ```mlir
    func.func @f(%x: tensor<16x64xf32>) -> tensor<16x64xf32> { ... }
    ```
    After:
    ```mlir
    shard.grid @grid(shape = 2x2x2) {sym_visibility = "private"}
    func.func @f(%x: tensor<16x64xf32>) -> tensor<16x64xf32> { ... }
    ```
  }];
  let options = [
    Option<"tp", "tp", "int64_t", /*default=*/"1",
           "TP size t (grid axis 0)">,
    Option<"cp", "cp", "int64_t", /*default=*/"1",
           "Context-parallel size c, ring and Ulysses ranks together "
           "(grid axis 1, or axes 1 and 2 with cp-ulysses; 1: no CP axis)">,
    Option<"cpUlysses", "cp-ulysses", "int64_t", /*default=*/"1",
           "Hybrid's Ulysses size u dividing cp (grid [tp, cp/u, u]; 1: no "
           "Ulysses axis)">,
    Option<"canonicalizeFirst", "canonicalize-first", "bool",
           /*default=*/"false",
           "Canonicalize and CSE the module first, as seqpar-canonicalize-cse "
           "does, so that the module is verified once for both">
  ];
  let dependentDialects = ["::mlir::shard::ShardDialect"];
}

//===----------------------------------------------------------------------===//
// Tensor parallelism (TensorParallel/)
//===----------------------------------------------------------------------===//

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

    A training graph (forward and backward in one function) is planned the
    same way: the backward's linears follow their weights' splits, the input
    gradients of column-parallel linears get their all-reduce, and the
    gradients of split weights are returned split (docs/training-graphs.md);
    only a weight's first linear seeds a block.

    A block the planner cannot prove correct stays replicated, with a remark
    naming the op and the reason (e.g. an LM head: nothing closes its split;
    a norm over the split features). A recognised block whose head or
    feature count t does not divide is an error (recognised: it closes when
    nothing is divided). Dynamic dims are an error. A function that is
    already a per-rank program (an argument its `#seqpar.sharding` splits,
    a collective of the shard dialect) is left as it is, with a remark.
    Arguments and results without a split get `#seqpar.sharding<@grid,
    replicated>`. The planner runs on axis `grid-axis` of the grid named
    by `grid`, whose size must be `tp` when given; when the module has no
    such grid, it creates one of shape [t]. With `cp` >= 1 the grid is
    instead seqpar-pipeline's TP x CP grid (docs/semantics.md §4.6), made or
    checked as `seqpar-create-grid` does, with TP on axis 0: the pipeline
    makes its grid here rather than in a pass of its own, which would cost
    one more verification of the whole module (docs/benchmarks.md §1).
    For the same reason, with `canonicalize-first` the planner first runs
    the clean-up `seqpar-canonicalize-cse` runs (exporters reshape the same
    activation once per linear; CSE makes the linears of a block read one
    value), and with `raise-attention` it then raises attention on the
    per-rank program as `seqpar-raise-attention` nested on `func.func`
    does (`raise-backward`: its `backward`), in each of the module's
    functions, planned or not, as `seqpar-pipeline` does.

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
           "Grid symbol (created with shape [tp] when missing, or as the "
           "TP x CP grid with cp >= 1)">,
    Option<"gridAxis", "grid-axis", "int64_t", /*default=*/"0",
           "TP grid axis">,
    Option<"cp", "cp", "int64_t", /*default=*/"0",
           "With cp >= 1: the grid is seqpar-create-grid's TP x CP grid of "
           "tp, cp and cp-ulysses (made when missing, its shape checked "
           "otherwise); 0: any grid whose TP axis has tp ranks">,
    Option<"cpUlysses", "cp-ulysses", "int64_t", /*default=*/"1",
           "Hybrid's Ulysses size u of the TP x CP grid (only with cp >= 1)">,
    Option<"canonicalizeFirst", "canonicalize-first", "bool",
           /*default=*/"false",
           "Canonicalize and CSE the module first, as seqpar-canonicalize-cse "
           "does (the form the planner reads), so that the module is "
           "verified once for both">,
    Option<"raiseAttention", "raise-attention", "bool", /*default=*/"false",
           "Then raise attention on the per-rank program, as "
           "seqpar-raise-attention does, so that the module is verified "
           "once for both">,
    Option<"raiseBackward", "raise-backward", "bool", /*default=*/"false",
           "With raise-attention: also raise each raised attention's "
           "backward (seqpar-raise-attention's backward)">
  ];
  let statistics = [
    Statistic<"numBlocks", "blocks", "Megatron blocks partitioned">,
    Statistic<"numColumnParallel", "column-parallel", "Column-parallel linears">,
    Statistic<"numRowParallel", "row-parallel", "Row-parallel linears (all-reduces)">,
    Statistic<"numReplicated", "left-replicated", "Linears left replicated (see remarks)">,
    Statistic<"numAttentionRaised", "attention-raised",
              "Attention blocks raised (raise-attention)">,
    Statistic<"numAttentionBackwardRaised", "attention-backward-raised",
              "Attention backwards raised (raise-backward)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::seqpar::SeqParDialect",
    "::mlir::shard::ShardDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def CombineAllReduces : Pass<"seqpar-combine-all-reduces"> {
  let summary = "Add partial sums before one all_reduce instead of adding all_reduce results";
  let description = [{
    A sum all-reduce is linear: all_reduce(a) + all_reduce(b) =
    all_reduce(a + b). A training graph's backward sums the input gradients
    of the column-parallel linears that read one activation (separate Q, K,
    V or gate and up projections): one all_reduce per linear after TP
    planning, where Megatron's fused projection sends one (docs/semantics.md
    §10). This pass rewrites an elementwise add of two sum all_reduce results
    (over the same grid and axes, each through reshapes used only there)
    into the add of the partial sums followed by one all_reduce, 2N(t-1)/t
    bytes per rank saved per fold (N the tensor's bytes).

    Before:
    ```mlir
    %a = shard.all_reduce %pa on @grid grid_axes = [0] : tensor<16x32xf32> -> tensor<16x32xf32>
    %b = shard.all_reduce %pb on @grid grid_axes = [0] : tensor<16x32xf32> -> tensor<16x32xf32>
    %s = linalg.add ins(%a, %b : tensor<16x32xf32>, tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
    ```
    After:
    ```mlir
    %p = linalg.add ins(%pa, %pb : tensor<16x32xf32>, tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
    %s = shard.all_reduce %p on @grid grid_axes = [0] : tensor<16x32xf32> -> tensor<16x32xf32>
    ```
  }];
  let statistics = [
    Statistic<"numCombined", "combined", "all_reduce pairs combined into one">
  ];
  let dependentDialects = ["::mlir::shard::ShardDialect",
                           "::mlir::tensor::TensorDialect"];
}

//===----------------------------------------------------------------------===//
// Sequence parallelism (SequenceParallel/)
//===----------------------------------------------------------------------===//

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

def SaveSharded : Pass<"seqpar-save-sharded", "::mlir::func::FuncOp"> {
  let summary = "Save the all-gathered inputs of a training graph sharded and "
                "re-gather them in backward";
  let description = [{
    Under sequence parallelism the input of a column-parallel linear is
    all-gathered from s/t tokens, and the backward's weight-gradient matmul
    reads it again. Saving the gathered tensor for the backward keeps s
    tokens per rank; Megatron-SP (Korthikanti et al. 2022, section 4.2.2;
    docs/semantics.md section 10) keeps the s/t-token shard and all-gathers
    it again in backward: one more all-gather of A (t-1)/t bytes per saved
    tensor, 2 A (t-1)/t per transformer layer, for (t-1)/t of its memory.

    On a function read as a training graph (analyzeSavedForBackward,
    docs/training-graphs.md), each saved tensor that a `shard.all_gather`
    produced is re-gathered for its backward users: a
    `seqpar.all_gather_start` / `seqpar.wait` pair (with memory effects, so
    CSE does not fold it back into the forward's gather) before the first
    of them, and the views the backward read it through (reshapes,
    transposes) are rebuilt on the re-gathered tensor. A remark per
    function gives the count, the bytes saved per rank and the bytes the
    re-gathers send. Functions that are not training graphs are left as
    they are.

    Before (backward reads the forward's gathered %g):
    ```mlir
    %g = shard.all_gather %x on @grid grid_axes = [0] gather_axis = 0 : tensor<4x8xf32> -> tensor<8x8xf32>
    ... forward reads %g ...
    ... backward: %dw = linalg.matmul ins(%gT, %dy ...)
    ```
    After:
    ```mlir
    %r = seqpar.all_gather_start %x on @grid grid_axes = [0] gather_axis = 0 : tensor<4x8xf32> -> !seqpar.request<tensor<8x8xf32>>
    %g2 = seqpar.wait %r : !seqpar.request<tensor<8x8xf32>>
    ... backward reads %g2 ...
    ```
  }];
  let dependentDialects = ["::mlir::seqpar::SeqParDialect"];
  let statistics = [
    Statistic<"numRegathered", "regathered",
              "Saved all-gather outputs re-gathered in backward">
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

//===----------------------------------------------------------------------===//
// Attention: raising, key tiling, decomposition (Attention/)
//===----------------------------------------------------------------------===//

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
    (collapsed when the batch was); the rest becomes dead and is erased, and
    the views built are left as a clean-up would leave them (no transpose
    of a transpose, no collapse expanded back, one tensor.empty per type).
    Attention that
    does not match stays as it was, with a remark at P.V naming the step
    that failed; every other `linalg.softmax` or written-out softmax it
    knows gets a remark too.

    With `backward=true` (training graphs), the backward the joint graph
    writes for a raised attention (AttentionBackwardMatch.h: dV = P^T . dO,
    dP = dO . V^T, the softmax backward times the forward's scale, dQ =
    dS . K, dK = dS^T . Q, in any layout) becomes one
    `seqpar.attention_backward` on the forward's operands, its result and
    dO: each product's result is replaced by the op's gradient in that
    product's layout, so the probabilities P are no longer kept for the
    backward. Under GQA the per-query-head dK and dV products are summed
    over each K/V head's query heads by the exporter; those sums are
    replaced by the compact gradients. A backward it does not recognise
    stays as it was, with a remark at P.V; it keeps P alive.

    Before (heads collapsed with the batch, K^T as a transpose):
    ```mlir
    %kt = linalg.transpose ins(%k : tensor<1x2x8x4xf32>) ... permutation = [0, 1, 3, 2]
    %s3 = linalg.batch_matmul ins(%q3, %kt3 : tensor<2x8x4xf32>, tensor<2x4x8xf32>) ...
    %scaled = linalg.generic ... // x * 0.125
    %l = linalg.generic ... ins(%scaled, %mask ...) // x + mask
    %p = linalg.softmax dimension(3) ins(%l : tensor<1x2x8x8xf32>) ...
    %o = linalg.batch_matmul ins(%p3, %v3 : tensor<2x8x8xf32>, tensor<2x8x4xf32>) ...
    ```
    After:
    ```mlir
    %a = seqpar.attention %q, %k, %v mask(%mask : tensor<1x1x8x8xf32>) {scale = 1.250000e-01 : f32}
        : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
    %o = tensor.collapse_shape %a [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
    ```
  }];
  let statistics = [
    Statistic<"numRaised", "raised", "Attention blocks raised">,
    Statistic<"numBackwardRaised", "backward-raised",
              "Attention backwards raised">
  ];
  let options = [
    Option<"backward", "backward", "bool", /*default=*/"false",
           "Also raise each raised attention's backward (training graphs) "
           "to seqpar.attention_backward">
  ];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect",
    "::mlir::seqpar::SeqParDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def TileAttention : Pass<"seqpar-tile-attention"> {
  let summary = "Split attention over key/value tiles merged by their LSEs";
  let description = [{
    Every `seqpar.attention_block` with more than `kv-tile` keys becomes an
    `scf.for` over key/value tiles: each iteration an `attention_block` of
    the queries against `kv-tile` keys (and their positions), merged into
    the running (out, row max, row sum) by `seqpar.attention_merge` (the
    rule of docs/semantics.md §4.3 with the LSE in two parts, i.e. an
    online softmax), starting from out = 0, row max = -inf,
    row sum = 0; a mask's key columns are sliced with the tile. A
    `seqpar.attention` (f32, f16 or bf16) with more keys is first written
    as one block over positions 0.. (finished in its type: NaN on rows
    whose every key is masked by -inf, as the softmax). The decomposition
    then materialises
    [b, a, s, kv-tile] scores instead of [b, a, s, t]: for a 16k x 16k f32
    block, about 0.4 GiB per head instead of 6 GiB (six score-sized
    buffers).
    A forward block it tiles with more than one K/V head is first a loop
    over its K/V heads g, each iteration the block of the r = a / a_kv query
    heads of group g against K/V head g (heads are independent). With
    `q-tile`, a forward block with more queries is then a loop over query
    tiles of `q-tile` rows (rows are independent), each the key-tile loop
    above: every scores tensor is then [b, r, q-tile, kv-tile], small
    enough to stay in cache.
    A causal `seqpar.attention` (positions 0.., s = s_kv) becomes a loop
    over query tiles (of `q-tile` rows, or of `kv-tile` without it), each
    over keys [0, end of the query tile) only: tiles of `kv-tile` keys up to
    the last whole one, then tiles of the query tile's size up to the
    diagonal. The key tiles wholly in a query tile's future, which would
    merge as the empty partial, are not computed (about half the work at
    long sequences); those wholly in its past are blocks without `causal`.
    The backward likewise: a `seqpar.attention_block_backward` with more
    than `backward-tile` (else `kv-tile`) queries or keys becomes a loop
    over its K/V heads (when several) and, in each, loops over query tiles
    and, inside, key tiles, each a block backward of at most
    `backward-tile` x `backward-tile` (the rows' global LSE makes every
    tile's gradients the block's restricted to it, docs/semantics.md §4.7):
    a query tile's dQ sums over its key tiles, a key tile's dK and dV
    accumulate over the query tiles. A causal block's key tiles wholly in a
    query tile's future are skipped and those wholly in its past are not
    causal: statically over positions 0.., by the positions' bounds at run
    time otherwise. A whole `seqpar.attention_backward` is first written as
    its rows' LSE and one block backward over positions 0..; the LSE is the
    forward block's when the backward differentiates a `seqpar.attention`
    of the same operands (`getForwardAttention`), else a block of its own,
    tiled as above.
    A length the tile does not divide is peeled first: rows [0, m) and
    [m, n), m the largest multiple of the tile, are blocks written side by
    side, keys [0, m) and [m, n) blocks merged by their LSE (the backward:
    dQ summed over the key pieces, dK and dV over the row pieces), and
    each piece is tiled as above. A causal block over positions 0.. peels
    into rows [0, m) against keys [0, m) (the later keys are in their
    future), rows [m, n) against keys [0, m) without `causal` (all in their
    past) and rows [m, n) against keys [m, n), causal; these are peeled in
    turn, so the rows after m run in query tiles and their diagonal skips
    its future.
    Runs in `seqpar-lower-to-llvm` before `seqpar-decompose-attention`.

    Before (`kv-tile=4`):
    ```mlir
    %o = seqpar.attention %q, %k, %v {scale = 0.25 : f32}
        : tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x4x8x16xf32>
    ```
    After (positions %qpos, %kpos: 0..7; %out0, %max0, %sum0: 0, -inf, 0):
    ```mlir
    %r:3 = scf.for %j = %c0 to %c8 step %c4 iter_args(%o = %out0, %m = %max0, %l = %sum0) -> (...) {
      %kj = tensor.extract_slice %k[0, 0, %j, 0] [1, 2, 4, 16] [1, 1, 1, 1] : ...
      %vj = tensor.extract_slice %v[0, 0, %j, 0] [1, 2, 4, 16] [1, 1, 1, 1] : ...
      %pj = tensor.extract_slice %kpos[%j] [4] [1] : tensor<8xindex> to tensor<4xindex>
      %out, %row_max, %row_sum = seqpar.attention_block %q, %kj, %vj positions(%qpos, %pj)
          {scale = 2.500000e-01 : f32} : ...
      %mo, %mm, %ml = seqpar.attention_merge(%o, %m, %l), (%out, %row_max, %row_sum) : ...
      scf.yield %mo, %mm, %ml : ...
    }
    %result = linalg.generic ... ins(%r#0, %r#2 ...) // NaN where row sum = 0
    ```
  }];
  let options = [
    Option<"kvTile", "kv-tile", "int64_t", /*default=*/"1024",
           "Keys per tile; blocks with at most this many keys stay whole, "
           "others are peeled to a multiple of it (0 disables all tiling, "
           "backward included; negative is an error)">,
    Option<"qTile", "q-tile", "int64_t", /*default=*/"0",
           "Queries per tile of forward blocks with more queries; 0: rows "
           "stay whole, except that a causal attention is tiled by kv-tile "
           "for the causal skip (negative is an error)">,
    Option<"backwardTile", "backward-tile", "int64_t", /*default=*/"0",
           "Queries and keys per tile of backward blocks (0: kv-tile; "
           "with kv-tile=0 nothing is tiled; negative is an error)">
  ];
  let statistics = [
    Statistic<"numTiled", "tiled", "Attention blocks split into tiles">,
    Statistic<"numCausalSkipping", "causal-skipping",
              "Causal attentions tiled over queries too, skipping future key "
              "tiles">
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
    Replaces each `seqpar.attention` with one `seqpar.attention_block` over
    all keys (positions 0..) and its result (NaN on rows whose every key is
    masked by -inf, as the single-device softmax's 0/0), and lowers every
    `seqpar.attention_block` (one ring step or key tile: out and the
    two-part LSE, row max and row sum, of a query block against a K/V
    block, causal by global positions) to linalg on tensors, all in f32
    (f16/bf16 operands are extended; the result is rounded once):
    scores = Q.K^T (a contraction over the head dim; under GQA/MQA the
    query heads are viewed as [a_kv, r] so each K/V head is read once and
    never repeated), row max of the logits (scale * scores, + mask, -inf
    where the key position exceeds the query position), E = exp(logits -
    row max), row sums of E, both split into 16 partial results per row
    (upstream's `linalg::splitReduction`, so they vectorise), and
    out = (E . V) / row sum. The logits are recomputed by
    the two generics that read them instead of being materialised, and the
    division is on the [b, a, s, d] result instead of the [b, a, s, t]
    probabilities (docs/runtime-and-run.md, "Attention blocks"). Fully
    masked rows give row max = -inf, row sum = 0 and out = 0, never NaN.
    `seqpar.attention_merge` lowers to the LSE merge of docs/semantics.md
    §4.3. `seqpar.attention_block_backward` (docs/semantics.md §4.7) lowers
    to P from the rows' global LSE (logits recomputed the same way),
    D = rowsum(dO * O), dS = scale * P * (dO . V^T - D), and the
    contractions dQ = dS . K, dK = dS^T . Q, dV = P^T . dO, the last two
    summed per K/V head; `seqpar.attention_backward` to an attention_block
    over all keys (its LSE) and an attention_block_backward. Used by
    `seqpar-lower-to-llvm`, whose BLAS lowering runs every contraction
    above as cblas_sgemm calls (f32).

    Before:
    ```mlir
    %o = seqpar.attention %q, %k, %v {causal, scale = 0.25 : f32}
        : tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x4x8x16xf32>
    ```
    After:
    ```mlir
    %gq = tensor.expand_shape %q [[0], [1, 2], [3], [4]] ... into tensor<1x2x2x8x16xf32>
    %s = linalg.generic ... ins(%gq, %k ...)  // Q.K^T per K/V head, [1, 2, 2, 8, 8]
    %sc = tensor.collapse_shape %s ...        // [1, 4, 8, 8]
    %m = linalg.generic ... ins(%sc, %pos, %pos ...) // max of 0.25 * s, -inf where key > query
    %e = linalg.generic ... ins(%sc, %pos, %pos, %m ...) // exp(logit - max)
    %l = linalg.generic ... ins(%e ...)       // row sums
    %ev = linalg.generic ... ins(%ge, %v ...) // E.V, [1, 2, 2, 8, 16] -> [1, 4, 8, 16]
    %o = linalg.generic ... ins(%ev, %l ...)  // / row sum
    %r = linalg.generic ... ins(%o, %l ...)   // NaN where row sum = 0
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

//===----------------------------------------------------------------------===//
// Context parallelism (ContextParallel/)
//===----------------------------------------------------------------------===//

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

    A training graph's `seqpar.attention_backward` of such an attention (its
    out is the attention's result; same Q, K, V, mask, scale and causal
    flag) is distributed with it (docs/context-parallelism.md, "Training:
    the attention backward"): blocks of `seqpar.attention_block_backward`
    read the forward's merged LSE and output. `ring`: the forward's steps
    again, dQ accumulated locally in f32, K/V circulating again (or, with
    `keep-kv`, the blocks the forward received kept until the backward),
    and each block's dK/dV (f32) travelling with it and one more hop back
    to its owner; `all-gather`: K/V gathered again, dK/dV
    reduce-scattered; `ulysses`/`hybrid`: the forward's head-sharded Q, K,
    V and output kept, dO and the gradients moved by all-to-all. Any other
    backward of a distributed attention runs whole on gathered operands.

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

    Before (grid [2], `load-balance=none`):
    ```mlir
    func.func @f(%q: tensor<1x4x8x16xf32> {seqpar.seq_dim = 2 : i64}) -> tensor<1x4x8x16xf32> {
      %o = seqpar.attention %q, %q, %q {causal, scale = 0.25 : f32} : ...
      return %o : tensor<1x4x8x16xf32>
    }
    ```
    After (%pos: the rank's global positions r*4 + i, %next: those of the
    K/V block received):
    ```mlir
    func.func @f(%q: tensor<1x4x4x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [], [0]]>, ...})
        -> (tensor<1x4x4x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [], [0]]>}) {
      %req = seqpar.shift_start %q on @grid grid_axes = [0] offset = 1 : ...
      %out, %max, %sum = seqpar.attention_block %q, %q, %q positions(%pos, %pos) {causal, ...} : ...
      %kv = seqpar.wait %req : !seqpar.request<tensor<1x4x4x16xf32>>
      %b:3 = scf.if %past -> (...) {  // the received block is not in the future
        %o1, %m1, %s1 = seqpar.attention_block %q, %kv, %kv positions(%pos, %next) {causal, ...} : ...
        scf.yield %o1, %m1, %s1 : ...
      } else { ... }                    // the empty partial
      %mo, %mm, %ms = seqpar.attention_merge(%out, %max, %sum), (%b#0, %b#1, %b#2) : ...
      %o = linalg.generic ... ins(%mo, %ms ...)
      return %o : tensor<1x4x4x16xf32>
    }
    ```
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
    Option<"strategy", "strategy", "::mlir::seqpar::AttentionStrategy",
           /*default=*/"::mlir::seqpar::AttentionStrategy::Ring",
           "Distributed attention: ring, all-gather, ulysses or hybrid",
           "::mlir::seqpar::attentionStrategyValues()">,
    Option<"ulyssesAxis", "ulysses-axis", "int64_t", /*default=*/"-1",
           "Grid axis of hybrid's Ulysses all-to-all (the ring runs on "
           "grid-axis); the sequence is split over both; -1 (the default): "
           "none, for the other strategies">,
    Option<"pad", "pad", "bool", /*default=*/"false",
           "Pad a sequence not divisible by c (2c with zigzag) and mask the "
           "padding (arguments stay whole, results are gathered)">,
    Option<"loadBalance", "load-balance", "::mlir::seqpar::LoadBalance",
           /*default=*/"::mlir::seqpar::LoadBalance::Zigzag",
           "Token assignment: zigzag (chunks r and 2c-1-r of 2c) or none "
           "(contiguous s/c tokens per rank)",
           "::mlir::seqpar::loadBalanceValues()">,
    Option<"keepKV", "keep-kv", "bool", /*default=*/"false",
           "Ring backward: keep the K/V blocks the forward received until "
           "the backward (c-1 more K/V blocks held per attention) instead of "
           "sending them around the ring again">,
    Option<"kvCacheInterleave", "kv-cache-interleave", "int64_t",
           /*default=*/"0",
           "> 0: return sequence-sharded [b, a_kv, s, d] results (a "
           "prefill's K/V) block-cyclic with this interleave, the decode "
           "layout: kept from the blocks a ring attention carries, sliced "
           "from all-gather-KV's gathered K/V, else by one all-to-all each; "
           "0 (the default): in the prefill's split">
  ];
  let statistics = [
    Statistic<"numRewritten", "num-attention-rewritten",
              "seqpar.attention ops and their backwards distributed over the "
              "CP axis">,
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

def DecodeContextParallel : Pass<"seqpar-decode-context-parallel", "::mlir::ModuleOp"> {
  let summary = "Shard a decode step's KV caches over a CP grid axis (decode context parallelism)";
  let description = [{
    Decode context parallelism (docs/decode.md): each rank keeps L_max/n
    slots of every KV cache, dealt block-cyclically (token t on rank
    (t / I) mod n, `#seqpar.sharding ... cyclic I`), and the T new tokens'
    attention over the whole cache is merged from the ranks' partials by
    the LSE rule (docs/semantics.md §4.3).

    The layout is an option: `cyclic` (the default; the new tokens of
    successive steps land on successive ranks, and a prefill's cache of any
    length L is each rank's first L/n slots), or `contiguous` / `zigzag`
    (the prefill's context-parallel layouts; new tokens land on one rank
    until its slots are full).

    Input: a single-device decode step. A KV cache is a function argument
    [b, a_kv, L_max, d] whose only use is a `tensor.insert_slice` of the new
    tokens' K or V at a (dynamic or constant) offset L along dim 2 (the
    other offsets 0, sizes whole, strides 1), and a later step's insert
    may write into an earlier one's result; each insert's result is read
    only as the key or value of attentions (or through a slice of its
    heads), by the next step's insert and by `func.return`. An
    attention over caches is either
    * `seqpar.attention_block` whose key positions are 0 .. L_max-1 (an
      iota constant or `tensor.generate`), causal by position (query j at
      its global position, e.g. L + j) and/or with an additive mask, or
    * `seqpar.attention`, not causal, with an additive mask over the
      L_max keys (how exporters mask slots past L + j).

    Output: the per-rank step. Each cache argument (and a returned updated
    cache) holds L_max/n slots with `#seqpar.sharding` saying which; the
    insert becomes an elementwise select over the rank's slots (slot i holds
    global position p(i) = ((i / I) n + r) I + i mod I and takes the new
    value when L <= p(i) < L + T, so each position is written once, by its
    owner), after a `cf.assert` that 0 <= L and L + T <= L_max (the
    insert's own bound, which the select would otherwise drop silently);
    each attention becomes a `seqpar.attention_block` of the
    replicated queries over the rank's slots (key positions p(i); the mask's
    columns read at p(i)), and the partials are merged:
    * `merge=all-gather`: (out, row max, row sum) all-gathered and merged in
      rank order on every rank: (n-1) b T a (d+2) 4 bytes per rank;
    * `merge=all-to-all`: the partials exchanged by heads (all-to-all, a
      divisible by n; each rank merges a/n heads, as TensorRT-LLM's Helix)
      and the merged heads all-gathered: (n-1)/n b T a (2d+2) 4 bytes.
    Neither depends on L. A rank without a visible slot contributes the
    empty partial (row max -inf, row sum 0). An attention or cache outside
    this form is left as it is with a remark saying why; bytes per rank
    (summed over the program's steps) are reported in a remark per
    function.

    Before (grid [4]):
    ```mlir
    %k = tensor.insert_slice %kn into %kc[0, 0, %L, 0] [1, 2, 1, 8] [1, 1, 1, 1] : ...
    %o, %m, %s = seqpar.attention_block %q, %k, %v positions(%qpos, %iota16) {causal, ...} : ...
    ```
    After (`interleave=1`; %p: the rank's slot positions r + 4 i):
    ```mlir
    %k = linalg.generic ... ins(%kc : tensor<1x2x4x8xf32>) ... // new K where L <= p(i) < L + T
    %o0, %m0, %s0 = seqpar.attention_block %q, %k, %v positions(%qpos, %p) {causal, ...} : ...
    %og = shard.all_gather %o0 on @grid grid_axes = [0] gather_axis = 0 : ...
    ... seqpar.attention_merge, in rank order
    ```
  }];
  let options = [
    Option<"gridName", "grid", "std::string", /*default=*/"\"\"",
           "Grid symbol (default: the module's only shard.grid)">,
    Option<"gridAxis", "grid-axis", "int64_t", /*default=*/"-1",
           "Grid axis the caches are sharded over; -1 (the default): the "
           "grid's only axis">,
    Option<"layout", "layout", "::mlir::seqpar::SplitKind",
           /*default=*/"::mlir::seqpar::SplitKind::cyclic",
           "How the cache slots are dealt over the ranks: cyclic (blocks of "
           "interleave tokens round-robin), contiguous or zigzag",
           "::mlir::seqpar::cacheLayoutValues()">,
    Option<"interleave", "interleave", "int64_t", /*default=*/"1",
           "Block-cyclic interleave I: consecutive tokens per block (token t "
           "on rank (t / I) mod n); n I must divide L_max; only with "
           "layout=cyclic">,
    Option<"merge", "merge", "::mlir::seqpar::DecodeMerge",
           /*default=*/"::mlir::seqpar::DecodeMerge::AllGather",
           "How the ranks' partials are merged: all-gather or all-to-all "
           "(over heads)",
           "::mlir::seqpar::decodeMergeValues()">
  ];
  let statistics = [
    Statistic<"numRewritten", "num-attention-rewritten",
              "Attentions over KV caches sharded over the grid axis">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::seqpar::SeqParDialect",
    "::mlir::shard::ShardDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

//===----------------------------------------------------------------------===//
// Preparation for lowering (PrepareLowering/)
//===----------------------------------------------------------------------===//

def CanonicalizeAndCSE : Pass<"seqpar-canonicalize-cse"> {
  let summary = "canonicalize then cse, verified once";
  let description = [{
    The clean-up the named pipelines run after each rewrite: MLIR's
    `canonicalize` (every loaded dialect's and registered op's
    canonicalization patterns, top-down, normal region simplification where
    it can act: regions of several blocks, graph regions holding ops with
    results; elsewhere it would only erase dead ops the patterns' driver
    erases too), then `cse`; where CSE's merges make something foldable (x
    - x once both operands are one value, an scf.if whose branch now yields
    an outer value), which the two upstream passes leave for a second
    round, both run again, so that a second run finds nothing. One pass instead of two, so the pass manager verifies the
    module once instead of twice: on an 80-layer graph a verification costs
    about as much as a pass (docs/benchmarks.md §1). Unchanged IR is
    reported as such and not verified at all.
  }];
}

def InlineCalls : Pass<"seqpar-inline-calls", "::mlir::ModuleOp"> {
  let summary = "Inline calls to defined functions, leaving a module without any untouched";
  let description = [{
    Exporters outline helpers (a LayerNorm, a whole layer) into functions;
    every analysis after this reads one function. Runs MLIR's inliner (with
    no simplification pipeline of its own: seqpar-pipeline canonicalizes
    next) when some call's callee is a function with a body in the module;
    calls to declarations (timers, runtime hooks) stay calls. A module
    without such a call is not touched, so the pass manager does not verify
    it again: the usual case, and verifying a large graph costs about as
    much as a pass (docs/benchmarks.md §1).
  }];
}

def FoldIndexGathers : Pass<"seqpar-fold-index-gathers", "::mlir::func::FuncOp"> {
  let summary = "Rewrite gathers at arange or constant indices into tensor.extract_slice";
  let description = [{
    torch-mlir lowers advanced indexing (`aten.index.Tensor`, e.g. Falcon's
    `qkv[..., -2, :]` taking K from its fused QKV projection) to a
    `linalg.generic` whose body yields a `tensor.extract` of a tensor from
    outside the op, at indices read from index tensors: aranges for the
    kept dims, a constant for the picked one, each wrapped for negative
    values (`select(i < 0, i + n, i)`). Such a gather is a slice; as a
    gather it hides the sequence and head dims from every analysis (context
    parallelism gathers all tokens before it, attention raising does not
    see K and V). This pass proves each index a loop index (`linalg.index`,
    or an element of an arange tensor read at that loop) or a constant in
    bounds, with the loops in order and every loop that no index reads of
    extent 1, and replaces the op by `tensor.extract_slice` (and a reshape
    of unit dims). Any other gather (an embedding lookup at token ids), and
    any gather from a function argument (a position table read at
    arange(s)), is left as it is. A gather reading every dim whole at its
    own loop but one, read at loop floordiv r or loop mod n (a GQA repeat
    of K/V heads as index_select at [0, 0, 1, 1] or computed indices; a
    tile), becomes `linalg.broadcast` + `tensor.collapse_shape`, the form
    TP planning splits heads through. docs/import.md, "Gathers that are
    slices".

    ```mlir
    // %k = qkv[:, :, 4:5, :] of a [2, 16, 6, 16] QKV, written as a gather:
    %k = linalg.generic {indexing_maps = [#b, #s, #c, #d, #id], ...}
        ins(%arange_b, %arange_s, %minus2, %arange_d : ...)
        outs(%e : tensor<2x16x1x16xf32>) {
    ^bb0(%i: i64, %j: i64, %h: i64, %l: i64, %out: f32):
      ... %x = tensor.extract %qkv[%i', %j', %h', %l'] : tensor<2x16x6x16xf32>
      linalg.yield %x : f32
    } -> tensor<2x16x1x16xf32>
    // becomes
    %k = tensor.extract_slice %qkv[0, 0, 4, 0] [2, 16, 1, 16] [1, 1, 1, 1]
        : tensor<2x16x6x16xf32> to tensor<2x16x1x16xf32>
    ```
  }];
}

def SpecializeStructuralGenerics : Pass<"seqpar-specialize-structural-generics", "::mlir::func::FuncOp"> {
  let summary = "Write linalg.generic ops that are a fill, a transpose or a broadcast as the named op";
  let description = [{
    Frontends that generalize every named op (IREE-style flows, or
    `linalg-generalize-named-ops` run before elementwise fusion) write a
    contraction's zero init, the head transposes and GQA's repeat of K/V
    heads as `linalg.generic`s. The analyses read these three in their
    named form, so on such a graph TP planning left every linear
    replicated ("accumulates into an init that is not a zero fill"). Each
    generic on tensors with one init that is exactly one of them becomes
    the named op on the same operands, with the generic's discardable
    attributes:
    - a fill: all-parallel, the init written at a permutation of the loops
      and not read, the body yielding a scalar input (upstream's
      `isaFillOpInterface`) or, with no input, a value defined outside it;
    - a transpose (input and init read at permutations of the loops, not
      both the same: upstream's `isaTransposeOpInterface` also asks for the
      identity on the init) or a broadcast (`isaBroadcastOpInterface`),
      whose body yields the input's element (upstream checks only that the
      body is a single yield). A copy stays a generic.
    Every other generic, elementwise ones and contractions included, is
    left as it is: the analyses read those from their indexing maps.
    docs/import.md, "Other frontends".

    ```mlir
    %z = linalg.generic {indexing_maps = [#identity],
                         iterator_types = ["parallel", "parallel"]}
        outs(%e : tensor<16x32xf32>) {
      ^bb0(%out: f32):
        linalg.yield %zero : f32
    } -> tensor<16x32xf32>
    // becomes
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def FoldStaticReshapes : Pass<"seqpar-fold-static-reshapes", "::mlir::func::FuncOp"> {
  let summary = "Rewrite tensor.reshape between static shapes into expand_shape or collapse_shape";
  let description = [{
    Frontends that lower through the tensor dialect (StableHLO's and
    ONNX's reshape, `x.reshape(...)` written by hand) may split or merge
    dims with `tensor.reshape` and a shape operand instead of
    `tensor.expand_shape` / `tensor.collapse_shape`. The analyses follow
    the latter (which dims of the result come from which of the source);
    a `tensor.reshape` hides it, so TP planning stopped at it ("a split
    value reaches 'tensor.reshape'") and the sequence dim was not followed
    through. Where source and result are static and the reshape only
    splits dims or only merges adjacent ones (upstream's
    `getReassociationIndicesForReshape`), it becomes the matching
    `tensor.expand_shape` or `tensor.collapse_shape`; any other reshape
    (one that both splits and merges, dynamic shapes) is left as it is.
    docs/import.md, "Other frontends".

    ```mlir
    %shape = arith.constant dense<[2, 16, 4, 8]> : tensor<4xi64>
    %q4 = tensor.reshape %q(%shape) : (tensor<2x16x32xf32>, tensor<4xi64>) -> tensor<2x16x4x8xf32>
    // becomes
    %q4 = tensor.expand_shape %q [[0], [1], [2, 3]] output_shape [2, 16, 4, 8] : tensor<2x16x32xf32> into tensor<2x16x4x8xf32>
    ```
  }];
}

def FoldBroadcastMatmuls : Pass<"seqpar-fold-broadcast-matmuls", "::mlir::func::FuncOp"> {
  let summary = "Rewrite batch_matmul of a batch-broadcast weight into matmul on the collapsed activation";
  let description = [{
    torch-mlir's ONNX importer writes a linear on [b, s, h] (ONNX `MatMul`)
    as `linalg.batch_matmul` of the activation with the [h, n] weight
    copied to every batch element first: a `linalg.broadcast` (dimensions
    = [0]), or a `linalg.generic` of one input whose body yields it, all
    loops parallel, the init at the identity and the input at loops 1 and
    2 (either order: the copy may transpose). The copy holds b weights per
    linear. Where the right-hand side of a `linalg.batch_matmul` (default
    maps, or the transposed-B maps) is such a copy and all shapes are
    static, the op becomes `linalg.matmul` on the activation
    collapsed to [b*s, h] and the weight itself (a `linalg.transpose` of
    it when exactly one of the copy and the maps transposes), and the
    [b*s, n] product is expanded back to [b, s, n], with the element types
    and the cast function of the batch_matmul (bf16 operands accumulated
    in f32 stay so): the form the FX linalg
    export writes, which TP planning, the token-wise analysis, SP and CP
    read as it. A copy no other op reads is erased. Anything else is left
    as it is: a broadcast whose input varies along the batch (a different
    matrix per batch element), a broadcast along another dim, a copy on
    the left-hand side, dynamic shapes.
    docs/import.md, "Other frontends".

    ```mlir
    %wb = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, #id3],
                          iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%w : tensor<64x32xf32>) outs(%e : tensor<2x64x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x64x32xf32>
    %y = linalg.batch_matmul ins(%x, %wb : tensor<2x16x64xf32>, tensor<2x64x32xf32>)
        outs(%acc : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    // becomes
    %x2 = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x16x64xf32> into tensor<32x64xf32>
    %acc2 = tensor.collapse_shape %acc [[0, 1], [2]] : tensor<2x16x32xf32> into tensor<32x32xf32>
    %y2 = linalg.matmul ins(%x2, %w : tensor<32x64xf32>, tensor<64x32xf32>)
        outs(%acc2 : tensor<32x32xf32>) -> tensor<32x32xf32>
    %y = tensor.expand_shape %y2 [[0, 1], [2]] output_shape [2, 16, 32] : tensor<32x32xf32> into tensor<2x16x32xf32>
    ```
  }];
}

def SplitFusedProjections : Pass<"seqpar-split-fused-projections", "::mlir::func::FuncOp"> {
  let summary = "Split a fused linear read through slices of unequal widths into one linear per slice";
  let description = [{
    A fused projection whose output features are read only by static slices
    of unequal widths (Falcon's QKV: 4 query heads and one K/V head, 96 =
    64 + 16 + 16 features, after `seqpar-fold-index-gathers` made its K and
    V gathers slices) cannot be cut by one equal split into each TP rank's
    Q, K and V, so TP would keep it and its attention replicated. Where a
    linear (a plain or mixed-precision contraction, `linalg.matmul` with
    any of its maps, `batch_matmul`, or a `linalg.generic` of that body;
    static shapes; the output features the output's last dim, one
    parallel loop that the output and the weight read as a plain dim and
    the activation does not),
    optionally followed by a bias add (an all-parallel generic yielding
    the sum of the linear's output and one other operand, or a named
    `linalg.add`; a `linalg.broadcast` of the bias vector it reads is
    rebuilt per piece from the piece of the vector), is read, directly
    or through one `tensor.expand_shape` (features split into [groups,
    width]) or `tensor.collapse_shape` (features kept one dim), the bias
    add before or after the reshape (ChatGLM adds it after restoring
    [b, s, n]; then the reshape must keep the features one dim), only by
    `tensor.extract_slice`s of static offsets and sizes and unit strides,
    each a contiguous range of the features with every other dim whole,
    the ranges disjoint and not all of one width, the linear becomes one
    linear per slice reading that slice of the weight (and bias, and
    init), and each slice's readers read its own linear's output. Anything
    else is left as it is: slices of equal widths (GPT-2's c_attn: TP's
    split groups plan it whole), overlapping slices, cuts of the rows (the
    tokens), any other reader of the output, dynamic shapes, strided
    slices. docs/tensor-parallel-planning.md,
    "Fused projections".

    ```mlir
    %qkv = linalg.matmul ins(%x, %w : tensor<32x64xf32>, tensor<64x96xf32>)
        outs(%acc : tensor<32x96xf32>) -> tensor<32x96xf32>
    %h = tensor.expand_shape %qkv [[0, 1], [2, 3]] output_shape [2, 16, 6, 16]
        : tensor<32x96xf32> into tensor<2x16x6x16xf32>
    %q = tensor.extract_slice %h[0, 0, 0, 0] [2, 16, 4, 16] [1, 1, 1, 1] : ...
    %k = tensor.extract_slice %h[0, 0, 4, 0] [2, 16, 1, 16] [1, 1, 1, 1] : ...
    // becomes, for %q (and likewise %k of features 64..79):
    %wq = tensor.extract_slice %w[0, 0] [64, 64] [1, 1] : tensor<64x96xf32> to tensor<64x64xf32>
    %accq = tensor.extract_slice %acc[0, 0] [32, 64] [1, 1] : tensor<32x96xf32> to tensor<32x64xf32>
    %q2 = linalg.matmul ins(%x, %wq : tensor<32x64xf32>, tensor<64x64xf32>)
        outs(%accq : tensor<32x64xf32>) -> tensor<32x64xf32>
    %q = tensor.expand_shape %q2 [[0, 1], [2, 3]] output_shape [2, 16, 4, 16]
        : tensor<32x64xf32> into tensor<2x16x4x16xf32>
    ```
  }];
}

def FoldLogitMasks : Pass<"seqpar-fold-logit-masks", "::mlir::func::FuncOp"> {
  let summary = "Add two masks added to the attention logits one after the other into one mask";
  let description = [{
    Where the logits of a softmax are `(x + A) + B` (two elementwise
    `linalg.generic` additions, all loops parallel, the inner one read
    only by the outer one at the identity), `x` the result of a
    contraction seen through reshapes and transposes and neither `A` nor
    `B` computed from any contraction, the logits become `x + (A + B)`:
    one generic adds the two masks, at the maps the two additions read
    them, into a tensor of the logits' shape, and one adds it to `x`. The
    attention matcher reads one additive mask (docs/context-parallelism.md,
    "Masks"); Hugging Face's T5 adds its relative position bias [1, a, s,
    t] and then its attention mask [b, 1, s, t]. Reassociating moves one
    rounding of the f32 sum (exact when either mask is 0 there); a -inf
    or finfo.min in either mask hides the logit as before. Anything else
    is left as it is: a mask computed from a contraction (an activation),
    a third term, ops other than one addf in the body.
    docs/import.md, "Architectures".

    ```mlir
    %l1 = linalg.generic ... ins(%scores, %bias : tensor<2x4x16x16xf32>, tensor<1x4x16x16xf32>) ... addf
    %l2 = linalg.generic ... ins(%l1, %mask : tensor<2x4x16x16xf32>, tensor<2x1x16x16xf32>) ... addf
    // becomes
    %m = linalg.generic ... ins(%bias, %mask : tensor<1x4x16x16xf32>, tensor<2x1x16x16xf32>) ... addf
    %l2 = linalg.generic ... ins(%scores, %m : tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) ... addf
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
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
    verifiers accept it); `seqpar.sequence_block` op attributes, which only
    guide the sequence-sharding rewrites, are dropped. The result parses and verifies
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

def DecomposeAggregates : Pass<"seqpar-decompose-aggregates"> {
  let summary = "Decompose aggregate linalg ops (linalg.softmax) into generics";
  let description = [{
    Replaces every op implementing `linalg::AggregatedOpInterface` (e.g.
    `linalg.softmax`) with its decomposition into linalg generics and named
    ops (max, sub+exp, sum, div), which bufferize and lower to loops. Used by
    `seqpar-lower-to-llvm` before bufferization.

    Before:
    ```mlir
    %p = linalg.softmax dimension(1) ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
    ```
    After:
    ```mlir
    %max = linalg.generic ... ins(%x : tensor<8x16xf32>) outs(%m : tensor<8xf32>)  // maxnumf over dim 1
    %exp = linalg.generic ... ins(%x, %max ...) outs(%e ...)                      // exp(x - max)
    %sum = linalg.generic ... ins(%exp : tensor<8x16xf32>) outs(%z : tensor<8xf32>) // addf over dim 1
    %p = linalg.generic ... ins(%exp, %sum ...) outs(%e ...)                      // exp / sum
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def FuseElementwise : Pass<"seqpar-fuse-elementwise"> {
  let summary = "Fuse elementwise linalg ops into their consumers, contractions kept for BLAS";
  let description = [{
    Upstream's elementwise-op fusion on tensors
    (`linalg::populateElementwiseOpsFusionPatterns`, the patterns of
    `linalg-fuse-elementwise-ops`, without its reshape propagation): an
    all-parallel `linalg.generic` whose only use is an input of another
    linalg op is merged into that op's body, so a chain such as bias add,
    GELU and dropout, or bias add and residual add, is one loop nest over
    memory instead of one per op. Two restrictions: the consumer is not a
    contraction (a norm or an activation inside the multiply-accumulate
    would keep `seqpar-lower-matmul-to-blas` from sending it to BLAS), and
    a producer with several uses is left alone (fusing it would compute it
    once per consumer). Named `linalg.broadcast`s are written as their
    generics first (upstream fuses generics only), so a bias or mask
    broadcast over the tokens is read in place by its consumer. Used by
    `seqpar-lower-to-llvm` before bufferization; docs/runtime-and-run.md,
    "Fusion".

    Before:
    ```mlir
    %b = linalg.generic {... ["parallel", "parallel"]} ins(%y, %bias : ...) { addf }
    %g = linalg.generic {... ["parallel", "parallel"]} ins(%b : ...) { tanh-GELU }
    %o = linalg.generic {... ["parallel", "parallel", "reduction"]} ins(%g, %w : ...) { mulf, addf }
    ```
    After:
    ```mlir
    %g = linalg.generic {... ["parallel", "parallel"]} ins(%y, %bias : ...) { addf; tanh-GELU }
    %o = linalg.generic {... ["parallel", "parallel", "reduction"]} ins(%g, %w : ...) { mulf, addf }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect"
  ];
}

def SplitRowReductions : Pass<"seqpar-split-row-reductions"> {
  let summary = "Split reductions along the innermost dim into partial results per vector lane";
  let description = [{
    A row reduction (a LayerNorm's mean and variance, a softmax's row sums,
    any `linalg.generic` whose one reduction loop is its last and is read
    as some input's innermost dim) lowers to one chain of dependent
    operations per row: LLVM's vectoriser does not reorder a float
    reduction, so it runs one element per add latency (about 4 cycles).
    This pass splits each with upstream's `linalg::splitReduction` into 16
    partial results per row (element j to partial j mod 16: a parallel
    loop, one vector register wide) and a reduction of the 16, as
    `seqpar-decompose-attention` does for its row max and sum. The sum is
    then added in another order: the results move in the last bits.
    Reductions of a static size that is not a multiple of 16 above 16,
    contractions (BLAS takes them whole), reductions over another dim or
    over several, bodies that read their loop indices (`linalg.index`, which
    upstream's split does not remap) and bodies upstream does not split (no
    neutral element) are left as they are. Used by `seqpar-lower-to-llvm` after elementwise
    fusion, so the fused producers stay in the split op;
    docs/runtime-and-run.md, "Split reductions".

    Before (a row sum of [4096, 768]):
    ```mlir
    %s = linalg.generic {iterator_types = ["parallel", "reduction"]}
        ins(%x : tensor<4096x768xf32>) outs(%zero : tensor<4096xf32>) { addf }
    ```
    After:
    ```mlir
    %e = tensor.expand_shape %x [[0], [1, 2]] : tensor<4096x768xf32> into tensor<4096x48x16xf32>
    %p = linalg.generic {iterator_types = ["parallel", "reduction", "parallel"]}
        ins(%e : tensor<4096x48x16xf32>) outs(%zeros : tensor<4096x16xf32>) { addf }
    %s = linalg.generic {iterator_types = ["parallel", "reduction"]}
        ins(%p : tensor<4096x16xf32>) outs(%zero : tensor<4096xf32>) { addf }
    ```
  }];
  let statistics = [
    Statistic<"numSplit", "split", "Row reductions split into lane partials">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def SinkFills : Pass<"seqpar-sink-fills"> {
  let summary = "Give every op that accumulates into a linalg.fill its own fill, just before it";
  let description = [{
    An exported graph fills one tensor with zeros and hands it to several
    contractions as their accumulator (`outs`), often long before they
    run. Bufferization then fills one buffer early and copies it for every
    use but the last, and the copy or the ops in between keep
    `seqpar-lower-matmul-to-blas` from seeing a fresh zero-filled output:
    the GEMM adds into it (beta = 1) after a pass over memory that fills
    it and one that copies it (at h = 768, s = 4096: 12 and 25 MB per
    linear). This pass clones the `linalg.fill` of a `tensor.empty` to just
    before each op that takes it as an init, over the same `tensor.empty`,
    so each such op gets a buffer filled right before it, which the BLAS
    lowering replaces by beta = 0, and the shared fill goes when unused.
    The empty tensor stays one value: an elementwise op that writes into
    it too (a bias and GELU after the linear) still bufferizes in place
    over the linear's output, as before (a fresh `tensor.empty` per fill
    had cost the GPT-2 layer one more 12 MiB buffer at its peak). Fills
    used as anything but an init of a `DestinationStyleOpInterface` op stay
    for those uses. Used by `seqpar-lower-to-llvm` before bufferization;
    docs/runtime-and-run.md, "BLAS kernels".

    Before:
    ```mlir
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
    %a = linalg.matmul ins(%x, %w1 : ...) outs(%z : tensor<8x4xf32>) -> tensor<8x4xf32>
    %b = linalg.matmul ins(%y, %w2 : ...) outs(%z : tensor<8x4xf32>) -> tensor<8x4xf32>
    ```
    After:
    ```mlir
    %z1 = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
    %a = linalg.matmul ins(%x, %w1 : ...) outs(%z1 : tensor<8x4xf32>) -> tensor<8x4xf32>
    %z2 = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
    %b = linalg.matmul ins(%y, %w2 : ...) outs(%z2 : tensor<8x4xf32>) -> tensor<8x4xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def TransposeReusedOperands : Pass<"seqpar-transpose-reused-operands"> {
  let summary = "Transpose a GEMM's right-hand operand once, before the loop that reads it again and again";
  let description = [{
    A contraction `C[.., i, j] += A[.., i, e] * B[.., j, e]` (f32, a plain
    multiply-add) reads B with the contracted dim innermost: as a GEMM that
    is B transposed, which `seqpar-lower-matmul-to-blas` passes to
    cblas_sgemm as such. OpenBLAS then repacks B on every call, and libxsmm
    (seqpar-run's kernels for small GEMMs) takes no transposed B at all.
    Attention's scores are such a contraction (Q.K^T), and a tiled attention
    reads the same K/V head once per query tile.

    When B is a `tensor.extract_slice` (unit strides, no rank reduction) of
    a tensor X defined outside an `scf.for` that encloses the contraction
    and whose induction variable the slice's offsets do not depend on (a
    loop that reads X again in each iteration: a query-tile loop around the
    key-tile loop), this pass transposes the last two dims of the part of X
    that loop reads, once, with a `linalg.transpose` placed just before the
    outermost such loop, slices the transposed copy instead and swaps the
    two dims in B's indexing map: the GEMM reads B as is. The part is, along
    each dim whose slice offset is defined outside the loop (a head chosen
    by an outer head loop), the slice's range, and the whole dim along the
    others (the keys). Every contraction in the same block that
    slices the same X reads the one transposed copy, including those that
    read it once (the diagonal tile of a causal attention). B's last two
    map results must be the output's last dim and the one contracted dim.
    Other contractions are left as they are. The transposed copy is one
    more buffer of the part's size while the loop runs (1 MiB per K/V head
    at s = 4096, d = 64). Used by `seqpar-lower-to-llvm` before bufferization;
    docs/runtime-and-run.md, "GEMM libraries".

    Before (`%kh` [1, 1, 4096, 64], defined outside the query loop):
    ```mlir
    scf.for %q = ... {
      scf.for %kv = ... {
        %kt = tensor.extract_slice %kh[0, 0, %kv, 0] [1, 1, 512, 64] [1, 1, 1, 1]
        %s = linalg.generic {indexing_maps = [(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4),
                                              (d0, d1, d2, d3, d4) -> (d0, d1, d3, d4), ...]}
            ins(%qt, %kt : ...) ...
    ```
    After:
    ```mlir
    %khT = linalg.transpose ins(%kh : tensor<1x1x4096x64xf32>)
        outs(%e : tensor<1x1x64x4096xf32>) permutation = [0, 1, 3, 2]
    scf.for %q = ... {
      scf.for %kv = ... {
        %kt = tensor.extract_slice %khT[0, 0, 0, %kv] [1, 1, 64, 512] [1, 1, 1, 1]
        %s = linalg.generic {indexing_maps = [(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4),
                                              (d0, d1, d2, d3, d4) -> (d0, d1, d4, d3), ...]}
            ins(%qt, %kt : ...) ...
    ```
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def IndexSwitchToIf : Pass<"seqpar-index-switch-to-if"> {
  let summary = "Rewrite each scf.index_switch as a chain of scf.if, which one-shot bufferization analyses soundly";
  let description = [{
    MLIR 22's one-shot bufferization misses that an `scf.index_switch`
    result aliases the buffers its cases yield: an op that later writes in
    place into such a buffer (a `linalg.fill` into the `tensor.empty` a
    case's result was computed in) changes the switch's result under its
    readers, and the program's outputs are silently wrong. `scf.if` is
    analysed soundly. This pass rewrites
    ```mlir
    %r = scf.index_switch %i -> tensor<8xf32>
    case 1 { scf.yield %a : tensor<8xf32> }
    case 5 { scf.yield %b : tensor<8xf32> }
    default { scf.yield %c : tensor<8xf32> }
    ```
    as `scf.if (%i == 1) {..%a} else { scf.if (%i == 5) {..%b} else {..%c} }`,
    moving each case's region, and a switch without cases as an
    `scf.execute_region` of its default. `seqpar-lower-to-llvm` runs it
    after `lift-cf-to-scf`, which makes such switches of `cf.switch` and of
    loops of blocks with several exits. docs/runtime-and-run.md, "Control
    flow".
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def MaterializePoisonTensors : Pass<"seqpar-materialize-poison-tensors"> {
  let summary = "Replace each ub.poison of a tensor type with a tensor.empty, which bufferizes";
  let description = [{
    `lift-cf-to-scf` (run by `seqpar-lower-to-llvm` on functions of several
    blocks) passes `ub.poison` where a value is undefined or unused on some
    path (a loop-carried tensor before its first definition, the slot of a
    loop exit that is not taken), and one-shot bufferization has no model
    for it ("op was not bufferized"). Poison may be any value: this pass
    replaces it with a `tensor.empty` of its type (unspecified contents),
    each dynamic dim of size 0, which bufferizes to an allocation. Other
    types' poison (index, scalars) lowers to LLVM as it is.
    docs/runtime-and-run.md, "Control flow".
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
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

    Before:
    ```mlir
    %a = memref.alloc() : memref<64xf32>
    linalg.fill ins(%zero : f32) outs(%a : memref<64xf32>)
    %b = memref.alloc() : memref<64xf32>
    linalg.copy ins(%a : memref<64xf32>) outs(%b : memref<64xf32>)
    linalg.copy ins(%b : memref<64xf32>) outs(%out : memref<64xf32>)
    memref.dealloc %a : memref<64xf32>
    memref.dealloc %b : memref<64xf32>
    ```
    After (%a and %b are never live together with a third buffer):
    ```mlir
    %a = memref.alloc() : memref<64xf32>
    linalg.fill ins(%zero : f32) outs(%a : memref<64xf32>)
    %b = memref.alloc() : memref<64xf32>
    linalg.copy ins(%a : memref<64xf32>) outs(%b : memref<64xf32>)
    memref.dealloc %a : memref<64xf32>
    linalg.copy ins(%b : memref<64xf32>) outs(%out : memref<64xf32>)
    memref.dealloc %b : memref<64xf32>
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def InsertRuntimeChecks : Pass<"seqpar-insert-runtime-checks"> {
  let summary = "Check at run time the bounds the compiler cannot see";
  let description = [{
    Upstream's `RuntimeVerifiableOpInterface` checks (memref subviews,
    loads, stores, casts, copies, linalg operand sizes; on tensors, for an
    embedder running it before bufferization, extracts and slices),
    generated only for the ops whose bounds depend on run-time
    values: an index operand (a slice offset, a subscript such as an
    embedding's token id, a size) or a dynamically sized operand or result.
    The rest were proven by the ops' verifiers, and checking them too
    (upstream's `generate-runtime-verification`) doubles the lowered
    program (docs/runtime-and-run.md, "Run-time checks"). A failed check's
    `cf.assert` prints one line,

    ```
    error: run-time check failed at model.mlir:14:8: subview runs out-of-bounds along dimension 0 (memref.subview)
    ```

    then calls `abort` (which `seqpar-run` makes end the whole job). Runs in
    `seqpar-lower-to-llvm` on buffers, before linalg ops become loops, so a
    check costs a comparison per op and one per element only where the
    program itself gathers (a load in a linalg body).
  }];
  let statistics = [
    Statistic<"numChecked", "num-checked", "Ops checked at run time">
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::index::IndexDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

#endif // SEQPAR_TRANSFORMS_PASSES_TD
