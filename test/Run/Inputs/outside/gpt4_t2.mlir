// Hand-written per-rank program (written outside the project generator; see README.md).
module {
  shard.grid @grid(shape = 2) {sym_visibility = "private"}
  func.func @forward(
      %x: tensor<2x8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>, seqpar.seq_dim = 1 : i64},
      %l0_ln1_g: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l0_ln1_b: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l0_w_qkv: tensor<16x24xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0] groups 3]>},
      %l0_b_qkv: tensor<24xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0] groups 3]>},
      %l0_w_o: tensor<8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l0_b_o: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l0_ln2_g: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l0_ln2_b: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l0_w_fc1: tensor<16x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l0_b_fc1: tensor<32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l0_w_fc2: tensor<32x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l0_b_fc2: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l1_ln1_g: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l1_ln1_b: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l1_w_qkv: tensor<16x24xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0] groups 3]>},
      %l1_b_qkv: tensor<24xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0] groups 3]>},
      %l1_w_o: tensor<8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l1_b_o: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l1_ln2_g: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l1_ln2_b: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l1_w_fc1: tensor<16x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l1_b_fc1: tensor<32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l1_w_fc2: tensor<32x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l1_b_fc2: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l2_ln1_g: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l2_ln1_b: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l2_w_qkv: tensor<16x24xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0] groups 3]>},
      %l2_b_qkv: tensor<24xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0] groups 3]>},
      %l2_w_o: tensor<8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l2_b_o: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l2_ln2_g: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l2_ln2_b: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l2_w_fc1: tensor<16x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l2_b_fc1: tensor<32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l2_w_fc2: tensor<32x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l2_b_fc2: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l3_ln1_g: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l3_ln1_b: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l3_w_qkv: tensor<16x24xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0] groups 3]>},
      %l3_b_qkv: tensor<24xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0] groups 3]>},
      %l3_w_o: tensor<8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l3_b_o: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l3_ln2_g: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l3_ln2_b: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l3_w_fc1: tensor<16x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l3_b_fc1: tensor<32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l3_w_fc2: tensor<32x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l3_b_fc2: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
      -> (tensor<2x8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
    %dropout_seed = arith.constant 1234 : i64
    %mask = arith.constant dense<[[0.0, -1.0e+09, -1.0e+09, -1.0e+09, -1.0e+09, -1.0e+09, -1.0e+09, -1.0e+09], [0.0, 0.0, -1.0e+09, -1.0e+09, -1.0e+09, -1.0e+09, -1.0e+09, -1.0e+09], [0.0, 0.0, 0.0, -1.0e+09, -1.0e+09, -1.0e+09, -1.0e+09, -1.0e+09], [0.0, 0.0, 0.0, 0.0, -1.0e+09, -1.0e+09, -1.0e+09, -1.0e+09], [0.0, 0.0, 0.0, 0.0, 0.0, -1.0e+09, -1.0e+09, -1.0e+09], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0e+09, -1.0e+09], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0e+09], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]> : tensor<8x8xf32>
    %c1 = arith.constant 0.000000000e+00 : f32
    %e2 = tensor.empty() : tensor<2x8xf32>
    %f3 = linalg.fill ins(%c1 : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %red4 = linalg.reduce ins(%x : tensor<2x8x16xf32>) outs(%f3 : tensor<2x8xf32>) dimensions = [2]
      (%in5: f32, %acc6: f32) {
        %r7 = arith.addf %in5, %acc6 : f32
        linalg.yield %r7 : f32
      }
    %c8 = arith.constant 6.250000000e-02 : f32
    %e9 = tensor.empty() : tensor<2x8xf32>
    %f10 = linalg.fill ins(%c8 : f32) outs(%e9 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e11 = tensor.empty() : tensor<2x8xf32>
    %mul12 = linalg.mul ins(%red4, %f10 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e11 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e13 = tensor.empty() : tensor<2x8x16xf32>
    %bc14 = linalg.broadcast ins(%mul12 : tensor<2x8xf32>) outs(%e13 : tensor<2x8x16xf32>) dimensions = [2]
    %e15 = tensor.empty() : tensor<2x8x16xf32>
    %sub16 = linalg.sub ins(%x, %bc14 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e15 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e17 = tensor.empty() : tensor<2x8x16xf32>
    %mul18 = linalg.mul ins(%sub16, %sub16 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e17 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %c19 = arith.constant 0.000000000e+00 : f32
    %e20 = tensor.empty() : tensor<2x8xf32>
    %f21 = linalg.fill ins(%c19 : f32) outs(%e20 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %red22 = linalg.reduce ins(%mul18 : tensor<2x8x16xf32>) outs(%f21 : tensor<2x8xf32>) dimensions = [2]
      (%in23: f32, %acc24: f32) {
        %r25 = arith.addf %in23, %acc24 : f32
        linalg.yield %r25 : f32
      }
    %e26 = tensor.empty() : tensor<2x8xf32>
    %mul27 = linalg.mul ins(%red22, %f10 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e26 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %c28 = arith.constant 1.000000000e-05 : f32
    %e29 = tensor.empty() : tensor<2x8xf32>
    %f30 = linalg.fill ins(%c28 : f32) outs(%e29 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e31 = tensor.empty() : tensor<2x8xf32>
    %add32 = linalg.add ins(%mul27, %f30 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e31 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e33 = tensor.empty() : tensor<2x8xf32>
    %sqrt34 = linalg.sqrt ins(%add32 : tensor<2x8xf32>) outs(%e33 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %c35 = arith.constant 1.000000000e+00 : f32
    %e36 = tensor.empty() : tensor<2x8xf32>
    %f37 = linalg.fill ins(%c35 : f32) outs(%e36 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e38 = tensor.empty() : tensor<2x8xf32>
    %div39 = linalg.div ins(%f37, %sqrt34 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e38 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e40 = tensor.empty() : tensor<2x8x16xf32>
    %bc41 = linalg.broadcast ins(%div39 : tensor<2x8xf32>) outs(%e40 : tensor<2x8x16xf32>) dimensions = [2]
    %e42 = tensor.empty() : tensor<2x8x16xf32>
    %mul43 = linalg.mul ins(%sub16, %bc41 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e42 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e44 = tensor.empty() : tensor<2x8x16xf32>
    %bc45 = linalg.broadcast ins(%l0_ln1_g : tensor<16xf32>) outs(%e44 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e46 = tensor.empty() : tensor<2x8x16xf32>
    %mul47 = linalg.mul ins(%mul43, %bc45 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e46 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e48 = tensor.empty() : tensor<2x8x16xf32>
    %bc49 = linalg.broadcast ins(%l0_ln1_b : tensor<16xf32>) outs(%e48 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e50 = tensor.empty() : tensor<2x8x16xf32>
    %add51 = linalg.add ins(%mul47, %bc49 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e50 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e52 = tensor.empty() : tensor<2x16x24xf32>
    %bc53 = linalg.broadcast ins(%l0_w_qkv : tensor<16x24xf32>) outs(%e52 : tensor<2x16x24xf32>) dimensions = [0]
    %c54 = arith.constant 0.000000000e+00 : f32
    %e55 = tensor.empty() : tensor<2x8x24xf32>
    %f56 = linalg.fill ins(%c54 : f32) outs(%e55 : tensor<2x8x24xf32>) -> tensor<2x8x24xf32>
    %mm57 = linalg.batch_matmul ins(%add51, %bc53 : tensor<2x8x16xf32>, tensor<2x16x24xf32>) outs(%f56 : tensor<2x8x24xf32>) -> tensor<2x8x24xf32>
    %e58 = tensor.empty() : tensor<2x8x24xf32>
    %bc59 = linalg.broadcast ins(%l0_b_qkv : tensor<24xf32>) outs(%e58 : tensor<2x8x24xf32>) dimensions = [0, 1]
    %e60 = tensor.empty() : tensor<2x8x24xf32>
    %add61 = linalg.add ins(%mm57, %bc59 : tensor<2x8x24xf32>, tensor<2x8x24xf32>) outs(%e60 : tensor<2x8x24xf32>) -> tensor<2x8x24xf32>
    %ex62 = tensor.expand_shape %add61 [[0], [1], [2, 3, 4]] output_shape [2, 8, 3, 2, 4] : tensor<2x8x24xf32> into tensor<2x8x3x2x4xf32>
    %sl63 = tensor.extract_slice %ex62[0, 0, 0, 0, 0] [2, 8, 1, 2, 4] [1, 1, 1, 1, 1] : tensor<2x8x3x2x4xf32> to tensor<2x8x2x4xf32>
    %sl64 = tensor.extract_slice %ex62[0, 0, 1, 0, 0] [2, 8, 1, 2, 4] [1, 1, 1, 1, 1] : tensor<2x8x3x2x4xf32> to tensor<2x8x2x4xf32>
    %sl65 = tensor.extract_slice %ex62[0, 0, 2, 0, 0] [2, 8, 1, 2, 4] [1, 1, 1, 1, 1] : tensor<2x8x3x2x4xf32> to tensor<2x8x2x4xf32>
    %e66 = tensor.empty() : tensor<2x2x8x4xf32>
    %tr67 = linalg.transpose ins(%sl63 : tensor<2x8x2x4xf32>) outs(%e66 : tensor<2x2x8x4xf32>) permutation = [0, 2, 1, 3]
    %cl68 = tensor.collapse_shape %tr67 [[0, 1], [2], [3]] : tensor<2x2x8x4xf32> into tensor<4x8x4xf32>
    %e69 = tensor.empty() : tensor<2x2x4x8xf32>
    %tr70 = linalg.transpose ins(%sl64 : tensor<2x8x2x4xf32>) outs(%e69 : tensor<2x2x4x8xf32>) permutation = [0, 2, 3, 1]
    %cl71 = tensor.collapse_shape %tr70 [[0, 1], [2], [3]] : tensor<2x2x4x8xf32> into tensor<4x4x8xf32>
    %e72 = tensor.empty() : tensor<2x2x8x4xf32>
    %tr73 = linalg.transpose ins(%sl65 : tensor<2x8x2x4xf32>) outs(%e72 : tensor<2x2x8x4xf32>) permutation = [0, 2, 1, 3]
    %cl74 = tensor.collapse_shape %tr73 [[0, 1], [2], [3]] : tensor<2x2x8x4xf32> into tensor<4x8x4xf32>
    %c75 = arith.constant 0.000000000e+00 : f32
    %e76 = tensor.empty() : tensor<4x8x8xf32>
    %f77 = linalg.fill ins(%c75 : f32) outs(%e76 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %mm78 = linalg.batch_matmul ins(%cl68, %cl71 : tensor<4x8x4xf32>, tensor<4x4x8xf32>) outs(%f77 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %c79 = arith.constant 5.000000000e-01 : f32
    %e80 = tensor.empty() : tensor<4x8x8xf32>
    %f81 = linalg.fill ins(%c79 : f32) outs(%e80 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %e82 = tensor.empty() : tensor<4x8x8xf32>
    %mul83 = linalg.mul ins(%mm78, %f81 : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%e82 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %e84 = tensor.empty() : tensor<4x8x8xf32>
    %bc85 = linalg.broadcast ins(%mask : tensor<8x8xf32>) outs(%e84 : tensor<4x8x8xf32>) dimensions = [0]
    %e86 = tensor.empty() : tensor<4x8x8xf32>
    %add87 = linalg.add ins(%mul83, %bc85 : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%e86 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %e88 = tensor.empty() : tensor<4x8x8xf32>
    %sm89 = linalg.softmax dimension(2) ins(%add87 : tensor<4x8x8xf32>) outs(%e88 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %c90 = arith.constant 0.000000000e+00 : f32
    %e91 = tensor.empty() : tensor<4x8x4xf32>
    %f92 = linalg.fill ins(%c90 : f32) outs(%e91 : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
    %mm93 = linalg.batch_matmul ins(%sm89, %cl74 : tensor<4x8x8xf32>, tensor<4x8x4xf32>) outs(%f92 : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
    %ex94 = tensor.expand_shape %mm93 [[0, 1], [2], [3]] output_shape [2, 2, 8, 4] : tensor<4x8x4xf32> into tensor<2x2x8x4xf32>
    %e95 = tensor.empty() : tensor<2x8x2x4xf32>
    %tr96 = linalg.transpose ins(%ex94 : tensor<2x2x8x4xf32>) outs(%e95 : tensor<2x8x2x4xf32>) permutation = [0, 2, 1, 3]
    %cl97 = tensor.collapse_shape %tr96 [[0], [1], [2, 3]] : tensor<2x8x2x4xf32> into tensor<2x8x8xf32>
    %e98 = tensor.empty() : tensor<2x8x16xf32>
    %bc99 = linalg.broadcast ins(%l0_w_o : tensor<8x16xf32>) outs(%e98 : tensor<2x8x16xf32>) dimensions = [0]
    %c100 = arith.constant 0.000000000e+00 : f32
    %e101 = tensor.empty() : tensor<2x8x16xf32>
    %f102 = linalg.fill ins(%c100 : f32) outs(%e101 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %mm103 = linalg.batch_matmul ins(%cl97, %bc99 : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%f102 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %ar104 = shard.all_reduce %mm103 on @grid grid_axes = [0] : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
    %e105 = tensor.empty() : tensor<2x8x16xf32>
    %bc106 = linalg.broadcast ins(%l0_b_o : tensor<16xf32>) outs(%e105 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e107 = tensor.empty() : tensor<2x8x16xf32>
    %add108 = linalg.add ins(%ar104, %bc106 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e107 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %drop0 = seqpar.dropout %add108 seed %dropout_seed {rate = 0.1 : f64, site = 0 : i64} : tensor<2x8x16xf32>
    %e109 = tensor.empty() : tensor<2x8x16xf32>
    %add110 = linalg.add ins(%x, %drop0 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e109 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %c111 = arith.constant 0.000000000e+00 : f32
    %e112 = tensor.empty() : tensor<2x8xf32>
    %f113 = linalg.fill ins(%c111 : f32) outs(%e112 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %red114 = linalg.reduce ins(%add110 : tensor<2x8x16xf32>) outs(%f113 : tensor<2x8xf32>) dimensions = [2]
      (%in115: f32, %acc116: f32) {
        %r117 = arith.addf %in115, %acc116 : f32
        linalg.yield %r117 : f32
      }
    %c118 = arith.constant 6.250000000e-02 : f32
    %e119 = tensor.empty() : tensor<2x8xf32>
    %f120 = linalg.fill ins(%c118 : f32) outs(%e119 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e121 = tensor.empty() : tensor<2x8xf32>
    %mul122 = linalg.mul ins(%red114, %f120 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e121 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e123 = tensor.empty() : tensor<2x8x16xf32>
    %bc124 = linalg.broadcast ins(%mul122 : tensor<2x8xf32>) outs(%e123 : tensor<2x8x16xf32>) dimensions = [2]
    %e125 = tensor.empty() : tensor<2x8x16xf32>
    %sub126 = linalg.sub ins(%add110, %bc124 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e125 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e127 = tensor.empty() : tensor<2x8x16xf32>
    %mul128 = linalg.mul ins(%sub126, %sub126 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e127 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %c129 = arith.constant 0.000000000e+00 : f32
    %e130 = tensor.empty() : tensor<2x8xf32>
    %f131 = linalg.fill ins(%c129 : f32) outs(%e130 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %red132 = linalg.reduce ins(%mul128 : tensor<2x8x16xf32>) outs(%f131 : tensor<2x8xf32>) dimensions = [2]
      (%in133: f32, %acc134: f32) {
        %r135 = arith.addf %in133, %acc134 : f32
        linalg.yield %r135 : f32
      }
    %e136 = tensor.empty() : tensor<2x8xf32>
    %mul137 = linalg.mul ins(%red132, %f120 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e136 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %c138 = arith.constant 1.000000000e-05 : f32
    %e139 = tensor.empty() : tensor<2x8xf32>
    %f140 = linalg.fill ins(%c138 : f32) outs(%e139 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e141 = tensor.empty() : tensor<2x8xf32>
    %add142 = linalg.add ins(%mul137, %f140 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e141 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e143 = tensor.empty() : tensor<2x8xf32>
    %sqrt144 = linalg.sqrt ins(%add142 : tensor<2x8xf32>) outs(%e143 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %c145 = arith.constant 1.000000000e+00 : f32
    %e146 = tensor.empty() : tensor<2x8xf32>
    %f147 = linalg.fill ins(%c145 : f32) outs(%e146 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e148 = tensor.empty() : tensor<2x8xf32>
    %div149 = linalg.div ins(%f147, %sqrt144 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e148 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e150 = tensor.empty() : tensor<2x8x16xf32>
    %bc151 = linalg.broadcast ins(%div149 : tensor<2x8xf32>) outs(%e150 : tensor<2x8x16xf32>) dimensions = [2]
    %e152 = tensor.empty() : tensor<2x8x16xf32>
    %mul153 = linalg.mul ins(%sub126, %bc151 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e152 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e154 = tensor.empty() : tensor<2x8x16xf32>
    %bc155 = linalg.broadcast ins(%l0_ln2_g : tensor<16xf32>) outs(%e154 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e156 = tensor.empty() : tensor<2x8x16xf32>
    %mul157 = linalg.mul ins(%mul153, %bc155 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e156 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e158 = tensor.empty() : tensor<2x8x16xf32>
    %bc159 = linalg.broadcast ins(%l0_ln2_b : tensor<16xf32>) outs(%e158 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e160 = tensor.empty() : tensor<2x8x16xf32>
    %add161 = linalg.add ins(%mul157, %bc159 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e160 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e162 = tensor.empty() : tensor<2x16x32xf32>
    %bc163 = linalg.broadcast ins(%l0_w_fc1 : tensor<16x32xf32>) outs(%e162 : tensor<2x16x32xf32>) dimensions = [0]
    %c164 = arith.constant 0.000000000e+00 : f32
    %e165 = tensor.empty() : tensor<2x8x32xf32>
    %f166 = linalg.fill ins(%c164 : f32) outs(%e165 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %mm167 = linalg.batch_matmul ins(%add161, %bc163 : tensor<2x8x16xf32>, tensor<2x16x32xf32>) outs(%f166 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %e168 = tensor.empty() : tensor<2x8x32xf32>
    %bc169 = linalg.broadcast ins(%l0_b_fc1 : tensor<32xf32>) outs(%e168 : tensor<2x8x32xf32>) dimensions = [0, 1]
    %e170 = tensor.empty() : tensor<2x8x32xf32>
    %add171 = linalg.add ins(%mm167, %bc169 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%e170 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %c172 = arith.constant -1.702000000e+00 : f32
    %e173 = tensor.empty() : tensor<2x8x32xf32>
    %f174 = linalg.fill ins(%c172 : f32) outs(%e173 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %e175 = tensor.empty() : tensor<2x8x32xf32>
    %mul176 = linalg.mul ins(%add171, %f174 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%e175 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %e177 = tensor.empty() : tensor<2x8x32xf32>
    %exp178 = linalg.exp ins(%mul176 : tensor<2x8x32xf32>) outs(%e177 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %c179 = arith.constant 1.000000000e+00 : f32
    %e180 = tensor.empty() : tensor<2x8x32xf32>
    %f181 = linalg.fill ins(%c179 : f32) outs(%e180 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %e182 = tensor.empty() : tensor<2x8x32xf32>
    %add183 = linalg.add ins(%exp178, %f181 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%e182 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %e184 = tensor.empty() : tensor<2x8x32xf32>
    %div185 = linalg.div ins(%add171, %add183 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%e184 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %e186 = tensor.empty() : tensor<2x32x16xf32>
    %bc187 = linalg.broadcast ins(%l0_w_fc2 : tensor<32x16xf32>) outs(%e186 : tensor<2x32x16xf32>) dimensions = [0]
    %c188 = arith.constant 0.000000000e+00 : f32
    %e189 = tensor.empty() : tensor<2x8x16xf32>
    %f190 = linalg.fill ins(%c188 : f32) outs(%e189 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %mm191 = linalg.batch_matmul ins(%div185, %bc187 : tensor<2x8x32xf32>, tensor<2x32x16xf32>) outs(%f190 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %ar192 = shard.all_reduce %mm191 on @grid grid_axes = [0] : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
    %e193 = tensor.empty() : tensor<2x8x16xf32>
    %bc194 = linalg.broadcast ins(%l0_b_fc2 : tensor<16xf32>) outs(%e193 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e195 = tensor.empty() : tensor<2x8x16xf32>
    %add196 = linalg.add ins(%ar192, %bc194 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e195 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %drop1 = seqpar.dropout %add196 seed %dropout_seed {rate = 0.1 : f64, site = 1 : i64} : tensor<2x8x16xf32>
    %e197 = tensor.empty() : tensor<2x8x16xf32>
    %add198 = linalg.add ins(%add110, %drop1 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e197 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %c199 = arith.constant 0.000000000e+00 : f32
    %e200 = tensor.empty() : tensor<2x8xf32>
    %f201 = linalg.fill ins(%c199 : f32) outs(%e200 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %red202 = linalg.reduce ins(%add198 : tensor<2x8x16xf32>) outs(%f201 : tensor<2x8xf32>) dimensions = [2]
      (%in203: f32, %acc204: f32) {
        %r205 = arith.addf %in203, %acc204 : f32
        linalg.yield %r205 : f32
      }
    %c206 = arith.constant 6.250000000e-02 : f32
    %e207 = tensor.empty() : tensor<2x8xf32>
    %f208 = linalg.fill ins(%c206 : f32) outs(%e207 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e209 = tensor.empty() : tensor<2x8xf32>
    %mul210 = linalg.mul ins(%red202, %f208 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e209 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e211 = tensor.empty() : tensor<2x8x16xf32>
    %bc212 = linalg.broadcast ins(%mul210 : tensor<2x8xf32>) outs(%e211 : tensor<2x8x16xf32>) dimensions = [2]
    %e213 = tensor.empty() : tensor<2x8x16xf32>
    %sub214 = linalg.sub ins(%add198, %bc212 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e213 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e215 = tensor.empty() : tensor<2x8x16xf32>
    %mul216 = linalg.mul ins(%sub214, %sub214 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e215 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %c217 = arith.constant 0.000000000e+00 : f32
    %e218 = tensor.empty() : tensor<2x8xf32>
    %f219 = linalg.fill ins(%c217 : f32) outs(%e218 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %red220 = linalg.reduce ins(%mul216 : tensor<2x8x16xf32>) outs(%f219 : tensor<2x8xf32>) dimensions = [2]
      (%in221: f32, %acc222: f32) {
        %r223 = arith.addf %in221, %acc222 : f32
        linalg.yield %r223 : f32
      }
    %e224 = tensor.empty() : tensor<2x8xf32>
    %mul225 = linalg.mul ins(%red220, %f208 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e224 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %c226 = arith.constant 1.000000000e-05 : f32
    %e227 = tensor.empty() : tensor<2x8xf32>
    %f228 = linalg.fill ins(%c226 : f32) outs(%e227 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e229 = tensor.empty() : tensor<2x8xf32>
    %add230 = linalg.add ins(%mul225, %f228 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e229 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e231 = tensor.empty() : tensor<2x8xf32>
    %sqrt232 = linalg.sqrt ins(%add230 : tensor<2x8xf32>) outs(%e231 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %c233 = arith.constant 1.000000000e+00 : f32
    %e234 = tensor.empty() : tensor<2x8xf32>
    %f235 = linalg.fill ins(%c233 : f32) outs(%e234 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e236 = tensor.empty() : tensor<2x8xf32>
    %div237 = linalg.div ins(%f235, %sqrt232 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e236 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e238 = tensor.empty() : tensor<2x8x16xf32>
    %bc239 = linalg.broadcast ins(%div237 : tensor<2x8xf32>) outs(%e238 : tensor<2x8x16xf32>) dimensions = [2]
    %e240 = tensor.empty() : tensor<2x8x16xf32>
    %mul241 = linalg.mul ins(%sub214, %bc239 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e240 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e242 = tensor.empty() : tensor<2x8x16xf32>
    %bc243 = linalg.broadcast ins(%l1_ln1_g : tensor<16xf32>) outs(%e242 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e244 = tensor.empty() : tensor<2x8x16xf32>
    %mul245 = linalg.mul ins(%mul241, %bc243 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e244 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e246 = tensor.empty() : tensor<2x8x16xf32>
    %bc247 = linalg.broadcast ins(%l1_ln1_b : tensor<16xf32>) outs(%e246 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e248 = tensor.empty() : tensor<2x8x16xf32>
    %add249 = linalg.add ins(%mul245, %bc247 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e248 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e250 = tensor.empty() : tensor<2x16x24xf32>
    %bc251 = linalg.broadcast ins(%l1_w_qkv : tensor<16x24xf32>) outs(%e250 : tensor<2x16x24xf32>) dimensions = [0]
    %c252 = arith.constant 0.000000000e+00 : f32
    %e253 = tensor.empty() : tensor<2x8x24xf32>
    %f254 = linalg.fill ins(%c252 : f32) outs(%e253 : tensor<2x8x24xf32>) -> tensor<2x8x24xf32>
    %mm255 = linalg.batch_matmul ins(%add249, %bc251 : tensor<2x8x16xf32>, tensor<2x16x24xf32>) outs(%f254 : tensor<2x8x24xf32>) -> tensor<2x8x24xf32>
    %e256 = tensor.empty() : tensor<2x8x24xf32>
    %bc257 = linalg.broadcast ins(%l1_b_qkv : tensor<24xf32>) outs(%e256 : tensor<2x8x24xf32>) dimensions = [0, 1]
    %e258 = tensor.empty() : tensor<2x8x24xf32>
    %add259 = linalg.add ins(%mm255, %bc257 : tensor<2x8x24xf32>, tensor<2x8x24xf32>) outs(%e258 : tensor<2x8x24xf32>) -> tensor<2x8x24xf32>
    %ex260 = tensor.expand_shape %add259 [[0], [1], [2, 3, 4]] output_shape [2, 8, 3, 2, 4] : tensor<2x8x24xf32> into tensor<2x8x3x2x4xf32>
    %sl261 = tensor.extract_slice %ex260[0, 0, 0, 0, 0] [2, 8, 1, 2, 4] [1, 1, 1, 1, 1] : tensor<2x8x3x2x4xf32> to tensor<2x8x2x4xf32>
    %sl262 = tensor.extract_slice %ex260[0, 0, 1, 0, 0] [2, 8, 1, 2, 4] [1, 1, 1, 1, 1] : tensor<2x8x3x2x4xf32> to tensor<2x8x2x4xf32>
    %sl263 = tensor.extract_slice %ex260[0, 0, 2, 0, 0] [2, 8, 1, 2, 4] [1, 1, 1, 1, 1] : tensor<2x8x3x2x4xf32> to tensor<2x8x2x4xf32>
    %e264 = tensor.empty() : tensor<2x2x8x4xf32>
    %tr265 = linalg.transpose ins(%sl261 : tensor<2x8x2x4xf32>) outs(%e264 : tensor<2x2x8x4xf32>) permutation = [0, 2, 1, 3]
    %cl266 = tensor.collapse_shape %tr265 [[0, 1], [2], [3]] : tensor<2x2x8x4xf32> into tensor<4x8x4xf32>
    %e267 = tensor.empty() : tensor<2x2x4x8xf32>
    %tr268 = linalg.transpose ins(%sl262 : tensor<2x8x2x4xf32>) outs(%e267 : tensor<2x2x4x8xf32>) permutation = [0, 2, 3, 1]
    %cl269 = tensor.collapse_shape %tr268 [[0, 1], [2], [3]] : tensor<2x2x4x8xf32> into tensor<4x4x8xf32>
    %e270 = tensor.empty() : tensor<2x2x8x4xf32>
    %tr271 = linalg.transpose ins(%sl263 : tensor<2x8x2x4xf32>) outs(%e270 : tensor<2x2x8x4xf32>) permutation = [0, 2, 1, 3]
    %cl272 = tensor.collapse_shape %tr271 [[0, 1], [2], [3]] : tensor<2x2x8x4xf32> into tensor<4x8x4xf32>
    %c273 = arith.constant 0.000000000e+00 : f32
    %e274 = tensor.empty() : tensor<4x8x8xf32>
    %f275 = linalg.fill ins(%c273 : f32) outs(%e274 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %mm276 = linalg.batch_matmul ins(%cl266, %cl269 : tensor<4x8x4xf32>, tensor<4x4x8xf32>) outs(%f275 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %c277 = arith.constant 5.000000000e-01 : f32
    %e278 = tensor.empty() : tensor<4x8x8xf32>
    %f279 = linalg.fill ins(%c277 : f32) outs(%e278 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %e280 = tensor.empty() : tensor<4x8x8xf32>
    %mul281 = linalg.mul ins(%mm276, %f279 : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%e280 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %e282 = tensor.empty() : tensor<4x8x8xf32>
    %bc283 = linalg.broadcast ins(%mask : tensor<8x8xf32>) outs(%e282 : tensor<4x8x8xf32>) dimensions = [0]
    %e284 = tensor.empty() : tensor<4x8x8xf32>
    %add285 = linalg.add ins(%mul281, %bc283 : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%e284 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %e286 = tensor.empty() : tensor<4x8x8xf32>
    %sm287 = linalg.softmax dimension(2) ins(%add285 : tensor<4x8x8xf32>) outs(%e286 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %c288 = arith.constant 0.000000000e+00 : f32
    %e289 = tensor.empty() : tensor<4x8x4xf32>
    %f290 = linalg.fill ins(%c288 : f32) outs(%e289 : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
    %mm291 = linalg.batch_matmul ins(%sm287, %cl272 : tensor<4x8x8xf32>, tensor<4x8x4xf32>) outs(%f290 : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
    %ex292 = tensor.expand_shape %mm291 [[0, 1], [2], [3]] output_shape [2, 2, 8, 4] : tensor<4x8x4xf32> into tensor<2x2x8x4xf32>
    %e293 = tensor.empty() : tensor<2x8x2x4xf32>
    %tr294 = linalg.transpose ins(%ex292 : tensor<2x2x8x4xf32>) outs(%e293 : tensor<2x8x2x4xf32>) permutation = [0, 2, 1, 3]
    %cl295 = tensor.collapse_shape %tr294 [[0], [1], [2, 3]] : tensor<2x8x2x4xf32> into tensor<2x8x8xf32>
    %e296 = tensor.empty() : tensor<2x8x16xf32>
    %bc297 = linalg.broadcast ins(%l1_w_o : tensor<8x16xf32>) outs(%e296 : tensor<2x8x16xf32>) dimensions = [0]
    %c298 = arith.constant 0.000000000e+00 : f32
    %e299 = tensor.empty() : tensor<2x8x16xf32>
    %f300 = linalg.fill ins(%c298 : f32) outs(%e299 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %mm301 = linalg.batch_matmul ins(%cl295, %bc297 : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%f300 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %ar302 = shard.all_reduce %mm301 on @grid grid_axes = [0] : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
    %e303 = tensor.empty() : tensor<2x8x16xf32>
    %bc304 = linalg.broadcast ins(%l1_b_o : tensor<16xf32>) outs(%e303 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e305 = tensor.empty() : tensor<2x8x16xf32>
    %add306 = linalg.add ins(%ar302, %bc304 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e305 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %drop2 = seqpar.dropout %add306 seed %dropout_seed {rate = 0.1 : f64, site = 2 : i64} : tensor<2x8x16xf32>
    %e307 = tensor.empty() : tensor<2x8x16xf32>
    %add308 = linalg.add ins(%add198, %drop2 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e307 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %c309 = arith.constant 0.000000000e+00 : f32
    %e310 = tensor.empty() : tensor<2x8xf32>
    %f311 = linalg.fill ins(%c309 : f32) outs(%e310 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %red312 = linalg.reduce ins(%add308 : tensor<2x8x16xf32>) outs(%f311 : tensor<2x8xf32>) dimensions = [2]
      (%in313: f32, %acc314: f32) {
        %r315 = arith.addf %in313, %acc314 : f32
        linalg.yield %r315 : f32
      }
    %c316 = arith.constant 6.250000000e-02 : f32
    %e317 = tensor.empty() : tensor<2x8xf32>
    %f318 = linalg.fill ins(%c316 : f32) outs(%e317 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e319 = tensor.empty() : tensor<2x8xf32>
    %mul320 = linalg.mul ins(%red312, %f318 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e319 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e321 = tensor.empty() : tensor<2x8x16xf32>
    %bc322 = linalg.broadcast ins(%mul320 : tensor<2x8xf32>) outs(%e321 : tensor<2x8x16xf32>) dimensions = [2]
    %e323 = tensor.empty() : tensor<2x8x16xf32>
    %sub324 = linalg.sub ins(%add308, %bc322 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e323 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e325 = tensor.empty() : tensor<2x8x16xf32>
    %mul326 = linalg.mul ins(%sub324, %sub324 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e325 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %c327 = arith.constant 0.000000000e+00 : f32
    %e328 = tensor.empty() : tensor<2x8xf32>
    %f329 = linalg.fill ins(%c327 : f32) outs(%e328 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %red330 = linalg.reduce ins(%mul326 : tensor<2x8x16xf32>) outs(%f329 : tensor<2x8xf32>) dimensions = [2]
      (%in331: f32, %acc332: f32) {
        %r333 = arith.addf %in331, %acc332 : f32
        linalg.yield %r333 : f32
      }
    %e334 = tensor.empty() : tensor<2x8xf32>
    %mul335 = linalg.mul ins(%red330, %f318 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e334 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %c336 = arith.constant 1.000000000e-05 : f32
    %e337 = tensor.empty() : tensor<2x8xf32>
    %f338 = linalg.fill ins(%c336 : f32) outs(%e337 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e339 = tensor.empty() : tensor<2x8xf32>
    %add340 = linalg.add ins(%mul335, %f338 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e339 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e341 = tensor.empty() : tensor<2x8xf32>
    %sqrt342 = linalg.sqrt ins(%add340 : tensor<2x8xf32>) outs(%e341 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %c343 = arith.constant 1.000000000e+00 : f32
    %e344 = tensor.empty() : tensor<2x8xf32>
    %f345 = linalg.fill ins(%c343 : f32) outs(%e344 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e346 = tensor.empty() : tensor<2x8xf32>
    %div347 = linalg.div ins(%f345, %sqrt342 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e346 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e348 = tensor.empty() : tensor<2x8x16xf32>
    %bc349 = linalg.broadcast ins(%div347 : tensor<2x8xf32>) outs(%e348 : tensor<2x8x16xf32>) dimensions = [2]
    %e350 = tensor.empty() : tensor<2x8x16xf32>
    %mul351 = linalg.mul ins(%sub324, %bc349 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e350 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e352 = tensor.empty() : tensor<2x8x16xf32>
    %bc353 = linalg.broadcast ins(%l1_ln2_g : tensor<16xf32>) outs(%e352 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e354 = tensor.empty() : tensor<2x8x16xf32>
    %mul355 = linalg.mul ins(%mul351, %bc353 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e354 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e356 = tensor.empty() : tensor<2x8x16xf32>
    %bc357 = linalg.broadcast ins(%l1_ln2_b : tensor<16xf32>) outs(%e356 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e358 = tensor.empty() : tensor<2x8x16xf32>
    %add359 = linalg.add ins(%mul355, %bc357 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e358 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e360 = tensor.empty() : tensor<2x16x32xf32>
    %bc361 = linalg.broadcast ins(%l1_w_fc1 : tensor<16x32xf32>) outs(%e360 : tensor<2x16x32xf32>) dimensions = [0]
    %c362 = arith.constant 0.000000000e+00 : f32
    %e363 = tensor.empty() : tensor<2x8x32xf32>
    %f364 = linalg.fill ins(%c362 : f32) outs(%e363 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %mm365 = linalg.batch_matmul ins(%add359, %bc361 : tensor<2x8x16xf32>, tensor<2x16x32xf32>) outs(%f364 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %e366 = tensor.empty() : tensor<2x8x32xf32>
    %bc367 = linalg.broadcast ins(%l1_b_fc1 : tensor<32xf32>) outs(%e366 : tensor<2x8x32xf32>) dimensions = [0, 1]
    %e368 = tensor.empty() : tensor<2x8x32xf32>
    %add369 = linalg.add ins(%mm365, %bc367 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%e368 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %c370 = arith.constant -1.702000000e+00 : f32
    %e371 = tensor.empty() : tensor<2x8x32xf32>
    %f372 = linalg.fill ins(%c370 : f32) outs(%e371 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %e373 = tensor.empty() : tensor<2x8x32xf32>
    %mul374 = linalg.mul ins(%add369, %f372 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%e373 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %e375 = tensor.empty() : tensor<2x8x32xf32>
    %exp376 = linalg.exp ins(%mul374 : tensor<2x8x32xf32>) outs(%e375 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %c377 = arith.constant 1.000000000e+00 : f32
    %e378 = tensor.empty() : tensor<2x8x32xf32>
    %f379 = linalg.fill ins(%c377 : f32) outs(%e378 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %e380 = tensor.empty() : tensor<2x8x32xf32>
    %add381 = linalg.add ins(%exp376, %f379 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%e380 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %e382 = tensor.empty() : tensor<2x8x32xf32>
    %div383 = linalg.div ins(%add369, %add381 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%e382 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %e384 = tensor.empty() : tensor<2x32x16xf32>
    %bc385 = linalg.broadcast ins(%l1_w_fc2 : tensor<32x16xf32>) outs(%e384 : tensor<2x32x16xf32>) dimensions = [0]
    %c386 = arith.constant 0.000000000e+00 : f32
    %e387 = tensor.empty() : tensor<2x8x16xf32>
    %f388 = linalg.fill ins(%c386 : f32) outs(%e387 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %mm389 = linalg.batch_matmul ins(%div383, %bc385 : tensor<2x8x32xf32>, tensor<2x32x16xf32>) outs(%f388 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %ar390 = shard.all_reduce %mm389 on @grid grid_axes = [0] : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
    %e391 = tensor.empty() : tensor<2x8x16xf32>
    %bc392 = linalg.broadcast ins(%l1_b_fc2 : tensor<16xf32>) outs(%e391 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e393 = tensor.empty() : tensor<2x8x16xf32>
    %add394 = linalg.add ins(%ar390, %bc392 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e393 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %drop3 = seqpar.dropout %add394 seed %dropout_seed {rate = 0.1 : f64, site = 3 : i64} : tensor<2x8x16xf32>
    %e395 = tensor.empty() : tensor<2x8x16xf32>
    %add396 = linalg.add ins(%add308, %drop3 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e395 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %c397 = arith.constant 0.000000000e+00 : f32
    %e398 = tensor.empty() : tensor<2x8xf32>
    %f399 = linalg.fill ins(%c397 : f32) outs(%e398 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %red400 = linalg.reduce ins(%add396 : tensor<2x8x16xf32>) outs(%f399 : tensor<2x8xf32>) dimensions = [2]
      (%in401: f32, %acc402: f32) {
        %r403 = arith.addf %in401, %acc402 : f32
        linalg.yield %r403 : f32
      }
    %c404 = arith.constant 6.250000000e-02 : f32
    %e405 = tensor.empty() : tensor<2x8xf32>
    %f406 = linalg.fill ins(%c404 : f32) outs(%e405 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e407 = tensor.empty() : tensor<2x8xf32>
    %mul408 = linalg.mul ins(%red400, %f406 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e407 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e409 = tensor.empty() : tensor<2x8x16xf32>
    %bc410 = linalg.broadcast ins(%mul408 : tensor<2x8xf32>) outs(%e409 : tensor<2x8x16xf32>) dimensions = [2]
    %e411 = tensor.empty() : tensor<2x8x16xf32>
    %sub412 = linalg.sub ins(%add396, %bc410 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e411 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e413 = tensor.empty() : tensor<2x8x16xf32>
    %mul414 = linalg.mul ins(%sub412, %sub412 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e413 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %c415 = arith.constant 0.000000000e+00 : f32
    %e416 = tensor.empty() : tensor<2x8xf32>
    %f417 = linalg.fill ins(%c415 : f32) outs(%e416 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %red418 = linalg.reduce ins(%mul414 : tensor<2x8x16xf32>) outs(%f417 : tensor<2x8xf32>) dimensions = [2]
      (%in419: f32, %acc420: f32) {
        %r421 = arith.addf %in419, %acc420 : f32
        linalg.yield %r421 : f32
      }
    %e422 = tensor.empty() : tensor<2x8xf32>
    %mul423 = linalg.mul ins(%red418, %f406 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e422 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %c424 = arith.constant 1.000000000e-05 : f32
    %e425 = tensor.empty() : tensor<2x8xf32>
    %f426 = linalg.fill ins(%c424 : f32) outs(%e425 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e427 = tensor.empty() : tensor<2x8xf32>
    %add428 = linalg.add ins(%mul423, %f426 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e427 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e429 = tensor.empty() : tensor<2x8xf32>
    %sqrt430 = linalg.sqrt ins(%add428 : tensor<2x8xf32>) outs(%e429 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %c431 = arith.constant 1.000000000e+00 : f32
    %e432 = tensor.empty() : tensor<2x8xf32>
    %f433 = linalg.fill ins(%c431 : f32) outs(%e432 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e434 = tensor.empty() : tensor<2x8xf32>
    %div435 = linalg.div ins(%f433, %sqrt430 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e434 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e436 = tensor.empty() : tensor<2x8x16xf32>
    %bc437 = linalg.broadcast ins(%div435 : tensor<2x8xf32>) outs(%e436 : tensor<2x8x16xf32>) dimensions = [2]
    %e438 = tensor.empty() : tensor<2x8x16xf32>
    %mul439 = linalg.mul ins(%sub412, %bc437 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e438 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e440 = tensor.empty() : tensor<2x8x16xf32>
    %bc441 = linalg.broadcast ins(%l2_ln1_g : tensor<16xf32>) outs(%e440 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e442 = tensor.empty() : tensor<2x8x16xf32>
    %mul443 = linalg.mul ins(%mul439, %bc441 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e442 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e444 = tensor.empty() : tensor<2x8x16xf32>
    %bc445 = linalg.broadcast ins(%l2_ln1_b : tensor<16xf32>) outs(%e444 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e446 = tensor.empty() : tensor<2x8x16xf32>
    %add447 = linalg.add ins(%mul443, %bc445 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e446 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e448 = tensor.empty() : tensor<2x16x24xf32>
    %bc449 = linalg.broadcast ins(%l2_w_qkv : tensor<16x24xf32>) outs(%e448 : tensor<2x16x24xf32>) dimensions = [0]
    %c450 = arith.constant 0.000000000e+00 : f32
    %e451 = tensor.empty() : tensor<2x8x24xf32>
    %f452 = linalg.fill ins(%c450 : f32) outs(%e451 : tensor<2x8x24xf32>) -> tensor<2x8x24xf32>
    %mm453 = linalg.batch_matmul ins(%add447, %bc449 : tensor<2x8x16xf32>, tensor<2x16x24xf32>) outs(%f452 : tensor<2x8x24xf32>) -> tensor<2x8x24xf32>
    %e454 = tensor.empty() : tensor<2x8x24xf32>
    %bc455 = linalg.broadcast ins(%l2_b_qkv : tensor<24xf32>) outs(%e454 : tensor<2x8x24xf32>) dimensions = [0, 1]
    %e456 = tensor.empty() : tensor<2x8x24xf32>
    %add457 = linalg.add ins(%mm453, %bc455 : tensor<2x8x24xf32>, tensor<2x8x24xf32>) outs(%e456 : tensor<2x8x24xf32>) -> tensor<2x8x24xf32>
    %ex458 = tensor.expand_shape %add457 [[0], [1], [2, 3, 4]] output_shape [2, 8, 3, 2, 4] : tensor<2x8x24xf32> into tensor<2x8x3x2x4xf32>
    %sl459 = tensor.extract_slice %ex458[0, 0, 0, 0, 0] [2, 8, 1, 2, 4] [1, 1, 1, 1, 1] : tensor<2x8x3x2x4xf32> to tensor<2x8x2x4xf32>
    %sl460 = tensor.extract_slice %ex458[0, 0, 1, 0, 0] [2, 8, 1, 2, 4] [1, 1, 1, 1, 1] : tensor<2x8x3x2x4xf32> to tensor<2x8x2x4xf32>
    %sl461 = tensor.extract_slice %ex458[0, 0, 2, 0, 0] [2, 8, 1, 2, 4] [1, 1, 1, 1, 1] : tensor<2x8x3x2x4xf32> to tensor<2x8x2x4xf32>
    %e462 = tensor.empty() : tensor<2x2x8x4xf32>
    %tr463 = linalg.transpose ins(%sl459 : tensor<2x8x2x4xf32>) outs(%e462 : tensor<2x2x8x4xf32>) permutation = [0, 2, 1, 3]
    %cl464 = tensor.collapse_shape %tr463 [[0, 1], [2], [3]] : tensor<2x2x8x4xf32> into tensor<4x8x4xf32>
    %e465 = tensor.empty() : tensor<2x2x4x8xf32>
    %tr466 = linalg.transpose ins(%sl460 : tensor<2x8x2x4xf32>) outs(%e465 : tensor<2x2x4x8xf32>) permutation = [0, 2, 3, 1]
    %cl467 = tensor.collapse_shape %tr466 [[0, 1], [2], [3]] : tensor<2x2x4x8xf32> into tensor<4x4x8xf32>
    %e468 = tensor.empty() : tensor<2x2x8x4xf32>
    %tr469 = linalg.transpose ins(%sl461 : tensor<2x8x2x4xf32>) outs(%e468 : tensor<2x2x8x4xf32>) permutation = [0, 2, 1, 3]
    %cl470 = tensor.collapse_shape %tr469 [[0, 1], [2], [3]] : tensor<2x2x8x4xf32> into tensor<4x8x4xf32>
    %c471 = arith.constant 0.000000000e+00 : f32
    %e472 = tensor.empty() : tensor<4x8x8xf32>
    %f473 = linalg.fill ins(%c471 : f32) outs(%e472 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %mm474 = linalg.batch_matmul ins(%cl464, %cl467 : tensor<4x8x4xf32>, tensor<4x4x8xf32>) outs(%f473 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %c475 = arith.constant 5.000000000e-01 : f32
    %e476 = tensor.empty() : tensor<4x8x8xf32>
    %f477 = linalg.fill ins(%c475 : f32) outs(%e476 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %e478 = tensor.empty() : tensor<4x8x8xf32>
    %mul479 = linalg.mul ins(%mm474, %f477 : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%e478 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %e480 = tensor.empty() : tensor<4x8x8xf32>
    %bc481 = linalg.broadcast ins(%mask : tensor<8x8xf32>) outs(%e480 : tensor<4x8x8xf32>) dimensions = [0]
    %e482 = tensor.empty() : tensor<4x8x8xf32>
    %add483 = linalg.add ins(%mul479, %bc481 : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%e482 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %e484 = tensor.empty() : tensor<4x8x8xf32>
    %sm485 = linalg.softmax dimension(2) ins(%add483 : tensor<4x8x8xf32>) outs(%e484 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %c486 = arith.constant 0.000000000e+00 : f32
    %e487 = tensor.empty() : tensor<4x8x4xf32>
    %f488 = linalg.fill ins(%c486 : f32) outs(%e487 : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
    %mm489 = linalg.batch_matmul ins(%sm485, %cl470 : tensor<4x8x8xf32>, tensor<4x8x4xf32>) outs(%f488 : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
    %ex490 = tensor.expand_shape %mm489 [[0, 1], [2], [3]] output_shape [2, 2, 8, 4] : tensor<4x8x4xf32> into tensor<2x2x8x4xf32>
    %e491 = tensor.empty() : tensor<2x8x2x4xf32>
    %tr492 = linalg.transpose ins(%ex490 : tensor<2x2x8x4xf32>) outs(%e491 : tensor<2x8x2x4xf32>) permutation = [0, 2, 1, 3]
    %cl493 = tensor.collapse_shape %tr492 [[0], [1], [2, 3]] : tensor<2x8x2x4xf32> into tensor<2x8x8xf32>
    %e494 = tensor.empty() : tensor<2x8x16xf32>
    %bc495 = linalg.broadcast ins(%l2_w_o : tensor<8x16xf32>) outs(%e494 : tensor<2x8x16xf32>) dimensions = [0]
    %c496 = arith.constant 0.000000000e+00 : f32
    %e497 = tensor.empty() : tensor<2x8x16xf32>
    %f498 = linalg.fill ins(%c496 : f32) outs(%e497 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %mm499 = linalg.batch_matmul ins(%cl493, %bc495 : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%f498 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %ar500 = shard.all_reduce %mm499 on @grid grid_axes = [0] : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
    %e501 = tensor.empty() : tensor<2x8x16xf32>
    %bc502 = linalg.broadcast ins(%l2_b_o : tensor<16xf32>) outs(%e501 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e503 = tensor.empty() : tensor<2x8x16xf32>
    %add504 = linalg.add ins(%ar500, %bc502 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e503 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %drop4 = seqpar.dropout %add504 seed %dropout_seed {rate = 0.1 : f64, site = 4 : i64} : tensor<2x8x16xf32>
    %e505 = tensor.empty() : tensor<2x8x16xf32>
    %add506 = linalg.add ins(%add396, %drop4 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e505 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %c507 = arith.constant 0.000000000e+00 : f32
    %e508 = tensor.empty() : tensor<2x8xf32>
    %f509 = linalg.fill ins(%c507 : f32) outs(%e508 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %red510 = linalg.reduce ins(%add506 : tensor<2x8x16xf32>) outs(%f509 : tensor<2x8xf32>) dimensions = [2]
      (%in511: f32, %acc512: f32) {
        %r513 = arith.addf %in511, %acc512 : f32
        linalg.yield %r513 : f32
      }
    %c514 = arith.constant 6.250000000e-02 : f32
    %e515 = tensor.empty() : tensor<2x8xf32>
    %f516 = linalg.fill ins(%c514 : f32) outs(%e515 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e517 = tensor.empty() : tensor<2x8xf32>
    %mul518 = linalg.mul ins(%red510, %f516 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e517 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e519 = tensor.empty() : tensor<2x8x16xf32>
    %bc520 = linalg.broadcast ins(%mul518 : tensor<2x8xf32>) outs(%e519 : tensor<2x8x16xf32>) dimensions = [2]
    %e521 = tensor.empty() : tensor<2x8x16xf32>
    %sub522 = linalg.sub ins(%add506, %bc520 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e521 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e523 = tensor.empty() : tensor<2x8x16xf32>
    %mul524 = linalg.mul ins(%sub522, %sub522 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e523 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %c525 = arith.constant 0.000000000e+00 : f32
    %e526 = tensor.empty() : tensor<2x8xf32>
    %f527 = linalg.fill ins(%c525 : f32) outs(%e526 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %red528 = linalg.reduce ins(%mul524 : tensor<2x8x16xf32>) outs(%f527 : tensor<2x8xf32>) dimensions = [2]
      (%in529: f32, %acc530: f32) {
        %r531 = arith.addf %in529, %acc530 : f32
        linalg.yield %r531 : f32
      }
    %e532 = tensor.empty() : tensor<2x8xf32>
    %mul533 = linalg.mul ins(%red528, %f516 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e532 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %c534 = arith.constant 1.000000000e-05 : f32
    %e535 = tensor.empty() : tensor<2x8xf32>
    %f536 = linalg.fill ins(%c534 : f32) outs(%e535 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e537 = tensor.empty() : tensor<2x8xf32>
    %add538 = linalg.add ins(%mul533, %f536 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e537 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e539 = tensor.empty() : tensor<2x8xf32>
    %sqrt540 = linalg.sqrt ins(%add538 : tensor<2x8xf32>) outs(%e539 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %c541 = arith.constant 1.000000000e+00 : f32
    %e542 = tensor.empty() : tensor<2x8xf32>
    %f543 = linalg.fill ins(%c541 : f32) outs(%e542 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e544 = tensor.empty() : tensor<2x8xf32>
    %div545 = linalg.div ins(%f543, %sqrt540 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e544 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e546 = tensor.empty() : tensor<2x8x16xf32>
    %bc547 = linalg.broadcast ins(%div545 : tensor<2x8xf32>) outs(%e546 : tensor<2x8x16xf32>) dimensions = [2]
    %e548 = tensor.empty() : tensor<2x8x16xf32>
    %mul549 = linalg.mul ins(%sub522, %bc547 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e548 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e550 = tensor.empty() : tensor<2x8x16xf32>
    %bc551 = linalg.broadcast ins(%l2_ln2_g : tensor<16xf32>) outs(%e550 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e552 = tensor.empty() : tensor<2x8x16xf32>
    %mul553 = linalg.mul ins(%mul549, %bc551 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e552 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e554 = tensor.empty() : tensor<2x8x16xf32>
    %bc555 = linalg.broadcast ins(%l2_ln2_b : tensor<16xf32>) outs(%e554 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e556 = tensor.empty() : tensor<2x8x16xf32>
    %add557 = linalg.add ins(%mul553, %bc555 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e556 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e558 = tensor.empty() : tensor<2x16x32xf32>
    %bc559 = linalg.broadcast ins(%l2_w_fc1 : tensor<16x32xf32>) outs(%e558 : tensor<2x16x32xf32>) dimensions = [0]
    %c560 = arith.constant 0.000000000e+00 : f32
    %e561 = tensor.empty() : tensor<2x8x32xf32>
    %f562 = linalg.fill ins(%c560 : f32) outs(%e561 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %mm563 = linalg.batch_matmul ins(%add557, %bc559 : tensor<2x8x16xf32>, tensor<2x16x32xf32>) outs(%f562 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %e564 = tensor.empty() : tensor<2x8x32xf32>
    %bc565 = linalg.broadcast ins(%l2_b_fc1 : tensor<32xf32>) outs(%e564 : tensor<2x8x32xf32>) dimensions = [0, 1]
    %e566 = tensor.empty() : tensor<2x8x32xf32>
    %add567 = linalg.add ins(%mm563, %bc565 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%e566 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %c568 = arith.constant -1.702000000e+00 : f32
    %e569 = tensor.empty() : tensor<2x8x32xf32>
    %f570 = linalg.fill ins(%c568 : f32) outs(%e569 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %e571 = tensor.empty() : tensor<2x8x32xf32>
    %mul572 = linalg.mul ins(%add567, %f570 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%e571 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %e573 = tensor.empty() : tensor<2x8x32xf32>
    %exp574 = linalg.exp ins(%mul572 : tensor<2x8x32xf32>) outs(%e573 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %c575 = arith.constant 1.000000000e+00 : f32
    %e576 = tensor.empty() : tensor<2x8x32xf32>
    %f577 = linalg.fill ins(%c575 : f32) outs(%e576 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %e578 = tensor.empty() : tensor<2x8x32xf32>
    %add579 = linalg.add ins(%exp574, %f577 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%e578 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %e580 = tensor.empty() : tensor<2x8x32xf32>
    %div581 = linalg.div ins(%add567, %add579 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%e580 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %e582 = tensor.empty() : tensor<2x32x16xf32>
    %bc583 = linalg.broadcast ins(%l2_w_fc2 : tensor<32x16xf32>) outs(%e582 : tensor<2x32x16xf32>) dimensions = [0]
    %c584 = arith.constant 0.000000000e+00 : f32
    %e585 = tensor.empty() : tensor<2x8x16xf32>
    %f586 = linalg.fill ins(%c584 : f32) outs(%e585 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %mm587 = linalg.batch_matmul ins(%div581, %bc583 : tensor<2x8x32xf32>, tensor<2x32x16xf32>) outs(%f586 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %ar588 = shard.all_reduce %mm587 on @grid grid_axes = [0] : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
    %e589 = tensor.empty() : tensor<2x8x16xf32>
    %bc590 = linalg.broadcast ins(%l2_b_fc2 : tensor<16xf32>) outs(%e589 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e591 = tensor.empty() : tensor<2x8x16xf32>
    %add592 = linalg.add ins(%ar588, %bc590 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e591 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %drop5 = seqpar.dropout %add592 seed %dropout_seed {rate = 0.1 : f64, site = 5 : i64} : tensor<2x8x16xf32>
    %e593 = tensor.empty() : tensor<2x8x16xf32>
    %add594 = linalg.add ins(%add506, %drop5 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e593 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %c595 = arith.constant 0.000000000e+00 : f32
    %e596 = tensor.empty() : tensor<2x8xf32>
    %f597 = linalg.fill ins(%c595 : f32) outs(%e596 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %red598 = linalg.reduce ins(%add594 : tensor<2x8x16xf32>) outs(%f597 : tensor<2x8xf32>) dimensions = [2]
      (%in599: f32, %acc600: f32) {
        %r601 = arith.addf %in599, %acc600 : f32
        linalg.yield %r601 : f32
      }
    %c602 = arith.constant 6.250000000e-02 : f32
    %e603 = tensor.empty() : tensor<2x8xf32>
    %f604 = linalg.fill ins(%c602 : f32) outs(%e603 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e605 = tensor.empty() : tensor<2x8xf32>
    %mul606 = linalg.mul ins(%red598, %f604 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e605 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e607 = tensor.empty() : tensor<2x8x16xf32>
    %bc608 = linalg.broadcast ins(%mul606 : tensor<2x8xf32>) outs(%e607 : tensor<2x8x16xf32>) dimensions = [2]
    %e609 = tensor.empty() : tensor<2x8x16xf32>
    %sub610 = linalg.sub ins(%add594, %bc608 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e609 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e611 = tensor.empty() : tensor<2x8x16xf32>
    %mul612 = linalg.mul ins(%sub610, %sub610 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e611 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %c613 = arith.constant 0.000000000e+00 : f32
    %e614 = tensor.empty() : tensor<2x8xf32>
    %f615 = linalg.fill ins(%c613 : f32) outs(%e614 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %red616 = linalg.reduce ins(%mul612 : tensor<2x8x16xf32>) outs(%f615 : tensor<2x8xf32>) dimensions = [2]
      (%in617: f32, %acc618: f32) {
        %r619 = arith.addf %in617, %acc618 : f32
        linalg.yield %r619 : f32
      }
    %e620 = tensor.empty() : tensor<2x8xf32>
    %mul621 = linalg.mul ins(%red616, %f604 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e620 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %c622 = arith.constant 1.000000000e-05 : f32
    %e623 = tensor.empty() : tensor<2x8xf32>
    %f624 = linalg.fill ins(%c622 : f32) outs(%e623 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e625 = tensor.empty() : tensor<2x8xf32>
    %add626 = linalg.add ins(%mul621, %f624 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e625 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e627 = tensor.empty() : tensor<2x8xf32>
    %sqrt628 = linalg.sqrt ins(%add626 : tensor<2x8xf32>) outs(%e627 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %c629 = arith.constant 1.000000000e+00 : f32
    %e630 = tensor.empty() : tensor<2x8xf32>
    %f631 = linalg.fill ins(%c629 : f32) outs(%e630 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e632 = tensor.empty() : tensor<2x8xf32>
    %div633 = linalg.div ins(%f631, %sqrt628 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e632 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e634 = tensor.empty() : tensor<2x8x16xf32>
    %bc635 = linalg.broadcast ins(%div633 : tensor<2x8xf32>) outs(%e634 : tensor<2x8x16xf32>) dimensions = [2]
    %e636 = tensor.empty() : tensor<2x8x16xf32>
    %mul637 = linalg.mul ins(%sub610, %bc635 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e636 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e638 = tensor.empty() : tensor<2x8x16xf32>
    %bc639 = linalg.broadcast ins(%l3_ln1_g : tensor<16xf32>) outs(%e638 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e640 = tensor.empty() : tensor<2x8x16xf32>
    %mul641 = linalg.mul ins(%mul637, %bc639 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e640 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e642 = tensor.empty() : tensor<2x8x16xf32>
    %bc643 = linalg.broadcast ins(%l3_ln1_b : tensor<16xf32>) outs(%e642 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e644 = tensor.empty() : tensor<2x8x16xf32>
    %add645 = linalg.add ins(%mul641, %bc643 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e644 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e646 = tensor.empty() : tensor<2x16x24xf32>
    %bc647 = linalg.broadcast ins(%l3_w_qkv : tensor<16x24xf32>) outs(%e646 : tensor<2x16x24xf32>) dimensions = [0]
    %c648 = arith.constant 0.000000000e+00 : f32
    %e649 = tensor.empty() : tensor<2x8x24xf32>
    %f650 = linalg.fill ins(%c648 : f32) outs(%e649 : tensor<2x8x24xf32>) -> tensor<2x8x24xf32>
    %mm651 = linalg.batch_matmul ins(%add645, %bc647 : tensor<2x8x16xf32>, tensor<2x16x24xf32>) outs(%f650 : tensor<2x8x24xf32>) -> tensor<2x8x24xf32>
    %e652 = tensor.empty() : tensor<2x8x24xf32>
    %bc653 = linalg.broadcast ins(%l3_b_qkv : tensor<24xf32>) outs(%e652 : tensor<2x8x24xf32>) dimensions = [0, 1]
    %e654 = tensor.empty() : tensor<2x8x24xf32>
    %add655 = linalg.add ins(%mm651, %bc653 : tensor<2x8x24xf32>, tensor<2x8x24xf32>) outs(%e654 : tensor<2x8x24xf32>) -> tensor<2x8x24xf32>
    %ex656 = tensor.expand_shape %add655 [[0], [1], [2, 3, 4]] output_shape [2, 8, 3, 2, 4] : tensor<2x8x24xf32> into tensor<2x8x3x2x4xf32>
    %sl657 = tensor.extract_slice %ex656[0, 0, 0, 0, 0] [2, 8, 1, 2, 4] [1, 1, 1, 1, 1] : tensor<2x8x3x2x4xf32> to tensor<2x8x2x4xf32>
    %sl658 = tensor.extract_slice %ex656[0, 0, 1, 0, 0] [2, 8, 1, 2, 4] [1, 1, 1, 1, 1] : tensor<2x8x3x2x4xf32> to tensor<2x8x2x4xf32>
    %sl659 = tensor.extract_slice %ex656[0, 0, 2, 0, 0] [2, 8, 1, 2, 4] [1, 1, 1, 1, 1] : tensor<2x8x3x2x4xf32> to tensor<2x8x2x4xf32>
    %e660 = tensor.empty() : tensor<2x2x8x4xf32>
    %tr661 = linalg.transpose ins(%sl657 : tensor<2x8x2x4xf32>) outs(%e660 : tensor<2x2x8x4xf32>) permutation = [0, 2, 1, 3]
    %cl662 = tensor.collapse_shape %tr661 [[0, 1], [2], [3]] : tensor<2x2x8x4xf32> into tensor<4x8x4xf32>
    %e663 = tensor.empty() : tensor<2x2x4x8xf32>
    %tr664 = linalg.transpose ins(%sl658 : tensor<2x8x2x4xf32>) outs(%e663 : tensor<2x2x4x8xf32>) permutation = [0, 2, 3, 1]
    %cl665 = tensor.collapse_shape %tr664 [[0, 1], [2], [3]] : tensor<2x2x4x8xf32> into tensor<4x4x8xf32>
    %e666 = tensor.empty() : tensor<2x2x8x4xf32>
    %tr667 = linalg.transpose ins(%sl659 : tensor<2x8x2x4xf32>) outs(%e666 : tensor<2x2x8x4xf32>) permutation = [0, 2, 1, 3]
    %cl668 = tensor.collapse_shape %tr667 [[0, 1], [2], [3]] : tensor<2x2x8x4xf32> into tensor<4x8x4xf32>
    %c669 = arith.constant 0.000000000e+00 : f32
    %e670 = tensor.empty() : tensor<4x8x8xf32>
    %f671 = linalg.fill ins(%c669 : f32) outs(%e670 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %mm672 = linalg.batch_matmul ins(%cl662, %cl665 : tensor<4x8x4xf32>, tensor<4x4x8xf32>) outs(%f671 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %c673 = arith.constant 5.000000000e-01 : f32
    %e674 = tensor.empty() : tensor<4x8x8xf32>
    %f675 = linalg.fill ins(%c673 : f32) outs(%e674 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %e676 = tensor.empty() : tensor<4x8x8xf32>
    %mul677 = linalg.mul ins(%mm672, %f675 : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%e676 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %e678 = tensor.empty() : tensor<4x8x8xf32>
    %bc679 = linalg.broadcast ins(%mask : tensor<8x8xf32>) outs(%e678 : tensor<4x8x8xf32>) dimensions = [0]
    %e680 = tensor.empty() : tensor<4x8x8xf32>
    %add681 = linalg.add ins(%mul677, %bc679 : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%e680 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %e682 = tensor.empty() : tensor<4x8x8xf32>
    %sm683 = linalg.softmax dimension(2) ins(%add681 : tensor<4x8x8xf32>) outs(%e682 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %c684 = arith.constant 0.000000000e+00 : f32
    %e685 = tensor.empty() : tensor<4x8x4xf32>
    %f686 = linalg.fill ins(%c684 : f32) outs(%e685 : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
    %mm687 = linalg.batch_matmul ins(%sm683, %cl668 : tensor<4x8x8xf32>, tensor<4x8x4xf32>) outs(%f686 : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
    %ex688 = tensor.expand_shape %mm687 [[0, 1], [2], [3]] output_shape [2, 2, 8, 4] : tensor<4x8x4xf32> into tensor<2x2x8x4xf32>
    %e689 = tensor.empty() : tensor<2x8x2x4xf32>
    %tr690 = linalg.transpose ins(%ex688 : tensor<2x2x8x4xf32>) outs(%e689 : tensor<2x8x2x4xf32>) permutation = [0, 2, 1, 3]
    %cl691 = tensor.collapse_shape %tr690 [[0], [1], [2, 3]] : tensor<2x8x2x4xf32> into tensor<2x8x8xf32>
    %e692 = tensor.empty() : tensor<2x8x16xf32>
    %bc693 = linalg.broadcast ins(%l3_w_o : tensor<8x16xf32>) outs(%e692 : tensor<2x8x16xf32>) dimensions = [0]
    %c694 = arith.constant 0.000000000e+00 : f32
    %e695 = tensor.empty() : tensor<2x8x16xf32>
    %f696 = linalg.fill ins(%c694 : f32) outs(%e695 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %mm697 = linalg.batch_matmul ins(%cl691, %bc693 : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%f696 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %ar698 = shard.all_reduce %mm697 on @grid grid_axes = [0] : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
    %e699 = tensor.empty() : tensor<2x8x16xf32>
    %bc700 = linalg.broadcast ins(%l3_b_o : tensor<16xf32>) outs(%e699 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e701 = tensor.empty() : tensor<2x8x16xf32>
    %add702 = linalg.add ins(%ar698, %bc700 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e701 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %drop6 = seqpar.dropout %add702 seed %dropout_seed {rate = 0.1 : f64, site = 6 : i64} : tensor<2x8x16xf32>
    %e703 = tensor.empty() : tensor<2x8x16xf32>
    %add704 = linalg.add ins(%add594, %drop6 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e703 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %c705 = arith.constant 0.000000000e+00 : f32
    %e706 = tensor.empty() : tensor<2x8xf32>
    %f707 = linalg.fill ins(%c705 : f32) outs(%e706 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %red708 = linalg.reduce ins(%add704 : tensor<2x8x16xf32>) outs(%f707 : tensor<2x8xf32>) dimensions = [2]
      (%in709: f32, %acc710: f32) {
        %r711 = arith.addf %in709, %acc710 : f32
        linalg.yield %r711 : f32
      }
    %c712 = arith.constant 6.250000000e-02 : f32
    %e713 = tensor.empty() : tensor<2x8xf32>
    %f714 = linalg.fill ins(%c712 : f32) outs(%e713 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e715 = tensor.empty() : tensor<2x8xf32>
    %mul716 = linalg.mul ins(%red708, %f714 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e715 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e717 = tensor.empty() : tensor<2x8x16xf32>
    %bc718 = linalg.broadcast ins(%mul716 : tensor<2x8xf32>) outs(%e717 : tensor<2x8x16xf32>) dimensions = [2]
    %e719 = tensor.empty() : tensor<2x8x16xf32>
    %sub720 = linalg.sub ins(%add704, %bc718 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e719 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e721 = tensor.empty() : tensor<2x8x16xf32>
    %mul722 = linalg.mul ins(%sub720, %sub720 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e721 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %c723 = arith.constant 0.000000000e+00 : f32
    %e724 = tensor.empty() : tensor<2x8xf32>
    %f725 = linalg.fill ins(%c723 : f32) outs(%e724 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %red726 = linalg.reduce ins(%mul722 : tensor<2x8x16xf32>) outs(%f725 : tensor<2x8xf32>) dimensions = [2]
      (%in727: f32, %acc728: f32) {
        %r729 = arith.addf %in727, %acc728 : f32
        linalg.yield %r729 : f32
      }
    %e730 = tensor.empty() : tensor<2x8xf32>
    %mul731 = linalg.mul ins(%red726, %f714 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e730 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %c732 = arith.constant 1.000000000e-05 : f32
    %e733 = tensor.empty() : tensor<2x8xf32>
    %f734 = linalg.fill ins(%c732 : f32) outs(%e733 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e735 = tensor.empty() : tensor<2x8xf32>
    %add736 = linalg.add ins(%mul731, %f734 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e735 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e737 = tensor.empty() : tensor<2x8xf32>
    %sqrt738 = linalg.sqrt ins(%add736 : tensor<2x8xf32>) outs(%e737 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %c739 = arith.constant 1.000000000e+00 : f32
    %e740 = tensor.empty() : tensor<2x8xf32>
    %f741 = linalg.fill ins(%c739 : f32) outs(%e740 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e742 = tensor.empty() : tensor<2x8xf32>
    %div743 = linalg.div ins(%f741, %sqrt738 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e742 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e744 = tensor.empty() : tensor<2x8x16xf32>
    %bc745 = linalg.broadcast ins(%div743 : tensor<2x8xf32>) outs(%e744 : tensor<2x8x16xf32>) dimensions = [2]
    %e746 = tensor.empty() : tensor<2x8x16xf32>
    %mul747 = linalg.mul ins(%sub720, %bc745 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e746 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e748 = tensor.empty() : tensor<2x8x16xf32>
    %bc749 = linalg.broadcast ins(%l3_ln2_g : tensor<16xf32>) outs(%e748 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e750 = tensor.empty() : tensor<2x8x16xf32>
    %mul751 = linalg.mul ins(%mul747, %bc749 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e750 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e752 = tensor.empty() : tensor<2x8x16xf32>
    %bc753 = linalg.broadcast ins(%l3_ln2_b : tensor<16xf32>) outs(%e752 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e754 = tensor.empty() : tensor<2x8x16xf32>
    %add755 = linalg.add ins(%mul751, %bc753 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e754 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e756 = tensor.empty() : tensor<2x16x32xf32>
    %bc757 = linalg.broadcast ins(%l3_w_fc1 : tensor<16x32xf32>) outs(%e756 : tensor<2x16x32xf32>) dimensions = [0]
    %c758 = arith.constant 0.000000000e+00 : f32
    %e759 = tensor.empty() : tensor<2x8x32xf32>
    %f760 = linalg.fill ins(%c758 : f32) outs(%e759 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %mm761 = linalg.batch_matmul ins(%add755, %bc757 : tensor<2x8x16xf32>, tensor<2x16x32xf32>) outs(%f760 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %e762 = tensor.empty() : tensor<2x8x32xf32>
    %bc763 = linalg.broadcast ins(%l3_b_fc1 : tensor<32xf32>) outs(%e762 : tensor<2x8x32xf32>) dimensions = [0, 1]
    %e764 = tensor.empty() : tensor<2x8x32xf32>
    %add765 = linalg.add ins(%mm761, %bc763 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%e764 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %c766 = arith.constant -1.702000000e+00 : f32
    %e767 = tensor.empty() : tensor<2x8x32xf32>
    %f768 = linalg.fill ins(%c766 : f32) outs(%e767 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %e769 = tensor.empty() : tensor<2x8x32xf32>
    %mul770 = linalg.mul ins(%add765, %f768 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%e769 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %e771 = tensor.empty() : tensor<2x8x32xf32>
    %exp772 = linalg.exp ins(%mul770 : tensor<2x8x32xf32>) outs(%e771 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %c773 = arith.constant 1.000000000e+00 : f32
    %e774 = tensor.empty() : tensor<2x8x32xf32>
    %f775 = linalg.fill ins(%c773 : f32) outs(%e774 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %e776 = tensor.empty() : tensor<2x8x32xf32>
    %add777 = linalg.add ins(%exp772, %f775 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%e776 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %e778 = tensor.empty() : tensor<2x8x32xf32>
    %div779 = linalg.div ins(%add765, %add777 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%e778 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %e780 = tensor.empty() : tensor<2x32x16xf32>
    %bc781 = linalg.broadcast ins(%l3_w_fc2 : tensor<32x16xf32>) outs(%e780 : tensor<2x32x16xf32>) dimensions = [0]
    %c782 = arith.constant 0.000000000e+00 : f32
    %e783 = tensor.empty() : tensor<2x8x16xf32>
    %f784 = linalg.fill ins(%c782 : f32) outs(%e783 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %mm785 = linalg.batch_matmul ins(%div779, %bc781 : tensor<2x8x32xf32>, tensor<2x32x16xf32>) outs(%f784 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %ar786 = shard.all_reduce %mm785 on @grid grid_axes = [0] : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
    %e787 = tensor.empty() : tensor<2x8x16xf32>
    %bc788 = linalg.broadcast ins(%l3_b_fc2 : tensor<16xf32>) outs(%e787 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e789 = tensor.empty() : tensor<2x8x16xf32>
    %add790 = linalg.add ins(%ar786, %bc788 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e789 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %drop7 = seqpar.dropout %add790 seed %dropout_seed {rate = 0.1 : f64, site = 7 : i64} : tensor<2x8x16xf32>
    %e791 = tensor.empty() : tensor<2x8x16xf32>
    %add792 = linalg.add ins(%add704, %drop7 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e791 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    return %add792 : tensor<2x8x16xf32>
  }
}
