// A function that is already a per-rank program is left as it is, with a
// remark: planning it again split the split weights once more and added a
// second all_reduce after each row-parallel one (seqpar-pipeline=tp=2 on
// examples/bert_tp2.mlir summed each block's output twice, silently; found
// while checking an outside tester's report). What shows it: an argument
// that its #seqpar.sharding splits, or a collective of the shard dialect.

// RUN: seqpar-opt %seqpar_src_root/examples/bert_tp2.mlir -o %t.in.mlir
// RUN: seqpar-opt %seqpar_src_root/examples/bert_tp2.mlir --seqpar-plan-tensor-parallel=tp=2 -o %t.out.mlir 2>&1 | FileCheck %s --check-prefix=TPARG
// RUN: diff %t.in.mlir %t.out.mlir
// In the pipeline, SP then runs on the TP program as it is (one all_reduce
// per row-parallel linear, each becoming reduce_scatter + all_gather).
// RUN: seqpar-opt %seqpar_src_root/examples/bert_tp2.mlir --seqpar-pipeline="tp=2 sp=false" 2>/dev/null | FileCheck %s --check-prefix=PIPE
// RUN: seqpar-opt %seqpar_src_root/examples/bert_tp2.mlir --seqpar-pipeline=tp=2 2>&1 >/dev/null | FileCheck %s --check-prefix=PIPESP
// RUN: seqpar-opt %s --seqpar-plan-tensor-parallel=tp=2 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: seqpar-opt %s --seqpar-plan-tensor-parallel=tp=2 2>/dev/null | FileCheck %s

// TPARG: remark: @forward is already partitioned (argument #1 is #seqpar.sharding<@grid, {{\[\[\], \[0\]\]}}>): left unplanned (plan the unsharded graph)
// PIPE-COUNT-4: shard.all_reduce %{{[0-9]+}} on
// PIPE-NOT: shard.all_reduce
// PIPESP: remark: @forward is already partitioned
// PIPESP: remark: sequence-parallel over @grid axis 0 (t=2, s=16): 4 all_reduce

// A collective in the body, no sharding on the arguments.
// REMARK: remark: @reduced is already partitioned (it holds 'shard.all_reduce'): left unplanned (plan the unsharded graph)
// REMARK: remark: tensor parallelism (tp=2): 1 blocks
// CHECK-LABEL: func.func @reduced(
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x64xf32>, tensor<64x256xf32>)
// CHECK: shard.all_reduce %{{.*}} on @grid grid_axes = [0] : tensor<16x64xf32> -> tensor<16x64xf32>
// CHECK-NEXT: return
// The upstream annotations describe the unsharded graph: it is planned.
// CHECK-LABEL: func.func @annotated(
// CHECK-SAME: tensor<64x128xf32>
// CHECK: shard.all_reduce

shard.grid @grid(shape = 2)
func.func @reduced(%x: tensor<16x64xf32>, %w1: tensor<64x256xf32>, %w2: tensor<256x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<16x256xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x256xf32>) -> tensor<16x256xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<16x64xf32>, tensor<64x256xf32>) outs(%z1 : tensor<16x256xf32>) -> tensor<16x256xf32>
  %e2 = tensor.empty() : tensor<16x64xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %y = linalg.matmul ins(%h, %w2 : tensor<16x256xf32>, tensor<256x64xf32>) outs(%z2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = shard.all_reduce %y on @grid grid_axes = [0] : tensor<16x64xf32> -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

func.func @annotated(%x: tensor<16x64xf32>, %w1: tensor<64x256xf32>, %w2: tensor<256x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %s = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %xs = shard.shard %x to %s : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x256xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x256xf32>) -> tensor<16x256xf32>
  %h = linalg.matmul ins(%xs, %w1 : tensor<16x64xf32>, tensor<64x256xf32>) outs(%z1 : tensor<16x256xf32>) -> tensor<16x256xf32>
  %e2 = tensor.empty() : tensor<16x64xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %y = linalg.matmul ins(%h, %w2 : tensor<16x256xf32>, tensor<256x64xf32>) outs(%z2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}
