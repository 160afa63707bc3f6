// RUN: not seqpar-opt %s --seqpar-plan-tensor-parallel="grid-axis=1" 2>&1 | FileCheck %s

// CHECK: error: grid axis 1 is out of range for @grid
shard.grid @grid(shape = 2)
func.func @forward(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  return %x : tensor<16x32xf32>
}
