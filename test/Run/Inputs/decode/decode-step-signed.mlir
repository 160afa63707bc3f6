// Single-device decode steps of T = 3 new tokens over KV caches of 16
// slots (GQA 4/2) whose mask is built as exporters build it
// (examples/decode): L a 0-d i64 tensor, the slots an i64 iota, query j's
// position L + j, compared signed (slot <= L + j shows the slot). The
// write offset is L clamped at 0, so that a negative L (where query j
// with L + j < 0 sees no slot) still writes inside the cache.

// -inf: causality at run-time positions (seqpar-decode-context-parallel
// makes it the block's causal flag).
func.func @signed(%q: tensor<1x4x3x8xf32>, %kn: tensor<1x2x3x8xf32>, %vn: tensor<1x2x3x8xf32>,
                  %kc: tensor<1x2x16x8xf32>, %vc: tensor<1x2x16x8xf32>, %len: tensor<i64>)
    -> (tensor<1x4x3x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>) {
  %hidden = arith.constant 0xFF800000 : f32
  %l64 = tensor.extract %len[] : tensor<i64>
  %c0 = arith.constant 0 : i64
  %clamped = arith.maxsi %l64, %c0 : i64
  %l = arith.index_cast %clamped : i64 to index
  %k = tensor.insert_slice %kn into %kc[0, 0, %l, 0] [1, 2, 3, 8] [1, 1, 1, 1] : tensor<1x2x3x8xf32> into tensor<1x2x16x8xf32>
  %v = tensor.insert_slice %vn into %vc[0, 0, %l, 0] [1, 2, 3, 8] [1, 1, 1, 1] : tensor<1x2x3x8xf32> into tensor<1x2x16x8xf32>
  %e16 = tensor.empty() : tensor<16xi64>
  %slots = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%e16 : tensor<16xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    linalg.yield %p : i64
  } -> tensor<16xi64>
  %e3 = tensor.empty() : tensor<3xi64>
  %iota3 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%e3 : tensor<3xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    linalg.yield %p : i64
  } -> tensor<3xi64>
  %qj = linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                        iterator_types = ["parallel"]}
      ins(%len, %iota3 : tensor<i64>, tensor<3xi64>) outs(%e3 : tensor<3xi64>) {
  ^bb0(%a: i64, %b: i64, %out: i64):
    %s = arith.addi %a, %b : i64
    linalg.yield %s : i64
  } -> tensor<3xi64>
  %qcol = tensor.expand_shape %qj [[0, 1]] output_shape [3, 1] : tensor<3xi64> into tensor<3x1xi64>
  %eb = tensor.empty() : tensor<3x16xi1>
  %seen = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%slots, %qcol : tensor<16xi64>, tensor<3x1xi64>) outs(%eb : tensor<3x16xi1>) {
  ^bb0(%kp: i64, %qp: i64, %out: i1):
    %c = arith.cmpi sle, %kp, %qp : i64
    linalg.yield %c : i1
  } -> tensor<3x16xi1>
  %seen4 = tensor.expand_shape %seen [[0, 1, 2], [3]] output_shape [1, 1, 3, 16] : tensor<3x16xi1> into tensor<1x1x3x16xi1>
  %zero = arith.constant 0.0 : f32
  %em = tensor.empty() : tensor<1x1x3x16xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%seen4 : tensor<1x1x3x16xi1>) outs(%em : tensor<1x1x3x16xf32>) {
  ^bb0(%c: i1, %out: f32):
    %y = arith.select %c, %zero, %hidden : f32
    linalg.yield %y : f32
  } -> tensor<1x1x3x16xf32>
  %o = seqpar.attention %q, %k, %v mask(%mask : tensor<1x1x3x16xf32>) {scale = 0.35 : f32}
      : tensor<1x4x3x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32> -> tensor<1x4x3x8xf32>
  return %o, %k, %v : tensor<1x4x3x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>
}

// finfo(f32).min: kept as an additive mask (a row with L + j < 0 weighs
// every slot the same).
func.func @signed_fmin(%q: tensor<1x4x3x8xf32>, %kn: tensor<1x2x3x8xf32>, %vn: tensor<1x2x3x8xf32>,
                       %kc: tensor<1x2x16x8xf32>, %vc: tensor<1x2x16x8xf32>, %len: tensor<i64>)
    -> (tensor<1x4x3x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>) {
  %hidden = arith.constant -3.40282347E+38 : f32
  %l64 = tensor.extract %len[] : tensor<i64>
  %c0 = arith.constant 0 : i64
  %clamped = arith.maxsi %l64, %c0 : i64
  %l = arith.index_cast %clamped : i64 to index
  %k = tensor.insert_slice %kn into %kc[0, 0, %l, 0] [1, 2, 3, 8] [1, 1, 1, 1] : tensor<1x2x3x8xf32> into tensor<1x2x16x8xf32>
  %v = tensor.insert_slice %vn into %vc[0, 0, %l, 0] [1, 2, 3, 8] [1, 1, 1, 1] : tensor<1x2x3x8xf32> into tensor<1x2x16x8xf32>
  %e16 = tensor.empty() : tensor<16xi64>
  %slots = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%e16 : tensor<16xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    linalg.yield %p : i64
  } -> tensor<16xi64>
  %e3 = tensor.empty() : tensor<3xi64>
  %iota3 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%e3 : tensor<3xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    linalg.yield %p : i64
  } -> tensor<3xi64>
  %qj = linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                        iterator_types = ["parallel"]}
      ins(%len, %iota3 : tensor<i64>, tensor<3xi64>) outs(%e3 : tensor<3xi64>) {
  ^bb0(%a: i64, %b: i64, %out: i64):
    %s = arith.addi %a, %b : i64
    linalg.yield %s : i64
  } -> tensor<3xi64>
  %qcol = tensor.expand_shape %qj [[0, 1]] output_shape [3, 1] : tensor<3xi64> into tensor<3x1xi64>
  %eb = tensor.empty() : tensor<3x16xi1>
  %seen = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%slots, %qcol : tensor<16xi64>, tensor<3x1xi64>) outs(%eb : tensor<3x16xi1>) {
  ^bb0(%kp: i64, %qp: i64, %out: i1):
    %c = arith.cmpi sle, %kp, %qp : i64
    linalg.yield %c : i1
  } -> tensor<3x16xi1>
  %seen4 = tensor.expand_shape %seen [[0, 1, 2], [3]] output_shape [1, 1, 3, 16] : tensor<3x16xi1> into tensor<1x1x3x16xi1>
  %zero = arith.constant 0.0 : f32
  %em = tensor.empty() : tensor<1x1x3x16xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%seen4 : tensor<1x1x3x16xi1>) outs(%em : tensor<1x1x3x16xf32>) {
  ^bb0(%c: i1, %out: f32):
    %y = arith.select %c, %zero, %hidden : f32
    linalg.yield %y : f32
  } -> tensor<1x1x3x16xf32>
  %o = seqpar.attention %q, %k, %v mask(%mask : tensor<1x1x3x16xf32>) {scale = 0.35 : f32}
      : tensor<1x4x3x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32> -> tensor<1x4x3x8xf32>
  return %o, %k, %v : tensor<1x4x3x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>
}
