// RUN: seqpar-opt %s --seqpar-decode-context-parallel --split-input-file -verify-diagnostics | FileCheck %s
// RUN: not seqpar-opt %s --seqpar-decode-context-parallel="interleave=0" --split-input-file 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not seqpar-opt %s --seqpar-decode-context-parallel="layout=zigzag interleave=2" --split-input-file 2>&1 | FileCheck %s --check-prefix=OPTION-LAYOUT
// RUN: seqpar-opt %s --seqpar-decode-context-parallel="layout=zigzag" --split-input-file 2>/dev/null | FileCheck %s --check-prefix=ZIGZAG
// RUN: seqpar-opt %s --seqpar-decode-context-parallel="layout=contiguous" --split-input-file 2>/dev/null | FileCheck %s --check-prefix=CONTIGUOUS
// RUN: seqpar-opt %s --seqpar-decode-context-parallel="interleave=2 merge=all-to-all" --split-input-file 2>/dev/null | FileCheck %s --check-prefix=A2A
// RUN: seqpar-opt %s --seqpar-decode-context-parallel="interleave=2 merge=all-to-all" --split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=A2A-REMARK

// OPTION: error: interleave=0 is not a block size: expected interleave >= 1
// OPTION-LAYOUT: error: interleave is only used by layout=cyclic

// Zigzag: slots [0, 2) are chunk r, [2, 4) chunk 7 - r, of 2 slots each.
// ZIGZAG-LABEL: func.func @step(
// ZIGZAG-SAME: tensor<1x2x4x8xf32> {seqpar.kv_cache, seqpar.sharding = #seqpar.sharding<@grid, {{\[\[}}], [], [0] zigzag]>}
// ZIGZAG: %[[R:.*]] = shard.process_multi_index
// ZIGZAG: tensor.generate
// ZIGZAG: arith.cmpi ult, %{{.*}}, %c2
// ZIGZAG: arith.subi %c7{{.*}}, %[[R]]
// ZIGZAG: arith.select
// Contiguous: slot i of rank r holds position 4 r + i.
// CONTIGUOUS-LABEL: func.func @step(
// CONTIGUOUS-SAME: tensor<1x2x4x8xf32> {seqpar.kv_cache, seqpar.sharding = #seqpar.sharding<@grid, {{\[\[}}], [], [0]]>}
// CONTIGUOUS: %[[R:.*]] = shard.process_multi_index
// CONTIGUOUS: tensor.generate
// CONTIGUOUS: arith.muli %[[R]], %c4

// A decode step of T = 2 tokens over caches of 16 slots on 4 ranks: each
// cache argument holds 4 slots (block-cyclic), the insert becomes the
// owner's select, the attention a block over the rank's slots (key
// positions p(i)), merged from the all-gathered partials in rank order.

// CHECK-LABEL: func.func @step(
// CHECK-SAME: %[[Q:[^:]*]]: tensor<1x4x2x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}
// CHECK-SAME: %[[KC:[^:]*]]: tensor<1x2x4x8xf32> {seqpar.kv_cache, seqpar.sharding = #seqpar.sharding<@grid, {{\[\[}}], [], [0] cyclic 1]>}
// CHECK-SAME: -> (tensor<1x4x2x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}, tensor<1x2x4x8xf32> {seqpar.kv_cache, seqpar.sharding = #seqpar.sharding<@grid, {{\[\[}}], [], [0] cyclic 1]>}
// CHECK: %[[R:.*]] = shard.process_multi_index on @grid axes = [0]
// CHECK: %[[POS:.*]] = tensor.generate
// CHECK: arith.addi %{{.*}}, %[[R]]
// CHECK: } : tensor<4xindex>
// CHECK: %[[K:.*]] = linalg.generic {{.*}} ins(%[[KC]] : tensor<1x2x4x8xf32>)
// CHECK: arith.cmpi sge
// CHECK: arith.select
// CHECK: %[[O:.*]], %[[M:.*]], %[[S:.*]] = seqpar.attention_block %[[Q]], %[[K]], %{{.*}} positions(%{{.*}}, %[[POS]]) {causal
// CHECK: shard.all_gather %[[O]] on @grid grid_axes = [0] gather_axis = 0 : tensor<1x4x2x8xf32> -> tensor<4x4x2x8xf32>
// CHECK: shard.all_gather %[[M]]
// CHECK: shard.all_gather %[[S]]
// CHECK-COUNT-3: seqpar.attention_merge
// CHECK-NOT: seqpar.attention_merge
// CHECK: return %{{.*}}, %[[K]], %{{.*}} :

