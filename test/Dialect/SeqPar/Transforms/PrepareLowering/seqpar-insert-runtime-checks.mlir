// RUN: seqpar-opt %s --seqpar-insert-runtime-checks | FileCheck %s

// Checked: a subview at a run-time offset (a KV-cache write at L), a load
// at a run-time subscript (an embedding row), a linalg op on a dynamically
// sized buffer. Not checked: what the verifiers proved (a subview at static
// offsets, a linalg op on static buffers). One line per failure, with the
// op's location.

// CHECK-LABEL: func.func @checked(
func.func @checked(%buf: memref<16xf32>, %x: memref<3xf32>, %at: index,
                   %table: memref<8x4xf32>, %id: index, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  // CHECK: cf.assert {{.*}}, "error: run-time check failed at {{.*}}seqpar-insert-runtime-checks.mlir:[[@LINE+3]]:8: offset 0 is out-of-bounds (memref.subview)"
  // CHECK: cf.assert {{.*}}, "error: run-time check failed at {{.*}}seqpar-insert-runtime-checks.mlir:[[@LINE+2]]:8: subview runs out-of-bounds along dimension 0 (memref.subview)"
  // CHECK-NEXT: memref.subview %{{.*}}[%{{.*}}] [3] [1]
  %w = memref.subview %buf[%at] [3] [1] : memref<16xf32> to memref<3xf32, strided<[1], offset: ?>>
  // CHECK-NEXT: memref.subview %{{.*}}[4] [3] [1]
  %s = memref.subview %buf[4] [3] [1] : memref<16xf32> to memref<3xf32, strided<[1], offset: 4>>
  // CHECK: cf.assert {{.*}}, "error: run-time check failed at {{.*}}seqpar-insert-runtime-checks.mlir:[[@LINE+2]]:8: out-of-bounds access (memref.load)"
  // CHECK-NEXT: memref.load
  %v = memref.load %table[%id, %c0] : memref<8x4xf32>
  // CHECK-NEXT: memref.alloc()
  // CHECK-NEXT: linalg.copy ins(%{{.*}} : memref<3xf32>)
  %t = memref.alloc() : memref<3xf32>
  linalg.copy ins(%x : memref<3xf32>) outs(%t : memref<3xf32>)
  // CHECK: cf.assert
  // CHECK: linalg.fill {{.*}} outs(%{{.*}} : memref<?xf32>)
  %d = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%zero : f32) outs(%d : memref<?xf32>)
  memref.dealloc %t : memref<3xf32>
  memref.dealloc %d : memref<?xf32>
  return %v : f32
}
