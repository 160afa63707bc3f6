// Qwen2-style layer in tosa (s=7, for pad=true): per-rank TP program, t=4.
module {
  shard.grid @grid(shape = 4) {sym_visibility = "private"}
  func.func @forward(
      %x: tensor<2x7x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>, seqpar.seq_dim = 1 : i64},
      %in_norm_g: tensor<32xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %w_q: tensor<32x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %b_q: tensor<8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %w_k: tensor<32x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %b_k: tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %w_v: tensor<32x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %b_v: tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %w_o: tensor<8x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %post_norm_g: tensor<32xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %w_gate: tensor<32x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %w_up: tensor<32x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %w_down: tensor<16x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>})
      -> (tensor<2x7x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
    %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %cos_tab = "tosa.const"() <{values = dense<[[[[1.000000000e+00, 1.000000000e+00, 1.000000000e+00, 1.000000000e+00], [5.403023059e-01, 9.999500004e-01, 5.403023059e-01, 9.999500004e-01], [-4.161468365e-01, 9.998000067e-01, -4.161468365e-01, 9.998000067e-01], [-9.899924966e-01, 9.995500337e-01, -9.899924966e-01, 9.995500337e-01], [-6.536436209e-01, 9.992001067e-01, -6.536436209e-01, 9.992001067e-01], [2.836621855e-01, 9.987502604e-01, 2.836621855e-01, 9.987502604e-01], [9.601702867e-01, 9.982005399e-01, 9.601702867e-01, 9.982005399e-01]]]]> : tensor<1x1x7x4xf32>}> : () -> tensor<1x1x7x4xf32>
    %sin_tab = "tosa.const"() <{values = dense<[[[[0.000000000e+00, 0.000000000e+00, 0.000000000e+00, 0.000000000e+00], [8.414709848e-01, 9.999833334e-03, 8.414709848e-01, 9.999833334e-03], [9.092974268e-01, 1.999866669e-02, 9.092974268e-01, 1.999866669e-02], [1.411200081e-01, 2.999550020e-02, 1.411200081e-01, 2.999550020e-02], [-7.568024953e-01, 3.998933419e-02, -7.568024953e-01, 3.998933419e-02], [-9.589242747e-01, 4.997916927e-02, -9.589242747e-01, 4.997916927e-02], [-2.794154982e-01, 5.996400648e-02, -2.794154982e-01, 5.996400648e-02]]]]> : tensor<1x1x7x4xf32>}> : () -> tensor<1x1x7x4xf32>
    %k1 = "tosa.const"() <{values = dense<2.000000000e+00> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %pw2 = tosa.pow %x, %k1 : (tensor<2x7x32xf32>, tensor<1x1x1xf32>) -> tensor<2x7x32xf32>
    %reduce_sum3 = tosa.reduce_sum %pw2 {axis = 2 : i32} : (tensor<2x7x32xf32>) -> tensor<2x7x1xf32>
    %k4 = "tosa.const"() <{values = dense<3.125000000e-02> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %mul5 = tosa.mul %reduce_sum3, %k4, %shift : (tensor<2x7x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x7x1xf32>
    %k6 = "tosa.const"() <{values = dense<1.000000000e-06> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %add7 = tosa.add %mul5, %k6 : (tensor<2x7x1xf32>, tensor<1x1x1xf32>) -> tensor<2x7x1xf32>
    %rsqrt8 = tosa.rsqrt %add7 : (tensor<2x7x1xf32>) -> tensor<2x7x1xf32>
    %mul9 = tosa.mul %x, %rsqrt8, %shift : (tensor<2x7x32xf32>, tensor<2x7x1xf32>, tensor<1xi8>) -> tensor<2x7x32xf32>
    %shp10 = tosa.const_shape {values = dense<[1, 1, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %rs11 = tosa.reshape %in_norm_g, %shp10 : (tensor<32xf32>, !tosa.shape<3>) -> tensor<1x1x32xf32>
    %mul12 = tosa.mul %mul9, %rs11, %shift : (tensor<2x7x32xf32>, tensor<1x1x32xf32>, tensor<1xi8>) -> tensor<2x7x32xf32>
    %shp13 = tosa.const_shape {values = dense<[14, 32]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %rs14 = tosa.reshape %mul12, %shp13 : (tensor<2x7x32xf32>, !tosa.shape<2>) -> tensor<14x32xf32>
    %c15 = arith.constant 0.000000000e+00 : f32
    %e16 = tensor.empty() : tensor<14x8xf32>
    %f17 = linalg.fill ins(%c15 : f32) outs(%e16 : tensor<14x8xf32>) -> tensor<14x8xf32>
    %mm18 = linalg.matmul ins(%rs14, %w_q : tensor<14x32xf32>, tensor<32x8xf32>) outs(%f17 : tensor<14x8xf32>) -> tensor<14x8xf32>
    %shp19 = tosa.const_shape {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %rs20 = tosa.reshape %b_q, %shp19 : (tensor<8xf32>, !tosa.shape<2>) -> tensor<1x8xf32>
    %add21 = tosa.add %mm18, %rs20 : (tensor<14x8xf32>, tensor<1x8xf32>) -> tensor<14x8xf32>
    %shp22 = tosa.const_shape {values = dense<[2, 7, 2, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %rs23 = tosa.reshape %add21, %shp22 : (tensor<14x8xf32>, !tosa.shape<4>) -> tensor<2x7x2x4xf32>
    %tt24 = tosa.transpose %rs23 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x7x2x4xf32>) -> tensor<2x2x7x4xf32>
    %st25 = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %sz26 = tosa.const_shape {values = dense<[2, 2, 7, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %ts27 = tosa.slice %tt24, %st25, %sz26 : (tensor<2x2x7x4xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<2x2x7x2xf32>
    %st28 = tosa.const_shape {values = dense<[0, 0, 0, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %sz29 = tosa.const_shape {values = dense<[2, 2, 7, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %ts30 = tosa.slice %tt24, %st28, %sz29 : (tensor<2x2x7x4xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<2x2x7x2xf32>
    %k31 = "tosa.const"() <{values = dense<0.000000000e+00> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %sub32 = tosa.sub %k31, %ts30 : (tensor<1x1x1x1xf32>, tensor<2x2x7x2xf32>) -> tensor<2x2x7x2xf32>
    %tc33 = tosa.concat %sub32, %ts27 {axis = 3 : i32} : (tensor<2x2x7x2xf32>, tensor<2x2x7x2xf32>) -> tensor<2x2x7x4xf32>
    %mul34 = tosa.mul %tt24, %cos_tab, %shift : (tensor<2x2x7x4xf32>, tensor<1x1x7x4xf32>, tensor<1xi8>) -> tensor<2x2x7x4xf32>
    %mul35 = tosa.mul %tc33, %sin_tab, %shift : (tensor<2x2x7x4xf32>, tensor<1x1x7x4xf32>, tensor<1xi8>) -> tensor<2x2x7x4xf32>
    %add36 = tosa.add %mul34, %mul35 : (tensor<2x2x7x4xf32>, tensor<2x2x7x4xf32>) -> tensor<2x2x7x4xf32>
    %c37 = arith.constant 0.000000000e+00 : f32
    %e38 = tensor.empty() : tensor<14x4xf32>
    %f39 = linalg.fill ins(%c37 : f32) outs(%e38 : tensor<14x4xf32>) -> tensor<14x4xf32>
    %mm40 = linalg.matmul ins(%rs14, %w_k : tensor<14x32xf32>, tensor<32x4xf32>) outs(%f39 : tensor<14x4xf32>) -> tensor<14x4xf32>
    %shp41 = tosa.const_shape {values = dense<[1, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %rs42 = tosa.reshape %b_k, %shp41 : (tensor<4xf32>, !tosa.shape<2>) -> tensor<1x4xf32>
    %add43 = tosa.add %mm40, %rs42 : (tensor<14x4xf32>, tensor<1x4xf32>) -> tensor<14x4xf32>
    %shp44 = tosa.const_shape {values = dense<[2, 7, 1, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %rs45 = tosa.reshape %add43, %shp44 : (tensor<14x4xf32>, !tosa.shape<4>) -> tensor<2x7x1x4xf32>
    %tt46 = tosa.transpose %rs45 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x7x1x4xf32>) -> tensor<2x1x7x4xf32>
    %st47 = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %sz48 = tosa.const_shape {values = dense<[2, 1, 7, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %ts49 = tosa.slice %tt46, %st47, %sz48 : (tensor<2x1x7x4xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<2x1x7x2xf32>
    %st50 = tosa.const_shape {values = dense<[0, 0, 0, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %sz51 = tosa.const_shape {values = dense<[2, 1, 7, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %ts52 = tosa.slice %tt46, %st50, %sz51 : (tensor<2x1x7x4xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<2x1x7x2xf32>
    %sub53 = tosa.sub %k31, %ts52 : (tensor<1x1x1x1xf32>, tensor<2x1x7x2xf32>) -> tensor<2x1x7x2xf32>
    %tc54 = tosa.concat %sub53, %ts49 {axis = 3 : i32} : (tensor<2x1x7x2xf32>, tensor<2x1x7x2xf32>) -> tensor<2x1x7x4xf32>
    %mul55 = tosa.mul %tt46, %cos_tab, %shift : (tensor<2x1x7x4xf32>, tensor<1x1x7x4xf32>, tensor<1xi8>) -> tensor<2x1x7x4xf32>
    %mul56 = tosa.mul %tc54, %sin_tab, %shift : (tensor<2x1x7x4xf32>, tensor<1x1x7x4xf32>, tensor<1xi8>) -> tensor<2x1x7x4xf32>
    %add57 = tosa.add %mul55, %mul56 : (tensor<2x1x7x4xf32>, tensor<2x1x7x4xf32>) -> tensor<2x1x7x4xf32>
    %c58 = arith.constant 0.000000000e+00 : f32
    %e59 = tensor.empty() : tensor<14x4xf32>
    %f60 = linalg.fill ins(%c58 : f32) outs(%e59 : tensor<14x4xf32>) -> tensor<14x4xf32>
    %mm61 = linalg.matmul ins(%rs14, %w_v : tensor<14x32xf32>, tensor<32x4xf32>) outs(%f60 : tensor<14x4xf32>) -> tensor<14x4xf32>
    %shp62 = tosa.const_shape {values = dense<[1, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %rs63 = tosa.reshape %b_v, %shp62 : (tensor<4xf32>, !tosa.shape<2>) -> tensor<1x4xf32>
    %add64 = tosa.add %mm61, %rs63 : (tensor<14x4xf32>, tensor<1x4xf32>) -> tensor<14x4xf32>
    %shp65 = tosa.const_shape {values = dense<[2, 7, 1, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %rs66 = tosa.reshape %add64, %shp65 : (tensor<14x4xf32>, !tosa.shape<4>) -> tensor<2x7x1x4xf32>
    %tt67 = tosa.transpose %rs66 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x7x1x4xf32>) -> tensor<2x1x7x4xf32>
    %shp68 = tosa.const_shape {values = dense<[2, 1, 1, 7, 4]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %rs69 = tosa.reshape %add57, %shp68 : (tensor<2x1x7x4xf32>, !tosa.shape<5>) -> tensor<2x1x1x7x4xf32>
    %mult70 = tosa.const_shape {values = dense<[1, 1, 2, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %tile71 = tosa.tile %rs69, %mult70 : (tensor<2x1x1x7x4xf32>, !tosa.shape<5>) -> tensor<2x1x2x7x4xf32>
    %shp72 = tosa.const_shape {values = dense<[4, 7, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %rs73 = tosa.reshape %tile71, %shp72 : (tensor<2x1x2x7x4xf32>, !tosa.shape<3>) -> tensor<4x7x4xf32>
    %shp74 = tosa.const_shape {values = dense<[2, 1, 1, 7, 4]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %rs75 = tosa.reshape %tt67, %shp74 : (tensor<2x1x7x4xf32>, !tosa.shape<5>) -> tensor<2x1x1x7x4xf32>
    %mult76 = tosa.const_shape {values = dense<[1, 1, 2, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %tile77 = tosa.tile %rs75, %mult76 : (tensor<2x1x1x7x4xf32>, !tosa.shape<5>) -> tensor<2x1x2x7x4xf32>
    %shp78 = tosa.const_shape {values = dense<[4, 7, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %rs79 = tosa.reshape %tile77, %shp78 : (tensor<2x1x2x7x4xf32>, !tosa.shape<3>) -> tensor<4x7x4xf32>
    %shp80 = tosa.const_shape {values = dense<[4, 7, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %rs81 = tosa.reshape %add36, %shp80 : (tensor<2x2x7x4xf32>, !tosa.shape<3>) -> tensor<4x7x4xf32>
    %tt82 = tosa.transpose %rs73 {perms = array<i32: 0, 2, 1>} : (tensor<4x7x4xf32>) -> tensor<4x4x7xf32>
    %zp83 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %tmm84 = tosa.matmul %rs81, %tt82, %zp83, %zp83 : (tensor<4x7x4xf32>, tensor<4x4x7xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x7x7xf32>
    %k85 = "tosa.const"() <{values = dense<5.000000000e-01> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %mul86 = tosa.mul %tmm84, %k85, %shift : (tensor<4x7x7xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x7x7xf32>
    %cmask = "tosa.const"() <{values = dense<[[[0.0, -1.0e+09, -1.0e+09, -1.0e+09, -1.0e+09, -1.0e+09, -1.0e+09], [0.0, 0.0, -1.0e+09, -1.0e+09, -1.0e+09, -1.0e+09, -1.0e+09], [0.0, 0.0, 0.0, -1.0e+09, -1.0e+09, -1.0e+09, -1.0e+09], [0.0, 0.0, 0.0, 0.0, -1.0e+09, -1.0e+09, -1.0e+09], [0.0, 0.0, 0.0, 0.0, 0.0, -1.0e+09, -1.0e+09], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0e+09], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]]> : tensor<1x7x7xf32>}> : () -> tensor<1x7x7xf32>
    %add87 = tosa.add %mul86, %cmask : (tensor<4x7x7xf32>, tensor<1x7x7xf32>) -> tensor<4x7x7xf32>
    %reduce_max88 = tosa.reduce_max %add87 {axis = 2 : i32} : (tensor<4x7x7xf32>) -> tensor<4x7x1xf32>
    %sub89 = tosa.sub %add87, %reduce_max88 : (tensor<4x7x7xf32>, tensor<4x7x1xf32>) -> tensor<4x7x7xf32>
    %exp90 = tosa.exp %sub89 : (tensor<4x7x7xf32>) -> tensor<4x7x7xf32>
    %reduce_sum91 = tosa.reduce_sum %exp90 {axis = 2 : i32} : (tensor<4x7x7xf32>) -> tensor<4x7x1xf32>
    %reciprocal92 = tosa.reciprocal %reduce_sum91 : (tensor<4x7x1xf32>) -> tensor<4x7x1xf32>
    %mul93 = tosa.mul %exp90, %reciprocal92, %shift : (tensor<4x7x7xf32>, tensor<4x7x1xf32>, tensor<1xi8>) -> tensor<4x7x7xf32>
    %tmm94 = tosa.matmul %mul93, %rs79, %zp83, %zp83 : (tensor<4x7x7xf32>, tensor<4x7x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x7x4xf32>
    %shp95 = tosa.const_shape {values = dense<[2, 2, 7, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %rs96 = tosa.reshape %tmm94, %shp95 : (tensor<4x7x4xf32>, !tosa.shape<4>) -> tensor<2x2x7x4xf32>
    %tt97 = tosa.transpose %rs96 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x2x7x4xf32>) -> tensor<2x7x2x4xf32>
    %shp98 = tosa.const_shape {values = dense<[14, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %rs99 = tosa.reshape %tt97, %shp98 : (tensor<2x7x2x4xf32>, !tosa.shape<2>) -> tensor<14x8xf32>
    %c100 = arith.constant 0.000000000e+00 : f32
    %e101 = tensor.empty() : tensor<14x32xf32>
    %f102 = linalg.fill ins(%c100 : f32) outs(%e101 : tensor<14x32xf32>) -> tensor<14x32xf32>
    %mm103 = linalg.matmul ins(%rs99, %w_o : tensor<14x8xf32>, tensor<8x32xf32>) outs(%f102 : tensor<14x32xf32>) -> tensor<14x32xf32>
    %ar104 = shard.all_reduce %mm103 on @grid grid_axes = [0] : tensor<14x32xf32> -> tensor<14x32xf32>
    %shp105 = tosa.const_shape {values = dense<[2, 7, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %rs106 = tosa.reshape %ar104, %shp105 : (tensor<14x32xf32>, !tosa.shape<3>) -> tensor<2x7x32xf32>
    %add107 = tosa.add %x, %rs106 : (tensor<2x7x32xf32>, tensor<2x7x32xf32>) -> tensor<2x7x32xf32>
    %pw108 = tosa.pow %add107, %k1 : (tensor<2x7x32xf32>, tensor<1x1x1xf32>) -> tensor<2x7x32xf32>
    %reduce_sum109 = tosa.reduce_sum %pw108 {axis = 2 : i32} : (tensor<2x7x32xf32>) -> tensor<2x7x1xf32>
    %mul110 = tosa.mul %reduce_sum109, %k4, %shift : (tensor<2x7x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x7x1xf32>
    %add111 = tosa.add %mul110, %k6 : (tensor<2x7x1xf32>, tensor<1x1x1xf32>) -> tensor<2x7x1xf32>
    %rsqrt112 = tosa.rsqrt %add111 : (tensor<2x7x1xf32>) -> tensor<2x7x1xf32>
    %mul113 = tosa.mul %add107, %rsqrt112, %shift : (tensor<2x7x32xf32>, tensor<2x7x1xf32>, tensor<1xi8>) -> tensor<2x7x32xf32>
    %shp114 = tosa.const_shape {values = dense<[1, 1, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %rs115 = tosa.reshape %post_norm_g, %shp114 : (tensor<32xf32>, !tosa.shape<3>) -> tensor<1x1x32xf32>
    %mul116 = tosa.mul %mul113, %rs115, %shift : (tensor<2x7x32xf32>, tensor<1x1x32xf32>, tensor<1xi8>) -> tensor<2x7x32xf32>
    %shp117 = tosa.const_shape {values = dense<[14, 32]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %rs118 = tosa.reshape %mul116, %shp117 : (tensor<2x7x32xf32>, !tosa.shape<2>) -> tensor<14x32xf32>
    %c119 = arith.constant 0.000000000e+00 : f32
    %e120 = tensor.empty() : tensor<14x16xf32>
    %f121 = linalg.fill ins(%c119 : f32) outs(%e120 : tensor<14x16xf32>) -> tensor<14x16xf32>
    %mm122 = linalg.matmul ins(%rs118, %w_gate : tensor<14x32xf32>, tensor<32x16xf32>) outs(%f121 : tensor<14x16xf32>) -> tensor<14x16xf32>
    %c123 = arith.constant 0.000000000e+00 : f32
    %e124 = tensor.empty() : tensor<14x16xf32>
    %f125 = linalg.fill ins(%c123 : f32) outs(%e124 : tensor<14x16xf32>) -> tensor<14x16xf32>
    %mm126 = linalg.matmul ins(%rs118, %w_up : tensor<14x32xf32>, tensor<32x16xf32>) outs(%f125 : tensor<14x16xf32>) -> tensor<14x16xf32>
    %sigmoid127 = tosa.sigmoid %mm122 : (tensor<14x16xf32>) -> tensor<14x16xf32>
    %mul128 = tosa.mul %mm122, %sigmoid127, %shift : (tensor<14x16xf32>, tensor<14x16xf32>, tensor<1xi8>) -> tensor<14x16xf32>
    %mul129 = tosa.mul %mul128, %mm126, %shift : (tensor<14x16xf32>, tensor<14x16xf32>, tensor<1xi8>) -> tensor<14x16xf32>
    %c130 = arith.constant 0.000000000e+00 : f32
    %e131 = tensor.empty() : tensor<14x32xf32>
    %f132 = linalg.fill ins(%c130 : f32) outs(%e131 : tensor<14x32xf32>) -> tensor<14x32xf32>
    %mm133 = linalg.matmul ins(%mul129, %w_down : tensor<14x16xf32>, tensor<16x32xf32>) outs(%f132 : tensor<14x32xf32>) -> tensor<14x32xf32>
    %ar134 = shard.all_reduce %mm133 on @grid grid_axes = [0] : tensor<14x32xf32> -> tensor<14x32xf32>
    %shp135 = tosa.const_shape {values = dense<[2, 7, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %rs136 = tosa.reshape %ar134, %shp135 : (tensor<14x32xf32>, !tosa.shape<3>) -> tensor<2x7x32xf32>
    %add137 = tosa.add %add107, %rs136 : (tensor<2x7x32xf32>, tensor<2x7x32xf32>) -> tensor<2x7x32xf32>
    return %add137 : tensor<2x7x32xf32>
  }
}
