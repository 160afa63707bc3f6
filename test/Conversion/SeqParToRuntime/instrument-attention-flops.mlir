// RUN: seqpar-opt %s -split-input-file --seqpar-instrument-attention | FileCheck %s

// The FLOPs each attention region is opened with: 4 * b * a * d per (query,
// key) pair the op keeps (AttentionFlops.h). Without `causal` every pair:
// 4 * 1 * 2 * 8 * (4 * 4) = 1024.
// CHECK-LABEL: func.func @dense
// CHECK: %[[F:.*]] = llvm.mlir.constant(1024 : i64) : i64
// CHECK: llvm.call @seqpar_rt_region_begin({{.*}}, %[[F]])
// CHECK-NEXT: seqpar.attention
func.func @dense(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %o = seqpar.attention %q, %k, %v {scale = 0.25 : f32}
      : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// -----

// Causal: query i keeps keys 0..i, 4 * 5 / 2 = 10 pairs: 4 * 1 * 2 * 8 * 10.
// CHECK-LABEL: func.func @causal
// CHECK: %[[F:.*]] = llvm.mlir.constant(640 : i64) : i64
// CHECK: llvm.call @seqpar_rt_region_begin({{.*}}, %[[F]])
func.func @causal(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %o = seqpar.attention %q, %k, %v {causal, scale = 0.25 : f32}
      : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// -----

// A ring's diagonal block (the same positions on both sides, zigzag or
// not) keeps s (s + 1) / 2 pairs whatever the positions: 640 again; its
// backward counts 10 per point: 1600.
// CHECK-LABEL: func.func @diagonal
// CHECK-NOT: scf.for
// CHECK: %[[F:.*]] = llvm.mlir.constant(640 : i64) : i64
// CHECK: llvm.call @seqpar_rt_region_begin({{.*}}, %[[F]])
// CHECK: %[[B:.*]] = llvm.mlir.constant(1600 : i64) : i64
// CHECK: llvm.call @seqpar_rt_region_begin({{.*}}, %[[B]])
// CHECK-NEXT: seqpar.attention_block_backward
func.func @diagonal(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>, %pos: tensor<4xindex>, %do: tensor<1x2x4x8xf32>) -> (tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) {
  %o, %m, %s = seqpar.attention_block %q, %k, %v positions(%pos, %pos) {causal, scale = 0.25 : f32}
      : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<4xindex>, tensor<4xindex> -> tensor<1x2x4x8xf32>, tensor<1x2x4xf32>
  %dq, %dk, %dv = seqpar.attention_block_backward %q, %k, %v, %do, %o, %m, %s positions(%pos, %pos) {causal, scale = 0.25 : f32}
      : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4xf32>, tensor<4xindex>, tensor<4xindex> -> tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>
  return %o, %dq : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>
}

// -----

// Constant positions are counted here: queries {2, 3} against keys
// {0, 1, 2, 9} keep 3 + 3 pairs: 4 * 1 * 2 * 8 * 6 = 384.
// CHECK-LABEL: func.func @constant_positions
// CHECK-NOT: scf.for
// CHECK: %[[F:.*]] = llvm.mlir.constant(384 : i64) : i64
// CHECK: llvm.call @seqpar_rt_region_begin({{.*}}, %[[F]])
func.func @constant_positions(%q: tensor<1x2x2x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x2x8xf32> {
  %qpos = arith.constant dense<[2, 3]> : tensor<2xindex>
  %kvpos = arith.constant dense<[0, 1, 2, 9]> : tensor<4xindex>
  %o, %m, %s = seqpar.attention_block %q, %k, %v positions(%qpos, %kvpos) {causal, scale = 0.25 : f32}
      : tensor<1x2x2x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<2xindex>, tensor<4xindex> -> tensor<1x2x2x8xf32>, tensor<1x2x2xf32>
  return %o : tensor<1x2x2x8xf32>
}

// -----

// Positions known only at run time (another rank's block, gathered K/V, a
// decode step): loops before the region count the pairs with kv <= q
// (unsigned, as the causal rule compares), times 4 * 1 * 2 * 8 = 64 FLOPs
// per pair. Without `causal` the count is static again.
// CHECK-LABEL: func.func @run_time_positions
// CHECK: %[[PAIRS:.*]] = scf.for %[[I:.*]] = {{.*}} iter_args(%[[ROW:.*]] = {{.*}}) -> (i64)
// CHECK:   %[[Q:.*]] = tensor.extract %arg3[%[[I]]] : tensor<2xindex>
// CHECK:   scf.for %[[J:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %[[ROW]]) -> (i64)
// CHECK:     %[[KV:.*]] = tensor.extract %arg4[%[[J]]] : tensor<4xindex>
// CHECK:     %[[KEPT:.*]] = arith.cmpi ule, %[[KV]], %[[Q]] : index
// CHECK:     %[[ONE:.*]] = arith.extui %[[KEPT]] : i1 to i64
// CHECK:     arith.addi %[[ACC]], %[[ONE]] : i64
// CHECK: %[[PER:.*]] = llvm.mlir.constant(64 : i64) : i64
// CHECK: %[[F:.*]] = arith.muli %[[PAIRS]], %[[PER]] : i64
// CHECK: llvm.call @seqpar_rt_region_begin({{.*}}, %[[F]])
// CHECK-NEXT: seqpar.attention_block {{.*}} {causal
// CHECK: %[[D:.*]] = llvm.mlir.constant(512 : i64) : i64
// CHECK: llvm.call @seqpar_rt_region_begin({{.*}}, %[[D]])
func.func @run_time_positions(%q: tensor<1x2x2x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>, %qpos: tensor<2xindex>, %kvpos: tensor<4xindex>) -> (tensor<1x2x2x8xf32>, tensor<1x2x2x8xf32>) {
  %o, %m, %s = seqpar.attention_block %q, %k, %v positions(%qpos, %kvpos) {causal, scale = 0.25 : f32}
      : tensor<1x2x2x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<2xindex>, tensor<4xindex> -> tensor<1x2x2x8xf32>, tensor<1x2x2xf32>
  %o2, %m2, %s2 = seqpar.attention_block %q, %k, %v positions(%qpos, %kvpos) {scale = 0.25 : f32}
      : tensor<1x2x2x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<2xindex>, tensor<4xindex> -> tensor<1x2x2x8xf32>, tensor<1x2x2xf32>
  return %o, %o2 : tensor<1x2x2x8xf32>, tensor<1x2x2x8xf32>
}

// -----

// A whole backward counts 12 per point (its block backward's 10 and Q.K^T
// once more for the LSE) unless it differentiates a seqpar.attention of the
// same operands, whose LSE the lowering reads (10): causal s = 4 keeps 10
// pairs, 16 * 10 = 160 per unit of the count.
// CHECK-LABEL: func.func @whole_backward
// CHECK: %[[F:.*]] = llvm.mlir.constant(640 : i64) : i64
// CHECK: llvm.call @seqpar_rt_region_begin({{.*}}, %[[F]])
// CHECK-NEXT: seqpar.attention
// CHECK: %[[OWN:.*]] = llvm.mlir.constant(1600 : i64) : i64
// CHECK: llvm.call @seqpar_rt_region_begin({{.*}}, %[[OWN]])
// CHECK-NEXT: seqpar.attention_backward {{.*}}, %{{.*}}, %[[O:[a-z0-9_]+]], %arg3 {causal
// CHECK: %[[OTHER:.*]] = llvm.mlir.constant(1920 : i64) : i64
// CHECK: llvm.call @seqpar_rt_region_begin({{.*}}, %[[OTHER]])
// CHECK-NEXT: seqpar.attention_backward {{.*}}, %arg4, %arg3 {causal
func.func @whole_backward(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>, %do: tensor<1x2x4x8xf32>, %other: tensor<1x2x4x8xf32>)
    -> (tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) {
  %o = seqpar.attention %q, %k, %v {causal, scale = 0.25 : f32}
      : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
  %dq, %dk, %dv = seqpar.attention_backward %q, %k, %v, %o, %do {causal, scale = 0.25 : f32}
      : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>
  %dq2, %dk2, %dv2 = seqpar.attention_backward %q, %k, %v, %other, %do {causal, scale = 0.25 : f32}
      : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>
  return %dq, %dq2 : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>
}
