// RUN: seqpar-opt %s --seqpar-split-fused-projections -split-input-file | FileCheck %s

// Falcon's fused QKV (hidden 64, 4 query heads and one K/V head of 16) as
// the normalization leaves it: the [96, 64] weight transposed, one matmul,
// the 96 features expanded to [6 heads, 16] and read by slices of heads
// [0:4], [4:5], [5:6]. Becomes three matmuls reading columns 0-63, 64-79
// and 80-95 of the transposed weight, each expanded to its own heads.

// CHECK-LABEL: func.func @falcon_qkv(
// CHECK-SAME: %[[X:.*]]: tensor<32x64xf32>, %[[W:.*]]: tensor<96x64xf32>
// CHECK: %[[WT:.*]] = linalg.transpose ins(%[[W]]
// CHECK: %[[ACC:.*]] = linalg.fill
// CHECK-NOT: linalg.matmul {{.*}} -> tensor<32x96xf32>
// CHECK: %[[WQ:.*]] = tensor.extract_slice %[[WT]][0, 0] [64, 64] [1, 1] : tensor<64x96xf32> to tensor<64x64xf32>
// CHECK: %[[AQ:.*]] = tensor.extract_slice %[[ACC]][0, 0] [32, 64] [1, 1] : tensor<32x96xf32> to tensor<32x64xf32>
// CHECK: %[[Q:.*]] = linalg.matmul ins(%[[X]], %[[WQ]] : tensor<32x64xf32>, tensor<64x64xf32>) outs(%[[AQ]] : tensor<32x64xf32>)
// CHECK: %[[QH:.*]] = tensor.expand_shape %[[Q]] {{\[}}[0, 1], [2, 3]] output_shape [2, 16, 4, 16] : tensor<32x64xf32> into tensor<2x16x4x16xf32>
// CHECK: %[[WK:.*]] = tensor.extract_slice %[[WT]][0, 64] [64, 16] [1, 1] : tensor<64x96xf32> to tensor<64x16xf32>
// CHECK: %[[AK:.*]] = tensor.extract_slice %[[ACC]][0, 64] [32, 16] [1, 1]
// CHECK: %[[K:.*]] = linalg.matmul ins(%[[X]], %[[WK]] : tensor<32x64xf32>, tensor<64x16xf32>) outs(%[[AK]] : tensor<32x16xf32>)
// CHECK: %[[KH:.*]] = tensor.expand_shape %[[K]] {{\[}}[0, 1], [2, 3]] output_shape [2, 16, 1, 16] : tensor<32x16xf32> into tensor<2x16x1x16xf32>
// CHECK: %[[WV:.*]] = tensor.extract_slice %[[WT]][0, 80] [64, 16] [1, 1]
// CHECK: %[[V:.*]] = linalg.matmul ins(%[[X]], %[[WV]]
// CHECK: %[[VH:.*]] = tensor.expand_shape %[[V]]
// CHECK-NOT: tensor<2x16x6x16xf32>
// CHECK: return %[[QH]], %[[KH]], %[[VH]]
func.func @falcon_qkv(%x: tensor<32x64xf32>, %w: tensor<96x64xf32>) -> (tensor<2x16x4x16xf32>, tensor<2x16x1x16xf32>, tensor<2x16x1x16xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<64x96xf32>
  %wt = linalg.transpose ins(%w : tensor<96x64xf32>) outs(%e : tensor<64x96xf32>) permutation = [1, 0]
  %eo = tensor.empty() : tensor<32x96xf32>
  %acc = linalg.fill ins(%cst : f32) outs(%eo : tensor<32x96xf32>) -> tensor<32x96xf32>
  %qkv = linalg.matmul ins(%x, %wt : tensor<32x64xf32>, tensor<64x96xf32>) outs(%acc : tensor<32x96xf32>) -> tensor<32x96xf32>
  %h = tensor.expand_shape %qkv [[0, 1], [2, 3]] output_shape [2, 16, 6, 16] : tensor<32x96xf32> into tensor<2x16x6x16xf32>
  %q = tensor.extract_slice %h[0, 0, 0, 0] [2, 16, 4, 16] [1, 1, 1, 1] : tensor<2x16x6x16xf32> to tensor<2x16x4x16xf32>
  %k = tensor.extract_slice %h[0, 0, 4, 0] [2, 16, 1, 16] [1, 1, 1, 1] : tensor<2x16x6x16xf32> to tensor<2x16x1x16xf32>
  %v = tensor.extract_slice %h[0, 0, 5, 0] [2, 16, 1, 16] [1, 1, 1, 1] : tensor<2x16x6x16xf32> to tensor<2x16x1x16xf32>
  return %q, %k, %v : tensor<2x16x4x16xf32>, tensor<2x16x1x16xf32>, tensor<2x16x1x16xf32>
}

