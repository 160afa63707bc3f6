// RUN: seqpar-opt %s --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),seqpar-raise-attention)" -split-input-file -verify-diagnostics | FileCheck %s

// Attention written in TOSA, raised after tosa-to-linalg (as
// seqpar-pipeline lowers it). b = 2, a = 2, a_kv = 1, s = t = 4, d = 4.

// Softmax as tosa.reduce_max (nan_mode IGNORE), sub, exp, reduce_sum,
// reciprocal, mul on [b, a, s, t]; the scale applied on [b*a, s, t] before
// a reshape; a key-padding mask [b, t] reshaped to [b, 1, 1, t] and added;
// K/V (MQA) concatenated with themselves along the heads.
// CHECK-LABEL: func.func @tosa_rank4_softmax
// CHECK: %[[M:.*]] = tensor.expand_shape %arg3
// CHECK: seqpar.attention %{{.*}}, %{{.*}}, %{{.*}} mask(%[[M]] : tensor<2x1x1x4xf32>) {scale = 5.000000e-01 : f32} : tensor<2x2x4x4xf32>, tensor<2x1x4x4xf32>, tensor<2x1x4x4xf32>
func.func @tosa_rank4_softmax(%q: tensor<2x2x4x4xf32>, %k: tensor<2x1x4x4xf32>, %v: tensor<2x1x4x4xf32>, %pad: tensor<2x4xf32>) -> tensor<4x4x4xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %s3 = tosa.const_shape {values = dense<[4, 4, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4 = tosa.const_shape {values = dense<[2, 2, 4, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %sp = tosa.const_shape {values = dense<[2, 1, 1, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %kc = tosa.concat %k, %k {axis = 1 : i32} : (tensor<2x1x4x4xf32>, tensor<2x1x4x4xf32>) -> tensor<2x2x4x4xf32>
  %vc = tosa.concat %v, %v {axis = 1 : i32} : (tensor<2x1x4x4xf32>, tensor<2x1x4x4xf32>) -> tensor<2x2x4x4xf32>
  %q3 = tosa.reshape %q, %s3 : (tensor<2x2x4x4xf32>, !tosa.shape<3>) -> tensor<4x4x4xf32>
  %k3 = tosa.reshape %kc, %s3 : (tensor<2x2x4x4xf32>, !tosa.shape<3>) -> tensor<4x4x4xf32>
  %v3 = tosa.reshape %vc, %s3 : (tensor<2x2x4x4xf32>, !tosa.shape<3>) -> tensor<4x4x4xf32>
  %kt = tosa.transpose %k3 {perms = array<i32: 0, 2, 1>} : (tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %sc = tosa.matmul %q3, %kt, %zp, %zp : (tensor<4x4x4xf32>, tensor<4x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x4x4xf32>
  %scs = tosa.mul %sc, %scale, %shift : (tensor<4x4x4xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x4x4xf32>
  %sc4 = tosa.reshape %scs, %s4 : (tensor<4x4x4xf32>, !tosa.shape<4>) -> tensor<2x2x4x4xf32>
  %pad4 = tosa.reshape %pad, %sp : (tensor<2x4xf32>, !tosa.shape<4>) -> tensor<2x1x1x4xf32>
  %l = tosa.add %sc4, %pad4 : (tensor<2x2x4x4xf32>, tensor<2x1x1x4xf32>) -> tensor<2x2x4x4xf32>
  %m = tosa.reduce_max %l {axis = 3 : i32, nan_mode = "IGNORE"} : (tensor<2x2x4x4xf32>) -> tensor<2x2x4x1xf32>
  %d = tosa.sub %l, %m : (tensor<2x2x4x4xf32>, tensor<2x2x4x1xf32>) -> tensor<2x2x4x4xf32>
  %e = tosa.exp %d : (tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>
  %sum = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<2x2x4x4xf32>) -> tensor<2x2x4x1xf32>
  %r = tosa.reciprocal %sum : (tensor<2x2x4x1xf32>) -> tensor<2x2x4x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x2x4x4xf32>, tensor<2x2x4x1xf32>, tensor<1xi8>) -> tensor<2x2x4x4xf32>
  %p3 = tosa.reshape %p, %s3 : (tensor<2x2x4x4xf32>, !tosa.shape<3>) -> tensor<4x4x4xf32>
  %o = tosa.matmul %p3, %v3, %zp, %zp : (tensor<4x4x4xf32>, tensor<4x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x4x4xf32>
  return %o : tensor<4x4x4xf32>
}

// -----

// Softmax in log-sum-exp form written in TOSA: reduce_max, sub, exp,
// reduce_sum, log, add, sub, exp.
// CHECK-LABEL: func.func @tosa_log_sum_exp
// CHECK: seqpar.attention {{.*}} {scale = 1.000000e+00 : f32}
// CHECK-NOT: math.log
func.func @tosa_log_sum_exp(%q: tensor<4x4x4xf32>, %k: tensor<4x4x4xf32>, %v: tensor<4x4x4xf32>) -> tensor<4x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %l = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x4x4xf32>, tensor<4x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x4x4xf32>
  %m = tosa.reduce_max %l {axis = 2 : i32} : (tensor<4x4x4xf32>) -> tensor<4x4x1xf32>
  %d = tosa.sub %l, %m : (tensor<4x4x4xf32>, tensor<4x4x1xf32>) -> tensor<4x4x4xf32>
  %e = tosa.exp %d : (tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x4x4xf32>) -> tensor<4x4x1xf32>
  %log = tosa.log %sum : (tensor<4x4x1xf32>) -> tensor<4x4x1xf32>
  %lse = tosa.add %m, %log : (tensor<4x4x1xf32>, tensor<4x4x1xf32>) -> tensor<4x4x1xf32>
  %x = tosa.sub %l, %lse : (tensor<4x4x4xf32>, tensor<4x4x1xf32>) -> tensor<4x4x4xf32>
  %p = tosa.exp %x : (tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x4x4xf32>, tensor<4x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x4x4xf32>
  return %o : tensor<4x4x4xf32>
}
