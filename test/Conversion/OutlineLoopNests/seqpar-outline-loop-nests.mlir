// RUN: seqpar-opt %s --seqpar-outline-loop-nests | FileCheck %s

// Each top-level loop nest moves into a private noinline function called in
// its place: the buffers it uses become arguments, constants go with it
// (an f32 one too), a loop's results are returned; ops outside loops stay.
// CHECK-LABEL: func.func private @forward__nest0(
// CHECK-SAME: %{{.*}}: memref<8xf32>, %{{.*}}: memref<8xf32>) attributes {passthrough = ["noinline"]}
// CHECK-DAG: arith.constant 2.000000e+00 : f32
// CHECK-DAG: arith.constant 8 : index
// CHECK: scf.for
// CHECK: arith.mulf
// CHECK-LABEL: func.func private @forward__nest1(
// CHECK-SAME: -> f32 attributes {passthrough = ["noinline"]}
// CHECK: %[[SUM:.*]] = scf.for {{.*}} -> (f32)
// CHECK: return %[[SUM]] : f32
// CHECK-LABEL: func.func @forward(
// CHECK-NOT: scf.for
// CHECK: call @forward__nest0(%arg0, %arg1) : (memref<8xf32>, memref<8xf32>) -> ()
// CHECK: %[[S:.*]] = call @forward__nest1(%arg1) : (memref<8xf32>) -> f32
// CHECK: memref.store %[[S]], %arg2[]
// CHECK-NOT: scf.for
func.func @forward(%a: memref<8xf32>, %b: memref<8xf32>, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %two = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    %x = memref.load %a[%i] : memref<8xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %b[%i] : memref<8xf32>
  }
  %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
    %x = memref.load %b[%i] : memref<8xf32>
    %n = arith.addf %acc, %x : f32
    scf.yield %n : f32
  }
  memref.store %sum, %out[] : memref<f32>
  return
}
