// RUN: seqpar-opt %s -split-input-file --seqpar-transpose-reused-operands | FileCheck %s
// RUN: seqpar-opt %s -split-input-file --pass-pipeline="builtin.module(seqpar-lower-to-llvm)" --mlir-print-ir-after=seqpar-lower-matmul-to-blas -o /dev/null 2>&1 | FileCheck %s --check-prefix=BLAS

// Scores of query tiles against key tiles of one K/V head, as a tiled
// attention reads them: the key loop from 0 runs inside the query loop, so
// every query tile reads the same keys again. The head is transposed once
// before the query loop; both key loops (the one from 0 and the one from
// the query tile, which alone would read each tile once) slice the copy,
// and their contractions read B as is. Lowered, no GEMM takes B
// transposed (CblasTrans = 112).
#q = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#k = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#s = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[KT:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
// CHECK-LABEL: func.func @reused
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x1x64x512xf32>
// CHECK-NEXT: %[[T:.*]] = linalg.transpose ins(%arg1 : tensor<1x1x512x64xf32>) outs(%[[E]] : tensor<1x1x64x512xf32>) permutation = [0, 1, 3, 2]
// CHECK-NEXT: scf.for %[[Q:.*]] = %c0 to %c512 step %c128
// CHECK: scf.for %[[KV:.*]] = %c0 to
// CHECK: %[[S1:.*]] = tensor.extract_slice %[[T]][0, 0, 0, %[[KV]]] [1, 1, 64, 128] [1, 1, 1, 1]
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[KT]], #{{.*}}], {{.*}} ins(%{{.*}}, %[[S1]] :
// CHECK: scf.for %[[KV2:.*]] = %[[Q]] to
// CHECK: %[[S2:.*]] = tensor.extract_slice %[[T]][0, 0, 0, %[[KV2]]] [1, 1, 64, 128] [1, 1, 1, 1]
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[KT]], #{{.*}}], {{.*}} ins(%{{.*}}, %[[S2]] :
// CHECK-NOT: linalg.transpose
// BLAS-LABEL: func.func @reused
// BLAS-NOT: llvm.mlir.constant(112 : i32)
// BLAS: llvm.call @cblas_sgemm
// BLAS-NOT: llvm.mlir.constant(112 : i32)
// BLAS: llvm.call @cblas_sgemm
// BLAS-NOT: llvm.mlir.constant(112 : i32)
// BLAS: return
func.func @reused(%qh: tensor<1x1x512x64xf32>, %kh: tensor<1x1x512x64xf32>,
                  %acc: tensor<1x1x128x128xf32>) -> tensor<1x1x128x128xf32> {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c512 = arith.constant 512 : index
  %r = scf.for %q = %c0 to %c512 step %c128 iter_args(%a = %acc) -> tensor<1x1x128x128xf32> {
    %qt = tensor.extract_slice %qh[0, 0, %q, 0] [1, 1, 128, 64] [1, 1, 1, 1] : tensor<1x1x512x64xf32> to tensor<1x1x128x64xf32>
    %past = scf.for %kv = %c0 to %q step %c128 iter_args(%b = %a) -> tensor<1x1x128x128xf32> {
      %kt = tensor.extract_slice %kh[0, 0, %kv, 0] [1, 1, 128, 64] [1, 1, 1, 1] : tensor<1x1x512x64xf32> to tensor<1x1x128x64xf32>
      %s = linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
          ins(%qt, %kt : tensor<1x1x128x64xf32>, tensor<1x1x128x64xf32>) outs(%b : tensor<1x1x128x128xf32>) {
      ^bb0(%x: f32, %y: f32, %o: f32):
        %m = arith.mulf %x, %y : f32
        %n = arith.addf %o, %m : f32
        linalg.yield %n : f32
      } -> tensor<1x1x128x128xf32>
      scf.yield %s : tensor<1x1x128x128xf32>
    }
    %end = arith.addi %q, %c128 : index
    %diag = scf.for %kv = %q to %end step %c128 iter_args(%b = %past) -> tensor<1x1x128x128xf32> {
      %kt = tensor.extract_slice %kh[0, 0, %kv, 0] [1, 1, 128, 64] [1, 1, 1, 1] : tensor<1x1x512x64xf32> to tensor<1x1x128x64xf32>
      %s = linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
          ins(%qt, %kt : tensor<1x1x128x64xf32>, tensor<1x1x128x64xf32>) outs(%b : tensor<1x1x128x128xf32>) {
      ^bb0(%x: f32, %y: f32, %o: f32):
        %m = arith.mulf %x, %y : f32
        %n = arith.addf %o, %m : f32
        linalg.yield %n : f32
      } -> tensor<1x1x128x128xf32>
      scf.yield %s : tensor<1x1x128x128xf32>
    }
    scf.yield %diag : tensor<1x1x128x128xf32>
  }
  return %r : tensor<1x1x128x128xf32>
}

