// Additive masks as Hugging Face writes them: rows (or whole batches) that
// are entirely a large finite negative are not -inf, and the single-device
// softmax weighs their visible keys uniformly (docs/semantics.md §4.3).
// %rowfill gives, per (batch, query), the value of a fully masked row (-1e9,
// finfo(f32).min = -3.40282347e+38, -1e4; 0 for a row with the scattered mask
// below); the other rows mask key j of query i with -1e9 where (3i + 7j + b)
// mod 5 = 0 and -1.5 where (i + j) mod 3 = 0. The [b, 1, s, s] mask is used by
// causal and by non-causal GQA 4/2 attention; a key-padding [b, 1, 1, s] mask
// masks every key of batch 1 (finfo.min) and the last five of batch 0
// (-1e9). The sequence (s = 16) is dim 2 of Q, K, V.
func.func @main(%q: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64},
                %k: tensor<2x2x16x8xf32> {seqpar.seq_dim = 2 : i64},
                %v: tensor<2x2x16x8xf32> {seqpar.seq_dim = 2 : i64})
    -> (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) {
  %rowfill = arith.constant dense<[
      [0.0, 0.0, 0.0, -1.0e9, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0e9, 0.0, 0.0, 0.0, 0.0, -1.0e4, 0.0],
      [-1.0e9, 0.0, 0.0, 0.0, 0.0, -3.40282347e+38, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -3.40282347e+38, 0.0, 0.0, 0.0]]>
      : tensor<2x16xf32>
  %e = tensor.empty() : tensor<2x1x16x16xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%rowfill : tensor<2x16xf32>) outs(%e : tensor<2x1x16x16xf32>) {
  ^bb0(%fill: f32, %out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %i3 = arith.muli %i, %c3 : index
    %j7 = arith.muli %j, %c7 : index
    %s0 = arith.addi %i3, %j7 : index
    %s1 = arith.addi %s0, %b : index
    %r5 = arith.remui %s1, %c5 : index
    %hard = arith.cmpi eq, %r5, %c0 : index
    %ij = arith.addi %i, %j : index
    %r3 = arith.remui %ij, %c3 : index
    %soft = arith.cmpi eq, %r3, %c0 : index
    %zero = arith.constant 0.0 : f32
    %big = arith.constant -1.0e9 : f32
    %small = arith.constant -1.5 : f32
    %v1 = arith.select %soft, %small, %zero : f32
    %v2 = arith.select %hard, %big, %v1 : f32
    %whole = arith.cmpf one, %fill, %zero : f32
    %v3 = arith.select %whole, %fill, %v2 : f32
    linalg.yield %v3 : f32
  } -> tensor<2x1x16x16xf32>
  %pad = arith.constant dense<[
      [[[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0e9, -1.0e9, -1.0e9, -1.0e9, -1.0e9]]],
      [[[-3.40282347e+38, -3.40282347e+38, -3.40282347e+38, -3.40282347e+38, -3.40282347e+38, -3.40282347e+38, -3.40282347e+38, -3.40282347e+38,
         -3.40282347e+38, -3.40282347e+38, -3.40282347e+38, -3.40282347e+38, -3.40282347e+38, -3.40282347e+38, -3.40282347e+38, -3.40282347e+38]]]]>
      : tensor<2x1x1x16xf32>
  %o1 = seqpar.attention %q, %k, %v mask(%m : tensor<2x1x16x16xf32>) {causal, scale = 0.35 : f32}
      : tensor<2x4x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32> -> tensor<2x4x16x8xf32>
  %o2 = seqpar.attention %q, %k, %v mask(%m : tensor<2x1x16x16xf32>) {scale = 0.35 : f32}
      : tensor<2x4x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32> -> tensor<2x4x16x8xf32>
  %o3 = seqpar.attention %q, %k, %v mask(%pad : tensor<2x1x1x16xf32>) {scale = 0.35 : f32}
      : tensor<2x4x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32> -> tensor<2x4x16x8xf32>
  return %o1, %o2, %o3 : tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>
}
