// RUN: seqpar-opt %s --seqpar-test-simulate-ranks -split-input-file -verify-diagnostics | FileCheck %s

// Tests that an all_reduce(sum) becomes the addf of the ranks' copies, that
// each rank computes on its own contiguous piece of a split argument, and
// that a replicated result is rank 0's value.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @forward(
// CHECK-LABEL: func.func @forward_simulated(
// CHECK-SAME:      %[[X:.+]]: tensor<4x16xf32>, %[[W:.+]]: tensor<16x8xf32>) -> tensor<4x8xf32>
// CHECK-DAG:     %[[W0:.+]] = tensor.extract_slice %[[W]][0, 0] [8, 8] [1, 1] : tensor<16x8xf32> to tensor<8x8xf32>
// CHECK-DAG:     %[[W1:.+]] = tensor.extract_slice %[[W]][8, 0] [8, 8] [1, 1] : tensor<16x8xf32> to tensor<8x8xf32>
// CHECK-DAG:     %[[X0:.+]] = tensor.extract_slice %[[X]][0, 0] [4, 8] [1, 1] : tensor<4x16xf32> to tensor<4x8xf32>
// CHECK-DAG:     %[[X1:.+]] = tensor.extract_slice %[[X]][0, 8] [4, 8] [1, 1] : tensor<4x16xf32> to tensor<4x8xf32>
// CHECK:         %[[P0:.+]] = linalg.matmul ins(%[[X0]], %[[W0]] : {{.*}})
// CHECK:         %[[P1:.+]] = linalg.matmul ins(%[[X1]], %[[W1]] : {{.*}})
// CHECK:         %[[SUM:.+]] = arith.addf %[[P0]], %[[P1]] : tensor<4x8xf32>
// CHECK-NOT:     shard.
// CHECK:         return %[[SUM]] : tensor<4x8xf32>
func.func @forward(
    %x: tensor<4x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
    %w: tensor<8x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>})
    -> (tensor<4x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %p = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  %ar = shard.all_reduce %p on @grid grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %ar : tensor<4x8xf32>
}

// -----

// Tests that all_gather is the concat of the ranks' inputs along gather_axis
// and that a result split on dim 0 is the concat of the ranks' results.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @forward_simulated(
// CHECK-SAME:      %[[X:.+]]: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<16x4xf32>)
// CHECK:         %[[X0:.+]] = tensor.extract_slice %[[X]][0, 0] [4, 4] [1, 1]
// CHECK:         %[[X1:.+]] = tensor.extract_slice %[[X]][4, 0] [4, 4] [1, 1]
// CHECK:         %[[G:.+]] = tensor.concat dim(0) %[[X0]], %[[X1]] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
// CHECK:         %[[R:.+]] = tensor.concat dim(0) %[[G]], %[[G]] : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
// CHECK:         return %[[G]], %[[R]] : tensor<8x4xf32>, tensor<16x4xf32>
func.func @forward(
    %x: tensor<4x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>})
    -> (tensor<8x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
        tensor<8x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>}) {
  %g = shard.all_gather %x on @grid grid_axes = [0] gather_axis = 0 : tensor<4x4xf32> -> tensor<8x4xf32>
  return %g, %g : tensor<8x4xf32>, tensor<8x4xf32>
}

// -----

// Tests that reduce_scatter is the sum of the ranks' inputs, sliced per rank
// along scatter_axis, and that the rank index becomes the constant r.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @forward_simulated(
// CHECK-SAME:      %[[X:.+]]: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2xindex>)
// CHECK:         %[[SUM:.+]] = arith.addf %[[X]], %[[X]] : tensor<2x8xf32>
// CHECK:         %[[S0:.+]] = tensor.extract_slice %[[SUM]][0, 0] [2, 4] [1, 1] : tensor<2x8xf32> to tensor<2x4xf32>
// CHECK:         %[[S1:.+]] = tensor.extract_slice %[[SUM]][0, 4] [2, 4] [1, 1] : tensor<2x8xf32> to tensor<2x4xf32>
// CHECK:         %[[C0:.+]] = arith.constant 0 : index
// CHECK:         %[[C1:.+]] = arith.constant 1 : index
// CHECK:         %[[I0:.+]] = tensor.from_elements %[[C0]] : tensor<1xindex>
// CHECK:         %[[I1:.+]] = tensor.from_elements %[[C1]] : tensor<1xindex>
// CHECK:         %[[R:.+]] = tensor.concat dim(1) %[[S0]], %[[S1]]
// CHECK:         %[[I:.+]] = tensor.concat dim(0) %[[I0]], %[[I1]]
// CHECK:         return %[[R]], %[[I]]
func.func @forward(
    %x: tensor<2x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
    -> (tensor<2x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
        tensor<1xindex> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>}) {
  %rs = shard.reduce_scatter %x on @grid grid_axes = [0] scatter_axis = 1 : tensor<2x8xf32> -> tensor<2x4xf32>
  %r = shard.process_multi_index on @grid axes = [0] : index
  %rt = tensor.from_elements %r : tensor<1xindex>
  return %rs, %rt : tensor<2x4xf32>, tensor<1xindex>
}

