// RUN: seqpar-opt %s -split-input-file --verify-roundtrip | FileCheck %s

// Tests that every form of the sharding attribute parses and prints back.

shard.grid @grid(shape = 2x4) {sym_visibility = "private"}

// CHECK-LABEL: func.func @shardings
// CHECK-SAME: #seqpar.sharding<@grid, replicated>
// CHECK-SAME: #seqpar.sharding<@grid, {{\[}}[], [0]]>
// CHECK-SAME: #seqpar.sharding<@grid, {{\[}}[0, 1]]>
// CHECK-SAME: #seqpar.sharding<@grid, {{\[}}[], [0] groups 3]>
// CHECK-SAME: #seqpar.sharding<@grid, {{\[}}[], [1] zigzag]>
// CHECK-SAME: #seqpar.sharding<@grid, {{\[}}[], [], [1] cyclic 2]>
// CHECK-SAME: #seqpar.sharding<@grid, [], partial = [0]>
// CHECK-SAME: #seqpar.sharding<@grid, {{\[}}[1]], partial = [0]>
// CHECK-SAME: -> (tensor<2x8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, {{\[}}[], [0]]>})
func.func @shardings(
    %a: tensor<2x16x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>, seqpar.seq_dim = 1 : i64},
    %b: tensor<2x8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
    %c: tensor<2x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0, 1]]>},
    %d: tensor<16x48xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0] groups 3]>},
    %e: tensor<2x4x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [1] zigzag]>},
    %k: tensor<1x2x4x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [], [1] cyclic 2]>},
    %f: tensor<16x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [], partial = [0]>},
    %g: tensor<4x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[1], []], partial = [0]>})
    -> (tensor<2x8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0], []]>}) {
  return %b : tensor<2x8x16xf32>
}

// -----

// Tests the dropout op on one device and on a sequence shard.

// CHECK-LABEL: func.func @dropout
func.func @dropout(%x: tensor<2x16x8xf32>, %x1: tensor<2x8x8xf32>, %seed: i64, %off: index) -> (tensor<2x16x8xf32>, tensor<2x8x8xf32>) {
  %c0 = arith.constant 0 : index
  // CHECK: seqpar.dropout %{{.*}} seed %{{.*}} {rate = 1.000000e-01 : f64, site = 0 : i64} : tensor<2x16x8xf32>
  %y = seqpar.dropout %x seed %seed {rate = 0.1 : f64, site = 0 : i64} : tensor<2x16x8xf32>
  // CHECK: seqpar.dropout %{{.*}} seed %{{.*}} offsets(%{{.*}}, %{{.*}}, %{{.*}}) {global_shape = array<i64: 2, 16, 8>, rate = 1.000000e-01 : f64, site = 0 : i64} : tensor<2x8x8xf32>
  %y1 = seqpar.dropout %x1 seed %seed offsets(%c0, %off, %c0) {rate = 0.1 : f64, site = 0 : i64, global_shape = array<i64: 2, 16, 8>} : tensor<2x8x8xf32>
  return %y, %y1 : tensor<2x16x8xf32>, tensor<2x8x8xf32>
}

// -----

// Tests that function declarations accept seqpar argument attributes.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func private @declaration
// CHECK-SAME: seqpar.seq_dim = 0 : i64
func.func private @declaration(tensor<8x16xf32> {seqpar.seq_dim = 0 : i64, seqpar.sharding = #seqpar.sharding<@grid, [[0]]>})

// -----

// Tests that the attention ops' dropout region and head_offset print back.
// CHECK-LABEL: func.func @attention_dropout
// CHECK: seqpar.attention %arg0, %arg0, %arg0 head_offset(%arg1) {scale = 1.000000e+00 : f32} : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32> dropout {
// CHECK-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index):
// CHECK: seqpar.yield %{{.*}} : f32
// CHECK: seqpar.attention_backward {{.*}} head_offset(%arg1) {{.*}} dropout {
func.func @attention_dropout(%q: tensor<1x2x4x8xf32>, %h: index) -> (tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) {
  %o = seqpar.attention %q, %q, %q head_offset(%h) {scale = 1.0 : f32}
      : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
      dropout {
      ^bb0(%b: index, %hh: index, %i: index, %j: index):
        %m = arith.constant 2.0 : f32
        seqpar.yield %m : f32
      }
  %dq, %dk, %dv = seqpar.attention_backward %q, %q, %q, %o, %q head_offset(%h) {scale = 1.0 : f32}
      : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>
      dropout {
      ^bb0(%b: index, %hh: index, %i: index, %j: index):
        %m = arith.constant 2.0 : f32
        seqpar.yield %m : f32
      }
  return %o, %dq : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>
}
