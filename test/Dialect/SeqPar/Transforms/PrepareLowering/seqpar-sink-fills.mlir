// RUN: seqpar-opt %s -split-input-file --seqpar-sink-fills | FileCheck %s
// RUN: seqpar-opt %s -split-input-file --pass-pipeline="builtin.module(seqpar-lower-to-llvm)" --mlir-print-ir-after=seqpar-lower-matmul-to-blas -o /dev/null 2>&1 | FileCheck %s --check-prefix=BLAS

// One zero accumulator shared by two linears, filled before an unrelated
// op: each linear gets its own fill of the same tensor.empty right before
// it, and the shared fill goes; the elementwise op that writes into that
// empty tensor too keeps it. Lowered, both GEMMs overwrite a fresh buffer
// (beta = 0) and no fill or copy of the accumulator is left.
// CHECK-LABEL: func.func @shared
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8x4xf32>
// CHECK-NOT: linalg.fill
// CHECK: %[[X:.*]] = linalg.generic
// CHECK-NEXT: ^bb0
// CHECK: %[[Z1:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<8x4xf32>)
// CHECK-NEXT: %[[A:.*]] = linalg.matmul ins(%[[X]], %arg1 : tensor<8x16xf32>, tensor<16x4xf32>) outs(%[[Z1]] : tensor<8x4xf32>)
// CHECK-NEXT: %[[Z2:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<8x4xf32>)
// CHECK-NEXT: %[[B:.*]] = linalg.matmul ins(%arg0, %arg2 : tensor<8x16xf32>, tensor<16x4xf32>) outs(%[[Z2]] : tensor<8x4xf32>)
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[A]], %[[B]] : tensor<8x4xf32>, tensor<8x4xf32>) outs(%[[E]] : tensor<8x4xf32>)
// CHECK-NOT: linalg.fill
// BLAS-LABEL: func.func @shared
// BLAS-NOT: linalg.fill
// BLAS-NOT: memref.copy
// BLAS: %[[BETA0:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// BLAS: llvm.call @cblas_sgemm({{.*}}, %[[BETA0]], {{.*}})
// BLAS-NOT: linalg.fill
// BLAS-NOT: memref.copy
// BLAS: %[[BETA1:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// BLAS: llvm.call @cblas_sgemm({{.*}}, %[[BETA1]], {{.*}})
func.func @shared(%x: tensor<8x16xf32>, %w1: tensor<16x4xf32>, %w2: tensor<16x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %ex = tensor.empty() : tensor<8x16xf32>
  %x2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf32>) outs(%ex : tensor<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = math.tanh %in : f32
    linalg.yield %t : f32
  } -> tensor<8x16xf32>
  %a = linalg.matmul ins(%x2, %w1 : tensor<8x16xf32>, tensor<16x4xf32>) outs(%z : tensor<8x4xf32>) -> tensor<8x4xf32>
  %b = linalg.matmul ins(%x, %w2 : tensor<8x16xf32>, tensor<16x4xf32>) outs(%z : tensor<8x4xf32>) -> tensor<8x4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %t = arith.addf %in, %in2 : f32
    linalg.yield %t : f32
  } -> tensor<8x4xf32>
  return %a, %sum : tensor<8x4xf32>, tensor<8x4xf32>
}

// -----

// A fill also returned keeps that use; one right before its only user, or
// over a tensor that is not empty, stays as it is.
// CHECK-LABEL: func.func @kept
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<4xf32>)
// CHECK-NEXT: %[[Z1:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<4xf32>)
// CHECK-NEXT: %[[S:.*]] = linalg.reduce ins(%arg0 : tensor<4x8xf32>) outs(%[[Z1]] : tensor<4xf32>)
// CHECK: %[[D:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%arg1 : tensor<4xf32>)
// CHECK-NEXT: %[[T:.*]] = linalg.reduce ins(%arg0 : tensor<4x8xf32>) outs(%[[D]] : tensor<4xf32>)
// CHECK: return %[[Z]], %[[S]], %[[T]]
func.func @kept(%x: tensor<4x8xf32>, %live: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.reduce ins(%x : tensor<4x8xf32>) outs(%z : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %d = linalg.fill ins(%zero : f32) outs(%live : tensor<4xf32>) -> tensor<4xf32>
  %t = linalg.reduce ins(%x : tensor<4x8xf32>) outs(%d : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  return %z, %s, %t : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// A linear whose zero accumulator is filled long before it (an unrelated
// op in between), then a bias + GELU written into the same empty tensor
// (an exported MLP): the fill moves to the linear over the same
// tensor.empty, so after bufferization the GELU still writes in place over
// the linear's output, one buffer of [8, 4] for both; a tensor.empty of its
// own for the fill had given the GELU a second buffer (the TP+SP GPT-2
// layer's peak rose from 60 to 72 MiB).
// BLAS-LABEL: func.func @in_place
// BLAS: %[[OUT:.*]] = memref.alloc() {{.*}} : memref<8x4xf32>
// BLAS-NOT: memref.alloc() {{.*}} : memref<8x4xf32>
// BLAS: llvm.call @cblas_sgemm
// BLAS-NOT: memref.alloc() {{.*}} : memref<8x4xf32>
// BLAS: linalg.generic {{.*}} ins(%[[OUT]], %{{.*}} : memref<8x4xf32>, memref<4xf32>) outs(%[[OUT]] : memref<8x4xf32>)
// BLAS: math.tanh
func.func @in_place(%x: tensor<8x16xf32>, %w: tensor<16x4xf32>, %bias: tensor<4xf32>) -> tensor<8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %ex = tensor.empty() : tensor<8x16xf32>
  %x2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf32>) outs(%ex : tensor<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = math.exp %in : f32
    linalg.yield %t : f32
  } -> tensor<8x16xf32>
  %y = linalg.matmul ins(%x2, %w : tensor<8x16xf32>, tensor<16x4xf32>) outs(%z : tensor<8x4xf32>) -> tensor<8x4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%y, %bias : tensor<8x4xf32>, tensor<4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<8x4xf32>
  return %g : tensor<8x4xf32>
}
