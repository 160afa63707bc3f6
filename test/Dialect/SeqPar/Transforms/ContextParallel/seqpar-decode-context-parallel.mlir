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
// The insert's bound, checked at run time before the select drops it.
// CHECK: %[[FROM:.*]] = arith.cmpi sge, %[[L:.*]], %c0
// CHECK: %[[TO:.*]] = arith.cmpi sle, %[[L]], %c14 : index
// CHECK: %[[FITS:.*]] = arith.andi %[[FROM]], %[[TO]] : i1
// CHECK: cf.assert %[[FITS]], "error: run-time check failed at {{.*}}seqpar-decode-context-parallel.mlir:{{[0-9]+}}:{{[0-9]+}}: a decode step's 2 new tokens at slots L .. L+1 need 0 <= L <= 14 (the KV cache has 16 slots)"
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

// A key sliced from the updated cache along the slots (12 of 16) is not
// followed; the remark names the dim (it read "more than the cache's heads").
// CHECK-LABEL: func.func @slots_sliced(
func.func @slots_sliced(%q: tensor<1x4x2x8xf32>, %kn: tensor<1x2x2x8xf32>, %kc: tensor<1x2x16x8xf32>, %v: tensor<1x2x12x8xf32>, %l: index)
    -> (tensor<1x4x2x8xf32>, tensor<1x2x16x8xf32>) {
  %k = tensor.insert_slice %kn into %kc[0, 0, %l, 0] [1, 2, 2, 8] [1, 1, 1, 1] : tensor<1x2x2x8xf32> into tensor<1x2x16x8xf32>
  %ks = tensor.extract_slice %k[0, 0, 0, 0] [1, 2, 12, 8] [1, 1, 1, 1] : tensor<1x2x16x8xf32> to tensor<1x2x12x8xf32>
  // expected-remark @+1 {{attention left as it is by decode context parallelism: its key is not a cache: it is a slice of the cache's slots (dim 2), where only whole heads are followed}}
  %o = seqpar.attention %q, %ks, %v {scale = 0.35 : f32}
      : tensor<1x4x2x8xf32>, tensor<1x2x12x8xf32>, tensor<1x2x12x8xf32> -> tensor<1x4x2x8xf32>
  return %o, %k : tensor<1x4x2x8xf32>, tensor<1x2x16x8xf32>
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

// Left as it is, the step still says how it runs on the grid: every
// argument and result replicated (before: none, and seqpar-run refused it).
// CHECK-LABEL: func.func @uneven_slots(
// CHECK-SAME: %{{.*}}: tensor<1x4x2x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}
// CHECK-SAME: %{{.*}}: tensor<1x2x10x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}
// CHECK-SAME: -> (tensor<1x4x2x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
func.func @uneven_slots(%q: tensor<1x4x2x8xf32>, %kn: tensor<1x2x2x8xf32>, %kc: tensor<1x2x10x8xf32>, %l: index) -> tensor<1x4x2x8xf32> {
  %k = tensor.insert_slice %kn into %kc[0, 0, %l, 0] [1, 2, 2, 8] [1, 1, 1, 1] : tensor<1x2x2x8xf32> into tensor<1x2x10x8xf32>
  // expected-remark @+1 {{attention left as it is by decode context parallelism: its cache's 10 slots are not divisible by 4 (the cyclic layout on 4 ranks)}}
  %o = seqpar.attention %q, %k, %k {scale = 0.35 : f32}
      : tensor<1x4x2x8xf32>, tensor<1x2x10x8xf32>, tensor<1x2x10x8xf32> -> tensor<1x4x2x8xf32>
  return %o : tensor<1x4x2x8xf32>
}

// A function without attention runs whole on every rank and says so (before:
// no sharding, no remark, and seqpar-run refused it); a private one is a
// helper and is left alone.
// CHECK-LABEL: func.func @no_attention(
// CHECK-SAME: %{{.*}}: tensor<8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}
// CHECK-SAME: -> (tensor<8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
// expected-remark @+1 {{decode context parallelism: @no_attention has no attention (seqpar.attention, or a softmax P.V product that seqpar-raise-attention recognises): it runs whole on every rank}}
func.func @no_attention(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = arith.addf %x, %x : tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}
// CHECK-LABEL: func.func private @helper(
// CHECK-SAME: %{{.*}}: tensor<8x16xf32>) -> tensor<8x16xf32>
func.func private @helper(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  return %x : tensor<8x16xf32>
}
// Calls to a helper without attention, or to a declaration, hide no
// attention: no advice to inline them.
// CHECK-LABEL: func.func @calls_helper(
// expected-remark @+1 {{decode context parallelism: @calls_helper has no attention (seqpar.attention, or a softmax P.V product that seqpar-raise-attention recognises): it runs whole on every rank}}
func.func @calls_helper(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = call @helper(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %z = call @external(%y) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %z : tensor<8x16xf32>
}
func.func private @external(tensor<8x16xf32>) -> tensor<8x16xf32>
// An argument already split (the user's, or a TP plan's): its result may be
// per rank, so nothing is marked replicated (before: the result was, and
// the ranks' replicas differed).
// CHECK-LABEL: func.func @already_split(
// CHECK-SAME: %{{.*}}: tensor<8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, {{\[\[}}0]]>}) -> tensor<8x16xf32> {
// expected-remark @+1 {{decode context parallelism: @already_split has no attention (seqpar.attention, or a softmax P.V product that seqpar-raise-attention recognises): nothing to shard; its shardings are left as they are}}
func.func @already_split(%x: tensor<8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0]]>}) -> tensor<8x16xf32> {
  %y = arith.addf %x, %x : tensor<8x16xf32>
  return %y : tensor<8x16xf32>
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
// expected-remark @+1 {{decode context parallelism: @caller has no attention of its own (callees are not followed: inline them first, e.g. --inline): it runs whole on every rank}}
func.func @caller(%q: tensor<1x4x1x8xf32>, %kn: tensor<1x2x1x8xf32>, %kc: tensor<1x2x16x8xf32>, %l: index) -> tensor<1x4x1x8xf32> {
  %o = func.call @called(%q, %kn, %kc, %l) : (tensor<1x4x1x8xf32>, tensor<1x2x1x8xf32>, tensor<1x2x16x8xf32>, index) -> tensor<1x4x1x8xf32>
  return %o : tensor<1x4x1x8xf32>
}
// Left as it is, it still says how it runs on the grid (before: no
// sharding, and seqpar-run refused it as an entry).
// CHECK-LABEL: func.func @called(
// CHECK-SAME: tensor<1x2x16x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}
// expected-remark @+1 {{decode context parallelism: @called has call sites: left as it is (inline it first, e.g. --inline)}}
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

// -----

// Masks computed from the length L (docs/decode.md, "Masks causal by
// position"): a mask that hides slot k from query j exactly when
// k > L + j becomes the block's causal flag at query positions L + j and
// the slots' positions, so that seqpar-tile-attention skips the key tiles
// past the last query at run time; any other mask stays an additive mask,
// with a remark saying why.

shard.grid @grid(shape = 4)

// -inf, compared unsigned: query positions L + j, key positions p(i).
// CHECK-LABEL: func.func @causal_mask(
// CHECK: %[[POS:.*]] = tensor.generate
// CHECK: } : tensor<4xindex>
// CHECK: %[[QPOS:.*]] = tensor.generate
// CHECK-NEXT: ^bb0(%[[J:.*]]: index):
// CHECK-NEXT: %[[QJ:.*]] = arith.addi %[[J]], %{{.*}} : index
// CHECK-NEXT: tensor.yield %[[QJ]]
// CHECK: seqpar.attention_block %{{[^,]*}}, %{{[^,]*}}, %{{[^ ]*}} positions(%[[QPOS]], %[[POS]]) {causal, scale
// CHECK-NOT: seqpar.attention_block
// expected-remark @+1 {{decode context parallelism (4 ranks, cyclic 1): 1 attentions over 2 KV caches of 16 slots, 4 slots per rank; merge all-gather: 960 bytes sent per rank; 1 masks causal by position (key tiles past the last query skipped)}}
func.func @causal_mask(%q: tensor<1x4x2x8xf32>, %kn: tensor<1x2x2x8xf32>, %vn: tensor<1x2x2x8xf32>,
                       %kc: tensor<1x2x16x8xf32>, %vc: tensor<1x2x16x8xf32>, %l: index)
    -> (tensor<1x4x2x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>) {
  %k = tensor.insert_slice %kn into %kc[0, 0, %l, 0] [1, 2, 2, 8] [1, 1, 1, 1] : tensor<1x2x2x8xf32> into tensor<1x2x16x8xf32>
  %v = tensor.insert_slice %vn into %vc[0, 0, %l, 0] [1, 2, 2, 8] [1, 1, 1, 1] : tensor<1x2x2x8xf32> into tensor<1x2x16x8xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x2x16xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<1x1x2x16xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %qp = arith.addi %l, %i : index
    %seen = arith.cmpi ule, %j, %qp : index
    %y = arith.select %seen, %zero, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<1x1x2x16xf32>
  %o = seqpar.attention %q, %k, %v mask(%mask : tensor<1x1x2x16xf32>) {scale = 0.35 : f32}
      : tensor<1x4x2x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32> -> tensor<1x4x2x8xf32>
  return %o, %k, %v : tensor<1x4x2x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>
}

// As exporters write it (examples/decode): L a 0-d i64 tensor, the slots an
// i64 iota, L + j a sum over a broadcast, compared signed into an i1 table
// that selects 0 or -inf. Signed, a query position q < 0 shows no slot:
// the block's positions are max(q, -1) + 1 and p(i) + 1, compared
// unsigned as the block does.
// CHECK-LABEL: func.func @causal_mask_signed(
// CHECK-SAME: %[[LEN:[^:]*]]: tensor<i64>
// CHECK: %[[POS1:.*]] = tensor.generate
// CHECK: arith.addi %{{.*}}, %c1
// CHECK: } : tensor<4xindex>
// CHECK: tensor.expand_shape {{.*}} into tensor<1x1x1x16xi1>
// CHECK: %[[L64:.*]] = tensor.extract %[[LEN]][] : tensor<i64>
// CHECK-NEXT: %[[L:.*]] = arith.index_cast %[[L64]] : i64 to index
// CHECK-NEXT: %[[QPOS:.*]] = tensor.generate
// CHECK-NEXT: ^bb0(%{{.*}}: index):
// CHECK: %[[MAX:.*]] = arith.maxsi %[[L]], %c-1
// CHECK-NEXT: arith.addi %[[MAX]], %c1
// CHECK: } : tensor<1xindex>
// CHECK: seqpar.attention_block {{.*}} positions(%[[QPOS]], %[[POS1]]) {causal, scale
// expected-remark @+1 {{1 masks causal by position}}
func.func @causal_mask_signed(%q: tensor<1x4x1x8xf32>, %kn: tensor<1x2x1x8xf32>, %kc: tensor<1x2x16x8xf32>,
                              %len: tensor<i64>) -> (tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>) {
  %l64 = tensor.extract %len[] : tensor<i64>
  %c0 = arith.constant 0 : i64
  %clamped = arith.maxsi %l64, %c0 : i64
  %l = arith.index_cast %clamped : i64 to index
  %k = tensor.insert_slice %kn into %kc[0, 0, %l, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<1x2x1x8xf32> into tensor<1x2x16x8xf32>
  %e16 = tensor.empty() : tensor<16xi64>
  %slots = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%e16 : tensor<16xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    linalg.yield %p : i64
  } -> tensor<16xi64>
  %e1 = tensor.empty() : tensor<1xi64>
  %iota1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%e1 : tensor<1xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    linalg.yield %p : i64
  } -> tensor<1xi64>
  %qj = linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                        iterator_types = ["parallel"]}
      ins(%len, %iota1 : tensor<i64>, tensor<1xi64>) outs(%e1 : tensor<1xi64>) {
  ^bb0(%a: i64, %b: i64, %out: i64):
    %s = arith.addi %a, %b : i64
    linalg.yield %s : i64
  } -> tensor<1xi64>
  %qcol = tensor.expand_shape %qj [[0, 1]] output_shape [1, 1] : tensor<1xi64> into tensor<1x1xi64>
  %eb = tensor.empty() : tensor<1x16xi1>
  %seen = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%slots, %qcol : tensor<16xi64>, tensor<1x1xi64>) outs(%eb : tensor<1x16xi1>) {
  ^bb0(%kp: i64, %qp: i64, %out: i1):
    %c = arith.cmpi sle, %kp, %qp : i64
    linalg.yield %c : i1
  } -> tensor<1x16xi1>
  %seen4 = tensor.expand_shape %seen [[0, 1, 2], [3]] output_shape [1, 1, 1, 16] : tensor<1x16xi1> into tensor<1x1x1x16xi1>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %em = tensor.empty() : tensor<1x1x1x16xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%seen4 : tensor<1x1x1x16xi1>) outs(%em : tensor<1x1x1x16xf32>) {
  ^bb0(%c: i1, %out: f32):
    %y = arith.select %c, %zero, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<1x1x1x16xf32>
  %o = seqpar.attention %q, %k, %k mask(%mask : tensor<1x1x1x16xf32>) {scale = 0.35 : f32}
      : tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32> -> tensor<1x4x1x8xf32>
  return %o, %k : tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>
}

