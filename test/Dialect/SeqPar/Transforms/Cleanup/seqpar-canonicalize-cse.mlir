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
