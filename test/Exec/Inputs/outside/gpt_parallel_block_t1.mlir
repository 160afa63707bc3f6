// GPT-J/NeoX parallel block, one all_reduce of attn+mlp partials: single-device program (grid of size 1).
module {
  shard.grid @grid(shape = 1) {sym_visibility = "private"}
  func.func @forward(
      %x: tensor<2x8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>, seqpar.seq_dim = 1 : i64},
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
    %e104 = tensor.empty() : tensor<2x16x64xf32>
    %bc105 = linalg.broadcast ins(%l0_w_fc1 : tensor<16x64xf32>) outs(%e104 : tensor<2x16x64xf32>) dimensions = [0]
    %c106 = arith.constant 0.000000000e+00 : f32
    %e107 = tensor.empty() : tensor<2x8x64xf32>
    %f108 = linalg.fill ins(%c106 : f32) outs(%e107 : tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %mm109 = linalg.batch_matmul ins(%add51, %bc105 : tensor<2x8x16xf32>, tensor<2x16x64xf32>) outs(%f108 : tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %e110 = tensor.empty() : tensor<2x8x64xf32>
    %bc111 = linalg.broadcast ins(%l0_b_fc1 : tensor<64xf32>) outs(%e110 : tensor<2x8x64xf32>) dimensions = [0, 1]
    %e112 = tensor.empty() : tensor<2x8x64xf32>
    %add113 = linalg.add ins(%mm109, %bc111 : tensor<2x8x64xf32>, tensor<2x8x64xf32>) outs(%e112 : tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %c114 = arith.constant -1.702000000e+00 : f32
    %e115 = tensor.empty() : tensor<2x8x64xf32>
    %f116 = linalg.fill ins(%c114 : f32) outs(%e115 : tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %e117 = tensor.empty() : tensor<2x8x64xf32>
    %mul118 = linalg.mul ins(%add113, %f116 : tensor<2x8x64xf32>, tensor<2x8x64xf32>) outs(%e117 : tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %e119 = tensor.empty() : tensor<2x8x64xf32>
    %exp120 = linalg.exp ins(%mul118 : tensor<2x8x64xf32>) outs(%e119 : tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %c121 = arith.constant 1.000000000e+00 : f32
    %e122 = tensor.empty() : tensor<2x8x64xf32>
    %f123 = linalg.fill ins(%c121 : f32) outs(%e122 : tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %e124 = tensor.empty() : tensor<2x8x64xf32>
    %add125 = linalg.add ins(%exp120, %f123 : tensor<2x8x64xf32>, tensor<2x8x64xf32>) outs(%e124 : tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %e126 = tensor.empty() : tensor<2x8x64xf32>
    %div127 = linalg.div ins(%add113, %add125 : tensor<2x8x64xf32>, tensor<2x8x64xf32>) outs(%e126 : tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %e128 = tensor.empty() : tensor<2x64x16xf32>
    %bc129 = linalg.broadcast ins(%l0_w_fc2 : tensor<64x16xf32>) outs(%e128 : tensor<2x64x16xf32>) dimensions = [0]
    %c130 = arith.constant 0.000000000e+00 : f32
    %e131 = tensor.empty() : tensor<2x8x16xf32>
    %f132 = linalg.fill ins(%c130 : f32) outs(%e131 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %mm133 = linalg.batch_matmul ins(%div127, %bc129 : tensor<2x8x64xf32>, tensor<2x64x16xf32>) outs(%f132 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e134 = tensor.empty() : tensor<2x8x16xf32>
    %add135 = linalg.add ins(%mm103, %mm133 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e134 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %ar136 = shard.all_reduce %add135 on @grid grid_axes = [0] : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
    %e137 = tensor.empty() : tensor<2x8x16xf32>
    %bc138 = linalg.broadcast ins(%l0_b_o : tensor<16xf32>) outs(%e137 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e139 = tensor.empty() : tensor<2x8x16xf32>
    %add140 = linalg.add ins(%ar136, %bc138 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e139 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e141 = tensor.empty() : tensor<2x8x16xf32>
    %add142 = linalg.add ins(%x, %add140 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e141 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %c143 = arith.constant 0.000000000e+00 : f32
    %e144 = tensor.empty() : tensor<2x8xf32>
    %f145 = linalg.fill ins(%c143 : f32) outs(%e144 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %red146 = linalg.reduce ins(%add142 : tensor<2x8x16xf32>) outs(%f145 : tensor<2x8xf32>) dimensions = [2]
      (%in147: f32, %acc148: f32) {
        %r149 = arith.addf %in147, %acc148 : f32
        linalg.yield %r149 : f32
      }
    %c150 = arith.constant 6.250000000e-02 : f32
    %e151 = tensor.empty() : tensor<2x8xf32>
    %f152 = linalg.fill ins(%c150 : f32) outs(%e151 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e153 = tensor.empty() : tensor<2x8xf32>
    %mul154 = linalg.mul ins(%red146, %f152 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e153 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e155 = tensor.empty() : tensor<2x8x16xf32>
    %bc156 = linalg.broadcast ins(%mul154 : tensor<2x8xf32>) outs(%e155 : tensor<2x8x16xf32>) dimensions = [2]
    %e157 = tensor.empty() : tensor<2x8x16xf32>
    %sub158 = linalg.sub ins(%add142, %bc156 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e157 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e159 = tensor.empty() : tensor<2x8x16xf32>
    %mul160 = linalg.mul ins(%sub158, %sub158 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e159 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %c161 = arith.constant 0.000000000e+00 : f32
    %e162 = tensor.empty() : tensor<2x8xf32>
    %f163 = linalg.fill ins(%c161 : f32) outs(%e162 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %red164 = linalg.reduce ins(%mul160 : tensor<2x8x16xf32>) outs(%f163 : tensor<2x8xf32>) dimensions = [2]
      (%in165: f32, %acc166: f32) {
        %r167 = arith.addf %in165, %acc166 : f32
        linalg.yield %r167 : f32
      }
    %e168 = tensor.empty() : tensor<2x8xf32>
    %mul169 = linalg.mul ins(%red164, %f152 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e168 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %c170 = arith.constant 1.000000000e-05 : f32
    %e171 = tensor.empty() : tensor<2x8xf32>
    %f172 = linalg.fill ins(%c170 : f32) outs(%e171 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e173 = tensor.empty() : tensor<2x8xf32>
    %add174 = linalg.add ins(%mul169, %f172 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e173 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e175 = tensor.empty() : tensor<2x8xf32>
    %sqrt176 = linalg.sqrt ins(%add174 : tensor<2x8xf32>) outs(%e175 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %c177 = arith.constant 1.000000000e+00 : f32
    %e178 = tensor.empty() : tensor<2x8xf32>
    %f179 = linalg.fill ins(%c177 : f32) outs(%e178 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e180 = tensor.empty() : tensor<2x8xf32>
    %div181 = linalg.div ins(%f179, %sqrt176 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e180 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e182 = tensor.empty() : tensor<2x8x16xf32>
    %bc183 = linalg.broadcast ins(%div181 : tensor<2x8xf32>) outs(%e182 : tensor<2x8x16xf32>) dimensions = [2]
    %e184 = tensor.empty() : tensor<2x8x16xf32>
    %mul185 = linalg.mul ins(%sub158, %bc183 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e184 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e186 = tensor.empty() : tensor<2x8x16xf32>
    %bc187 = linalg.broadcast ins(%l0_ln2_g : tensor<16xf32>) outs(%e186 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e188 = tensor.empty() : tensor<2x8x16xf32>
    %mul189 = linalg.mul ins(%mul185, %bc187 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e188 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %e190 = tensor.empty() : tensor<2x8x16xf32>
    %bc191 = linalg.broadcast ins(%l0_ln2_b : tensor<16xf32>) outs(%e190 : tensor<2x8x16xf32>) dimensions = [0, 1]
    %e192 = tensor.empty() : tensor<2x8x16xf32>
    %add193 = linalg.add ins(%mul189, %bc191 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%e192 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    return %add193 : tensor<2x8x16xf32>
  }
}
