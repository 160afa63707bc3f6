// Attention written out the way exporters do, independently of
// seqpar-decompose-attention: K/V repeated per query head (broadcast +
// collapse), batch matmuls on [heads, s, d], scale + mask + causal select,
// softmax as max / exp / sum / div with linalg.reduce.
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#row3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @forward(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>,
                   %m: tensor<1x1x8x8xf32>) -> tensor<1x4x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.25 : f32
  %eb = tensor.empty() : tensor<1x2x2x8x16xf32>
  %kb = linalg.broadcast ins(%k : tensor<1x2x8x16xf32>) outs(%eb : tensor<1x2x2x8x16xf32>) dimensions = [2]
  %vb = linalg.broadcast ins(%v : tensor<1x2x8x16xf32>) outs(%eb : tensor<1x2x2x8x16xf32>) dimensions = [2]
  %kr = tensor.collapse_shape %kb [[0, 1, 2], [3], [4]] : tensor<1x2x2x8x16xf32> into tensor<4x8x16xf32>
  %vr = tensor.collapse_shape %vb [[0, 1, 2], [3], [4]] : tensor<1x2x2x8x16xf32> into tensor<4x8x16xf32>
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x4x8x16xf32> into tensor<4x8x16xf32>
  %et = tensor.empty() : tensor<4x16x8xf32>
  %kt = linalg.transpose ins(%kr : tensor<4x8x16xf32>) outs(%et : tensor<4x16x8xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<4x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %s3 = linalg.batch_matmul ins(%q3, %kt : tensor<4x8x16xf32>, tensor<4x16x8xf32>) outs(%zs : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [1, 4, 8, 8] : tensor<4x8x8xf32> into tensor<1x4x8x8xf32>
  %el = tensor.empty() : tensor<1x4x8x8xf32>
  %l = linalg.generic {indexing_maps = [#id4, #mask, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %m : tensor<1x4x8x8xf32>, tensor<1x1x8x8xf32>) outs(%el : tensor<1x4x8x8xf32>) {
  ^bb0(%x: f32, %mk: f32, %o: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %future = arith.cmpi ugt, %j, %i : index
    %y = arith.mulf %x, %scale : f32
    %z = arith.addf %y, %mk : f32
    %r = arith.select %future, %ninf, %z : f32
    linalg.yield %r : f32
  } -> tensor<1x4x8x8xf32>
  %l3 = tensor.collapse_shape %l [[0, 1], [2], [3]] : tensor<1x4x8x8xf32> into tensor<4x8x8xf32>
  %er = tensor.empty() : tensor<4x8xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mx = linalg.reduce ins(%l3 : tensor<4x8x8xf32>) outs(%mi : tensor<4x8xf32>) dimensions = [2]
    (%a: f32, %b: f32) {
      %c = arith.maximumf %a, %b : f32
      linalg.yield %c : f32
    }
  %ex = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%l3, %mx : tensor<4x8x8xf32>, tensor<4x8xf32>) outs(%es : tensor<4x8x8xf32>) {
  ^bb0(%x: f32, %mm: f32, %o: f32):
    %d = arith.subf %x, %mm : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<4x8x8xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%er : tensor<4x8xf32>) -> tensor<4x8xf32>
  %sm = linalg.reduce ins(%ex : tensor<4x8x8xf32>) outs(%z0 : tensor<4x8xf32>) dimensions = [2]
    (%a: f32, %b: f32) {
      %c = arith.addf %a, %b : f32
      linalg.yield %c : f32
    }
  %p = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sm : tensor<4x8x8xf32>, tensor<4x8xf32>) outs(%es : tensor<4x8x8xf32>) {
  ^bb0(%x: f32, %t: f32, %o: f32):
    %d = arith.divf %x, %t : f32
    linalg.yield %d : f32
  } -> tensor<4x8x8xf32>
  %eo = tensor.empty() : tensor<4x8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %o3 = linalg.batch_matmul ins(%p, %vr : tensor<4x8x8xf32>, tensor<4x8x16xf32>) outs(%zo : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [1, 4, 8, 16] : tensor<4x8x16xf32> into tensor<1x4x8x16xf32>
  return %o : tensor<1x4x8x16xf32>
}
