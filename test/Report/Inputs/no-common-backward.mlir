// Two "gradients", each computed from a different forward value and
// sharing no op: no op is where the loss's gradient enters a backward.
#id = affine_map<(i) -> (i)>
#sum = affine_map<(i) -> ()>
func.func @forward(%x: tensor<8xf32> {seqpar.seq_dim = 0 : i64},
                   %w: tensor<8xf32>, %v: tensor<8xf32>)
    -> (tensor<f32>, tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x, %w : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %b = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%a, %v : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<f32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#id, #sum], iterator_types = ["reduction"]} ins(%b : tensor<8xf32>) outs(%acc : tensor<f32>) {
  ^bb0(%p: f32, %o: f32):
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %gw = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %o: f32):
    %d = arith.addf %p, %p : f32
    linalg.yield %d : f32
  } -> tensor<8xf32>
  %gv = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%b : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%p: f32, %o: f32):
    %d = arith.addf %p, %p : f32
    linalg.yield %d : f32
  } -> tensor<8xf32>
  return %loss, %gw, %gv : tensor<f32>, tensor<8xf32>, tensor<8xf32>
}