// -----

// A matmul of the [out, in] weight by the transposed-B maps, a bias add
// after it, the features read directly by two slices of 48 and 16 (and the
// last 8 of 72 by nobody: the split computes only what is read). The
// weight is sliced along its rows, the bias with it; one slice rank-reducing
// (a batch of one row dropped) keeps its type.

// CHECK-LABEL: func.func @transposed_b_bias(
// CHECK-SAME: %[[X:.*]]: tensor<1x32xf32>, %[[W:.*]]: tensor<72x32xf32>, %[[B:.*]]: tensor<72xf32>
// CHECK: %[[W0:.*]] = tensor.extract_slice %[[W]][0, 0] [48, 32] [1, 1] : tensor<72x32xf32> to tensor<48x32xf32>
// CHECK: %[[M0:.*]] = linalg.matmul indexing_maps = {{.*}} ins(%[[X]], %[[W0]] : tensor<1x32xf32>, tensor<48x32xf32>) outs(%{{.*}} : tensor<1x48xf32>)
// CHECK: %[[B0:.*]] = tensor.extract_slice %[[B]][0] [48] [1] : tensor<72xf32> to tensor<48xf32>
// CHECK: %[[Y0:.*]] = linalg.generic {{.*}} ins(%[[M0]], %[[B0]] : tensor<1x48xf32>, tensor<48xf32>)
// CHECK: %[[W1:.*]] = tensor.extract_slice %[[W]][48, 0] [16, 32] [1, 1] : tensor<72x32xf32> to tensor<16x32xf32>
// CHECK: %[[M1:.*]] = linalg.matmul indexing_maps = {{.*}} ins(%[[X]], %[[W1]] : tensor<1x32xf32>, tensor<16x32xf32>)
// CHECK: %[[B1:.*]] = tensor.extract_slice %[[B]][48] [16] [1] : tensor<72xf32> to tensor<16xf32>
// CHECK: %[[Y1:.*]] = linalg.generic {{.*}} ins(%[[M1]], %[[B1]] : tensor<1x16xf32>, tensor<16xf32>)
// CHECK: %[[R1:.*]] = tensor.extract_slice %[[Y1]][0, 0] [1, 16] [1, 1] : tensor<1x16xf32> to tensor<16xf32>
// CHECK-NOT: tensor<1x72xf32>) -> tensor<1x72xf32>
// CHECK: return %[[Y0]], %[[R1]]
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mBt = affine_map<(d0, d1, d2) -> (d1, d2)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @transposed_b_bias(%x: tensor<1x32xf32>, %w: tensor<72x32xf32>, %b: tensor<72xf32>) -> (tensor<1x48xf32>, tensor<16xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %eo = tensor.empty() : tensor<1x72xf32>
  %acc = linalg.fill ins(%cst : f32) outs(%eo : tensor<1x72xf32>) -> tensor<1x72xf32>
  %y = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%x, %w : tensor<1x32xf32>, tensor<72x32xf32>) outs(%acc : tensor<1x72xf32>) -> tensor<1x72xf32>
  %yb = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]} ins(%y, %b : tensor<1x72xf32>, tensor<72xf32>) outs(%eo : tensor<1x72xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    linalg.yield %s : f32
  } -> tensor<1x72xf32>
  %a = tensor.extract_slice %yb[0, 0] [1, 48] [1, 1] : tensor<1x72xf32> to tensor<1x48xf32>
  %c = tensor.extract_slice %yb[0, 48] [1, 16] [1, 1] : tensor<1x72xf32> to tensor<16xf32>
  return %a, %c : tensor<1x48xf32>, tensor<16xf32>
}

// -----

