// RUN: seqpar-opt %s -split-input-file -verify-diagnostics | seqpar-opt | FileCheck %s

// CHECK-LABEL: func.func @causal_gqa
// CHECK: seqpar.attention %{{.*}}, %{{.*}}, %{{.*}} {causal, scale = 1.250000e-01 : f32} : tensor<2x8x16x64xf32>, tensor<2x2x16x64xf32>, tensor<2x2x16x64xf32> -> tensor<2x8x16x64xf32>
func.func @causal_gqa(%q: tensor<2x8x16x64xf32>, %k: tensor<2x2x16x64xf32>, %v: tensor<2x2x16x64xf32>) -> tensor<2x8x16x64xf32> {
  %o = seqpar.attention %q, %k, %v {causal, scale = 0.125 : f32}
      : tensor<2x8x16x64xf32>, tensor<2x2x16x64xf32>, tensor<2x2x16x64xf32> -> tensor<2x8x16x64xf32>
  return %o : tensor<2x8x16x64xf32>
}

// CHECK-LABEL: func.func @masked_cross
// CHECK: seqpar.attention %{{.*}}, %{{.*}}, %{{.*}} mask(%{{.*}} : tensor<2x1x4x6xf32>) {scale = 5.000000e-01 : f32}
func.func @masked_cross(%q: tensor<2x4x4x8xf32>, %k: tensor<2x4x6x8xf32>, %v: tensor<2x4x6x8xf32>, %m: tensor<2x1x4x6xf32>) -> tensor<2x4x4x8xf32> {
  %o = seqpar.attention %q, %k, %v mask(%m : tensor<2x1x4x6xf32>) {scale = 0.5 : f32}
      : tensor<2x4x4x8xf32>, tensor<2x4x6x8xf32>, tensor<2x4x6x8xf32> -> tensor<2x4x4x8xf32>
  return %o : tensor<2x4x4x8xf32>
}

// -----

func.func @kv_heads_not_dividing(%q: tensor<1x6x4x8xf32>, %k: tensor<1x4x4x8xf32>) -> tensor<1x6x4x8xf32> {
  // expected-error @+1 {{key/value heads (4) must divide query heads (6)}}
  %o = seqpar.attention %q, %k, %k {scale = 1.0 : f32}
      : tensor<1x6x4x8xf32>, tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32> -> tensor<1x6x4x8xf32>
  return %o : tensor<1x6x4x8xf32>
}

// -----