// A2A-LABEL: func.func @step(
// A2A: cyclic 2
// A2A: shard.all_to_all {{.*}} split_axis = 1 concat_axis = 0 : tensor<1x4x2x8xf32> -> tensor<4x1x2x8xf32>
// A2A: shard.all_gather {{.*}} gather_axis = 1 : tensor<1x1x2x8xf32> -> tensor<1x4x2x8xf32>
// A2A-REMARK: remark: decode context parallelism (4 ranks, cyclic 2): 1 attentions over 2 KV caches of 16 slots, 4 slots per rank; merge all-to-all: 432 bytes sent per rank

shard.grid @grid(shape = 4)

// expected-remark @+1 {{decode context parallelism (4 ranks, cyclic 1): 1 attentions over 2 KV caches of 16 slots, 4 slots per rank; merge all-gather: 960 bytes sent per rank}}
func.func @step(%q: tensor<1x4x2x8xf32>, %kn: tensor<1x2x2x8xf32>, %vn: tensor<1x2x2x8xf32>,
                %kc: tensor<1x2x16x8xf32>, %vc: tensor<1x2x16x8xf32>, %l: index)
    -> (tensor<1x4x2x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>) {
  %k = tensor.insert_slice %kn into %kc[0, 0, %l, 0] [1, 2, 2, 8] [1, 1, 1, 1] : tensor<1x2x2x8xf32> into tensor<1x2x16x8xf32>
  %v = tensor.insert_slice %vn into %vc[0, 0, %l, 0] [1, 2, 2, 8] [1, 1, 1, 1] : tensor<1x2x2x8xf32> into tensor<1x2x16x8xf32>
  %qpos = tensor.generate {
  ^bb0(%j: index):
    %p = arith.addi %l, %j : index
    tensor.yield %p : index
  } : tensor<2xindex>
  %pos = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xindex>
  %o, %m, %s = seqpar.attention_block %q, %k, %v positions(%qpos, %pos) {causal, scale = 0.35 : f32}
      : tensor<1x4x2x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>, tensor<2xindex>, tensor<16xindex> -> tensor<1x4x2x8xf32>, tensor<1x4x2xf32>
  return %o, %k, %v : tensor<1x4x2x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>
}

// -----

// Left as they are, each with its reason.

shard.grid @grid(shape = 4)

// CHECK-LABEL: func.func @prefill(
// CHECK-SAME: tensor<1x2x16x8xf32>
// CHECK: seqpar.attention
func.func @prefill(%q: tensor<1x4x16x8xf32>, %kn: tensor<1x2x16x8xf32>, %kc: tensor<1x2x16x8xf32>) -> tensor<1x4x16x8xf32> {
  %k = tensor.insert_slice %kn into %kc[0, 0, 0, 0] [1, 2, 16, 8] [1, 1, 1, 1] : tensor<1x2x16x8xf32> into tensor<1x2x16x8xf32>
  // expected-remark @+1 {{attention left as it is by decode context parallelism: it is causal over as many queries as slots (a prefill, not a decode step)}}
  %o = seqpar.attention %q, %k, %k {causal, scale = 0.35 : f32}
      : tensor<1x4x16x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32> -> tensor<1x4x16x8xf32>
  return %o : tensor<1x4x16x8xf32>
}

// CHECK-LABEL: func.func @not_a_cache(
func.func @not_a_cache(%q: tensor<1x4x2x8xf32>, %k: tensor<1x2x16x8xf32>, %v: tensor<1x2x16x8xf32>) -> tensor<1x4x2x8xf32> {
  // expected-remark @+1 {{attention left as it is by decode context parallelism: its key is not a cache: it is not a tensor.insert_slice into a cache argument}}
  %o = seqpar.attention %q, %k, %v {scale = 0.35 : f32}
      : tensor<1x4x2x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32> -> tensor<1x4x2x8xf32>
  return %o : tensor<1x4x2x8xf32>
}

// CHECK-LABEL: func.func @cache_read_elsewhere(
func.func @cache_read_elsewhere(%q: tensor<1x4x2x8xf32>, %kn: tensor<1x2x2x8xf32>, %kc: tensor<1x2x16x8xf32>, %l: index)
    -> (tensor<1x4x2x8xf32>, tensor<1x2x16x8xf32>) {
  %k = tensor.insert_slice %kn into %kc[0, 0, %l, 0] [1, 2, 2, 8] [1, 1, 1, 1] : tensor<1x2x2x8xf32> into tensor<1x2x16x8xf32>
  // expected-remark @+1 {{attention left as it is by decode context parallelism: its key is not a cache: the cache argument has other uses than its update}}
  %o = seqpar.attention %q, %k, %k {scale = 0.35 : f32}
      : tensor<1x4x2x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32> -> tensor<1x4x2x8xf32>
  return %o, %kc : tensor<1x4x2x8xf32>, tensor<1x2x16x8xf32>
}

