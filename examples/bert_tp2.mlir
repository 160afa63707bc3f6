// python3 bench/gen_tp_graph.py --model bert --layers 2 --batch 2 --seq 16 --hidden 64 --heads 4 --tp 2 -o examples/bert_tp2.mlir
// model=bert form=tp layers=2 b=2 s=16 h=64 a=4 a_kv=4 ffn=256 tp=2 dtype=f32 layout=bsh flatten=0 dropout=0
#map0 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d2)>
#map5 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
module {
  shard.grid @grid(shape = 2) {sym_visibility = "private"}
  func.func @forward(
      %x: tensor<2x16x64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>, seqpar.seq_dim = 1 : i64},
      %l0_w_q: tensor<64x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l0_b_q: tensor<32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l0_w_k: tensor<64x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l0_b_k: tensor<32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l0_w_v: tensor<64x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l0_b_v: tensor<32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l0_w_o: tensor<32x64xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l0_b_o: tensor<64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l0_ln1_g: tensor<64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l0_ln1_b: tensor<64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l0_w_fc1: tensor<64x128xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l0_b_fc1: tensor<128xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l0_w_fc2: tensor<128x64xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l0_b_fc2: tensor<64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l0_ln2_g: tensor<64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l0_ln2_b: tensor<64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l1_w_q: tensor<64x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l1_b_q: tensor<32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l1_w_k: tensor<64x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l1_b_k: tensor<32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l1_w_v: tensor<64x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l1_b_v: tensor<32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l1_w_o: tensor<32x64xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l1_b_o: tensor<64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l1_ln1_g: tensor<64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l1_ln1_b: tensor<64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l1_w_fc1: tensor<64x128xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l1_b_fc1: tensor<128xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l1_w_fc2: tensor<128x64xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l1_b_fc2: tensor<64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l1_ln2_g: tensor<64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l1_ln2_b: tensor<64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
      -> (tensor<2x16x64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
    %cst1 = arith.constant 0.000000000e+00 : f32
    %e2 = tensor.empty() : tensor<2x16x32xf32>
    %fill3 = linalg.fill ins(%cst1 : f32) outs(%e2 : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %lin4 = linalg.generic {indexing_maps = [#map0, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %l0_w_q : tensor<2x16x64xf32>, tensor<64x32xf32>) outs(%fill3 : tensor<2x16x32xf32>) {
    ^bb0(%in5: f32, %in6: f32, %out7: f32):
      %t8 = arith.mulf %in5, %in6 : f32
      %t9 = arith.addf %out7, %t8 : f32
      linalg.yield %t9 : f32
    } -> tensor<2x16x32xf32>
    %e10 = tensor.empty() : tensor<2x16x32xf32>
    %bias11 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%lin4, %l0_b_q : tensor<2x16x32xf32>, tensor<32xf32>) outs(%e10 : tensor<2x16x32xf32>) {
    ^bb0(%in12: f32, %in13: f32, %out14: f32):
      %t15 = arith.addf %in12, %in13 : f32
      linalg.yield %t15 : f32
    } -> tensor<2x16x32xf32>
    %e16 = tensor.empty() : tensor<2x16x32xf32>
    %fill17 = linalg.fill ins(%cst1 : f32) outs(%e16 : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %lin18 = linalg.generic {indexing_maps = [#map0, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %l0_w_k : tensor<2x16x64xf32>, tensor<64x32xf32>) outs(%fill17 : tensor<2x16x32xf32>) {
    ^bb0(%in19: f32, %in20: f32, %out21: f32):
      %t22 = arith.mulf %in19, %in20 : f32
      %t23 = arith.addf %out21, %t22 : f32
      linalg.yield %t23 : f32
    } -> tensor<2x16x32xf32>
    %e24 = tensor.empty() : tensor<2x16x32xf32>
    %bias25 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%lin18, %l0_b_k : tensor<2x16x32xf32>, tensor<32xf32>) outs(%e24 : tensor<2x16x32xf32>) {
    ^bb0(%in26: f32, %in27: f32, %out28: f32):
      %t29 = arith.addf %in26, %in27 : f32
      linalg.yield %t29 : f32
    } -> tensor<2x16x32xf32>
    %e30 = tensor.empty() : tensor<2x16x32xf32>
    %fill31 = linalg.fill ins(%cst1 : f32) outs(%e30 : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %lin32 = linalg.generic {indexing_maps = [#map0, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %l0_w_v : tensor<2x16x64xf32>, tensor<64x32xf32>) outs(%fill31 : tensor<2x16x32xf32>) {
    ^bb0(%in33: f32, %in34: f32, %out35: f32):
      %t36 = arith.mulf %in33, %in34 : f32
      %t37 = arith.addf %out35, %t36 : f32
      linalg.yield %t37 : f32
    } -> tensor<2x16x32xf32>
    %e38 = tensor.empty() : tensor<2x16x32xf32>
    %bias39 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%lin32, %l0_b_v : tensor<2x16x32xf32>, tensor<32xf32>) outs(%e38 : tensor<2x16x32xf32>) {
    ^bb0(%in40: f32, %in41: f32, %out42: f32):
      %t43 = arith.addf %in40, %in41 : f32
      linalg.yield %t43 : f32
    } -> tensor<2x16x32xf32>
    %ex44 = tensor.expand_shape %bias11 [[0], [1], [2, 3]] output_shape [2, 16, 2, 16] : tensor<2x16x32xf32> into tensor<2x16x2x16xf32>
    %e45 = tensor.empty() : tensor<2x2x16x16xf32>
    %tr46 = linalg.transpose ins(%ex44 : tensor<2x16x2x16xf32>) outs(%e45 : tensor<2x2x16x16xf32>) permutation = [0, 2, 1, 3]
    %ex47 = tensor.expand_shape %bias25 [[0], [1], [2, 3]] output_shape [2, 16, 2, 16] : tensor<2x16x32xf32> into tensor<2x16x2x16xf32>
    %e48 = tensor.empty() : tensor<2x2x16x16xf32>
    %tr49 = linalg.transpose ins(%ex47 : tensor<2x16x2x16xf32>) outs(%e48 : tensor<2x2x16x16xf32>) permutation = [0, 2, 3, 1]
    %ex50 = tensor.expand_shape %bias39 [[0], [1], [2, 3]] output_shape [2, 16, 2, 16] : tensor<2x16x32xf32> into tensor<2x16x2x16xf32>
    %e51 = tensor.empty() : tensor<2x2x16x16xf32>
    %tr52 = linalg.transpose ins(%ex50 : tensor<2x16x2x16xf32>) outs(%e51 : tensor<2x2x16x16xf32>) permutation = [0, 2, 1, 3]
    %cl53 = tensor.collapse_shape %tr46 [[0, 1], [2], [3]] : tensor<2x2x16x16xf32> into tensor<4x16x16xf32>
    %cl54 = tensor.collapse_shape %tr49 [[0, 1], [2], [3]] : tensor<2x2x16x16xf32> into tensor<4x16x16xf32>
    %cl55 = tensor.collapse_shape %tr52 [[0, 1], [2], [3]] : tensor<2x2x16x16xf32> into tensor<4x16x16xf32>
    %e56 = tensor.empty() : tensor<4x16x16xf32>
    %fill57 = linalg.fill ins(%cst1 : f32) outs(%e56 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %bmm58 = linalg.batch_matmul ins(%cl53, %cl54 : tensor<4x16x16xf32>, tensor<4x16x16xf32>) outs(%fill57 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %e59 = tensor.empty() : tensor<4x16x16xf32>
    %scale60 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bmm58 : tensor<4x16x16xf32>) outs(%e59 : tensor<4x16x16xf32>) {
    ^bb0(%in61: f32, %out62: f32):
      %cst63 = arith.constant 2.500000000e-01 : f32
      %t64 = arith.mulf %in61, %cst63 : f32
      linalg.yield %t64 : f32
    } -> tensor<4x16x16xf32>
    %cst65 = arith.constant 0xFF800000 : f32
    %e66 = tensor.empty() : tensor<4x16x1xf32>
    %fill67 = linalg.fill ins(%cst65 : f32) outs(%e66 : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    %max68 = linalg.generic {indexing_maps = [#map3, #map5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%scale60 : tensor<4x16x16xf32>) outs(%fill67 : tensor<4x16x1xf32>) {
    ^bb0(%in69: f32, %out70: f32):
      %t71 = arith.maximumf %out70, %in69 : f32
      linalg.yield %t71 : f32
    } -> tensor<4x16x1xf32>
    %e72 = tensor.empty() : tensor<4x16x16xf32>
    %exp73 = linalg.generic {indexing_maps = [#map3, #map5, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%scale60, %max68 : tensor<4x16x16xf32>, tensor<4x16x1xf32>) outs(%e72 : tensor<4x16x16xf32>) {
    ^bb0(%in74: f32, %in75: f32, %out76: f32):
      %t77 = arith.subf %in74, %in75 : f32
      %t78 = math.exp %t77 : f32
      linalg.yield %t78 : f32
    } -> tensor<4x16x16xf32>
    %e79 = tensor.empty() : tensor<4x16x1xf32>
    %fill80 = linalg.fill ins(%cst1 : f32) outs(%e79 : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    %sum81 = linalg.generic {indexing_maps = [#map3, #map5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%exp73 : tensor<4x16x16xf32>) outs(%fill80 : tensor<4x16x1xf32>) {
    ^bb0(%in82: f32, %out83: f32):
      %t84 = arith.addf %out83, %in82 : f32
      linalg.yield %t84 : f32
    } -> tensor<4x16x1xf32>
    %e85 = tensor.empty() : tensor<4x16x16xf32>
    %softmax86 = linalg.generic {indexing_maps = [#map3, #map5, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%exp73, %sum81 : tensor<4x16x16xf32>, tensor<4x16x1xf32>) outs(%e85 : tensor<4x16x16xf32>) {
    ^bb0(%in87: f32, %in88: f32, %out89: f32):
      %t90 = arith.divf %in87, %in88 : f32
      linalg.yield %t90 : f32
    } -> tensor<4x16x16xf32>
    %e91 = tensor.empty() : tensor<4x16x16xf32>
    %fill92 = linalg.fill ins(%cst1 : f32) outs(%e91 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %bmm93 = linalg.batch_matmul ins(%softmax86, %cl55 : tensor<4x16x16xf32>, tensor<4x16x16xf32>) outs(%fill92 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %ex94 = tensor.expand_shape %bmm93 [[0, 1], [2], [3]] output_shape [2, 2, 16, 16] : tensor<4x16x16xf32> into tensor<2x2x16x16xf32>
    %e95 = tensor.empty() : tensor<2x16x2x16xf32>
    %tr96 = linalg.transpose ins(%ex94 : tensor<2x2x16x16xf32>) outs(%e95 : tensor<2x16x2x16xf32>) permutation = [0, 2, 1, 3]
    %cl97 = tensor.collapse_shape %tr96 [[0], [1], [2, 3]] : tensor<2x16x2x16xf32> into tensor<2x16x32xf32>
    %e98 = tensor.empty() : tensor<2x16x64xf32>
    %fill99 = linalg.fill ins(%cst1 : f32) outs(%e98 : tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %lin100 = linalg.generic {indexing_maps = [#map0, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%cl97, %l0_w_o : tensor<2x16x32xf32>, tensor<32x64xf32>) outs(%fill99 : tensor<2x16x64xf32>) {
    ^bb0(%in101: f32, %in102: f32, %out103: f32):
      %t104 = arith.mulf %in101, %in102 : f32
      %t105 = arith.addf %out103, %t104 : f32
      linalg.yield %t105 : f32
    } -> tensor<2x16x64xf32>
    %ar106 = shard.all_reduce %lin100 on @grid grid_axes = [0] : tensor<2x16x64xf32> -> tensor<2x16x64xf32>
    %e107 = tensor.empty() : tensor<2x16x64xf32>
    %bias108 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ar106, %l0_b_o : tensor<2x16x64xf32>, tensor<64xf32>) outs(%e107 : tensor<2x16x64xf32>) {
    ^bb0(%in109: f32, %in110: f32, %out111: f32):
      %t112 = arith.addf %in109, %in110 : f32
      linalg.yield %t112 : f32
    } -> tensor<2x16x64xf32>
    %e113 = tensor.empty() : tensor<2x16x64xf32>
    %res114 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %bias108 : tensor<2x16x64xf32>, tensor<2x16x64xf32>) outs(%e113 : tensor<2x16x64xf32>) {
    ^bb0(%in115: f32, %in116: f32, %out117: f32):
      %t118 = arith.addf %in115, %in116 : f32
      linalg.yield %t118 : f32
    } -> tensor<2x16x64xf32>
    %e119 = tensor.empty() : tensor<2x16x1xf32>
    %fill120 = linalg.fill ins(%cst1 : f32) outs(%e119 : tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %sum121 = linalg.generic {indexing_maps = [#map3, #map5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%res114 : tensor<2x16x64xf32>) outs(%fill120 : tensor<2x16x1xf32>) {
    ^bb0(%in122: f32, %out123: f32):
      %t124 = arith.addf %out123, %in122 : f32
      linalg.yield %t124 : f32
    } -> tensor<2x16x1xf32>
    %e125 = tensor.empty() : tensor<2x16x1xf32>
    %mean126 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sum121 : tensor<2x16x1xf32>) outs(%e125 : tensor<2x16x1xf32>) {
    ^bb0(%in127: f32, %out128: f32):
      %cst129 = arith.constant 1.562500000e-02 : f32
      %t130 = arith.mulf %in127, %cst129 : f32
      linalg.yield %t130 : f32
    } -> tensor<2x16x1xf32>
    %e131 = tensor.empty() : tensor<2x16x1xf32>
    %fill132 = linalg.fill ins(%cst1 : f32) outs(%e131 : tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %sqsum133 = linalg.generic {indexing_maps = [#map3, #map5, #map5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%res114, %mean126 : tensor<2x16x64xf32>, tensor<2x16x1xf32>) outs(%fill132 : tensor<2x16x1xf32>) {
    ^bb0(%in134: f32, %in135: f32, %out136: f32):
      %t137 = arith.subf %in134, %in135 : f32
      %t138 = arith.mulf %t137, %t137 : f32
      %t139 = arith.addf %out136, %t138 : f32
      linalg.yield %t139 : f32
    } -> tensor<2x16x1xf32>
    %e140 = tensor.empty() : tensor<2x16x64xf32>
    %ln141 = linalg.generic {indexing_maps = [#map3, #map5, #map5, #map4, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%res114, %mean126, %sqsum133, %l0_ln1_g, %l0_ln1_b : tensor<2x16x64xf32>, tensor<2x16x1xf32>, tensor<2x16x1xf32>, tensor<64xf32>, tensor<64xf32>) outs(%e140 : tensor<2x16x64xf32>) {
    ^bb0(%in142: f32, %in143: f32, %in144: f32, %in145: f32, %in146: f32, %out147: f32):
      %cst148 = arith.constant 1.562500000e-02 : f32
      %t149 = arith.mulf %in144, %cst148 : f32
      %cst150 = arith.constant 1.000000000e-05 : f32
      %t151 = arith.addf %t149, %cst150 : f32
      %t152 = math.rsqrt %t151 : f32
      %t153 = arith.subf %in142, %in143 : f32
      %t154 = arith.mulf %t153, %t152 : f32
      %t155 = arith.mulf %t154, %in145 : f32
      %t156 = arith.addf %t155, %in146 : f32
      linalg.yield %t156 : f32
    } -> tensor<2x16x64xf32>
    %e157 = tensor.empty() : tensor<2x16x128xf32>
    %fill158 = linalg.fill ins(%cst1 : f32) outs(%e157 : tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %lin159 = linalg.generic {indexing_maps = [#map0, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ln141, %l0_w_fc1 : tensor<2x16x64xf32>, tensor<64x128xf32>) outs(%fill158 : tensor<2x16x128xf32>) {
    ^bb0(%in160: f32, %in161: f32, %out162: f32):
      %t163 = arith.mulf %in160, %in161 : f32
      %t164 = arith.addf %out162, %t163 : f32
      linalg.yield %t164 : f32
    } -> tensor<2x16x128xf32>
    %e165 = tensor.empty() : tensor<2x16x128xf32>
    %bias166 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%lin159, %l0_b_fc1 : tensor<2x16x128xf32>, tensor<128xf32>) outs(%e165 : tensor<2x16x128xf32>) {
    ^bb0(%in167: f32, %in168: f32, %out169: f32):
      %t170 = arith.addf %in167, %in168 : f32
      linalg.yield %t170 : f32
    } -> tensor<2x16x128xf32>
    %e171 = tensor.empty() : tensor<2x16x128xf32>
    %gelu172 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bias166 : tensor<2x16x128xf32>) outs(%e171 : tensor<2x16x128xf32>) {
    ^bb0(%in173: f32, %out174: f32):
      %t175 = arith.mulf %in173, %in173 : f32
      %t176 = arith.mulf %t175, %in173 : f32
      %cst177 = arith.constant 4.471500000e-02 : f32
      %t178 = arith.mulf %t176, %cst177 : f32
      %t179 = arith.addf %in173, %t178 : f32
      %cst180 = arith.constant 7.978845608e-01 : f32
      %t181 = arith.mulf %t179, %cst180 : f32
      %t182 = math.tanh %t181 : f32
      %cst183 = arith.constant 5.000000000e-01 : f32
      %t184 = arith.mulf %in173, %cst183 : f32
      %cst185 = arith.constant 1.000000000e+00 : f32
      %t186 = arith.addf %t182, %cst185 : f32
      %t187 = arith.mulf %t184, %t186 : f32
      linalg.yield %t187 : f32
    } -> tensor<2x16x128xf32>
    %e188 = tensor.empty() : tensor<2x16x64xf32>
    %fill189 = linalg.fill ins(%cst1 : f32) outs(%e188 : tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %lin190 = linalg.generic {indexing_maps = [#map0, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%gelu172, %l0_w_fc2 : tensor<2x16x128xf32>, tensor<128x64xf32>) outs(%fill189 : tensor<2x16x64xf32>) {
    ^bb0(%in191: f32, %in192: f32, %out193: f32):
      %t194 = arith.mulf %in191, %in192 : f32
      %t195 = arith.addf %out193, %t194 : f32
      linalg.yield %t195 : f32
    } -> tensor<2x16x64xf32>
    %ar196 = shard.all_reduce %lin190 on @grid grid_axes = [0] : tensor<2x16x64xf32> -> tensor<2x16x64xf32>
    %e197 = tensor.empty() : tensor<2x16x64xf32>
    %bias198 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ar196, %l0_b_fc2 : tensor<2x16x64xf32>, tensor<64xf32>) outs(%e197 : tensor<2x16x64xf32>) {
    ^bb0(%in199: f32, %in200: f32, %out201: f32):
      %t202 = arith.addf %in199, %in200 : f32
      linalg.yield %t202 : f32
    } -> tensor<2x16x64xf32>
    %e203 = tensor.empty() : tensor<2x16x64xf32>
    %res204 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ln141, %bias198 : tensor<2x16x64xf32>, tensor<2x16x64xf32>) outs(%e203 : tensor<2x16x64xf32>) {
    ^bb0(%in205: f32, %in206: f32, %out207: f32):
      %t208 = arith.addf %in205, %in206 : f32
      linalg.yield %t208 : f32
    } -> tensor<2x16x64xf32>
    %e209 = tensor.empty() : tensor<2x16x1xf32>
    %fill210 = linalg.fill ins(%cst1 : f32) outs(%e209 : tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %sum211 = linalg.generic {indexing_maps = [#map3, #map5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%res204 : tensor<2x16x64xf32>) outs(%fill210 : tensor<2x16x1xf32>) {
    ^bb0(%in212: f32, %out213: f32):
      %t214 = arith.addf %out213, %in212 : f32
      linalg.yield %t214 : f32
    } -> tensor<2x16x1xf32>
    %e215 = tensor.empty() : tensor<2x16x1xf32>
    %mean216 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sum211 : tensor<2x16x1xf32>) outs(%e215 : tensor<2x16x1xf32>) {
    ^bb0(%in217: f32, %out218: f32):
      %cst219 = arith.constant 1.562500000e-02 : f32
      %t220 = arith.mulf %in217, %cst219 : f32
      linalg.yield %t220 : f32
    } -> tensor<2x16x1xf32>
    %e221 = tensor.empty() : tensor<2x16x1xf32>
    %fill222 = linalg.fill ins(%cst1 : f32) outs(%e221 : tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %sqsum223 = linalg.generic {indexing_maps = [#map3, #map5, #map5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%res204, %mean216 : tensor<2x16x64xf32>, tensor<2x16x1xf32>) outs(%fill222 : tensor<2x16x1xf32>) {
    ^bb0(%in224: f32, %in225: f32, %out226: f32):
      %t227 = arith.subf %in224, %in225 : f32
      %t228 = arith.mulf %t227, %t227 : f32
      %t229 = arith.addf %out226, %t228 : f32
      linalg.yield %t229 : f32
    } -> tensor<2x16x1xf32>
    %e230 = tensor.empty() : tensor<2x16x64xf32>
    %ln231 = linalg.generic {indexing_maps = [#map3, #map5, #map5, #map4, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%res204, %mean216, %sqsum223, %l0_ln2_g, %l0_ln2_b : tensor<2x16x64xf32>, tensor<2x16x1xf32>, tensor<2x16x1xf32>, tensor<64xf32>, tensor<64xf32>) outs(%e230 : tensor<2x16x64xf32>) {
    ^bb0(%in232: f32, %in233: f32, %in234: f32, %in235: f32, %in236: f32, %out237: f32):
      %cst238 = arith.constant 1.562500000e-02 : f32
      %t239 = arith.mulf %in234, %cst238 : f32
      %cst240 = arith.constant 1.000000000e-05 : f32
      %t241 = arith.addf %t239, %cst240 : f32
      %t242 = math.rsqrt %t241 : f32
      %t243 = arith.subf %in232, %in233 : f32
      %t244 = arith.mulf %t243, %t242 : f32
      %t245 = arith.mulf %t244, %in235 : f32
      %t246 = arith.addf %t245, %in236 : f32
      linalg.yield %t246 : f32
    } -> tensor<2x16x64xf32>
    %e247 = tensor.empty() : tensor<2x16x32xf32>
    %fill248 = linalg.fill ins(%cst1 : f32) outs(%e247 : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %lin249 = linalg.generic {indexing_maps = [#map0, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ln231, %l1_w_q : tensor<2x16x64xf32>, tensor<64x32xf32>) outs(%fill248 : tensor<2x16x32xf32>) {
    ^bb0(%in250: f32, %in251: f32, %out252: f32):
      %t253 = arith.mulf %in250, %in251 : f32
      %t254 = arith.addf %out252, %t253 : f32
      linalg.yield %t254 : f32
    } -> tensor<2x16x32xf32>
    %e255 = tensor.empty() : tensor<2x16x32xf32>
    %bias256 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%lin249, %l1_b_q : tensor<2x16x32xf32>, tensor<32xf32>) outs(%e255 : tensor<2x16x32xf32>) {
    ^bb0(%in257: f32, %in258: f32, %out259: f32):
      %t260 = arith.addf %in257, %in258 : f32
      linalg.yield %t260 : f32
    } -> tensor<2x16x32xf32>
    %e261 = tensor.empty() : tensor<2x16x32xf32>
    %fill262 = linalg.fill ins(%cst1 : f32) outs(%e261 : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %lin263 = linalg.generic {indexing_maps = [#map0, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ln231, %l1_w_k : tensor<2x16x64xf32>, tensor<64x32xf32>) outs(%fill262 : tensor<2x16x32xf32>) {
    ^bb0(%in264: f32, %in265: f32, %out266: f32):
      %t267 = arith.mulf %in264, %in265 : f32
      %t268 = arith.addf %out266, %t267 : f32
      linalg.yield %t268 : f32
    } -> tensor<2x16x32xf32>
    %e269 = tensor.empty() : tensor<2x16x32xf32>
    %bias270 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%lin263, %l1_b_k : tensor<2x16x32xf32>, tensor<32xf32>) outs(%e269 : tensor<2x16x32xf32>) {
    ^bb0(%in271: f32, %in272: f32, %out273: f32):
      %t274 = arith.addf %in271, %in272 : f32
      linalg.yield %t274 : f32
    } -> tensor<2x16x32xf32>
    %e275 = tensor.empty() : tensor<2x16x32xf32>
    %fill276 = linalg.fill ins(%cst1 : f32) outs(%e275 : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %lin277 = linalg.generic {indexing_maps = [#map0, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ln231, %l1_w_v : tensor<2x16x64xf32>, tensor<64x32xf32>) outs(%fill276 : tensor<2x16x32xf32>) {
    ^bb0(%in278: f32, %in279: f32, %out280: f32):
      %t281 = arith.mulf %in278, %in279 : f32
      %t282 = arith.addf %out280, %t281 : f32
      linalg.yield %t282 : f32
    } -> tensor<2x16x32xf32>
    %e283 = tensor.empty() : tensor<2x16x32xf32>
    %bias284 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%lin277, %l1_b_v : tensor<2x16x32xf32>, tensor<32xf32>) outs(%e283 : tensor<2x16x32xf32>) {
    ^bb0(%in285: f32, %in286: f32, %out287: f32):
      %t288 = arith.addf %in285, %in286 : f32
      linalg.yield %t288 : f32
    } -> tensor<2x16x32xf32>
    %ex289 = tensor.expand_shape %bias256 [[0], [1], [2, 3]] output_shape [2, 16, 2, 16] : tensor<2x16x32xf32> into tensor<2x16x2x16xf32>
    %e290 = tensor.empty() : tensor<2x2x16x16xf32>
    %tr291 = linalg.transpose ins(%ex289 : tensor<2x16x2x16xf32>) outs(%e290 : tensor<2x2x16x16xf32>) permutation = [0, 2, 1, 3]
    %ex292 = tensor.expand_shape %bias270 [[0], [1], [2, 3]] output_shape [2, 16, 2, 16] : tensor<2x16x32xf32> into tensor<2x16x2x16xf32>
    %e293 = tensor.empty() : tensor<2x2x16x16xf32>
    %tr294 = linalg.transpose ins(%ex292 : tensor<2x16x2x16xf32>) outs(%e293 : tensor<2x2x16x16xf32>) permutation = [0, 2, 3, 1]
    %ex295 = tensor.expand_shape %bias284 [[0], [1], [2, 3]] output_shape [2, 16, 2, 16] : tensor<2x16x32xf32> into tensor<2x16x2x16xf32>
    %e296 = tensor.empty() : tensor<2x2x16x16xf32>
    %tr297 = linalg.transpose ins(%ex295 : tensor<2x16x2x16xf32>) outs(%e296 : tensor<2x2x16x16xf32>) permutation = [0, 2, 1, 3]
    %cl298 = tensor.collapse_shape %tr291 [[0, 1], [2], [3]] : tensor<2x2x16x16xf32> into tensor<4x16x16xf32>
    %cl299 = tensor.collapse_shape %tr294 [[0, 1], [2], [3]] : tensor<2x2x16x16xf32> into tensor<4x16x16xf32>
    %cl300 = tensor.collapse_shape %tr297 [[0, 1], [2], [3]] : tensor<2x2x16x16xf32> into tensor<4x16x16xf32>
    %e301 = tensor.empty() : tensor<4x16x16xf32>
    %fill302 = linalg.fill ins(%cst1 : f32) outs(%e301 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %bmm303 = linalg.batch_matmul ins(%cl298, %cl299 : tensor<4x16x16xf32>, tensor<4x16x16xf32>) outs(%fill302 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %e304 = tensor.empty() : tensor<4x16x16xf32>
    %scale305 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bmm303 : tensor<4x16x16xf32>) outs(%e304 : tensor<4x16x16xf32>) {
    ^bb0(%in306: f32, %out307: f32):
      %cst308 = arith.constant 2.500000000e-01 : f32
      %t309 = arith.mulf %in306, %cst308 : f32
      linalg.yield %t309 : f32
    } -> tensor<4x16x16xf32>
    %e310 = tensor.empty() : tensor<4x16x1xf32>
    %fill311 = linalg.fill ins(%cst65 : f32) outs(%e310 : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    %max312 = linalg.generic {indexing_maps = [#map3, #map5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%scale305 : tensor<4x16x16xf32>) outs(%fill311 : tensor<4x16x1xf32>) {
    ^bb0(%in313: f32, %out314: f32):
      %t315 = arith.maximumf %out314, %in313 : f32
      linalg.yield %t315 : f32
    } -> tensor<4x16x1xf32>
    %e316 = tensor.empty() : tensor<4x16x16xf32>
    %exp317 = linalg.generic {indexing_maps = [#map3, #map5, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%scale305, %max312 : tensor<4x16x16xf32>, tensor<4x16x1xf32>) outs(%e316 : tensor<4x16x16xf32>) {
    ^bb0(%in318: f32, %in319: f32, %out320: f32):
      %t321 = arith.subf %in318, %in319 : f32
      %t322 = math.exp %t321 : f32
      linalg.yield %t322 : f32
    } -> tensor<4x16x16xf32>
    %e323 = tensor.empty() : tensor<4x16x1xf32>
    %fill324 = linalg.fill ins(%cst1 : f32) outs(%e323 : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    %sum325 = linalg.generic {indexing_maps = [#map3, #map5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%exp317 : tensor<4x16x16xf32>) outs(%fill324 : tensor<4x16x1xf32>) {
    ^bb0(%in326: f32, %out327: f32):
      %t328 = arith.addf %out327, %in326 : f32
      linalg.yield %t328 : f32
    } -> tensor<4x16x1xf32>
    %e329 = tensor.empty() : tensor<4x16x16xf32>
    %softmax330 = linalg.generic {indexing_maps = [#map3, #map5, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%exp317, %sum325 : tensor<4x16x16xf32>, tensor<4x16x1xf32>) outs(%e329 : tensor<4x16x16xf32>) {
    ^bb0(%in331: f32, %in332: f32, %out333: f32):
      %t334 = arith.divf %in331, %in332 : f32
      linalg.yield %t334 : f32
    } -> tensor<4x16x16xf32>
    %e335 = tensor.empty() : tensor<4x16x16xf32>
    %fill336 = linalg.fill ins(%cst1 : f32) outs(%e335 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %bmm337 = linalg.batch_matmul ins(%softmax330, %cl300 : tensor<4x16x16xf32>, tensor<4x16x16xf32>) outs(%fill336 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %ex338 = tensor.expand_shape %bmm337 [[0, 1], [2], [3]] output_shape [2, 2, 16, 16] : tensor<4x16x16xf32> into tensor<2x2x16x16xf32>
    %e339 = tensor.empty() : tensor<2x16x2x16xf32>
    %tr340 = linalg.transpose ins(%ex338 : tensor<2x2x16x16xf32>) outs(%e339 : tensor<2x16x2x16xf32>) permutation = [0, 2, 1, 3]
    %cl341 = tensor.collapse_shape %tr340 [[0], [1], [2, 3]] : tensor<2x16x2x16xf32> into tensor<2x16x32xf32>
    %e342 = tensor.empty() : tensor<2x16x64xf32>
    %fill343 = linalg.fill ins(%cst1 : f32) outs(%e342 : tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %lin344 = linalg.generic {indexing_maps = [#map0, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%cl341, %l1_w_o : tensor<2x16x32xf32>, tensor<32x64xf32>) outs(%fill343 : tensor<2x16x64xf32>) {
    ^bb0(%in345: f32, %in346: f32, %out347: f32):
      %t348 = arith.mulf %in345, %in346 : f32
      %t349 = arith.addf %out347, %t348 : f32
      linalg.yield %t349 : f32
    } -> tensor<2x16x64xf32>
    %ar350 = shard.all_reduce %lin344 on @grid grid_axes = [0] : tensor<2x16x64xf32> -> tensor<2x16x64xf32>
    %e351 = tensor.empty() : tensor<2x16x64xf32>
    %bias352 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ar350, %l1_b_o : tensor<2x16x64xf32>, tensor<64xf32>) outs(%e351 : tensor<2x16x64xf32>) {
    ^bb0(%in353: f32, %in354: f32, %out355: f32):
      %t356 = arith.addf %in353, %in354 : f32
      linalg.yield %t356 : f32
    } -> tensor<2x16x64xf32>
    %e357 = tensor.empty() : tensor<2x16x64xf32>
    %res358 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ln231, %bias352 : tensor<2x16x64xf32>, tensor<2x16x64xf32>) outs(%e357 : tensor<2x16x64xf32>) {
    ^bb0(%in359: f32, %in360: f32, %out361: f32):
      %t362 = arith.addf %in359, %in360 : f32
      linalg.yield %t362 : f32
    } -> tensor<2x16x64xf32>
    %e363 = tensor.empty() : tensor<2x16x1xf32>
    %fill364 = linalg.fill ins(%cst1 : f32) outs(%e363 : tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %sum365 = linalg.generic {indexing_maps = [#map3, #map5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%res358 : tensor<2x16x64xf32>) outs(%fill364 : tensor<2x16x1xf32>) {
    ^bb0(%in366: f32, %out367: f32):
      %t368 = arith.addf %out367, %in366 : f32
      linalg.yield %t368 : f32
    } -> tensor<2x16x1xf32>
    %e369 = tensor.empty() : tensor<2x16x1xf32>
    %mean370 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sum365 : tensor<2x16x1xf32>) outs(%e369 : tensor<2x16x1xf32>) {
    ^bb0(%in371: f32, %out372: f32):
      %cst373 = arith.constant 1.562500000e-02 : f32
      %t374 = arith.mulf %in371, %cst373 : f32
      linalg.yield %t374 : f32
    } -> tensor<2x16x1xf32>
    %e375 = tensor.empty() : tensor<2x16x1xf32>
    %fill376 = linalg.fill ins(%cst1 : f32) outs(%e375 : tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %sqsum377 = linalg.generic {indexing_maps = [#map3, #map5, #map5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%res358, %mean370 : tensor<2x16x64xf32>, tensor<2x16x1xf32>) outs(%fill376 : tensor<2x16x1xf32>) {
    ^bb0(%in378: f32, %in379: f32, %out380: f32):
      %t381 = arith.subf %in378, %in379 : f32
      %t382 = arith.mulf %t381, %t381 : f32
      %t383 = arith.addf %out380, %t382 : f32
      linalg.yield %t383 : f32
    } -> tensor<2x16x1xf32>
    %e384 = tensor.empty() : tensor<2x16x64xf32>
    %ln385 = linalg.generic {indexing_maps = [#map3, #map5, #map5, #map4, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%res358, %mean370, %sqsum377, %l1_ln1_g, %l1_ln1_b : tensor<2x16x64xf32>, tensor<2x16x1xf32>, tensor<2x16x1xf32>, tensor<64xf32>, tensor<64xf32>) outs(%e384 : tensor<2x16x64xf32>) {
    ^bb0(%in386: f32, %in387: f32, %in388: f32, %in389: f32, %in390: f32, %out391: f32):
      %cst392 = arith.constant 1.562500000e-02 : f32
      %t393 = arith.mulf %in388, %cst392 : f32
      %cst394 = arith.constant 1.000000000e-05 : f32
      %t395 = arith.addf %t393, %cst394 : f32
      %t396 = math.rsqrt %t395 : f32
      %t397 = arith.subf %in386, %in387 : f32
      %t398 = arith.mulf %t397, %t396 : f32
      %t399 = arith.mulf %t398, %in389 : f32
      %t400 = arith.addf %t399, %in390 : f32
      linalg.yield %t400 : f32
    } -> tensor<2x16x64xf32>
    %e401 = tensor.empty() : tensor<2x16x128xf32>
    %fill402 = linalg.fill ins(%cst1 : f32) outs(%e401 : tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %lin403 = linalg.generic {indexing_maps = [#map0, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ln385, %l1_w_fc1 : tensor<2x16x64xf32>, tensor<64x128xf32>) outs(%fill402 : tensor<2x16x128xf32>) {
    ^bb0(%in404: f32, %in405: f32, %out406: f32):
      %t407 = arith.mulf %in404, %in405 : f32
      %t408 = arith.addf %out406, %t407 : f32
      linalg.yield %t408 : f32
    } -> tensor<2x16x128xf32>
    %e409 = tensor.empty() : tensor<2x16x128xf32>
    %bias410 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%lin403, %l1_b_fc1 : tensor<2x16x128xf32>, tensor<128xf32>) outs(%e409 : tensor<2x16x128xf32>) {
    ^bb0(%in411: f32, %in412: f32, %out413: f32):
      %t414 = arith.addf %in411, %in412 : f32
      linalg.yield %t414 : f32
    } -> tensor<2x16x128xf32>
    %e415 = tensor.empty() : tensor<2x16x128xf32>
    %gelu416 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bias410 : tensor<2x16x128xf32>) outs(%e415 : tensor<2x16x128xf32>) {
    ^bb0(%in417: f32, %out418: f32):
      %t419 = arith.mulf %in417, %in417 : f32
      %t420 = arith.mulf %t419, %in417 : f32
      %cst421 = arith.constant 4.471500000e-02 : f32
      %t422 = arith.mulf %t420, %cst421 : f32
      %t423 = arith.addf %in417, %t422 : f32
      %cst424 = arith.constant 7.978845608e-01 : f32
      %t425 = arith.mulf %t423, %cst424 : f32
      %t426 = math.tanh %t425 : f32
      %cst427 = arith.constant 5.000000000e-01 : f32
      %t428 = arith.mulf %in417, %cst427 : f32
      %cst429 = arith.constant 1.000000000e+00 : f32
      %t430 = arith.addf %t426, %cst429 : f32
      %t431 = arith.mulf %t428, %t430 : f32
      linalg.yield %t431 : f32
    } -> tensor<2x16x128xf32>
    %e432 = tensor.empty() : tensor<2x16x64xf32>
    %fill433 = linalg.fill ins(%cst1 : f32) outs(%e432 : tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %lin434 = linalg.generic {indexing_maps = [#map0, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%gelu416, %l1_w_fc2 : tensor<2x16x128xf32>, tensor<128x64xf32>) outs(%fill433 : tensor<2x16x64xf32>) {
    ^bb0(%in435: f32, %in436: f32, %out437: f32):
      %t438 = arith.mulf %in435, %in436 : f32
      %t439 = arith.addf %out437, %t438 : f32
      linalg.yield %t439 : f32
    } -> tensor<2x16x64xf32>
    %ar440 = shard.all_reduce %lin434 on @grid grid_axes = [0] : tensor<2x16x64xf32> -> tensor<2x16x64xf32>
    %e441 = tensor.empty() : tensor<2x16x64xf32>
    %bias442 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ar440, %l1_b_fc2 : tensor<2x16x64xf32>, tensor<64xf32>) outs(%e441 : tensor<2x16x64xf32>) {
    ^bb0(%in443: f32, %in444: f32, %out445: f32):
      %t446 = arith.addf %in443, %in444 : f32
      linalg.yield %t446 : f32
    } -> tensor<2x16x64xf32>
    %e447 = tensor.empty() : tensor<2x16x64xf32>
    %res448 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ln385, %bias442 : tensor<2x16x64xf32>, tensor<2x16x64xf32>) outs(%e447 : tensor<2x16x64xf32>) {
    ^bb0(%in449: f32, %in450: f32, %out451: f32):
      %t452 = arith.addf %in449, %in450 : f32
      linalg.yield %t452 : f32
    } -> tensor<2x16x64xf32>
    %e453 = tensor.empty() : tensor<2x16x1xf32>
    %fill454 = linalg.fill ins(%cst1 : f32) outs(%e453 : tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %sum455 = linalg.generic {indexing_maps = [#map3, #map5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%res448 : tensor<2x16x64xf32>) outs(%fill454 : tensor<2x16x1xf32>) {
    ^bb0(%in456: f32, %out457: f32):
      %t458 = arith.addf %out457, %in456 : f32
      linalg.yield %t458 : f32
    } -> tensor<2x16x1xf32>
    %e459 = tensor.empty() : tensor<2x16x1xf32>
    %mean460 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sum455 : tensor<2x16x1xf32>) outs(%e459 : tensor<2x16x1xf32>) {
    ^bb0(%in461: f32, %out462: f32):
      %cst463 = arith.constant 1.562500000e-02 : f32
      %t464 = arith.mulf %in461, %cst463 : f32
      linalg.yield %t464 : f32
    } -> tensor<2x16x1xf32>
    %e465 = tensor.empty() : tensor<2x16x1xf32>
    %fill466 = linalg.fill ins(%cst1 : f32) outs(%e465 : tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %sqsum467 = linalg.generic {indexing_maps = [#map3, #map5, #map5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%res448, %mean460 : tensor<2x16x64xf32>, tensor<2x16x1xf32>) outs(%fill466 : tensor<2x16x1xf32>) {
    ^bb0(%in468: f32, %in469: f32, %out470: f32):
      %t471 = arith.subf %in468, %in469 : f32
      %t472 = arith.mulf %t471, %t471 : f32
      %t473 = arith.addf %out470, %t472 : f32
      linalg.yield %t473 : f32
    } -> tensor<2x16x1xf32>
    %e474 = tensor.empty() : tensor<2x16x64xf32>
    %ln475 = linalg.generic {indexing_maps = [#map3, #map5, #map5, #map4, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%res448, %mean460, %sqsum467, %l1_ln2_g, %l1_ln2_b : tensor<2x16x64xf32>, tensor<2x16x1xf32>, tensor<2x16x1xf32>, tensor<64xf32>, tensor<64xf32>) outs(%e474 : tensor<2x16x64xf32>) {
    ^bb0(%in476: f32, %in477: f32, %in478: f32, %in479: f32, %in480: f32, %out481: f32):
      %cst482 = arith.constant 1.562500000e-02 : f32
      %t483 = arith.mulf %in478, %cst482 : f32
      %cst484 = arith.constant 1.000000000e-05 : f32
      %t485 = arith.addf %t483, %cst484 : f32
      %t486 = math.rsqrt %t485 : f32
      %t487 = arith.subf %in476, %in477 : f32
      %t488 = arith.mulf %t487, %t486 : f32
      %t489 = arith.mulf %t488, %in479 : f32
      %t490 = arith.addf %t489, %in480 : f32
      linalg.yield %t490 : f32
    } -> tensor<2x16x64xf32>
    return %ln475 : tensor<2x16x64xf32>
  }
}
