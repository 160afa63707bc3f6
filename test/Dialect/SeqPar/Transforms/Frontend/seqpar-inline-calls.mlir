// RUN: seqpar-opt %s -split-input-file --seqpar-inline-calls | FileCheck %s
// Unchanged modules are not verified again: the pass reports them preserved.
// RUN: seqpar-opt %s -split-input-file --seqpar-inline-calls \
// RUN:   --mlir-print-ir-after-change --mlir-print-ir-after-all 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CHANGED

// An outlined helper (a LayerNorm-like add) is inlined and erased; the call
// to a declaration (a timer) stays a call.
// CHECK-NOT:   @helper
// CHECK-LABEL: func.func @layer
// CHECK-NOT:     call @helper
// CHECK:         call @timer
// CHECK-NEXT:    arith.addf
// CHECK-NOT:     call @helper
// CHANGED: IR Dump After InlineCalls
func.func private @timer() -> f64
func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = arith.addf %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @layer(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t = call @timer() : () -> f64
  %y = call @helper(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Nothing to inline: the module is left as it was (not even canonicalized:
// the duplicate add stays).
// CHECK-LABEL: func.func @plain
// CHECK:         arith.addf
// CHECK:         arith.addf
// CHECK:         call @timer
// CHANGED-NOT: IR Dump After InlineCalls
func.func private @timer() -> f64
func.func @plain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = arith.addf %x, %x : tensor<4xf32>
  %b = arith.addf %x, %x : tensor<4xf32>
  %t = call @timer() : () -> f64
  %c = arith.mulf %a, %b : tensor<4xf32>
  return %c : tensor<4xf32>
}
