// RUN: seqpar-opt %s -split-input-file --seqpar-canonicalize-cse | FileCheck %s
// The same result as the two upstream passes in turn.
// RUN: seqpar-opt %s -split-input-file --canonicalize --cse | FileCheck %s
// RUN: seqpar-opt %s -split-input-file --seqpar-canonicalize-cse \
// RUN:   --mlir-print-ir-after-change --mlir-print-ir-after-all 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CHANGED

// Canonicalization folds the reshape round trip and x * 1; CSE then merges
// the two identical adds.
// CHECK-LABEL: func.func @both
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8xf32>)
// CHECK-NOT:     tensor.collapse_shape
// CHECK-NOT:     arith.mulf
// CHECK:         %[[A:.*]] = arith.addf %[[X]], %[[X]]
// CHECK-NOT:     arith.addf
// CHECK:         return %[[A]], %[[A]]
// CHANGED: IR Dump After CanonicalizeAndCSE
func.func @both(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  %e = tensor.expand_shape %c [[0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x8xf32>
  %one = arith.constant dense<1.0> : tensor<4x8xf32>
  %m = arith.mulf %e, %one : tensor<4x8xf32>
  %a = arith.addf %m, %m : tensor<4x8xf32>
  %b = arith.addf %x, %x : tensor<4x8xf32>
  return %a, %b : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Already clean: reported unchanged, so the module is not verified again.
// CHECK-LABEL: func.func @clean
// CHANGED-NOT: IR Dump After CanonicalizeAndCSE
func.func @clean(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = arith.addf %x, %x : tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

// A function of several blocks gets canonicalize's region simplification:
// the unused argument of ^bb1 and its successor operand are erased (the
// patterns alone keep them). Single-block SSA regions skip it: there it
// only erases dead ops, as the patterns' driver already does.
// CHECK-LABEL: func.func @blocks
// CHECK-SAME:    (%[[C:.*]]: i1, %[[X:.*]]: f32, %{{.*}}: f32)
// CHECK:         cf.cond_br %[[C]], ^[[A:.*]], ^[[B:.*]]
// CHECK-NEXT:  ^[[A]]:
// CHECK-NEXT:    return %[[X]]
// CHANGED: IR Dump After CanonicalizeAndCSE
func.func @blocks(%c: i1, %x: f32, %y: f32) -> f32 {
  cf.cond_br %c, ^a(%y : f32), ^b
^a(%u: f32):
  %d = arith.addf %u, %u : f32
  return %x : f32
^b:
  %e = arith.mulf %x, %x : f32
  return %e : f32
}

// -----

// A graph region (a subgraph's body) gets it too: the cycle of ops that use
// only each other is dead, though each has a use.
// CHECK-LABEL: ml_program.subgraph @cycle
// CHECK-NEXT:    ml_program.output
// CHANGED: IR Dump After CanonicalizeAndCSE
ml_program.subgraph @cycle(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = arith.addf %b, %x : tensor<4xf32>
  %b = arith.mulf %a, %x : tensor<4xf32>
  ml_program.output %x : tensor<4xf32>
}

// -----

// And so does a module's body when it holds ops with results.
// CHECK-LABEL: func.func @beside_cycle
// CHECK-NOT:     arith.
// CHANGED: IR Dump After CanonicalizeAndCSE
func.func @beside_cycle(%x: f32) -> f32 {
  return %x : f32
}
%a = arith.addi %b, %b : i32
%b = arith.muli %a, %a : i32