// -----

// Each key tile read once: one query block, the only loop is over the keys
// (the slice follows its induction variable). Transposing the whole head
// would cost what it saves: left as is, B transposed.
#q = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#k = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#s = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @read_once
// CHECK-NOT: linalg.transpose
// CHECK: tensor.extract_slice %arg1[0, 0, %{{.*}}, 0] [1, 1, 128, 64]
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[K:[a-z0-9]+]], #{{.*}}]
// BLAS-LABEL: func.func @read_once
// BLAS: llvm.mlir.constant(112 : i32)
// BLAS: llvm.call @cblas_sgemm
func.func @read_once(%qt: tensor<1x1x128x64xf32>, %kh: tensor<1x1x512x64xf32>,
                     %acc: tensor<1x1x128x128xf32>) -> tensor<1x1x128x128xf32> {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c512 = arith.constant 512 : index
  %r = scf.for %kv = %c0 to %c512 step %c128 iter_args(%b = %acc) -> tensor<1x1x128x128xf32> {
    %kt = tensor.extract_slice %kh[0, 0, %kv, 0] [1, 1, 128, 64] [1, 1, 1, 1] : tensor<1x1x512x64xf32> to tensor<1x1x128x64xf32>
    %s = linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%qt, %kt : tensor<1x1x128x64xf32>, tensor<1x1x128x64xf32>) outs(%b : tensor<1x1x128x128xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %m = arith.mulf %x, %y : f32
      %n = arith.addf %o, %m : f32
      linalg.yield %n : f32
    } -> tensor<1x1x128x128xf32>
    scf.yield %s : tensor<1x1x128x128xf32>
  }
  return %r : tensor<1x1x128x128xf32>
}

// -----

// An outer loop that runs once, and one whose iterations read other keys
// (the slice's offset is computed from its induction variable): no reuse.
#q = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#k = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#s = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @no_reuse
// CHECK-NOT: linalg.transpose
// CHECK: return
func.func @no_reuse(%qt: tensor<1x1x128x64xf32>, %kh: tensor<1x1x512x64xf32>,
                    %acc: tensor<1x1x128x128xf32>) -> tensor<1x1x128x128xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %once = scf.for %o = %c0 to %c1 step %c1 iter_args(%a = %acc) -> tensor<1x1x128x128xf32> {
    %r = scf.for %t = %c0 to %c4 step %c1 iter_args(%b = %a) -> tensor<1x1x128x128xf32> {
      %kv = arith.muli %t, %c128 : index
      %kt = tensor.extract_slice %kh[0, 0, %kv, 0] [1, 1, 128, 64] [1, 1, 1, 1] : tensor<1x1x512x64xf32> to tensor<1x1x128x64xf32>
      %s = linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
          ins(%qt, %kt : tensor<1x1x128x64xf32>, tensor<1x1x128x64xf32>) outs(%b : tensor<1x1x128x128xf32>) {
      ^bb0(%x: f32, %y: f32, %o2: f32):
        %m = arith.mulf %x, %y : f32
        %n = arith.addf %o2, %m : f32
        linalg.yield %n : f32
      } -> tensor<1x1x128x128xf32>
      scf.yield %s : tensor<1x1x128x128xf32>
    }
    scf.yield %r : tensor<1x1x128x128xf32>
  }
  return %once : tensor<1x1x128x128xf32>
}

// -----

