// Attention in TOSA (lowered by the pipeline's tosa-to-linalg first), b = 2,
// s = 8, a = 4, a_kv = 2, d = 8, Q/K/V token-major [b, s, heads, d]:
//   1. K/V repeated by tosa.concat of the heads with themselves (a tile:
//      query head h reads K/V head h mod a_kv; insert_slices after
//      lowering), scores tosa.matmul on [b*a, s, d] reshaped to
//      [b, a, s, t], a key-padding mask [b, t] reshaped to [b, 1, 1, t] and
//      added, softmax on rank 4 with tosa.reduce_max (nan_mode IGNORE),
//      tosa.sub, tosa.exp, tosa.reduce_sum, tosa.reciprocal, tosa.mul;
//   2. K/V repeated by tosa.tile of [b, a_kv, 1, t, d] (h floordiv r),
//      causal by a [1, s, t] constant of 0 / -1e9, softmax in log-sum-exp
//      form: exp(x - (max + log(sum(exp(x - max))))).
func.func @forward(%q: tensor<2x8x4x8xf32> {seqpar.seq_dim = 1 : i64},
                   %k: tensor<2x8x2x8xf32> {seqpar.seq_dim = 1 : i64},
                   %v: tensor<2x8x2x8xf32> {seqpar.seq_dim = 1 : i64},
                   %pad: tensor<2x8xf32>) -> (tensor<2x8x4x8xf32>, tensor<2x8x4x8xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %scale = "tosa.const"() <{values = dense<3.535533906e-01> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %causal = "tosa.const"() <{values = dense<[[
    [0.0, -1.0e9, -1.0e9, -1.0e9, -1.0e9, -1.0e9, -1.0e9, -1.0e9],
    [0.0, 0.0, -1.0e9, -1.0e9, -1.0e9, -1.0e9, -1.0e9, -1.0e9],
    [0.0, 0.0, 0.0, -1.0e9, -1.0e9, -1.0e9, -1.0e9, -1.0e9],
    [0.0, 0.0, 0.0, 0.0, -1.0e9, -1.0e9, -1.0e9, -1.0e9],
    [0.0, 0.0, 0.0, 0.0, 0.0, -1.0e9, -1.0e9, -1.0e9],
    [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0e9, -1.0e9],
    [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0e9],
    [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]]> : tensor<1x8x8xf32>}> : () -> tensor<1x8x8xf32>
  %qh = tosa.transpose %q {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x4x8xf32>) -> tensor<2x4x8x8xf32>
  %kh = tosa.transpose %k {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x2x8xf32>) -> tensor<2x2x8x8xf32>
  %vh = tosa.transpose %v {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x2x8xf32>) -> tensor<2x2x8x8xf32>
  %s3 = tosa.const_shape {values = dense<[8, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4 = tosa.const_shape {values = dense<[2, 4, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s5 = tosa.const_shape {values = dense<[2, 2, 1, 8, 8]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %q3 = tosa.reshape %qh, %s3 : (tensor<2x4x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>

  // 1. concat (tile), key padding, rank-4 softmax.
  %kt = tosa.concat %kh, %kh {axis = 1 : i32} : (tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) -> tensor<2x4x8x8xf32>
  %vt = tosa.concat %vh, %vh {axis = 1 : i32} : (tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) -> tensor<2x4x8x8xf32>
  %kt3 = tosa.reshape %kt, %s3 : (tensor<2x4x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
  %vt3 = tosa.reshape %vt, %s3 : (tensor<2x4x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
  %ktt = tosa.transpose %kt3 {perms = array<i32: 0, 2, 1>} : (tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %sc1 = tosa.matmul %q3, %ktt, %zp, %zp : (tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x8x8xf32>
  %sc1s = tosa.mul %sc1, %scale, %shift : (tensor<8x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<8x8x8xf32>
  %sc14 = tosa.reshape %sc1s, %s4 : (tensor<8x8x8xf32>, !tosa.shape<4>) -> tensor<2x4x8x8xf32>
  %sp = tosa.const_shape {values = dense<[2, 1, 1, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %pad4 = tosa.reshape %pad, %sp : (tensor<2x8xf32>, !tosa.shape<4>) -> tensor<2x1x1x8xf32>
  %l1 = tosa.add %sc14, %pad4 : (tensor<2x4x8x8xf32>, tensor<2x1x1x8xf32>) -> tensor<2x4x8x8xf32>
  %m1 = tosa.reduce_max %l1 {axis = 3 : i32, nan_mode = "IGNORE"} : (tensor<2x4x8x8xf32>) -> tensor<2x4x8x1xf32>
  %d1 = tosa.sub %l1, %m1 : (tensor<2x4x8x8xf32>, tensor<2x4x8x1xf32>) -> tensor<2x4x8x8xf32>
  %e1 = tosa.exp %d1 : (tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %sum1 = tosa.reduce_sum %e1 {axis = 3 : i32} : (tensor<2x4x8x8xf32>) -> tensor<2x4x8x1xf32>
  %r1 = tosa.reciprocal %sum1 : (tensor<2x4x8x1xf32>) -> tensor<2x4x8x1xf32>
  %p1 = tosa.mul %e1, %r1, %shift : (tensor<2x4x8x8xf32>, tensor<2x4x8x1xf32>, tensor<1xi8>) -> tensor<2x4x8x8xf32>
  %p13 = tosa.reshape %p1, %s3 : (tensor<2x4x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
  %o13 = tosa.matmul %p13, %vt3, %zp, %zp : (tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x8x8xf32>
  %o14 = tosa.reshape %o13, %s4 : (tensor<8x8x8xf32>, !tosa.shape<4>) -> tensor<2x4x8x8xf32>
  %o1 = tosa.transpose %o14 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x4x8x8xf32>) -> tensor<2x8x4x8xf32>

  // 2. tile (repeat), causal constant, log-sum-exp.
  %mult = tosa.const_shape {values = dense<[1, 1, 2, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %k5 = tosa.reshape %kh, %s5 : (tensor<2x2x8x8xf32>, !tosa.shape<5>) -> tensor<2x2x1x8x8xf32>
  %v5 = tosa.reshape %vh, %s5 : (tensor<2x2x8x8xf32>, !tosa.shape<5>) -> tensor<2x2x1x8x8xf32>
  %kr5 = tosa.tile %k5, %mult : (tensor<2x2x1x8x8xf32>, !tosa.shape<5>) -> tensor<2x2x2x8x8xf32>
  %vr5 = tosa.tile %v5, %mult : (tensor<2x2x1x8x8xf32>, !tosa.shape<5>) -> tensor<2x2x2x8x8xf32>
  %kr3 = tosa.reshape %kr5, %s3 : (tensor<2x2x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
  %vr3 = tosa.reshape %vr5, %s3 : (tensor<2x2x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
  %krt = tosa.transpose %kr3 {perms = array<i32: 0, 2, 1>} : (tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %sc2 = tosa.matmul %q3, %krt, %zp, %zp : (tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x8x8xf32>
  %sc2s = tosa.mul %sc2, %scale, %shift : (tensor<8x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<8x8x8xf32>
  %l2 = tosa.add %sc2s, %causal : (tensor<8x8x8xf32>, tensor<1x8x8xf32>) -> tensor<8x8x8xf32>
  %m2 = tosa.reduce_max %l2 {axis = 2 : i32} : (tensor<8x8x8xf32>) -> tensor<8x8x1xf32>
  %d2 = tosa.sub %l2, %m2 : (tensor<8x8x8xf32>, tensor<8x8x1xf32>) -> tensor<8x8x8xf32>
  %e2 = tosa.exp %d2 : (tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %sum2 = tosa.reduce_sum %e2 {axis = 2 : i32} : (tensor<8x8x8xf32>) -> tensor<8x8x1xf32>
  %log2 = tosa.log %sum2 : (tensor<8x8x1xf32>) -> tensor<8x8x1xf32>
  %lse2 = tosa.add %m2, %log2 : (tensor<8x8x1xf32>, tensor<8x8x1xf32>) -> tensor<8x8x1xf32>
  %x2 = tosa.sub %l2, %lse2 : (tensor<8x8x8xf32>, tensor<8x8x1xf32>) -> tensor<8x8x8xf32>
  %p2 = tosa.exp %x2 : (tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %o23 = tosa.matmul %p2, %vr3, %zp, %zp : (tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x8x8xf32>
  %o24 = tosa.reshape %o23, %s4 : (tensor<8x8x8xf32>, !tosa.shape<4>) -> tensor<2x4x8x8xf32>
  %o2 = tosa.transpose %o24 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x4x8x8xf32>) -> tensor<2x8x4x8xf32>
  return %o1, %o2 : tensor<2x8x4x8xf32>, tensor<2x8x4x8xf32>
}
