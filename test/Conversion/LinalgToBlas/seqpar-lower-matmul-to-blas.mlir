// RUN: seqpar-opt %s -split-input-file --seqpar-lower-matmul-to-blas -verify-diagnostics | FileCheck %s

// Tests that linalg.matmul on f32 buffers becomes one row-major cblas_sgemm
// with alpha = beta = 1 (linalg accumulates into its output).

// CHECK-LABEL: func.func @matmul
func.func @matmul(%a: memref<32x64xf32>, %b: memref<64x16xf32>, %c: memref<32x16xf32>) {
  // CHECK: %[[ONE:.+]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
  // CHECK-NEXT: %[[ROW:.+]] = llvm.mlir.constant(101 : i32) : i32
  // CHECK-NEXT: %[[NTA:.+]] = llvm.mlir.constant(111 : i32) : i32
  // CHECK-NEXT: %[[NTB:.+]] = llvm.mlir.constant(111 : i32) : i32
  // CHECK-NEXT: %[[M:.+]] = llvm.mlir.constant(32 : i32) : i32
  // CHECK-NEXT: %[[N:.+]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK-NEXT: %[[K:.+]] = llvm.mlir.constant(64 : i32) : i32
  // CHECK-NEXT: %[[LDA:.+]] = llvm.mlir.constant(64 : i32) : i32
  // CHECK-NEXT: %[[LDB:.+]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK-NEXT: %[[LDC:.+]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK-NEXT: llvm.call @cblas_sgemm(%[[ROW]], %[[NTA]], %[[NTB]], %[[M]], %[[N]], %[[K]], %[[ONE]], %{{.+}}, %[[LDA]], %{{.+}}, %[[LDB]], %[[ONE]], %{{.+}}, %[[LDC]])
  // CHECK-NOT: linalg.matmul
  linalg.matmul ins(%a, %b : memref<32x64xf32>, memref<64x16xf32>) outs(%c : memref<32x16xf32>)
  return
}
// CHECK: llvm.func @cblas_sgemm(i32, i32, i32, i32, i32, i32, f32, !llvm.ptr, i32, !llvm.ptr, i32, f32, !llvm.ptr, i32)

// -----

// Tests that batch_matmul loops over the batch with per-batch pointer
// offsets (elements of one matrix).

// CHECK-LABEL: func.func @batch_matmul
func.func @batch_matmul(%a: memref<4x16x8xf32>, %b: memref<4x8x16xf32>, %c: memref<4x16x16xf32>) {
  // CHECK: scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step
  // CHECK: %[[II:.+]] = arith.index_cast %[[I]] : index to i64
  // CHECK: %[[SA:.+]] = arith.constant 128 : i64
  // CHECK: %[[OA:.+]] = arith.muli %[[II]], %[[SA]] : i64
  // CHECK: llvm.getelementptr %{{.+}}[%[[OA]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  // CHECK: llvm.call @cblas_sgemm
  linalg.batch_matmul ins(%a, %b : memref<4x16x8xf32>, memref<4x8x16xf32>) outs(%c : memref<4x16x16xf32>)
  return
}

// -----

// Tests that a linear layer written as a linalg.generic over [b, s, h] x
// [h, n] is one GEMM with M = b * s, and that a transposed weight [n, h]
// uses CblasTrans (112) with ldb = h.

