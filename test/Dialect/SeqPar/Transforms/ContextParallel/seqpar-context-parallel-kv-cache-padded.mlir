// RUN: seqpar-opt %s -split-input-file --seqpar-context-parallel="pad=true kv-cache-interleave=1" -o /dev/null 2>&1 | FileCheck %s
// RUN: seqpar-opt %s -split-input-file --seqpar-context-parallel="pad=true kv-cache-interleave=1" 2>/dev/null | FileCheck %s --check-prefix=IR

// A prefill's K/V asked for block-cyclic (docs/decode.md, "From prefill to
// decode") on a sequence that needs padding: s = 6 on c = 2 zigzag ranks is
// padded to 8, and no #seqpar.sharding states a padded layout, so the K/V
// arguments stay whole (here returned as they are) and results are gathered.
// Each K/V result says why it is not in the decode layout.
// CHECK: remark: context-parallel: result #1 is returned whole, not block-cyclic: the sequence is padded, which no #seqpar.sharding states
// CHECK: remark: context-parallel: result #2 is returned whole, not block-cyclic: the sequence is padded, which no #seqpar.sharding states
// CHECK-NOT: result #0
// CHECK: remark: context-parallel over @grid axes [0] (c=2, s=6 padded to 8, zigzag): 1 attention -> ring
// IR-LABEL: func.func @prefill
// IR-SAME: -> (tensor<1x6x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}, tensor<1x2x6x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}, tensor<1x2x6x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
module {
  shard.grid @grid(shape = 2)
  func.func @prefill(%q: tensor<1x4x6x4xf32> {seqpar.seq_dim = 2 : i64},
                     %k: tensor<1x2x6x4xf32> {seqpar.seq_dim = 2 : i64},
                     %v: tensor<1x2x6x4xf32> {seqpar.seq_dim = 2 : i64})
      -> (tensor<1x6x16xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>) {
    %o = seqpar.attention %q, %k, %v {causal, scale = 0.5 : f32}
        : tensor<1x4x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32> -> tensor<1x4x6x4xf32>
    %init = tensor.empty() : tensor<1x6x4x4xf32>
    %t = linalg.transpose ins(%o : tensor<1x4x6x4xf32>)
        outs(%init : tensor<1x6x4x4xf32>) permutation = [0, 2, 1, 3]
    %h = tensor.collapse_shape %t [[0], [1], [2, 3]]
        : tensor<1x6x4x4xf32> into tensor<1x6x16xf32>
    return %h, %k, %v : tensor<1x6x16xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>
  }
}

// -----

// Only a static [b, a_kv, s, d] result is a K/V cache candidate: a [b, h, s]
// activation with its sequence in dim 2 is returned whole without a remark
// (before: "result #0 is returned whole, not block-cyclic").
// CHECK-NOT: result #0
// CHECK: remark: context-parallel: result #1 is returned whole, not block-cyclic: the sequence is padded
// CHECK-NOT: result #0
// CHECK: remark: context-parallel over @grid
module {
  shard.grid @grid(shape = 2)
  func.func @transposed_hidden(%q: tensor<1x4x6x4xf32> {seqpar.seq_dim = 2 : i64},
                               %k: tensor<1x2x6x4xf32> {seqpar.seq_dim = 2 : i64},
                               %v: tensor<1x2x6x4xf32> {seqpar.seq_dim = 2 : i64})
      -> (tensor<1x16x6xf32>, tensor<1x2x6x4xf32>) {
    %o = seqpar.attention %q, %k, %v {causal, scale = 0.5 : f32}
        : tensor<1x4x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32> -> tensor<1x4x6x4xf32>
    %init = tensor.empty() : tensor<1x6x4x4xf32>
    %t = linalg.transpose ins(%o : tensor<1x4x6x4xf32>)
        outs(%init : tensor<1x6x4x4xf32>) permutation = [0, 2, 1, 3]
    %h = tensor.collapse_shape %t [[0], [1], [2, 3]]
        : tensor<1x6x4x4xf32> into tensor<1x6x16xf32>
    %init2 = tensor.empty() : tensor<1x16x6xf32>
    %ht = linalg.transpose ins(%h : tensor<1x6x16xf32>)
        outs(%init2 : tensor<1x16x6xf32>) permutation = [0, 2, 1]
    return %ht, %k : tensor<1x16x6xf32>, tensor<1x2x6x4xf32>
  }
}