// The updated cache is also read by a sum over its slots: sharding it
// would make that sum per rank.
// CHECK-LABEL: func.func @update_read_elsewhere(
func.func @update_read_elsewhere(%q: tensor<1x4x2x8xf32>, %kn: tensor<1x2x2x8xf32>, %kc: tensor<1x2x16x8xf32>, %l: index)
    -> (tensor<1x4x2x8xf32>, tensor<1x2x16x8xf32>) {
  %k = tensor.insert_slice %kn into %kc[0, 0, %l, 0] [1, 2, 2, 8] [1, 1, 1, 1] : tensor<1x2x2x8xf32> into tensor<1x2x16x8xf32>
  // expected-remark @+1 {{attention left as it is by decode context parallelism: its updated cache is read by another op than the attentions this pass shards}}
  %o = seqpar.attention %q, %k, %k {scale = 0.35 : f32}
      : tensor<1x4x2x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32> -> tensor<1x4x2x8xf32>
  %twice = arith.addf %k, %k : tensor<1x2x16x8xf32>
  return %o, %twice : tensor<1x4x2x8xf32>, tensor<1x2x16x8xf32>
}

// CHECK-LABEL: func.func @uneven_slots(
func.func @uneven_slots(%q: tensor<1x4x2x8xf32>, %kn: tensor<1x2x2x8xf32>, %kc: tensor<1x2x10x8xf32>, %l: index) -> tensor<1x4x2x8xf32> {
  %k = tensor.insert_slice %kn into %kc[0, 0, %l, 0] [1, 2, 2, 8] [1, 1, 1, 1] : tensor<1x2x2x8xf32> into tensor<1x2x10x8xf32>
  // expected-remark @+1 {{attention left as it is by decode context parallelism: its cache's 10 slots are not divisible by 4 (the cyclic layout on 4 ranks)}}
  %o = seqpar.attention %q, %k, %k {scale = 0.35 : f32}
      : tensor<1x4x2x8xf32>, tensor<1x2x10x8xf32>, tensor<1x2x10x8xf32> -> tensor<1x4x2x8xf32>
  return %o : tensor<1x4x2x8xf32>
}

// CHECK-LABEL: func.func @partial_update(
func.func @partial_update(%q: tensor<1x4x2x8xf32>, %kn: tensor<1x1x2x8xf32>, %kc: tensor<1x2x16x8xf32>, %l: index) -> tensor<1x4x2x8xf32> {
  %k = tensor.insert_slice %kn into %kc[0, 1, %l, 0] [1, 1, 2, 8] [1, 1, 1, 1] : tensor<1x1x2x8xf32> into tensor<1x2x16x8xf32>
  // expected-remark @+1 {{attention left as it is by decode context parallelism: its key is not a cache: the update does not cover dim 1 of the cache whole}}
  %o = seqpar.attention %q, %k, %k {scale = 0.35 : f32}
      : tensor<1x4x2x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32> -> tensor<1x4x2x8xf32>
  return %o : tensor<1x4x2x8xf32>
}

// CHECK-LABEL: func.func @positions_not_slots(
func.func @positions_not_slots(%q: tensor<1x4x2x8xf32>, %kn: tensor<1x2x2x8xf32>, %kc: tensor<1x2x4x8xf32>, %l: index)
    -> tensor<1x4x2x8xf32> {
  %k = tensor.insert_slice %kn into %kc[0, 0, %l, 0] [1, 2, 2, 8] [1, 1, 1, 1] : tensor<1x2x2x8xf32> into tensor<1x2x4x8xf32>
  %qpos = arith.constant dense<[2, 3]> : tensor<2xindex>
  %pos = arith.constant dense<[3, 2, 1, 0]> : tensor<4xindex>
  // expected-remark @+1 {{attention left as it is by decode context parallelism: its key positions are not the slots 0 .. L_max-1}}
  %o, %m, %s = seqpar.attention_block %q, %k, %k positions(%qpos, %pos) {causal, scale = 0.35 : f32}
      : tensor<1x4x2x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<2xindex>, tensor<4xindex> -> tensor<1x4x2x8xf32>, tensor<1x4x2xf32>
  return %o : tensor<1x4x2x8xf32>
}

// -----

// Found by an outside tester: each case below was rewritten wrongly (a
// crash, a silently wrong step, invalid IR, a remark with wrong bytes).

shard.grid @grid(shape = 4)

