// RUN: not seqpar-opt %s --seqpar-plan-tensor-parallel 2>&1 | FileCheck %s

// Without a grid the TP size must be given.
// CHECK: error: no shard.grid @grid: give the TP size (tp=N)
func.func @forward(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  return %x : tensor<16x32xf32>
}