// -----

// Tests max/min all_reduce chains over t=4 ranks and all_slice per rank.

shard.grid @grid(shape = 4) {sym_visibility = "private"}
// CHECK-LABEL: func.func @forward_simulated(
// CHECK-SAME:      %[[X:.+]]: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
// CHECK:         %[[M0:.+]] = arith.maximumf %[[X]], %[[X]] : tensor<8xf32>
// CHECK:         %[[M1:.+]] = arith.maximumf %[[M0]], %[[X]] : tensor<8xf32>
// CHECK:         %[[M2:.+]] = arith.maximumf %[[M1]], %[[X]] : tensor<8xf32>
// CHECK:         %[[N0:.+]] = arith.minimumf %[[X]], %[[X]] : tensor<8xf32>
// CHECK:         %[[N1:.+]] = arith.minimumf %[[N0]], %[[X]] : tensor<8xf32>
// CHECK:         %[[N2:.+]] = arith.minimumf %[[N1]], %[[X]] : tensor<8xf32>
// CHECK:         %[[S0:.+]] = tensor.extract_slice %[[X]][0] [2] [1]
// CHECK:         %[[S1:.+]] = tensor.extract_slice %[[X]][2] [2] [1]
// CHECK:         %[[S2:.+]] = tensor.extract_slice %[[X]][4] [2] [1]
// CHECK:         %[[S3:.+]] = tensor.extract_slice %[[X]][6] [2] [1]
// CHECK:         %[[A0:.+]] = arith.addf %[[M2]], %[[N2]] : tensor<8xf32>
// CHECK:         %[[R:.+]] = tensor.concat dim(0) %[[S0]], %[[S1]], %[[S2]], %[[S3]]
// CHECK:         return %[[A0]], %[[R]]
func.func @forward(
    %x: tensor<8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
    -> (tensor<8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
        tensor<2xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>}) {
  %mx = shard.all_reduce %x on @grid grid_axes = [0] reduction = max : tensor<8xf32> -> tensor<8xf32>
  %mn = shard.all_reduce %x on @grid grid_axes = [0] reduction = min : tensor<8xf32> -> tensor<8xf32>
  %s = shard.all_slice %x on @grid grid_axes = [0] slice_axis = 0 : tensor<8xf32> -> tensor<2xf32>
  %sum = arith.addf %mx, %mn : tensor<8xf32>
  return %sum, %s : tensor<8xf32>, tensor<2xf32>
}

// -----

