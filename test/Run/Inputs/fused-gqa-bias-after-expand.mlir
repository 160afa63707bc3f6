// A GPT-style layer (b=2, s=8, h=32, 4 query heads, 2 K/V heads of 8) whose
// fused QKV linear [b*s, 64] is restored to [b, s, 64] before its bias add,
// then cut into Q, K, V slices of 32, 16, 16 features (ChatGLM's
// query_key_value). Written by an outside tester; plan-fused-bias-after-reshape.test.
module {
  func.func @forward(%x: tensor<2x8x32xf32>, %l0_ln1_g: tensor<32xf32>, %l0_ln1_b: tensor<32xf32>, %l0_qkv_w: tensor<64x32xf32>, %l0_qkv_b: tensor<64xf32>, %l0_o_w: tensor<32x32xf32>, %l0_o_b: tensor<32xf32>, %l0_ln2_g: tensor<32xf32>, %l0_ln2_b: tensor<32xf32>, %l0_fc1_w: tensor<64x32xf32>, %l0_fc1_b: tensor<64xf32>, %l0_fc2_w: tensor<32x64xf32>, %l0_fc2_b: tensor<32xf32>, %lnf_g: tensor<32xf32>, %lnf_b: tensor<32xf32>) -> (tensor<2x8x32xf32>) {
    %c0f = arith.constant 0.0 : f32
    %c1f = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %inv_h = arith.constant 3.125000000e-02 : f32
    %eps = arith.constant 1.0e-5 : f32
    %scale = arith.constant 3.535533906e-01 : f32
    %c1i = arith.constant 1 : index
    %cbig = arith.constant 1.0e30 : f32
    %e1 = tensor.empty() : tensor<2x8xf32>
    %acc2 = linalg.fill ins(%c0f : f32) outs(%e1 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e5 = tensor.empty() : tensor<2x8xf32>
    %acc4 = linalg.fill ins(%c0f : f32) outs(%e5 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %red3 = linalg.reduce ins(%x : tensor<2x8x32xf32>) outs(%acc4 : tensor<2x8xf32>) dimensions = [2]
      (%a: f32, %c: f32) {
        %s = arith.addf %a, %c : f32
        linalg.yield %s : f32
      }
    %e6 = tensor.empty() : tensor<2x8x32xf32>
    %cen7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %red3 : tensor<2x8x32xf32>, tensor<2x8xf32>) outs(%e6 : tensor<2x8x32xf32>) {
    ^bb0(%in0: f32, %in1: f32, %out: f32):
      %m = arith.mulf %in1, %inv_h : f32
      %r = arith.subf %in0, %m : f32
      linalg.yield %r : f32
    } -> tensor<2x8x32xf32>
    %e8 = tensor.empty() : tensor<2x8x32xf32>
    %sq9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cen7 : tensor<2x8x32xf32>) outs(%e8 : tensor<2x8x32xf32>) {
    ^bb0(%in0: f32, %out: f32):
      %r = arith.mulf %in0, %in0 : f32
      linalg.yield %r : f32
    } -> tensor<2x8x32xf32>
    %e12 = tensor.empty() : tensor<2x8xf32>
    %acc11 = linalg.fill ins(%c0f : f32) outs(%e12 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %red10 = linalg.reduce ins(%sq9 : tensor<2x8x32xf32>) outs(%acc11 : tensor<2x8xf32>) dimensions = [2]
      (%a: f32, %c: f32) {
        %s = arith.addf %a, %c : f32
        linalg.yield %s : f32
      }
    %e13 = tensor.empty() : tensor<2x8x32xf32>
    %ln14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cen7, %red10, %l0_ln1_g, %l0_ln1_b : tensor<2x8x32xf32>, tensor<2x8xf32>, tensor<32xf32>, tensor<32xf32>) outs(%e13 : tensor<2x8x32xf32>) {
    ^bb0(%in0: f32, %in1: f32, %in2: f32, %in3: f32, %out: f32):
      %m = arith.mulf %in1, %inv_h : f32
      %e = arith.addf %m, %eps : f32
      %r = math.rsqrt %e : f32
      %n = arith.mulf %in0, %r : f32
      %o = arith.mulf %n, %in2 : f32
      %o2 = arith.addf %o, %in3 : f32
      linalg.yield %o2 : f32
    } -> tensor<2x8x32xf32>
    %col15 = tensor.collapse_shape %ln14 [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
    %e16 = tensor.empty() : tensor<16x64xf32>
    %z17 = linalg.fill ins(%c0f : f32) outs(%e16 : tensor<16x64xf32>) -> tensor<16x64xf32>
    %mm18 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%col15, %l0_qkv_w : tensor<16x32xf32>, tensor<64x32xf32>) outs(%z17 : tensor<16x64xf32>) -> tensor<16x64xf32>
    %exp19 = tensor.expand_shape %mm18 [[0, 1], [2]] output_shape [2, 8, 64] : tensor<16x64xf32> into tensor<2x8x64xf32>
    %e20 = tensor.empty() : tensor<2x8x64xf32>
    %bias21 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%exp19, %l0_qkv_b : tensor<2x8x64xf32>, tensor<64xf32>) outs(%e20 : tensor<2x8x64xf32>) {
    ^bb0(%in0: f32, %in1: f32, %out: f32):
      %r = arith.addf %in0, %in1 : f32
      linalg.yield %r : f32
    } -> tensor<2x8x64xf32>
    %q22 = tensor.extract_slice %bias21[0, 0, 0] [2, 8, 32] [1, 1, 1] : tensor<2x8x64xf32> to tensor<2x8x32xf32>
    %k23 = tensor.extract_slice %bias21[0, 0, 32] [2, 8, 16] [1, 1, 1] : tensor<2x8x64xf32> to tensor<2x8x16xf32>
    %v24 = tensor.extract_slice %bias21[0, 0, 48] [2, 8, 16] [1, 1, 1] : tensor<2x8x64xf32> to tensor<2x8x16xf32>
    %exp25 = tensor.expand_shape %q22 [[0], [1], [2, 3]] output_shape [2, 8, 4, 8] : tensor<2x8x32xf32> into tensor<2x8x4x8xf32>
    %e26 = tensor.empty() : tensor<2x4x8x8xf32>
    %tr27 = linalg.transpose ins(%exp25 : tensor<2x8x4x8xf32>) outs(%e26 : tensor<2x4x8x8xf32>) permutation = [0, 2, 1, 3]
    %exp28 = tensor.expand_shape %k23 [[0], [1], [2, 3]] output_shape [2, 8, 2, 8] : tensor<2x8x16xf32> into tensor<2x8x2x8xf32>
    %e29 = tensor.empty() : tensor<2x2x8x8xf32>
    %tr30 = linalg.transpose ins(%exp28 : tensor<2x8x2x8xf32>) outs(%e29 : tensor<2x2x8x8xf32>) permutation = [0, 2, 1, 3]
    %exp31 = tensor.expand_shape %v24 [[0], [1], [2, 3]] output_shape [2, 8, 2, 8] : tensor<2x8x16xf32> into tensor<2x8x2x8xf32>
    %e32 = tensor.empty() : tensor<2x2x8x8xf32>
    %tr33 = linalg.transpose ins(%exp31 : tensor<2x8x2x8xf32>) outs(%e32 : tensor<2x2x8x8xf32>) permutation = [0, 2, 1, 3]
    %e34 = tensor.empty() : tensor<2x2x2x8x8xf32>
    %rep35 = linalg.broadcast ins(%tr30 : tensor<2x2x8x8xf32>) outs(%e34 : tensor<2x2x2x8x8xf32>) dimensions = [2]
    %col36 = tensor.collapse_shape %rep35 [[0], [1, 2], [3], [4]] : tensor<2x2x2x8x8xf32> into tensor<2x4x8x8xf32>
    %e37 = tensor.empty() : tensor<2x2x2x8x8xf32>
    %rep38 = linalg.broadcast ins(%tr33 : tensor<2x2x8x8xf32>) outs(%e37 : tensor<2x2x2x8x8xf32>) dimensions = [2]
    %col39 = tensor.collapse_shape %rep38 [[0], [1, 2], [3], [4]] : tensor<2x2x2x8x8xf32> into tensor<2x4x8x8xf32>
    %e40 = tensor.empty() : tensor<2x4x8x8xf32>
    %z41 = linalg.fill ins(%c0f : f32) outs(%e40 : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %sc42 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%tr27, %col36 : tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) outs(%z41 : tensor<2x4x8x8xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %c, %m : f32
      linalg.yield %s : f32
    } -> tensor<2x4x8x8xf32>
    %e43 = tensor.empty() : tensor<2x4x8x8xf32>
    %logit44 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sc42 : tensor<2x4x8x8xf32>) outs(%e43 : tensor<2x4x8x8xf32>) {
    ^bb0(%in0: f32, %out: f32):
      %s = arith.mulf %in0, %scale : f32
      linalg.yield %s : f32
    } -> tensor<2x4x8x8xf32>
    %e45 = tensor.empty() : tensor<2x4x8x8xf32>
    %prob46 = linalg.softmax dimension(3) ins(%logit44 : tensor<2x4x8x8xf32>) outs(%e45 : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %e47 = tensor.empty() : tensor<2x4x8x8xf32>
    %z48 = linalg.fill ins(%c0f : f32) outs(%e47 : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %ctx49 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%prob46, %col39 : tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) outs(%z48 : tensor<2x4x8x8xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %c, %m : f32
      linalg.yield %s : f32
    } -> tensor<2x4x8x8xf32>
    %e50 = tensor.empty() : tensor<2x8x4x8xf32>
    %tr51 = linalg.transpose ins(%ctx49 : tensor<2x4x8x8xf32>) outs(%e50 : tensor<2x8x4x8xf32>) permutation = [0, 2, 1, 3]
    %col52 = tensor.collapse_shape %tr51 [[0], [1], [2, 3]] : tensor<2x8x4x8xf32> into tensor<2x8x32xf32>
    %col53 = tensor.collapse_shape %col52 [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
    %e54 = tensor.empty() : tensor<16x32xf32>
    %z55 = linalg.fill ins(%c0f : f32) outs(%e54 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %mm56 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%col53, %l0_o_w : tensor<16x32xf32>, tensor<32x32xf32>) outs(%z55 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %exp57 = tensor.expand_shape %mm56 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
    %e58 = tensor.empty() : tensor<2x8x32xf32>
    %bias59 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%exp57, %l0_o_b : tensor<2x8x32xf32>, tensor<32xf32>) outs(%e58 : tensor<2x8x32xf32>) {
    ^bb0(%in0: f32, %in1: f32, %out: f32):
      %r = arith.addf %in0, %in1 : f32
      linalg.yield %r : f32
    } -> tensor<2x8x32xf32>
    %e60 = tensor.empty() : tensor<2x8x32xf32>
    %add61 = linalg.add ins(%x, %bias59 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%e60 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %e62 = tensor.empty() : tensor<2x8xf32>
    %acc63 = linalg.fill ins(%c0f : f32) outs(%e62 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e66 = tensor.empty() : tensor<2x8xf32>
    %acc65 = linalg.fill ins(%c0f : f32) outs(%e66 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %red64 = linalg.reduce ins(%add61 : tensor<2x8x32xf32>) outs(%acc65 : tensor<2x8xf32>) dimensions = [2]
      (%a: f32, %c: f32) {
        %s = arith.addf %a, %c : f32
        linalg.yield %s : f32
      }
    %e67 = tensor.empty() : tensor<2x8x32xf32>
    %cen68 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%add61, %red64 : tensor<2x8x32xf32>, tensor<2x8xf32>) outs(%e67 : tensor<2x8x32xf32>) {
    ^bb0(%in0: f32, %in1: f32, %out: f32):
      %m = arith.mulf %in1, %inv_h : f32
      %r = arith.subf %in0, %m : f32
      linalg.yield %r : f32
    } -> tensor<2x8x32xf32>
    %e69 = tensor.empty() : tensor<2x8x32xf32>
    %sq70 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cen68 : tensor<2x8x32xf32>) outs(%e69 : tensor<2x8x32xf32>) {
    ^bb0(%in0: f32, %out: f32):
      %r = arith.mulf %in0, %in0 : f32
      linalg.yield %r : f32
    } -> tensor<2x8x32xf32>
    %e73 = tensor.empty() : tensor<2x8xf32>
    %acc72 = linalg.fill ins(%c0f : f32) outs(%e73 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %red71 = linalg.reduce ins(%sq70 : tensor<2x8x32xf32>) outs(%acc72 : tensor<2x8xf32>) dimensions = [2]
      (%a: f32, %c: f32) {
        %s = arith.addf %a, %c : f32
        linalg.yield %s : f32
      }
    %e74 = tensor.empty() : tensor<2x8x32xf32>
    %ln75 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cen68, %red71, %l0_ln2_g, %l0_ln2_b : tensor<2x8x32xf32>, tensor<2x8xf32>, tensor<32xf32>, tensor<32xf32>) outs(%e74 : tensor<2x8x32xf32>) {
    ^bb0(%in0: f32, %in1: f32, %in2: f32, %in3: f32, %out: f32):
      %m = arith.mulf %in1, %inv_h : f32
      %e = arith.addf %m, %eps : f32
      %r = math.rsqrt %e : f32
      %n = arith.mulf %in0, %r : f32
      %o = arith.mulf %n, %in2 : f32
      %o2 = arith.addf %o, %in3 : f32
      linalg.yield %o2 : f32
    } -> tensor<2x8x32xf32>
    %col76 = tensor.collapse_shape %ln75 [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
    %e77 = tensor.empty() : tensor<16x64xf32>
    %z78 = linalg.fill ins(%c0f : f32) outs(%e77 : tensor<16x64xf32>) -> tensor<16x64xf32>
    %mm79 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%col76, %l0_fc1_w : tensor<16x32xf32>, tensor<64x32xf32>) outs(%z78 : tensor<16x64xf32>) -> tensor<16x64xf32>
    %exp80 = tensor.expand_shape %mm79 [[0, 1], [2]] output_shape [2, 8, 64] : tensor<16x64xf32> into tensor<2x8x64xf32>
    %e81 = tensor.empty() : tensor<2x8x64xf32>
    %bias82 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%exp80, %l0_fc1_b : tensor<2x8x64xf32>, tensor<64xf32>) outs(%e81 : tensor<2x8x64xf32>) {
    ^bb0(%in0: f32, %in1: f32, %out: f32):
      %r = arith.addf %in0, %in1 : f32
      linalg.yield %r : f32
    } -> tensor<2x8x64xf32>
    %e83 = tensor.empty() : tensor<2x8x64xf32>
    %gelu84 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bias82 : tensor<2x8x64xf32>) outs(%e83 : tensor<2x8x64xf32>) {
    ^bb0(%in0: f32, %out: f32):
      %t = math.tanh %in0 : f32
      %p = arith.addf %t, %c1f : f32
      %q = arith.mulf %in0, %p : f32
      %r = arith.mulf %q, %half : f32
      linalg.yield %r : f32
    } -> tensor<2x8x64xf32>
    %col85 = tensor.collapse_shape %gelu84 [[0, 1], [2]] : tensor<2x8x64xf32> into tensor<16x64xf32>
    %e86 = tensor.empty() : tensor<16x32xf32>
    %z87 = linalg.fill ins(%c0f : f32) outs(%e86 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %mm88 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%col85, %l0_fc2_w : tensor<16x64xf32>, tensor<32x64xf32>) outs(%z87 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %exp89 = tensor.expand_shape %mm88 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
    %e90 = tensor.empty() : tensor<2x8x32xf32>
    %bias91 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%exp89, %l0_fc2_b : tensor<2x8x32xf32>, tensor<32xf32>) outs(%e90 : tensor<2x8x32xf32>) {
    ^bb0(%in0: f32, %in1: f32, %out: f32):
      %r = arith.addf %in0, %in1 : f32
      linalg.yield %r : f32
    } -> tensor<2x8x32xf32>
    %e92 = tensor.empty() : tensor<2x8x32xf32>
    %add93 = linalg.add ins(%add61, %bias91 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%e92 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %e94 = tensor.empty() : tensor<2x8xf32>
    %acc95 = linalg.fill ins(%c0f : f32) outs(%e94 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e98 = tensor.empty() : tensor<2x8xf32>
    %acc97 = linalg.fill ins(%c0f : f32) outs(%e98 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %red96 = linalg.reduce ins(%add93 : tensor<2x8x32xf32>) outs(%acc97 : tensor<2x8xf32>) dimensions = [2]
      (%a: f32, %c: f32) {
        %s = arith.addf %a, %c : f32
        linalg.yield %s : f32
      }
    %e99 = tensor.empty() : tensor<2x8x32xf32>
    %cen100 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%add93, %red96 : tensor<2x8x32xf32>, tensor<2x8xf32>) outs(%e99 : tensor<2x8x32xf32>) {
    ^bb0(%in0: f32, %in1: f32, %out: f32):
      %m = arith.mulf %in1, %inv_h : f32
      %r = arith.subf %in0, %m : f32
      linalg.yield %r : f32
    } -> tensor<2x8x32xf32>
    %e101 = tensor.empty() : tensor<2x8x32xf32>
    %sq102 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cen100 : tensor<2x8x32xf32>) outs(%e101 : tensor<2x8x32xf32>) {
    ^bb0(%in0: f32, %out: f32):
      %r = arith.mulf %in0, %in0 : f32
      linalg.yield %r : f32
    } -> tensor<2x8x32xf32>
    %e105 = tensor.empty() : tensor<2x8xf32>
    %acc104 = linalg.fill ins(%c0f : f32) outs(%e105 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %red103 = linalg.reduce ins(%sq102 : tensor<2x8x32xf32>) outs(%acc104 : tensor<2x8xf32>) dimensions = [2]
      (%a: f32, %c: f32) {
        %s = arith.addf %a, %c : f32
        linalg.yield %s : f32
      }
    %e106 = tensor.empty() : tensor<2x8x32xf32>
    %ln107 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cen100, %red103, %lnf_g, %lnf_b : tensor<2x8x32xf32>, tensor<2x8xf32>, tensor<32xf32>, tensor<32xf32>) outs(%e106 : tensor<2x8x32xf32>) {
    ^bb0(%in0: f32, %in1: f32, %in2: f32, %in3: f32, %out: f32):
      %m = arith.mulf %in1, %inv_h : f32
      %e = arith.addf %m, %eps : f32
      %r = math.rsqrt %e : f32
      %n = arith.mulf %in0, %r : f32
      %o = arith.mulf %n, %in2 : f32
      %o2 = arith.addf %o, %in3 : f32
      linalg.yield %o2 : f32
    } -> tensor<2x8x32xf32>
    return %ln107 : tensor<2x8x32xf32>
  }
}