// ChatGLM's fused query_key_value (4 query heads and 2 K/V heads of 8): the
// bias added after the flattened [b*s, 64] output is restored to
// [b, s, 64], then slices of 32, 16, 16 features. Each piece is its own
// matmul, expanded to [2, 8, width], and its own bias add on the matching
// 32 / 16 / 16 bias entries.

// CHECK-LABEL: func.func @bias_after_expand(
// CHECK-SAME: %[[X:.*]]: tensor<16x32xf32>, %[[W:.*]]: tensor<64x32xf32>, %[[B:.*]]: tensor<64xf32>
// CHECK: %[[WQ:.*]] = tensor.extract_slice %[[W]][0, 0] [32, 32] [1, 1]
// CHECK: %[[Q:.*]] = linalg.matmul {{.*}} ins(%[[X]], %[[WQ]] : tensor<16x32xf32>, tensor<32x32xf32>) outs(%{{.*}} : tensor<16x32xf32>)
// CHECK: %[[QE:.*]] = tensor.expand_shape %[[Q]] {{\[}}[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
// CHECK: %[[BQ:.*]] = tensor.extract_slice %[[B]][0] [32] [1] : tensor<64xf32> to tensor<32xf32>
// CHECK: %[[QB:.*]] = linalg.generic {{.*}} ins(%[[QE]], %[[BQ]] : tensor<2x8x32xf32>, tensor<32xf32>) outs(%{{.*}} : tensor<2x8x32xf32>)
// CHECK: %[[WK:.*]] = tensor.extract_slice %[[W]][32, 0] [16, 32] [1, 1]
// CHECK: %[[K:.*]] = linalg.matmul {{.*}} ins(%[[X]], %[[WK]] : tensor<16x32xf32>, tensor<16x32xf32>)
// CHECK: %[[KE:.*]] = tensor.expand_shape %[[K]] {{\[}}[0, 1], [2]] output_shape [2, 8, 16]
// CHECK: %[[BK:.*]] = tensor.extract_slice %[[B]][32] [16] [1] : tensor<64xf32> to tensor<16xf32>
// CHECK: %[[KB:.*]] = linalg.generic {{.*}} ins(%[[KE]], %[[BK]] : tensor<2x8x16xf32>, tensor<16xf32>)
// CHECK: %[[BV:.*]] = tensor.extract_slice %[[B]][48] [16] [1]
// CHECK: %[[VB:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[BV]] : tensor<2x8x16xf32>, tensor<16xf32>)
// CHECK-NOT: tensor<2x8x64xf32>
// CHECK: return %[[QB]], %[[KB]], %[[VB]]
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mBt = affine_map<(d0, d1, d2) -> (d1, d2)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#feat = affine_map<(d0, d1, d2) -> (d2)>
func.func @bias_after_expand(%x: tensor<16x32xf32>, %w: tensor<64x32xf32>, %b: tensor<64xf32>) -> (tensor<2x8x32xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %eo = tensor.empty() : tensor<16x64xf32>
  %acc = linalg.fill ins(%cst : f32) outs(%eo : tensor<16x64xf32>) -> tensor<16x64xf32>
  %y = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%x, %w : tensor<16x32xf32>, tensor<64x32xf32>) outs(%acc : tensor<16x64xf32>) -> tensor<16x64xf32>
  %ye = tensor.expand_shape %y [[0, 1], [2]] output_shape [2, 8, 64] : tensor<16x64xf32> into tensor<2x8x64xf32>
  %e3 = tensor.empty() : tensor<2x8x64xf32>
  %yb = linalg.generic {indexing_maps = [#id3, #feat, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ye, %b : tensor<2x8x64xf32>, tensor<64xf32>) outs(%e3 : tensor<2x8x64xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    linalg.yield %s : f32
  } -> tensor<2x8x64xf32>
  %q = tensor.extract_slice %yb[0, 0, 0] [2, 8, 32] [1, 1, 1] : tensor<2x8x64xf32> to tensor<2x8x32xf32>
  %k = tensor.extract_slice %yb[0, 0, 32] [2, 8, 16] [1, 1, 1] : tensor<2x8x64xf32> to tensor<2x8x16xf32>
  %v = tensor.extract_slice %yb[0, 0, 48] [2, 8, 16] [1, 1, 1] : tensor<2x8x64xf32> to tensor<2x8x16xf32>
  return %q, %k, %v : tensor<2x8x32xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>
}

// -----

