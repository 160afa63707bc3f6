// RUN: seqpar-opt %s --seqpar-fold-static-reshapes -split-input-file | FileCheck %s

// A head split and a head merge written as tensor.reshape with a shape
// operand become tensor.expand_shape and tensor.collapse_shape.

// CHECK-LABEL: func.func @split_and_merge(
// CHECK-SAME: %[[X:.*]]: tensor<2x16x32xf32>
// CHECK-NOT: tensor.reshape
// CHECK: %[[H:.*]] = tensor.expand_shape %[[X]] {{\[}}[0], [1], [2, 3]] output_shape [2, 16, 4, 8] : tensor<2x16x32xf32> into tensor<2x16x4x8xf32>
// CHECK: %[[M:.*]] = tensor.collapse_shape %[[H]] {{\[}}[0, 1], [2, 3]] : tensor<2x16x4x8xf32> into tensor<32x32xf32>
// CHECK: return %[[H]], %[[M]]
func.func @split_and_merge(%x: tensor<2x16x32xf32>) -> (tensor<2x16x4x8xf32>, tensor<32x32xf32>) {
  %s4 = arith.constant dense<[2, 16, 4, 8]> : tensor<4xi64>
  %s2 = arith.constant dense<[32, 32]> : tensor<2xi64>
  %h = tensor.reshape %x(%s4) : (tensor<2x16x32xf32>, tensor<4xi64>) -> tensor<2x16x4x8xf32>
  %m = tensor.reshape %h(%s2) : (tensor<2x16x4x8xf32>, tensor<2xi64>) -> tensor<32x32xf32>
  return %h, %m : tensor<2x16x4x8xf32>, tensor<32x32xf32>
}

// -----

// Left alone: a reshape that splits one dim and merges others (no single
// reassociation), two of the same rank that move the dims' sizes, and a
// dynamic one.

// CHECK-LABEL: func.func @left_alone(
// CHECK-COUNT-4: tensor.reshape
// CHECK-NOT: expand_shape
// CHECK-NOT: collapse_shape
func.func @left_alone(%x: tensor<6x4xf32>, %y: tensor<?x4xf32>, %sd: tensor<3xi64>, %z: tensor<2x3x4xf32>) -> (tensor<3x8xf32>, tensor<4x6xf32>, tensor<?x2x2xf32>, tensor<3x8xf32>) {
  %s1 = arith.constant dense<[3, 8]> : tensor<2xi64>
  %s2 = arith.constant dense<[4, 6]> : tensor<2xi64>
  %a = tensor.reshape %x(%s1) : (tensor<6x4xf32>, tensor<2xi64>) -> tensor<3x8xf32>
  %b = tensor.reshape %x(%s2) : (tensor<6x4xf32>, tensor<2xi64>) -> tensor<4x6xf32>
  %c = tensor.reshape %y(%sd) : (tensor<?x4xf32>, tensor<3xi64>) -> tensor<?x2x2xf32>
  %d = tensor.reshape %z(%s1) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<3x8xf32>
  return %a, %b, %c, %d : tensor<3x8xf32>, tensor<4x6xf32>, tensor<?x2x2xf32>, tensor<3x8xf32>
}
