// RUN: seqpar-opt %s -split-input-file --seqpar-materialize-poison-tensors | FileCheck %s

// Tests that a poison tensor of static shape becomes a tensor.empty of the
// same type, and that other poison stays.

// CHECK-LABEL: func.func @static
// CHECK-DAG: %[[E:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK-DAG: %[[I:.+]] = ub.poison : index
// CHECK-NOT: ub.poison : tensor
// CHECK: return %[[E]], %[[I]]
func.func @static() -> (tensor<4x8xf32>, index) {
  %p = ub.poison : tensor<4x8xf32>
  %i = ub.poison : index
  return %p, %i : tensor<4x8xf32>, index
}

// -----

// Tests that lift-cf-to-scf's poison for a loop-carried tensor (undefined
// before the loop's first trip) bufferizes after the pass.

// CHECK-LABEL: func.func @lifted_loop
// CHECK-NOT: ub.poison : tensor
// CHECK: scf.while
func.func @lifted_loop(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = ub.poison : tensor<4xf32>
  %r:2 = scf.while (%i = %c0, %acc = %p) : (index, tensor<4xf32>) -> (index, tensor<4xf32>) {
    %more = arith.cmpi slt, %i, %n : index
    scf.condition(%more) %i, %acc : index, tensor<4xf32>
  } do {
  ^bb0(%i: index, %acc: tensor<4xf32>):
    %next = arith.addi %i, %c1 : index
    scf.yield %next, %x : index, tensor<4xf32>
  }
  return %r#1 : tensor<4xf32>
}

// -----

// Tests that a poison tensor of dynamic shape gets size 0 in each dynamic
// dim (lift-cf-to-scf passes poison on loop exits not taken, also for
// dynamic tensors that are defined on every path).

// CHECK-LABEL: func.func @dynamic
// CHECK: %[[ZERO:.+]] = arith.constant 0 : index
// CHECK: %[[E:.+]] = tensor.empty(%[[ZERO]], %[[ZERO]]) : tensor<?x4x?xf32>
// CHECK: return %[[E]]
func.func @dynamic() -> tensor<?x4x?xf32> {
  %p = ub.poison : tensor<?x4x?xf32>
  return %p : tensor<?x4x?xf32>
}