// Tests the grouped (Megatron fused QKV) and zigzag cuts of arguments and the
// inverse assembly of results with the same shardings.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @forward_simulated(
// CHECK-SAME:      %[[Q:.+]]: tensor<12xf32>, %[[Z:.+]]: tensor<8xf32>) -> (tensor<12xf32>, tensor<8xf32>)
// Rank 0 holds [Q0 | K0 | V0], rank 1 [Q1 | K1 | V1] (groups of 4, blocks of 2).
// CHECK:         %[[A0:.+]] = tensor.extract_slice %[[Q]][0] [2] [1]
// CHECK:         %[[A1:.+]] = tensor.extract_slice %[[Q]][4] [2] [1]
// CHECK:         %[[A2:.+]] = tensor.extract_slice %[[Q]][8] [2] [1]
// CHECK:         %[[QR0:.+]] = tensor.concat dim(0) %[[A0]], %[[A1]], %[[A2]]
// CHECK:         %[[B0:.+]] = tensor.extract_slice %[[Q]][2] [2] [1]
// CHECK:         %[[B1:.+]] = tensor.extract_slice %[[Q]][6] [2] [1]
// CHECK:         %[[B2:.+]] = tensor.extract_slice %[[Q]][10] [2] [1]
// CHECK:         %[[QR1:.+]] = tensor.concat dim(0) %[[B0]], %[[B1]], %[[B2]]
// Zigzag over 4 chunks of 2: rank 0 holds chunks 0 and 3, rank 1 chunks 1 and 2.
// CHECK:         %[[Z00:.+]] = tensor.extract_slice %[[Z]][0] [2] [1]
// CHECK:         %[[Z03:.+]] = tensor.extract_slice %[[Z]][6] [2] [1]
// CHECK:         %[[ZR0:.+]] = tensor.concat dim(0) %[[Z00]], %[[Z03]]
// CHECK:         %[[Z11:.+]] = tensor.extract_slice %[[Z]][2] [2] [1]
// CHECK:         %[[Z12:.+]] = tensor.extract_slice %[[Z]][4] [2] [1]
// CHECK:         %[[ZR1:.+]] = tensor.concat dim(0) %[[Z11]], %[[Z12]]
// Results: per group, rank 0's block then rank 1's.
// CHECK:         %[[G00:.+]] = tensor.extract_slice %[[QR0]][0] [2] [1]
// CHECK:         %[[G01:.+]] = tensor.extract_slice %[[QR1]][0] [2] [1]
// CHECK:         %[[G10:.+]] = tensor.extract_slice %[[QR0]][2] [2] [1]
// CHECK:         %[[G11:.+]] = tensor.extract_slice %[[QR1]][2] [2] [1]
// CHECK:         %[[G20:.+]] = tensor.extract_slice %[[QR0]][4] [2] [1]
// CHECK:         %[[G21:.+]] = tensor.extract_slice %[[QR1]][4] [2] [1]
// CHECK:         %[[QOUT:.+]] = tensor.concat dim(0) %[[G00]], %[[G01]], %[[G10]], %[[G11]], %[[G20]], %[[G21]]
// Chunks 0..3 come from rank 0 (first half), rank 1, rank 1 (second half), rank 0.
// CHECK:         %[[C0:.+]] = tensor.extract_slice %[[ZR0]][0] [2] [1]
// CHECK:         %[[C1:.+]] = tensor.extract_slice %[[ZR1]][0] [2] [1]
// CHECK:         %[[C2:.+]] = tensor.extract_slice %[[ZR1]][2] [2] [1]
// CHECK:         %[[C3:.+]] = tensor.extract_slice %[[ZR0]][2] [2] [1]
// CHECK:         %[[ZOUT:.+]] = tensor.concat dim(0) %[[C0]], %[[C1]], %[[C2]], %[[C3]]
// CHECK:         return %[[QOUT]], %[[ZOUT]]
func.func @forward(
    %qkv: tensor<6xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0] groups 3]>},
    %z: tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0] zigzag]>})
    -> (tensor<6xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0] groups 3]>},
        tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0] zigzag]>}) {
  return %qkv, %z : tensor<6xf32>, tensor<4xf32>
}

// -----

// Tests that ops with regions (linalg.generic bodies) are cloned once per
// rank.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @forward(
// CHECK-LABEL: func.func @forward_simulated(
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @forward(
    %x: tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>})
    -> (tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>}) {
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

shard.grid @grid(shape = ?) {sym_visibility = "private"}
// expected-error@-1 {{can only simulate a grid of static size, @grid is dynamic}}
func.func @forward(%x: tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

shard.grid @grid(shape = 2x2) {sym_visibility = "private"}
// expected-error@-1 {{can only simulate a 1-D grid, @grid has rank 2}}
func.func @forward(%x: tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @forward(
    %x: tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
    // expected-error@+1 {{argument #1 of @forward: no 'seqpar.sharding' attribute: the global argument is unknown}}
    %w: tensor<4xf32>)
    -> (tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
  return %x : tensor<4xf32>
}

// -----

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-error@+1 {{result #0 of @forward: no 'seqpar.sharding' attribute: the global result is unknown}}
func.func @forward(%x: tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @forward(
    // expected-error@+1 {{argument #0 of @forward: partial sharding #seqpar.sharding<@grid, [], partial = [0]> cannot be simulated (no global value to cut)}}
    %x: tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [], partial = [0]>})
    -> (tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
  return %x : tensor<4xf32>
}

// -----

shard.grid @grid(shape = 2) {sym_visibility = "private"}
shard.grid @other(shape = 2) {sym_visibility = "private"}
func.func @forward(%x: tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
    -> (tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
  // expected-error@+1 {{collective on grid @other cannot be simulated: only @grid is}}
  %ar = shard.all_reduce %x on @other grid_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  return %ar : tensor<4xf32>
}

// -----

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @forward(%x: tensor<4x2xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
    -> (tensor<2x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
  // expected-error@+1 {{cannot simulate 'shard.all_to_all': unsupported shard op}}
  %a = shard.all_to_all %x on @grid grid_axes = [0] split_axis = 0 concat_axis = 1 : tensor<4x2xf32> -> tensor<2x4xf32>
  return %a : tensor<2x4xf32>
}

// -----

shard.grid @grid(shape = 2) {sym_visibility = "private"}
func.func @forward(%x: tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}, %c: i1 {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
    -> (tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
  %r = scf.if %c -> tensor<4xf32> {
    // expected-error@+1 {{cannot simulate 'shard.all_reduce' nested in a region: shard ops must be at function level}}
    %ar = shard.all_reduce %x on @grid grid_axes = [0] : tensor<4xf32> -> tensor<4xf32>
    scf.yield %ar : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// expected-error@+1 {{no function @forward with a body}}
module {
  func.func @main() {
    return
  }
}