// Reused, but not a plain multiply-add (the products go through tanh) and
// a GEMM whose B is already as is (P.V): both stay.
#p = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#v = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
#o = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#k = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: linalg.transpose
// CHECK: return
func.func @left_alone(%pt: tensor<1x1x128x128xf32>, %vh: tensor<1x1x512x64xf32>,
                      %acc: tensor<1x1x128x64xf32>, %acc2: tensor<1x1x128x128xf32>)
    -> (tensor<1x1x128x64xf32>, tensor<1x1x128x128xf32>) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c512 = arith.constant 512 : index
  %r:2 = scf.for %q = %c0 to %c512 step %c128 iter_args(%a = %acc, %a2 = %acc2) -> (tensor<1x1x128x64xf32>, tensor<1x1x128x128xf32>) {
    %in:2 = scf.for %kv = %c0 to %c512 step %c128 iter_args(%b = %a, %b2 = %a2) -> (tensor<1x1x128x64xf32>, tensor<1x1x128x128xf32>) {
      %vt = tensor.extract_slice %vh[0, 0, %kv, 0] [1, 1, 128, 64] [1, 1, 1, 1] : tensor<1x1x512x64xf32> to tensor<1x1x128x64xf32>
      %pv = linalg.generic {indexing_maps = [#p, #v, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
          ins(%pt, %vt : tensor<1x1x128x128xf32>, tensor<1x1x128x64xf32>) outs(%b : tensor<1x1x128x64xf32>) {
      ^bb0(%x: f32, %y: f32, %o2: f32):
        %m = arith.mulf %x, %y : f32
        %n = arith.addf %o2, %m : f32
        linalg.yield %n : f32
      } -> tensor<1x1x128x64xf32>
      %qt = tensor.extract_slice %pt[0, 0, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1] : tensor<1x1x128x128xf32> to tensor<1x1x128x64xf32>
      %s = linalg.generic {indexing_maps = [#p, #k, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
          ins(%qt, %vt : tensor<1x1x128x64xf32>, tensor<1x1x128x64xf32>) outs(%b2 : tensor<1x1x128x128xf32>) {
      ^bb0(%x: f32, %y: f32, %o2: f32):
        %m = arith.mulf %x, %y : f32
        %t = math.tanh %m : f32
        %n = arith.addf %o2, %t : f32
        linalg.yield %n : f32
      } -> tensor<1x1x128x128xf32>
      scf.yield %pv, %s : tensor<1x1x128x64xf32>, tensor<1x1x128x128xf32>
    }
    scf.yield %in#0, %in#1 : tensor<1x1x128x64xf32>, tensor<1x1x128x128xf32>
  }
  return %r#0, %r#1 : tensor<1x1x128x64xf32>, tensor<1x1x128x128xf32>
}

// -----

// The key tiles sliced straight from every head's keys, as a ring step's
// block reads them: the head loop's offset is fixed inside the query loop,
// so only that head is copied and transposed there, not all of them (which
// would transpose every head once per head).
#q = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#k = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#s = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @one_head
// CHECK: scf.for %[[H:.*]] = %c0 to %c2 step %c1
// CHECK: %[[HEAD:.*]] = tensor.extract_slice %arg1[0, %[[H]], 0, 0] [1, 1, 512, 64] [1, 1, 1, 1] : tensor<1x2x512x64xf32> to tensor<1x1x512x64xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x1x64x512xf32>
// CHECK-NEXT: %[[T:.*]] = linalg.transpose ins(%[[HEAD]] : tensor<1x1x512x64xf32>) outs(%[[E]] : tensor<1x1x64x512xf32>)
// CHECK-NEXT: scf.for
// CHECK: scf.for %[[KV:.*]] = %c0 to
// CHECK: tensor.extract_slice %[[T]][0, 0, 0, %[[KV]]] [1, 1, 64, 128] [1, 1, 1, 1]
func.func @one_head(%qh: tensor<1x1x512x64xf32>, %k: tensor<1x2x512x64xf32>,
                    %acc: tensor<1x1x128x128xf32>) -> tensor<1x1x128x128xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %c512 = arith.constant 512 : index
  %r = scf.for %h = %c0 to %c2 step %c1 iter_args(%a0 = %acc) -> tensor<1x1x128x128xf32> {
    %rq = scf.for %q = %c0 to %c512 step %c128 iter_args(%a = %a0) -> tensor<1x1x128x128xf32> {
      %qt = tensor.extract_slice %qh[0, 0, %q, 0] [1, 1, 128, 64] [1, 1, 1, 1] : tensor<1x1x512x64xf32> to tensor<1x1x128x64xf32>
      %in = scf.for %kv = %c0 to %c512 step %c128 iter_args(%b = %a) -> tensor<1x1x128x128xf32> {
        %kt = tensor.extract_slice %k[0, %h, %kv, 0] [1, 1, 128, 64] [1, 1, 1, 1] : tensor<1x2x512x64xf32> to tensor<1x1x128x64xf32>
        %s = linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
            ins(%qt, %kt : tensor<1x1x128x64xf32>, tensor<1x1x128x64xf32>) outs(%b : tensor<1x1x128x128xf32>) {
        ^bb0(%x: f32, %y: f32, %o: f32):
          %m = arith.mulf %x, %y : f32
          %n = arith.addf %o, %m : f32
          linalg.yield %n : f32
        } -> tensor<1x1x128x128xf32>
        scf.yield %s : tensor<1x1x128x128xf32>
      }
      scf.yield %in : tensor<1x1x128x128xf32>
    }
    scf.yield %rq : tensor<1x1x128x128xf32>
  }
  return %r : tensor<1x1x128x128xf32>
}
