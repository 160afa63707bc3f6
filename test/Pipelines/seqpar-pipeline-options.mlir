// Tests that seqpar-pipeline refuses option values that make no sense (or
// that it would silently ignore) with an error at the module, before any
// pass runs, and that the sizes it derives are checked against the graph.

// RUN: split-file %s %t
// RUN: seqpar-opt %t/cp-negative.mlir -verify-diagnostics --seqpar-pipeline=cp=-2
// RUN: not seqpar-opt %t/cp-negative.mlir --seqpar-pipeline=cp=-2 -o /dev/null 2>/dev/null
// RUN: seqpar-opt %t/cp-zero.mlir -verify-diagnostics --seqpar-pipeline=cp=0
// RUN: seqpar-opt %t/tp-zero.mlir -verify-diagnostics --seqpar-pipeline=tp=0
// RUN: seqpar-opt %t/overflow.mlir -verify-diagnostics --seqpar-pipeline="tp=4611686018427387904 cp=4"
// RUN: seqpar-opt %t/ulysses-without-hybrid.mlir -verify-diagnostics --seqpar-pipeline="cp=2 cp-ulysses=2"
// RUN: seqpar-opt %t/hybrid-without-ulysses.mlir -verify-diagnostics --seqpar-pipeline="cp=4 cp-strategy=hybrid"
// RUN: seqpar-opt %t/ulysses-not-dividing.mlir -verify-diagnostics --seqpar-pipeline="cp=4 cp-strategy=hybrid cp-ulysses=3"
// RUN: seqpar-opt %t/ulysses-zero.mlir -verify-diagnostics --seqpar-pipeline="cp=4 cp-strategy=hybrid cp-ulysses=0"
// RUN: seqpar-opt %t/keep-kv.mlir -verify-diagnostics --seqpar-pipeline="cp=2 cp-strategy=all-gather cp-keep-kv=true"
// RUN: not seqpar-opt %t/strategy.mlir --seqpar-pipeline=cp-strategy=tree 2>&1 | FileCheck %s --check-prefix=STRATEGY
// RUN: not seqpar-opt %t/load-balance.mlir --seqpar-pipeline="cp=2 load-balance=random" 2>&1 | FileCheck %s --check-prefix=BALANCE
// RUN: seqpar-opt %t/seq-dim.mlir -verify-diagnostics --seqpar-pipeline="cp=2 seq-dim=-2"
// RUN: seqpar-opt %t/cp-huge.mlir -verify-diagnostics --seqpar-pipeline="cp=9223372036854775807"
// RUN: seqpar-opt %t/kv-interleave-negative.mlir -verify-diagnostics --seqpar-pipeline="cp=2 cp-kv-cache-interleave=-1"
// RUN: seqpar-opt %t/kv-interleave-no-cp.mlir -verify-diagnostics --seqpar-pipeline="cp-kv-cache-interleave=2"
// RUN: seqpar-opt %t/dcp-zero.mlir -verify-diagnostics --seqpar-pipeline="dcp=0"
// RUN: not seqpar-opt %t/dcp-zero.mlir --seqpar-pipeline="dcp=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NODUMP
// RUN: seqpar-opt %t/dcp-and-cp.mlir -verify-diagnostics --seqpar-pipeline="cp=2 dcp=2"
// RUN: seqpar-opt %t/dcp-overflow.mlir -verify-diagnostics --seqpar-pipeline="tp=4611686018427387904 dcp=4"
// RUN: seqpar-opt %t/dcp-interleave-zero.mlir -verify-diagnostics --seqpar-pipeline="dcp=2 dcp-interleave=0"
// RUN: seqpar-opt %t/dcp-interleave-layout.mlir -verify-diagnostics --seqpar-pipeline="dcp=2 dcp-layout=zigzag dcp-interleave=4"
// RUN: not seqpar-opt %t/strategy.mlir --seqpar-pipeline="dcp=2 dcp-layout=groups" 2>&1 | FileCheck %s --check-prefix=LAYOUT
// RUN: not seqpar-opt %t/strategy.mlir --seqpar-pipeline="dcp=2 dcp-merge=reduce-scatter" 2>&1 | FileCheck %s --check-prefix=MERGE
// RUN: seqpar-opt %t/cp-huge.mlir -verify-diagnostics --seqpar-pipeline="cp=9223372036854775807 cp-strategy=all-gather"
// RUN: seqpar-opt %t/sharded-io-no-tp.mlir -verify-diagnostics --seqpar-pipeline="input-sharded"
// RUN: seqpar-opt %t/sharded-io-cp.mlir -verify-diagnostics --seqpar-pipeline="tp=2 cp=2 output-sharded"
// RUN: seqpar-opt %t/sharded-io-no-sp.mlir -verify-diagnostics --seqpar-pipeline="tp=2 sp=false input-sharded"

// LAYOUT: Cannot find option named 'groups'!
// MERGE: Cannot find option named 'reduce-scatter'!

//--- sharded-io-no-tp.mlir
// expected-error @+1 {{seqpar-pipeline: input-sharded and output-sharded are only used by the SP rewrite without CP or decode (sp with tp >= 2, cp=1, dcp=1; here sp=true tp=1 cp=1 dcp=1)}}
module {
}

