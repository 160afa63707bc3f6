// Logits scale * Q.K^T and an additive mask argument [b, 1, s, t] with a
// causal select to -inf, in the two orders (docs/context-parallelism.md,
// "Masks"). @mask_first: select(j > i, -inf, s * scale + mask), the select
// last, so every future key is exactly -inf whatever the mask holds: the
// causal flag plus the mask. @select_first: select(j > i, -inf, s * scale)
// + mask: a mask argument may hold +inf (-inf + inf is NaN), so it is not
// provably the causal flag and stays unraised.
module {
  func.func @mask_first(%q: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}, %k: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}, %v: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}, %mask: tensor<2x1x16x16xf32>) -> tensor<2x4x16x8xf32> {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %scale = arith.constant 0.353553385 : f32
    %el = tensor.empty() : tensor<2x4x16x16xf32>
    %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(b, a, i, j, d) -> (b, a, i, d)>, affine_map<(b, a, i, j, d) -> (b, a, j, d)>, affine_map<(b, a, i, j, d) -> (b, a, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%q, %k : tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) outs(%zl : tensor<2x4x16x16xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %p = arith.mulf %a, %b : f32
        %r = arith.addf %o, %p : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x16xf32>
    %sm = linalg.generic {indexing_maps = [affine_map<(b, a, i, j) -> (b, a, i, j)>, affine_map<(b, a, i, j) -> (b, 0, i, j)>, affine_map<(b, a, i, j) -> (b, a, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%s, %mask : tensor<2x4x16x16xf32>, tensor<2x1x16x16xf32>) outs(%el : tensor<2x4x16x16xf32>) {
      ^bb0(%a: f32, %m: f32, %o: f32):
        %i = linalg.index 2 : index
        %j = linalg.index 3 : index
        %c = arith.cmpi ugt, %j, %i : index
        %sc = arith.mulf %a, %scale : f32
        %t = arith.addf %sc, %m : f32
        %r = arith.select %c, %ninf, %t : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x16xf32>
    %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x16x16xf32>) outs(%el : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %eo = tensor.empty() : tensor<2x4x16x8xf32>
    %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %o = linalg.generic {indexing_maps = [affine_map<(b, a, i, d, j) -> (b, a, i, j)>, affine_map<(b, a, i, d, j) -> (b, a, j, d)>, affine_map<(b, a, i, d, j) -> (b, a, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%p, %v : tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) outs(%zo : tensor<2x4x16x8xf32>) {
      ^bb0(%a: f32, %b: f32, %acc: f32):
        %m = arith.mulf %a, %b : f32
        %r = arith.addf %acc, %m : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x8xf32>
    return %o : tensor<2x4x16x8xf32>
  }
  func.func @select_first(%q: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}, %k: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}, %v: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}, %mask: tensor<2x1x16x16xf32>) -> tensor<2x4x16x8xf32> {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %scale = arith.constant 0.353553385 : f32
    %el = tensor.empty() : tensor<2x4x16x16xf32>
    %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(b, a, i, j, d) -> (b, a, i, d)>, affine_map<(b, a, i, j, d) -> (b, a, j, d)>, affine_map<(b, a, i, j, d) -> (b, a, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%q, %k : tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) outs(%zl : tensor<2x4x16x16xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %p = arith.mulf %a, %b : f32
        %r = arith.addf %o, %p : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x16xf32>
    %sm = linalg.generic {indexing_maps = [affine_map<(b, a, i, j) -> (b, a, i, j)>, affine_map<(b, a, i, j) -> (b, 0, i, j)>, affine_map<(b, a, i, j) -> (b, a, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%s, %mask : tensor<2x4x16x16xf32>, tensor<2x1x16x16xf32>) outs(%el : tensor<2x4x16x16xf32>) {
      ^bb0(%a: f32, %m: f32, %o: f32):
        %i = linalg.index 2 : index
        %j = linalg.index 3 : index
        %c = arith.cmpi ugt, %j, %i : index
        %sc = arith.mulf %a, %scale : f32
        %h = arith.select %c, %ninf, %sc : f32
        %r = arith.addf %h, %m : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x16xf32>
    %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x16x16xf32>) outs(%el : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %eo = tensor.empty() : tensor<2x4x16x8xf32>
    %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %o = linalg.generic {indexing_maps = [affine_map<(b, a, i, d, j) -> (b, a, i, j)>, affine_map<(b, a, i, d, j) -> (b, a, j, d)>, affine_map<(b, a, i, d, j) -> (b, a, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%p, %v : tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) outs(%zo : tensor<2x4x16x8xf32>) {
      ^bb0(%a: f32, %b: f32, %acc: f32):
        %m = arith.mulf %a, %b : f32
        %r = arith.addf %acc, %m : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x8xf32>
    return %o : tensor<2x4x16x8xf32>
  }
}
