// RUN: seqpar-opt %s -split-input-file --pass-pipeline='builtin.module(seqpar-sequence-parallel)' 2>/dev/null | FileCheck %s
// RUN: seqpar-opt %s -split-input-file --pass-pipeline='builtin.module(seqpar-sequence-parallel)' -verify-diagnostics -o /dev/null

// A cross-entropy as exporters write it: each token's label logit is read
// inside a linalg body (tensor.extract at linalg.index of the token loop,
// with cf.assert bound checks). The body reads the log-probabilities at the
// token it visits, so the op runs on the shard and reads the local rows; the
// labels (replicated) are sliced locally; the extract's index stays local
// (no global offset) and the loss sum is an all_reduce.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @label_logits
// CHECK: %[[LP:.+]] = shard.reduce_scatter %{{.+}} on @grid grid_axes = [0] scatter_axis = 0 : tensor<8x4xf32> -> tensor<4x4xf32>
// CHECK-NOT: shard.all_gather
// CHECK: %[[LABELS:.+]] = tensor.extract_slice %{{.+}}[%{{.+}}, 0] [4, 1] [1, 1] : tensor<8x1xi64> to tensor<4x1xi64>
// CHECK: linalg.generic {{.*}} ins(%[[LABELS]] : tensor<4x1xi64>)
// CHECK: %[[T:.+]] = linalg.index 0 : index
// CHECK-NOT: arith.addi
// CHECK: tensor.extract %[[LP]][%[[T]], %{{.+}}] : tensor<4x4xf32>
// CHECK: shard.all_reduce %{{.+}} on @grid grid_axes = [0] : tensor<f32> -> tensor<f32>
#id = affine_map<(d0, d1) -> (d0, d1)>
#all = affine_map<(d0) -> (d0)>
#sum = affine_map<(d0) -> ()>
// expected-remark @+1 {{sequence-parallel over @grid axis 0 (t=2, s=8): 1 all_reduce}}
func.func @label_logits(%x: tensor<8x4xf32> {seqpar.seq_dim = 0 : i64, seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                        %labels: tensor<8x1xi64> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %c4 = arith.constant 4 : index
  %lp = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x4xf32> -> tensor<8x4xf32>
  %e = tensor.empty() : tensor<8x1xf32>
  %picked = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%labels : tensor<8x1xi64>) outs(%e : tensor<8x1xf32>) {
  ^bb0(%label: i64, %out: f32):
    %t = linalg.index 0 : index
    %l = arith.index_cast %label : i64 to index
    %ok = arith.cmpi slt, %l, %c4 : index
    cf.assert %ok, "index must be smaller than dim size"
    %v = tensor.extract %lp[%t, %l] : tensor<8x4xf32>
    linalg.yield %v : f32
  } -> tensor<8x1xf32>
  %flat = tensor.collapse_shape %picked [[0, 1]] : tensor<8x1xf32> into tensor<8xf32>
  %es = tensor.empty() : tensor<f32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#all, #sum], iterator_types = ["reduction"]} ins(%flat : tensor<8xf32>) outs(%zs : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %loss : tensor<f32>
}

// -----

// The body reads the next token's row (linalg.index + 1): not the token the
// loop visits, so nothing is proven and the all_reduce stays.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @next_token
// CHECK: shard.all_reduce
// CHECK-NOT: shard.reduce_scatter
#id = affine_map<(d0, d1) -> (d0, d1)>
// expected-remark @+1 {{sequence-parallel over @grid axis 0 (t=2, s=8): 1 all_reduce}}
func.func @next_token(%x: tensor<8x4xf32> {seqpar.seq_dim = 0 : i64, seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                      %y: tensor<8x4xf32> {seqpar.seq_dim = 0 : i64, seqpar.sharding = #seqpar.sharding<@grid, replicated>}) -> tensor<8x4xf32> {
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  // expected-remark @+1 {{all_reduce kept: its sequence-sharded region would reach 'linalg.generic' (extracts from a sequence-carrying value at a position other than the token its sequence loop visits)}}
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x4xf32> -> tensor<8x4xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  // expected-note @+1 {{blocking op here}}
  %shifted = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%a: f32, %out: f32):
    %t = linalg.index 0 : index
    %h = linalg.index 1 : index
    %next = arith.addi %t, %c1 : index
    %in = arith.minui %next, %c7 : index
    %v = tensor.extract %r[%in, %h] : tensor<8x4xf32>
    %s = arith.addf %a, %v : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  return %shifted : tensor<8x4xf32>
}
