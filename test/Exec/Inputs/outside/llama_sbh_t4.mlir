// Llama block in [s, b, h], linears on [s*b, h], RMSNorm, SwiGLU, iota RoPE, GQA: per-rank TP program, t=4.
module {
  shard.grid @grid(shape = 4) {sym_visibility = "private"}
  func.func @forward(
      %x: tensor<8x2x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>, seqpar.seq_dim = 0 : i64},
      %l0_attn_norm_g: tensor<32xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l0_w_q: tensor<32x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l0_w_k: tensor<32x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l0_w_v: tensor<32x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l0_w_o: tensor<8x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l0_mlp_norm_g: tensor<32xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l0_w_gate: tensor<32x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l0_w_up: tensor<32x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l0_w_down: tensor<16x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %norm_g: tensor<32xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
      -> (tensor<8x2x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
    %e1 = tensor.empty() : tensor<8xf32>
    %pos2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e1 : tensor<8xf32>) {
    ^bb0(%o3: f32):
      %i3 = linalg.index 0 : index
      %ii3 = arith.index_cast %i3 : index to i64
      %fp3 = arith.sitofp %ii3 : i64 to f32
      linalg.yield %fp3 : f32
    } -> tensor<8xf32>
    %inv_freq = arith.constant dense<[1.000000000e+00, 1.000000000e-02]> : tensor<2xf32>
    %e4 = tensor.empty() : tensor<8x2xf32>
    %ang5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%pos2, %inv_freq : tensor<8xf32>, tensor<2xf32>) outs(%e4 : tensor<8x2xf32>) {
    ^bb0(%a6: f32, %a7: f32, %o8: f32):
      %m8 = arith.mulf %a6, %a7 : f32
      linalg.yield %m8 : f32
    } -> tensor<8x2xf32>
    %e9 = tensor.empty() : tensor<8x2xf32>
    %cos10 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ang5 : tensor<8x2xf32>) outs(%e9 : tensor<8x2xf32>) {
    ^bb0(%a11: f32, %o12: f32):
      %c12 = math.cos %a11 : f32
      linalg.yield %c12 : f32
    } -> tensor<8x2xf32>
    %e13 = tensor.empty() : tensor<8x2xf32>
    %sin14 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ang5 : tensor<8x2xf32>) outs(%e13 : tensor<8x2xf32>) {
    ^bb0(%a15: f32, %o16: f32):
      %s16 = math.sin %a15 : f32
      linalg.yield %s16 : f32
    } -> tensor<8x2xf32>
    %c17 = arith.constant 0.000000000e+00 : f32
    %e18 = tensor.empty() : tensor<8x2xf32>
    %f19 = linalg.fill ins(%c17 : f32) outs(%e18 : tensor<8x2xf32>) -> tensor<8x2xf32>
    %ss20 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<8x2x32xf32>) outs(%f19 : tensor<8x2xf32>) {
    ^bb0(%a21: f32, %o22: f32):
      %sq22 = arith.mulf %a21, %a21 : f32
      %ad22 = arith.addf %o22, %sq22 : f32
      linalg.yield %ad22 : f32
    } -> tensor<8x2xf32>
    %e23 = tensor.empty() : tensor<8x2x32xf32>
    %rms24 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %ss20, %l0_attn_norm_g : tensor<8x2x32xf32>, tensor<8x2xf32>, tensor<32xf32>) outs(%e23 : tensor<8x2x32xf32>) {
    ^bb0(%a25: f32, %a26: f32, %a27: f32, %o28: f32):
      %ic28 = arith.constant 3.125000000e-02 : f32
      %ms28 = arith.mulf %a26, %ic28 : f32
      %ep28 = arith.constant 1.000000000e-06 : f32
      %me28 = arith.addf %ms28, %ep28 : f32
      %rs28 = math.rsqrt %me28 : f32
      %y28 = arith.mulf %a25, %rs28 : f32
      %z28 = arith.mulf %y28, %a27 : f32
      linalg.yield %z28 : f32
    } -> tensor<8x2x32xf32>
    %cl29 = tensor.collapse_shape %rms24 [[0, 1], [2]] : tensor<8x2x32xf32> into tensor<16x32xf32>
    %c30 = arith.constant 0.000000000e+00 : f32
    %e31 = tensor.empty() : tensor<16x8xf32>
    %f32 = linalg.fill ins(%c30 : f32) outs(%e31 : tensor<16x8xf32>) -> tensor<16x8xf32>
    %mm33 = linalg.matmul ins(%cl29, %l0_w_q : tensor<16x32xf32>, tensor<32x8xf32>) outs(%f32 : tensor<16x8xf32>) -> tensor<16x8xf32>
    %ex34 = tensor.expand_shape %mm33 [[0, 1], [2]] output_shape [8, 2, 8] : tensor<16x8xf32> into tensor<8x2x8xf32>
    %ex35 = tensor.expand_shape %ex34 [[0], [1], [2, 3]] output_shape [8, 2, 2, 4] : tensor<8x2x8xf32> into tensor<8x2x2x4xf32>
    %cl36 = tensor.collapse_shape %rms24 [[0, 1], [2]] : tensor<8x2x32xf32> into tensor<16x32xf32>
    %c37 = arith.constant 0.000000000e+00 : f32
    %e38 = tensor.empty() : tensor<16x4xf32>
    %f39 = linalg.fill ins(%c37 : f32) outs(%e38 : tensor<16x4xf32>) -> tensor<16x4xf32>
    %mm40 = linalg.matmul ins(%cl36, %l0_w_k : tensor<16x32xf32>, tensor<32x4xf32>) outs(%f39 : tensor<16x4xf32>) -> tensor<16x4xf32>
    %ex41 = tensor.expand_shape %mm40 [[0, 1], [2]] output_shape [8, 2, 4] : tensor<16x4xf32> into tensor<8x2x4xf32>
    %ex42 = tensor.expand_shape %ex41 [[0], [1], [2, 3]] output_shape [8, 2, 1, 4] : tensor<8x2x4xf32> into tensor<8x2x1x4xf32>
    %cl43 = tensor.collapse_shape %rms24 [[0, 1], [2]] : tensor<8x2x32xf32> into tensor<16x32xf32>
    %c44 = arith.constant 0.000000000e+00 : f32
    %e45 = tensor.empty() : tensor<16x4xf32>
    %f46 = linalg.fill ins(%c44 : f32) outs(%e45 : tensor<16x4xf32>) -> tensor<16x4xf32>
    %mm47 = linalg.matmul ins(%cl43, %l0_w_v : tensor<16x32xf32>, tensor<32x4xf32>) outs(%f46 : tensor<16x4xf32>) -> tensor<16x4xf32>
    %ex48 = tensor.expand_shape %mm47 [[0, 1], [2]] output_shape [8, 2, 4] : tensor<16x4xf32> into tensor<8x2x4xf32>
    %ex49 = tensor.expand_shape %ex48 [[0], [1], [2, 3]] output_shape [8, 2, 1, 4] : tensor<8x2x4xf32> into tensor<8x2x1x4xf32>
    %sl50 = tensor.extract_slice %ex35[0, 0, 0, 0] [8, 2, 2, 2] [1, 1, 1, 1] : tensor<8x2x2x4xf32> to tensor<8x2x2x2xf32>
    %sl51 = tensor.extract_slice %ex35[0, 0, 0, 2] [8, 2, 2, 2] [1, 1, 1, 1] : tensor<8x2x2x4xf32> to tensor<8x2x2x2xf32>
    %e52 = tensor.empty() : tensor<8x2x2x2xf32>
    %rl53 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sl50, %sl51, %cos10, %sin14 : tensor<8x2x2x2xf32>, tensor<8x2x2x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>) outs(%e52 : tensor<8x2x2x2xf32>) {
    ^bb0(%a54: f32, %a55: f32, %a56: f32, %a57: f32, %o58: f32):
      %p58 = arith.mulf %a54, %a56 : f32
      %q58 = arith.mulf %a55, %a57 : f32
      %r58 = arith.subf %p58, %q58 : f32
      linalg.yield %r58 : f32
    } -> tensor<8x2x2x2xf32>
    %e59 = tensor.empty() : tensor<8x2x2x2xf32>
    %rh60 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sl50, %sl51, %cos10, %sin14 : tensor<8x2x2x2xf32>, tensor<8x2x2x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>) outs(%e59 : tensor<8x2x2x2xf32>) {
    ^bb0(%a61: f32, %a62: f32, %a63: f32, %a64: f32, %o65: f32):
      %p65 = arith.mulf %a62, %a63 : f32
      %q65 = arith.mulf %a61, %a64 : f32
      %r65 = arith.addf %p65, %q65 : f32
      linalg.yield %r65 : f32
    } -> tensor<8x2x2x2xf32>
    %cat66 = tensor.concat dim(3) %rl53, %rh60 : (tensor<8x2x2x2xf32>, tensor<8x2x2x2xf32>) -> tensor<8x2x2x4xf32>
    %sl67 = tensor.extract_slice %ex42[0, 0, 0, 0] [8, 2, 1, 2] [1, 1, 1, 1] : tensor<8x2x1x4xf32> to tensor<8x2x1x2xf32>
    %sl68 = tensor.extract_slice %ex42[0, 0, 0, 2] [8, 2, 1, 2] [1, 1, 1, 1] : tensor<8x2x1x4xf32> to tensor<8x2x1x2xf32>
    %e69 = tensor.empty() : tensor<8x2x1x2xf32>
    %rl70 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sl67, %sl68, %cos10, %sin14 : tensor<8x2x1x2xf32>, tensor<8x2x1x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>) outs(%e69 : tensor<8x2x1x2xf32>) {
    ^bb0(%a71: f32, %a72: f32, %a73: f32, %a74: f32, %o75: f32):
      %p75 = arith.mulf %a71, %a73 : f32
      %q75 = arith.mulf %a72, %a74 : f32
      %r75 = arith.subf %p75, %q75 : f32
      linalg.yield %r75 : f32
    } -> tensor<8x2x1x2xf32>
    %e76 = tensor.empty() : tensor<8x2x1x2xf32>
    %rh77 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sl67, %sl68, %cos10, %sin14 : tensor<8x2x1x2xf32>, tensor<8x2x1x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>) outs(%e76 : tensor<8x2x1x2xf32>) {
    ^bb0(%a78: f32, %a79: f32, %a80: f32, %a81: f32, %o82: f32):
      %p82 = arith.mulf %a79, %a80 : f32
      %q82 = arith.mulf %a78, %a81 : f32
      %r82 = arith.addf %p82, %q82 : f32
      linalg.yield %r82 : f32
    } -> tensor<8x2x1x2xf32>
    %cat83 = tensor.concat dim(3) %rl70, %rh77 : (tensor<8x2x1x2xf32>, tensor<8x2x1x2xf32>) -> tensor<8x2x1x4xf32>
    %e84 = tensor.empty() : tensor<2x2x8x4xf32>
    %tr85 = linalg.transpose ins(%cat66 : tensor<8x2x2x4xf32>) outs(%e84 : tensor<2x2x8x4xf32>) permutation = [1, 2, 0, 3]
    %cl86 = tensor.collapse_shape %tr85 [[0, 1], [2], [3]] : tensor<2x2x8x4xf32> into tensor<4x8x4xf32>
    %e87 = tensor.empty() : tensor<8x2x1x2x4xf32>
    %bc88 = linalg.broadcast ins(%cat83 : tensor<8x2x1x4xf32>) outs(%e87 : tensor<8x2x1x2x4xf32>) dimensions = [3]
    %cl89 = tensor.collapse_shape %bc88 [[0], [1], [2, 3], [4]] : tensor<8x2x1x2x4xf32> into tensor<8x2x2x4xf32>
    %e90 = tensor.empty() : tensor<2x2x8x4xf32>
    %tr91 = linalg.transpose ins(%cl89 : tensor<8x2x2x4xf32>) outs(%e90 : tensor<2x2x8x4xf32>) permutation = [1, 2, 0, 3]
    %cl92 = tensor.collapse_shape %tr91 [[0, 1], [2], [3]] : tensor<2x2x8x4xf32> into tensor<4x8x4xf32>
    %e93 = tensor.empty() : tensor<8x2x1x2x4xf32>
    %bc94 = linalg.broadcast ins(%ex49 : tensor<8x2x1x4xf32>) outs(%e93 : tensor<8x2x1x2x4xf32>) dimensions = [3]
    %cl95 = tensor.collapse_shape %bc94 [[0], [1], [2, 3], [4]] : tensor<8x2x1x2x4xf32> into tensor<8x2x2x4xf32>
    %e96 = tensor.empty() : tensor<2x2x8x4xf32>
    %tr97 = linalg.transpose ins(%cl95 : tensor<8x2x2x4xf32>) outs(%e96 : tensor<2x2x8x4xf32>) permutation = [1, 2, 0, 3]
    %cl98 = tensor.collapse_shape %tr97 [[0, 1], [2], [3]] : tensor<2x2x8x4xf32> into tensor<4x8x4xf32>
    %c99 = arith.constant 0.000000000e+00 : f32
    %e100 = tensor.empty() : tensor<4x8x8xf32>
    %f101 = linalg.fill ins(%c99 : f32) outs(%e100 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %sc102 = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%cl86, %cl92 : tensor<4x8x4xf32>, tensor<4x8x4xf32>) outs(%f101 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %e103 = tensor.empty() : tensor<4x8x8xf32>
    %masked104 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sc102 : tensor<4x8x8xf32>) outs(%e103 : tensor<4x8x8xf32>) {
    ^bb0(%a105: f32, %o106: f32):
      %qi106 = linalg.index 1 : index
      %ki106 = linalg.index 2 : index
      %ok106 = arith.cmpi ule, %ki106, %qi106 : index
      %sc106 = arith.constant 5.000000000e-01 : f32
      %v106 = arith.mulf %a105, %sc106 : f32
      %ninf106 = arith.constant -1.0e+30 : f32
      %r106 = arith.select %ok106, %v106, %ninf106 : f32
      linalg.yield %r106 : f32
    } -> tensor<4x8x8xf32>
    %e107 = tensor.empty() : tensor<4x8x8xf32>
    %sm108 = linalg.softmax dimension(2) ins(%masked104 : tensor<4x8x8xf32>) outs(%e107 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %c109 = arith.constant 0.000000000e+00 : f32
    %e110 = tensor.empty() : tensor<4x8x4xf32>
    %f111 = linalg.fill ins(%c109 : f32) outs(%e110 : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
    %mm112 = linalg.batch_matmul ins(%sm108, %cl98 : tensor<4x8x8xf32>, tensor<4x8x4xf32>) outs(%f111 : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
    %ex113 = tensor.expand_shape %mm112 [[0, 1], [2], [3]] output_shape [2, 2, 8, 4] : tensor<4x8x4xf32> into tensor<2x2x8x4xf32>
    %e114 = tensor.empty() : tensor<8x2x2x4xf32>
    %tr115 = linalg.transpose ins(%ex113 : tensor<2x2x8x4xf32>) outs(%e114 : tensor<8x2x2x4xf32>) permutation = [2, 0, 1, 3]
    %cl116 = tensor.collapse_shape %tr115 [[0], [1], [2, 3]] : tensor<8x2x2x4xf32> into tensor<8x2x8xf32>
    %cl117 = tensor.collapse_shape %cl116 [[0, 1], [2]] : tensor<8x2x8xf32> into tensor<16x8xf32>
    %c118 = arith.constant 0.000000000e+00 : f32
    %e119 = tensor.empty() : tensor<16x32xf32>
    %f120 = linalg.fill ins(%c118 : f32) outs(%e119 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %mm121 = linalg.matmul ins(%cl117, %l0_w_o : tensor<16x8xf32>, tensor<8x32xf32>) outs(%f120 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %ar122 = shard.all_reduce %mm121 on @grid grid_axes = [0] : tensor<16x32xf32> -> tensor<16x32xf32>
    %ex123 = tensor.expand_shape %ar122 [[0, 1], [2]] output_shape [8, 2, 32] : tensor<16x32xf32> into tensor<8x2x32xf32>
    %e124 = tensor.empty() : tensor<8x2x32xf32>
    %g125 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %ex123 : tensor<8x2x32xf32>, tensor<8x2x32xf32>) outs(%e124 : tensor<8x2x32xf32>) {
    ^bb0(%a126: f32, %a127: f32, %o128: f32):
      %r128 = arith.addf %a126, %a127 : f32
      linalg.yield %r128 : f32
    } -> tensor<8x2x32xf32>
    %c129 = arith.constant 0.000000000e+00 : f32
    %e130 = tensor.empty() : tensor<8x2xf32>
    %f131 = linalg.fill ins(%c129 : f32) outs(%e130 : tensor<8x2xf32>) -> tensor<8x2xf32>
    %ss132 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%g125 : tensor<8x2x32xf32>) outs(%f131 : tensor<8x2xf32>) {
    ^bb0(%a133: f32, %o134: f32):
      %sq134 = arith.mulf %a133, %a133 : f32
      %ad134 = arith.addf %o134, %sq134 : f32
      linalg.yield %ad134 : f32
    } -> tensor<8x2xf32>
    %e135 = tensor.empty() : tensor<8x2x32xf32>
    %rms136 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g125, %ss132, %l0_mlp_norm_g : tensor<8x2x32xf32>, tensor<8x2xf32>, tensor<32xf32>) outs(%e135 : tensor<8x2x32xf32>) {
    ^bb0(%a137: f32, %a138: f32, %a139: f32, %o140: f32):
      %ic140 = arith.constant 3.125000000e-02 : f32
      %ms140 = arith.mulf %a138, %ic140 : f32
      %ep140 = arith.constant 1.000000000e-06 : f32
      %me140 = arith.addf %ms140, %ep140 : f32
      %rs140 = math.rsqrt %me140 : f32
      %y140 = arith.mulf %a137, %rs140 : f32
      %z140 = arith.mulf %y140, %a139 : f32
      linalg.yield %z140 : f32
    } -> tensor<8x2x32xf32>
    %cl141 = tensor.collapse_shape %rms136 [[0, 1], [2]] : tensor<8x2x32xf32> into tensor<16x32xf32>
    %c142 = arith.constant 0.000000000e+00 : f32
    %e143 = tensor.empty() : tensor<16x16xf32>
    %f144 = linalg.fill ins(%c142 : f32) outs(%e143 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %mm145 = linalg.matmul ins(%cl141, %l0_w_gate : tensor<16x32xf32>, tensor<32x16xf32>) outs(%f144 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %ex146 = tensor.expand_shape %mm145 [[0, 1], [2]] output_shape [8, 2, 16] : tensor<16x16xf32> into tensor<8x2x16xf32>
    %cl147 = tensor.collapse_shape %rms136 [[0, 1], [2]] : tensor<8x2x32xf32> into tensor<16x32xf32>
    %c148 = arith.constant 0.000000000e+00 : f32
    %e149 = tensor.empty() : tensor<16x16xf32>
    %f150 = linalg.fill ins(%c148 : f32) outs(%e149 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %mm151 = linalg.matmul ins(%cl147, %l0_w_up : tensor<16x32xf32>, tensor<32x16xf32>) outs(%f150 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %ex152 = tensor.expand_shape %mm151 [[0, 1], [2]] output_shape [8, 2, 16] : tensor<16x16xf32> into tensor<8x2x16xf32>
    %e153 = tensor.empty() : tensor<8x2x16xf32>
    %swi154 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex146, %ex152 : tensor<8x2x16xf32>, tensor<8x2x16xf32>) outs(%e153 : tensor<8x2x16xf32>) {
    ^bb0(%a155: f32, %a156: f32, %o157: f32):
      %n157 = arith.negf %a155 : f32
      %e157 = math.exp %n157 : f32
      %one157 = arith.constant 1.0 : f32
      %d157 = arith.addf %e157, %one157 : f32
      %s157 = arith.divf %a155, %d157 : f32
      %r157 = arith.mulf %s157, %a156 : f32
      linalg.yield %r157 : f32
    } -> tensor<8x2x16xf32>
    %cl158 = tensor.collapse_shape %swi154 [[0, 1], [2]] : tensor<8x2x16xf32> into tensor<16x16xf32>
    %c159 = arith.constant 0.000000000e+00 : f32
    %e160 = tensor.empty() : tensor<16x32xf32>
    %f161 = linalg.fill ins(%c159 : f32) outs(%e160 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %mm162 = linalg.matmul ins(%cl158, %l0_w_down : tensor<16x16xf32>, tensor<16x32xf32>) outs(%f161 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %ar163 = shard.all_reduce %mm162 on @grid grid_axes = [0] : tensor<16x32xf32> -> tensor<16x32xf32>
    %ex164 = tensor.expand_shape %ar163 [[0, 1], [2]] output_shape [8, 2, 32] : tensor<16x32xf32> into tensor<8x2x32xf32>
    %e165 = tensor.empty() : tensor<8x2x32xf32>
    %g166 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g125, %ex164 : tensor<8x2x32xf32>, tensor<8x2x32xf32>) outs(%e165 : tensor<8x2x32xf32>) {
    ^bb0(%a167: f32, %a168: f32, %o169: f32):
      %r169 = arith.addf %a167, %a168 : f32
      linalg.yield %r169 : f32
    } -> tensor<8x2x32xf32>
    %c170 = arith.constant 0.000000000e+00 : f32
    %e171 = tensor.empty() : tensor<8x2xf32>
    %f172 = linalg.fill ins(%c170 : f32) outs(%e171 : tensor<8x2xf32>) -> tensor<8x2xf32>
    %ss173 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%g166 : tensor<8x2x32xf32>) outs(%f172 : tensor<8x2xf32>) {
    ^bb0(%a174: f32, %o175: f32):
      %sq175 = arith.mulf %a174, %a174 : f32
      %ad175 = arith.addf %o175, %sq175 : f32
      linalg.yield %ad175 : f32
    } -> tensor<8x2xf32>
    %e176 = tensor.empty() : tensor<8x2x32xf32>
    %rms177 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g166, %ss173, %norm_g : tensor<8x2x32xf32>, tensor<8x2xf32>, tensor<32xf32>) outs(%e176 : tensor<8x2x32xf32>) {
    ^bb0(%a178: f32, %a179: f32, %a180: f32, %o181: f32):
      %ic181 = arith.constant 3.125000000e-02 : f32
      %ms181 = arith.mulf %a179, %ic181 : f32
      %ep181 = arith.constant 1.000000000e-06 : f32
      %me181 = arith.addf %ms181, %ep181 : f32
      %rs181 = math.rsqrt %me181 : f32
      %y181 = arith.mulf %a178, %rs181 : f32
      %z181 = arith.mulf %y181, %a180 : f32
      linalg.yield %z181 : f32
    } -> tensor<8x2x32xf32>
    return %rms177 : tensor<8x2x32xf32>
  }
}
