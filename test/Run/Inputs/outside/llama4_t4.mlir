// Hand-written per-rank program (written outside the project generator; see README.md).
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
      %l1_attn_norm_g: tensor<32xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l1_w_q: tensor<32x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l1_w_k: tensor<32x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l1_w_v: tensor<32x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l1_w_o: tensor<8x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l1_mlp_norm_g: tensor<32xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l1_w_gate: tensor<32x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l1_w_up: tensor<32x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l1_w_down: tensor<16x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l2_attn_norm_g: tensor<32xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l2_w_q: tensor<32x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l2_w_k: tensor<32x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l2_w_v: tensor<32x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l2_w_o: tensor<8x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l2_mlp_norm_g: tensor<32xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l2_w_gate: tensor<32x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l2_w_up: tensor<32x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l2_w_down: tensor<16x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l3_attn_norm_g: tensor<32xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l3_w_q: tensor<32x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l3_w_k: tensor<32x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l3_w_v: tensor<32x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l3_w_o: tensor<8x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l3_mlp_norm_g: tensor<32xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l3_w_gate: tensor<32x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l3_w_up: tensor<32x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l3_w_down: tensor<16x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
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
    %rms177 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g166, %ss173, %l1_attn_norm_g : tensor<8x2x32xf32>, tensor<8x2xf32>, tensor<32xf32>) outs(%e176 : tensor<8x2x32xf32>) {
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
    %cl182 = tensor.collapse_shape %rms177 [[0, 1], [2]] : tensor<8x2x32xf32> into tensor<16x32xf32>
    %c183 = arith.constant 0.000000000e+00 : f32
    %e184 = tensor.empty() : tensor<16x8xf32>
    %f185 = linalg.fill ins(%c183 : f32) outs(%e184 : tensor<16x8xf32>) -> tensor<16x8xf32>
    %mm186 = linalg.matmul ins(%cl182, %l1_w_q : tensor<16x32xf32>, tensor<32x8xf32>) outs(%f185 : tensor<16x8xf32>) -> tensor<16x8xf32>
    %ex187 = tensor.expand_shape %mm186 [[0, 1], [2]] output_shape [8, 2, 8] : tensor<16x8xf32> into tensor<8x2x8xf32>
    %ex188 = tensor.expand_shape %ex187 [[0], [1], [2, 3]] output_shape [8, 2, 2, 4] : tensor<8x2x8xf32> into tensor<8x2x2x4xf32>
    %cl189 = tensor.collapse_shape %rms177 [[0, 1], [2]] : tensor<8x2x32xf32> into tensor<16x32xf32>
    %c190 = arith.constant 0.000000000e+00 : f32
    %e191 = tensor.empty() : tensor<16x4xf32>
    %f192 = linalg.fill ins(%c190 : f32) outs(%e191 : tensor<16x4xf32>) -> tensor<16x4xf32>
    %mm193 = linalg.matmul ins(%cl189, %l1_w_k : tensor<16x32xf32>, tensor<32x4xf32>) outs(%f192 : tensor<16x4xf32>) -> tensor<16x4xf32>
    %ex194 = tensor.expand_shape %mm193 [[0, 1], [2]] output_shape [8, 2, 4] : tensor<16x4xf32> into tensor<8x2x4xf32>
    %ex195 = tensor.expand_shape %ex194 [[0], [1], [2, 3]] output_shape [8, 2, 1, 4] : tensor<8x2x4xf32> into tensor<8x2x1x4xf32>
    %cl196 = tensor.collapse_shape %rms177 [[0, 1], [2]] : tensor<8x2x32xf32> into tensor<16x32xf32>
    %c197 = arith.constant 0.000000000e+00 : f32
    %e198 = tensor.empty() : tensor<16x4xf32>
    %f199 = linalg.fill ins(%c197 : f32) outs(%e198 : tensor<16x4xf32>) -> tensor<16x4xf32>
    %mm200 = linalg.matmul ins(%cl196, %l1_w_v : tensor<16x32xf32>, tensor<32x4xf32>) outs(%f199 : tensor<16x4xf32>) -> tensor<16x4xf32>
    %ex201 = tensor.expand_shape %mm200 [[0, 1], [2]] output_shape [8, 2, 4] : tensor<16x4xf32> into tensor<8x2x4xf32>
    %ex202 = tensor.expand_shape %ex201 [[0], [1], [2, 3]] output_shape [8, 2, 1, 4] : tensor<8x2x4xf32> into tensor<8x2x1x4xf32>
    %sl203 = tensor.extract_slice %ex188[0, 0, 0, 0] [8, 2, 2, 2] [1, 1, 1, 1] : tensor<8x2x2x4xf32> to tensor<8x2x2x2xf32>
    %sl204 = tensor.extract_slice %ex188[0, 0, 0, 2] [8, 2, 2, 2] [1, 1, 1, 1] : tensor<8x2x2x4xf32> to tensor<8x2x2x2xf32>
    %e205 = tensor.empty() : tensor<8x2x2x2xf32>
    %rl206 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sl203, %sl204, %cos10, %sin14 : tensor<8x2x2x2xf32>, tensor<8x2x2x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>) outs(%e205 : tensor<8x2x2x2xf32>) {
    ^bb0(%a207: f32, %a208: f32, %a209: f32, %a210: f32, %o211: f32):
      %p211 = arith.mulf %a207, %a209 : f32
      %q211 = arith.mulf %a208, %a210 : f32
      %r211 = arith.subf %p211, %q211 : f32
      linalg.yield %r211 : f32
    } -> tensor<8x2x2x2xf32>
    %e212 = tensor.empty() : tensor<8x2x2x2xf32>
    %rh213 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sl203, %sl204, %cos10, %sin14 : tensor<8x2x2x2xf32>, tensor<8x2x2x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>) outs(%e212 : tensor<8x2x2x2xf32>) {
    ^bb0(%a214: f32, %a215: f32, %a216: f32, %a217: f32, %o218: f32):
      %p218 = arith.mulf %a215, %a216 : f32
      %q218 = arith.mulf %a214, %a217 : f32
      %r218 = arith.addf %p218, %q218 : f32
      linalg.yield %r218 : f32
    } -> tensor<8x2x2x2xf32>
    %cat219 = tensor.concat dim(3) %rl206, %rh213 : (tensor<8x2x2x2xf32>, tensor<8x2x2x2xf32>) -> tensor<8x2x2x4xf32>
    %sl220 = tensor.extract_slice %ex195[0, 0, 0, 0] [8, 2, 1, 2] [1, 1, 1, 1] : tensor<8x2x1x4xf32> to tensor<8x2x1x2xf32>
    %sl221 = tensor.extract_slice %ex195[0, 0, 0, 2] [8, 2, 1, 2] [1, 1, 1, 1] : tensor<8x2x1x4xf32> to tensor<8x2x1x2xf32>
    %e222 = tensor.empty() : tensor<8x2x1x2xf32>
    %rl223 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sl220, %sl221, %cos10, %sin14 : tensor<8x2x1x2xf32>, tensor<8x2x1x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>) outs(%e222 : tensor<8x2x1x2xf32>) {
    ^bb0(%a224: f32, %a225: f32, %a226: f32, %a227: f32, %o228: f32):
      %p228 = arith.mulf %a224, %a226 : f32
      %q228 = arith.mulf %a225, %a227 : f32
      %r228 = arith.subf %p228, %q228 : f32
      linalg.yield %r228 : f32
    } -> tensor<8x2x1x2xf32>
    %e229 = tensor.empty() : tensor<8x2x1x2xf32>
    %rh230 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sl220, %sl221, %cos10, %sin14 : tensor<8x2x1x2xf32>, tensor<8x2x1x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>) outs(%e229 : tensor<8x2x1x2xf32>) {
    ^bb0(%a231: f32, %a232: f32, %a233: f32, %a234: f32, %o235: f32):
      %p235 = arith.mulf %a232, %a233 : f32
      %q235 = arith.mulf %a231, %a234 : f32
      %r235 = arith.addf %p235, %q235 : f32
      linalg.yield %r235 : f32
    } -> tensor<8x2x1x2xf32>
    %cat236 = tensor.concat dim(3) %rl223, %rh230 : (tensor<8x2x1x2xf32>, tensor<8x2x1x2xf32>) -> tensor<8x2x1x4xf32>
    %e237 = tensor.empty() : tensor<2x2x8x4xf32>
    %tr238 = linalg.transpose ins(%cat219 : tensor<8x2x2x4xf32>) outs(%e237 : tensor<2x2x8x4xf32>) permutation = [1, 2, 0, 3]
    %cl239 = tensor.collapse_shape %tr238 [[0, 1], [2], [3]] : tensor<2x2x8x4xf32> into tensor<4x8x4xf32>
    %e240 = tensor.empty() : tensor<8x2x1x2x4xf32>
    %bc241 = linalg.broadcast ins(%cat236 : tensor<8x2x1x4xf32>) outs(%e240 : tensor<8x2x1x2x4xf32>) dimensions = [3]
    %cl242 = tensor.collapse_shape %bc241 [[0], [1], [2, 3], [4]] : tensor<8x2x1x2x4xf32> into tensor<8x2x2x4xf32>
    %e243 = tensor.empty() : tensor<2x2x8x4xf32>
    %tr244 = linalg.transpose ins(%cl242 : tensor<8x2x2x4xf32>) outs(%e243 : tensor<2x2x8x4xf32>) permutation = [1, 2, 0, 3]
    %cl245 = tensor.collapse_shape %tr244 [[0, 1], [2], [3]] : tensor<2x2x8x4xf32> into tensor<4x8x4xf32>
    %e246 = tensor.empty() : tensor<8x2x1x2x4xf32>
    %bc247 = linalg.broadcast ins(%ex202 : tensor<8x2x1x4xf32>) outs(%e246 : tensor<8x2x1x2x4xf32>) dimensions = [3]
    %cl248 = tensor.collapse_shape %bc247 [[0], [1], [2, 3], [4]] : tensor<8x2x1x2x4xf32> into tensor<8x2x2x4xf32>
    %e249 = tensor.empty() : tensor<2x2x8x4xf32>
    %tr250 = linalg.transpose ins(%cl248 : tensor<8x2x2x4xf32>) outs(%e249 : tensor<2x2x8x4xf32>) permutation = [1, 2, 0, 3]
    %cl251 = tensor.collapse_shape %tr250 [[0, 1], [2], [3]] : tensor<2x2x8x4xf32> into tensor<4x8x4xf32>
    %c252 = arith.constant 0.000000000e+00 : f32
    %e253 = tensor.empty() : tensor<4x8x8xf32>
    %f254 = linalg.fill ins(%c252 : f32) outs(%e253 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %sc255 = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%cl239, %cl245 : tensor<4x8x4xf32>, tensor<4x8x4xf32>) outs(%f254 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %e256 = tensor.empty() : tensor<4x8x8xf32>
    %masked257 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sc255 : tensor<4x8x8xf32>) outs(%e256 : tensor<4x8x8xf32>) {
    ^bb0(%a258: f32, %o259: f32):
      %qi259 = linalg.index 1 : index
      %ki259 = linalg.index 2 : index
      %ok259 = arith.cmpi ule, %ki259, %qi259 : index
      %sc259 = arith.constant 5.000000000e-01 : f32
      %v259 = arith.mulf %a258, %sc259 : f32
      %ninf259 = arith.constant -1.0e+30 : f32
      %r259 = arith.select %ok259, %v259, %ninf259 : f32
      linalg.yield %r259 : f32
    } -> tensor<4x8x8xf32>
    %e260 = tensor.empty() : tensor<4x8x8xf32>
    %sm261 = linalg.softmax dimension(2) ins(%masked257 : tensor<4x8x8xf32>) outs(%e260 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %c262 = arith.constant 0.000000000e+00 : f32
    %e263 = tensor.empty() : tensor<4x8x4xf32>
    %f264 = linalg.fill ins(%c262 : f32) outs(%e263 : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
    %mm265 = linalg.batch_matmul ins(%sm261, %cl251 : tensor<4x8x8xf32>, tensor<4x8x4xf32>) outs(%f264 : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
    %ex266 = tensor.expand_shape %mm265 [[0, 1], [2], [3]] output_shape [2, 2, 8, 4] : tensor<4x8x4xf32> into tensor<2x2x8x4xf32>
    %e267 = tensor.empty() : tensor<8x2x2x4xf32>
    %tr268 = linalg.transpose ins(%ex266 : tensor<2x2x8x4xf32>) outs(%e267 : tensor<8x2x2x4xf32>) permutation = [2, 0, 1, 3]
    %cl269 = tensor.collapse_shape %tr268 [[0], [1], [2, 3]] : tensor<8x2x2x4xf32> into tensor<8x2x8xf32>
    %cl270 = tensor.collapse_shape %cl269 [[0, 1], [2]] : tensor<8x2x8xf32> into tensor<16x8xf32>
    %c271 = arith.constant 0.000000000e+00 : f32
    %e272 = tensor.empty() : tensor<16x32xf32>
    %f273 = linalg.fill ins(%c271 : f32) outs(%e272 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %mm274 = linalg.matmul ins(%cl270, %l1_w_o : tensor<16x8xf32>, tensor<8x32xf32>) outs(%f273 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %ar275 = shard.all_reduce %mm274 on @grid grid_axes = [0] : tensor<16x32xf32> -> tensor<16x32xf32>
    %ex276 = tensor.expand_shape %ar275 [[0, 1], [2]] output_shape [8, 2, 32] : tensor<16x32xf32> into tensor<8x2x32xf32>
    %e277 = tensor.empty() : tensor<8x2x32xf32>
    %g278 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g166, %ex276 : tensor<8x2x32xf32>, tensor<8x2x32xf32>) outs(%e277 : tensor<8x2x32xf32>) {
    ^bb0(%a279: f32, %a280: f32, %o281: f32):
      %r281 = arith.addf %a279, %a280 : f32
      linalg.yield %r281 : f32
    } -> tensor<8x2x32xf32>
    %c282 = arith.constant 0.000000000e+00 : f32
    %e283 = tensor.empty() : tensor<8x2xf32>
    %f284 = linalg.fill ins(%c282 : f32) outs(%e283 : tensor<8x2xf32>) -> tensor<8x2xf32>
    %ss285 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%g278 : tensor<8x2x32xf32>) outs(%f284 : tensor<8x2xf32>) {
    ^bb0(%a286: f32, %o287: f32):
      %sq287 = arith.mulf %a286, %a286 : f32
      %ad287 = arith.addf %o287, %sq287 : f32
      linalg.yield %ad287 : f32
    } -> tensor<8x2xf32>
    %e288 = tensor.empty() : tensor<8x2x32xf32>
    %rms289 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g278, %ss285, %l1_mlp_norm_g : tensor<8x2x32xf32>, tensor<8x2xf32>, tensor<32xf32>) outs(%e288 : tensor<8x2x32xf32>) {
    ^bb0(%a290: f32, %a291: f32, %a292: f32, %o293: f32):
      %ic293 = arith.constant 3.125000000e-02 : f32
      %ms293 = arith.mulf %a291, %ic293 : f32
      %ep293 = arith.constant 1.000000000e-06 : f32
      %me293 = arith.addf %ms293, %ep293 : f32
      %rs293 = math.rsqrt %me293 : f32
      %y293 = arith.mulf %a290, %rs293 : f32
      %z293 = arith.mulf %y293, %a292 : f32
      linalg.yield %z293 : f32
    } -> tensor<8x2x32xf32>
    %cl294 = tensor.collapse_shape %rms289 [[0, 1], [2]] : tensor<8x2x32xf32> into tensor<16x32xf32>
    %c295 = arith.constant 0.000000000e+00 : f32
    %e296 = tensor.empty() : tensor<16x16xf32>
    %f297 = linalg.fill ins(%c295 : f32) outs(%e296 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %mm298 = linalg.matmul ins(%cl294, %l1_w_gate : tensor<16x32xf32>, tensor<32x16xf32>) outs(%f297 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %ex299 = tensor.expand_shape %mm298 [[0, 1], [2]] output_shape [8, 2, 16] : tensor<16x16xf32> into tensor<8x2x16xf32>
    %cl300 = tensor.collapse_shape %rms289 [[0, 1], [2]] : tensor<8x2x32xf32> into tensor<16x32xf32>
    %c301 = arith.constant 0.000000000e+00 : f32
    %e302 = tensor.empty() : tensor<16x16xf32>
    %f303 = linalg.fill ins(%c301 : f32) outs(%e302 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %mm304 = linalg.matmul ins(%cl300, %l1_w_up : tensor<16x32xf32>, tensor<32x16xf32>) outs(%f303 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %ex305 = tensor.expand_shape %mm304 [[0, 1], [2]] output_shape [8, 2, 16] : tensor<16x16xf32> into tensor<8x2x16xf32>
    %e306 = tensor.empty() : tensor<8x2x16xf32>
    %swi307 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex299, %ex305 : tensor<8x2x16xf32>, tensor<8x2x16xf32>) outs(%e306 : tensor<8x2x16xf32>) {
    ^bb0(%a308: f32, %a309: f32, %o310: f32):
      %n310 = arith.negf %a308 : f32
      %e310 = math.exp %n310 : f32
      %one310 = arith.constant 1.0 : f32
      %d310 = arith.addf %e310, %one310 : f32
      %s310 = arith.divf %a308, %d310 : f32
      %r310 = arith.mulf %s310, %a309 : f32
      linalg.yield %r310 : f32
    } -> tensor<8x2x16xf32>
    %cl311 = tensor.collapse_shape %swi307 [[0, 1], [2]] : tensor<8x2x16xf32> into tensor<16x16xf32>
    %c312 = arith.constant 0.000000000e+00 : f32
    %e313 = tensor.empty() : tensor<16x32xf32>
    %f314 = linalg.fill ins(%c312 : f32) outs(%e313 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %mm315 = linalg.matmul ins(%cl311, %l1_w_down : tensor<16x16xf32>, tensor<16x32xf32>) outs(%f314 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %ar316 = shard.all_reduce %mm315 on @grid grid_axes = [0] : tensor<16x32xf32> -> tensor<16x32xf32>
    %ex317 = tensor.expand_shape %ar316 [[0, 1], [2]] output_shape [8, 2, 32] : tensor<16x32xf32> into tensor<8x2x32xf32>
    %e318 = tensor.empty() : tensor<8x2x32xf32>
    %g319 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g278, %ex317 : tensor<8x2x32xf32>, tensor<8x2x32xf32>) outs(%e318 : tensor<8x2x32xf32>) {
    ^bb0(%a320: f32, %a321: f32, %o322: f32):
      %r322 = arith.addf %a320, %a321 : f32
      linalg.yield %r322 : f32
    } -> tensor<8x2x32xf32>
    %c323 = arith.constant 0.000000000e+00 : f32
    %e324 = tensor.empty() : tensor<8x2xf32>
    %f325 = linalg.fill ins(%c323 : f32) outs(%e324 : tensor<8x2xf32>) -> tensor<8x2xf32>
    %ss326 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%g319 : tensor<8x2x32xf32>) outs(%f325 : tensor<8x2xf32>) {
    ^bb0(%a327: f32, %o328: f32):
      %sq328 = arith.mulf %a327, %a327 : f32
      %ad328 = arith.addf %o328, %sq328 : f32
      linalg.yield %ad328 : f32
    } -> tensor<8x2xf32>
    %e329 = tensor.empty() : tensor<8x2x32xf32>
    %rms330 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g319, %ss326, %l2_attn_norm_g : tensor<8x2x32xf32>, tensor<8x2xf32>, tensor<32xf32>) outs(%e329 : tensor<8x2x32xf32>) {
    ^bb0(%a331: f32, %a332: f32, %a333: f32, %o334: f32):
      %ic334 = arith.constant 3.125000000e-02 : f32
      %ms334 = arith.mulf %a332, %ic334 : f32
      %ep334 = arith.constant 1.000000000e-06 : f32
      %me334 = arith.addf %ms334, %ep334 : f32
      %rs334 = math.rsqrt %me334 : f32
      %y334 = arith.mulf %a331, %rs334 : f32
      %z334 = arith.mulf %y334, %a333 : f32
      linalg.yield %z334 : f32
    } -> tensor<8x2x32xf32>
    %cl335 = tensor.collapse_shape %rms330 [[0, 1], [2]] : tensor<8x2x32xf32> into tensor<16x32xf32>
    %c336 = arith.constant 0.000000000e+00 : f32
    %e337 = tensor.empty() : tensor<16x8xf32>
    %f338 = linalg.fill ins(%c336 : f32) outs(%e337 : tensor<16x8xf32>) -> tensor<16x8xf32>
    %mm339 = linalg.matmul ins(%cl335, %l2_w_q : tensor<16x32xf32>, tensor<32x8xf32>) outs(%f338 : tensor<16x8xf32>) -> tensor<16x8xf32>
    %ex340 = tensor.expand_shape %mm339 [[0, 1], [2]] output_shape [8, 2, 8] : tensor<16x8xf32> into tensor<8x2x8xf32>
    %ex341 = tensor.expand_shape %ex340 [[0], [1], [2, 3]] output_shape [8, 2, 2, 4] : tensor<8x2x8xf32> into tensor<8x2x2x4xf32>
    %cl342 = tensor.collapse_shape %rms330 [[0, 1], [2]] : tensor<8x2x32xf32> into tensor<16x32xf32>
    %c343 = arith.constant 0.000000000e+00 : f32
    %e344 = tensor.empty() : tensor<16x4xf32>
    %f345 = linalg.fill ins(%c343 : f32) outs(%e344 : tensor<16x4xf32>) -> tensor<16x4xf32>
    %mm346 = linalg.matmul ins(%cl342, %l2_w_k : tensor<16x32xf32>, tensor<32x4xf32>) outs(%f345 : tensor<16x4xf32>) -> tensor<16x4xf32>
    %ex347 = tensor.expand_shape %mm346 [[0, 1], [2]] output_shape [8, 2, 4] : tensor<16x4xf32> into tensor<8x2x4xf32>
    %ex348 = tensor.expand_shape %ex347 [[0], [1], [2, 3]] output_shape [8, 2, 1, 4] : tensor<8x2x4xf32> into tensor<8x2x1x4xf32>
    %cl349 = tensor.collapse_shape %rms330 [[0, 1], [2]] : tensor<8x2x32xf32> into tensor<16x32xf32>
    %c350 = arith.constant 0.000000000e+00 : f32
    %e351 = tensor.empty() : tensor<16x4xf32>
    %f352 = linalg.fill ins(%c350 : f32) outs(%e351 : tensor<16x4xf32>) -> tensor<16x4xf32>
    %mm353 = linalg.matmul ins(%cl349, %l2_w_v : tensor<16x32xf32>, tensor<32x4xf32>) outs(%f352 : tensor<16x4xf32>) -> tensor<16x4xf32>
    %ex354 = tensor.expand_shape %mm353 [[0, 1], [2]] output_shape [8, 2, 4] : tensor<16x4xf32> into tensor<8x2x4xf32>
    %ex355 = tensor.expand_shape %ex354 [[0], [1], [2, 3]] output_shape [8, 2, 1, 4] : tensor<8x2x4xf32> into tensor<8x2x1x4xf32>
    %sl356 = tensor.extract_slice %ex341[0, 0, 0, 0] [8, 2, 2, 2] [1, 1, 1, 1] : tensor<8x2x2x4xf32> to tensor<8x2x2x2xf32>
    %sl357 = tensor.extract_slice %ex341[0, 0, 0, 2] [8, 2, 2, 2] [1, 1, 1, 1] : tensor<8x2x2x4xf32> to tensor<8x2x2x2xf32>
    %e358 = tensor.empty() : tensor<8x2x2x2xf32>
    %rl359 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sl356, %sl357, %cos10, %sin14 : tensor<8x2x2x2xf32>, tensor<8x2x2x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>) outs(%e358 : tensor<8x2x2x2xf32>) {
    ^bb0(%a360: f32, %a361: f32, %a362: f32, %a363: f32, %o364: f32):
      %p364 = arith.mulf %a360, %a362 : f32
      %q364 = arith.mulf %a361, %a363 : f32
      %r364 = arith.subf %p364, %q364 : f32
      linalg.yield %r364 : f32
    } -> tensor<8x2x2x2xf32>
    %e365 = tensor.empty() : tensor<8x2x2x2xf32>
    %rh366 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sl356, %sl357, %cos10, %sin14 : tensor<8x2x2x2xf32>, tensor<8x2x2x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>) outs(%e365 : tensor<8x2x2x2xf32>) {
    ^bb0(%a367: f32, %a368: f32, %a369: f32, %a370: f32, %o371: f32):
      %p371 = arith.mulf %a368, %a369 : f32
      %q371 = arith.mulf %a367, %a370 : f32
      %r371 = arith.addf %p371, %q371 : f32
      linalg.yield %r371 : f32
    } -> tensor<8x2x2x2xf32>
    %cat372 = tensor.concat dim(3) %rl359, %rh366 : (tensor<8x2x2x2xf32>, tensor<8x2x2x2xf32>) -> tensor<8x2x2x4xf32>
    %sl373 = tensor.extract_slice %ex348[0, 0, 0, 0] [8, 2, 1, 2] [1, 1, 1, 1] : tensor<8x2x1x4xf32> to tensor<8x2x1x2xf32>
    %sl374 = tensor.extract_slice %ex348[0, 0, 0, 2] [8, 2, 1, 2] [1, 1, 1, 1] : tensor<8x2x1x4xf32> to tensor<8x2x1x2xf32>
    %e375 = tensor.empty() : tensor<8x2x1x2xf32>
    %rl376 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sl373, %sl374, %cos10, %sin14 : tensor<8x2x1x2xf32>, tensor<8x2x1x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>) outs(%e375 : tensor<8x2x1x2xf32>) {
    ^bb0(%a377: f32, %a378: f32, %a379: f32, %a380: f32, %o381: f32):
      %p381 = arith.mulf %a377, %a379 : f32
      %q381 = arith.mulf %a378, %a380 : f32
      %r381 = arith.subf %p381, %q381 : f32
      linalg.yield %r381 : f32
    } -> tensor<8x2x1x2xf32>
    %e382 = tensor.empty() : tensor<8x2x1x2xf32>
    %rh383 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sl373, %sl374, %cos10, %sin14 : tensor<8x2x1x2xf32>, tensor<8x2x1x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>) outs(%e382 : tensor<8x2x1x2xf32>) {
    ^bb0(%a384: f32, %a385: f32, %a386: f32, %a387: f32, %o388: f32):
      %p388 = arith.mulf %a385, %a386 : f32
      %q388 = arith.mulf %a384, %a387 : f32
      %r388 = arith.addf %p388, %q388 : f32
      linalg.yield %r388 : f32
    } -> tensor<8x2x1x2xf32>
    %cat389 = tensor.concat dim(3) %rl376, %rh383 : (tensor<8x2x1x2xf32>, tensor<8x2x1x2xf32>) -> tensor<8x2x1x4xf32>
    %e390 = tensor.empty() : tensor<2x2x8x4xf32>
    %tr391 = linalg.transpose ins(%cat372 : tensor<8x2x2x4xf32>) outs(%e390 : tensor<2x2x8x4xf32>) permutation = [1, 2, 0, 3]
    %cl392 = tensor.collapse_shape %tr391 [[0, 1], [2], [3]] : tensor<2x2x8x4xf32> into tensor<4x8x4xf32>
    %e393 = tensor.empty() : tensor<8x2x1x2x4xf32>
    %bc394 = linalg.broadcast ins(%cat389 : tensor<8x2x1x4xf32>) outs(%e393 : tensor<8x2x1x2x4xf32>) dimensions = [3]
    %cl395 = tensor.collapse_shape %bc394 [[0], [1], [2, 3], [4]] : tensor<8x2x1x2x4xf32> into tensor<8x2x2x4xf32>
    %e396 = tensor.empty() : tensor<2x2x8x4xf32>
    %tr397 = linalg.transpose ins(%cl395 : tensor<8x2x2x4xf32>) outs(%e396 : tensor<2x2x8x4xf32>) permutation = [1, 2, 0, 3]
    %cl398 = tensor.collapse_shape %tr397 [[0, 1], [2], [3]] : tensor<2x2x8x4xf32> into tensor<4x8x4xf32>
    %e399 = tensor.empty() : tensor<8x2x1x2x4xf32>
    %bc400 = linalg.broadcast ins(%ex355 : tensor<8x2x1x4xf32>) outs(%e399 : tensor<8x2x1x2x4xf32>) dimensions = [3]
    %cl401 = tensor.collapse_shape %bc400 [[0], [1], [2, 3], [4]] : tensor<8x2x1x2x4xf32> into tensor<8x2x2x4xf32>
    %e402 = tensor.empty() : tensor<2x2x8x4xf32>
    %tr403 = linalg.transpose ins(%cl401 : tensor<8x2x2x4xf32>) outs(%e402 : tensor<2x2x8x4xf32>) permutation = [1, 2, 0, 3]
    %cl404 = tensor.collapse_shape %tr403 [[0, 1], [2], [3]] : tensor<2x2x8x4xf32> into tensor<4x8x4xf32>
    %c405 = arith.constant 0.000000000e+00 : f32
    %e406 = tensor.empty() : tensor<4x8x8xf32>
    %f407 = linalg.fill ins(%c405 : f32) outs(%e406 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %sc408 = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%cl392, %cl398 : tensor<4x8x4xf32>, tensor<4x8x4xf32>) outs(%f407 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %e409 = tensor.empty() : tensor<4x8x8xf32>
    %masked410 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sc408 : tensor<4x8x8xf32>) outs(%e409 : tensor<4x8x8xf32>) {
    ^bb0(%a411: f32, %o412: f32):
      %qi412 = linalg.index 1 : index
      %ki412 = linalg.index 2 : index
      %ok412 = arith.cmpi ule, %ki412, %qi412 : index
      %sc412 = arith.constant 5.000000000e-01 : f32
      %v412 = arith.mulf %a411, %sc412 : f32
      %ninf412 = arith.constant -1.0e+30 : f32
      %r412 = arith.select %ok412, %v412, %ninf412 : f32
      linalg.yield %r412 : f32
    } -> tensor<4x8x8xf32>
    %e413 = tensor.empty() : tensor<4x8x8xf32>
    %sm414 = linalg.softmax dimension(2) ins(%masked410 : tensor<4x8x8xf32>) outs(%e413 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %c415 = arith.constant 0.000000000e+00 : f32
    %e416 = tensor.empty() : tensor<4x8x4xf32>
    %f417 = linalg.fill ins(%c415 : f32) outs(%e416 : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
    %mm418 = linalg.batch_matmul ins(%sm414, %cl404 : tensor<4x8x8xf32>, tensor<4x8x4xf32>) outs(%f417 : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
    %ex419 = tensor.expand_shape %mm418 [[0, 1], [2], [3]] output_shape [2, 2, 8, 4] : tensor<4x8x4xf32> into tensor<2x2x8x4xf32>
    %e420 = tensor.empty() : tensor<8x2x2x4xf32>
    %tr421 = linalg.transpose ins(%ex419 : tensor<2x2x8x4xf32>) outs(%e420 : tensor<8x2x2x4xf32>) permutation = [2, 0, 1, 3]
    %cl422 = tensor.collapse_shape %tr421 [[0], [1], [2, 3]] : tensor<8x2x2x4xf32> into tensor<8x2x8xf32>
    %cl423 = tensor.collapse_shape %cl422 [[0, 1], [2]] : tensor<8x2x8xf32> into tensor<16x8xf32>
    %c424 = arith.constant 0.000000000e+00 : f32
    %e425 = tensor.empty() : tensor<16x32xf32>
    %f426 = linalg.fill ins(%c424 : f32) outs(%e425 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %mm427 = linalg.matmul ins(%cl423, %l2_w_o : tensor<16x8xf32>, tensor<8x32xf32>) outs(%f426 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %ar428 = shard.all_reduce %mm427 on @grid grid_axes = [0] : tensor<16x32xf32> -> tensor<16x32xf32>
    %ex429 = tensor.expand_shape %ar428 [[0, 1], [2]] output_shape [8, 2, 32] : tensor<16x32xf32> into tensor<8x2x32xf32>
    %e430 = tensor.empty() : tensor<8x2x32xf32>
    %g431 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g319, %ex429 : tensor<8x2x32xf32>, tensor<8x2x32xf32>) outs(%e430 : tensor<8x2x32xf32>) {
    ^bb0(%a432: f32, %a433: f32, %o434: f32):
      %r434 = arith.addf %a432, %a433 : f32
      linalg.yield %r434 : f32
    } -> tensor<8x2x32xf32>
    %c435 = arith.constant 0.000000000e+00 : f32
    %e436 = tensor.empty() : tensor<8x2xf32>
    %f437 = linalg.fill ins(%c435 : f32) outs(%e436 : tensor<8x2xf32>) -> tensor<8x2xf32>
    %ss438 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%g431 : tensor<8x2x32xf32>) outs(%f437 : tensor<8x2xf32>) {
    ^bb0(%a439: f32, %o440: f32):
      %sq440 = arith.mulf %a439, %a439 : f32
      %ad440 = arith.addf %o440, %sq440 : f32
      linalg.yield %ad440 : f32
    } -> tensor<8x2xf32>
    %e441 = tensor.empty() : tensor<8x2x32xf32>
    %rms442 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g431, %ss438, %l2_mlp_norm_g : tensor<8x2x32xf32>, tensor<8x2xf32>, tensor<32xf32>) outs(%e441 : tensor<8x2x32xf32>) {
    ^bb0(%a443: f32, %a444: f32, %a445: f32, %o446: f32):
      %ic446 = arith.constant 3.125000000e-02 : f32
      %ms446 = arith.mulf %a444, %ic446 : f32
      %ep446 = arith.constant 1.000000000e-06 : f32
      %me446 = arith.addf %ms446, %ep446 : f32
      %rs446 = math.rsqrt %me446 : f32
      %y446 = arith.mulf %a443, %rs446 : f32
      %z446 = arith.mulf %y446, %a445 : f32
      linalg.yield %z446 : f32
    } -> tensor<8x2x32xf32>
    %cl447 = tensor.collapse_shape %rms442 [[0, 1], [2]] : tensor<8x2x32xf32> into tensor<16x32xf32>
    %c448 = arith.constant 0.000000000e+00 : f32
    %e449 = tensor.empty() : tensor<16x16xf32>
    %f450 = linalg.fill ins(%c448 : f32) outs(%e449 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %mm451 = linalg.matmul ins(%cl447, %l2_w_gate : tensor<16x32xf32>, tensor<32x16xf32>) outs(%f450 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %ex452 = tensor.expand_shape %mm451 [[0, 1], [2]] output_shape [8, 2, 16] : tensor<16x16xf32> into tensor<8x2x16xf32>
    %cl453 = tensor.collapse_shape %rms442 [[0, 1], [2]] : tensor<8x2x32xf32> into tensor<16x32xf32>
    %c454 = arith.constant 0.000000000e+00 : f32
    %e455 = tensor.empty() : tensor<16x16xf32>
    %f456 = linalg.fill ins(%c454 : f32) outs(%e455 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %mm457 = linalg.matmul ins(%cl453, %l2_w_up : tensor<16x32xf32>, tensor<32x16xf32>) outs(%f456 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %ex458 = tensor.expand_shape %mm457 [[0, 1], [2]] output_shape [8, 2, 16] : tensor<16x16xf32> into tensor<8x2x16xf32>
    %e459 = tensor.empty() : tensor<8x2x16xf32>
    %swi460 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex452, %ex458 : tensor<8x2x16xf32>, tensor<8x2x16xf32>) outs(%e459 : tensor<8x2x16xf32>) {
    ^bb0(%a461: f32, %a462: f32, %o463: f32):
      %n463 = arith.negf %a461 : f32
      %e463 = math.exp %n463 : f32
      %one463 = arith.constant 1.0 : f32
      %d463 = arith.addf %e463, %one463 : f32
      %s463 = arith.divf %a461, %d463 : f32
      %r463 = arith.mulf %s463, %a462 : f32
      linalg.yield %r463 : f32
    } -> tensor<8x2x16xf32>
    %cl464 = tensor.collapse_shape %swi460 [[0, 1], [2]] : tensor<8x2x16xf32> into tensor<16x16xf32>
    %c465 = arith.constant 0.000000000e+00 : f32
    %e466 = tensor.empty() : tensor<16x32xf32>
    %f467 = linalg.fill ins(%c465 : f32) outs(%e466 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %mm468 = linalg.matmul ins(%cl464, %l2_w_down : tensor<16x16xf32>, tensor<16x32xf32>) outs(%f467 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %ar469 = shard.all_reduce %mm468 on @grid grid_axes = [0] : tensor<16x32xf32> -> tensor<16x32xf32>
    %ex470 = tensor.expand_shape %ar469 [[0, 1], [2]] output_shape [8, 2, 32] : tensor<16x32xf32> into tensor<8x2x32xf32>
    %e471 = tensor.empty() : tensor<8x2x32xf32>
    %g472 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g431, %ex470 : tensor<8x2x32xf32>, tensor<8x2x32xf32>) outs(%e471 : tensor<8x2x32xf32>) {
    ^bb0(%a473: f32, %a474: f32, %o475: f32):
      %r475 = arith.addf %a473, %a474 : f32
      linalg.yield %r475 : f32
    } -> tensor<8x2x32xf32>
    %c476 = arith.constant 0.000000000e+00 : f32
    %e477 = tensor.empty() : tensor<8x2xf32>
    %f478 = linalg.fill ins(%c476 : f32) outs(%e477 : tensor<8x2xf32>) -> tensor<8x2xf32>
    %ss479 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%g472 : tensor<8x2x32xf32>) outs(%f478 : tensor<8x2xf32>) {
    ^bb0(%a480: f32, %o481: f32):
      %sq481 = arith.mulf %a480, %a480 : f32
      %ad481 = arith.addf %o481, %sq481 : f32
      linalg.yield %ad481 : f32
    } -> tensor<8x2xf32>
    %e482 = tensor.empty() : tensor<8x2x32xf32>
    %rms483 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g472, %ss479, %l3_attn_norm_g : tensor<8x2x32xf32>, tensor<8x2xf32>, tensor<32xf32>) outs(%e482 : tensor<8x2x32xf32>) {
    ^bb0(%a484: f32, %a485: f32, %a486: f32, %o487: f32):
      %ic487 = arith.constant 3.125000000e-02 : f32
      %ms487 = arith.mulf %a485, %ic487 : f32
      %ep487 = arith.constant 1.000000000e-06 : f32
      %me487 = arith.addf %ms487, %ep487 : f32
      %rs487 = math.rsqrt %me487 : f32
      %y487 = arith.mulf %a484, %rs487 : f32
      %z487 = arith.mulf %y487, %a486 : f32
      linalg.yield %z487 : f32
    } -> tensor<8x2x32xf32>
    %cl488 = tensor.collapse_shape %rms483 [[0, 1], [2]] : tensor<8x2x32xf32> into tensor<16x32xf32>
    %c489 = arith.constant 0.000000000e+00 : f32
    %e490 = tensor.empty() : tensor<16x8xf32>
    %f491 = linalg.fill ins(%c489 : f32) outs(%e490 : tensor<16x8xf32>) -> tensor<16x8xf32>
    %mm492 = linalg.matmul ins(%cl488, %l3_w_q : tensor<16x32xf32>, tensor<32x8xf32>) outs(%f491 : tensor<16x8xf32>) -> tensor<16x8xf32>
    %ex493 = tensor.expand_shape %mm492 [[0, 1], [2]] output_shape [8, 2, 8] : tensor<16x8xf32> into tensor<8x2x8xf32>
    %ex494 = tensor.expand_shape %ex493 [[0], [1], [2, 3]] output_shape [8, 2, 2, 4] : tensor<8x2x8xf32> into tensor<8x2x2x4xf32>
    %cl495 = tensor.collapse_shape %rms483 [[0, 1], [2]] : tensor<8x2x32xf32> into tensor<16x32xf32>
    %c496 = arith.constant 0.000000000e+00 : f32
    %e497 = tensor.empty() : tensor<16x4xf32>
    %f498 = linalg.fill ins(%c496 : f32) outs(%e497 : tensor<16x4xf32>) -> tensor<16x4xf32>
    %mm499 = linalg.matmul ins(%cl495, %l3_w_k : tensor<16x32xf32>, tensor<32x4xf32>) outs(%f498 : tensor<16x4xf32>) -> tensor<16x4xf32>
    %ex500 = tensor.expand_shape %mm499 [[0, 1], [2]] output_shape [8, 2, 4] : tensor<16x4xf32> into tensor<8x2x4xf32>
    %ex501 = tensor.expand_shape %ex500 [[0], [1], [2, 3]] output_shape [8, 2, 1, 4] : tensor<8x2x4xf32> into tensor<8x2x1x4xf32>
    %cl502 = tensor.collapse_shape %rms483 [[0, 1], [2]] : tensor<8x2x32xf32> into tensor<16x32xf32>
    %c503 = arith.constant 0.000000000e+00 : f32
    %e504 = tensor.empty() : tensor<16x4xf32>
    %f505 = linalg.fill ins(%c503 : f32) outs(%e504 : tensor<16x4xf32>) -> tensor<16x4xf32>
    %mm506 = linalg.matmul ins(%cl502, %l3_w_v : tensor<16x32xf32>, tensor<32x4xf32>) outs(%f505 : tensor<16x4xf32>) -> tensor<16x4xf32>
    %ex507 = tensor.expand_shape %mm506 [[0, 1], [2]] output_shape [8, 2, 4] : tensor<16x4xf32> into tensor<8x2x4xf32>
    %ex508 = tensor.expand_shape %ex507 [[0], [1], [2, 3]] output_shape [8, 2, 1, 4] : tensor<8x2x4xf32> into tensor<8x2x1x4xf32>
    %sl509 = tensor.extract_slice %ex494[0, 0, 0, 0] [8, 2, 2, 2] [1, 1, 1, 1] : tensor<8x2x2x4xf32> to tensor<8x2x2x2xf32>
    %sl510 = tensor.extract_slice %ex494[0, 0, 0, 2] [8, 2, 2, 2] [1, 1, 1, 1] : tensor<8x2x2x4xf32> to tensor<8x2x2x2xf32>
    %e511 = tensor.empty() : tensor<8x2x2x2xf32>
    %rl512 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sl509, %sl510, %cos10, %sin14 : tensor<8x2x2x2xf32>, tensor<8x2x2x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>) outs(%e511 : tensor<8x2x2x2xf32>) {
    ^bb0(%a513: f32, %a514: f32, %a515: f32, %a516: f32, %o517: f32):
      %p517 = arith.mulf %a513, %a515 : f32
      %q517 = arith.mulf %a514, %a516 : f32
      %r517 = arith.subf %p517, %q517 : f32
      linalg.yield %r517 : f32
    } -> tensor<8x2x2x2xf32>
    %e518 = tensor.empty() : tensor<8x2x2x2xf32>
    %rh519 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sl509, %sl510, %cos10, %sin14 : tensor<8x2x2x2xf32>, tensor<8x2x2x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>) outs(%e518 : tensor<8x2x2x2xf32>) {
    ^bb0(%a520: f32, %a521: f32, %a522: f32, %a523: f32, %o524: f32):
      %p524 = arith.mulf %a521, %a522 : f32
      %q524 = arith.mulf %a520, %a523 : f32
      %r524 = arith.addf %p524, %q524 : f32
      linalg.yield %r524 : f32
    } -> tensor<8x2x2x2xf32>
    %cat525 = tensor.concat dim(3) %rl512, %rh519 : (tensor<8x2x2x2xf32>, tensor<8x2x2x2xf32>) -> tensor<8x2x2x4xf32>
    %sl526 = tensor.extract_slice %ex501[0, 0, 0, 0] [8, 2, 1, 2] [1, 1, 1, 1] : tensor<8x2x1x4xf32> to tensor<8x2x1x2xf32>
    %sl527 = tensor.extract_slice %ex501[0, 0, 0, 2] [8, 2, 1, 2] [1, 1, 1, 1] : tensor<8x2x1x4xf32> to tensor<8x2x1x2xf32>
    %e528 = tensor.empty() : tensor<8x2x1x2xf32>
    %rl529 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sl526, %sl527, %cos10, %sin14 : tensor<8x2x1x2xf32>, tensor<8x2x1x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>) outs(%e528 : tensor<8x2x1x2xf32>) {
    ^bb0(%a530: f32, %a531: f32, %a532: f32, %a533: f32, %o534: f32):
      %p534 = arith.mulf %a530, %a532 : f32
      %q534 = arith.mulf %a531, %a533 : f32
      %r534 = arith.subf %p534, %q534 : f32
      linalg.yield %r534 : f32
    } -> tensor<8x2x1x2xf32>
    %e535 = tensor.empty() : tensor<8x2x1x2xf32>
    %rh536 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sl526, %sl527, %cos10, %sin14 : tensor<8x2x1x2xf32>, tensor<8x2x1x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>) outs(%e535 : tensor<8x2x1x2xf32>) {
    ^bb0(%a537: f32, %a538: f32, %a539: f32, %a540: f32, %o541: f32):
      %p541 = arith.mulf %a538, %a539 : f32
      %q541 = arith.mulf %a537, %a540 : f32
      %r541 = arith.addf %p541, %q541 : f32
      linalg.yield %r541 : f32
    } -> tensor<8x2x1x2xf32>
    %cat542 = tensor.concat dim(3) %rl529, %rh536 : (tensor<8x2x1x2xf32>, tensor<8x2x1x2xf32>) -> tensor<8x2x1x4xf32>
    %e543 = tensor.empty() : tensor<2x2x8x4xf32>
    %tr544 = linalg.transpose ins(%cat525 : tensor<8x2x2x4xf32>) outs(%e543 : tensor<2x2x8x4xf32>) permutation = [1, 2, 0, 3]
    %cl545 = tensor.collapse_shape %tr544 [[0, 1], [2], [3]] : tensor<2x2x8x4xf32> into tensor<4x8x4xf32>
    %e546 = tensor.empty() : tensor<8x2x1x2x4xf32>
    %bc547 = linalg.broadcast ins(%cat542 : tensor<8x2x1x4xf32>) outs(%e546 : tensor<8x2x1x2x4xf32>) dimensions = [3]
    %cl548 = tensor.collapse_shape %bc547 [[0], [1], [2, 3], [4]] : tensor<8x2x1x2x4xf32> into tensor<8x2x2x4xf32>
    %e549 = tensor.empty() : tensor<2x2x8x4xf32>
    %tr550 = linalg.transpose ins(%cl548 : tensor<8x2x2x4xf32>) outs(%e549 : tensor<2x2x8x4xf32>) permutation = [1, 2, 0, 3]
    %cl551 = tensor.collapse_shape %tr550 [[0, 1], [2], [3]] : tensor<2x2x8x4xf32> into tensor<4x8x4xf32>
    %e552 = tensor.empty() : tensor<8x2x1x2x4xf32>
    %bc553 = linalg.broadcast ins(%ex508 : tensor<8x2x1x4xf32>) outs(%e552 : tensor<8x2x1x2x4xf32>) dimensions = [3]
    %cl554 = tensor.collapse_shape %bc553 [[0], [1], [2, 3], [4]] : tensor<8x2x1x2x4xf32> into tensor<8x2x2x4xf32>
    %e555 = tensor.empty() : tensor<2x2x8x4xf32>
    %tr556 = linalg.transpose ins(%cl554 : tensor<8x2x2x4xf32>) outs(%e555 : tensor<2x2x8x4xf32>) permutation = [1, 2, 0, 3]
    %cl557 = tensor.collapse_shape %tr556 [[0, 1], [2], [3]] : tensor<2x2x8x4xf32> into tensor<4x8x4xf32>
    %c558 = arith.constant 0.000000000e+00 : f32
    %e559 = tensor.empty() : tensor<4x8x8xf32>
    %f560 = linalg.fill ins(%c558 : f32) outs(%e559 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %sc561 = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%cl545, %cl551 : tensor<4x8x4xf32>, tensor<4x8x4xf32>) outs(%f560 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %e562 = tensor.empty() : tensor<4x8x8xf32>
    %masked563 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sc561 : tensor<4x8x8xf32>) outs(%e562 : tensor<4x8x8xf32>) {
    ^bb0(%a564: f32, %o565: f32):
      %qi565 = linalg.index 1 : index
      %ki565 = linalg.index 2 : index
      %ok565 = arith.cmpi ule, %ki565, %qi565 : index
      %sc565 = arith.constant 5.000000000e-01 : f32
      %v565 = arith.mulf %a564, %sc565 : f32
      %ninf565 = arith.constant -1.0e+30 : f32
      %r565 = arith.select %ok565, %v565, %ninf565 : f32
      linalg.yield %r565 : f32
    } -> tensor<4x8x8xf32>
    %e566 = tensor.empty() : tensor<4x8x8xf32>
    %sm567 = linalg.softmax dimension(2) ins(%masked563 : tensor<4x8x8xf32>) outs(%e566 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %c568 = arith.constant 0.000000000e+00 : f32
    %e569 = tensor.empty() : tensor<4x8x4xf32>
    %f570 = linalg.fill ins(%c568 : f32) outs(%e569 : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
    %mm571 = linalg.batch_matmul ins(%sm567, %cl557 : tensor<4x8x8xf32>, tensor<4x8x4xf32>) outs(%f570 : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
    %ex572 = tensor.expand_shape %mm571 [[0, 1], [2], [3]] output_shape [2, 2, 8, 4] : tensor<4x8x4xf32> into tensor<2x2x8x4xf32>
    %e573 = tensor.empty() : tensor<8x2x2x4xf32>
    %tr574 = linalg.transpose ins(%ex572 : tensor<2x2x8x4xf32>) outs(%e573 : tensor<8x2x2x4xf32>) permutation = [2, 0, 1, 3]
    %cl575 = tensor.collapse_shape %tr574 [[0], [1], [2, 3]] : tensor<8x2x2x4xf32> into tensor<8x2x8xf32>
    %cl576 = tensor.collapse_shape %cl575 [[0, 1], [2]] : tensor<8x2x8xf32> into tensor<16x8xf32>
    %c577 = arith.constant 0.000000000e+00 : f32
    %e578 = tensor.empty() : tensor<16x32xf32>
    %f579 = linalg.fill ins(%c577 : f32) outs(%e578 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %mm580 = linalg.matmul ins(%cl576, %l3_w_o : tensor<16x8xf32>, tensor<8x32xf32>) outs(%f579 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %ar581 = shard.all_reduce %mm580 on @grid grid_axes = [0] : tensor<16x32xf32> -> tensor<16x32xf32>
    %ex582 = tensor.expand_shape %ar581 [[0, 1], [2]] output_shape [8, 2, 32] : tensor<16x32xf32> into tensor<8x2x32xf32>
    %e583 = tensor.empty() : tensor<8x2x32xf32>
    %g584 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g472, %ex582 : tensor<8x2x32xf32>, tensor<8x2x32xf32>) outs(%e583 : tensor<8x2x32xf32>) {
    ^bb0(%a585: f32, %a586: f32, %o587: f32):
      %r587 = arith.addf %a585, %a586 : f32
      linalg.yield %r587 : f32
    } -> tensor<8x2x32xf32>
    %c588 = arith.constant 0.000000000e+00 : f32
    %e589 = tensor.empty() : tensor<8x2xf32>
    %f590 = linalg.fill ins(%c588 : f32) outs(%e589 : tensor<8x2xf32>) -> tensor<8x2xf32>
    %ss591 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%g584 : tensor<8x2x32xf32>) outs(%f590 : tensor<8x2xf32>) {
    ^bb0(%a592: f32, %o593: f32):
      %sq593 = arith.mulf %a592, %a592 : f32
      %ad593 = arith.addf %o593, %sq593 : f32
      linalg.yield %ad593 : f32
    } -> tensor<8x2xf32>
    %e594 = tensor.empty() : tensor<8x2x32xf32>
    %rms595 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g584, %ss591, %l3_mlp_norm_g : tensor<8x2x32xf32>, tensor<8x2xf32>, tensor<32xf32>) outs(%e594 : tensor<8x2x32xf32>) {
    ^bb0(%a596: f32, %a597: f32, %a598: f32, %o599: f32):
      %ic599 = arith.constant 3.125000000e-02 : f32
      %ms599 = arith.mulf %a597, %ic599 : f32
      %ep599 = arith.constant 1.000000000e-06 : f32
      %me599 = arith.addf %ms599, %ep599 : f32
      %rs599 = math.rsqrt %me599 : f32
      %y599 = arith.mulf %a596, %rs599 : f32
      %z599 = arith.mulf %y599, %a598 : f32
      linalg.yield %z599 : f32
    } -> tensor<8x2x32xf32>
    %cl600 = tensor.collapse_shape %rms595 [[0, 1], [2]] : tensor<8x2x32xf32> into tensor<16x32xf32>
    %c601 = arith.constant 0.000000000e+00 : f32
    %e602 = tensor.empty() : tensor<16x16xf32>
    %f603 = linalg.fill ins(%c601 : f32) outs(%e602 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %mm604 = linalg.matmul ins(%cl600, %l3_w_gate : tensor<16x32xf32>, tensor<32x16xf32>) outs(%f603 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %ex605 = tensor.expand_shape %mm604 [[0, 1], [2]] output_shape [8, 2, 16] : tensor<16x16xf32> into tensor<8x2x16xf32>
    %cl606 = tensor.collapse_shape %rms595 [[0, 1], [2]] : tensor<8x2x32xf32> into tensor<16x32xf32>
    %c607 = arith.constant 0.000000000e+00 : f32
    %e608 = tensor.empty() : tensor<16x16xf32>
    %f609 = linalg.fill ins(%c607 : f32) outs(%e608 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %mm610 = linalg.matmul ins(%cl606, %l3_w_up : tensor<16x32xf32>, tensor<32x16xf32>) outs(%f609 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %ex611 = tensor.expand_shape %mm610 [[0, 1], [2]] output_shape [8, 2, 16] : tensor<16x16xf32> into tensor<8x2x16xf32>
    %e612 = tensor.empty() : tensor<8x2x16xf32>
    %swi613 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex605, %ex611 : tensor<8x2x16xf32>, tensor<8x2x16xf32>) outs(%e612 : tensor<8x2x16xf32>) {
    ^bb0(%a614: f32, %a615: f32, %o616: f32):
      %n616 = arith.negf %a614 : f32
      %e616 = math.exp %n616 : f32
      %one616 = arith.constant 1.0 : f32
      %d616 = arith.addf %e616, %one616 : f32
      %s616 = arith.divf %a614, %d616 : f32
      %r616 = arith.mulf %s616, %a615 : f32
      linalg.yield %r616 : f32
    } -> tensor<8x2x16xf32>
    %cl617 = tensor.collapse_shape %swi613 [[0, 1], [2]] : tensor<8x2x16xf32> into tensor<16x16xf32>
    %c618 = arith.constant 0.000000000e+00 : f32
    %e619 = tensor.empty() : tensor<16x32xf32>
    %f620 = linalg.fill ins(%c618 : f32) outs(%e619 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %mm621 = linalg.matmul ins(%cl617, %l3_w_down : tensor<16x16xf32>, tensor<16x32xf32>) outs(%f620 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %ar622 = shard.all_reduce %mm621 on @grid grid_axes = [0] : tensor<16x32xf32> -> tensor<16x32xf32>
    %ex623 = tensor.expand_shape %ar622 [[0, 1], [2]] output_shape [8, 2, 32] : tensor<16x32xf32> into tensor<8x2x32xf32>
    %e624 = tensor.empty() : tensor<8x2x32xf32>
    %g625 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g584, %ex623 : tensor<8x2x32xf32>, tensor<8x2x32xf32>) outs(%e624 : tensor<8x2x32xf32>) {
    ^bb0(%a626: f32, %a627: f32, %o628: f32):
      %r628 = arith.addf %a626, %a627 : f32
      linalg.yield %r628 : f32
    } -> tensor<8x2x32xf32>
    %c629 = arith.constant 0.000000000e+00 : f32
    %e630 = tensor.empty() : tensor<8x2xf32>
    %f631 = linalg.fill ins(%c629 : f32) outs(%e630 : tensor<8x2xf32>) -> tensor<8x2xf32>
    %ss632 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%g625 : tensor<8x2x32xf32>) outs(%f631 : tensor<8x2xf32>) {
    ^bb0(%a633: f32, %o634: f32):
      %sq634 = arith.mulf %a633, %a633 : f32
      %ad634 = arith.addf %o634, %sq634 : f32
      linalg.yield %ad634 : f32
    } -> tensor<8x2xf32>
    %e635 = tensor.empty() : tensor<8x2x32xf32>
    %rms636 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g625, %ss632, %norm_g : tensor<8x2x32xf32>, tensor<8x2xf32>, tensor<32xf32>) outs(%e635 : tensor<8x2x32xf32>) {
    ^bb0(%a637: f32, %a638: f32, %a639: f32, %o640: f32):
      %ic640 = arith.constant 3.125000000e-02 : f32
      %ms640 = arith.mulf %a638, %ic640 : f32
      %ep640 = arith.constant 1.000000000e-06 : f32
      %me640 = arith.addf %ms640, %ep640 : f32
      %rs640 = math.rsqrt %me640 : f32
      %y640 = arith.mulf %a637, %rs640 : f32
      %z640 = arith.mulf %y640, %a639 : f32
      linalg.yield %z640 : f32
    } -> tensor<8x2x32xf32>
    return %rms636 : tensor<8x2x32xf32>
  }
}
