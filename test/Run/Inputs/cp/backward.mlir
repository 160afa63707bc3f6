// The backward of context-parallel attention (docs/context-parallelism.md,
// "Training: the attention backward"): four attentions of GQA 4/2 and their
// seqpar.attention_backward with one dO, each returning out, dQ, dK, dV.
// (1) causal and (2) non-causal with the [b, 1, s, s] mask of
// finite-masked.mlir (rows entirely -1e9, finfo.min or -1e4, scattered -1e9
// and -1.5), (3) the key-padding [b, 1, 1, s] mask (batch 1 masked
// entirely by finfo.min), (4) causal with scale 60, whose logits span
// hundreds (blocks' LSEs more than 100 apart). The sequence (s = 16) is
// dim 2 of Q, K, V and dO.
func.func @main(%q: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64},
                %k: tensor<2x2x16x8xf32> {seqpar.seq_dim = 2 : i64},
                %v: tensor<2x2x16x8xf32> {seqpar.seq_dim = 2 : i64},
                %do: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64})
    -> (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>) {
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
  %dq1, %dk1, %dv1 = seqpar.attention_backward %q, %k, %v, %o1, %do mask(%m : tensor<2x1x16x16xf32>) {causal, scale = 0.35 : f32}
      : tensor<2x4x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32> -> tensor<2x4x16x8xf32>, tensor<2x2x16x8xf32>
  %o2 = seqpar.attention %q, %k, %v mask(%m : tensor<2x1x16x16xf32>) {scale = 0.35 : f32}
      : tensor<2x4x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32> -> tensor<2x4x16x8xf32>
  %dq2, %dk2, %dv2 = seqpar.attention_backward %q, %k, %v, %o2, %do mask(%m : tensor<2x1x16x16xf32>) {scale = 0.35 : f32}
      : tensor<2x4x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32> -> tensor<2x4x16x8xf32>, tensor<2x2x16x8xf32>
  %o3 = seqpar.attention %q, %k, %v mask(%pad : tensor<2x1x1x16xf32>) {scale = 0.35 : f32}
      : tensor<2x4x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32> -> tensor<2x4x16x8xf32>
  %dq3, %dk3, %dv3 = seqpar.attention_backward %q, %k, %v, %o3, %do mask(%pad : tensor<2x1x1x16xf32>) {scale = 0.35 : f32}
      : tensor<2x4x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32> -> tensor<2x4x16x8xf32>, tensor<2x2x16x8xf32>
  %o4 = seqpar.attention %q, %k, %v {causal, scale = 60.0 : f32}
      : tensor<2x4x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32> -> tensor<2x4x16x8xf32>
  %dq4, %dk4, %dv4 = seqpar.attention_backward %q, %k, %v, %o4, %do {causal, scale = 60.0 : f32}
      : tensor<2x4x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32> -> tensor<2x4x16x8xf32>, tensor<2x2x16x8xf32>
  return %o1, %dq1, %dk1, %dv1, %o2, %dq2, %dk2, %dv2, %o3, %dq3, %dk3, %dv3, %o4, %dq4, %dk4, %dv4
      : tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>
}
