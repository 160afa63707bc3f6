// An encoder-decoder written in linalg (hidden 32, 4 heads, 8 tokens each,
// batch 2): each input adds its own learned position table [8, 32], so the
// tables reach every attention operand their input reaches. Encoder
// self-attention, causal decoder self-attention (-1e9 where j > i),
// cross-attention, each linear a linalg.matmul on [b*s, h].
module {
  func.func @main(%a0: tensor<2x8x32xf32>, %a1: tensor<2x8x32xf32>, %a2: tensor<8x32xf32>, %a3: tensor<8x32xf32>, %a4: tensor<32x32xf32>, %a5: tensor<32x32xf32>, %a6: tensor<32x32xf32>, %a7: tensor<32x32xf32>, %a8: tensor<32x64xf32>, %a9: tensor<64x32xf32>, %a10: tensor<32x32xf32>, %a11: tensor<32x32xf32>, %a12: tensor<32x32xf32>, %a13: tensor<32x32xf32>, %a14: tensor<32x64xf32>, %a15: tensor<64x32xf32>, %a16: tensor<32x32xf32>, %a17: tensor<32x32xf32>, %a18: tensor<32x32xf32>, %a19: tensor<32x32xf32>, %a20: tensor<32x32xf32>, %a21: tensor<32x32xf32>, %a22: tensor<32x32xf32>, %a23: tensor<32x32xf32>, %a24: tensor<32x64xf32>, %a25: tensor<64x32xf32>) -> (tensor<2x8x32xf32>) {
    %v1 = tensor.empty() : tensor<2x8x32xf32>
    %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a0, %a2 : tensor<2x8x32xf32>, tensor<8x32xf32>) outs(%v1 : tensor<2x8x32xf32>) {
    ^bb0(%in0: f32, %in1: f32, %out: f32):
      %r = arith.addf %in0, %in1 : f32
      linalg.yield %r : f32
    } -> tensor<2x8x32xf32>
    %v3 = tensor.collapse_shape %v2 [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
    %c0 = arith.constant 0.0 : f32
    %v4 = tensor.empty() : tensor<16x32xf32>
    %v5 = linalg.fill ins(%c0 : f32) outs(%v4 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v6 = linalg.matmul ins(%v3, %a4 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%v5 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v7 = tensor.expand_shape %v6 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
    %v8 = tensor.expand_shape %v7 [[0], [1], [2, 3]] output_shape [2, 8, 4, 8] : tensor<2x8x32xf32> into tensor<2x8x4x8xf32>
    %v9 = tensor.empty() : tensor<2x4x8x8xf32>
    %v10 = linalg.transpose ins(%v8 : tensor<2x8x4x8xf32>) outs(%v9 : tensor<2x4x8x8xf32>) permutation = [0, 2, 1, 3]
    %v11 = tensor.collapse_shape %v2 [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
    %v12 = tensor.empty() : tensor<16x32xf32>
    %v13 = linalg.fill ins(%c0 : f32) outs(%v12 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v14 = linalg.matmul ins(%v11, %a5 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%v13 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v15 = tensor.expand_shape %v14 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
    %v16 = tensor.expand_shape %v15 [[0], [1], [2, 3]] output_shape [2, 8, 4, 8] : tensor<2x8x32xf32> into tensor<2x8x4x8xf32>
    %v17 = tensor.empty() : tensor<2x4x8x8xf32>
    %v18 = linalg.transpose ins(%v16 : tensor<2x8x4x8xf32>) outs(%v17 : tensor<2x4x8x8xf32>) permutation = [0, 2, 1, 3]
    %v19 = tensor.collapse_shape %v2 [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
    %v20 = tensor.empty() : tensor<16x32xf32>
    %v21 = linalg.fill ins(%c0 : f32) outs(%v20 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v22 = linalg.matmul ins(%v19, %a6 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%v21 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v23 = tensor.expand_shape %v22 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
    %v24 = tensor.expand_shape %v23 [[0], [1], [2, 3]] output_shape [2, 8, 4, 8] : tensor<2x8x32xf32> into tensor<2x8x4x8xf32>
    %v25 = tensor.empty() : tensor<2x4x8x8xf32>
    %v26 = linalg.transpose ins(%v24 : tensor<2x8x4x8xf32>) outs(%v25 : tensor<2x4x8x8xf32>) permutation = [0, 2, 1, 3]
    %v27 = tensor.collapse_shape %v10 [[0, 1], [2], [3]] : tensor<2x4x8x8xf32> into tensor<8x8x8xf32>
    %v28 = tensor.collapse_shape %v18 [[0, 1], [2], [3]] : tensor<2x4x8x8xf32> into tensor<8x8x8xf32>
    %v29 = tensor.collapse_shape %v26 [[0, 1], [2], [3]] : tensor<2x4x8x8xf32> into tensor<8x8x8xf32>
    %v30 = tensor.empty() : tensor<8x8x8xf32>
    %v31 = linalg.fill ins(%c0 : f32) outs(%v30 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %v32 = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%v27, %v28 : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%v31 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %v33 = tensor.expand_shape %v32 [[0, 1], [2], [3]] output_shape [2, 4, 8, 8] : tensor<8x8x8xf32> into tensor<2x4x8x8xf32>
    %c1 = arith.constant 0.35355339059327373 : f32
    %c2 = arith.constant -1.0e9 : f32
    %v34 = tensor.empty() : tensor<2x4x8x8xf32>
    %v35 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v33 : tensor<2x4x8x8xf32>) outs(%v34 : tensor<2x4x8x8xf32>) {
    ^bb0(%in0: f32, %out: f32):
      %y = arith.mulf %in0, %c1 : f32
      linalg.yield %y : f32
    } -> tensor<2x4x8x8xf32>
    %v36 = tensor.empty() : tensor<2x4x8x8xf32>
    %v37 = linalg.softmax dimension(3) ins(%v35 : tensor<2x4x8x8xf32>) outs(%v36 : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %v38 = tensor.collapse_shape %v37 [[0, 1], [2], [3]] : tensor<2x4x8x8xf32> into tensor<8x8x8xf32>
    %v39 = tensor.empty() : tensor<8x8x8xf32>
    %v40 = linalg.fill ins(%c0 : f32) outs(%v39 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %v41 = linalg.batch_matmul ins(%v38, %v29 : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%v40 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %v42 = tensor.expand_shape %v41 [[0, 1], [2], [3]] output_shape [2, 4, 8, 8] : tensor<8x8x8xf32> into tensor<2x4x8x8xf32>
    %v43 = tensor.empty() : tensor<2x8x4x8xf32>
    %v44 = linalg.transpose ins(%v42 : tensor<2x4x8x8xf32>) outs(%v43 : tensor<2x8x4x8xf32>) permutation = [0, 2, 1, 3]
    %v45 = tensor.collapse_shape %v44 [[0], [1], [2, 3]] : tensor<2x8x4x8xf32> into tensor<2x8x32xf32>
    %v46 = tensor.collapse_shape %v45 [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
    %v47 = tensor.empty() : tensor<16x32xf32>
    %v48 = linalg.fill ins(%c0 : f32) outs(%v47 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v49 = linalg.matmul ins(%v46, %a7 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%v48 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v50 = tensor.expand_shape %v49 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
    %v51 = tensor.empty() : tensor<2x8x32xf32>
    %v52 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v2, %v50 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%v51 : tensor<2x8x32xf32>) {
    ^bb0(%in0: f32, %in1: f32, %out: f32):
      %r = arith.addf %in0, %in1 : f32
      linalg.yield %r : f32
    } -> tensor<2x8x32xf32>
    %v53 = tensor.collapse_shape %v52 [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
    %v54 = tensor.empty() : tensor<16x64xf32>
    %v55 = linalg.fill ins(%c0 : f32) outs(%v54 : tensor<16x64xf32>) -> tensor<16x64xf32>
    %v56 = linalg.matmul ins(%v53, %a8 : tensor<16x32xf32>, tensor<32x64xf32>) outs(%v55 : tensor<16x64xf32>) -> tensor<16x64xf32>
    %v57 = tensor.expand_shape %v56 [[0, 1], [2]] output_shape [2, 8, 64] : tensor<16x64xf32> into tensor<2x8x64xf32>
    %v58 = tensor.empty() : tensor<2x8x64xf32>
    %v59 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v57 : tensor<2x8x64xf32>) outs(%v58 : tensor<2x8x64xf32>) {
    ^bb0(%in0: f32, %out: f32):
      %r = arith.maximumf %in0, %c0 : f32
      linalg.yield %r : f32
    } -> tensor<2x8x64xf32>
    %v60 = tensor.collapse_shape %v59 [[0, 1], [2]] : tensor<2x8x64xf32> into tensor<16x64xf32>
    %v61 = tensor.empty() : tensor<16x32xf32>
    %v62 = linalg.fill ins(%c0 : f32) outs(%v61 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v63 = linalg.matmul ins(%v60, %a9 : tensor<16x64xf32>, tensor<64x32xf32>) outs(%v62 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v64 = tensor.expand_shape %v63 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
    %v65 = tensor.empty() : tensor<2x8x32xf32>
    %v66 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v52, %v64 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%v65 : tensor<2x8x32xf32>) {
    ^bb0(%in0: f32, %in1: f32, %out: f32):
      %r = arith.addf %in0, %in1 : f32
      linalg.yield %r : f32
    } -> tensor<2x8x32xf32>
    %v67 = tensor.collapse_shape %v66 [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
    %v68 = tensor.empty() : tensor<16x32xf32>
    %v69 = linalg.fill ins(%c0 : f32) outs(%v68 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v70 = linalg.matmul ins(%v67, %a10 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%v69 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v71 = tensor.expand_shape %v70 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
    %v72 = tensor.expand_shape %v71 [[0], [1], [2, 3]] output_shape [2, 8, 4, 8] : tensor<2x8x32xf32> into tensor<2x8x4x8xf32>
    %v73 = tensor.empty() : tensor<2x4x8x8xf32>
    %v74 = linalg.transpose ins(%v72 : tensor<2x8x4x8xf32>) outs(%v73 : tensor<2x4x8x8xf32>) permutation = [0, 2, 1, 3]
    %v75 = tensor.collapse_shape %v66 [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
    %v76 = tensor.empty() : tensor<16x32xf32>
    %v77 = linalg.fill ins(%c0 : f32) outs(%v76 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v78 = linalg.matmul ins(%v75, %a11 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%v77 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v79 = tensor.expand_shape %v78 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
    %v80 = tensor.expand_shape %v79 [[0], [1], [2, 3]] output_shape [2, 8, 4, 8] : tensor<2x8x32xf32> into tensor<2x8x4x8xf32>
    %v81 = tensor.empty() : tensor<2x4x8x8xf32>
    %v82 = linalg.transpose ins(%v80 : tensor<2x8x4x8xf32>) outs(%v81 : tensor<2x4x8x8xf32>) permutation = [0, 2, 1, 3]
    %v83 = tensor.collapse_shape %v66 [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
    %v84 = tensor.empty() : tensor<16x32xf32>
    %v85 = linalg.fill ins(%c0 : f32) outs(%v84 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v86 = linalg.matmul ins(%v83, %a12 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%v85 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v87 = tensor.expand_shape %v86 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
    %v88 = tensor.expand_shape %v87 [[0], [1], [2, 3]] output_shape [2, 8, 4, 8] : tensor<2x8x32xf32> into tensor<2x8x4x8xf32>
    %v89 = tensor.empty() : tensor<2x4x8x8xf32>
    %v90 = linalg.transpose ins(%v88 : tensor<2x8x4x8xf32>) outs(%v89 : tensor<2x4x8x8xf32>) permutation = [0, 2, 1, 3]
    %v91 = tensor.collapse_shape %v74 [[0, 1], [2], [3]] : tensor<2x4x8x8xf32> into tensor<8x8x8xf32>
    %v92 = tensor.collapse_shape %v82 [[0, 1], [2], [3]] : tensor<2x4x8x8xf32> into tensor<8x8x8xf32>
    %v93 = tensor.collapse_shape %v90 [[0, 1], [2], [3]] : tensor<2x4x8x8xf32> into tensor<8x8x8xf32>
    %v94 = tensor.empty() : tensor<8x8x8xf32>
    %v95 = linalg.fill ins(%c0 : f32) outs(%v94 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %v96 = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%v91, %v92 : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%v95 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %v97 = tensor.expand_shape %v96 [[0, 1], [2], [3]] output_shape [2, 4, 8, 8] : tensor<8x8x8xf32> into tensor<2x4x8x8xf32>
    %v98 = tensor.empty() : tensor<2x4x8x8xf32>
    %v99 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v97 : tensor<2x4x8x8xf32>) outs(%v98 : tensor<2x4x8x8xf32>) {
    ^bb0(%in0: f32, %out: f32):
      %y = arith.mulf %in0, %c1 : f32
      linalg.yield %y : f32
    } -> tensor<2x4x8x8xf32>
    %v100 = tensor.empty() : tensor<2x4x8x8xf32>
    %v101 = linalg.softmax dimension(3) ins(%v99 : tensor<2x4x8x8xf32>) outs(%v100 : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %v102 = tensor.collapse_shape %v101 [[0, 1], [2], [3]] : tensor<2x4x8x8xf32> into tensor<8x8x8xf32>
    %v103 = tensor.empty() : tensor<8x8x8xf32>
    %v104 = linalg.fill ins(%c0 : f32) outs(%v103 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %v105 = linalg.batch_matmul ins(%v102, %v93 : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%v104 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %v106 = tensor.expand_shape %v105 [[0, 1], [2], [3]] output_shape [2, 4, 8, 8] : tensor<8x8x8xf32> into tensor<2x4x8x8xf32>
    %v107 = tensor.empty() : tensor<2x8x4x8xf32>
    %v108 = linalg.transpose ins(%v106 : tensor<2x4x8x8xf32>) outs(%v107 : tensor<2x8x4x8xf32>) permutation = [0, 2, 1, 3]
    %v109 = tensor.collapse_shape %v108 [[0], [1], [2, 3]] : tensor<2x8x4x8xf32> into tensor<2x8x32xf32>
    %v110 = tensor.collapse_shape %v109 [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
    %v111 = tensor.empty() : tensor<16x32xf32>
    %v112 = linalg.fill ins(%c0 : f32) outs(%v111 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v113 = linalg.matmul ins(%v110, %a13 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%v112 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v114 = tensor.expand_shape %v113 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
    %v115 = tensor.empty() : tensor<2x8x32xf32>
    %v116 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v66, %v114 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%v115 : tensor<2x8x32xf32>) {
    ^bb0(%in0: f32, %in1: f32, %out: f32):
      %r = arith.addf %in0, %in1 : f32
      linalg.yield %r : f32
    } -> tensor<2x8x32xf32>
    %v117 = tensor.collapse_shape %v116 [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
    %v118 = tensor.empty() : tensor<16x64xf32>
    %v119 = linalg.fill ins(%c0 : f32) outs(%v118 : tensor<16x64xf32>) -> tensor<16x64xf32>
    %v120 = linalg.matmul ins(%v117, %a14 : tensor<16x32xf32>, tensor<32x64xf32>) outs(%v119 : tensor<16x64xf32>) -> tensor<16x64xf32>
    %v121 = tensor.expand_shape %v120 [[0, 1], [2]] output_shape [2, 8, 64] : tensor<16x64xf32> into tensor<2x8x64xf32>
    %v122 = tensor.empty() : tensor<2x8x64xf32>
    %v123 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v121 : tensor<2x8x64xf32>) outs(%v122 : tensor<2x8x64xf32>) {
    ^bb0(%in0: f32, %out: f32):
      %r = arith.maximumf %in0, %c0 : f32
      linalg.yield %r : f32
    } -> tensor<2x8x64xf32>
    %v124 = tensor.collapse_shape %v123 [[0, 1], [2]] : tensor<2x8x64xf32> into tensor<16x64xf32>
    %v125 = tensor.empty() : tensor<16x32xf32>
    %v126 = linalg.fill ins(%c0 : f32) outs(%v125 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v127 = linalg.matmul ins(%v124, %a15 : tensor<16x64xf32>, tensor<64x32xf32>) outs(%v126 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v128 = tensor.expand_shape %v127 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
    %v129 = tensor.empty() : tensor<2x8x32xf32>
    %v130 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v116, %v128 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%v129 : tensor<2x8x32xf32>) {
    ^bb0(%in0: f32, %in1: f32, %out: f32):
      %r = arith.addf %in0, %in1 : f32
      linalg.yield %r : f32
    } -> tensor<2x8x32xf32>
    %v131 = tensor.empty() : tensor<2x8x32xf32>
    %v132 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a1, %a3 : tensor<2x8x32xf32>, tensor<8x32xf32>) outs(%v131 : tensor<2x8x32xf32>) {
    ^bb0(%in0: f32, %in1: f32, %out: f32):
      %r = arith.addf %in0, %in1 : f32
      linalg.yield %r : f32
    } -> tensor<2x8x32xf32>
    %v133 = tensor.collapse_shape %v132 [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
    %v134 = tensor.empty() : tensor<16x32xf32>
    %v135 = linalg.fill ins(%c0 : f32) outs(%v134 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v136 = linalg.matmul ins(%v133, %a16 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%v135 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v137 = tensor.expand_shape %v136 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
    %v138 = tensor.expand_shape %v137 [[0], [1], [2, 3]] output_shape [2, 8, 4, 8] : tensor<2x8x32xf32> into tensor<2x8x4x8xf32>
    %v139 = tensor.empty() : tensor<2x4x8x8xf32>
    %v140 = linalg.transpose ins(%v138 : tensor<2x8x4x8xf32>) outs(%v139 : tensor<2x4x8x8xf32>) permutation = [0, 2, 1, 3]
    %v141 = tensor.collapse_shape %v132 [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
    %v142 = tensor.empty() : tensor<16x32xf32>
    %v143 = linalg.fill ins(%c0 : f32) outs(%v142 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v144 = linalg.matmul ins(%v141, %a17 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%v143 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v145 = tensor.expand_shape %v144 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
    %v146 = tensor.expand_shape %v145 [[0], [1], [2, 3]] output_shape [2, 8, 4, 8] : tensor<2x8x32xf32> into tensor<2x8x4x8xf32>
    %v147 = tensor.empty() : tensor<2x4x8x8xf32>
    %v148 = linalg.transpose ins(%v146 : tensor<2x8x4x8xf32>) outs(%v147 : tensor<2x4x8x8xf32>) permutation = [0, 2, 1, 3]
    %v149 = tensor.collapse_shape %v132 [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
    %v150 = tensor.empty() : tensor<16x32xf32>
    %v151 = linalg.fill ins(%c0 : f32) outs(%v150 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v152 = linalg.matmul ins(%v149, %a18 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%v151 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v153 = tensor.expand_shape %v152 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
    %v154 = tensor.expand_shape %v153 [[0], [1], [2, 3]] output_shape [2, 8, 4, 8] : tensor<2x8x32xf32> into tensor<2x8x4x8xf32>
    %v155 = tensor.empty() : tensor<2x4x8x8xf32>
    %v156 = linalg.transpose ins(%v154 : tensor<2x8x4x8xf32>) outs(%v155 : tensor<2x4x8x8xf32>) permutation = [0, 2, 1, 3]
    %v157 = tensor.collapse_shape %v140 [[0, 1], [2], [3]] : tensor<2x4x8x8xf32> into tensor<8x8x8xf32>
    %v158 = tensor.collapse_shape %v148 [[0, 1], [2], [3]] : tensor<2x4x8x8xf32> into tensor<8x8x8xf32>
    %v159 = tensor.collapse_shape %v156 [[0, 1], [2], [3]] : tensor<2x4x8x8xf32> into tensor<8x8x8xf32>
    %v160 = tensor.empty() : tensor<8x8x8xf32>
    %v161 = linalg.fill ins(%c0 : f32) outs(%v160 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %v162 = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%v157, %v158 : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%v161 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %v163 = tensor.expand_shape %v162 [[0, 1], [2], [3]] output_shape [2, 4, 8, 8] : tensor<8x8x8xf32> into tensor<2x4x8x8xf32>
    %v164 = tensor.empty() : tensor<2x4x8x8xf32>
    %v165 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v163 : tensor<2x4x8x8xf32>) outs(%v164 : tensor<2x4x8x8xf32>) {
    ^bb0(%in0: f32, %out: f32):
      %y = arith.mulf %in0, %c1 : f32
      %i = linalg.index 2 : index
      %j = linalg.index 3 : index
      %fut = arith.cmpi ugt, %j, %i : index
      %yc = arith.select %fut, %c2, %y : f32
      linalg.yield %yc : f32
    } -> tensor<2x4x8x8xf32>
    %v166 = tensor.empty() : tensor<2x4x8x8xf32>
    %v167 = linalg.softmax dimension(3) ins(%v165 : tensor<2x4x8x8xf32>) outs(%v166 : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %v168 = tensor.collapse_shape %v167 [[0, 1], [2], [3]] : tensor<2x4x8x8xf32> into tensor<8x8x8xf32>
    %v169 = tensor.empty() : tensor<8x8x8xf32>
    %v170 = linalg.fill ins(%c0 : f32) outs(%v169 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %v171 = linalg.batch_matmul ins(%v168, %v159 : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%v170 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %v172 = tensor.expand_shape %v171 [[0, 1], [2], [3]] output_shape [2, 4, 8, 8] : tensor<8x8x8xf32> into tensor<2x4x8x8xf32>
    %v173 = tensor.empty() : tensor<2x8x4x8xf32>
    %v174 = linalg.transpose ins(%v172 : tensor<2x4x8x8xf32>) outs(%v173 : tensor<2x8x4x8xf32>) permutation = [0, 2, 1, 3]
    %v175 = tensor.collapse_shape %v174 [[0], [1], [2, 3]] : tensor<2x8x4x8xf32> into tensor<2x8x32xf32>
    %v176 = tensor.collapse_shape %v175 [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
    %v177 = tensor.empty() : tensor<16x32xf32>
    %v178 = linalg.fill ins(%c0 : f32) outs(%v177 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v179 = linalg.matmul ins(%v176, %a19 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%v178 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v180 = tensor.expand_shape %v179 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
    %v181 = tensor.empty() : tensor<2x8x32xf32>
    %v182 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v132, %v180 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%v181 : tensor<2x8x32xf32>) {
    ^bb0(%in0: f32, %in1: f32, %out: f32):
      %r = arith.addf %in0, %in1 : f32
      linalg.yield %r : f32
    } -> tensor<2x8x32xf32>
    %v183 = tensor.collapse_shape %v182 [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
    %v184 = tensor.empty() : tensor<16x32xf32>
    %v185 = linalg.fill ins(%c0 : f32) outs(%v184 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v186 = linalg.matmul ins(%v183, %a20 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%v185 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v187 = tensor.expand_shape %v186 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
    %v188 = tensor.expand_shape %v187 [[0], [1], [2, 3]] output_shape [2, 8, 4, 8] : tensor<2x8x32xf32> into tensor<2x8x4x8xf32>
    %v189 = tensor.empty() : tensor<2x4x8x8xf32>
    %v190 = linalg.transpose ins(%v188 : tensor<2x8x4x8xf32>) outs(%v189 : tensor<2x4x8x8xf32>) permutation = [0, 2, 1, 3]
    %v191 = tensor.collapse_shape %v130 [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
    %v192 = tensor.empty() : tensor<16x32xf32>
    %v193 = linalg.fill ins(%c0 : f32) outs(%v192 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v194 = linalg.matmul ins(%v191, %a21 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%v193 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v195 = tensor.expand_shape %v194 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
    %v196 = tensor.expand_shape %v195 [[0], [1], [2, 3]] output_shape [2, 8, 4, 8] : tensor<2x8x32xf32> into tensor<2x8x4x8xf32>
    %v197 = tensor.empty() : tensor<2x4x8x8xf32>
    %v198 = linalg.transpose ins(%v196 : tensor<2x8x4x8xf32>) outs(%v197 : tensor<2x4x8x8xf32>) permutation = [0, 2, 1, 3]
    %v199 = tensor.collapse_shape %v130 [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
    %v200 = tensor.empty() : tensor<16x32xf32>
    %v201 = linalg.fill ins(%c0 : f32) outs(%v200 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v202 = linalg.matmul ins(%v199, %a22 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%v201 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v203 = tensor.expand_shape %v202 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
    %v204 = tensor.expand_shape %v203 [[0], [1], [2, 3]] output_shape [2, 8, 4, 8] : tensor<2x8x32xf32> into tensor<2x8x4x8xf32>
    %v205 = tensor.empty() : tensor<2x4x8x8xf32>
    %v206 = linalg.transpose ins(%v204 : tensor<2x8x4x8xf32>) outs(%v205 : tensor<2x4x8x8xf32>) permutation = [0, 2, 1, 3]
    %v207 = tensor.collapse_shape %v190 [[0, 1], [2], [3]] : tensor<2x4x8x8xf32> into tensor<8x8x8xf32>
    %v208 = tensor.collapse_shape %v198 [[0, 1], [2], [3]] : tensor<2x4x8x8xf32> into tensor<8x8x8xf32>
    %v209 = tensor.collapse_shape %v206 [[0, 1], [2], [3]] : tensor<2x4x8x8xf32> into tensor<8x8x8xf32>
    %v210 = tensor.empty() : tensor<8x8x8xf32>
    %v211 = linalg.fill ins(%c0 : f32) outs(%v210 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %v212 = linalg.batch_matmul indexing_maps = [affine_map<(n, i, j, e) -> (n, i, e)>, affine_map<(n, i, j, e) -> (n, j, e)>, affine_map<(n, i, j, e) -> (n, i, j)>] ins(%v207, %v208 : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%v211 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %v213 = tensor.expand_shape %v212 [[0, 1], [2], [3]] output_shape [2, 4, 8, 8] : tensor<8x8x8xf32> into tensor<2x4x8x8xf32>
    %v214 = tensor.empty() : tensor<2x4x8x8xf32>
    %v215 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v213 : tensor<2x4x8x8xf32>) outs(%v214 : tensor<2x4x8x8xf32>) {
    ^bb0(%in0: f32, %out: f32):
      %y = arith.mulf %in0, %c1 : f32
      linalg.yield %y : f32
    } -> tensor<2x4x8x8xf32>
    %v216 = tensor.empty() : tensor<2x4x8x8xf32>
    %v217 = linalg.softmax dimension(3) ins(%v215 : tensor<2x4x8x8xf32>) outs(%v216 : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %v218 = tensor.collapse_shape %v217 [[0, 1], [2], [3]] : tensor<2x4x8x8xf32> into tensor<8x8x8xf32>
    %v219 = tensor.empty() : tensor<8x8x8xf32>
    %v220 = linalg.fill ins(%c0 : f32) outs(%v219 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %v221 = linalg.batch_matmul ins(%v218, %v209 : tensor<8x8x8xf32>, tensor<8x8x8xf32>) outs(%v220 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %v222 = tensor.expand_shape %v221 [[0, 1], [2], [3]] output_shape [2, 4, 8, 8] : tensor<8x8x8xf32> into tensor<2x4x8x8xf32>
    %v223 = tensor.empty() : tensor<2x8x4x8xf32>
    %v224 = linalg.transpose ins(%v222 : tensor<2x4x8x8xf32>) outs(%v223 : tensor<2x8x4x8xf32>) permutation = [0, 2, 1, 3]
    %v225 = tensor.collapse_shape %v224 [[0], [1], [2, 3]] : tensor<2x8x4x8xf32> into tensor<2x8x32xf32>
    %v226 = tensor.collapse_shape %v225 [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
    %v227 = tensor.empty() : tensor<16x32xf32>
    %v228 = linalg.fill ins(%c0 : f32) outs(%v227 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v229 = linalg.matmul ins(%v226, %a23 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%v228 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v230 = tensor.expand_shape %v229 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
    %v231 = tensor.empty() : tensor<2x8x32xf32>
    %v232 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v182, %v230 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%v231 : tensor<2x8x32xf32>) {
    ^bb0(%in0: f32, %in1: f32, %out: f32):
      %r = arith.addf %in0, %in1 : f32
      linalg.yield %r : f32
    } -> tensor<2x8x32xf32>
    %v233 = tensor.collapse_shape %v232 [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
    %v234 = tensor.empty() : tensor<16x64xf32>
    %v235 = linalg.fill ins(%c0 : f32) outs(%v234 : tensor<16x64xf32>) -> tensor<16x64xf32>
    %v236 = linalg.matmul ins(%v233, %a24 : tensor<16x32xf32>, tensor<32x64xf32>) outs(%v235 : tensor<16x64xf32>) -> tensor<16x64xf32>
    %v237 = tensor.expand_shape %v236 [[0, 1], [2]] output_shape [2, 8, 64] : tensor<16x64xf32> into tensor<2x8x64xf32>
    %v238 = tensor.empty() : tensor<2x8x64xf32>
    %v239 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v237 : tensor<2x8x64xf32>) outs(%v238 : tensor<2x8x64xf32>) {
    ^bb0(%in0: f32, %out: f32):
      %r = arith.maximumf %in0, %c0 : f32
      linalg.yield %r : f32
    } -> tensor<2x8x64xf32>
    %v240 = tensor.collapse_shape %v239 [[0, 1], [2]] : tensor<2x8x64xf32> into tensor<16x64xf32>
    %v241 = tensor.empty() : tensor<16x32xf32>
    %v242 = linalg.fill ins(%c0 : f32) outs(%v241 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v243 = linalg.matmul ins(%v240, %a25 : tensor<16x64xf32>, tensor<64x32xf32>) outs(%v242 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %v244 = tensor.expand_shape %v243 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
    %v245 = tensor.empty() : tensor<2x8x32xf32>
    %v246 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v232, %v244 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%v245 : tensor<2x8x32xf32>) {
    ^bb0(%in0: f32, %in1: f32, %out: f32):
      %r = arith.addf %in0, %in1 : f32
      linalg.yield %r : f32
    } -> tensor<2x8x32xf32>
    return %v246 : tensor<2x8x32xf32>
  }
}