// The contraction as a linalg.generic on [b, s, h] (batch loop read by the
// activation and the output, not the weight), collapsed to [b*s, n] and
// sliced 24 + 8.

// CHECK-LABEL: func.func @generic_collapse(
// CHECK: %[[W0:.*]] = tensor.extract_slice %{{.*}}[0, 0] [16, 24] [1, 1] : tensor<16x32xf32> to tensor<16x24xf32>
// CHECK: %[[G0:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[W0]] : tensor<2x4x16xf32>, tensor<16x24xf32>) outs(%{{.*}} : tensor<2x4x24xf32>)
// CHECK: tensor.collapse_shape %[[G0]] {{\[}}[0, 1], [2]] : tensor<2x4x24xf32> into tensor<8x24xf32>
// CHECK: %[[W1:.*]] = tensor.extract_slice %{{.*}}[0, 24] [16, 8] [1, 1] : tensor<16x32xf32> to tensor<16x8xf32>
// CHECK: %[[G1:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[W1]] : tensor<2x4x16xf32>, tensor<16x8xf32>) outs(%{{.*}} : tensor<2x4x8xf32>)
// CHECK: tensor.collapse_shape %[[G1]] {{\[}}[0, 1], [2]] : tensor<2x4x8xf32> into tensor<8x8xf32>
#x3 = affine_map<(b, s, n, k) -> (b, s, k)>
#w3 = affine_map<(b, s, n, k) -> (k, n)>
#o3 = affine_map<(b, s, n, k) -> (b, s, n)>
func.func @generic_collapse(%x: tensor<2x4x16xf32>, %w: tensor<16x32xf32>, %acc: tensor<2x4x32xf32>) -> (tensor<8x24xf32>, tensor<8x8xf32>) {
  %y = linalg.generic {indexing_maps = [#x3, #w3, #o3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<2x4x16xf32>, tensor<16x32xf32>) outs(%acc : tensor<2x4x32xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x4x32xf32>
  %c = tensor.collapse_shape %y [[0, 1], [2]] : tensor<2x4x32xf32> into tensor<8x32xf32>
  %p = tensor.extract_slice %c[0, 0] [8, 24] [1, 1] : tensor<8x32xf32> to tensor<8x24xf32>
  %q = tensor.extract_slice %c[0, 24] [8, 8] [1, 1] : tensor<8x32xf32> to tensor<8x8xf32>
  return %p, %q : tensor<8x24xf32>, tensor<8x8xf32>
}

// -----

// GPT-2's c_attn: three equal slices q, k, v of 64. TP's split groups plan
// it as it is: left alone.

// CHECK-LABEL: func.func @equal_slices(
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<32x64xf32>, tensor<64x192xf32>)
// CHECK-COUNT-3: tensor.extract_slice %{{.*}} : tensor<32x192xf32> to tensor<32x64xf32>
// CHECK-NOT: linalg.matmul
func.func @equal_slices(%x: tensor<32x64xf32>, %w: tensor<64x192xf32>, %acc: tensor<32x192xf32>) -> (tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>) {
  %y = linalg.matmul ins(%x, %w : tensor<32x64xf32>, tensor<64x192xf32>) outs(%acc : tensor<32x192xf32>) -> tensor<32x192xf32>
  %q = tensor.extract_slice %y[0, 0] [32, 64] [1, 1] : tensor<32x192xf32> to tensor<32x64xf32>
  %k = tensor.extract_slice %y[0, 64] [32, 64] [1, 1] : tensor<32x192xf32> to tensor<32x64xf32>
  %v = tensor.extract_slice %y[0, 128] [32, 64] [1, 1] : tensor<32x192xf32> to tensor<32x64xf32>
  return %q, %k, %v : tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>
}

// -----

// Overlapping slices (features 0-63 and 48-95): left alone.

// CHECK-LABEL: func.func @overlapping(
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<32x64xf32>, tensor<64x96xf32>)
// CHECK-NOT: linalg.matmul
func.func @overlapping(%x: tensor<32x64xf32>, %w: tensor<64x96xf32>, %acc: tensor<32x96xf32>) -> (tensor<32x64xf32>, tensor<32x48xf32>) {
  %y = linalg.matmul ins(%x, %w : tensor<32x64xf32>, tensor<64x96xf32>) outs(%acc : tensor<32x96xf32>) -> tensor<32x96xf32>
  %a = tensor.extract_slice %y[0, 0] [32, 64] [1, 1] : tensor<32x96xf32> to tensor<32x64xf32>
  %b = tensor.extract_slice %y[0, 48] [32, 48] [1, 1] : tensor<32x96xf32> to tensor<32x48xf32>
  return %a, %b : tensor<32x64xf32>, tensor<32x48xf32>
}

