// Tests that seqpar-plan-tensor-parallel refuses option values that make no
// sense, before reading or creating any IR, and a TP axis of dynamic size.

// RUN: split-file %s %t
// RUN: seqpar-opt %t/tp.mlir -verify-diagnostics --seqpar-plan-tensor-parallel=tp=-1
// RUN: seqpar-opt %t/cp.mlir -verify-diagnostics --seqpar-create-grid="tp=2 cp=0" --seqpar-plan-tensor-parallel=tp=2
// RUN: seqpar-opt %t/cp-ulysses.mlir -verify-diagnostics --seqpar-create-grid="tp=2 cp=4 cp-ulysses=3" --seqpar-plan-tensor-parallel=tp=2
// RUN: seqpar-opt %t/grid-axis.mlir -verify-diagnostics --seqpar-plan-tensor-parallel="tp=2 grid-axis=-1"
// RUN: seqpar-opt %t/overflow.mlir -verify-diagnostics --seqpar-create-grid="tp=4611686018427387904 cp=4" --seqpar-plan-tensor-parallel=tp=4611686018427387904
// RUN: seqpar-opt %t/dynamic.mlir -verify-diagnostics --seqpar-plan-tensor-parallel=tp=2
// RUN: not seqpar-opt %t/dynamic.mlir --seqpar-plan-tensor-parallel=tp=2 -o /dev/null 2>/dev/null
// With cp, the planner makes or checks seqpar-pipeline's TP x CP grid itself.
// RUN: seqpar-opt %t/planner-cp.mlir -verify-diagnostics --seqpar-plan-tensor-parallel="tp=2 cp=-1"
// RUN: seqpar-opt %t/planner-cp-ulysses.mlir -verify-diagnostics --seqpar-plan-tensor-parallel="tp=2 cp-ulysses=2"
// RUN: seqpar-opt %t/planner-grid-axis.mlir -verify-diagnostics --seqpar-plan-tensor-parallel="tp=2 cp=2 grid-axis=1"
// RUN: seqpar-opt %t/planner-contract.mlir -verify-diagnostics --seqpar-plan-tensor-parallel="tp=2 cp=4 cp-ulysses=3"
// RUN: seqpar-opt %t/planner-other-grid.mlir -verify-diagnostics --seqpar-plan-tensor-parallel="tp=2 cp=1"
// RUN: seqpar-opt %t/planner-makes-grid.mlir --seqpar-plan-tensor-parallel="tp=2 cp=4 cp-ulysses=2" | FileCheck %s --check-prefix=MAKES
// RUN: seqpar-opt %t/planner-other-grid.mlir --seqpar-plan-tensor-parallel=tp=2 | FileCheck %s --check-prefix=ANY
// Without cp, a symbol @grid that is no grid is refused before planning (a
// grid made beside it was a redefinition the verifier reported).
// RUN: seqpar-opt %t/not-a-grid.mlir -verify-diagnostics --seqpar-plan-tensor-parallel=tp=2

//--- tp.mlir
// expected-error @+1 {{tensor parallelism: tp=-1 is not a TP size: expected tp >= 1, or 0 (the default) for the size of the grid axis}}
module {
}

//--- cp.mlir
// expected-error @+1 {{tensor parallelism: cp=0 is not a context-parallel size: expected cp >= 1 (1: no CP axis)}}
module {
}

//--- cp-ulysses.mlir
// expected-error @+1 {{tensor parallelism: cp-ulysses=3 must be positive and divide cp=4}}
module {
}

//--- grid-axis.mlir
// expected-error @+1 {{tensor parallelism: grid-axis=-1 is not a grid axis: expected an axis >= 0}}
module {
}

//--- overflow.mlir
// expected-error @+1 {{tensor parallelism: tp=4611686018427387904 x cp=4 ranks overflow a 64-bit count}}
module {
}

//--- dynamic.mlir
// A dynamic TP axis is named as such (it was printed as
// "-9223372036854775808 ranks").
module {
  // expected-error @+1 {{axis 0 of @grid has a dynamic size: the TP axis needs a static size}}
  shard.grid @grid(shape = ?) {sym_visibility = "private"}
  func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
    return %x : tensor<8x16xf32>
  }
}

//--- planner-cp.mlir
// expected-error @+1 {{tensor parallelism: cp=-1 is not a context-parallel size: expected cp >= 1 for the TP x CP grid, or 0 (the default)}}
module {
}

//--- planner-cp-ulysses.mlir
// expected-error @+1 {{tensor parallelism: cp-ulysses=2 without cp: the Ulysses size is one of the TP x CP grid's (give cp >= 1)}}
module {
}

//--- planner-grid-axis.mlir
// expected-error @+1 {{tensor parallelism: grid-axis=1 with cp=2: the TP x CP grid has TP on axis 0}}
module {
}

//--- planner-contract.mlir
// expected-error @+1 {{grid for context and tensor parallelism: cp-ulysses=3 must be positive and divide cp=4}}
module {
}

//--- planner-other-grid.mlir
// The grid contract's shape is checked as seqpar-create-grid checks it; without
// cp any grid whose TP axis has tp ranks is taken.
// ANY: shard.grid @grid(shape = 2x2)
// ANY: func.func @f(%{{.*}}: tensor<8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
module {
  // expected-error @+1 {{grid for context and tensor parallelism: the module's @grid has shape [2, 2], but tp=2 cp=1 cp-ulysses=1 make the grid [2]}}
  shard.grid @grid(shape = 2x2)
  func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
    return %x : tensor<8x16xf32>
  }
}

//--- planner-makes-grid.mlir
// MAKES: shard.grid @grid(shape = 2x2x2) {sym_visibility = "private"}
// MAKES-NOT: shard.grid
module {
  func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
    return %x : tensor<8x16xf32>
  }
}

//--- not-a-grid.mlir
module {
  // expected-error @+1 {{tensor parallelism: @grid is a 'func.func', not a shard.grid}}
  func.func private @grid(f32) -> f32
  func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
    return %x : tensor<8x16xf32>
  }
}
