// With raise-attention the planner raises attention on the per-rank program
// after planning, as seqpar-raise-attention after it would (seqpar-pipeline
// runs it so: one verification of the module instead of two,
// docs/benchmarks.md §1); raise-backward is the raiser's `backward`. The
// output and the remarks are the two passes'.

// An inference graph (2 layers, a/t = 2 heads per rank).
// RUN: %gen_tp_graph --model gpt --batch 2 --seq 16 --hidden 64 --heads 4 --layers 2 --tp 1 --form plain -o %t.gpt.mlir
// RUN: seqpar-opt %t.gpt.mlir --pass-pipeline='builtin.module(seqpar-plan-tensor-parallel{tp=2},func.func(seqpar-raise-attention))' -o %t.two 2>%t.two.err
// RUN: seqpar-opt %t.gpt.mlir --pass-pipeline='builtin.module(seqpar-plan-tensor-parallel{tp=2 raise-attention=true})' -o %t.one 2>%t.one.err
// RUN: diff %t.two %t.one
// RUN: diff %t.two.err %t.one.err
// RUN: FileCheck %s < %t.one
// Without it attention stays written out.
// RUN: seqpar-opt %t.gpt.mlir --seqpar-plan-tensor-parallel=tp=2 2>/dev/null | FileCheck %s --check-prefix=UNRAISED

// A training graph: with raise-backward each attention's backward too.
// RUN: seqpar-opt %seqpar_src_root/examples/training/gpt2_2l.mlir --pass-pipeline='builtin.module(seqpar-plan-tensor-parallel{tp=2},func.func(seqpar-raise-attention{backward=true}))' -o %t.ttwo 2>%t.ttwo.err
// RUN: seqpar-opt %seqpar_src_root/examples/training/gpt2_2l.mlir --pass-pipeline='builtin.module(seqpar-plan-tensor-parallel{tp=2 raise-attention=true raise-backward=true})' -o %t.tone 2>%t.tone.err
// RUN: diff %t.ttwo %t.tone
// RUN: diff %t.ttwo.err %t.tone.err
// RUN: FileCheck %s --check-prefix=TRAIN < %t.tone
// RUN: seqpar-opt %seqpar_src_root/examples/training/gpt2_2l.mlir --pass-pipeline='builtin.module(seqpar-plan-tensor-parallel{tp=2 raise-attention=true})' 2>/dev/null \
// RUN:   | FileCheck %s --check-prefix=FORWARD

// Function by function, as the pass nested on func.func: the remarks of
// each function together (two functions whose attention is refused, a
// padding mask that may hide every visible key), and nothing raised in a
// nested module's functions (outside tester).
// RUN: %gen_tp_graph --model gpt --batch 1 --seq 8 --hidden 16 --heads 2 --layers 1 --tp 1 --form plain --mask pad -o %t.pad.mlir
// RUN: sed '$d' %t.pad.mlir > %t.funcs.mlir
// RUN: sed -n '/^  func.func @forward(/,$p' %t.pad.mlir | sed 's/@forward(/@second(/' >> %t.funcs.mlir
// RUN: seqpar-opt %t.funcs.mlir --pass-pipeline='builtin.module(seqpar-plan-tensor-parallel{tp=2},func.func(seqpar-raise-attention))' -o %t.ftwo 2>%t.ftwo.err
// RUN: seqpar-opt %t.funcs.mlir --pass-pipeline='builtin.module(seqpar-plan-tensor-parallel{tp=2 raise-attention=true})' -o %t.fone 2>%t.fone.err
// RUN: diff %t.ftwo %t.fone
// RUN: diff %t.ftwo.err %t.fone.err
// RUN: FileCheck %s --check-prefix=ORDER < %t.fone.err
// RUN: seqpar-opt %s --pass-pipeline='builtin.module(seqpar-plan-tensor-parallel{tp=2 raise-attention=true})' | FileCheck %s --check-prefix=NESTED

// A backward is raised with its attention: alone the option is an error.
// RUN: not seqpar-opt %t.gpt.mlir --seqpar-plan-tensor-parallel="tp=2 raise-backward=true" 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK-COUNT-2: seqpar.attention {{.*}} : tensor<2x2x16x16xf32>
// CHECK-NOT: linalg.softmax
// UNRAISED-NOT: seqpar.attention
// TRAIN-COUNT-2: seqpar.attention_backward
// FORWARD-NOT: seqpar.attention_backward
// BAD: error: tensor parallelism: raise-backward=true without raise-attention=true: a backward is raised with its attention
// ORDER: remark: attention not raised
// ORDER: remark: softmax not raised to seqpar.attention: its P.V product was not raised
// ORDER: remark: attention not raised
// ORDER: remark: softmax not raised to seqpar.attention: its P.V product was not raised
// NESTED-NOT: seqpar.attention
// NESTED: linalg.batch_matmul
// NESTED-NOT: seqpar.attention

module {
  module @inner {
    func.func @attn(%q: tensor<2x8x4xf32>, %kt: tensor<2x4x8xf32>, %v: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<2x8x8xf32>
      %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
      %s = linalg.batch_matmul ins(%q, %kt : tensor<2x8x4xf32>, tensor<2x4x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
      %p = linalg.softmax dimension(2) ins(%s : tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
      %e2 = tensor.empty() : tensor<2x8x4xf32>
      %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
      %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%z2 : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
      return %o : tensor<2x8x4xf32>
    }
  }
}
