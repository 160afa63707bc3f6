// RUN: seqpar-opt %s --seqpar-plan-tensor-parallel=tp=2 -split-input-file 2>/dev/null | FileCheck %s
// RUN: seqpar-opt %s --seqpar-plan-tensor-parallel=tp=2 -split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// A linear whose weight is a static slice of an argument (a piece of a
// fused weight, as seqpar-split-fused-projections leaves it;
// docs/tensor-parallel-planning.md, "Fused projections"): column-parallel,
// the argument kept whole on every rank and the rank's 16 of the piece's 32
// columns sliced locally.

// REMARK: remark: tensor parallelism (tp=2): 1 blocks, 1 column-parallel and 1 row-parallel linears, 0 linears left replicated
// CHECK-LABEL: func.func @mlp_piece(
// CHECK-SAME: %[[W:[a-z0-9]+]]: tensor<16x48xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}
// CHECK-SAME: tensor<16x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, {{\[}}[0]]>}
// CHECK: %[[RANK:.*]] = shard.process_multi_index on @grid axes = [0]
// CHECK: %[[PIECE:.*]] = tensor.extract_slice %[[W]][0, 8] [16, 32] [1, 1]
// CHECK: %[[OFF:.*]] = arith.muli %[[RANK]], %c16
// CHECK: %[[MINE:.*]] = tensor.extract_slice %[[PIECE]][0, %[[OFF]]] [16, 16] [1, 1] : tensor<16x32xf32> to tensor<16x16xf32>
// CHECK: linalg.matmul ins(%{{.*}}, %[[MINE]] : tensor<8x16xf32>, tensor<16x16xf32>)
// CHECK: shard.all_reduce
func.func @mlp_piece(%x: tensor<8x16xf32>, %w: tensor<16x48xf32>, %w2: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %wp = tensor.extract_slice %w[0, 8] [16, 32] [1, 1] : tensor<16x48xf32> to tensor<16x32xf32>
  %e = tensor.empty() : tensor<8x32xf32>
  %acc = linalg.fill ins(%cst : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %h = linalg.matmul ins(%x, %wp : tensor<8x16xf32>, tensor<16x32xf32>) outs(%acc : tensor<8x32xf32>) -> tensor<8x32xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %acc2 = linalg.fill ins(%cst : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul ins(%h, %w2 : tensor<8x32xf32>, tensor<32x16xf32>) outs(%acc2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

// Two pieces of one weight argument are two linears (each seeds the block
// of the activation they read), not one weight read twice.

// REMARK: remark: tensor parallelism (tp=2): 1 blocks, 2 column-parallel and 2 row-parallel linears, 0 linears left replicated
// CHECK-LABEL: func.func @two_pieces(
func.func @two_pieces(%x: tensor<8x16xf32>, %w: tensor<16x48xf32>, %w2: tensor<32x16xf32>, %w3: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %wa = tensor.extract_slice %w[0, 0] [16, 32] [1, 1] : tensor<16x48xf32> to tensor<16x32xf32>
  %wb = tensor.extract_slice %w[0, 32] [16, 16] [1, 1] : tensor<16x48xf32> to tensor<16x16xf32>
  %e = tensor.empty() : tensor<8x32xf32>
  %acc = linalg.fill ins(%cst : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %ha = linalg.matmul ins(%x, %wa : tensor<8x16xf32>, tensor<16x32xf32>) outs(%acc : tensor<8x32xf32>) -> tensor<8x32xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %acc2 = linalg.fill ins(%cst : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %hb = linalg.matmul ins(%x, %wb : tensor<8x16xf32>, tensor<16x16xf32>) outs(%acc2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %ya = linalg.matmul ins(%ha, %w2 : tensor<8x32xf32>, tensor<32x16xf32>) outs(%acc2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %yb = linalg.matmul ins(%hb, %w3 : tensor<8x16xf32>, tensor<16x16xf32>) outs(%acc2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.add ins(%ya, %yb : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}