func.func @causal_cross(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x6x8xf32>) -> tensor<1x2x4x8xf32> {
  // expected-error @+1 {{causal attention needs as many keys (6) as queries (4)}}
  %o = seqpar.attention %q, %k, %k {causal, scale = 1.0 : f32}
      : tensor<1x2x4x8xf32>, tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32> -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// -----

func.func @bad_mask(%q: tensor<1x2x4x8xf32>, %m: tensor<1x2x4x3xf32>) -> tensor<1x2x4x8xf32> {
  // expected-error @+1 {{mask 'tensor<1x2x4x3xf32>' must broadcast to [1, 2, 4, 4] of 'f32'}}
  %o = seqpar.attention %q, %q, %q mask(%m : tensor<1x2x4x3xf32>) {scale = 1.0 : f32}
      : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// -----

func.func @rank3(%q: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  // expected-error @+1 {{query must be a static rank-4 tensor [b, heads, seq, head_dim], got 'tensor<2x4x8xf32>'}}
  %o = seqpar.attention %q, %q, %q {scale = 1.0 : f32}
      : tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}

// -----

// CHECK-LABEL: func.func @ring_step
// CHECK: seqpar.attention_block %{{.*}}, %{{.*}}, %{{.*}} positions(%{{.*}}, %{{.*}}) {causal, scale = 1.250000e-01 : f32}
// CHECK: seqpar.attention_merge(%{{.*}}, %{{.*}}, %{{.*}}), (%{{.*}}, %{{.*}}, %{{.*}}) : tensor<1x4x8x16xf32>, tensor<1x4x8xf32>
func.func @ring_step(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x8x16xf32>, %qp: tensor<8xindex>, %kp: tensor<8xindex>,
                     %o: tensor<1x4x8x16xf32>, %m: tensor<1x4x8xf32>, %l: tensor<1x4x8xf32>) -> (tensor<1x4x8x16xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>) {
  %ob, %mb, %lb = seqpar.attention_block %q, %k, %k positions(%qp, %kp) {causal, scale = 0.125 : f32}
      : tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<8xindex>, tensor<8xindex> -> tensor<1x4x8x16xf32>, tensor<1x4x8xf32>
  %om, %mm, %lm = seqpar.attention_merge (%o, %m, %l), (%ob, %mb, %lb) : tensor<1x4x8x16xf32>, tensor<1x4x8xf32>
  return %om, %mm, %lm : tensor<1x4x8x16xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>
}

// CHECK-LABEL: func.func @block_backward
// CHECK: seqpar.attention_block_backward %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} positions(%{{.*}}, %{{.*}}) mask(%{{.*}} : tensor<1x1x8x6xbf16>) {causal, scale = 1.250000e-01 : f32} : tensor<1x4x8x16xbf16>, tensor<1x2x6x16xbf16>, tensor<1x2x6x16xbf16>, tensor<1x4x8x16xbf16>, tensor<1x4x8x16xf32>, tensor<1x4x8xf32>, tensor<8xindex>, tensor<6xindex> -> tensor<1x4x8x16xf32>, tensor<1x2x6x16xf32>
func.func @block_backward(%q: tensor<1x4x8x16xbf16>, %k: tensor<1x2x6x16xbf16>, %do: tensor<1x4x8x16xbf16>, %o: tensor<1x4x8x16xf32>,
                          %m: tensor<1x4x8xf32>, %l: tensor<1x4x8xf32>, %qp: tensor<8xindex>, %kp: tensor<6xindex>,
                          %mask: tensor<1x1x8x6xbf16>) -> (tensor<1x4x8x16xf32>, tensor<1x2x6x16xf32>, tensor<1x2x6x16xf32>) {
  %dq, %dk, %dv = seqpar.attention_block_backward %q, %k, %k, %do, %o, %m, %l positions(%qp, %kp) mask(%mask : tensor<1x1x8x6xbf16>)
      {causal, scale = 0.125 : f32}
      : tensor<1x4x8x16xbf16>, tensor<1x2x6x16xbf16>, tensor<1x2x6x16xbf16>, tensor<1x4x8x16xbf16>, tensor<1x4x8x16xf32>, tensor<1x4x8xf32>,
        tensor<8xindex>, tensor<6xindex> -> tensor<1x4x8x16xf32>, tensor<1x2x6x16xf32>
  return %dq, %dk, %dv : tensor<1x4x8x16xf32>, tensor<1x2x6x16xf32>, tensor<1x2x6x16xf32>
}

// CHECK-LABEL: func.func @whole_backward
// CHECK: seqpar.attention_backward %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} mask(%{{.*}} : tensor<1x1x8x6xf32>) {scale = 1.250000e-01 : f32} : tensor<1x4x8x16xf32>, tensor<1x2x6x16xf32>, tensor<1x2x6x16xf32> -> tensor<1x4x8x16xf32>, tensor<1x2x6x16xf32>
func.func @whole_backward(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x6x16xf32>, %o: tensor<1x4x8x16xf32>, %do: tensor<1x4x8x16xf32>,
                          %mask: tensor<1x1x8x6xf32>) -> (tensor<1x4x8x16xf32>, tensor<1x2x6x16xf32>, tensor<1x2x6x16xf32>) {
  %dq, %dk, %dv = seqpar.attention_backward %q, %k, %k, %o, %do mask(%mask : tensor<1x1x8x6xf32>) {scale = 0.125 : f32}
      : tensor<1x4x8x16xf32>, tensor<1x2x6x16xf32>, tensor<1x2x6x16xf32> -> tensor<1x4x8x16xf32>, tensor<1x2x6x16xf32>
  return %dq, %dk, %dv : tensor<1x4x8x16xf32>, tensor<1x2x6x16xf32>, tensor<1x2x6x16xf32>
}

// -----

func.func @whole_backward_causal_cross(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x6x16xf32>) -> tensor<1x4x8x16xf32> {
  // expected-error @+1 {{causal attention needs as many keys (6) as queries (8)}}
  %dq, %dk, %dv = seqpar.attention_backward %q, %k, %k, %q, %q {causal, scale = 0.125 : f32}
      : tensor<1x4x8x16xf32>, tensor<1x2x6x16xf32>, tensor<1x2x6x16xf32> -> tensor<1x4x8x16xf32>, tensor<1x2x6x16xf32>
  return %dq : tensor<1x4x8x16xf32>
}

// -----

func.func @whole_backward_heads(%q: tensor<1x4x8x16xf32>, %k: tensor<1x3x8x16xf32>) -> tensor<1x4x8x16xf32> {
  // expected-error @+1 {{key/value heads (3) must divide query heads (4), both at least 1}}
  %dq, %dk, %dv = seqpar.attention_backward %q, %k, %k, %q, %q {scale = 0.125 : f32}
      : tensor<1x4x8x16xf32>, tensor<1x3x8x16xf32>, tensor<1x3x8x16xf32> -> tensor<1x4x8x16xf32>, tensor<1x3x8x16xf32>
  return %dq : tensor<1x4x8x16xf32>
}

// -----

func.func @whole_backward_out_grad(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x8x16xf32>, %do: tensor<1x4x8x16xf16>) -> tensor<1x4x8x16xf32> {
  // The generic form: out_grad's type is the query's in the custom one.
  // expected-error @+1 {{all of {query, out, out_grad, query_grad} have same type}}
  %dq, %dk, %dv = "seqpar.attention_backward"(%q, %k, %k, %q, %do) ({
  }) {scale = 0.125 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0>}
      : (tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf16>) -> (tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>)
  return %dq : tensor<1x4x8x16xf32>
}

// -----

func.func @backward_bad_key_grad(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x8x16xf32>, %m: tensor<1x4x8xf32>, %p: tensor<8xindex>) -> tensor<1x4x8x16xf32> {
  // expected-error @+1 {{key_grad and value_grad must be 'tensor<1x2x8x16xf32>', got 'tensor<1x4x8x16xf32>'}}
  %dq, %dk, %dv = seqpar.attention_block_backward %q, %k, %k, %q, %q, %m, %m positions(%p, %p) {scale = 0.125 : f32}
      : tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8xf32>,
        tensor<8xindex>, tensor<8xindex> -> tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>
  return %dq : tensor<1x4x8x16xf32>
}

// -----

func.func @backward_bad_out_grad(%q: tensor<1x4x8x16xf16>, %k: tensor<1x2x8x16xf16>, %do: tensor<1x4x8x16xf32>, %m: tensor<1x4x8xf32>, %p: tensor<8xindex>) -> tensor<1x4x8x16xf32> {
  // expected-error @+1 {{out_grad must be 'tensor<1x4x8x16xf16>', got 'tensor<1x4x8x16xf32>'}}
  %dq, %dk, %dv = seqpar.attention_block_backward %q, %k, %k, %do, %do, %m, %m positions(%p, %p) {scale = 0.125 : f32}
      : tensor<1x4x8x16xf16>, tensor<1x2x8x16xf16>, tensor<1x2x8x16xf16>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8xf32>,
        tensor<8xindex>, tensor<8xindex> -> tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>
  return %dq : tensor<1x4x8x16xf32>
}

// -----

func.func @backward_f32_key_of_f16_query(%q: tensor<1x2x8x16xf16>, %k: tensor<1x2x8x16xf32>, %o: tensor<1x2x8x16xf32>, %m: tensor<1x2x8xf32>, %p: tensor<8xindex>) -> tensor<1x2x8x16xf32> {
  // expected-error @+1 {{key must have query's floating-point element type, got 'tensor<1x2x8x16xf32>'}}
  %dq, %dk, %dv = seqpar.attention_block_backward %q, %k, %k, %q, %o, %m, %m positions(%p, %p) {scale = 0.125 : f32}
      : tensor<1x2x8x16xf16>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf16>, tensor<1x2x8x16xf32>, tensor<1x2x8xf32>,
        tensor<8xindex>, tensor<8xindex> -> tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>
  return %dq : tensor<1x2x8x16xf32>
}

// -----

func.func @no_heads(%q: tensor<1x0x4x8xf32>, %k: tensor<1x2x4x8xf32>) -> tensor<1x0x4x8xf32> {
  // expected-error @+1 {{key/value heads (2) must divide query heads (0), both at least 1}}
  %o = seqpar.attention %q, %k, %k {scale = 1.0 : f32}
      : tensor<1x0x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x0x4x8xf32>
  return %o : tensor<1x0x4x8xf32>
}

// -----

func.func @backward_bad_out(%q: tensor<1x4x8x16xf16>, %k: tensor<1x2x8x16xf16>, %o: tensor<1x4x8x16xbf16>, %m: tensor<1x4x8xf32>, %p: tensor<8xindex>) -> tensor<1x4x8x16xf32> {
  // expected-error @+1 {{out must be 'tensor<1x4x8x16xf16>' or 'tensor<1x4x8x16xf32>', got 'tensor<1x4x8x16xbf16>'}}
  %dq, %dk, %dv = seqpar.attention_block_backward %q, %k, %k, %q, %o, %m, %m positions(%p, %p) {scale = 0.125 : f32}
      : tensor<1x4x8x16xf16>, tensor<1x2x8x16xf16>, tensor<1x2x8x16xf16>, tensor<1x4x8x16xf16>, tensor<1x4x8x16xbf16>, tensor<1x4x8xf32>,
        tensor<8xindex>, tensor<8xindex> -> tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>
  return %dq : tensor<1x4x8x16xf32>
}

// -----

func.func @backward_bad_positions(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x8x16xf32>, %m: tensor<1x4x8xf32>, %p: tensor<8xindex>, %kp: tensor<4xindex>) -> tensor<1x4x8x16xf32> {
  // expected-error @+1 {{kv_positions must be tensor<8xindex>, got 'tensor<4xindex>'}}
  %dq, %dk, %dv = seqpar.attention_block_backward %q, %k, %k, %q, %q, %m, %m positions(%p, %kp) {scale = 0.125 : f32}
      : tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8xf32>,
        tensor<8xindex>, tensor<4xindex> -> tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>
  return %dq : tensor<1x4x8x16xf32>
}

// -----

func.func @block_bad_positions(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x6x16xf32>, %qp: tensor<8xindex>, %kp: tensor<8xindex>) -> tensor<1x4x8x16xf32> {
  // expected-error @+1 {{kv_positions must be tensor<6xindex>, got 'tensor<8xindex>'}}
  %ob, %mb, %lb = seqpar.attention_block %q, %k, %k positions(%qp, %kp) {scale = 0.125 : f32}
      : tensor<1x4x8x16xf32>, tensor<1x2x6x16xf32>, tensor<1x2x6x16xf32>, tensor<8xindex>, tensor<8xindex> -> tensor<1x4x8x16xf32>, tensor<1x4x8xf32>
  return %ob : tensor<1x4x8x16xf32>
}

// -----

func.func @merge_bad_stats(%o: tensor<1x4x8x16xf32>, %l: tensor<1x4x16xf32>) -> tensor<1x4x8x16xf32> {
  // expected-error @+1 {{row maxima and sums must be f32 [b, a, s] of out, got 'tensor<1x4x16xf32>'}}
  %om, %mm, %lm = seqpar.attention_merge (%o, %l, %l), (%o, %l, %l) : tensor<1x4x8x16xf32>, tensor<1x4x16xf32>
  return %om : tensor<1x4x8x16xf32>
}

// -----

func.func @kv_shapes_differ(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x5x8xf32>) -> tensor<1x2x4x8xf32> {
  // expected-error @+1 {{key 'tensor<1x2x4x8xf32>' and value 'tensor<1x2x5x8xf32>' must have the same shape}}
  %o = seqpar.attention %q, %k, %v {scale = 1.0 : f32}
      : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x5x8xf32> -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// -----

func.func @head_dim_differs(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x4xf32>) -> tensor<1x2x4x8xf32> {
  // expected-error @+1 {{differ in batch or head dim}}
  %o = seqpar.attention %q, %k, %k {scale = 1.0 : f32}
      : tensor<1x2x4x8xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32> -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// -----

// A block's partial output is f32 whatever its inputs (the merge is f32).
func.func @block_f16_out(%q: tensor<1x2x4x8xf16>, %p: tensor<4xindex>) -> tensor<1x2x4x8xf16> {
  // expected-error @+1 {{result 'tensor<1x2x4x8xf16>' must be 'tensor<1x2x4x8xf32>'}}
  %o, %m, %l = seqpar.attention_block %q, %q, %q positions(%p, %p) {scale = 1.0 : f32}
      : tensor<1x2x4x8xf16>, tensor<1x2x4x8xf16>, tensor<1x2x4x8xf16>, tensor<4xindex>, tensor<4xindex> -> tensor<1x2x4x8xf16>, tensor<1x2x4xf32>
  return %o : tensor<1x2x4x8xf16>
}

// -----

func.func @block_f64(%q: tensor<1x2x4x8xf64>, %p: tensor<4xindex>) -> tensor<1x2x4x8xf32> {
  // expected-error @+1 {{takes f32, f16 or bf16 query, key and value, got 'tensor<1x2x4x8xf64>'}}
  %o, %m, %l = seqpar.attention_block %q, %q, %q positions(%p, %p) {scale = 1.0 : f32}
      : tensor<1x2x4x8xf64>, tensor<1x2x4x8xf64>, tensor<1x2x4x8xf64>, tensor<4xindex>, tensor<4xindex> -> tensor<1x2x4x8xf32>, tensor<1x2x4xf32>
  return %o : tensor<1x2x4x8xf32>
}

// -----

func.func @block_bad_stats(%q: tensor<1x2x4x8xf32>, %p: tensor<4xindex>) -> tensor<1x2x4x8xf32> {
  // expected-error @+1 {{row_max and row_sum must be f32 [b, a, s] of the query, got 'tensor<1x2x4x8xf32>'}}
  %o, %m, %l = seqpar.attention_block %q, %q, %q positions(%p, %p) {scale = 1.0 : f32}
      : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<4xindex>, tensor<4xindex> -> tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}
