// BERT post-norm block, tosa + linalg matmuls on [b*s, h]: per-rank TP program, t=2.
module {
  shard.grid @grid(shape = 2) {sym_visibility = "private"}
  func.func @forward(
      %x: tensor<2x8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>, seqpar.seq_dim = 1 : i64},
      %mask: tensor<2x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l0_w_q: tensor<16x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l0_b_q: tensor<8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l0_w_k: tensor<16x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l0_b_k: tensor<8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l0_w_v: tensor<16x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l0_b_v: tensor<8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l0_w_o: tensor<8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l0_b_o: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l0_ln1_g: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l0_ln1_b: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l0_w_i: tensor<16x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>},
      %l0_b_i: tensor<32xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l0_w_out: tensor<32x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>},
      %l0_b_out: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l0_ln2_g: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
      %l0_ln2_b: tensor<16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
      -> (tensor<2x8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
    %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %shp1 = tosa.const_shape {values = dense<[2, 1, 1, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %rs2 = tosa.reshape %mask, %shp1 : (tensor<2x8xf32>, !tosa.shape<4>) -> tensor<2x1x1x8xf32>
    %shp3 = tosa.const_shape {values = dense<[16, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %rs4 = tosa.reshape %x, %shp3 : (tensor<2x8x16xf32>, !tosa.shape<2>) -> tensor<16x16xf32>
    %c5 = arith.constant 0.000000000e+00 : f32
    %e6 = tensor.empty() : tensor<16x8xf32>
    %f7 = linalg.fill ins(%c5 : f32) outs(%e6 : tensor<16x8xf32>) -> tensor<16x8xf32>
    %mm8 = linalg.matmul ins(%rs4, %l0_w_q : tensor<16x16xf32>, tensor<16x8xf32>) outs(%f7 : tensor<16x8xf32>) -> tensor<16x8xf32>
    %shp9 = tosa.const_shape {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %rs10 = tosa.reshape %l0_b_q, %shp9 : (tensor<8xf32>, !tosa.shape<2>) -> tensor<1x8xf32>
    %add11 = tosa.add %mm8, %rs10 : (tensor<16x8xf32>, tensor<1x8xf32>) -> tensor<16x8xf32>
    %shp12 = tosa.const_shape {values = dense<[2, 8, 2, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %rs13 = tosa.reshape %add11, %shp12 : (tensor<16x8xf32>, !tosa.shape<4>) -> tensor<2x8x2x4xf32>
    %tt14 = tosa.transpose %rs13 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x2x4xf32>) -> tensor<2x2x8x4xf32>
    %c15 = arith.constant 0.000000000e+00 : f32
    %e16 = tensor.empty() : tensor<16x8xf32>
    %f17 = linalg.fill ins(%c15 : f32) outs(%e16 : tensor<16x8xf32>) -> tensor<16x8xf32>
    %mm18 = linalg.matmul ins(%rs4, %l0_w_k : tensor<16x16xf32>, tensor<16x8xf32>) outs(%f17 : tensor<16x8xf32>) -> tensor<16x8xf32>
    %shp19 = tosa.const_shape {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %rs20 = tosa.reshape %l0_b_k, %shp19 : (tensor<8xf32>, !tosa.shape<2>) -> tensor<1x8xf32>
    %add21 = tosa.add %mm18, %rs20 : (tensor<16x8xf32>, tensor<1x8xf32>) -> tensor<16x8xf32>
    %shp22 = tosa.const_shape {values = dense<[2, 8, 2, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %rs23 = tosa.reshape %add21, %shp22 : (tensor<16x8xf32>, !tosa.shape<4>) -> tensor<2x8x2x4xf32>
    %tt24 = tosa.transpose %rs23 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x2x4xf32>) -> tensor<2x2x8x4xf32>
    %c25 = arith.constant 0.000000000e+00 : f32
    %e26 = tensor.empty() : tensor<16x8xf32>
    %f27 = linalg.fill ins(%c25 : f32) outs(%e26 : tensor<16x8xf32>) -> tensor<16x8xf32>
    %mm28 = linalg.matmul ins(%rs4, %l0_w_v : tensor<16x16xf32>, tensor<16x8xf32>) outs(%f27 : tensor<16x8xf32>) -> tensor<16x8xf32>
    %shp29 = tosa.const_shape {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %rs30 = tosa.reshape %l0_b_v, %shp29 : (tensor<8xf32>, !tosa.shape<2>) -> tensor<1x8xf32>
    %add31 = tosa.add %mm28, %rs30 : (tensor<16x8xf32>, tensor<1x8xf32>) -> tensor<16x8xf32>
    %shp32 = tosa.const_shape {values = dense<[2, 8, 2, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %rs33 = tosa.reshape %add31, %shp32 : (tensor<16x8xf32>, !tosa.shape<4>) -> tensor<2x8x2x4xf32>
    %tt34 = tosa.transpose %rs33 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x2x4xf32>) -> tensor<2x2x8x4xf32>
    %tt35 = tosa.transpose %tt24 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x2x8x4xf32>) -> tensor<2x2x4x8xf32>
    %shp36 = tosa.const_shape {values = dense<[4, 4, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %rs37 = tosa.reshape %tt35, %shp36 : (tensor<2x2x4x8xf32>, !tosa.shape<3>) -> tensor<4x4x8xf32>
    %shp38 = tosa.const_shape {values = dense<[4, 8, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %rs39 = tosa.reshape %tt14, %shp38 : (tensor<2x2x8x4xf32>, !tosa.shape<3>) -> tensor<4x8x4xf32>
    %c40 = arith.constant 0.000000000e+00 : f32
    %e41 = tensor.empty() : tensor<4x8x8xf32>
    %f42 = linalg.fill ins(%c40 : f32) outs(%e41 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %mm43 = linalg.batch_matmul ins(%rs39, %rs37 : tensor<4x8x4xf32>, tensor<4x4x8xf32>) outs(%f42 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %shp44 = tosa.const_shape {values = dense<[2, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %rs45 = tosa.reshape %mm43, %shp44 : (tensor<4x8x8xf32>, !tosa.shape<4>) -> tensor<2x2x8x8xf32>
    %k46 = "tosa.const"() <{values = dense<5.000000000e-01> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %mul47 = tosa.mul %rs45, %k46, %shift : (tensor<2x2x8x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x2x8x8xf32>
    %add48 = tosa.add %mul47, %rs2 : (tensor<2x2x8x8xf32>, tensor<2x1x1x8xf32>) -> tensor<2x2x8x8xf32>
    %reduce_max49 = tosa.reduce_max %add48 {axis = 3 : i32} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x1xf32>
    %sub50 = tosa.sub %add48, %reduce_max49 : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
    %exp51 = tosa.exp %sub50 : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
    %reduce_sum52 = tosa.reduce_sum %exp51 {axis = 3 : i32} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x1xf32>
    %reciprocal53 = tosa.reciprocal %reduce_sum52 : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
    %mul54 = tosa.mul %exp51, %reciprocal53, %shift : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>, tensor<1xi8>) -> tensor<2x2x8x8xf32>
    %shp55 = tosa.const_shape {values = dense<[4, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %rs56 = tosa.reshape %mul54, %shp55 : (tensor<2x2x8x8xf32>, !tosa.shape<3>) -> tensor<4x8x8xf32>
    %shp57 = tosa.const_shape {values = dense<[4, 8, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %rs58 = tosa.reshape %tt34, %shp57 : (tensor<2x2x8x4xf32>, !tosa.shape<3>) -> tensor<4x8x4xf32>
    %c59 = arith.constant 0.000000000e+00 : f32
    %e60 = tensor.empty() : tensor<4x8x4xf32>
    %f61 = linalg.fill ins(%c59 : f32) outs(%e60 : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
    %mm62 = linalg.batch_matmul ins(%rs56, %rs58 : tensor<4x8x8xf32>, tensor<4x8x4xf32>) outs(%f61 : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
    %shp63 = tosa.const_shape {values = dense<[2, 2, 8, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %rs64 = tosa.reshape %mm62, %shp63 : (tensor<4x8x4xf32>, !tosa.shape<4>) -> tensor<2x2x8x4xf32>
    %tt65 = tosa.transpose %rs64 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x2x8x4xf32>) -> tensor<2x8x2x4xf32>
    %shp66 = tosa.const_shape {values = dense<[16, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %rs67 = tosa.reshape %tt65, %shp66 : (tensor<2x8x2x4xf32>, !tosa.shape<2>) -> tensor<16x8xf32>
    %c68 = arith.constant 0.000000000e+00 : f32
    %e69 = tensor.empty() : tensor<16x16xf32>
    %f70 = linalg.fill ins(%c68 : f32) outs(%e69 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %mm71 = linalg.matmul ins(%rs67, %l0_w_o : tensor<16x8xf32>, tensor<8x16xf32>) outs(%f70 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %ar72 = shard.all_reduce %mm71 on @grid grid_axes = [0] : tensor<16x16xf32> -> tensor<16x16xf32>
    %shp73 = tosa.const_shape {values = dense<[1, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %rs74 = tosa.reshape %l0_b_o, %shp73 : (tensor<16xf32>, !tosa.shape<2>) -> tensor<1x16xf32>
    %add75 = tosa.add %ar72, %rs74 : (tensor<16x16xf32>, tensor<1x16xf32>) -> tensor<16x16xf32>
    %shp76 = tosa.const_shape {values = dense<[2, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %rs77 = tosa.reshape %add75, %shp76 : (tensor<16x16xf32>, !tosa.shape<3>) -> tensor<2x8x16xf32>
    %add78 = tosa.add %rs77, %x : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %reduce_sum79 = tosa.reduce_sum %add78 {axis = 2 : i32} : (tensor<2x8x16xf32>) -> tensor<2x8x1xf32>
    %k80 = "tosa.const"() <{values = dense<6.250000000e-02> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %mul81 = tosa.mul %reduce_sum79, %k80, %shift : (tensor<2x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x1xf32>
    %sub82 = tosa.sub %add78, %mul81 : (tensor<2x8x16xf32>, tensor<2x8x1xf32>) -> tensor<2x8x16xf32>
    %mul83 = tosa.mul %sub82, %sub82, %shift : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<1xi8>) -> tensor<2x8x16xf32>
    %reduce_sum84 = tosa.reduce_sum %mul83 {axis = 2 : i32} : (tensor<2x8x16xf32>) -> tensor<2x8x1xf32>
    %mul85 = tosa.mul %reduce_sum84, %k80, %shift : (tensor<2x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x1xf32>
    %k86 = "tosa.const"() <{values = dense<1.000000000e-12> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %add87 = tosa.add %mul85, %k86 : (tensor<2x8x1xf32>, tensor<1x1x1xf32>) -> tensor<2x8x1xf32>
    %rsqrt88 = tosa.rsqrt %add87 : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %mul89 = tosa.mul %sub82, %rsqrt88, %shift : (tensor<2x8x16xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x16xf32>
    %shp90 = tosa.const_shape {values = dense<[1, 1, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %rs91 = tosa.reshape %l0_ln1_g, %shp90 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %mul92 = tosa.mul %mul89, %rs91, %shift : (tensor<2x8x16xf32>, tensor<1x1x16xf32>, tensor<1xi8>) -> tensor<2x8x16xf32>
    %shp93 = tosa.const_shape {values = dense<[1, 1, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %rs94 = tosa.reshape %l0_ln1_b, %shp93 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %add95 = tosa.add %mul92, %rs94 : (tensor<2x8x16xf32>, tensor<1x1x16xf32>) -> tensor<2x8x16xf32>
    %shp96 = tosa.const_shape {values = dense<[16, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %rs97 = tosa.reshape %add95, %shp96 : (tensor<2x8x16xf32>, !tosa.shape<2>) -> tensor<16x16xf32>
    %c98 = arith.constant 0.000000000e+00 : f32
    %e99 = tensor.empty() : tensor<16x32xf32>
    %f100 = linalg.fill ins(%c98 : f32) outs(%e99 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %mm101 = linalg.matmul ins(%rs97, %l0_w_i : tensor<16x16xf32>, tensor<16x32xf32>) outs(%f100 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %shp102 = tosa.const_shape {values = dense<[1, 32]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %rs103 = tosa.reshape %l0_b_i, %shp102 : (tensor<32xf32>, !tosa.shape<2>) -> tensor<1x32xf32>
    %add104 = tosa.add %mm101, %rs103 : (tensor<16x32xf32>, tensor<1x32xf32>) -> tensor<16x32xf32>
    %mul105 = tosa.mul %add104, %add104, %shift : (tensor<16x32xf32>, tensor<16x32xf32>, tensor<1xi8>) -> tensor<16x32xf32>
    %mul106 = tosa.mul %mul105, %add104, %shift : (tensor<16x32xf32>, tensor<16x32xf32>, tensor<1xi8>) -> tensor<16x32xf32>
    %k107 = "tosa.const"() <{values = dense<4.471500000e-02> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %mul108 = tosa.mul %mul106, %k107, %shift : (tensor<16x32xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<16x32xf32>
    %add109 = tosa.add %add104, %mul108 : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %k110 = "tosa.const"() <{values = dense<7.978845608e-01> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %mul111 = tosa.mul %add109, %k110, %shift : (tensor<16x32xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<16x32xf32>
    %k112 = "tosa.const"() <{values = dense<5.000000000e-01> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %mul113 = tosa.mul %add104, %k112, %shift : (tensor<16x32xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<16x32xf32>
    %tanh114 = tosa.tanh %mul111 : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %k115 = "tosa.const"() <{values = dense<1.000000000e+00> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %add116 = tosa.add %tanh114, %k115 : (tensor<16x32xf32>, tensor<1x1xf32>) -> tensor<16x32xf32>
    %mul117 = tosa.mul %mul113, %add116, %shift : (tensor<16x32xf32>, tensor<16x32xf32>, tensor<1xi8>) -> tensor<16x32xf32>
    %c118 = arith.constant 0.000000000e+00 : f32
    %e119 = tensor.empty() : tensor<16x16xf32>
    %f120 = linalg.fill ins(%c118 : f32) outs(%e119 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %mm121 = linalg.matmul ins(%mul117, %l0_w_out : tensor<16x32xf32>, tensor<32x16xf32>) outs(%f120 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %ar122 = shard.all_reduce %mm121 on @grid grid_axes = [0] : tensor<16x16xf32> -> tensor<16x16xf32>
    %shp123 = tosa.const_shape {values = dense<[1, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %rs124 = tosa.reshape %l0_b_out, %shp123 : (tensor<16xf32>, !tosa.shape<2>) -> tensor<1x16xf32>
    %add125 = tosa.add %ar122, %rs124 : (tensor<16x16xf32>, tensor<1x16xf32>) -> tensor<16x16xf32>
    %shp126 = tosa.const_shape {values = dense<[2, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %rs127 = tosa.reshape %add125, %shp126 : (tensor<16x16xf32>, !tosa.shape<3>) -> tensor<2x8x16xf32>
    %add128 = tosa.add %rs127, %add95 : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %reduce_sum129 = tosa.reduce_sum %add128 {axis = 2 : i32} : (tensor<2x8x16xf32>) -> tensor<2x8x1xf32>
    %mul130 = tosa.mul %reduce_sum129, %k80, %shift : (tensor<2x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x1xf32>
    %sub131 = tosa.sub %add128, %mul130 : (tensor<2x8x16xf32>, tensor<2x8x1xf32>) -> tensor<2x8x16xf32>
    %mul132 = tosa.mul %sub131, %sub131, %shift : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<1xi8>) -> tensor<2x8x16xf32>
    %reduce_sum133 = tosa.reduce_sum %mul132 {axis = 2 : i32} : (tensor<2x8x16xf32>) -> tensor<2x8x1xf32>
    %mul134 = tosa.mul %reduce_sum133, %k80, %shift : (tensor<2x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x1xf32>
    %add135 = tosa.add %mul134, %k86 : (tensor<2x8x1xf32>, tensor<1x1x1xf32>) -> tensor<2x8x1xf32>
    %rsqrt136 = tosa.rsqrt %add135 : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %mul137 = tosa.mul %sub131, %rsqrt136, %shift : (tensor<2x8x16xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x16xf32>
    %shp138 = tosa.const_shape {values = dense<[1, 1, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %rs139 = tosa.reshape %l0_ln2_g, %shp138 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %mul140 = tosa.mul %mul137, %rs139, %shift : (tensor<2x8x16xf32>, tensor<1x1x16xf32>, tensor<1xi8>) -> tensor<2x8x16xf32>
    %shp141 = tosa.const_shape {values = dense<[1, 1, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %rs142 = tosa.reshape %l0_ln2_b, %shp141 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %add143 = tosa.add %mul140, %rs142 : (tensor<2x8x16xf32>, tensor<1x1x16xf32>) -> tensor<2x8x16xf32>
    return %add143 : tensor<2x8x16xf32>
  }
}
