// RUN: seqpar-opt %s --seqpar-pipeline="tp=2 sp=false" 2>/dev/null | FileCheck %s

// Calls to unrelated functions (a timer) are left alone; a helper that
// computes part of the block is inlined by the pipeline and planned with it.

// CHECK: func.func private @timer_start()
// CHECK-LABEL: func.func @forward(
// CHECK-SAME: tensor<64x128xf32> {seqpar.sharding = #seqpar.sharding<@grid, {{\[\[\], \[0\]\]}}>}
// CHECK-SAME: tensor<128x64xf32> {seqpar.sharding = #seqpar.sharding<@grid, {{\[\[0\]\]}}>}
// CHECK: call @timer_start() : () -> ()
// CHECK: linalg.matmul {{.*}} -> tensor<16x128xf32>
// CHECK: math.tanh
// CHECK: linalg.matmul {{.*}} -> tensor<16x64xf32>
// CHECK: shard.all_reduce
// CHECK: call @timer_stop() : () -> ()
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func private @timer_start()
func.func private @timer_stop()
func.func private @act(%h: tensor<16x256xf32>) -> tensor<16x256xf32> {
  %e = tensor.empty() : tensor<16x256xf32>
  %g = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<16x256xf32>) outs(%e : tensor<16x256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.tanh %a : f32
    linalg.yield %t : f32
  } -> tensor<16x256xf32>
  return %g : tensor<16x256xf32>
}
func.func @forward(%x: tensor<16x64xf32>, %w1: tensor<64x256xf32>, %w2: tensor<256x64xf32>) -> tensor<16x64xf32> {
  call @timer_start() : () -> ()
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<16x256xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x256xf32>) -> tensor<16x256xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<16x64xf32>, tensor<64x256xf32>) outs(%z1 : tensor<16x256xf32>) -> tensor<16x256xf32>
  %g = call @act(%h) : (tensor<16x256xf32>) -> tensor<16x256xf32>
  %e2 = tensor.empty() : tensor<16x64xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %y = linalg.matmul ins(%g, %w2 : tensor<16x256xf32>, tensor<256x64xf32>) outs(%z2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  call @timer_stop() : () -> ()
  return %y : tensor<16x64xf32>
}
