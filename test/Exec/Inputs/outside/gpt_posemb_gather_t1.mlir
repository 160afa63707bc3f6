// GPT block, torch-mlir style position embedding (tensor.extract in a generic) before and inside the region: single-device program (grid of size 1).
module {
  shard.grid @grid(shape = 1) {sym_visibility = "private"}
  func.func @forward(
      %x: tensor<2x8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>, seqpar.seq_dim = 1 : i64},
      %wpe: tensor<16x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l0_ln1_g: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l0_ln1_b: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l0_w_qkv: tensor<16x48xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0] groups 3]>},
      %l0_b_qkv: tensor<48xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0] groups 3]>},
      %l0_w_o: tensor<16x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l0_b_o: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l0_ln2_g: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l0_ln2_b: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l0_w_fc1: tensor<16x64xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l0_b_fc1: tensor<64xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l0_w_fc2: tensor<64x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l0_b_fc2: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
      -> (tensor<2x8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
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
    %e52 = tensor.empty() : tensor<2x16x48xf32>
    %bc53 = linalg.broadcast ins(%l0_w_qkv : tensor<16x48xf32>) outs(%e52 : tensor<2x16x48xf32>) dimensions = [0]
    %c54 = arith.constant 0.000000000e+00 : f32
    %e55 = tensor.empty() : tensor<2x8x48xf32>
    %f56 = linalg.fill ins(%c54 : f32) outs(%e55 : tensor<2x8x48xf32>) -> tensor<2x8x48xf32>
    %mm57 = linalg.batch_matmul ins(%add51, %bc53 : tensor<2x8x16xf32>, tensor<2x16x48xf32>) outs(%f56 : tensor<2x8x48xf32>) -> tensor<2x8x48xf32>
    %e58 = tensor.empty() : tensor<2x8x48xf32>
    %bc59 = linalg.broadcast ins(%l0_b_qkv : tensor<48xf32>) outs(%e58 : tensor<2x8x48xf32>) dimensions = [0, 1]
    %e60 = tensor.empty() : tensor<2x8x48xf32>
    %add61 = linalg.add ins(%mm57, %bc59 : tensor<2x8x48xf32>, tensor<2x8x48xf32>) outs(%e60 : tensor<2x8x48xf32>) -> tensor<2x8x48xf32>
    %ex62 = tensor.expand_shape %add61 [[0], [1], [2, 3, 4]] output_shape [2, 8, 3, 4, 4] : tensor<2x8x48xf32> into tensor<2x8x3x4x4xf32>
    %sl63 = tensor.extract_slice %ex62[0, 0, 0, 0, 0] [2, 8, 1, 4, 4] [1, 1, 1, 1, 1] : tensor<2x8x3x4x4xf32> to tensor<2x8x4x4xf32>
    %sl64 = tensor.extract_slice %ex62[0, 0, 1, 0, 0] [2, 8, 1, 4, 4] [1, 1, 1, 1, 1] : tensor<2x8x3x4x4xf32> to tensor<2x8x4x4xf32>
    %sl65 = tensor.extract_slice %ex62[0, 0, 2, 0, 0] [2, 8, 1, 4, 4] [1, 1, 1, 1, 1] : tensor<2x8x3x4x4xf32> to tensor<2x8x4x4xf32>
    %e66 = tensor.empty() : tensor<2x4x8x4xf32>
    %tr67 = linalg.transpose ins(%sl63 : tensor<2x8x4x4xf32>) outs(%e66 : tensor<2x4x8x4xf32>) permutation = [0, 2, 1, 3]
    %cl68 = tensor.collapse_shape %tr67 [[0, 1], [2], [3]] : tensor<2x4x8x4xf32> into tensor<8x8x4xf32>
    %e69 = tensor.empty() : tensor<2x4x4x8xf32>
    %tr70 = linalg.transpose ins(%sl64 : tensor<2x8x4x4xf32>) outs(%e69 : tensor<2x4x4x8xf32>) permutation = [0, 2, 3, 1]
    %cl71 = tensor.collapse_shape %tr70 [[0, 1], [2], [3]] : tensor<2x4x4x8xf32> into tensor<8x4x8xf32>
    %e72 = tensor.empty() : tensor<2x4x8x4xf32>
    %tr73 = linalg.transpose ins(%sl65 : tensor<2x8x4x4xf32>) outs(%e72 : tensor<2x4x8x4xf32>) permutation = [0, 2, 1, 3]
    %cl74 = tensor.collapse_shape %tr73 [[0, 1], [2], [3]] : tensor<2x4x8x4xf32> into tensor<8x8x4xf32>
    %c75 = arith.constant 0.000000000e+00 : f32
    %e76 = tensor.empty() : tensor<8x8x8xf32>
    %f77 = linalg.fill ins(%c75 : f32) outs(%e76 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %mm78 = linalg.batch_matmul ins(%cl68, %cl71 : tensor<8x8x4xf32>, tensor<8x4x8xf32>) outs(%f77 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %c79 = arith.constant 5.000000000e-01 : f32
    %e80 = tensor.empty() : tensor<8x8x8xf32>
    %f81 = linalg.fill ins(%c79 : f32) outs(%e80 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %e82 = tensor.empty() : tensor<8x8x8xf32>
    %mul83 = linalg.mul ins(%mm78, %f81 : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%e82 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %e84 = tensor.empty() : tensor<8x8x8xf32>
    %bc85 = linalg.broadcast ins(%mask : tensor<8x8xf32>) outs(%e84 : tensor<8x8x8xf32>) dimensions = [0]
    %e86 = tensor.empty() : tensor<8x8x8xf32>
    %add87 = linalg.add ins(%mul83, %bc85 : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%e86 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %e88 = tensor.empty() : tensor<8x8x8xf32>
    %sm89 = linalg.softmax dimension(2) ins(%add87 : tensor<8x8x8xf32>) outs(%e88 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %c90 = arith.constant 0.000000000e+00 : f32
    %e91 = tensor.empty() : tensor<8x8x4xf32>
    %f92 = linalg.fill ins(%c90 : f32) outs(%e91 : tensor<8x8x4xf32>) -> tensor<8x8x4xf32>
    %mm93 = linalg.batch_matmul ins(%sm89, %cl74 : tensor<8x8x8xf32>, tensor<8x8x4xf32>) outs(%f92 : tensor<8x8x4xf32>) -> tensor<8x8x4xf32>
    %ex94 = tensor.expand_shape %mm93 [[0, 1], [2], [3]] output_shape [2, 4, 8, 4] : tensor<8x8x4xf32> into tensor<2x4x8x4xf32>
    %e95 = tensor.empty() : tensor<2x8x4x4xf32>
    %tr96 = linalg.transpose ins(%ex94 : tensor<2x4x8x4xf32>) outs(%e95 : tensor<2x8x4x4xf32>) permutation = [0, 2, 1, 3]
    %cl97 = tensor.collapse_shape %tr96 [[0], [1], [2, 3]] : tensor<2x8x4x4xf32> into tensor<2x8x16xf32>
    %e98 = tensor.empty() : tensor<2x16x16xf32>
    %bc99 = linalg.broadcast ins(%l0_w_o : tensor<16x16xf32>) outs(%e98 : tensor<2x16x16xf32>) dimensions = [0]
    %c100 = arith.constant 0.000000000e+00 : f32
    %e101 = tensor.empty() : tensor<2x8x16xf32>
    %f102 = linalg.fill ins(%c100 : f32) outs(%e101 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %mm103 = linalg.batch_matmul ins(%cl97, %bc99 : tensor<2x8x16xf32>, tensor<2x16x16xf32>) outs(%f102 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %ar104 = shard.all_reduce %mm103 on @grid grid_axes = [0] : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
    %e105 = tensor.empty() : tensor<2x8x16xf32>
    %bc106 = linalg.broadcast ins(%l0_b_o : tensor<16xf32>) outs(%e105 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e107 = tensor.empty() : tensor<2x8x16xf32>
    %add108 = linalg.add ins(%ar104, %bc106 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e107 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e109 = tensor.empty() : tensor<2x8x16xf32>
    %add110 = linalg.add ins(%x, %add108 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e109 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %pe110 = tensor.empty() : tensor<2x8xi64>
    %pid110 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%pe110 : tensor<2x8xi64>) {
    ^bb0(%po110: i64):
      %pi110 = linalg.index 1 : index
      %pc110 = arith.index_cast %pi110 : index to i64
      linalg.yield %pc110 : i64
    } -> tensor<2x8xi64>
    %e112 = tensor.empty() : tensor<2x8x16xf32>
    %emb110 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pid110 : tensor<2x8xi64>) outs(%e112 : tensor<2x8x16xf32>) {
    ^bb0(%id110: i64, %eo110: f32):
      %ii110 = arith.index_cast %id110 : i64 to index
      %jj110 = linalg.index 2 : index
      %vv110 = tensor.extract %wpe[%ii110, %jj110] : tensor<16x16xf32>
      linalg.yield %vv110 : f32
    } -> tensor<2x8x16xf32>
    %e113 = tensor.empty() : tensor<2x8x16xf32>
    %add114 = linalg.add ins(%add110, %emb110 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e113 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %c115 = arith.constant 0.000000000e+00 : f32
    %e116 = tensor.empty() : tensor<2x8xf32>
    %f117 = linalg.fill ins(%c115 : f32) outs(%e116 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %red118 = linalg.reduce ins(%add114 : tensor<2x8x16xf32>) outs(%f117 : tensor<2x8xf32>) dimensions = [2]
      (%in119: f32, %acc120: f32) {
        %r121 = arith.addf %in119, %acc120 : f32
        linalg.yield %r121 : f32
      }
    %c122 = arith.constant 6.250000000e-02 : f32
    %e123 = tensor.empty() : tensor<2x8xf32>
    %f124 = linalg.fill ins(%c122 : f32) outs(%e123 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e125 = tensor.empty() : tensor<2x8xf32>
    %mul126 = linalg.mul ins(%red118, %f124 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e125 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e127 = tensor.empty() : tensor<2x8x16xf32>
    %bc128 = linalg.broadcast ins(%mul126 : tensor<2x8xf32>) outs(%e127 : tensor<2x8x16xf32>) dimensions = [2]
    %e129 = tensor.empty() : tensor<2x8x16xf32>
    %sub130 = linalg.sub ins(%add114, %bc128 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e129 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e131 = tensor.empty() : tensor<2x8x16xf32>
    %mul132 = linalg.mul ins(%sub130, %sub130 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e131 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %c133 = arith.constant 0.000000000e+00 : f32
    %e134 = tensor.empty() : tensor<2x8xf32>
    %f135 = linalg.fill ins(%c133 : f32) outs(%e134 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %red136 = linalg.reduce ins(%mul132 : tensor<2x8x16xf32>) outs(%f135 : tensor<2x8xf32>) dimensions = [2]
      (%in137: f32, %acc138: f32) {
        %r139 = arith.addf %in137, %acc138 : f32
        linalg.yield %r139 : f32
      }
    %e140 = tensor.empty() : tensor<2x8xf32>
    %mul141 = linalg.mul ins(%red136, %f124 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e140 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %c142 = arith.constant 1.000000000e-05 : f32
    %e143 = tensor.empty() : tensor<2x8xf32>
    %f144 = linalg.fill ins(%c142 : f32) outs(%e143 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e145 = tensor.empty() : tensor<2x8xf32>
    %add146 = linalg.add ins(%mul141, %f144 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e145 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e147 = tensor.empty() : tensor<2x8xf32>
    %sqrt148 = linalg.sqrt ins(%add146 : tensor<2x8xf32>) outs(%e147 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %c149 = arith.constant 1.000000000e+00 : f32
    %e150 = tensor.empty() : tensor<2x8xf32>
    %f151 = linalg.fill ins(%c149 : f32) outs(%e150 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e152 = tensor.empty() : tensor<2x8xf32>
    %div153 = linalg.div ins(%f151, %sqrt148 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e152 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e154 = tensor.empty() : tensor<2x8x16xf32>
    %bc155 = linalg.broadcast ins(%div153 : tensor<2x8xf32>) outs(%e154 : tensor<2x8x16xf32>) dimensions = [2]
    %e156 = tensor.empty() : tensor<2x8x16xf32>
    %mul157 = linalg.mul ins(%sub130, %bc155 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e156 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e158 = tensor.empty() : tensor<2x8x16xf32>
    %bc159 = linalg.broadcast ins(%l0_ln2_g : tensor<16xf32>) outs(%e158 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e160 = tensor.empty() : tensor<2x8x16xf32>
    %mul161 = linalg.mul ins(%mul157, %bc159 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e160 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e162 = tensor.empty() : tensor<2x8x16xf32>
    %bc163 = linalg.broadcast ins(%l0_ln2_b : tensor<16xf32>) outs(%e162 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e164 = tensor.empty() : tensor<2x8x16xf32>
    %add165 = linalg.add ins(%mul161, %bc163 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e164 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e166 = tensor.empty() : tensor<2x16x64xf32>
    %bc167 = linalg.broadcast ins(%l0_w_fc1 : tensor<16x64xf32>) outs(%e166 : tensor<2x16x64xf32>) dimensions = [0]
    %c168 = arith.constant 0.000000000e+00 : f32
    %e169 = tensor.empty() : tensor<2x8x64xf32>
    %f170 = linalg.fill ins(%c168 : f32) outs(%e169 : tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %mm171 = linalg.batch_matmul ins(%add165, %bc167 : tensor<2x8x16xf32>, tensor<2x16x64xf32>) outs(%f170 : tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %e172 = tensor.empty() : tensor<2x8x64xf32>
    %bc173 = linalg.broadcast ins(%l0_b_fc1 : tensor<64xf32>) outs(%e172 : tensor<2x8x64xf32>) dimensions = [0, 1]
    %e174 = tensor.empty() : tensor<2x8x64xf32>
    %add175 = linalg.add ins(%mm171, %bc173 : tensor<2x8x64xf32>, tensor<2x8x64xf32>) outs(%e174 : tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %c176 = arith.constant -1.702000000e+00 : f32
    %e177 = tensor.empty() : tensor<2x8x64xf32>
    %f178 = linalg.fill ins(%c176 : f32) outs(%e177 : tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %e179 = tensor.empty() : tensor<2x8x64xf32>
    %mul180 = linalg.mul ins(%add175, %f178 : tensor<2x8x64xf32>, tensor<2x8x64xf32>) outs(%e179 : tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %e181 = tensor.empty() : tensor<2x8x64xf32>
    %exp182 = linalg.exp ins(%mul180 : tensor<2x8x64xf32>) outs(%e181 : tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %c183 = arith.constant 1.000000000e+00 : f32
    %e184 = tensor.empty() : tensor<2x8x64xf32>
    %f185 = linalg.fill ins(%c183 : f32) outs(%e184 : tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %e186 = tensor.empty() : tensor<2x8x64xf32>
    %add187 = linalg.add ins(%exp182, %f185 : tensor<2x8x64xf32>, tensor<2x8x64xf32>) outs(%e186 : tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %e188 = tensor.empty() : tensor<2x8x64xf32>
    %div189 = linalg.div ins(%add175, %add187 : tensor<2x8x64xf32>, tensor<2x8x64xf32>) outs(%e188 : tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %e190 = tensor.empty() : tensor<2x64x16xf32>
    %bc191 = linalg.broadcast ins(%l0_w_fc2 : tensor<64x16xf32>) outs(%e190 : tensor<2x64x16xf32>) dimensions = [0]
    %c192 = arith.constant 0.000000000e+00 : f32
    %e193 = tensor.empty() : tensor<2x8x16xf32>
    %f194 = linalg.fill ins(%c192 : f32) outs(%e193 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %mm195 = linalg.batch_matmul ins(%div189, %bc191 : tensor<2x8x64xf32>, tensor<2x64x16xf32>) outs(%f194 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %ar196 = shard.all_reduce %mm195 on @grid grid_axes = [0] : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
    %e197 = tensor.empty() : tensor<2x8x16xf32>
    %bc198 = linalg.broadcast ins(%l0_b_fc2 : tensor<16xf32>) outs(%e197 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e199 = tensor.empty() : tensor<2x8x16xf32>
    %add200 = linalg.add ins(%ar196, %bc198 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e199 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e201 = tensor.empty() : tensor<2x8x16xf32>
    %add202 = linalg.add ins(%add114, %add200 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e201 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    return %add202 : tensor<2x8x16xf32>
  }
}
