// Tests that every seqpar pass given buffer-form (memref) linalg leaves it
// as it was: the tensor passes say so in a remark, the passes whose ops are
// tensors only find nothing to do, and the ones that cannot run on buffers
// refuse with an error. (seqpar-plan-tensor-parallel read result 0 of the
// result-less memref matmul: a segfault.)

// RUN: seqpar-opt %s --seqpar-plan-tensor-parallel=tp=2 2>%t.tp | FileCheck %s --check-prefix=SAME
// RUN: FileCheck %s --input-file=%t.tp --check-prefix=TP
// RUN: seqpar-opt %s --seqpar-pipeline=tp=2 2>%t.pipe | FileCheck %s --check-prefix=SAME
// RUN: FileCheck %s --input-file=%t.pipe --check-prefix=PIPE
// RUN: seqpar-opt %s --seqpar-sp-pipeline=seq-dim=0 2>%t.sp | FileCheck %s --check-prefix=SAME
// RUN: FileCheck %s --input-file=%t.sp --check-prefix=SP
// RUN: seqpar-opt %s --pass-pipeline='builtin.module(seqpar-context-parallel{grid-axis=0 seq-dim=0})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CP
// RUN: seqpar-opt %s --pass-pipeline='builtin.module(func.func(seqpar-raise-attention))' 2>%t.raise \
// RUN:   | FileCheck %s --check-prefix=SAME
// RUN: FileCheck %s --input-file=%t.raise --check-prefix=RAISE
// RUN: seqpar-opt %s --pass-pipeline='builtin.module(seqpar-fold-reduce-scatter,seqpar-expand-dropout,seqpar-tile-attention,seqpar-decompose-attention,seqpar-instrument-attention,seqpar-lower-to-upstream)' 2>%t.none \
// RUN:   | FileCheck %s --check-prefix=SAME
// RUN: count 0 < %t.none
// RUN: not seqpar-opt %s --seqpar-decompose-aggregates 2>&1 | FileCheck %s --check-prefix=AGG
// RUN: not seqpar-opt %s --seqpar-test-simulate-ranks 2>&1 | FileCheck %s --check-prefix=SIM
// RUN: not seqpar-report %s 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: not seqpar-plan-auto %s 2>&1 | FileCheck %s --check-prefix=AUTO

// TP: remark: seqpar-plan-tensor-parallel: @forward left unchanged: it is in buffer form (argument #0 is a 'memref<16x64xf32>'); seqpar-plan-tensor-parallel reads the tensor form (run it before bufferization)
// PIPE: remark: seqpar-plan-tensor-parallel: @forward left unchanged
// PIPE: remark: seqpar-raise-attention: @forward left unchanged
// PIPE: remark: seqpar-sequence-parallel: @forward left unchanged
// SP: remark: seqpar-sequence-parallel: @forward left unchanged
// CP: remark: seqpar-context-parallel: @forward left unchanged
// CP: remark: seqpar-context-parallel: @mixed left unchanged
// CP-NOT: error
// RAISE: remark: seqpar-raise-attention: @forward left unchanged
// AGG: error: 'linalg.softmax' op is on buffers: seqpar-decompose-aggregates decomposes the tensor form (run it before bufferization)
// SIM: error: seqpar-test-simulate-ranks: @forward is in buffer form (argument #0 is a 'memref<16x64xf32>')
// REPORT: error: seqpar-report: @forward is in buffer form (argument #0 is a 'memref<16x64xf32>'); seqpar-report reads the tensor form (run it before bufferization)
// AUTO: error: seqpar-plan-auto: @forward is in buffer form (argument #0 is a 'memref<16x64xf32>')

// SAME-LABEL: func.func @forward(
// SAME-SAME: %{{.*}}: memref<16x64xf32>{{.*}}, %{{.*}}: memref<64x256xf32>
// SAME-NOT: shard.
// SAME: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<16x64xf32>, memref<64x256xf32>) outs(%{{.*}} : memref<16x256xf32>)
// SAME: linalg.softmax dimension(1) ins(%{{.*}} : memref<16x256xf32>)
// SAME: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<16x256xf32>, memref<256x64xf32>) outs(%{{.*}} : memref<16x64xf32>)
// SAME-NOT: shard.
// SAME: return

shard.grid @grid(shape = 2)
#map = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @forward(%x: memref<16x64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                   %w1: memref<64x256xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                   %b1: memref<256xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                   %w2: memref<256x64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                   %y: memref<16x64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
  %zero = arith.constant 0.0 : f32
  %h = memref.alloc() : memref<16x256xf32>
  linalg.fill ins(%zero : f32) outs(%h : memref<16x256xf32>)
  linalg.matmul ins(%x, %w1 : memref<16x64xf32>, memref<64x256xf32>) outs(%h : memref<16x256xf32>)
  linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel"]}
      ins(%h, %b1 : memref<16x256xf32>, memref<256xf32>) outs(%h : memref<16x256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }
  %p = memref.alloc() : memref<16x256xf32>
  linalg.softmax dimension(1) ins(%h : memref<16x256xf32>) outs(%p : memref<16x256xf32>)
  linalg.fill ins(%zero : f32) outs(%y : memref<16x64xf32>)
  linalg.matmul ins(%p, %w2 : memref<16x256xf32>, memref<256x64xf32>) outs(%y : memref<16x64xf32>)
  return
}

// A tensor function that holds one value in a buffer: the remark names the
// first op on a memref.
// TP: remark: seqpar-plan-tensor-parallel: @mixed left unchanged: it is in buffer form ('bufferization.to_buffer' reads or writes a memref)
// SAME-LABEL: func.func @mixed(
// SAME: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x64xf32>, tensor<64x256xf32>) outs(%{{.*}} : tensor<16x256xf32>)
func.func @mixed(%x: tensor<16x64xf32>, %w: tensor<64x256xf32>) -> tensor<16x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16x256xf32>) -> tensor<16x256xf32>
  %h = linalg.matmul ins(%x, %w : tensor<16x64xf32>, tensor<64x256xf32>) outs(%z : tensor<16x256xf32>) -> tensor<16x256xf32>
  %b = bufferization.to_buffer %h : tensor<16x256xf32> to memref<16x256xf32>
  %r = bufferization.to_tensor %b restrict : memref<16x256xf32> to tensor<16x256xf32>
  return %r : tensor<16x256xf32>
}
