// An op of an unregistered dialect (seqpar-opt --allow-unregistered-dialect)
// has no dialect: the passes that asked an op's dialect whether it is the
// shard, seqpar or math dialect read through a null pointer (a segfault in
// SP, the lowering to upstream and the collectives' lowering, the rank
// simulator, and in the TP planner's test for an already partitioned
// function; outside testers). Each now treats it
// as an op of no dialect it knows.

// RUN: seqpar-opt %s --allow-unregistered-dialect --seqpar-sp-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=SP
// RUN: seqpar-opt %s --allow-unregistered-dialect --seqpar-plan-tensor-parallel=tp=2 2>&1 >/dev/null | FileCheck %s --check-prefix=TP
// RUN: seqpar-opt %s --allow-unregistered-dialect --seqpar-lower-to-upstream | FileCheck %s --check-prefix=UPSTREAM
// RUN: not seqpar-opt %s --allow-unregistered-dialect --seqpar-lower-collectives-to-runtime 2>&1 | FileCheck %s --check-prefix=RUNTIME
// RUN: seqpar-opt %s --allow-unregistered-dialect --seqpar-test-simulate-ranks | FileCheck %s --check-prefix=SIM

// SP: remark: all_reduce kept: its sequence-sharded region would reach 'test.foo' (has no token-wise rule for 'test.foo')
// TP: remark: @forward is already partitioned (it holds 'shard.all_reduce')
// UPSTREAM: "test.foo"
// RUNTIME: error: cannot lower to the seqpar runtime: operates on tensors
// SIM-LABEL: func.func @forward_simulated(
// SIM-COUNT-2: "test.foo"

shard.grid @grid(shape = 2)
func.func @forward(%x: tensor<16x64xf32> {seqpar.seq_dim = 0 : i64, seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                    %w1: tensor<64x128xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
                    %w2: tensor<128x64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
    -> (tensor<16x64xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<16x128xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x128xf32>) -> tensor<16x128xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<16x64xf32>, tensor<64x128xf32>) outs(%z1 : tensor<16x128xf32>) -> tensor<16x128xf32>
  %e2 = tensor.empty() : tensor<16x64xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %y = linalg.matmul ins(%h, %w2 : tensor<16x128xf32>, tensor<128x64xf32>) outs(%z2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = shard.all_reduce %y on @grid grid_axes = [0] : tensor<16x64xf32> -> tensor<16x64xf32>
  %u = "test.foo"(%r) : (tensor<16x64xf32>) -> tensor<16x64xf32>
  return %u : tensor<16x64xf32>
}