// finfo(f32).min, compared unsigned: slot 0 is shown to every row, so the
// finite value hides as -inf does (docs/semantics.md §4.5).
// CHECK-LABEL: func.func @finite_unsigned(
// CHECK: seqpar.attention_block {{.*}} {causal, scale
// expected-remark @+1 {{1 masks causal by position}}
func.func @finite_unsigned(%q: tensor<1x4x1x8xf32>, %kn: tensor<1x2x1x8xf32>, %kc: tensor<1x2x16x8xf32>, %l: index)
    -> (tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>) {
  %k = tensor.insert_slice %kn into %kc[0, 0, %l, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<1x2x1x8xf32> into tensor<1x2x16x8xf32>
  %fmin = arith.constant -3.40282347E+38 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x1x16xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<1x1x1x16xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %qp = arith.addi %l, %i : index
    %hide = arith.cmpi ugt, %j, %qp : index
    %y = arith.select %hide, %fmin, %zero : f32
    linalg.yield %y : f32
  } -> tensor<1x1x1x16xf32>
  %o = seqpar.attention %q, %k, %k mask(%mask : tensor<1x1x1x16xf32>) {scale = 0.35 : f32}
      : tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32> -> tensor<1x4x1x8xf32>
  return %o, %k : tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>
}

// Kept: finfo(f32).min compared signed (L + j < 0 hides every slot, and
// the additive mask then weighs them all the same).
// CHECK-LABEL: func.func @finite_signed(
// CHECK: seqpar.attention_block {{.*}} positions({{.*}}) mask(
// CHECK-NOT: causal
// CHECK: return
// expected-remark @+1 {{merge all-gather: 480 bytes sent per rank}}
func.func @finite_signed(%q: tensor<1x4x1x8xf32>, %kn: tensor<1x2x1x8xf32>, %kc: tensor<1x2x16x8xf32>, %l: index)
    -> (tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>) {
  %k = tensor.insert_slice %kn into %kc[0, 0, %l, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<1x2x1x8xf32> into tensor<1x2x16x8xf32>
  %fmin = arith.constant -3.40282347E+38 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x1x16xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<1x1x1x16xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %qp = arith.addi %l, %i : index
    %seen = arith.cmpi sle, %j, %qp : index
    %y = arith.select %seen, %zero, %fmin : f32
    linalg.yield %y : f32
  } -> tensor<1x1x1x16xf32>
  // expected-remark @+1 {{decode context parallelism keeps the attention's additive mask (each rank computes all its slots, whatever L): its mask hides keys with the finite -3.402823e+38 and compares positions signed}}
  %o = seqpar.attention %q, %k, %k mask(%mask : tensor<1x1x1x16xf32>) {scale = 0.35 : f32}
      : tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32> -> tensor<1x4x1x8xf32>
  return %o, %k : tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>
}

