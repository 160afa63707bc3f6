// A GPT layer (bench/gen_tp_graph.py --model gpt --layers 1 --batch 1 --seq 32
// --hidden 64 --heads 8 --form plain --tp 1) with a profiler's instrumentation
// written into it by hand, as frontends that time layers emit: an rtclock()
// call at entry and before the return, an llvm.mlir.global call counter
// loaded, incremented and stored, and a helper that stores the layer's
// seconds into another global.
#map0 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
module {
  llvm.mlir.global internal @layer_calls(0 : i64) : i64
  func.func private @rtclock() -> f64
  llvm.mlir.global internal @layer_seconds(0.0 : f64) : f64
  func.func @record_time(%begin: f64, %end: f64) {
    %p = llvm.mlir.addressof @layer_seconds : !llvm.ptr
    %d = arith.subf %end, %begin : f64
    llvm.store %d, %p : f64, !llvm.ptr
    return
  }
  func.func @forward(
      %x: tensor<1x32x64xf32>,
      %l0_ln1_g: tensor<64xf32>,
      %l0_ln1_b: tensor<64xf32>,
      %l0_w_qkv: tensor<64x192xf32>,
      %l0_b_qkv: tensor<192xf32>,
      %l0_w_o: tensor<64x64xf32>,
      %l0_b_o: tensor<64xf32>,
      %l0_ln2_g: tensor<64xf32>,
      %l0_ln2_b: tensor<64xf32>,
      %l0_w_fc1: tensor<64x256xf32>,
      %l0_b_fc1: tensor<256xf32>,
      %l0_w_fc2: tensor<256x64xf32>,
      %l0_b_fc2: tensor<64xf32>,
      %lnf_g: tensor<64xf32>,
      %lnf_b: tensor<64xf32>)
      -> (tensor<1x32x64xf32>) {
    %cst1 = arith.constant 0.000000000e+00 : f32
    %e2 = tensor.empty() : tensor<1x32x1xf32>
    %fill3 = linalg.fill ins(%cst1 : f32) outs(%e2 : tensor<1x32x1xf32>) -> tensor<1x32x1xf32>
    %t_begin = func.call @rtclock() : () -> f64
    %calls_ptr = llvm.mlir.addressof @layer_calls : !llvm.ptr
    %calls = llvm.load %calls_ptr : !llvm.ptr -> i64
    %one_call = llvm.mlir.constant(1 : i64) : i64
    %calls_next = llvm.add %calls, %one_call : i64
    llvm.store %calls_next, %calls_ptr : i64, !llvm.ptr
    %sum4 = linalg.generic {indexing_maps = [#map1, #map0], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<1x32x64xf32>) outs(%fill3 : tensor<1x32x1xf32>) {
    ^bb0(%in5: f32, %out6: f32):
      %t7 = arith.addf %out6, %in5 : f32
      linalg.yield %t7 : f32
    } -> tensor<1x32x1xf32>
    %e8 = tensor.empty() : tensor<1x32x1xf32>
    %mean9 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sum4 : tensor<1x32x1xf32>) outs(%e8 : tensor<1x32x1xf32>) {
    ^bb0(%in10: f32, %out11: f32):
      %cst12 = arith.constant 1.562500000e-02 : f32
      %t13 = arith.mulf %in10, %cst12 : f32
      linalg.yield %t13 : f32
    } -> tensor<1x32x1xf32>
    %e14 = tensor.empty() : tensor<1x32x1xf32>
    %fill15 = linalg.fill ins(%cst1 : f32) outs(%e14 : tensor<1x32x1xf32>) -> tensor<1x32x1xf32>
    %sqsum16 = linalg.generic {indexing_maps = [#map1, #map0, #map0], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %mean9 : tensor<1x32x64xf32>, tensor<1x32x1xf32>) outs(%fill15 : tensor<1x32x1xf32>) {
    ^bb0(%in17: f32, %in18: f32, %out19: f32):
      %t20 = arith.subf %in17, %in18 : f32
      %t21 = arith.mulf %t20, %t20 : f32
      %t22 = arith.addf %out19, %t21 : f32
      linalg.yield %t22 : f32
    } -> tensor<1x32x1xf32>
    %e23 = tensor.empty() : tensor<1x32x64xf32>
    %ln24 = linalg.generic {indexing_maps = [#map1, #map0, #map0, #map2, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mean9, %sqsum16, %l0_ln1_g, %l0_ln1_b : tensor<1x32x64xf32>, tensor<1x32x1xf32>, tensor<1x32x1xf32>, tensor<64xf32>, tensor<64xf32>) outs(%e23 : tensor<1x32x64xf32>) {
    ^bb0(%in25: f32, %in26: f32, %in27: f32, %in28: f32, %in29: f32, %out30: f32):
      %cst31 = arith.constant 1.562500000e-02 : f32
      %t32 = arith.mulf %in27, %cst31 : f32
      %cst33 = arith.constant 1.000000000e-05 : f32
      %t34 = arith.addf %t32, %cst33 : f32
      %t35 = math.rsqrt %t34 : f32
      %t36 = arith.subf %in25, %in26 : f32
      %t37 = arith.mulf %t36, %t35 : f32
      %t38 = arith.mulf %t37, %in28 : f32
      %t39 = arith.addf %t38, %in29 : f32
      linalg.yield %t39 : f32
    } -> tensor<1x32x64xf32>
    %e40 = tensor.empty() : tensor<1x32x192xf32>
    %fill41 = linalg.fill ins(%cst1 : f32) outs(%e40 : tensor<1x32x192xf32>) -> tensor<1x32x192xf32>
    %lin42 = linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ln24, %l0_w_qkv : tensor<1x32x64xf32>, tensor<64x192xf32>) outs(%fill41 : tensor<1x32x192xf32>) {
    ^bb0(%in43: f32, %in44: f32, %out45: f32):
      %t46 = arith.mulf %in43, %in44 : f32
      %t47 = arith.addf %out45, %t46 : f32
      linalg.yield %t47 : f32
    } -> tensor<1x32x192xf32>
    %e48 = tensor.empty() : tensor<1x32x192xf32>
    %bias49 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%lin42, %l0_b_qkv : tensor<1x32x192xf32>, tensor<192xf32>) outs(%e48 : tensor<1x32x192xf32>) {
    ^bb0(%in50: f32, %in51: f32, %out52: f32):
      %t53 = arith.addf %in50, %in51 : f32
      linalg.yield %t53 : f32
    } -> tensor<1x32x192xf32>
    %sl54 = tensor.extract_slice %bias49[0, 0, 0] [1, 32, 64] [1, 1, 1] : tensor<1x32x192xf32> to tensor<1x32x64xf32>
    %sl55 = tensor.extract_slice %bias49[0, 0, 64] [1, 32, 64] [1, 1, 1] : tensor<1x32x192xf32> to tensor<1x32x64xf32>
    %sl56 = tensor.extract_slice %bias49[0, 0, 128] [1, 32, 64] [1, 1, 1] : tensor<1x32x192xf32> to tensor<1x32x64xf32>
    %ex57 = tensor.expand_shape %sl54 [[0], [1], [2, 3]] output_shape [1, 32, 8, 8] : tensor<1x32x64xf32> into tensor<1x32x8x8xf32>
    %e58 = tensor.empty() : tensor<1x8x32x8xf32>
    %tr59 = linalg.transpose ins(%ex57 : tensor<1x32x8x8xf32>) outs(%e58 : tensor<1x8x32x8xf32>) permutation = [0, 2, 1, 3]
    %ex60 = tensor.expand_shape %sl55 [[0], [1], [2, 3]] output_shape [1, 32, 8, 8] : tensor<1x32x64xf32> into tensor<1x32x8x8xf32>
    %e61 = tensor.empty() : tensor<1x8x8x32xf32>
    %tr62 = linalg.transpose ins(%ex60 : tensor<1x32x8x8xf32>) outs(%e61 : tensor<1x8x8x32xf32>) permutation = [0, 2, 3, 1]
    %ex63 = tensor.expand_shape %sl56 [[0], [1], [2, 3]] output_shape [1, 32, 8, 8] : tensor<1x32x64xf32> into tensor<1x32x8x8xf32>
    %e64 = tensor.empty() : tensor<1x8x32x8xf32>
    %tr65 = linalg.transpose ins(%ex63 : tensor<1x32x8x8xf32>) outs(%e64 : tensor<1x8x32x8xf32>) permutation = [0, 2, 1, 3]
    %cl66 = tensor.collapse_shape %tr59 [[0, 1], [2], [3]] : tensor<1x8x32x8xf32> into tensor<8x32x8xf32>
    %cl67 = tensor.collapse_shape %tr62 [[0, 1], [2], [3]] : tensor<1x8x8x32xf32> into tensor<8x8x32xf32>
    %cl68 = tensor.collapse_shape %tr65 [[0, 1], [2], [3]] : tensor<1x8x32x8xf32> into tensor<8x32x8xf32>
    %e69 = tensor.empty() : tensor<8x32x32xf32>
    %fill70 = linalg.fill ins(%cst1 : f32) outs(%e69 : tensor<8x32x32xf32>) -> tensor<8x32x32xf32>
    %bmm71 = linalg.batch_matmul ins(%cl66, %cl67 : tensor<8x32x8xf32>, tensor<8x8x32xf32>) outs(%fill70 : tensor<8x32x32xf32>) -> tensor<8x32x32xf32>
    %e72 = tensor.empty() : tensor<8x32x32xf32>
    %scale73 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bmm71 : tensor<8x32x32xf32>) outs(%e72 : tensor<8x32x32xf32>) {
    ^bb0(%in74: f32, %out75: f32):
      %cst76 = arith.constant 3.535533906e-01 : f32
      %t77 = arith.mulf %in74, %cst76 : f32
      linalg.yield %t77 : f32
    } -> tensor<8x32x32xf32>
    %e78 = tensor.empty() : tensor<8x32x32xf32>
    %mask79 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%scale73 : tensor<8x32x32xf32>) outs(%e78 : tensor<8x32x32xf32>) {
    ^bb0(%in80: f32, %out81: f32):
      %i82 = linalg.index 2 : index
      %i83 = linalg.index 1 : index
      %p84 = arith.cmpi ugt, %i82, %i83 : index
      %cst85 = arith.constant -1.000000000e+09 : f32
      %t86 = arith.select %p84, %cst85, %in80 : f32
      linalg.yield %t86 : f32
    } -> tensor<8x32x32xf32>
    %cst87 = arith.constant 0xFF800000 : f32
    %e88 = tensor.empty() : tensor<8x32x1xf32>
    %fill89 = linalg.fill ins(%cst87 : f32) outs(%e88 : tensor<8x32x1xf32>) -> tensor<8x32x1xf32>
    %max90 = linalg.generic {indexing_maps = [#map1, #map0], iterator_types = ["parallel", "parallel", "reduction"]} ins(%mask79 : tensor<8x32x32xf32>) outs(%fill89 : tensor<8x32x1xf32>) {
    ^bb0(%in91: f32, %out92: f32):
      %t93 = arith.maximumf %out92, %in91 : f32
      linalg.yield %t93 : f32
    } -> tensor<8x32x1xf32>
    %e94 = tensor.empty() : tensor<8x32x32xf32>
    %exp95 = linalg.generic {indexing_maps = [#map1, #map0, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mask79, %max90 : tensor<8x32x32xf32>, tensor<8x32x1xf32>) outs(%e94 : tensor<8x32x32xf32>) {
    ^bb0(%in96: f32, %in97: f32, %out98: f32):
      %t99 = arith.subf %in96, %in97 : f32
      %t100 = math.exp %t99 : f32
      linalg.yield %t100 : f32
    } -> tensor<8x32x32xf32>
    %e101 = tensor.empty() : tensor<8x32x1xf32>
    %fill102 = linalg.fill ins(%cst1 : f32) outs(%e101 : tensor<8x32x1xf32>) -> tensor<8x32x1xf32>
    %sum103 = linalg.generic {indexing_maps = [#map1, #map0], iterator_types = ["parallel", "parallel", "reduction"]} ins(%exp95 : tensor<8x32x32xf32>) outs(%fill102 : tensor<8x32x1xf32>) {
    ^bb0(%in104: f32, %out105: f32):
      %t106 = arith.addf %out105, %in104 : f32
      linalg.yield %t106 : f32
    } -> tensor<8x32x1xf32>
    %e107 = tensor.empty() : tensor<8x32x32xf32>
    %softmax108 = linalg.generic {indexing_maps = [#map1, #map0, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%exp95, %sum103 : tensor<8x32x32xf32>, tensor<8x32x1xf32>) outs(%e107 : tensor<8x32x32xf32>) {
    ^bb0(%in109: f32, %in110: f32, %out111: f32):
      %t112 = arith.divf %in109, %in110 : f32
      linalg.yield %t112 : f32
    } -> tensor<8x32x32xf32>
    %e113 = tensor.empty() : tensor<8x32x8xf32>
    %fill114 = linalg.fill ins(%cst1 : f32) outs(%e113 : tensor<8x32x8xf32>) -> tensor<8x32x8xf32>
    %bmm115 = linalg.batch_matmul ins(%softmax108, %cl68 : tensor<8x32x32xf32>, tensor<8x32x8xf32>) outs(%fill114 : tensor<8x32x8xf32>) -> tensor<8x32x8xf32>
    %ex116 = tensor.expand_shape %bmm115 [[0, 1], [2], [3]] output_shape [1, 8, 32, 8] : tensor<8x32x8xf32> into tensor<1x8x32x8xf32>
    %e117 = tensor.empty() : tensor<1x32x8x8xf32>
    %tr118 = linalg.transpose ins(%ex116 : tensor<1x8x32x8xf32>) outs(%e117 : tensor<1x32x8x8xf32>) permutation = [0, 2, 1, 3]
    %cl119 = tensor.collapse_shape %tr118 [[0], [1], [2, 3]] : tensor<1x32x8x8xf32> into tensor<1x32x64xf32>
    %e120 = tensor.empty() : tensor<1x32x64xf32>
    %fill121 = linalg.fill ins(%cst1 : f32) outs(%e120 : tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
    %lin122 = linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%cl119, %l0_w_o : tensor<1x32x64xf32>, tensor<64x64xf32>) outs(%fill121 : tensor<1x32x64xf32>) {
    ^bb0(%in123: f32, %in124: f32, %out125: f32):
      %t126 = arith.mulf %in123, %in124 : f32
      %t127 = arith.addf %out125, %t126 : f32
      linalg.yield %t127 : f32
    } -> tensor<1x32x64xf32>
    %e129 = tensor.empty() : tensor<1x32x64xf32>
    %bias130 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%lin122, %l0_b_o : tensor<1x32x64xf32>, tensor<64xf32>) outs(%e129 : tensor<1x32x64xf32>) {
    ^bb0(%in131: f32, %in132: f32, %out133: f32):
      %t134 = arith.addf %in131, %in132 : f32
      linalg.yield %t134 : f32
    } -> tensor<1x32x64xf32>
    %e135 = tensor.empty() : tensor<1x32x64xf32>
    %res136 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %bias130 : tensor<1x32x64xf32>, tensor<1x32x64xf32>) outs(%e135 : tensor<1x32x64xf32>) {
    ^bb0(%in137: f32, %in138: f32, %out139: f32):
      %t140 = arith.addf %in137, %in138 : f32
      linalg.yield %t140 : f32
    } -> tensor<1x32x64xf32>
    %e141 = tensor.empty() : tensor<1x32x1xf32>
    %fill142 = linalg.fill ins(%cst1 : f32) outs(%e141 : tensor<1x32x1xf32>) -> tensor<1x32x1xf32>
    %sum143 = linalg.generic {indexing_maps = [#map1, #map0], iterator_types = ["parallel", "parallel", "reduction"]} ins(%res136 : tensor<1x32x64xf32>) outs(%fill142 : tensor<1x32x1xf32>) {
    ^bb0(%in144: f32, %out145: f32):
      %t146 = arith.addf %out145, %in144 : f32
      linalg.yield %t146 : f32
    } -> tensor<1x32x1xf32>
    %e147 = tensor.empty() : tensor<1x32x1xf32>
    %mean148 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sum143 : tensor<1x32x1xf32>) outs(%e147 : tensor<1x32x1xf32>) {
    ^bb0(%in149: f32, %out150: f32):
      %cst151 = arith.constant 1.562500000e-02 : f32
      %t152 = arith.mulf %in149, %cst151 : f32
      linalg.yield %t152 : f32
    } -> tensor<1x32x1xf32>
    %e153 = tensor.empty() : tensor<1x32x1xf32>
    %fill154 = linalg.fill ins(%cst1 : f32) outs(%e153 : tensor<1x32x1xf32>) -> tensor<1x32x1xf32>
    %sqsum155 = linalg.generic {indexing_maps = [#map1, #map0, #map0], iterator_types = ["parallel", "parallel", "reduction"]} ins(%res136, %mean148 : tensor<1x32x64xf32>, tensor<1x32x1xf32>) outs(%fill154 : tensor<1x32x1xf32>) {
    ^bb0(%in156: f32, %in157: f32, %out158: f32):
      %t159 = arith.subf %in156, %in157 : f32
      %t160 = arith.mulf %t159, %t159 : f32
      %t161 = arith.addf %out158, %t160 : f32
      linalg.yield %t161 : f32
    } -> tensor<1x32x1xf32>
    %e162 = tensor.empty() : tensor<1x32x64xf32>
    %ln163 = linalg.generic {indexing_maps = [#map1, #map0, #map0, #map2, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%res136, %mean148, %sqsum155, %l0_ln2_g, %l0_ln2_b : tensor<1x32x64xf32>, tensor<1x32x1xf32>, tensor<1x32x1xf32>, tensor<64xf32>, tensor<64xf32>) outs(%e162 : tensor<1x32x64xf32>) {
    ^bb0(%in164: f32, %in165: f32, %in166: f32, %in167: f32, %in168: f32, %out169: f32):
      %cst170 = arith.constant 1.562500000e-02 : f32
      %t171 = arith.mulf %in166, %cst170 : f32
      %cst172 = arith.constant 1.000000000e-05 : f32
      %t173 = arith.addf %t171, %cst172 : f32
      %t174 = math.rsqrt %t173 : f32
      %t175 = arith.subf %in164, %in165 : f32
      %t176 = arith.mulf %t175, %t174 : f32
      %t177 = arith.mulf %t176, %in167 : f32
      %t178 = arith.addf %t177, %in168 : f32
      linalg.yield %t178 : f32
    } -> tensor<1x32x64xf32>
    %e179 = tensor.empty() : tensor<1x32x256xf32>
    %fill180 = linalg.fill ins(%cst1 : f32) outs(%e179 : tensor<1x32x256xf32>) -> tensor<1x32x256xf32>
    %lin181 = linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ln163, %l0_w_fc1 : tensor<1x32x64xf32>, tensor<64x256xf32>) outs(%fill180 : tensor<1x32x256xf32>) {
    ^bb0(%in182: f32, %in183: f32, %out184: f32):
      %t185 = arith.mulf %in182, %in183 : f32
      %t186 = arith.addf %out184, %t185 : f32
      linalg.yield %t186 : f32
    } -> tensor<1x32x256xf32>
    %e187 = tensor.empty() : tensor<1x32x256xf32>
    %bias188 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%lin181, %l0_b_fc1 : tensor<1x32x256xf32>, tensor<256xf32>) outs(%e187 : tensor<1x32x256xf32>) {
    ^bb0(%in189: f32, %in190: f32, %out191: f32):
      %t192 = arith.addf %in189, %in190 : f32
      linalg.yield %t192 : f32
    } -> tensor<1x32x256xf32>
    %e193 = tensor.empty() : tensor<1x32x256xf32>
    %gelu194 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bias188 : tensor<1x32x256xf32>) outs(%e193 : tensor<1x32x256xf32>) {
    ^bb0(%in195: f32, %out196: f32):
      %t197 = arith.mulf %in195, %in195 : f32
      %t198 = arith.mulf %t197, %in195 : f32
      %cst199 = arith.constant 4.471500000e-02 : f32
      %t200 = arith.mulf %t198, %cst199 : f32
      %t201 = arith.addf %in195, %t200 : f32
      %cst202 = arith.constant 7.978845608e-01 : f32
      %t203 = arith.mulf %t201, %cst202 : f32
      %t204 = math.tanh %t203 : f32
      %cst205 = arith.constant 5.000000000e-01 : f32
      %t206 = arith.mulf %in195, %cst205 : f32
      %cst207 = arith.constant 1.000000000e+00 : f32
      %t208 = arith.addf %t204, %cst207 : f32
      %t209 = arith.mulf %t206, %t208 : f32
      linalg.yield %t209 : f32
    } -> tensor<1x32x256xf32>
    %e210 = tensor.empty() : tensor<1x32x64xf32>
    %fill211 = linalg.fill ins(%cst1 : f32) outs(%e210 : tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
    %lin212 = linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%gelu194, %l0_w_fc2 : tensor<1x32x256xf32>, tensor<256x64xf32>) outs(%fill211 : tensor<1x32x64xf32>) {
    ^bb0(%in213: f32, %in214: f32, %out215: f32):
      %t216 = arith.mulf %in213, %in214 : f32
      %t217 = arith.addf %out215, %t216 : f32
      linalg.yield %t217 : f32
    } -> tensor<1x32x64xf32>
    %e219 = tensor.empty() : tensor<1x32x64xf32>
    %bias220 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%lin212, %l0_b_fc2 : tensor<1x32x64xf32>, tensor<64xf32>) outs(%e219 : tensor<1x32x64xf32>) {
    ^bb0(%in221: f32, %in222: f32, %out223: f32):
      %t224 = arith.addf %in221, %in222 : f32
      linalg.yield %t224 : f32
    } -> tensor<1x32x64xf32>
    %e225 = tensor.empty() : tensor<1x32x64xf32>
    %res226 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%res136, %bias220 : tensor<1x32x64xf32>, tensor<1x32x64xf32>) outs(%e225 : tensor<1x32x64xf32>) {
    ^bb0(%in227: f32, %in228: f32, %out229: f32):
      %t230 = arith.addf %in227, %in228 : f32
      linalg.yield %t230 : f32
    } -> tensor<1x32x64xf32>
    %e231 = tensor.empty() : tensor<1x32x1xf32>
    %fill232 = linalg.fill ins(%cst1 : f32) outs(%e231 : tensor<1x32x1xf32>) -> tensor<1x32x1xf32>
    %sum233 = linalg.generic {indexing_maps = [#map1, #map0], iterator_types = ["parallel", "parallel", "reduction"]} ins(%res226 : tensor<1x32x64xf32>) outs(%fill232 : tensor<1x32x1xf32>) {
    ^bb0(%in234: f32, %out235: f32):
      %t236 = arith.addf %out235, %in234 : f32
      linalg.yield %t236 : f32
    } -> tensor<1x32x1xf32>
    %e237 = tensor.empty() : tensor<1x32x1xf32>
    %mean238 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sum233 : tensor<1x32x1xf32>) outs(%e237 : tensor<1x32x1xf32>) {
    ^bb0(%in239: f32, %out240: f32):
      %cst241 = arith.constant 1.562500000e-02 : f32
      %t242 = arith.mulf %in239, %cst241 : f32
      linalg.yield %t242 : f32
    } -> tensor<1x32x1xf32>
    %e243 = tensor.empty() : tensor<1x32x1xf32>
    %fill244 = linalg.fill ins(%cst1 : f32) outs(%e243 : tensor<1x32x1xf32>) -> tensor<1x32x1xf32>
    %sqsum245 = linalg.generic {indexing_maps = [#map1, #map0, #map0], iterator_types = ["parallel", "parallel", "reduction"]} ins(%res226, %mean238 : tensor<1x32x64xf32>, tensor<1x32x1xf32>) outs(%fill244 : tensor<1x32x1xf32>) {
    ^bb0(%in246: f32, %in247: f32, %out248: f32):
      %t249 = arith.subf %in246, %in247 : f32
      %t250 = arith.mulf %t249, %t249 : f32
      %t251 = arith.addf %out248, %t250 : f32
      linalg.yield %t251 : f32
    } -> tensor<1x32x1xf32>
    %e252 = tensor.empty() : tensor<1x32x64xf32>
    %ln253 = linalg.generic {indexing_maps = [#map1, #map0, #map0, #map2, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%res226, %mean238, %sqsum245, %lnf_g, %lnf_b : tensor<1x32x64xf32>, tensor<1x32x1xf32>, tensor<1x32x1xf32>, tensor<64xf32>, tensor<64xf32>) outs(%e252 : tensor<1x32x64xf32>) {
    ^bb0(%in254: f32, %in255: f32, %in256: f32, %in257: f32, %in258: f32, %out259: f32):
      %cst260 = arith.constant 1.562500000e-02 : f32
      %t261 = arith.mulf %in256, %cst260 : f32
      %cst262 = arith.constant 1.000000000e-05 : f32
      %t263 = arith.addf %t261, %cst262 : f32
      %t264 = math.rsqrt %t263 : f32
      %t265 = arith.subf %in254, %in255 : f32
      %t266 = arith.mulf %t265, %t264 : f32
      %t267 = arith.mulf %t266, %in257 : f32
      %t268 = arith.addf %t267, %in258 : f32
      linalg.yield %t268 : f32
    } -> tensor<1x32x64xf32>
    %t_end = func.call @rtclock() : () -> f64
    func.call @record_time(%t_begin, %t_end) : (f64, f64) -> ()
    return %ln253 : tensor<1x32x64xf32>
  }
}
