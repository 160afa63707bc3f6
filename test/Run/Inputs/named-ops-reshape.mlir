// A GPT layer in MLIR 22's named ops, written outside the project's
// generators (an outside tester's graph), whose head split and merge are
// tensor.reshape with a shape operand (test/Run/plan-tensor-reshape.test).
// GPT-style layer: linalg.contract linears on 3-D activations with W[out,in],
// layernorm via linalg.reduce + math.rsqrt, einsum 5-loop attention without transposes
// (bqhd,bkhd->bhqk ; bhqk,bkhd->bqhd), causal select via cmpi on linalg.index,
// linalg.softmax, GELU (erf) via linalg.map, residual linalg.add.
#x3   = affine_map<(b, s, o, i) -> (b, s, i)>
#w    = affine_map<(b, s, o, i) -> (o, i)>
#y3   = affine_map<(b, s, o, i) -> (b, s, o)>
#id3  = affine_map<(b, s, h) -> (b, s, h)>
#bs3  = affine_map<(b, s, h) -> (b, s)>
#h3   = affine_map<(b, s, h) -> (h)>
#qd   = affine_map<(b, h, q, k, d) -> (b, q, h, d)>
#kd   = affine_map<(b, h, q, k, d) -> (b, k, h, d)>
#lg   = affine_map<(b, h, q, k, d) -> (b, h, q, k)>
#pq   = affine_map<(b, h, q, d, k) -> (b, h, q, k)>
#vk   = affine_map<(b, h, q, d, k) -> (b, k, h, d)>
#oq   = affine_map<(b, h, q, d, k) -> (b, q, h, d)>
module {
  func.func private @layernorm(%x: tensor<2x16x32xf32>, %g: tensor<32xf32>, %bb: tensor<32xf32>) -> tensor<2x16x32xf32> {
    %zero = arith.constant 0.0 : f32
    %n = arith.constant 32.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %e2 = tensor.empty() : tensor<2x16xf32>
    %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x16xf32>) -> tensor<2x16xf32>
    %sum = linalg.reduce ins(%x : tensor<2x16x32xf32>) outs(%z2 : tensor<2x16xf32>) dimensions = [2]
      (%in: f32, %acc: f32) {
        %a = arith.addf %in, %acc : f32
        linalg.yield %a : f32
      }
    %e3 = tensor.empty() : tensor<2x16x32xf32>
    %xc = linalg.generic {indexing_maps = [#id3, #bs3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%x, %sum : tensor<2x16x32xf32>, tensor<2x16xf32>) outs(%e3 : tensor<2x16x32xf32>) {
      ^bb0(%v: f32, %s: f32, %o: f32):
        %m = arith.divf %s, %n : f32
        %d = arith.subf %v, %m : f32
        linalg.yield %d : f32
    } -> tensor<2x16x32xf32>
    %sq = linalg.reduce ins(%xc : tensor<2x16x32xf32>) outs(%z2 : tensor<2x16xf32>) dimensions = [2]
      (%in: f32, %acc: f32) {
        %p = arith.mulf %in, %in : f32
        %a = arith.addf %p, %acc : f32
        linalg.yield %a : f32
      }
    %r = linalg.generic {indexing_maps = [#id3, #bs3, #h3, #h3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%xc, %sq, %g, %bb : tensor<2x16x32xf32>, tensor<2x16xf32>, tensor<32xf32>, tensor<32xf32>) outs(%e3 : tensor<2x16x32xf32>) {
      ^bb0(%v: f32, %s: f32, %gg: f32, %b0: f32, %o: f32):
        %var = arith.divf %s, %n : f32
        %ve = arith.addf %var, %eps : f32
        %rs = math.rsqrt %ve : f32
        %y = arith.mulf %v, %rs : f32
        %y2 = arith.mulf %y, %gg : f32
        %y3 = arith.addf %y2, %b0 : f32
        linalg.yield %y3 : f32
    } -> tensor<2x16x32xf32>
    return %r : tensor<2x16x32xf32>
  }

  func.func @main(%x: tensor<2x16x32xf32>,
                  %wq: tensor<32x32xf32>, %wk: tensor<32x32xf32>, %wv: tensor<32x32xf32>, %wo: tensor<32x32xf32>,
                  %w1: tensor<64x32xf32>, %w2: tensor<32x64xf32>,
                  %g1: tensor<32xf32>, %b1: tensor<32xf32>, %g2: tensor<32xf32>, %b2: tensor<32xf32>) -> tensor<2x16x32xf32> {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %scale = arith.constant 0.353553385 : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %rsqrt2 = arith.constant 0.707106769 : f32
    %shp4 = arith.constant dense<[2, 16, 4, 8]> : tensor<4xi64>
    %shp3 = arith.constant dense<[2, 16, 32]> : tensor<3xi64>
    %h = func.call @layernorm(%x, %g1, %b1) : (tensor<2x16x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<2x16x32xf32>
    %e3 = tensor.empty() : tensor<2x16x32xf32>
    %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %q = linalg.contract indexing_maps = [#x3, #w, #y3] ins(%h, %wq : tensor<2x16x32xf32>, tensor<32x32xf32>) outs(%z3 : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %k = linalg.contract indexing_maps = [#x3, #w, #y3] ins(%h, %wk : tensor<2x16x32xf32>, tensor<32x32xf32>) outs(%z3 : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %v = linalg.contract indexing_maps = [#x3, #w, #y3] ins(%h, %wv : tensor<2x16x32xf32>, tensor<32x32xf32>) outs(%z3 : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %q4 = tensor.reshape %q(%shp4) : (tensor<2x16x32xf32>, tensor<4xi64>) -> tensor<2x16x4x8xf32>
    %k4 = tensor.reshape %k(%shp4) : (tensor<2x16x32xf32>, tensor<4xi64>) -> tensor<2x16x4x8xf32>
    %v4 = tensor.reshape %v(%shp4) : (tensor<2x16x32xf32>, tensor<4xi64>) -> tensor<2x16x4x8xf32>
    %el = tensor.empty() : tensor<2x4x16x16xf32>
    %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %s = linalg.generic {indexing_maps = [#qd, #kd, #lg], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%q4, %k4 : tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>) outs(%zl : tensor<2x4x16x16xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %p = arith.mulf %a, %b : f32
        %r = arith.addf %o, %p : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x16xf32>
    // scale + causal mask in one generic reading linalg.index
    %sm = linalg.generic {indexing_maps = [affine_map<(b, h, q, k) -> (b, h, q, k)>, affine_map<(b, h, q, k) -> (b, h, q, k)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%s : tensor<2x4x16x16xf32>) outs(%el : tensor<2x4x16x16xf32>) {
      ^bb0(%a: f32, %o: f32):
        %qi = linalg.index 2 : index
        %ki = linalg.index 3 : index
        %c = arith.cmpi ugt, %ki, %qi : index
        %sc = arith.mulf %a, %scale : f32
        %r = arith.select %c, %ninf, %sc : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x16xf32>
    %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x16x16xf32>) outs(%el : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %eo = tensor.empty() : tensor<2x16x4x8xf32>
    %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x16x4x8xf32>) -> tensor<2x16x4x8xf32>
    %o = linalg.generic {indexing_maps = [#pq, #vk, #oq], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%p, %v4 : tensor<2x4x16x16xf32>, tensor<2x16x4x8xf32>) outs(%zo : tensor<2x16x4x8xf32>) {
      ^bb0(%a: f32, %b: f32, %acc: f32):
        %m = arith.mulf %a, %b : f32
        %r = arith.addf %acc, %m : f32
        linalg.yield %r : f32
    } -> tensor<2x16x4x8xf32>
    %o3 = tensor.reshape %o(%shp3) : (tensor<2x16x4x8xf32>, tensor<3xi64>) -> tensor<2x16x32xf32>
    %ao = linalg.contract indexing_maps = [#x3, #w, #y3] ins(%o3, %wo : tensor<2x16x32xf32>, tensor<32x32xf32>) outs(%z3 : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %r1 = linalg.add ins(%x, %ao : tensor<2x16x32xf32>, tensor<2x16x32xf32>) outs(%e3 : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %h2 = func.call @layernorm(%r1, %g2, %b2) : (tensor<2x16x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<2x16x32xf32>
    %ef = tensor.empty() : tensor<2x16x64xf32>
    %zf = linalg.fill ins(%zero : f32) outs(%ef : tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %f1 = linalg.contract indexing_maps = [#x3, #w, #y3] ins(%h2, %w1 : tensor<2x16x32xf32>, tensor<64x32xf32>) outs(%zf : tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %ge = linalg.map ins(%f1 : tensor<2x16x64xf32>) outs(%ef : tensor<2x16x64xf32>)
      (%a: f32, %init: f32) {
        %t = arith.mulf %a, %rsqrt2 : f32
        %er = math.erf %t : f32
        %p1 = arith.addf %er, %one : f32
        %hx = arith.mulf %a, %half : f32
        %r = arith.mulf %hx, %p1 : f32
        linalg.yield %r : f32
      }
    %f2 = linalg.contract indexing_maps = [affine_map<(b, s, o, i) -> (b, s, i)>, affine_map<(b, s, o, i) -> (o, i)>, affine_map<(b, s, o, i) -> (b, s, o)>] ins(%ge, %w2 : tensor<2x16x64xf32>, tensor<32x64xf32>) outs(%z3 : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %r2 = linalg.add ins(%r1, %f2 : tensor<2x16x32xf32>, tensor<2x16x32xf32>) outs(%e3 : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    return %r2 : tensor<2x16x32xf32>
  }
}