#a = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#w = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
#wt = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#c = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @linear
func.func @linear(%x: memref<2x16x32xf32>, %w: memref<32x48xf32>, %wt: memref<48x32xf32>, %y: memref<2x16x48xf32>) {
  // CHECK-DAG: %[[M:.+]] = llvm.mlir.constant(32 : i32) : i32
  // CHECK-DAG: %[[N:.+]] = llvm.mlir.constant(48 : i32) : i32
  // CHECK: llvm.call @cblas_sgemm(%{{.+}}, %{{.+}}, %{{.+}}, %[[M]], %[[N]], %{{.+}}
  linalg.generic {indexing_maps = [#a, #w, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<2x16x32xf32>, memref<32x48xf32>) outs(%y : memref<2x16x48xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %m = arith.mulf %i, %j : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  // CHECK: %[[T:.+]] = llvm.mlir.constant(112 : i32) : i32
  // CHECK-NEXT: llvm.mlir.constant(32 : i32) : i32
  // CHECK-NEXT: llvm.mlir.constant(48 : i32) : i32
  // CHECK-NEXT: llvm.mlir.constant(32 : i32) : i32
  // CHECK-NEXT: llvm.mlir.constant(32 : i32) : i32
  // CHECK-NEXT: %[[LDB:.+]] = llvm.mlir.constant(32 : i32) : i32
  // CHECK-NEXT: llvm.mlir.constant(48 : i32) : i32
  // CHECK-NEXT: llvm.call @cblas_sgemm(%{{.+}}, %{{.+}}, %[[T]], {{.*}}, %[[LDB]], %{{.+}}, %{{.+}}, %{{.+}})
  linalg.generic {indexing_maps = [#a, #wt, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %wt : memref<2x16x32xf32>, memref<48x32xf32>) outs(%y : memref<2x16x48xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %m = arith.mulf %i, %j : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Tests that a strided view with a row stride is passed as the leading
// dimension, and that rows that are not equally spaced (m dims [2, 4] with
// strides 512 and 64) loop over the outer m dim, one GEMM of 4 rows each.

// CHECK-LABEL: func.func @strided
func.func @strided(%a: memref<16x32xf32, strided<[48, 1], offset: 16>>, %b: memref<32x8xf32>, %c: memref<16x8xf32>,
                   %a3: memref<2x4x32xf32, strided<[512, 64, 1]>>, %c3: memref<2x4x8xf32>) {
  // CHECK: %[[LDA:.+]] = llvm.mlir.constant(48 : i32) : i32
  // CHECK: llvm.call @cblas_sgemm({{.*}}, %[[LDA]],
  linalg.matmul ins(%a, %b : memref<16x32xf32, strided<[48, 1], offset: 16>>, memref<32x8xf32>) outs(%c : memref<16x8xf32>)
  // CHECK: %[[TWO:.+]] = arith.constant 2 : index
  // CHECK: scf.for %[[I:.+]] = %{{.+}} to %[[TWO]] step
  // CHECK: %[[II:.+]] = arith.index_cast %[[I]] : index to i64
  // CHECK: arith.constant 512 : i64
  // CHECK: arith.constant 32 : i64
  // CHECK: llvm.call @cblas_sgemm(%{{.+}}, %{{.+}}, %{{.+}}, %[[M4:.+]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[LDA64:.+]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}})
  // CHECK-NOT: linalg.generic
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a3, %b : memref<2x4x32xf32, strided<[512, 64, 1]>>, memref<32x8xf32>) outs(%c3 : memref<2x4x8xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %m = arith.mulf %i, %j : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Tests that a bf16 matmul stays a loop nest, with a remark.

// CHECK-LABEL: func.func @bf16
func.func @bf16(%a: memref<4x8xbf16>, %b: memref<8x4xbf16>, %c: memref<4x4xbf16>) {
  // CHECK: linalg.matmul
  // expected-remark @+1 {{contraction on 'bf16' is not sent to BLAS (f32 only): it runs as loops}}
  linalg.matmul ins(%a, %b : memref<4x8xbf16>, memref<8x4xbf16>) outs(%c : memref<4x4xbf16>)
  return
}

// -----

// Tests that tensors are left alone (the pass runs after bufferization).

// CHECK-LABEL: func.func @tensors
func.func @tensors(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // CHECK: linalg.matmul
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

// Tests that a contraction whose body transforms the accumulator
// (exp(out) + a * b: upstream still calls it a contraction) is not sent to
// BLAS, which would compute out + a * b.

// CHECK-LABEL: func.func @not_a_matmul
func.func @not_a_matmul(%a: memref<4x8xf32>, %b: memref<8x4xf32>, %c: memref<4x4xf32>) {
  // CHECK-NOT: cblas_sgemm
  // CHECK: linalg.generic
  // CHECK: math.exp
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4x8xf32>, memref<8x4xf32>) outs(%c : memref<4x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %e = math.exp %o : f32
    %s = arith.addf %e, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Tests that attention's contraction over [b, a] heads (two batch loops, as
// seqpar-decompose-attention writes Q.K^T) loops over b * a = 6 matrices of
// 4 x 8 (stride 32 elements), K transposed; a C laid out [a, b] cannot merge
// its batch loops: two nested loops (b: C stride 16, a: C stride 32).

#q = affine_map<(b, h, i, j, e) -> (b, h, i, e)>
#k = affine_map<(b, h, i, j, e) -> (b, h, j, e)>
#s = affine_map<(b, h, i, j, e) -> (b, h, i, j)>
#st = affine_map<(b, h, i, j, e) -> (h, b, i, j)>
// CHECK-LABEL: func.func @heads
func.func @heads(%q: memref<2x3x4x8xf32>, %k: memref<2x3x4x8xf32>, %s: memref<2x3x4x4xf32>, %st: memref<3x2x4x4xf32>) {
  // CHECK: %[[B:.+]] = arith.constant 6 : index
  // CHECK: scf.for %{{.+}} = %{{.+}} to %[[B]] step
  // CHECK: arith.constant 32 : i64
  // CHECK: llvm.call @cblas_sgemm
  // CHECK: %[[B2:.+]] = arith.constant 2 : index
  // CHECK: scf.for %{{.+}} = %{{.+}} to %[[B2]] step
  // CHECK: arith.constant 96 : i64
  // CHECK: arith.constant 16 : i64
  // CHECK: %[[A3:.+]] = arith.constant 3 : index
  // CHECK: scf.for %{{.+}} = %{{.+}} to %[[A3]] step
  // CHECK: arith.constant 32 : i64
  // CHECK: arith.addi
  // CHECK: llvm.call @cblas_sgemm
  // CHECK-NOT: linalg.generic
  linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : memref<2x3x4x8xf32>, memref<2x3x4x8xf32>) outs(%s : memref<2x3x4x4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %r = arith.addf %m, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#q, #k, #st], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : memref<2x3x4x8xf32>, memref<2x3x4x8xf32>) outs(%st : memref<3x2x4x4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %r = arith.addf %m, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Tests that a weight gradient dW = X^T . dY reducing over [b, s] tokens
// (two reduction loops, as a training graph's backward writes it without
// flattening) is one GEMM with K = b * s = 32, X transposed (lda 16); a dY
// laid out [s, b] cannot merge its reduction loops and stays for the loop
// lowering.

#x = affine_map<(k, n, b, s) -> (b, s, k)>
#dy = affine_map<(k, n, b, s) -> (b, s, n)>
#dyt = affine_map<(k, n, b, s) -> (s, b, n)>
#dw = affine_map<(k, n, b, s) -> (k, n)>
// CHECK-LABEL: func.func @weight_gradient
func.func @weight_gradient(%x: memref<2x16x16xf32>, %dy: memref<2x16x8xf32>, %dyt: memref<16x2x8xf32>, %dw: memref<16x8xf32>) {
  // CHECK: %[[ROW:.+]] = llvm.mlir.constant(101 : i32) : i32
  // CHECK-NEXT: %[[TA:.+]] = llvm.mlir.constant(112 : i32) : i32
  // CHECK-NEXT: %[[NTB:.+]] = llvm.mlir.constant(111 : i32) : i32
  // CHECK-NEXT: %[[M:.+]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK-NEXT: %[[N:.+]] = llvm.mlir.constant(8 : i32) : i32
  // CHECK-NEXT: %[[K:.+]] = llvm.mlir.constant(32 : i32) : i32
  // CHECK-NEXT: %[[LDA:.+]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK-NEXT: %[[LDB:.+]] = llvm.mlir.constant(8 : i32) : i32
  // CHECK-NEXT: %[[LDC:.+]] = llvm.mlir.constant(8 : i32) : i32
  // CHECK-NEXT: llvm.call @cblas_sgemm(%[[ROW]], %[[TA]], %[[NTB]], %[[M]], %[[N]], %[[K]], %{{.+}}, %{{.+}}, %[[LDA]], %{{.+}}, %[[LDB]], %{{.+}}, %{{.+}}, %[[LDC]])
  // CHECK: linalg.generic
  // CHECK-NOT: llvm.call @cblas_sgemm
  linalg.generic {indexing_maps = [#x, #dy, #dw], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x, %dy : memref<2x16x16xf32>, memref<2x16x8xf32>) outs(%dw : memref<16x8xf32>) {
  ^bb0(%a: f32, %g: f32, %acc: f32):
    %m = arith.mulf %a, %g : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#x, #dyt, #dw], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x, %dyt : memref<2x16x16xf32>, memref<16x2x8xf32>) outs(%dw : memref<16x8xf32>) {
  ^bb0(%a: f32, %g: f32, %acc: f32):
    %m = arith.mulf %a, %g : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Tests GQA as seqpar-decompose-attention writes it (query heads viewed as
// [a_kv = 2, r = 2], K read once per K/V head): on a query tile (4 of 16
// rows, so the r and i rows are not equally spaced) the r heads loop around
// one GEMM per K/V head (batch stride 512 in Q, 128 in K), C offset
// 16 per r head.

#gq = affine_map<(b, g, r, i, j, e) -> (b, g, r, i, e)>
#gk = affine_map<(b, g, r, i, j, e) -> (b, g, j, e)>
#gs = affine_map<(b, g, r, i, j, e) -> (b, g, r, i, j)>
// CHECK-LABEL: func.func @grouped_heads
func.func @grouped_heads(%q: memref<1x2x2x4x8xf32, strided<[512, 256, 128, 8, 1], offset: ?>>, %k: memref<1x2x16x8xf32>, %s: memref<1x2x2x4x16xf32>) {
  // CHECK: %[[G:.+]] = arith.constant 2 : index
  // CHECK: scf.for %{{.+}} = %{{.+}} to %[[G]] step
  // CHECK: arith.constant 256 : i64
  // CHECK: arith.constant 128 : i64
  // CHECK: arith.constant 128 : i64
  // CHECK: %[[R:.+]] = arith.constant 2 : index
  // CHECK: scf.for %{{.+}} = %{{.+}} to %[[R]] step
  // CHECK: arith.constant 128 : i64
  // CHECK: arith.constant 64 : i64
  // CHECK: llvm.call @cblas_sgemm
  // CHECK-NOT: linalg.generic
  linalg.generic {indexing_maps = [#gq, #gk, #gs], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : memref<1x2x2x4x8xf32, strided<[512, 256, 128, 8, 1], offset: ?>>, memref<1x2x16x8xf32>) outs(%s : memref<1x2x2x4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %r = arith.addf %m, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Tests that a GEMM into a buffer just filled with zeros overwrites it
// (beta = 0) and the fill goes, and that a fill of another value stays
// (beta = 1).

// CHECK-LABEL: func.func @zero_init
func.func @zero_init(%a: memref<4x8xf32>, %b: memref<8x4xf32>) -> (memref<4x4xf32>, memref<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  // CHECK: %[[C:.+]] = memref.alloc
  // CHECK-NOT: linalg.fill
  // CHECK: %[[BETA0:.+]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
  // CHECK: llvm.call @cblas_sgemm({{.*}}, %[[BETA0]], %{{.+}}, %{{.+}})
  %c = memref.alloc() : memref<4x4xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x4xf32>)
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x4xf32>) outs(%c : memref<4x4xf32>)
  // CHECK: linalg.fill ins(%{{.+}} : f32) outs(%[[D:.+]] : memref<4x4xf32>)
  // CHECK: %[[ONE:.+]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
  // CHECK: llvm.call @cblas_sgemm({{.*}}, %[[ONE]], %{{.+}}, %{{.+}})
  %d = memref.alloc() : memref<4x4xf32>
  linalg.fill ins(%two : f32) outs(%d : memref<4x4xf32>)
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x4xf32>) outs(%d : memref<4x4xf32>)
  return %c, %d : memref<4x4xf32>, memref<4x4xf32>
}