//--- sharded-io-cp.mlir
// expected-error @+1 {{seqpar-pipeline: input-sharded and output-sharded are only used by the SP rewrite without CP or decode (sp with tp >= 2, cp=1, dcp=1; here sp=true tp=2 cp=2 dcp=1)}}
module {
}

//--- sharded-io-no-sp.mlir
// expected-error @+1 {{seqpar-pipeline: input-sharded and output-sharded are only used by the SP rewrite without CP or decode (sp with tp >= 2, cp=1, dcp=1; here sp=false tp=2 cp=1 dcp=1)}}
module {
}

//--- kv-interleave-negative.mlir
// expected-error @+1 {{seqpar-pipeline: cp-kv-cache-interleave=-1 is not a block size: expected cp-kv-cache-interleave >= 1, or 0 (the prefill's split)}}
module {
}

//--- kv-interleave-no-cp.mlir
// expected-error @+1 {{seqpar-pipeline: cp-kv-cache-interleave is only used with cp > 1}}
module {
}

//--- dcp-zero.mlir
// The error is the one line at the module, without the module printed
// after it as a note (Operation::emitError would attach it).
// NODUMP: error: seqpar-pipeline: dcp=0 is not a decode context-parallel size
// NODUMP-NOT: see current operation
// expected-error @+1 {{seqpar-pipeline: dcp=0 is not a decode context-parallel size: expected dcp >= 1 (1: none)}}
module {
}

//--- dcp-and-cp.mlir
// expected-error @+1 {{seqpar-pipeline: cp=2 and dcp=2 both set: cp shards a prefill's sequence, dcp a decode step's KV caches; a program is one or the other}}
module {
}

//--- dcp-overflow.mlir
// expected-error @+1 {{seqpar-pipeline: tp=4611686018427387904 x dcp=4 ranks overflow a 64-bit count}}
module {
}

//--- dcp-interleave-zero.mlir
// expected-error @+1 {{seqpar-pipeline: dcp-interleave=0 is not a block size: expected dcp-interleave >= 1}}
module {
}

//--- dcp-interleave-layout.mlir
// expected-error @+1 {{seqpar-pipeline: dcp-interleave is only used by dcp-layout=cyclic}}
module {
}

//--- cp-negative.mlir
// expected-error @+1 {{seqpar-pipeline: cp=-2 is not a context-parallel size: expected cp >= 1 (1: no context parallelism)}}
module {
}

//--- cp-zero.mlir
// expected-error @+1 {{seqpar-pipeline: cp=0 is not a context-parallel size}}
module {
}

//--- tp-zero.mlir
// expected-error @+1 {{seqpar-pipeline: tp=0 is not a TP size: expected tp >= 1}}
module {
}

//--- overflow.mlir
// expected-error @+1 {{seqpar-pipeline: tp=4611686018427387904 x cp=4 ranks overflow a 64-bit count}}
module {
}

//--- ulysses-without-hybrid.mlir
// cp-ulysses was dropped without a word for every strategy but hybrid.
// expected-error @+1 {{seqpar-pipeline: cp-ulysses=2 is only used by cp-strategy=hybrid (cp-strategy=ring)}}
module {
}

//--- hybrid-without-ulysses.mlir
// expected-error @+1 {{seqpar-pipeline: cp-strategy=hybrid needs cp-ulysses > 1 dividing cp (cp=4, cp-ulysses=1)}}
module {
}

//--- ulysses-not-dividing.mlir
// expected-error @+1 {{seqpar-pipeline: cp-strategy=hybrid needs cp-ulysses > 1 dividing cp (cp=4, cp-ulysses=3)}}
module {
}

//--- ulysses-zero.mlir
// expected-error @+1 {{seqpar-pipeline: cp-ulysses=0 is not a Ulysses size: expected cp-ulysses >= 1}}
module {
}

//--- strategy.mlir
// Checked also when cp=1 (no CP pass runs), so a typo is not ignored.
// STRATEGY: for the --cp-strategy option: Cannot find option named 'tree'!
module {
}

//--- load-balance.mlir
// BALANCE: for the --load-balance option: Cannot find option named 'random'!
module {
}

//--- seq-dim.mlir
// expected-error @+1 {{seqpar-pipeline: seq-dim=-2 is not a dim: expected a dim >= 0, or -1 (the default) to infer it from the attention}}
module {
}

//--- cp-huge.mlir
// A CP size larger than the sequence: 2c overflowed, passed the
// divisibility check and unrolled the ring until memory ran out
// (all-gather: an abort). Now refused at the function.
module {
  // expected-error @+1 {{context-parallel: the 9223372036854775807 ranks of grid axes [1] of @grid exceed the sequence length 8: a context-parallel size is at most s}}
  func.func @f(%q: tensor<1x4x8x4xf32> {seqpar.seq_dim = 2 : i64}) -> tensor<1x4x8x4xf32> {
    %o = seqpar.attention %q, %q, %q {scale = 0.5 : f32} : tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32> -> tensor<1x4x8x4xf32>
    return %o : tensor<1x4x8x4xf32>
  }
}

//--- keep-kv.mlir
// cp-keep-kv would be dropped without a word by all-gather and Ulysses.
// expected-error @+1 {{seqpar-pipeline: cp-keep-kv is only used by the ring of cp-strategy=ring or hybrid (cp-strategy=all-gather)}}
module {
}
