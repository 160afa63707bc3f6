// RUN: seqpar-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(seqpar-free-at-last-use))' | FileCheck %s

// Straight-line code: each buffer is freed right after its last use (here a
// view of %a read by a nested loop), not at the end of the block.
// CHECK-LABEL: func.func @chain
// CHECK: %[[A:.*]] = memref.alloc() : memref<4x4xf32>
// CHECK: linalg.fill {{.*}} outs(%[[A]]
// CHECK: %[[B:.*]] = memref.alloc() : memref<4x4xf32>
// CHECK: %[[VIEW:.*]] = memref.collapse_shape %[[A]]
// CHECK: scf.for
// CHECK: memref.load %[[VIEW]]
// CHECK: }
// CHECK-NEXT: memref.dealloc %[[A]] :
// CHECK: memref.copy %[[B]], %arg0
// CHECK-NEXT: memref.dealloc %[[B]] :
// CHECK-NEXT: %[[C:.*]] = memref.alloc()
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: memref.dealloc %[[C]] :
// CHECK-NEXT: return
func.func @chain(%out: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<4x4xf32>
  linalg.fill ins(%zero : f32) outs(%a : memref<4x4xf32>)
  %b = memref.alloc() : memref<4x4xf32>
  %flat = memref.collapse_shape %a [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %x = memref.load %flat[%i] : memref<16xf32>
    memref.store %x, %b[%c0, %c0] : memref<4x4xf32>
  }
  memref.copy %b, %out : memref<4x4xf32> to memref<4x4xf32>
  %c = memref.alloc() : memref<4x4xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x4xf32>)
  memref.dealloc %a : memref<4x4xf32>
  memref.dealloc %b : memref<4x4xf32>
  memref.dealloc %c : memref<4x4xf32>
  return
}

// -----

// An asynchronous shift's send and receive buffers stay alive until its
// memref_wait; a buffer carried through a loop (the loop may return it) is
// left where it is.
shard.grid @grid(shape = 2)
// CHECK-LABEL: func.func @async
// CHECK: %[[SEND:.*]] = memref.alloc()
// CHECK: %[[RECV:.*]] = memref.alloc()
// CHECK: seqpar.memref_shift %[[SEND]], %[[RECV]]
// CHECK-NOT: memref.dealloc %[[SEND]] :
// CHECK: seqpar.memref_wait
// CHECK-NEXT: memref.dealloc %[[SEND]] :
// CHECK-NEXT: memref.copy %[[RECV]],
// CHECK-NEXT: memref.dealloc %[[RECV]] :
// CHECK: %[[LOOPED:.*]] = memref.alloc()
// CHECK: scf.for
// CHECK: memref.copy
// CHECK-NEXT: memref.dealloc %[[LOOPED]] :
// CHECK-NEXT: return
func.func @async(%out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %send = memref.alloc() : memref<4xf32>
  %recv = memref.alloc() : memref<4xf32>
  %r = seqpar.memref_shift %send, %recv on @grid grid_axes = [0] offset = 1 : memref<4xf32>, memref<4xf32> -> !seqpar.request<memref<4xf32>>
  %other = memref.alloc() : memref<4xf32>
  linalg.fill ins(%zero : f32) outs(%other : memref<4xf32>)
  seqpar.memref_wait %r, %send, %recv : !seqpar.request<memref<4xf32>>, memref<4xf32>, memref<4xf32>
  memref.copy %recv, %out : memref<4xf32> to memref<4xf32>
  %looped = memref.alloc() : memref<4xf32>
  %res = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %looped) -> memref<4xf32> {
    scf.yield %acc : memref<4xf32>
  }
  memref.copy %res, %out : memref<4xf32> to memref<4xf32>
  memref.dealloc %send : memref<4xf32>
  memref.dealloc %recv : memref<4xf32>
  memref.dealloc %other : memref<4xf32>
  memref.dealloc %looped : memref<4xf32>
  return
}
