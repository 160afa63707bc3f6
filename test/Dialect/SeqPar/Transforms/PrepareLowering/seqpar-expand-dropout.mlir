// RUN: seqpar-opt %s -split-input-file --seqpar-expand-dropout | FileCheck %s

// Tests the lowering of a shard's dropout: global coordinates (index +
// offset), the linear index in the global shape, ten Philox rounds, and the
// keep test on the top 24 bits.

// CHECK-LABEL: func.func @shard
// CHECK-SAME: (%[[X:.+]]: tensor<2x4x8xf32>, %[[SEED:.+]]: i64, %[[OFF:.+]]: index)
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[X]] : tensor<2x4x8xf32>)
// CHECK: %[[I1:.+]] = linalg.index 1 : index
// CHECK: arith.addi %[[I1]], %[[OFF]] : index
// CHECK: arith.muli %{{.+}}, %{{.+}} : i64
// CHECK-COUNT-10: arith.mului_extended
// CHECK: arith.shrui %{{.+}}, %{{.+}} : i32
// CHECK: arith.uitofp %{{.+}} : i32 to f32
// CHECK: arith.cmpf oge
// CHECK: arith.select
// CHECK-NOT: seqpar.dropout
func.func @shard(%x: tensor<2x4x8xf32>, %seed: i64, %off: index) -> tensor<2x4x8xf32> {
  %c0 = arith.constant 0 : index
  %y = seqpar.dropout %x seed %seed offsets(%c0, %off, %c0) {rate = 0.25 : f64, site = 3 : i64, global_shape = array<i64: 2, 16, 8>} : tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}

// -----

// Tests a single-device dropout (no offsets): the local shape is global.

// CHECK-LABEL: func.func @single_device
// CHECK-NOT: seqpar.dropout
// CHECK: linalg.generic
// CHECK: arith.mulf %{{.+}}, %{{.+}} : bf16
// CHECK: arith.select
func.func @single_device(%x: tensor<4x8xbf16>, %seed: i64) -> tensor<4x8xbf16> {
  %y = seqpar.dropout %x seed %seed {rate = 0.2 : f64, site = 0 : i64} : tensor<4x8xbf16>
  return %y : tensor<4x8xbf16>
}