// -----

// The fused output is also returned whole: left alone.

// CHECK-LABEL: func.func @other_user(
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<32x64xf32>, tensor<64x96xf32>)
// CHECK-NOT: linalg.matmul
func.func @other_user(%x: tensor<32x64xf32>, %w: tensor<64x96xf32>, %acc: tensor<32x96xf32>) -> (tensor<32x64xf32>, tensor<32x32xf32>, tensor<32x96xf32>) {
  %y = linalg.matmul ins(%x, %w : tensor<32x64xf32>, tensor<64x96xf32>) outs(%acc : tensor<32x96xf32>) -> tensor<32x96xf32>
  %a = tensor.extract_slice %y[0, 0] [32, 64] [1, 1] : tensor<32x96xf32> to tensor<32x64xf32>
  %b = tensor.extract_slice %y[0, 64] [32, 32] [1, 1] : tensor<32x96xf32> to tensor<32x32xf32>
  return %a, %b, %y : tensor<32x64xf32>, tensor<32x32xf32>, tensor<32x96xf32>
}

// -----

// A strided slice (every other feature), a slice that cuts the rows too,
// and a slice at a run-time offset: each leaves its linear alone.

// CHECK-LABEL: func.func @not_ranges(
// CHECK-COUNT-3: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<32x64xf32>, tensor<64x96xf32>)
// CHECK-NOT: linalg.matmul
func.func @not_ranges(%x: tensor<32x64xf32>, %w: tensor<64x96xf32>, %acc: tensor<32x96xf32>, %i: index) -> (tensor<32x32xf32>, tensor<32x64xf32>, tensor<16x32xf32>, tensor<32x64xf32>, tensor<32x32xf32>, tensor<32x64xf32>) {
  %y = linalg.matmul ins(%x, %w : tensor<32x64xf32>, tensor<64x96xf32>) outs(%acc : tensor<32x96xf32>) -> tensor<32x96xf32>
  %a = tensor.extract_slice %y[0, 0] [32, 32] [1, 2] : tensor<32x96xf32> to tensor<32x32xf32>
  %b = tensor.extract_slice %y[0, 32] [32, 64] [1, 1] : tensor<32x96xf32> to tensor<32x64xf32>
  %z = linalg.matmul ins(%x, %w : tensor<32x64xf32>, tensor<64x96xf32>) outs(%acc : tensor<32x96xf32>) -> tensor<32x96xf32>
  %c = tensor.extract_slice %z[0, 0] [16, 32] [1, 1] : tensor<32x96xf32> to tensor<16x32xf32>
  %d = tensor.extract_slice %z[0, 32] [32, 64] [1, 1] : tensor<32x96xf32> to tensor<32x64xf32>
  %u = linalg.matmul ins(%x, %w : tensor<32x64xf32>, tensor<64x96xf32>) outs(%acc : tensor<32x96xf32>) -> tensor<32x96xf32>
  %e = tensor.extract_slice %u[0, %i] [32, 32] [1, 1] : tensor<32x96xf32> to tensor<32x32xf32>
  %f = tensor.extract_slice %u[0, 32] [32, 64] [1, 1] : tensor<32x96xf32> to tensor<32x64xf32>
  return %a, %b, %c, %d, %e, %f : tensor<32x32xf32>, tensor<32x64xf32>, tensor<16x32xf32>, tensor<32x64xf32>, tensor<32x32xf32>, tensor<32x64xf32>
}

// -----

// Dynamic rows: left alone.

