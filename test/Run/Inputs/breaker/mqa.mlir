func.func @forward(%x: tensor<2x8x16xf32>, %wq: tensor<16x16xf32>, %wk: tensor<16x4xf32>, %wv: tensor<16x4xf32>, %wo: tensor<16x16xf32>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x8x16xf32> into tensor<16x16xf32>
  %q_e = tensor.empty() : tensor<16x16xf32>
  %q_z = linalg.fill ins(%zero : f32) outs(%q_e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %q = linalg.matmul ins(%c, %wq : tensor<16x16xf32>, tensor<16x16xf32>) outs(%q_z : tensor<16x16xf32>) -> tensor<16x16xf32>
  %k_e = tensor.empty() : tensor<16x4xf32>
  %k_z = linalg.fill ins(%zero : f32) outs(%k_e : tensor<16x4xf32>) -> tensor<16x4xf32>
  %k = linalg.matmul ins(%c, %wk : tensor<16x16xf32>, tensor<16x4xf32>) outs(%k_z : tensor<16x4xf32>) -> tensor<16x4xf32>
  %v_e = tensor.empty() : tensor<16x4xf32>
  %v_z = linalg.fill ins(%zero : f32) outs(%v_e : tensor<16x4xf32>) -> tensor<16x4xf32>
  %v = linalg.matmul ins(%c, %wv : tensor<16x16xf32>, tensor<16x4xf32>) outs(%v_z : tensor<16x4xf32>) -> tensor<16x4xf32>
  %Q4 = tensor.expand_shape %q [[0, 1], [2, 3]] output_shape [2, 8, 4, 4] : tensor<16x16xf32> into tensor<2x8x4x4xf32>
  %Qte = tensor.empty() : tensor<2x4x8x4xf32>
  %Qt = linalg.transpose ins(%Q4 : tensor<2x8x4x4xf32>) outs(%Qte : tensor<2x4x8x4xf32>) permutation = [0, 2, 1, 3]
  %K4 = tensor.expand_shape %k [[0, 1], [2, 3]] output_shape [2, 8, 1, 4] : tensor<16x4xf32> into tensor<2x8x1x4xf32>
  %Kte = tensor.empty() : tensor<2x1x8x4xf32>
  %Kt = linalg.transpose ins(%K4 : tensor<2x8x1x4xf32>) outs(%Kte : tensor<2x1x8x4xf32>) permutation = [0, 2, 1, 3]
  %V4 = tensor.expand_shape %v [[0, 1], [2, 3]] output_shape [2, 8, 1, 4] : tensor<16x4xf32> into tensor<2x8x1x4xf32>
  %Vte = tensor.empty() : tensor<2x1x8x4xf32>
  %Vt = linalg.transpose ins(%V4 : tensor<2x8x1x4xf32>) outs(%Vte : tensor<2x1x8x4xf32>) permutation = [0, 2, 1, 3]
  %Kbe = tensor.empty() : tensor<2x1x4x8x4xf32>
  %Kb = linalg.broadcast ins(%Kt : tensor<2x1x8x4xf32>) outs(%Kbe : tensor<2x1x4x8x4xf32>) dimensions = [2]
  %Kr = tensor.collapse_shape %Kb [[0], [1, 2], [3], [4]] : tensor<2x1x4x8x4xf32> into tensor<2x4x8x4xf32>
  %Vbe = tensor.empty() : tensor<2x1x4x8x4xf32>
  %Vb = linalg.broadcast ins(%Vt : tensor<2x1x8x4xf32>) outs(%Vbe : tensor<2x1x4x8x4xf32>) dimensions = [2]
  %Vr = tensor.collapse_shape %Vb [[0], [1, 2], [3], [4]] : tensor<2x1x4x8x4xf32> into tensor<2x4x8x4xf32>
  %se = tensor.empty() : tensor<2x4x8x8xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%se : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, a, i, j, d) -> (b, a, i, d)>, affine_map<(b, a, i, j, d) -> (b, a, j, d)>, affine_map<(b, a, i, j, d) -> (b, a, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%Qt, %Kr : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>) outs(%sz : tensor<2x4x8x8xf32>) {
  ^bb0(%p: f32, %q2: f32, %o: f32):
    %m1 = arith.mulf %p, %q2 : f32
    %a1 = arith.addf %o, %m1 : f32
    linalg.yield %a1 : f32
  } -> tensor<2x4x8x8xf32>
  %sm = linalg.softmax dimension(3) ins(%sc : tensor<2x4x8x8xf32>) outs(%se : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %oe = tensor.empty() : tensor<2x4x8x4xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x4x8x4xf32>) -> tensor<2x4x8x4xf32>
  %att = linalg.generic {indexing_maps = [affine_map<(b, a, i, d, j) -> (b, a, i, j)>, affine_map<(b, a, i, d, j) -> (b, a, j, d)>, affine_map<(b, a, i, d, j) -> (b, a, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%sm, %Vr : tensor<2x4x8x8xf32>, tensor<2x4x8x4xf32>) outs(%oz : tensor<2x4x8x4xf32>) {
  ^bb0(%p: f32, %q2: f32, %o: f32):
    %m1 = arith.mulf %p, %q2 : f32
    %a1 = arith.addf %o, %m1 : f32
    linalg.yield %a1 : f32
  } -> tensor<2x4x8x4xf32>
  %ate = tensor.empty() : tensor<2x8x4x4xf32>
  %att2 = linalg.transpose ins(%att : tensor<2x4x8x4xf32>) outs(%ate : tensor<2x8x4x4xf32>) permutation = [0, 2, 1, 3]
  %att3 = tensor.collapse_shape %att2 [[0, 1], [2, 3]] : tensor<2x8x4x4xf32> into tensor<16x16xf32>
  %y_e = tensor.empty() : tensor<16x16xf32>
  %y_z = linalg.fill ins(%zero : f32) outs(%y_e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %y = linalg.matmul ins(%att3, %wo : tensor<16x16xf32>, tensor<16x16xf32>) outs(%y_z : tensor<16x16xf32>) -> tensor<16x16xf32>
  %r = tensor.expand_shape %y [[0, 1], [2]] output_shape [2, 8, 16] : tensor<16x16xf32> into tensor<2x8x16xf32>
  %o = arith.addf %r, %x : tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}
