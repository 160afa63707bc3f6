// Attention with the logits laid out [b, a, keys, queries] (K.Q^T) and
// the softmax over the keys at dim 2 (docs/context-parallelism.md,
// "Raising attention from other exporters"): @kq_causal hides key > query
// with a select on linalg.index, @kq_mask adds a mask argument laid out
// [b, 1, keys, queries]. @not_attention: a softmax over dim 1 of an argument read by a
// contraction, which is no attention and is left as it is. Written by hand.
module {
  func.func @kq_causal(%q: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}, %k: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}, %v: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}) -> tensor<2x4x16x8xf32> {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %scale = arith.constant 0.353553385 : f32
    %el = tensor.empty() : tensor<2x4x16x16xf32>
    %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    // K.Q^T: logits [b, a, keys, queries]
    %s = linalg.generic {indexing_maps = [affine_map<(b, a, j, i, d) -> (b, a, j, d)>, affine_map<(b, a, j, i, d) -> (b, a, i, d)>, affine_map<(b, a, j, i, d) -> (b, a, j, i)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%k, %q : tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) outs(%zl : tensor<2x4x16x16xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %p = arith.mulf %a, %b : f32
        %r = arith.addf %o, %p : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x16xf32>
    // scale, and key (dim 2) > query (dim 3) hidden
    %sm = linalg.generic {indexing_maps = [affine_map<(b, a, j, i) -> (b, a, j, i)>, affine_map<(b, a, j, i) -> (b, a, j, i)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%s : tensor<2x4x16x16xf32>) outs(%el : tensor<2x4x16x16xf32>) {
      ^bb0(%a: f32, %o: f32):
        %j = linalg.index 2 : index
        %i = linalg.index 3 : index
        %c = arith.cmpi ugt, %j, %i : index
        %sc = arith.mulf %a, %scale : f32
        %r = arith.select %c, %ninf, %sc : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x16xf32>
    // softmax over the keys, dim 2
    %p = linalg.softmax dimension(2) ins(%sm : tensor<2x4x16x16xf32>) outs(%el : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %eo = tensor.empty() : tensor<2x4x16x8xf32>
    %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    // P^T.V: out[b, a, i, e] = sum_j p[b, a, j, i] v[b, a, j, e]
    %o = linalg.generic {indexing_maps = [affine_map<(b, a, i, e, j) -> (b, a, j, i)>, affine_map<(b, a, i, e, j) -> (b, a, j, e)>, affine_map<(b, a, i, e, j) -> (b, a, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%p, %v : tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) outs(%zo : tensor<2x4x16x8xf32>) {
      ^bb0(%a: f32, %b: f32, %acc: f32):
        %m = arith.mulf %a, %b : f32
        %r = arith.addf %acc, %m : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x8xf32>
    return %o : tensor<2x4x16x8xf32>
  }

  func.func @kq_mask(%q: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}, %k: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}, %v: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}, %mask: tensor<2x1x16x16xf32>) -> tensor<2x4x16x8xf32> {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %scale = arith.constant 0.353553385 : f32
    %el = tensor.empty() : tensor<2x4x16x16xf32>
    %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    // K.Q^T: logits [b, a, keys, queries]
    %s = linalg.generic {indexing_maps = [affine_map<(b, a, j, i, d) -> (b, a, j, d)>, affine_map<(b, a, j, i, d) -> (b, a, i, d)>, affine_map<(b, a, j, i, d) -> (b, a, j, i)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%k, %q : tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) outs(%zl : tensor<2x4x16x16xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %p = arith.mulf %a, %b : f32
        %r = arith.addf %o, %p : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x16xf32>
    // scale, plus a mask laid out [b, 1, keys, queries]
    %sm = linalg.generic {indexing_maps = [affine_map<(b, a, j, i) -> (b, a, j, i)>, affine_map<(b, a, j, i) -> (b, 0, j, i)>, affine_map<(b, a, j, i) -> (b, a, j, i)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%s, %mask : tensor<2x4x16x16xf32>, tensor<2x1x16x16xf32>) outs(%el : tensor<2x4x16x16xf32>) {
      ^bb0(%a: f32, %m: f32, %o: f32):
        %sc = arith.mulf %a, %scale : f32
        %r = arith.addf %sc, %m : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x16xf32>
    // softmax over the keys, dim 2
    %p = linalg.softmax dimension(2) ins(%sm : tensor<2x4x16x16xf32>) outs(%el : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %eo = tensor.empty() : tensor<2x4x16x8xf32>
    %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    // P^T.V: out[b, a, i, e] = sum_j p[b, a, j, i] v[b, a, j, e]
    %o = linalg.generic {indexing_maps = [affine_map<(b, a, i, e, j) -> (b, a, j, i)>, affine_map<(b, a, i, e, j) -> (b, a, j, e)>, affine_map<(b, a, i, e, j) -> (b, a, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%p, %v : tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) outs(%zo : tensor<2x4x16x8xf32>) {
      ^bb0(%a: f32, %b: f32, %acc: f32):
        %m = arith.mulf %a, %b : f32
        %r = arith.addf %acc, %m : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x8xf32>
    return %o : tensor<2x4x16x8xf32>
  }

  func.func @not_attention(%x: tensor<2x16x8xf32> {seqpar.seq_dim = 1 : i64}, %w: tensor<2x16x8xf32> {seqpar.seq_dim = 1 : i64}) -> tensor<2x8x8xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x16x8xf32>
    %p = linalg.softmax dimension(1) ins(%x : tensor<2x16x8xf32>) outs(%e : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
    %eo = tensor.empty() : tensor<2x8x8xf32>
    %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    %o = linalg.generic {indexing_maps = [affine_map<(b, i, e, j) -> (b, j, i)>, affine_map<(b, i, e, j) -> (b, j, e)>, affine_map<(b, i, e, j) -> (b, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
        ins(%p, %w : tensor<2x16x8xf32>, tensor<2x16x8xf32>) outs(%zo : tensor<2x8x8xf32>) {
      ^bb0(%a: f32, %b: f32, %acc: f32):
        %m = arith.mulf %a, %b : f32
        %r = arith.addf %acc, %m : f32
        linalg.yield %r : f32
    } -> tensor<2x8x8xf32>
    return %o : tensor<2x8x8xf32>
  }

}