// CHECK-LABEL: func.func @dynamic(
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<?x64xf32>, tensor<64x96xf32>)
// CHECK-NOT: linalg.matmul
func.func @dynamic(%x: tensor<?x64xf32>, %w: tensor<64x96xf32>, %acc: tensor<?x96xf32>, %n: index) -> (tensor<?x64xf32>, tensor<?x32xf32>) {
  %y = linalg.matmul ins(%x, %w : tensor<?x64xf32>, tensor<64x96xf32>) outs(%acc : tensor<?x96xf32>) -> tensor<?x96xf32>
  %a = tensor.extract_slice %y[0, 0] [%n, 64] [1, 1] : tensor<?x96xf32> to tensor<?x64xf32>
  %b = tensor.extract_slice %y[0, 64] [%n, 32] [1, 1] : tensor<?x96xf32> to tensor<?x32xf32>
  return %a, %b : tensor<?x64xf32>, tensor<?x32xf32>
}

// -----

// Unequal slices of the rows (the tokens), every feature whole: not a
// fused projection (the features are the output's last dim), left alone.

// CHECK-LABEL: func.func @rows_sliced(
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x12xf32>)
// CHECK-NOT: linalg.matmul
func.func @rows_sliced(%x: tensor<4x8xf32>, %w: tensor<8x12xf32>, %acc: tensor<4x12xf32>) -> (tensor<1x12xf32>, tensor<3x12xf32>) {
  %y = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x12xf32>) outs(%acc : tensor<4x12xf32>) -> tensor<4x12xf32>
  %a = tensor.extract_slice %y[0, 0] [1, 12] [1, 1] : tensor<4x12xf32> to tensor<1x12xf32>
  %b = tensor.extract_slice %y[1, 0] [3, 12] [1, 1] : tensor<4x12xf32> to tensor<3x12xf32>
  return %a, %b : tensor<1x12xf32>, tensor<3x12xf32>
}

// -----

// HF Conv1D's bias as named ops (linalg.broadcast of the bias vector, then
// linalg.add) on the flattened output, then the expand and slices of 32, 16,
// 16 features: each piece adds its own broadcast of its piece of the bias.

// CHECK-LABEL: func.func @named_broadcast_add(
// CHECK-SAME: %[[X:.*]]: tensor<16x32xf32>, %[[W:.*]]: tensor<32x64xf32>, %[[B:.*]]: tensor<64xf32>
// CHECK: %[[Q:.*]] = linalg.matmul ins(%[[X]], %{{.*}} : tensor<16x32xf32>, tensor<32x32xf32>)
// CHECK: %[[BQ:.*]] = tensor.extract_slice %[[B]][0] [32] [1] : tensor<64xf32> to tensor<32xf32>
// CHECK: %[[BCQ:.*]] = linalg.broadcast ins(%[[BQ]] : tensor<32xf32>) outs(%{{.*}} : tensor<16x32xf32>) dimensions = [0]
// CHECK: %[[AQ:.*]] = linalg.add ins(%[[Q]], %[[BCQ]] : tensor<16x32xf32>, tensor<16x32xf32>)
// CHECK: tensor.expand_shape %[[AQ]] {{\[}}[0, 1], [2]] output_shape [2, 8, 32]
// CHECK: %[[BV:.*]] = tensor.extract_slice %[[B]][48] [16] [1] : tensor<64xf32> to tensor<16xf32>
// CHECK: linalg.broadcast ins(%[[BV]] : tensor<16xf32>)
// CHECK-NOT: linalg.add ins({{.*}} : tensor<16x64xf32>
func.func @named_broadcast_add(%x: tensor<16x32xf32>, %w: tensor<32x64xf32>, %b: tensor<64xf32>) -> (tensor<2x8x32xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<16x32xf32>, tensor<32x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  %bb = linalg.broadcast ins(%b : tensor<64xf32>) outs(%e : tensor<16x64xf32>) dimensions = [0]
  %ba = linalg.add ins(%mm, %bb : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %h = tensor.expand_shape %ba [[0, 1], [2]] output_shape [2, 8, 64] : tensor<16x64xf32> into tensor<2x8x64xf32>
  %q = tensor.extract_slice %h[0, 0, 0] [2, 8, 32] [1, 1, 1] : tensor<2x8x64xf32> to tensor<2x8x32xf32>
  %k = tensor.extract_slice %h[0, 0, 32] [2, 8, 16] [1, 1, 1] : tensor<2x8x64xf32> to tensor<2x8x16xf32>
  %v = tensor.extract_slice %h[0, 0, 48] [2, 8, 16] [1, 1, 1] : tensor<2x8x64xf32> to tensor<2x8x16xf32>
  return %q, %k, %v : tensor<2x8x32xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>
}