// An earlier step's update is also read by a reduction over its slots:
// every update of the chain would become the rank's slots, so the whole
// step is left as it is (before: only the last update was checked, and the
// sum became per rank).
// CHECK-LABEL: func.func @earlier_update_read(
// CHECK: tensor.insert_slice
func.func @earlier_update_read(%q: tensor<1x4x1x8xf32>, %kn: tensor<1x2x1x8xf32>, %kn2: tensor<1x2x1x8xf32>,
                               %kc: tensor<1x2x16x8xf32>, %l: index) -> (tensor<1x4x1x8xf32>, tensor<1x2x8xf32>) {
  %k1 = tensor.insert_slice %kn into %kc[0, 0, %l, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<1x2x1x8xf32> into tensor<1x2x16x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
  %sum = linalg.reduce ins(%k1 : tensor<1x2x16x8xf32>) outs(%z : tensor<1x2x8xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
  %c1 = arith.constant 1 : index
  %l2 = arith.addi %l, %c1 : index
  %k2 = tensor.insert_slice %kn2 into %k1[0, 0, %l2, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<1x2x1x8xf32> into tensor<1x2x16x8xf32>
  // expected-remark @+1 {{attention left as it is by decode context parallelism: its updated cache is read by another op than the attentions this pass shards}}
  %o = seqpar.attention %q, %k2, %k2 {scale = 0.5 : f32} : tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32> -> tensor<1x4x1x8xf32>
  return %o, %sum : tensor<1x4x1x8xf32>, tensor<1x2x8xf32>
}

// An attention whose result is unused (before: removed as dead code after
// it had been collected, then rewritten: a crash).
// CHECK-LABEL: func.func @dead_attention(
// CHECK: seqpar.attention_block
// CHECK-NOT: seqpar.attention_block
// CHECK: return
// expected-remark @+1 {{decode context parallelism (4 ranks, cyclic 1): 1 attentions over 1 KV caches of 16 slots, 4 slots per rank}}
func.func @dead_attention(%q: tensor<1x4x1x8xf32>, %kn: tensor<1x2x1x8xf32>, %kc: tensor<1x2x16x8xf32>, %l: index)
    -> (tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>) {
  %k = tensor.insert_slice %kn into %kc[0, 0, %l, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<1x2x1x8xf32> into tensor<1x2x16x8xf32>
  %unused = seqpar.attention %q, %k, %k {scale = 0.5 : f32} : tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32> -> tensor<1x4x1x8xf32>
  %o = seqpar.attention %q, %k, %k {scale = 0.25 : f32} : tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32> -> tensor<1x4x1x8xf32>
  return %o, %k : tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>
}

// A step function with a call site (before: its argument types changed
// under the call).
// CHECK-LABEL: func.func @caller(
func.func @caller(%q: tensor<1x4x1x8xf32>, %kn: tensor<1x2x1x8xf32>, %kc: tensor<1x2x16x8xf32>, %l: index) -> tensor<1x4x1x8xf32> {
  %o = func.call @called(%q, %kn, %kc, %l) : (tensor<1x4x1x8xf32>, tensor<1x2x1x8xf32>, tensor<1x2x16x8xf32>, index) -> tensor<1x4x1x8xf32>
  return %o : tensor<1x4x1x8xf32>
}
// CHECK-LABEL: func.func @called(
// CHECK-SAME: tensor<1x2x16x8xf32>
// expected-remark @+1 {{decode context parallelism: @called has call sites: left as it is (inline it first)}}
func.func @called(%q: tensor<1x4x1x8xf32>, %kn: tensor<1x2x1x8xf32>, %kc: tensor<1x2x16x8xf32>, %l: index) -> tensor<1x4x1x8xf32> {
  %k = tensor.insert_slice %kn into %kc[0, 0, %l, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<1x2x1x8xf32> into tensor<1x2x16x8xf32>
  %o = seqpar.attention %q, %k, %k {scale = 0.5 : f32} : tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32> -> tensor<1x4x1x8xf32>
  return %o : tensor<1x4x1x8xf32>
}

// Attention under control flow (before: accepted, the remark's bytes
// counting both branches).
// CHECK-LABEL: func.func @branch(
func.func @branch(%q: tensor<1x4x1x8xf32>, %kn: tensor<1x2x1x8xf32>, %kc: tensor<1x2x16x8xf32>, %l: index, %c: i1)
    -> tensor<1x4x1x8xf32> {
  %k = tensor.insert_slice %kn into %kc[0, 0, %l, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<1x2x1x8xf32> into tensor<1x2x16x8xf32>
  %o = scf.if %c -> tensor<1x4x1x8xf32> {
    // expected-remark @+1 {{attention left as it is by decode context parallelism: it is inside control flow ('scf.if')}}
    %a = seqpar.attention %q, %k, %k {scale = 0.5 : f32} : tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32> -> tensor<1x4x1x8xf32>
    scf.yield %a : tensor<1x4x1x8xf32>
  } else {
    scf.yield %q : tensor<1x4x1x8xf32>
  }
  return %o : tensor<1x4x1x8xf32>
}
