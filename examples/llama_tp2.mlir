// python3 bench/gen_tp_graph.py --model llama --layers 2 --batch 2 --seq 16 --hidden 64 --heads 4 --kv-heads 2 --tp 2 --layout sbh -o examples/llama_tp2.mlir
// model=llama form=tp layers=2 b=2 s=16 h=64 a=4 a_kv=2 ffn=256 tp=2 dtype=f32 layout=sbh flatten=0 dropout=0
#map0 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map6 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#map7 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map8 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
module {
  shard.grid @grid(shape = 2) {sym_visibility = "private"}
  func.func @forward(
      %x: tensor<16x2x64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>, seqpar.seq_dim = 0 : i64},
      %l0_attn_norm_g: tensor<64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l0_w_q: tensor<64x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l0_w_k: tensor<64x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l0_w_v: tensor<64x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l0_w_o: tensor<32x64xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l0_mlp_norm_g: tensor<64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l0_w_gate: tensor<64x128xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l0_w_up: tensor<64x128xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l0_w_down: tensor<128x64xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l1_attn_norm_g: tensor<64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l1_w_q: tensor<64x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l1_w_k: tensor<64x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l1_w_v: tensor<64x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l1_w_o: tensor<32x64xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l1_mlp_norm_g: tensor<64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l1_w_gate: tensor<64x128xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l1_w_up: tensor<64x128xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l1_w_down: tensor<128x64xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %norm_g: tensor<64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
      -> (tensor<16x2x64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
    %cst1 = arith.constant 0.000000000e+00 : f32
    %e2 = tensor.empty() : tensor<16x2x1xf32>
    %fill3 = linalg.fill ins(%cst1 : f32) outs(%e2 : tensor<16x2x1xf32>) -> tensor<16x2x1xf32>
    %sqsum4 = linalg.generic {indexing_maps = [#map1, #map0], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<16x2x64xf32>) outs(%fill3 : tensor<16x2x1xf32>) {
    ^bb0(%in5: f32, %out6: f32):
      %t7 = arith.mulf %in5, %in5 : f32
      %t8 = arith.addf %out6, %t7 : f32
      linalg.yield %t8 : f32
    } -> tensor<16x2x1xf32>
    %e9 = tensor.empty() : tensor<16x2x64xf32>
    %rms10 = linalg.generic {indexing_maps = [#map1, #map0, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %sqsum4, %l0_attn_norm_g : tensor<16x2x64xf32>, tensor<16x2x1xf32>, tensor<64xf32>) outs(%e9 : tensor<16x2x64xf32>) {
    ^bb0(%in11: f32, %in12: f32, %in13: f32, %out14: f32):
      %cst15 = arith.constant 1.562500000e-02 : f32
      %t16 = arith.mulf %in12, %cst15 : f32
      %cst17 = arith.constant 1.000000000e-05 : f32
      %t18 = arith.addf %t16, %cst17 : f32
      %t19 = math.rsqrt %t18 : f32
      %t20 = arith.mulf %in11, %t19 : f32
      %t21 = arith.mulf %t20, %in13 : f32
      linalg.yield %t21 : f32
    } -> tensor<16x2x64xf32>
    %e22 = tensor.empty() : tensor<16x2x32xf32>
    %fill23 = linalg.fill ins(%cst1 : f32) outs(%e22 : tensor<16x2x32xf32>) -> tensor<16x2x32xf32>
    %lin24 = linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%rms10, %l0_w_q : tensor<16x2x64xf32>, tensor<64x32xf32>) outs(%fill23 : tensor<16x2x32xf32>) {
    ^bb0(%in25: f32, %in26: f32, %out27: f32):
      %t28 = arith.mulf %in25, %in26 : f32
      %t29 = arith.addf %out27, %t28 : f32
      linalg.yield %t29 : f32
    } -> tensor<16x2x32xf32>
    %e30 = tensor.empty() : tensor<16x2x16xf32>
    %fill31 = linalg.fill ins(%cst1 : f32) outs(%e30 : tensor<16x2x16xf32>) -> tensor<16x2x16xf32>
    %lin32 = linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%rms10, %l0_w_k : tensor<16x2x64xf32>, tensor<64x16xf32>) outs(%fill31 : tensor<16x2x16xf32>) {
    ^bb0(%in33: f32, %in34: f32, %out35: f32):
      %t36 = arith.mulf %in33, %in34 : f32
      %t37 = arith.addf %out35, %t36 : f32
      linalg.yield %t37 : f32
    } -> tensor<16x2x16xf32>
    %e38 = tensor.empty() : tensor<16x2x16xf32>
    %fill39 = linalg.fill ins(%cst1 : f32) outs(%e38 : tensor<16x2x16xf32>) -> tensor<16x2x16xf32>
    %lin40 = linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%rms10, %l0_w_v : tensor<16x2x64xf32>, tensor<64x16xf32>) outs(%fill39 : tensor<16x2x16xf32>) {
    ^bb0(%in41: f32, %in42: f32, %out43: f32):
      %t44 = arith.mulf %in41, %in42 : f32
      %t45 = arith.addf %out43, %t44 : f32
      linalg.yield %t45 : f32
    } -> tensor<16x2x16xf32>
    %ex46 = tensor.expand_shape %lin24 [[0], [1], [2, 3, 4]] output_shape [16, 2, 2, 2, 8] : tensor<16x2x32xf32> into tensor<16x2x2x2x8xf32>
    %sl47 = tensor.extract_slice %ex46[0, 0, 0, 0, 0] [16, 2, 2, 1, 8] [1, 1, 1, 1, 1] : tensor<16x2x2x2x8xf32> to tensor<16x2x2x8xf32>
    %sl48 = tensor.extract_slice %ex46[0, 0, 0, 1, 0] [16, 2, 2, 1, 8] [1, 1, 1, 1, 1] : tensor<16x2x2x2x8xf32> to tensor<16x2x2x8xf32>
    %e49 = tensor.empty() : tensor<16x2x2x2x8xf32>
    %rope50 = linalg.generic {indexing_maps = [#map6, #map6, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%sl47, %sl48 : tensor<16x2x2x8xf32>, tensor<16x2x2x8xf32>) outs(%e49 : tensor<16x2x2x2x8xf32>) {
    ^bb0(%in51: f32, %in52: f32, %out53: f32):
      %i54 = linalg.index 0 : index
      %t55 = arith.index_cast %i54 : index to i64
      %t56 = arith.sitofp %t55 : i64 to f32
      %i57 = linalg.index 4 : index
      %t58 = arith.index_cast %i57 : index to i64
      %t59 = arith.sitofp %t58 : i64 to f32
      %cst60 = arith.constant -1.151292546e+00 : f32
      %t61 = arith.mulf %t59, %cst60 : f32
      %t62 = math.exp %t61 : f32
      %t63 = arith.mulf %t56, %t62 : f32
      %t64 = math.cos %t63 : f32
      %t65 = math.sin %t63 : f32
      %t66 = arith.mulf %in51, %t64 : f32
      %t67 = arith.mulf %in52, %t65 : f32
      %t68 = arith.subf %t66, %t67 : f32
      %t69 = arith.mulf %in52, %t64 : f32
      %t70 = arith.mulf %in51, %t65 : f32
      %t71 = arith.addf %t69, %t70 : f32
      %i72 = linalg.index 3 : index
      %c73 = arith.constant 0 : index
      %p74 = arith.cmpi eq, %i72, %c73 : index
      %t75 = arith.select %p74, %t68, %t71 : f32
      linalg.yield %t75 : f32
    } -> tensor<16x2x2x2x8xf32>
    %cl76 = tensor.collapse_shape %rope50 [[0], [1], [2], [3, 4]] : tensor<16x2x2x2x8xf32> into tensor<16x2x2x16xf32>
    %e77 = tensor.empty() : tensor<2x2x16x16xf32>
    %tr78 = linalg.transpose ins(%cl76 : tensor<16x2x2x16xf32>) outs(%e77 : tensor<2x2x16x16xf32>) permutation = [1, 2, 0, 3]
    %ex79 = tensor.expand_shape %lin32 [[0], [1], [2, 3, 4]] output_shape [16, 2, 1, 2, 8] : tensor<16x2x16xf32> into tensor<16x2x1x2x8xf32>
    %sl80 = tensor.extract_slice %ex79[0, 0, 0, 0, 0] [16, 2, 1, 1, 8] [1, 1, 1, 1, 1] : tensor<16x2x1x2x8xf32> to tensor<16x2x1x8xf32>
    %sl81 = tensor.extract_slice %ex79[0, 0, 0, 1, 0] [16, 2, 1, 1, 8] [1, 1, 1, 1, 1] : tensor<16x2x1x2x8xf32> to tensor<16x2x1x8xf32>
    %e82 = tensor.empty() : tensor<16x2x1x2x8xf32>
    %rope83 = linalg.generic {indexing_maps = [#map6, #map6, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%sl80, %sl81 : tensor<16x2x1x8xf32>, tensor<16x2x1x8xf32>) outs(%e82 : tensor<16x2x1x2x8xf32>) {
    ^bb0(%in84: f32, %in85: f32, %out86: f32):
      %i87 = linalg.index 0 : index
      %t88 = arith.index_cast %i87 : index to i64
      %t89 = arith.sitofp %t88 : i64 to f32
      %i90 = linalg.index 4 : index
      %t91 = arith.index_cast %i90 : index to i64
      %t92 = arith.sitofp %t91 : i64 to f32
      %cst93 = arith.constant -1.151292546e+00 : f32
      %t94 = arith.mulf %t92, %cst93 : f32
      %t95 = math.exp %t94 : f32
      %t96 = arith.mulf %t89, %t95 : f32
      %t97 = math.cos %t96 : f32
      %t98 = math.sin %t96 : f32
      %t99 = arith.mulf %in84, %t97 : f32
      %t100 = arith.mulf %in85, %t98 : f32
      %t101 = arith.subf %t99, %t100 : f32
      %t102 = arith.mulf %in85, %t97 : f32
      %t103 = arith.mulf %in84, %t98 : f32
      %t104 = arith.addf %t102, %t103 : f32
      %i105 = linalg.index 3 : index
      %c106 = arith.constant 0 : index
      %p107 = arith.cmpi eq, %i105, %c106 : index
      %t108 = arith.select %p107, %t101, %t104 : f32
      linalg.yield %t108 : f32
    } -> tensor<16x2x1x2x8xf32>
    %cl109 = tensor.collapse_shape %rope83 [[0], [1], [2], [3, 4]] : tensor<16x2x1x2x8xf32> into tensor<16x2x1x16xf32>
    %e110 = tensor.empty() : tensor<2x1x16x16xf32>
    %tr111 = linalg.transpose ins(%cl109 : tensor<16x2x1x16xf32>) outs(%e110 : tensor<2x1x16x16xf32>) permutation = [1, 2, 3, 0]
    %ex112 = tensor.expand_shape %lin40 [[0], [1], [2, 3]] output_shape [16, 2, 1, 16] : tensor<16x2x16xf32> into tensor<16x2x1x16xf32>
    %e113 = tensor.empty() : tensor<2x1x16x16xf32>
    %tr114 = linalg.transpose ins(%ex112 : tensor<16x2x1x16xf32>) outs(%e113 : tensor<2x1x16x16xf32>) permutation = [1, 2, 0, 3]
    %cl115 = tensor.collapse_shape %tr78 [[0, 1], [2], [3]] : tensor<2x2x16x16xf32> into tensor<4x16x16xf32>
    %e116 = tensor.empty() : tensor<2x1x2x16x16xf32>
    %rep117 = linalg.generic {indexing_maps = [#map8, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%tr111 : tensor<2x1x16x16xf32>) outs(%e116 : tensor<2x1x2x16x16xf32>) {
    ^bb0(%in118: f32, %out119: f32):
      linalg.yield %in118 : f32
    } -> tensor<2x1x2x16x16xf32>
    %cl120 = tensor.collapse_shape %rep117 [[0, 1, 2], [3], [4]] : tensor<2x1x2x16x16xf32> into tensor<4x16x16xf32>
    %e121 = tensor.empty() : tensor<2x1x2x16x16xf32>
    %rep122 = linalg.generic {indexing_maps = [#map8, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%tr114 : tensor<2x1x16x16xf32>) outs(%e121 : tensor<2x1x2x16x16xf32>) {
    ^bb0(%in123: f32, %out124: f32):
      linalg.yield %in123 : f32
    } -> tensor<2x1x2x16x16xf32>
    %cl125 = tensor.collapse_shape %rep122 [[0, 1, 2], [3], [4]] : tensor<2x1x2x16x16xf32> into tensor<4x16x16xf32>
    %e126 = tensor.empty() : tensor<4x16x16xf32>
    %fill127 = linalg.fill ins(%cst1 : f32) outs(%e126 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %bmm128 = linalg.batch_matmul ins(%cl115, %cl120 : tensor<4x16x16xf32>, tensor<4x16x16xf32>) outs(%fill127 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %e129 = tensor.empty() : tensor<4x16x16xf32>
    %scale130 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bmm128 : tensor<4x16x16xf32>) outs(%e129 : tensor<4x16x16xf32>) {
    ^bb0(%in131: f32, %out132: f32):
      %cst133 = arith.constant 2.500000000e-01 : f32
      %t134 = arith.mulf %in131, %cst133 : f32
      linalg.yield %t134 : f32
    } -> tensor<4x16x16xf32>
    %e135 = tensor.empty() : tensor<4x16x16xf32>
    %mask136 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%scale130 : tensor<4x16x16xf32>) outs(%e135 : tensor<4x16x16xf32>) {
    ^bb0(%in137: f32, %out138: f32):
      %i139 = linalg.index 2 : index
      %i140 = linalg.index 1 : index
      %p141 = arith.cmpi ugt, %i139, %i140 : index
      %cst142 = arith.constant -1.000000000e+09 : f32
      %t143 = arith.select %p141, %cst142, %in137 : f32
      linalg.yield %t143 : f32
    } -> tensor<4x16x16xf32>
    %cst144 = arith.constant 0xFF800000 : f32
    %e145 = tensor.empty() : tensor<4x16x1xf32>
    %fill146 = linalg.fill ins(%cst144 : f32) outs(%e145 : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    %max147 = linalg.generic {indexing_maps = [#map1, #map0], iterator_types = ["parallel", "parallel", "reduction"]} ins(%mask136 : tensor<4x16x16xf32>) outs(%fill146 : tensor<4x16x1xf32>) {
    ^bb0(%in148: f32, %out149: f32):
      %t150 = arith.maximumf %out149, %in148 : f32
      linalg.yield %t150 : f32
    } -> tensor<4x16x1xf32>
    %e151 = tensor.empty() : tensor<4x16x16xf32>
    %exp152 = linalg.generic {indexing_maps = [#map1, #map0, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mask136, %max147 : tensor<4x16x16xf32>, tensor<4x16x1xf32>) outs(%e151 : tensor<4x16x16xf32>) {
    ^bb0(%in153: f32, %in154: f32, %out155: f32):
      %t156 = arith.subf %in153, %in154 : f32
      %t157 = math.exp %t156 : f32
      linalg.yield %t157 : f32
    } -> tensor<4x16x16xf32>
    %e158 = tensor.empty() : tensor<4x16x1xf32>
    %fill159 = linalg.fill ins(%cst1 : f32) outs(%e158 : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    %sum160 = linalg.generic {indexing_maps = [#map1, #map0], iterator_types = ["parallel", "parallel", "reduction"]} ins(%exp152 : tensor<4x16x16xf32>) outs(%fill159 : tensor<4x16x1xf32>) {
    ^bb0(%in161: f32, %out162: f32):
      %t163 = arith.addf %out162, %in161 : f32
      linalg.yield %t163 : f32
    } -> tensor<4x16x1xf32>
    %e164 = tensor.empty() : tensor<4x16x16xf32>
    %softmax165 = linalg.generic {indexing_maps = [#map1, #map0, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%exp152, %sum160 : tensor<4x16x16xf32>, tensor<4x16x1xf32>) outs(%e164 : tensor<4x16x16xf32>) {
    ^bb0(%in166: f32, %in167: f32, %out168: f32):
      %t169 = arith.divf %in166, %in167 : f32
      linalg.yield %t169 : f32
    } -> tensor<4x16x16xf32>
    %e170 = tensor.empty() : tensor<4x16x16xf32>
    %fill171 = linalg.fill ins(%cst1 : f32) outs(%e170 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %bmm172 = linalg.batch_matmul ins(%softmax165, %cl125 : tensor<4x16x16xf32>, tensor<4x16x16xf32>) outs(%fill171 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %ex173 = tensor.expand_shape %bmm172 [[0, 1], [2], [3]] output_shape [2, 2, 16, 16] : tensor<4x16x16xf32> into tensor<2x2x16x16xf32>
    %e174 = tensor.empty() : tensor<16x2x2x16xf32>
    %tr175 = linalg.transpose ins(%ex173 : tensor<2x2x16x16xf32>) outs(%e174 : tensor<16x2x2x16xf32>) permutation = [2, 0, 1, 3]
    %cl176 = tensor.collapse_shape %tr175 [[0], [1], [2, 3]] : tensor<16x2x2x16xf32> into tensor<16x2x32xf32>
    %e177 = tensor.empty() : tensor<16x2x64xf32>
    %fill178 = linalg.fill ins(%cst1 : f32) outs(%e177 : tensor<16x2x64xf32>) -> tensor<16x2x64xf32>
    %lin179 = linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%cl176, %l0_w_o : tensor<16x2x32xf32>, tensor<32x64xf32>) outs(%fill178 : tensor<16x2x64xf32>) {
    ^bb0(%in180: f32, %in181: f32, %out182: f32):
      %t183 = arith.mulf %in180, %in181 : f32
      %t184 = arith.addf %out182, %t183 : f32
      linalg.yield %t184 : f32
    } -> tensor<16x2x64xf32>
    %ar185 = shard.all_reduce %lin179 on @grid grid_axes = [0] : tensor<16x2x64xf32> -> tensor<16x2x64xf32>
    %e186 = tensor.empty() : tensor<16x2x64xf32>
    %res187 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %ar185 : tensor<16x2x64xf32>, tensor<16x2x64xf32>) outs(%e186 : tensor<16x2x64xf32>) {
    ^bb0(%in188: f32, %in189: f32, %out190: f32):
      %t191 = arith.addf %in188, %in189 : f32
      linalg.yield %t191 : f32
    } -> tensor<16x2x64xf32>
    %e192 = tensor.empty() : tensor<16x2x1xf32>
    %fill193 = linalg.fill ins(%cst1 : f32) outs(%e192 : tensor<16x2x1xf32>) -> tensor<16x2x1xf32>
    %sqsum194 = linalg.generic {indexing_maps = [#map1, #map0], iterator_types = ["parallel", "parallel", "reduction"]} ins(%res187 : tensor<16x2x64xf32>) outs(%fill193 : tensor<16x2x1xf32>) {
    ^bb0(%in195: f32, %out196: f32):
      %t197 = arith.mulf %in195, %in195 : f32
      %t198 = arith.addf %out196, %t197 : f32
      linalg.yield %t198 : f32
    } -> tensor<16x2x1xf32>
    %e199 = tensor.empty() : tensor<16x2x64xf32>
    %rms200 = linalg.generic {indexing_maps = [#map1, #map0, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%res187, %sqsum194, %l0_mlp_norm_g : tensor<16x2x64xf32>, tensor<16x2x1xf32>, tensor<64xf32>) outs(%e199 : tensor<16x2x64xf32>) {
    ^bb0(%in201: f32, %in202: f32, %in203: f32, %out204: f32):
      %cst205 = arith.constant 1.562500000e-02 : f32
      %t206 = arith.mulf %in202, %cst205 : f32
      %cst207 = arith.constant 1.000000000e-05 : f32
      %t208 = arith.addf %t206, %cst207 : f32
      %t209 = math.rsqrt %t208 : f32
      %t210 = arith.mulf %in201, %t209 : f32
      %t211 = arith.mulf %t210, %in203 : f32
      linalg.yield %t211 : f32
    } -> tensor<16x2x64xf32>
    %e212 = tensor.empty() : tensor<16x2x128xf32>
    %fill213 = linalg.fill ins(%cst1 : f32) outs(%e212 : tensor<16x2x128xf32>) -> tensor<16x2x128xf32>
    %lin214 = linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%rms200, %l0_w_gate : tensor<16x2x64xf32>, tensor<64x128xf32>) outs(%fill213 : tensor<16x2x128xf32>) {
    ^bb0(%in215: f32, %in216: f32, %out217: f32):
      %t218 = arith.mulf %in215, %in216 : f32
      %t219 = arith.addf %out217, %t218 : f32
      linalg.yield %t219 : f32
    } -> tensor<16x2x128xf32>
    %e220 = tensor.empty() : tensor<16x2x128xf32>
    %fill221 = linalg.fill ins(%cst1 : f32) outs(%e220 : tensor<16x2x128xf32>) -> tensor<16x2x128xf32>
    %lin222 = linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%rms200, %l0_w_up : tensor<16x2x64xf32>, tensor<64x128xf32>) outs(%fill221 : tensor<16x2x128xf32>) {
    ^bb0(%in223: f32, %in224: f32, %out225: f32):
      %t226 = arith.mulf %in223, %in224 : f32
      %t227 = arith.addf %out225, %t226 : f32
      linalg.yield %t227 : f32
    } -> tensor<16x2x128xf32>
    %e228 = tensor.empty() : tensor<16x2x128xf32>
    %swiglu229 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%lin214, %lin222 : tensor<16x2x128xf32>, tensor<16x2x128xf32>) outs(%e228 : tensor<16x2x128xf32>) {
    ^bb0(%in230: f32, %in231: f32, %out232: f32):
      %t233 = arith.negf %in230 : f32
      %t234 = math.exp %t233 : f32
      %cst235 = arith.constant 1.000000000e+00 : f32
      %t236 = arith.addf %t234, %cst235 : f32
      %t237 = arith.divf %in230, %t236 : f32
      %t238 = arith.mulf %t237, %in231 : f32
      linalg.yield %t238 : f32
    } -> tensor<16x2x128xf32>
    %e239 = tensor.empty() : tensor<16x2x64xf32>
    %fill240 = linalg.fill ins(%cst1 : f32) outs(%e239 : tensor<16x2x64xf32>) -> tensor<16x2x64xf32>
    %lin241 = linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%swiglu229, %l0_w_down : tensor<16x2x128xf32>, tensor<128x64xf32>) outs(%fill240 : tensor<16x2x64xf32>) {
    ^bb0(%in242: f32, %in243: f32, %out244: f32):
      %t245 = arith.mulf %in242, %in243 : f32
      %t246 = arith.addf %out244, %t245 : f32
      linalg.yield %t246 : f32
    } -> tensor<16x2x64xf32>
    %ar247 = shard.all_reduce %lin241 on @grid grid_axes = [0] : tensor<16x2x64xf32> -> tensor<16x2x64xf32>
    %e248 = tensor.empty() : tensor<16x2x64xf32>
    %res249 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%res187, %ar247 : tensor<16x2x64xf32>, tensor<16x2x64xf32>) outs(%e248 : tensor<16x2x64xf32>) {
    ^bb0(%in250: f32, %in251: f32, %out252: f32):
      %t253 = arith.addf %in250, %in251 : f32
      linalg.yield %t253 : f32
    } -> tensor<16x2x64xf32>
    %e254 = tensor.empty() : tensor<16x2x1xf32>
    %fill255 = linalg.fill ins(%cst1 : f32) outs(%e254 : tensor<16x2x1xf32>) -> tensor<16x2x1xf32>
    %sqsum256 = linalg.generic {indexing_maps = [#map1, #map0], iterator_types = ["parallel", "parallel", "reduction"]} ins(%res249 : tensor<16x2x64xf32>) outs(%fill255 : tensor<16x2x1xf32>) {
    ^bb0(%in257: f32, %out258: f32):
      %t259 = arith.mulf %in257, %in257 : f32
      %t260 = arith.addf %out258, %t259 : f32
      linalg.yield %t260 : f32
    } -> tensor<16x2x1xf32>
    %e261 = tensor.empty() : tensor<16x2x64xf32>
    %rms262 = linalg.generic {indexing_maps = [#map1, #map0, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%res249, %sqsum256, %l1_attn_norm_g : tensor<16x2x64xf32>, tensor<16x2x1xf32>, tensor<64xf32>) outs(%e261 : tensor<16x2x64xf32>) {
    ^bb0(%in263: f32, %in264: f32, %in265: f32, %out266: f32):
      %cst267 = arith.constant 1.562500000e-02 : f32
      %t268 = arith.mulf %in264, %cst267 : f32
      %cst269 = arith.constant 1.000000000e-05 : f32
      %t270 = arith.addf %t268, %cst269 : f32
      %t271 = math.rsqrt %t270 : f32
      %t272 = arith.mulf %in263, %t271 : f32
      %t273 = arith.mulf %t272, %in265 : f32
      linalg.yield %t273 : f32
    } -> tensor<16x2x64xf32>
    %e274 = tensor.empty() : tensor<16x2x32xf32>
    %fill275 = linalg.fill ins(%cst1 : f32) outs(%e274 : tensor<16x2x32xf32>) -> tensor<16x2x32xf32>
    %lin276 = linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%rms262, %l1_w_q : tensor<16x2x64xf32>, tensor<64x32xf32>) outs(%fill275 : tensor<16x2x32xf32>) {
    ^bb0(%in277: f32, %in278: f32, %out279: f32):
      %t280 = arith.mulf %in277, %in278 : f32
      %t281 = arith.addf %out279, %t280 : f32
      linalg.yield %t281 : f32
    } -> tensor<16x2x32xf32>
    %e282 = tensor.empty() : tensor<16x2x16xf32>
    %fill283 = linalg.fill ins(%cst1 : f32) outs(%e282 : tensor<16x2x16xf32>) -> tensor<16x2x16xf32>
    %lin284 = linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%rms262, %l1_w_k : tensor<16x2x64xf32>, tensor<64x16xf32>) outs(%fill283 : tensor<16x2x16xf32>) {
    ^bb0(%in285: f32, %in286: f32, %out287: f32):
      %t288 = arith.mulf %in285, %in286 : f32
      %t289 = arith.addf %out287, %t288 : f32
      linalg.yield %t289 : f32
    } -> tensor<16x2x16xf32>
    %e290 = tensor.empty() : tensor<16x2x16xf32>
    %fill291 = linalg.fill ins(%cst1 : f32) outs(%e290 : tensor<16x2x16xf32>) -> tensor<16x2x16xf32>
    %lin292 = linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%rms262, %l1_w_v : tensor<16x2x64xf32>, tensor<64x16xf32>) outs(%fill291 : tensor<16x2x16xf32>) {
    ^bb0(%in293: f32, %in294: f32, %out295: f32):
      %t296 = arith.mulf %in293, %in294 : f32
      %t297 = arith.addf %out295, %t296 : f32
      linalg.yield %t297 : f32
    } -> tensor<16x2x16xf32>
    %ex298 = tensor.expand_shape %lin276 [[0], [1], [2, 3, 4]] output_shape [16, 2, 2, 2, 8] : tensor<16x2x32xf32> into tensor<16x2x2x2x8xf32>
    %sl299 = tensor.extract_slice %ex298[0, 0, 0, 0, 0] [16, 2, 2, 1, 8] [1, 1, 1, 1, 1] : tensor<16x2x2x2x8xf32> to tensor<16x2x2x8xf32>
    %sl300 = tensor.extract_slice %ex298[0, 0, 0, 1, 0] [16, 2, 2, 1, 8] [1, 1, 1, 1, 1] : tensor<16x2x2x2x8xf32> to tensor<16x2x2x8xf32>
    %e301 = tensor.empty() : tensor<16x2x2x2x8xf32>
    %rope302 = linalg.generic {indexing_maps = [#map6, #map6, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%sl299, %sl300 : tensor<16x2x2x8xf32>, tensor<16x2x2x8xf32>) outs(%e301 : tensor<16x2x2x2x8xf32>) {
    ^bb0(%in303: f32, %in304: f32, %out305: f32):
      %i306 = linalg.index 0 : index
      %t307 = arith.index_cast %i306 : index to i64
      %t308 = arith.sitofp %t307 : i64 to f32
      %i309 = linalg.index 4 : index
      %t310 = arith.index_cast %i309 : index to i64
      %t311 = arith.sitofp %t310 : i64 to f32
      %cst312 = arith.constant -1.151292546e+00 : f32
      %t313 = arith.mulf %t311, %cst312 : f32
      %t314 = math.exp %t313 : f32
      %t315 = arith.mulf %t308, %t314 : f32
      %t316 = math.cos %t315 : f32
      %t317 = math.sin %t315 : f32
      %t318 = arith.mulf %in303, %t316 : f32
      %t319 = arith.mulf %in304, %t317 : f32
      %t320 = arith.subf %t318, %t319 : f32
      %t321 = arith.mulf %in304, %t316 : f32
      %t322 = arith.mulf %in303, %t317 : f32
      %t323 = arith.addf %t321, %t322 : f32
      %i324 = linalg.index 3 : index
      %c325 = arith.constant 0 : index
      %p326 = arith.cmpi eq, %i324, %c325 : index
      %t327 = arith.select %p326, %t320, %t323 : f32
      linalg.yield %t327 : f32
    } -> tensor<16x2x2x2x8xf32>
    %cl328 = tensor.collapse_shape %rope302 [[0], [1], [2], [3, 4]] : tensor<16x2x2x2x8xf32> into tensor<16x2x2x16xf32>
    %e329 = tensor.empty() : tensor<2x2x16x16xf32>
    %tr330 = linalg.transpose ins(%cl328 : tensor<16x2x2x16xf32>) outs(%e329 : tensor<2x2x16x16xf32>) permutation = [1, 2, 0, 3]
    %ex331 = tensor.expand_shape %lin284 [[0], [1], [2, 3, 4]] output_shape [16, 2, 1, 2, 8] : tensor<16x2x16xf32> into tensor<16x2x1x2x8xf32>
    %sl332 = tensor.extract_slice %ex331[0, 0, 0, 0, 0] [16, 2, 1, 1, 8] [1, 1, 1, 1, 1] : tensor<16x2x1x2x8xf32> to tensor<16x2x1x8xf32>
    %sl333 = tensor.extract_slice %ex331[0, 0, 0, 1, 0] [16, 2, 1, 1, 8] [1, 1, 1, 1, 1] : tensor<16x2x1x2x8xf32> to tensor<16x2x1x8xf32>
    %e334 = tensor.empty() : tensor<16x2x1x2x8xf32>
    %rope335 = linalg.generic {indexing_maps = [#map6, #map6, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%sl332, %sl333 : tensor<16x2x1x8xf32>, tensor<16x2x1x8xf32>) outs(%e334 : tensor<16x2x1x2x8xf32>) {
    ^bb0(%in336: f32, %in337: f32, %out338: f32):
      %i339 = linalg.index 0 : index
      %t340 = arith.index_cast %i339 : index to i64
      %t341 = arith.sitofp %t340 : i64 to f32
      %i342 = linalg.index 4 : index
      %t343 = arith.index_cast %i342 : index to i64
      %t344 = arith.sitofp %t343 : i64 to f32
      %cst345 = arith.constant -1.151292546e+00 : f32
      %t346 = arith.mulf %t344, %cst345 : f32
      %t347 = math.exp %t346 : f32
      %t348 = arith.mulf %t341, %t347 : f32
      %t349 = math.cos %t348 : f32
      %t350 = math.sin %t348 : f32
      %t351 = arith.mulf %in336, %t349 : f32
      %t352 = arith.mulf %in337, %t350 : f32
      %t353 = arith.subf %t351, %t352 : f32
      %t354 = arith.mulf %in337, %t349 : f32
      %t355 = arith.mulf %in336, %t350 : f32
      %t356 = arith.addf %t354, %t355 : f32
      %i357 = linalg.index 3 : index
      %c358 = arith.constant 0 : index
      %p359 = arith.cmpi eq, %i357, %c358 : index
      %t360 = arith.select %p359, %t353, %t356 : f32
      linalg.yield %t360 : f32
    } -> tensor<16x2x1x2x8xf32>
    %cl361 = tensor.collapse_shape %rope335 [[0], [1], [2], [3, 4]] : tensor<16x2x1x2x8xf32> into tensor<16x2x1x16xf32>
    %e362 = tensor.empty() : tensor<2x1x16x16xf32>
    %tr363 = linalg.transpose ins(%cl361 : tensor<16x2x1x16xf32>) outs(%e362 : tensor<2x1x16x16xf32>) permutation = [1, 2, 3, 0]
    %ex364 = tensor.expand_shape %lin292 [[0], [1], [2, 3]] output_shape [16, 2, 1, 16] : tensor<16x2x16xf32> into tensor<16x2x1x16xf32>
    %e365 = tensor.empty() : tensor<2x1x16x16xf32>
    %tr366 = linalg.transpose ins(%ex364 : tensor<16x2x1x16xf32>) outs(%e365 : tensor<2x1x16x16xf32>) permutation = [1, 2, 0, 3]
    %cl367 = tensor.collapse_shape %tr330 [[0, 1], [2], [3]] : tensor<2x2x16x16xf32> into tensor<4x16x16xf32>
    %e368 = tensor.empty() : tensor<2x1x2x16x16xf32>
    %rep369 = linalg.generic {indexing_maps = [#map8, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%tr363 : tensor<2x1x16x16xf32>) outs(%e368 : tensor<2x1x2x16x16xf32>) {
    ^bb0(%in370: f32, %out371: f32):
      linalg.yield %in370 : f32
    } -> tensor<2x1x2x16x16xf32>
    %cl372 = tensor.collapse_shape %rep369 [[0, 1, 2], [3], [4]] : tensor<2x1x2x16x16xf32> into tensor<4x16x16xf32>
    %e373 = tensor.empty() : tensor<2x1x2x16x16xf32>
    %rep374 = linalg.generic {indexing_maps = [#map8, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%tr366 : tensor<2x1x16x16xf32>) outs(%e373 : tensor<2x1x2x16x16xf32>) {
    ^bb0(%in375: f32, %out376: f32):
      linalg.yield %in375 : f32
    } -> tensor<2x1x2x16x16xf32>
    %cl377 = tensor.collapse_shape %rep374 [[0, 1, 2], [3], [4]] : tensor<2x1x2x16x16xf32> into tensor<4x16x16xf32>
    %e378 = tensor.empty() : tensor<4x16x16xf32>
    %fill379 = linalg.fill ins(%cst1 : f32) outs(%e378 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %bmm380 = linalg.batch_matmul ins(%cl367, %cl372 : tensor<4x16x16xf32>, tensor<4x16x16xf32>) outs(%fill379 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %e381 = tensor.empty() : tensor<4x16x16xf32>
    %scale382 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bmm380 : tensor<4x16x16xf32>) outs(%e381 : tensor<4x16x16xf32>) {
    ^bb0(%in383: f32, %out384: f32):
      %cst385 = arith.constant 2.500000000e-01 : f32
      %t386 = arith.mulf %in383, %cst385 : f32
      linalg.yield %t386 : f32
    } -> tensor<4x16x16xf32>
    %e387 = tensor.empty() : tensor<4x16x16xf32>
    %mask388 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%scale382 : tensor<4x16x16xf32>) outs(%e387 : tensor<4x16x16xf32>) {
    ^bb0(%in389: f32, %out390: f32):
      %i391 = linalg.index 2 : index
      %i392 = linalg.index 1 : index
      %p393 = arith.cmpi ugt, %i391, %i392 : index
      %cst394 = arith.constant -1.000000000e+09 : f32
      %t395 = arith.select %p393, %cst394, %in389 : f32
      linalg.yield %t395 : f32
    } -> tensor<4x16x16xf32>
    %e396 = tensor.empty() : tensor<4x16x1xf32>
    %fill397 = linalg.fill ins(%cst144 : f32) outs(%e396 : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    %max398 = linalg.generic {indexing_maps = [#map1, #map0], iterator_types = ["parallel", "parallel", "reduction"]} ins(%mask388 : tensor<4x16x16xf32>) outs(%fill397 : tensor<4x16x1xf32>) {
    ^bb0(%in399: f32, %out400: f32):
      %t401 = arith.maximumf %out400, %in399 : f32
      linalg.yield %t401 : f32
    } -> tensor<4x16x1xf32>
    %e402 = tensor.empty() : tensor<4x16x16xf32>
    %exp403 = linalg.generic {indexing_maps = [#map1, #map0, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mask388, %max398 : tensor<4x16x16xf32>, tensor<4x16x1xf32>) outs(%e402 : tensor<4x16x16xf32>) {
    ^bb0(%in404: f32, %in405: f32, %out406: f32):
      %t407 = arith.subf %in404, %in405 : f32
      %t408 = math.exp %t407 : f32
      linalg.yield %t408 : f32
    } -> tensor<4x16x16xf32>
    %e409 = tensor.empty() : tensor<4x16x1xf32>
    %fill410 = linalg.fill ins(%cst1 : f32) outs(%e409 : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    %sum411 = linalg.generic {indexing_maps = [#map1, #map0], iterator_types = ["parallel", "parallel", "reduction"]} ins(%exp403 : tensor<4x16x16xf32>) outs(%fill410 : tensor<4x16x1xf32>) {
    ^bb0(%in412: f32, %out413: f32):
      %t414 = arith.addf %out413, %in412 : f32
      linalg.yield %t414 : f32
    } -> tensor<4x16x1xf32>
    %e415 = tensor.empty() : tensor<4x16x16xf32>
    %softmax416 = linalg.generic {indexing_maps = [#map1, #map0, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%exp403, %sum411 : tensor<4x16x16xf32>, tensor<4x16x1xf32>) outs(%e415 : tensor<4x16x16xf32>) {
    ^bb0(%in417: f32, %in418: f32, %out419: f32):
      %t420 = arith.divf %in417, %in418 : f32
      linalg.yield %t420 : f32
    } -> tensor<4x16x16xf32>
    %e421 = tensor.empty() : tensor<4x16x16xf32>
    %fill422 = linalg.fill ins(%cst1 : f32) outs(%e421 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %bmm423 = linalg.batch_matmul ins(%softmax416, %cl377 : tensor<4x16x16xf32>, tensor<4x16x16xf32>) outs(%fill422 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %ex424 = tensor.expand_shape %bmm423 [[0, 1], [2], [3]] output_shape [2, 2, 16, 16] : tensor<4x16x16xf32> into tensor<2x2x16x16xf32>
    %e425 = tensor.empty() : tensor<16x2x2x16xf32>
    %tr426 = linalg.transpose ins(%ex424 : tensor<2x2x16x16xf32>) outs(%e425 : tensor<16x2x2x16xf32>) permutation = [2, 0, 1, 3]
    %cl427 = tensor.collapse_shape %tr426 [[0], [1], [2, 3]] : tensor<16x2x2x16xf32> into tensor<16x2x32xf32>
    %e428 = tensor.empty() : tensor<16x2x64xf32>
    %fill429 = linalg.fill ins(%cst1 : f32) outs(%e428 : tensor<16x2x64xf32>) -> tensor<16x2x64xf32>
    %lin430 = linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%cl427, %l1_w_o : tensor<16x2x32xf32>, tensor<32x64xf32>) outs(%fill429 : tensor<16x2x64xf32>) {
    ^bb0(%in431: f32, %in432: f32, %out433: f32):
      %t434 = arith.mulf %in431, %in432 : f32
      %t435 = arith.addf %out433, %t434 : f32
      linalg.yield %t435 : f32
    } -> tensor<16x2x64xf32>
    %ar436 = shard.all_reduce %lin430 on @grid grid_axes = [0] : tensor<16x2x64xf32> -> tensor<16x2x64xf32>
    %e437 = tensor.empty() : tensor<16x2x64xf32>
    %res438 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%res249, %ar436 : tensor<16x2x64xf32>, tensor<16x2x64xf32>) outs(%e437 : tensor<16x2x64xf32>) {
    ^bb0(%in439: f32, %in440: f32, %out441: f32):
      %t442 = arith.addf %in439, %in440 : f32
      linalg.yield %t442 : f32
    } -> tensor<16x2x64xf32>
    %e443 = tensor.empty() : tensor<16x2x1xf32>
    %fill444 = linalg.fill ins(%cst1 : f32) outs(%e443 : tensor<16x2x1xf32>) -> tensor<16x2x1xf32>
    %sqsum445 = linalg.generic {indexing_maps = [#map1, #map0], iterator_types = ["parallel", "parallel", "reduction"]} ins(%res438 : tensor<16x2x64xf32>) outs(%fill444 : tensor<16x2x1xf32>) {
    ^bb0(%in446: f32, %out447: f32):
      %t448 = arith.mulf %in446, %in446 : f32
      %t449 = arith.addf %out447, %t448 : f32
      linalg.yield %t449 : f32
    } -> tensor<16x2x1xf32>
    %e450 = tensor.empty() : tensor<16x2x64xf32>
    %rms451 = linalg.generic {indexing_maps = [#map1, #map0, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%res438, %sqsum445, %l1_mlp_norm_g : tensor<16x2x64xf32>, tensor<16x2x1xf32>, tensor<64xf32>) outs(%e450 : tensor<16x2x64xf32>) {
    ^bb0(%in452: f32, %in453: f32, %in454: f32, %out455: f32):
      %cst456 = arith.constant 1.562500000e-02 : f32
      %t457 = arith.mulf %in453, %cst456 : f32
      %cst458 = arith.constant 1.000000000e-05 : f32
      %t459 = arith.addf %t457, %cst458 : f32
      %t460 = math.rsqrt %t459 : f32
      %t461 = arith.mulf %in452, %t460 : f32
      %t462 = arith.mulf %t461, %in454 : f32
      linalg.yield %t462 : f32
    } -> tensor<16x2x64xf32>
    %e463 = tensor.empty() : tensor<16x2x128xf32>
    %fill464 = linalg.fill ins(%cst1 : f32) outs(%e463 : tensor<16x2x128xf32>) -> tensor<16x2x128xf32>
    %lin465 = linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%rms451, %l1_w_gate : tensor<16x2x64xf32>, tensor<64x128xf32>) outs(%fill464 : tensor<16x2x128xf32>) {
    ^bb0(%in466: f32, %in467: f32, %out468: f32):
      %t469 = arith.mulf %in466, %in467 : f32
      %t470 = arith.addf %out468, %t469 : f32
      linalg.yield %t470 : f32
    } -> tensor<16x2x128xf32>
    %e471 = tensor.empty() : tensor<16x2x128xf32>
    %fill472 = linalg.fill ins(%cst1 : f32) outs(%e471 : tensor<16x2x128xf32>) -> tensor<16x2x128xf32>
    %lin473 = linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%rms451, %l1_w_up : tensor<16x2x64xf32>, tensor<64x128xf32>) outs(%fill472 : tensor<16x2x128xf32>) {
    ^bb0(%in474: f32, %in475: f32, %out476: f32):
      %t477 = arith.mulf %in474, %in475 : f32
      %t478 = arith.addf %out476, %t477 : f32
      linalg.yield %t478 : f32
    } -> tensor<16x2x128xf32>
    %e479 = tensor.empty() : tensor<16x2x128xf32>
    %swiglu480 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%lin465, %lin473 : tensor<16x2x128xf32>, tensor<16x2x128xf32>) outs(%e479 : tensor<16x2x128xf32>) {
    ^bb0(%in481: f32, %in482: f32, %out483: f32):
      %t484 = arith.negf %in481 : f32
      %t485 = math.exp %t484 : f32
      %cst486 = arith.constant 1.000000000e+00 : f32
      %t487 = arith.addf %t485, %cst486 : f32
      %t488 = arith.divf %in481, %t487 : f32
      %t489 = arith.mulf %t488, %in482 : f32
      linalg.yield %t489 : f32
    } -> tensor<16x2x128xf32>
    %e490 = tensor.empty() : tensor<16x2x64xf32>
    %fill491 = linalg.fill ins(%cst1 : f32) outs(%e490 : tensor<16x2x64xf32>) -> tensor<16x2x64xf32>
    %lin492 = linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%swiglu480, %l1_w_down : tensor<16x2x128xf32>, tensor<128x64xf32>) outs(%fill491 : tensor<16x2x64xf32>) {
    ^bb0(%in493: f32, %in494: f32, %out495: f32):
      %t496 = arith.mulf %in493, %in494 : f32
      %t497 = arith.addf %out495, %t496 : f32
      linalg.yield %t497 : f32
    } -> tensor<16x2x64xf32>
    %ar498 = shard.all_reduce %lin492 on @grid grid_axes = [0] : tensor<16x2x64xf32> -> tensor<16x2x64xf32>
    %e499 = tensor.empty() : tensor<16x2x64xf32>
    %res500 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%res438, %ar498 : tensor<16x2x64xf32>, tensor<16x2x64xf32>) outs(%e499 : tensor<16x2x64xf32>) {
    ^bb0(%in501: f32, %in502: f32, %out503: f32):
      %t504 = arith.addf %in501, %in502 : f32
      linalg.yield %t504 : f32
    } -> tensor<16x2x64xf32>
    %e505 = tensor.empty() : tensor<16x2x1xf32>
    %fill506 = linalg.fill ins(%cst1 : f32) outs(%e505 : tensor<16x2x1xf32>) -> tensor<16x2x1xf32>
    %sqsum507 = linalg.generic {indexing_maps = [#map1, #map0], iterator_types = ["parallel", "parallel", "reduction"]} ins(%res500 : tensor<16x2x64xf32>) outs(%fill506 : tensor<16x2x1xf32>) {
    ^bb0(%in508: f32, %out509: f32):
      %t510 = arith.mulf %in508, %in508 : f32
      %t511 = arith.addf %out509, %t510 : f32
      linalg.yield %t511 : f32
    } -> tensor<16x2x1xf32>
    %e512 = tensor.empty() : tensor<16x2x64xf32>
    %rms513 = linalg.generic {indexing_maps = [#map1, #map0, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%res500, %sqsum507, %norm_g : tensor<16x2x64xf32>, tensor<16x2x1xf32>, tensor<64xf32>) outs(%e512 : tensor<16x2x64xf32>) {
    ^bb0(%in514: f32, %in515: f32, %in516: f32, %out517: f32):
      %cst518 = arith.constant 1.562500000e-02 : f32
      %t519 = arith.mulf %in515, %cst518 : f32
      %cst520 = arith.constant 1.000000000e-05 : f32
      %t521 = arith.addf %t519, %cst520 : f32
      %t522 = math.rsqrt %t521 : f32
      %t523 = arith.mulf %in514, %t522 : f32
      %t524 = arith.mulf %t523, %in516 : f32
      linalg.yield %t524 : f32
    } -> tensor<16x2x64xf32>
    return %rms513 : tensor<16x2x64xf32>
  }
}
