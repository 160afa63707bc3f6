// A tied embedding, one linear and an LM head over a vocabulary of 8 with
// the causal-LM cross-entropy, written as exporters write them: the lookup
// and the label's log-probability are tensor.extract in linalg bodies at a
// data-dependent row, the softmax's max and sum are linalg reductions.
#tok = affine_map<(d0, d1) -> (d0)>
#tok2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#id1 = affine_map<(d0) -> (d0)>
#sc = affine_map<(d0) -> ()>
func.func @main(%ids: tensor<16xi64>, %labels: tensor<16xi64>,
                %wte: tensor<8x32xf32>, %w: tensor<32x32xf32>) -> tensor<f32> {
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %n = arith.constant 16.0 : f32
  %e16x32 = tensor.empty() : tensor<16x32xf32>
  %emb = linalg.generic {indexing_maps = [#tok, #tok2], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<16xi64>) outs(%e16x32 : tensor<16x32xf32>) {
  ^bb0(%id: i64, %out: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 1 : index
    %ok = arith.cmpi slt, %row, %c8 : index
    cf.assert %ok, "index must be smaller than dim size"
    %v = tensor.extract %wte[%row, %col] : tensor<8x32xf32>
    linalg.yield %v : f32
  } -> tensor<16x32xf32>
  %z16x32 = linalg.fill ins(%zero : f32) outs(%e16x32 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %h = linalg.matmul ins(%emb, %w : tensor<16x32xf32>, tensor<32x32xf32>) outs(%z16x32 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %e32x8 = tensor.empty() : tensor<32x8xf32>
  %wt = linalg.transpose ins(%wte : tensor<8x32xf32>) outs(%e32x8 : tensor<32x8xf32>) permutation = [1, 0]
  %e16x8 = tensor.empty() : tensor<16x8xf32>
  %z16x8 = linalg.fill ins(%zero : f32) outs(%e16x8 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %logits = linalg.matmul ins(%h, %wt : tensor<16x32xf32>, tensor<32x8xf32>) outs(%z16x8 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %e16 = tensor.empty() : tensor<16xf32>
  %low16 = linalg.fill ins(%lowest : f32) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
  %max = linalg.generic {indexing_maps = [#tok2, #tok], iterator_types = ["parallel", "reduction"]}
      ins(%logits : tensor<16x8xf32>) outs(%low16 : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<16xf32>
  %shifted = linalg.generic {indexing_maps = [#tok2, #tok, #tok2], iterator_types = ["parallel", "parallel"]}
      ins(%logits, %max : tensor<16x8xf32>, tensor<16xf32>) outs(%e16x8 : tensor<16x8xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %s = arith.subf %in, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  %exp = linalg.generic {indexing_maps = [#tok2, #tok2], iterator_types = ["parallel", "parallel"]}
      ins(%shifted : tensor<16x8xf32>) outs(%e16x8 : tensor<16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = math.exp %in : f32
    linalg.yield %x : f32
  } -> tensor<16x8xf32>
  %e16x1 = tensor.empty() : tensor<16x1xf32>
  %z16x1 = linalg.fill ins(%zero : f32) outs(%e16x1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %sum = linalg.generic {indexing_maps = [#tok2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<16x8xf32>) outs(%z16x1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<16x1xf32>
  %lsm = linalg.generic {indexing_maps = [#tok2, #row, #tok2], iterator_types = ["parallel", "parallel"]}
      ins(%shifted, %sum : tensor<16x8xf32>, tensor<16x1xf32>) outs(%e16x8 : tensor<16x8xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %l = math.log %s : f32
    %r = arith.subf %in, %l : f32
    linalg.yield %r : f32
  } -> tensor<16x8xf32>
  %picked = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%labels : tensor<16xi64>) outs(%e16 : tensor<16xf32>) {
  ^bb0(%label: i64, %out: f32):
    %t = linalg.index 0 : index
    %col = arith.index_cast %label : i64 to index
    %v = tensor.extract %lsm[%t, %col] : tensor<16x8xf32>
    linalg.yield %v : f32
  } -> tensor<16xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %total = linalg.generic {indexing_maps = [#id1, #sc], iterator_types = ["reduction"]}
      ins(%picked : tensor<16xf32>) outs(%z0 : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.divf %in, %n : f32
    %a = arith.subf %out, %q : f32
    linalg.yield %a : f32
  } -> tensor<f32>
  return %total : tensor<f32>
}