// Kept: an arbitrary additive mask (an argument).
// CHECK-LABEL: func.func @mask_argument(
// CHECK: seqpar.attention_block {{.*}} mask(
// expected-remark @+1 {{merge all-gather: 480 bytes sent per rank}}
func.func @mask_argument(%q: tensor<1x4x1x8xf32>, %kn: tensor<1x2x1x8xf32>, %kc: tensor<1x2x16x8xf32>, %l: index,
                         %mask: tensor<1x1x1x16xf32>) -> (tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>) {
  %k = tensor.insert_slice %kn into %kc[0, 0, %l, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<1x2x1x8xf32> into tensor<1x2x16x8xf32>
  // expected-remark @+1 {{keeps the attention's additive mask (each rank computes all its slots, whatever L): the mask is not select(compare(key position, query position), 0, c)}}
  %o = seqpar.attention %q, %k, %k mask(%mask : tensor<1x1x1x16xf32>) {scale = 0.35 : f32}
      : tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32> -> tensor<1x4x1x8xf32>
  return %o, %k : tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>
}

// Kept: the causal mask plus padding (an argument's 0/-1e4 per slot): not
// causality alone.
// CHECK-LABEL: func.func @extra_padding(
// CHECK: seqpar.attention_block {{.*}} mask(
// expected-remark @+1 {{merge all-gather: 480 bytes sent per rank}}
func.func @extra_padding(%q: tensor<1x4x1x8xf32>, %kn: tensor<1x2x1x8xf32>, %kc: tensor<1x2x16x8xf32>, %l: index,
                         %pad: tensor<16xf32>) -> (tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>) {
  %k = tensor.insert_slice %kn into %kc[0, 0, %l, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<1x2x1x8xf32> into tensor<1x2x16x8xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x1x16xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%pad : tensor<16xf32>) outs(%e : tensor<1x1x1x16xf32>) {
  ^bb0(%p: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %qp = arith.addi %l, %i : index
    %seen = arith.cmpi ule, %j, %qp : index
    %y = arith.select %seen, %zero, %ninf : f32
    %z = arith.addf %y, %p : f32
    linalg.yield %z : f32
  } -> tensor<1x1x1x16xf32>
  // expected-remark @+1 {{keeps the attention's additive mask (each rank computes all its slots, whatever L): the mask is not select}}
  %o = seqpar.attention %q, %k, %k mask(%mask : tensor<1x1x1x16xf32>) {scale = 0.35 : f32}
      : tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32> -> tensor<1x4x1x8xf32>
  return %o, %k : tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>
}

// Kept: a mask that hides keys with -1e4 (not -inf for every row).
// CHECK-LABEL: func.func @weak_mask(
// CHECK: seqpar.attention_block {{.*}} mask(
// expected-remark @+1 {{merge all-gather: 480 bytes sent per rank}}
func.func @weak_mask(%q: tensor<1x4x1x8xf32>, %kn: tensor<1x2x1x8xf32>, %kc: tensor<1x2x16x8xf32>, %l: index)
    -> (tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>) {
  %k = tensor.insert_slice %kn into %kc[0, 0, %l, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<1x2x1x8xf32> into tensor<1x2x16x8xf32>
  %weak = arith.constant -1.0e4 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x1x16xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<1x1x1x16xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %qp = arith.addi %l, %i : index
    %seen = arith.cmpi ule, %j, %qp : index
    %y = arith.select %seen, %zero, %weak : f32
    linalg.yield %y : f32
  } -> tensor<1x1x1x16xf32>
  // expected-remark @+1 {{its mask hides keys with -1.000000e+04, above -1.000000e+08 (not -inf for every row)}}
  %o = seqpar.attention %q, %k, %k mask(%mask : tensor<1x1x1x16xf32>) {scale = 0.35 : f32}
      : tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32> -> tensor<1x4x1x8xf32>
  return %o, %k : tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>
}

// -----

// One rank: the caches stay whole, the mask still becomes causality by
// position (query positions L + j, slots 0..).
shard.grid @grid(shape = 1)

// CHECK-LABEL: func.func @one_rank(
// CHECK-SAME: tensor<1x2x16x8xf32>
// CHECK: tensor.insert_slice
// CHECK: %[[QPOS:.*]] = tensor.generate
// CHECK: %[[POS:.*]] = tensor.generate
// CHECK: } : tensor<16xindex>
// CHECK: seqpar.attention_block {{.*}} positions(%[[QPOS]], %[[POS]]) {causal, scale
// CHECK-NOT: seqpar.attention
// CHECK: return
// expected-remark @+1 {{decode context parallelism: grid axis 0 of @grid has one rank; nothing to shard}}
func.func @one_rank(%q: tensor<1x4x1x8xf32>, %kn: tensor<1x2x1x8xf32>, %kc: tensor<1x2x16x8xf32>, %l: index)
    -> (tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>) {
  %k = tensor.insert_slice %kn into %kc[0, 0, %l, 0] [1, 2, 1, 8] [1, 1, 1, 1] : tensor<1x2x1x8xf32> into tensor<1x2x16x8xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x1x16xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<1x1x1x16xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %qp = arith.addi %l, %i : index
    %seen = arith.cmpi ule, %j, %qp : index
    %y = arith.select %seen, %zero, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<1x1x1x16xf32>
  // expected-remark @+1 {{decode context parallelism: the attention's mask is causal by position (key tiles past the last query skipped)}}
  %o = seqpar.attention %q, %k, %k mask(%mask : tensor<1x1x1x16xf32>) {scale = 0.35 : f32}
      : tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32> -> tensor<1x4x1x8xf32>
  return %o, %k : tensor<1x4x1x8xf32>, tensor<1x2x16x8xf32>
}
