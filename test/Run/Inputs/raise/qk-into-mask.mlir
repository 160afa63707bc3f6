// The scores accumulate into a mask table instead of zeros: not a plain Q.K^T.
func.func @forward(%x: tensor<1x8x16xf32>, %wq: tensor<16x16xf32>, %wk: tensor<16x16xf32>, %wv: tensor<16x16xf32>, %wo: tensor<16x16xf32>) -> tensor<1x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %qp_e = tensor.empty() : tensor<1x8x16xf32>
  %qp_z = linalg.fill ins(%zero : f32) outs(%qp_e : tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %qp = linalg.generic {indexing_maps = [affine_map<(d0,d1,d2,d3)->(d0,d1,d3)>, affine_map<(d0,d1,d2,d3)->(d3,d2)>, affine_map<(d0,d1,d2,d3)->(d0,d1,d2)>], iterator_types = ["parallel","parallel","parallel","reduction"]} ins(%x, %wq : tensor<1x8x16xf32>, tensor<16x16xf32>) outs(%qp_z : tensor<1x8x16xf32>) {
  ^bb0(%pa: f32, %pb: f32, %pc: f32):
    %pm = arith.mulf %pa, %pb : f32
    %pr = arith.addf %pm, %pc : f32
    linalg.yield %pr : f32
  } -> tensor<1x8x16xf32>
  %kp_e = tensor.empty() : tensor<1x8x16xf32>
  %kp_z = linalg.fill ins(%zero : f32) outs(%kp_e : tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %kp = linalg.generic {indexing_maps = [affine_map<(d0,d1,d2,d3)->(d0,d1,d3)>, affine_map<(d0,d1,d2,d3)->(d3,d2)>, affine_map<(d0,d1,d2,d3)->(d0,d1,d2)>], iterator_types = ["parallel","parallel","parallel","reduction"]} ins(%x, %wk : tensor<1x8x16xf32>, tensor<16x16xf32>) outs(%kp_z : tensor<1x8x16xf32>) {
  ^bb0(%pa: f32, %pb: f32, %pc: f32):
    %pm = arith.mulf %pa, %pb : f32
    %pr = arith.addf %pm, %pc : f32
    linalg.yield %pr : f32
  } -> tensor<1x8x16xf32>
  %vp_e = tensor.empty() : tensor<1x8x16xf32>
  %vp_z = linalg.fill ins(%zero : f32) outs(%vp_e : tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %vp = linalg.generic {indexing_maps = [affine_map<(d0,d1,d2,d3)->(d0,d1,d3)>, affine_map<(d0,d1,d2,d3)->(d3,d2)>, affine_map<(d0,d1,d2,d3)->(d0,d1,d2)>], iterator_types = ["parallel","parallel","parallel","reduction"]} ins(%x, %wv : tensor<1x8x16xf32>, tensor<16x16xf32>) outs(%vp_z : tensor<1x8x16xf32>) {
  ^bb0(%pa: f32, %pb: f32, %pc: f32):
    %pm = arith.mulf %pa, %pb : f32
    %pr = arith.addf %pm, %pc : f32
    linalg.yield %pr : f32
  } -> tensor<1x8x16xf32>
  %q_x = tensor.expand_shape %qp [[0], [1], [2, 3]] output_shape [1, 8, 2, 8] : tensor<1x8x16xf32> into tensor<1x8x2x8xf32>
  %q_te = tensor.empty() : tensor<1x2x8x8xf32>
  %q = linalg.transpose ins(%q_x : tensor<1x8x2x8xf32>) outs(%q_te : tensor<1x2x8x8xf32>) permutation = [0, 2, 1, 3]
  %k0_x = tensor.expand_shape %kp [[0], [1], [2, 3]] output_shape [1, 8, 2, 8] : tensor<1x8x16xf32> into tensor<1x8x2x8xf32>
  %k0_te = tensor.empty() : tensor<1x2x8x8xf32>
  %k0 = linalg.transpose ins(%k0_x : tensor<1x8x2x8xf32>) outs(%k0_te : tensor<1x2x8x8xf32>) permutation = [0, 2, 1, 3]
  %v0_x = tensor.expand_shape %vp [[0], [1], [2, 3]] output_shape [1, 8, 2, 8] : tensor<1x8x16xf32> into tensor<1x8x2x8xf32>
  %v0_te = tensor.empty() : tensor<1x2x8x8xf32>
  %v0 = linalg.transpose ins(%v0_x : tensor<1x8x2x8xf32>) outs(%v0_te : tensor<1x2x8x8xf32>) permutation = [0, 2, 1, 3]
  %k = tensor.collapse_shape %k0 [[0], [1], [2], [3]] : tensor<1x2x8x8xf32> into tensor<1x2x8x8xf32>
  %v = tensor.collapse_shape %v0 [[0], [1], [2], [3]] : tensor<1x2x8x8xf32> into tensor<1x2x8x8xf32>
  %se = tensor.empty() : tensor<1x2x8x8xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%se : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %mtab = arith.constant dense<[[0.0,-1.0e9,-1.0e9,-1.0e9,-1.0e9,-1.0e9,-1.0e9,-1.0e9],[0.0,0.0,-1.0e9,-1.0e9,-1.0e9,-1.0e9,-1.0e9,-1.0e9],[0.0,0.0,0.0,-1.0e9,-1.0e9,-1.0e9,-1.0e9,-1.0e9],[0.0,0.0,0.0,0.0,-1.0e9,-1.0e9,-1.0e9,-1.0e9],[0.0,0.0,0.0,0.0,0.0,-1.0e9,-1.0e9,-1.0e9],[0.0,0.0,0.0,0.0,0.0,0.0,-1.0e9,-1.0e9],[0.0,0.0,0.0,0.0,0.0,0.0,0.0,-1.0e9],[0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0]]> : tensor<8x8xf32>
  %mb = linalg.broadcast ins(%mtab : tensor<8x8xf32>) outs(%se : tensor<1x2x8x8xf32>) dimensions = [0, 1]
  %scores = linalg.generic {indexing_maps = [affine_map<(b,h,i,j,e)->(b,h,i,e)>, affine_map<(b,h,i,j,e)->(b,h,j,e)>, affine_map<(b,h,i,j,e)->(b,h,i,j)>], iterator_types = ["parallel","parallel","parallel","parallel","reduction"]} ins(%q, %k : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%mb : tensor<1x2x8x8xf32>) {
  ^bb0(%sa: f32, %sb: f32, %sc: f32):
    %sm = arith.mulf %sa, %sb : f32
    %sr = arith.addf %sm, %sc : f32
    linalg.yield %sr : f32
  } -> tensor<1x2x8x8xf32>
  %logits = linalg.generic {indexing_maps = [affine_map<(d0,d1,d2,d3)->(d0,d1,d2,d3)>, affine_map<(d0,d1,d2,d3)->(d0,d1,d2,d3)>], iterator_types = ["parallel","parallel","parallel","parallel"]} ins(%scores : tensor<1x2x8x8xf32>) outs(%se : tensor<1x2x8x8xf32>) {
  ^bb0(%lx: f32, %lo: f32):
    %c_scale = arith.constant 0.35355339 : f32
    %lr = arith.mulf %lx, %c_scale : f32
    linalg.yield %lr : f32
  } -> tensor<1x2x8x8xf32>
  %re = tensor.empty() : tensor<1x2x8xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%re : tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(d0,d1,d2,d3)->(d0,d1,d2,d3)>, affine_map<(d0,d1,d2,d3)->(d0,d1,d2)>], iterator_types = ["parallel","parallel","parallel","reduction"]} ins(%logits : tensor<1x2x8x8xf32>) outs(%mi : tensor<1x2x8xf32>) {
  ^bb0(%mx: f32, %macc: f32):
    %mr = arith.maximumf %mx, %macc : f32
    linalg.yield %mr : f32
  } -> tensor<1x2x8xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0,d1,d2,d3)->(d0,d1,d2,d3)>, affine_map<(d0,d1,d2,d3)->(d0,d1,d2)>, affine_map<(d0,d1,d2,d3)->(d0,d1,d2,d3)>], iterator_types = ["parallel","parallel","parallel","parallel"]} ins(%logits, %max : tensor<1x2x8x8xf32>, tensor<1x2x8xf32>) outs(%se : tensor<1x2x8x8xf32>) {
  ^bb0(%ea: f32, %eb: f32, %eo: f32):
    %ed = arith.subf %ea, %eb : f32
    %er = math.exp %ed : f32
    linalg.yield %er : f32
  } -> tensor<1x2x8x8xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%re : tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0,d1,d2,d3)->(d0,d1,d2,d3)>, affine_map<(d0,d1,d2,d3)->(d0,d1,d2)>], iterator_types = ["parallel","parallel","parallel","reduction"]} ins(%ex : tensor<1x2x8x8xf32>) outs(%zr : tensor<1x2x8xf32>) {
  ^bb0(%ua: f32, %uacc: f32):
    %ur = arith.addf %ua, %uacc : f32
    linalg.yield %ur : f32
  } -> tensor<1x2x8xf32>
  %probs = linalg.generic {indexing_maps = [affine_map<(d0,d1,d2,d3)->(d0,d1,d2,d3)>, affine_map<(d0,d1,d2,d3)->(d0,d1,d2)>, affine_map<(d0,d1,d2,d3)->(d0,d1,d2,d3)>], iterator_types = ["parallel","parallel","parallel","parallel"]} ins(%ex, %sum : tensor<1x2x8x8xf32>, tensor<1x2x8xf32>) outs(%se : tensor<1x2x8x8xf32>) {
  ^bb0(%da: f32, %db: f32, %do: f32):
    %dr = arith.divf %da, %db : f32
    linalg.yield %dr : f32
  } -> tensor<1x2x8x8xf32>
  %oe = tensor.empty() : tensor<1x2x8x8xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %ctx = linalg.generic {indexing_maps = [affine_map<(b,h,i,e,j)->(b,h,i,j)>, affine_map<(b,h,i,e,j)->(b,h,j,e)>, affine_map<(b,h,i,e,j)->(b,h,i,e)>], iterator_types = ["parallel","parallel","parallel","parallel","reduction"]} ins(%probs, %v : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%oz : tensor<1x2x8x8xf32>) {
  ^bb0(%ca: f32, %cb: f32, %cc: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cr = arith.addf %cm, %cc : f32
    linalg.yield %cr : f32
  } -> tensor<1x2x8x8xf32>
  %cte = tensor.empty() : tensor<1x8x2x8xf32>
  %ct = linalg.transpose ins(%ctx : tensor<1x2x8x8xf32>) outs(%cte : tensor<1x8x2x8xf32>) permutation = [0, 2, 1, 3]
  %cc2 = tensor.collapse_shape %ct [[0], [1], [2, 3]] : tensor<1x8x2x8xf32> into tensor<1x8x16xf32>
  %out_e = tensor.empty() : tensor<1x8x16xf32>
  %out_z = linalg.fill ins(%zero : f32) outs(%out_e : tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0,d1,d2,d3)->(d0,d1,d3)>, affine_map<(d0,d1,d2,d3)->(d3,d2)>, affine_map<(d0,d1,d2,d3)->(d0,d1,d2)>], iterator_types = ["parallel","parallel","parallel","reduction"]} ins(%cc2, %wo : tensor<1x8x16xf32>, tensor<16x16xf32>) outs(%out_z : tensor<1x8x16xf32>) {
  ^bb0(%pa: f32, %pb: f32, %pc: f32):
    %pm = arith.mulf %pa, %pb : f32
    %pr = arith.addf %pm, %pc : f32
    linalg.yield %pr : f32
  } -> tensor<1x8x16xf32>
  return %out : tensor<1x8x16xf32>
}
