// Single-device decode steps of T = 3 new tokens over KV caches of 16
// slots (GQA, 4 query heads on 2 K/V heads): the new K/V written at the
// current length L (a tensor<i64> argument: the tokens take positions
// L .. L+2), then the queries' attention over the whole cache, causal by
// position. seqpar-decode-context-parallel shards the caches; the tests
// check the per-rank steps against these.

// The attention written as one block with positions: query j at L + j sees
// slots 0 .. L + j.
func.func @positions(%q: tensor<1x4x3x8xf32>, %kn: tensor<1x2x3x8xf32>, %vn: tensor<1x2x3x8xf32>,
                     %kc: tensor<1x2x16x8xf32>, %vc: tensor<1x2x16x8xf32>, %len: tensor<i64>)
    -> (tensor<1x4x3x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>) {
  %l64 = tensor.extract %len[] : tensor<i64>
  %l = arith.index_cast %l64 : i64 to index
  %k = tensor.insert_slice %kn into %kc[0, 0, %l, 0] [1, 2, 3, 8] [1, 1, 1, 1] : tensor<1x2x3x8xf32> into tensor<1x2x16x8xf32>
  %v = tensor.insert_slice %vn into %vc[0, 0, %l, 0] [1, 2, 3, 8] [1, 1, 1, 1] : tensor<1x2x3x8xf32> into tensor<1x2x16x8xf32>
  %qpos = tensor.generate {
  ^bb0(%j: index):
    %p = arith.addi %l, %j : index
    tensor.yield %p : index
  } : tensor<3xindex>
  %pos = tensor.generate {
  ^bb0(%i: index):
    tensor.yield %i : index
  } : tensor<16xindex>
  %o, %m, %s = seqpar.attention_block %q, %k, %v positions(%qpos, %pos) {causal, scale = 0.35 : f32}
      : tensor<1x4x3x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>, tensor<3xindex>, tensor<16xindex> -> tensor<1x4x3x8xf32>, tensor<1x4x3xf32>
  return %o, %k, %v : tensor<1x4x3x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>
}

// Two layers as an exporter writes them: each attention masks the slots
// past L + j with an additive mask computed from L (-inf in the first
// layer, the finite finfo(f32).min in the second), the first layer's
// output is the second's query, and each layer has its own caches.
func.func @masked(%q: tensor<1x4x3x8xf32>, %kn: tensor<1x2x3x8xf32>, %vn: tensor<1x2x3x8xf32>,
                  %kc: tensor<1x2x16x8xf32>, %vc: tensor<1x2x16x8xf32>, %len: tensor<i64>,
                  %kc2: tensor<1x2x16x8xf32>, %vc2: tensor<1x2x16x8xf32>)
    -> (tensor<1x4x3x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>) {
  %l64 = tensor.extract %len[] : tensor<i64>
  %l = arith.index_cast %l64 : i64 to index
  %k = tensor.insert_slice %kn into %kc[0, 0, %l, 0] [1, 2, 3, 8] [1, 1, 1, 1] : tensor<1x2x3x8xf32> into tensor<1x2x16x8xf32>
  %v = tensor.insert_slice %vn into %vc[0, 0, %l, 0] [1, 2, 3, 8] [1, 1, 1, 1] : tensor<1x2x3x8xf32> into tensor<1x2x16x8xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %fmin = arith.constant -3.40282347E+38 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x3x16xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<1x1x3x16xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %qp = arith.addi %l, %i : index
    %seen = arith.cmpi ule, %j, %qp : index
    %y = arith.select %seen, %zero, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<1x1x3x16xf32>
  %o = seqpar.attention %q, %k, %v mask(%mask : tensor<1x1x3x16xf32>) {scale = 0.35 : f32}
      : tensor<1x4x3x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32> -> tensor<1x4x3x8xf32>
  %k2 = tensor.insert_slice %kn into %kc2[0, 0, %l, 0] [1, 2, 3, 8] [1, 1, 1, 1] : tensor<1x2x3x8xf32> into tensor<1x2x16x8xf32>
  %v2 = tensor.insert_slice %vn into %vc2[0, 0, %l, 0] [1, 2, 3, 8] [1, 1, 1, 1] : tensor<1x2x3x8xf32> into tensor<1x2x16x8xf32>
  %mask2 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<1x1x3x16xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %qp = arith.addi %l, %i : index
    %seen = arith.cmpi ule, %j, %qp : index
    %y = arith.select %seen, %zero, %fmin : f32
    linalg.yield %y : f32
  } -> tensor<1x1x3x16xf32>
  %o2 = seqpar.attention %o, %k2, %v2 mask(%mask2 : tensor<1x1x3x16xf32>) {scale = 0.35 : f32}
      : tensor<1x4x3x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32> -> tensor<1x4x3x8xf32>
  return %o2, %k, %v, %k2, %v2 : tensor<1x4x3x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>
}
