//===- Passes.td - seqpar conversion passes ----------------*- tablegen -*-===//
//
// Lowerings out of the tensor world, after bufferization: seqpar's
// memref-level collectives to the runtime C ABI (SeqParToRuntime/) and f32
// linalg contractions to CBLAS (LinalgToBlas/). seqpar-lower-to-llvm
// (seqpar/Pipelines/Pipelines.h) runs them.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_CONVERSION_PASSES_TD
#define SEQPAR_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// SeqParToRuntime
//===----------------------------------------------------------------------===//

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

def InstrumentAttention : Pass<"seqpar-instrument-attention", "::mlir::ModuleOp"> {
  let summary = "Count attention FLOPs and time in runtime compute regions";
  let description = [{
    Wraps every `seqpar.attention` and `seqpar.attention_block` in calls of
    `seqpar_rt_region_begin("attention", flops)` and
    `seqpar_rt_region_end("attention")` (llvm.call on a module string), and
    every `seqpar.attention_backward` and `seqpar.attention_block_backward`
    likewise in a region "attention_backward", so the runtime's per-rank
    counters (printed by seqpar-run) hold the number of attention blocks
    each rank ran in forward and in backward, their FLOPs and their wall
    time. flops = 4 * b * a * d * pairs forward: the multiply-adds of Q.K^T
    and P.V over the (query, key) pairs the op keeps (s * t, fewer under
    `causal`); 10 * b * a * d * pairs for a block backward (five
    contractions) and 12 for a whole backward (getAttentionFlops,
    AttentionFlops.h). Pairs the causal rule removes are not counted, as in
    FlashAttention's figures; where only the run time knows them (a causal
    block whose positions are not the same value or constants), loops
    before the region count the pairs with kv_positions[j] <= q_positions[i].
    Softmax is not counted, as in seqpar-run's contraction FLOPs. Blocks a
    ring skips (scf.if on the causal order) are not counted, since they do
    not run.
    Each ring `seqpar-context-parallel` built is wrapped too, from its first
    `seqpar.shift_start` (attribute `seqpar.ring_begin`) to its last
    `seqpar.wait` (`seqpar.ring_end`), in a region "attention_ring" or
    "attention_backward_ring" of 0 FLOPs: the runtime adds to an open region
    the seconds of the collectives completing and of the waits inside it, so
    1 - wait / collective seconds is the part of the ring's transfer time
    hidden behind its blocks' compute (docs/context-parallelism.md).
    Runs in `seqpar-lower-to-llvm` before `seqpar-decompose-attention`, whose
    ops land between the two calls. Without an initialised runtime the calls
    return an error status that compiled code ignores.

    Before:
    ```mlir
    %o = seqpar.attention %q, %k, %v {scale = 0.25 : f32}
        : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32> -> tensor<1x4x8x16xf32>
    ```
    After (flops = 4 * 1 * 4 * 8 * 8 * 16 = 16384):
    ```mlir
    %name = llvm.mlir.addressof @__seqpar_region_attention : !llvm.ptr
    %flops = llvm.mlir.constant(16384 : i64) : i64
    %0 = llvm.call @seqpar_rt_region_begin(%name, %flops) : (!llvm.ptr, i64) -> i32
    %o = seqpar.attention %q, %k, %v {scale = 0.25 : f32} : ...
    %name2 = llvm.mlir.addressof @__seqpar_region_attention : !llvm.ptr
    %1 = llvm.call @seqpar_rt_region_end(%name2) : (!llvm.ptr) -> i32
    ```
  }];
  let statistics = [
    Statistic<"numInstrumented", "instrumented", "Attention ops wrapped">,
    Statistic<"numRings", "rings", "Rings wrapped">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

//===----------------------------------------------------------------------===//
// LinalgToBlas
//===----------------------------------------------------------------------===//

def LowerMatmulToBlas : Pass<"seqpar-lower-matmul-to-blas", "::mlir::ModuleOp"> {
  let summary = "Lower f32 matmul-like linalg ops on buffers to cblas_sgemm calls";
  let description = [{
    After bufferization, every linalg op on f32 buffers that is a
    contraction (`linalg.matmul`, `linalg.batch_matmul`, or a
    `linalg.generic` with a multiply-add body, e.g. the [b, s, h] x [h, n]
    linear layers of exported graphs and attention's per-head products)
    whose operands map onto row-major GEMMs inside loops becomes calls of
    CBLAS `cblas_sgemm` (alpha = 1): conditions: one n dim; one k dim, or
    several that A and B lay out as one equally spaced run (a weight
    gradient X^T . dY reducing over [b, s] tokens); the GEMM's dims last in
    every operand (A and B may be transposed), unit stride on the innermost
    dim of each operand, static strides. Each batch dim is an `scf.for`
    around the calls, except batch dims that every operand lays out as one
    equally spaced run (attention's [b, a] heads), which are merged into
    one loop; m dims whose rows are not equally spaced with the inner ones
    (the query heads of a GQA group on a query tile) are loops too, the
    inner ones the GEMM's M. beta = 1, since linalg accumulates into its
    output, except when the output buffer was just filled with zeros (a
    `linalg.fill` of 0 with only memory-effect-free ops in between): then
    beta = 0 and the fill is erased. Anything else, and contractions on
    f16/bf16 (with a remark), stays for `convert-linalg-to-loops`. The
    program then needs a CBLAS library at link or JIT time (Debian:
    libopenblas-dev).

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

//===----------------------------------------------------------------------===//
// OutlineLoopNests
//===----------------------------------------------------------------------===//

def OutlineLoopNests : Pass<"seqpar-outline-loop-nests", "::mlir::ModuleOp"> {
  let summary = "Move each top-level loop nest of a function into its own function";
  let description = [{
    After `convert-linalg-to-loops`, a per-rank program is one function
    holding every layer's loop nests, and LLVM's optimiser takes time
    superlinear in the size of one function. This pass moves every
    `scf.for` at the top level of a function body into a private function
    of its own (upstream's `outlineSingleBlockRegion`: the values it uses
    from outside become arguments, index constants are cloned, its results
    are returned), called in its place, and marks it `noinline` for LLVM
    (`passthrough`), so the optimiser works on many small functions: time
    linear in the program. A loop upstream's outlining refuses stays.

    Before:
    ```mlir
    func.func @forward(%a: memref<8xf32>, %b: memref<8xf32>) {
      scf.for %i = %c0 to %c8 step %c1 {
        %x = memref.load %a[%i] : memref<8xf32>
        memref.store %x, %b[%i] : memref<8xf32>
      }
      return
    }
    ```
    After:
    ```mlir
    func.func private @forward__nest0(%a: memref<8xf32>, %b: memref<8xf32>)
        attributes {passthrough = ["noinline"]} {
      scf.for %i = %c0 to %c8 step %c1 { ... }
      return
    }
    func.func @forward(%a: memref<8xf32>, %b: memref<8xf32>) {
      call @forward__nest0(%a, %b) : (memref<8xf32>, memref<8xf32>) -> ()
      return
    }
    ```
  }];
  let statistics = [
    Statistic<"numOutlined", "outlined", "Loop nests moved into functions">
  ];
  let dependentDialects = [
    "::mlir::func::FuncDialect",
    "::mlir::scf::SCFDialect"
  ];
}

#endif // SEQPAR_CONVERSION_PASSES_TD
