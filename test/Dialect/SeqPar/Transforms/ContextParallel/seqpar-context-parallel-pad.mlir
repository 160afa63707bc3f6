// RUN: seqpar-opt %s --seqpar-context-parallel="pad=true" --canonicalize --cse 2>&1 | FileCheck %s

// s = 6 on 2 ranks with zigzag (4 chunks): padded to 8, chunks of 2 tokens.
// The arguments stay whole (a #seqpar.sharding cannot state padding); each
// rank pads its input at the end and takes chunks r and 3 - r. Non-causal
// attention masks the padding keys (positions >= 6) with -inf; the result is
// all-gathered, put back in sequence order and cut to 6 tokens.
shard.grid @grid(shape = 2)
// CHECK: remark: context-parallel over @grid axes [0] (c=2, s=6 padded to 8, zigzag): 1 attention -> ring
// A reduction over a padded sequence reads the all-gathered value (cut to
// s): zero padding tokens would join a count or a sum of exp (here each
// would add exp(0) = 1)
// (docs/context-parallelism.md, "Reductions over the sequence").
// CHECK: remark: context-parallel: all_gather before 'linalg.generic', which reduces over the sequence (loop d1)
// CHECK: remark: context-parallel over @grid axes [0] (c=2, s=7 padded to 8, zigzag): 0 attention -> ring (0 transfers, 0 bytes sent per rank), 1 all_gather
// CHECK-LABEL: func.func @padded(%arg0
// CHECK-SAME: tensor<1x2x6x4xf32> {seqpar.seq_dim = 2 : i64, seqpar.sharding = #seqpar.sharding<@grid, replicated>}
// CHECK-SAME: -> (tensor<1x2x6x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: tensor.pad %arg0 low[0, 0, 0, 0] high[0, 0, 2, 0]
// CHECK: %[[MASK:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x1x4xf32>)
// CHECK: %[[REAL:.*]] = arith.cmpi ult, %{{.*}}, %c6 : index
// CHECK: arith.select %[[REAL]], %{{.*}}, %[[NEGINF]] : f32
// CHECK: seqpar.attention_block {{.*}} mask(%[[MASK]] : tensor<1x1x1x4xf32>) {scale
// CHECK: %[[ALL:.*]] = shard.all_gather %{{.*}} on @grid grid_axes = [0] gather_axis = 2 : tensor<1x2x4x4xf32> -> tensor<1x2x8x4xf32>
// CHECK: tensor.concat
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 2, 6, 4]
func.func @padded(%q: tensor<1x2x6x4xf32> {seqpar.seq_dim = 2 : i64})
    -> tensor<1x2x6x4xf32> {
  %o = seqpar.attention %q, %q, %q {scale = 0.5 : f32}
      : tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32> -> tensor<1x2x6x4xf32>
  return %o : tensor<1x2x6x4xf32>
}

// CHECK-LABEL: func.func @padded_sum
// CHECK: shard.all_gather
// CHECK-NOT: shard.all_reduce
func.func @padded_sum(%x: tensor<1x7x4xf32> {seqpar.seq_dim = 1 : i64})
    -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %ex = tensor.empty() : tensor<1x7x4xf32>
  %exp = linalg.exp ins(%x : tensor<1x7x4xf32>) outs(%ex : tensor<1x7x4xf32>) -> tensor<1x7x4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {
      indexing_maps = [affine_map<(b, s, j) -> (b, s, j)>,
                       affine_map<(b, s, j) -> (j)>],
      iterator_types = ["reduction", "reduction", "parallel"]}
      ins(%exp : tensor<1x7x4xf32>) outs(%z : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %sum : tensor<4xf32>
}
