//===- TestPasses.td - seqpar test passes ------------------*- tablegen -*-===//
//
// Passes that exist for tests only: they print what an analysis found, or
// simulate the ranks of a per-rank program in one function. Registered by
// seqpar-opt alone (registerSeqParTestPasses), never by
// registerAllSeqParPasses or the C API.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_TEST_PASSES_TD
#define SEQPAR_TEST_PASSES_TD

include "mlir/Pass/PassBase.td"

def TestTokenWise : Pass<"seqpar-test-token-wise", "::mlir::func::FuncOp"> {
  let summary = "Report the token-wise analysis as remarks (for tests)";
  let description = [{
    Runs the token-wise analysis (docs/semantics.md §3.1) on each function and emits
    one remark per op with a tensor result: `token-wise along dim D` (with
    `position-dependent` when it reads positions along the sequence loop),
    or `not token-wise: <reason>`, or `no sequence dim`.

    ```mlir
    func.func @f(%x: tensor<2x8x4xf32> {seqpar.seq_dim = 1 : i64}) -> tensor<2x8x4xf32> {
      %e = tensor.empty() : tensor<2x8x4xf32>  // remark: no sequence dim
      // remark: token-wise along dim 1
      %y = linalg.softmax dimension(2) ins(%x : tensor<2x8x4xf32>) outs(%e : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
      // remark: not token-wise: normalises along the sequence dim
      %z = linalg.softmax dimension(1) ins(%y : tensor<2x8x4xf32>) outs(%e : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
      return %z : tensor<2x8x4xf32>
    }
    ```
    The IR is unchanged.
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

    ```mlir
    // remark: argument sequence dims: [1, -1]
    func.func @f(%x: tensor<2x8x4xf32> {seqpar.seq_dim = 1 : i64}, %w: tensor<4x4xf32>) -> tensor<2x8x4xf32>
    ```
    The IR is unchanged.
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

#endif // SEQPAR_TEST_PASSES_TD
