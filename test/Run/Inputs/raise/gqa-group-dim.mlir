// GQA as MaxText writes it: the query heads split into a KV-head dim k and
// a group dim g, einsums 'btkgh,bskh->bkgts' and 'bkgts,bskh->btkgh' with
// no repeat of K and V, and the causal mask an i1 tensor.generate
// (query >= key) applied by a select to -0.7 * FLT_MAX
// (docs/context-parallelism.md, "Raising attention from other exporters").
// b = 2, s = 16, a_kv = 2, groups = 2 (a = 4), d = 8. Written by hand.
#lq = affine_map<(b, k, g, t, s, h) -> (b, t, k, g, h)>
#lk = affine_map<(b, k, g, t, s, h) -> (b, s, k, h)>
#ll = affine_map<(b, k, g, t, s, h) -> (b, k, g, t, s)>
#e5 = affine_map<(b, k, g, t, s) -> (b, k, g, t, s)>
#m5 = affine_map<(b, k, g, t, s) -> (t, s)>
#pp = affine_map<(b, t, k, g, h, s) -> (b, k, g, t, s)>
#pv = affine_map<(b, t, k, g, h, s) -> (b, s, k, h)>
#po = affine_map<(b, t, k, g, h, s) -> (b, t, k, g, h)>
module {
  func.func @main(%q: tensor<2x16x2x2x8xf32> {seqpar.seq_dim = 1 : i64}, %k: tensor<2x16x2x8xf32> {seqpar.seq_dim = 1 : i64}, %v: tensor<2x16x2x8xf32> {seqpar.seq_dim = 1 : i64}) -> tensor<2x16x2x2x8xf32> {
    %zero = arith.constant 0.0 : f32
    %scale = arith.constant 0.353553385 : f32
    %big = arith.constant -2.38197633e+38 : f32
    %el = tensor.empty() : tensor<2x2x2x16x16xf32>
    %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<2x2x2x16x16xf32>) -> tensor<2x2x2x16x16xf32>
    %lg = linalg.generic {indexing_maps = [#lq, #lk, #ll], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%q, %k : tensor<2x16x2x2x8xf32>, tensor<2x16x2x8xf32>) outs(%zl : tensor<2x2x2x16x16xf32>) {
      ^bb0(%a: f32, %b: f32, %acc: f32):
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %acc, %p : f32
        linalg.yield %s : f32
    } -> tensor<2x2x2x16x16xf32>
    %mask = tensor.generate {
      ^bb0(%i: index, %j: index):
        %c = arith.cmpi sge, %i, %j : index
        tensor.yield %c : i1
    } : tensor<16x16xi1>
    %lm = linalg.generic {indexing_maps = [#e5, #m5, #e5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%lg, %mask : tensor<2x2x2x16x16xf32>, tensor<16x16xi1>) outs(%el : tensor<2x2x2x16x16xf32>) {
      ^bb0(%a: f32, %m: i1, %o: f32):
        %sc = arith.mulf %a, %scale : f32
        %r = arith.select %m, %sc, %big : f32
        linalg.yield %r : f32
    } -> tensor<2x2x2x16x16xf32>
    %p = linalg.softmax dimension(4) ins(%lm : tensor<2x2x2x16x16xf32>) outs(%el : tensor<2x2x2x16x16xf32>) -> tensor<2x2x2x16x16xf32>
    %eo = tensor.empty() : tensor<2x16x2x2x8xf32>
    %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x16x2x2x8xf32>) -> tensor<2x16x2x2x8xf32>
    %o = linalg.generic {indexing_maps = [#pp, #pv, #po], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%p, %v : tensor<2x2x2x16x16xf32>, tensor<2x16x2x8xf32>) outs(%zo : tensor<2x16x2x2x8xf32>) {
      ^bb0(%a: f32, %b: f32, %acc: f32):
        %m = arith.mulf %a, %b : f32
        %s = arith.addf %acc, %m : f32
        linalg.yield %s : f32
    } -> tensor<2x16x2x2x8xf32>
    return %o : tensor<2x16x2x2x8xf32>
  }
}
