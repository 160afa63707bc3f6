// A decode step over a KV cache sharded block-cyclically (`cyclic 2`, 4
// ranks, 16 slots: rank r holds positions {2r, 2r+1, 2r+8, 2r+9}) written
// by hand as a per-rank program, the form a decode rewrite produces
// (docs/semantics.md §2): T = 2 new tokens at global positions len, len + 1;
// @decode_late (len = 9: the new tokens land on ranks 0 and 1, every rank
// sees cached tokens) and @decode_early (len = 1: ranks 2 and 3 hold no
// visible token and contribute the empty partial).
shard.grid @grid(shape = 4) {sym_visibility = "private"}

func.func @decode_late(
    %q: tensor<1x4x2x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
    %kn: tensor<1x2x2x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
    %vn: tensor<1x2x2x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
    %kc: tensor<1x2x4x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [], [0] cyclic 2]>},
    %vc: tensor<1x2x4x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [], [0] cyclic 2]>})
    -> (tensor<1x4x2x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
        tensor<1x2x4x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [], [0] cyclic 2]>},
        tensor<1x2x4x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [], [0] cyclic 2]>}) {
  %len = arith.constant 9 : index
  %r = shard.process_multi_index on @grid axes = [0] : index
  %o, %k, %v = func.call @decode_step(%q, %kn, %vn, %kc, %vc, %len, %r)
      : (tensor<1x4x2x8xf32>, tensor<1x2x2x8xf32>, tensor<1x2x2x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, index, index)
      -> (tensor<1x4x2x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>)
  return %o, %k, %v : tensor<1x4x2x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>
}

func.func @decode_early(
    %q: tensor<1x4x2x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
    %kn: tensor<1x2x2x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
    %vn: tensor<1x2x2x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
    %kc: tensor<1x2x4x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [], [0] cyclic 2]>},
    %vc: tensor<1x2x4x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [], [0] cyclic 2]>})
    -> (tensor<1x4x2x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
        tensor<1x2x4x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [], [0] cyclic 2]>},
        tensor<1x2x4x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [], [0] cyclic 2]>}) {
  %len = arith.constant 1 : index
  %r = shard.process_multi_index on @grid axes = [0] : index
  %o, %k, %v = func.call @decode_step(%q, %kn, %vn, %kc, %vc, %len, %r)
      : (tensor<1x4x2x8xf32>, tensor<1x2x2x8xf32>, tensor<1x2x2x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, index, index)
      -> (tensor<1x4x2x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>)
  return %o, %k, %v : tensor<1x4x2x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>
}

// The new tokens' K or V written into the rank's cache slots: slot i holds
// global position p(i) = ((i / I) * N + r) * I + i mod I (N = 4 ranks,
// I = 2); positions len .. len+1 are the new tokens', written by their
// owner only, as a select.
func.func private @write_new(%cache: tensor<1x2x4x8xf32>, %new: tensor<1x2x2x8xf32>,
                             %pos: tensor<4xindex>, %len: index) -> tensor<1x2x4x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %init = tensor.empty() : tensor<1x2x4x8xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(b, h, i, e) -> (b, h, i, e)>, affine_map<(b, h, i, e) -> (b, h, i, e)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%cache : tensor<1x2x4x8xf32>) outs(%init : tensor<1x2x4x8xf32>) {
  ^bb0(%old: f32, %o: f32):
    %b = linalg.index 0 : index
    %h = linalg.index 1 : index
    %i = linalg.index 2 : index
    %e = linalg.index 3 : index
    %p = tensor.extract %pos[%i] : tensor<4xindex>
    %ge = arith.cmpi sge, %p, %len : index
    %end = arith.addi %len, %c2 : index
    %lt = arith.cmpi slt, %p, %end : index
    %mine = arith.andi %ge, %lt : i1
    %j0 = arith.subi %p, %len : index
    %j1 = arith.maxsi %j0, %c0 : index
    %j = arith.minsi %j1, %c1 : index
    %fresh = tensor.extract %new[%b, %h, %j, %e] : tensor<1x2x2x8xf32>
    %y = arith.select %mine, %fresh, %old : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x8xf32>
  return %out : tensor<1x2x4x8xf32>
}

// One decode step of T = 2 new tokens at positions len, len + 1 over a KV
// cache of 16 slots dealt block-cyclically (interleave 2) over 4 ranks:
// the new K/V written on their owner, each rank's partial attention of the
// replicated queries over its own slots (causal by global position, so slots
// past a query's position, unwritten ones included, are masked; a rank with
// no visible slot has max -inf, sum 0), the partials all-gathered and merged
// by the LSE rule in rank order.
func.func private @decode_step(%q: tensor<1x4x2x8xf32>, %kn: tensor<1x2x2x8xf32>, %vn: tensor<1x2x2x8xf32>,
                               %kc: tensor<1x2x4x8xf32>, %vc: tensor<1x2x4x8xf32>, %len: index, %r: index)
    -> (tensor<1x4x2x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %pos = tensor.generate {
  ^bb0(%i: index):
    %round = arith.divui %i, %c2 : index
    %in = arith.remui %i, %c2 : index
    %blk0 = arith.muli %round, %c4 : index
    %blk = arith.addi %blk0, %r : index
    %start = arith.muli %blk, %c2 : index
    %p = arith.addi %start, %in : index
    tensor.yield %p : index
  } : tensor<4xindex>
  %qpos = tensor.generate {
  ^bb0(%j: index):
    %p = arith.addi %len, %j : index
    tensor.yield %p : index
  } : tensor<2xindex>
  %k = func.call @write_new(%kc, %kn, %pos, %len) : (tensor<1x2x4x8xf32>, tensor<1x2x2x8xf32>, tensor<4xindex>, index) -> tensor<1x2x4x8xf32>
  %v = func.call @write_new(%vc, %vn, %pos, %len) : (tensor<1x2x4x8xf32>, tensor<1x2x2x8xf32>, tensor<4xindex>, index) -> tensor<1x2x4x8xf32>
  %o, %m, %l = seqpar.attention_block %q, %k, %v positions(%qpos, %pos) {causal, scale = 0.35 : f32}
      : tensor<1x4x2x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<2xindex>, tensor<4xindex> -> tensor<1x4x2x8xf32>, tensor<1x4x2xf32>
  %og = shard.all_gather %o on @grid grid_axes = [0] gather_axis = 0 : tensor<1x4x2x8xf32> -> tensor<4x4x2x8xf32>
  %mg = shard.all_gather %m on @grid grid_axes = [0] gather_axis = 0 : tensor<1x4x2xf32> -> tensor<4x4x2xf32>
  %lg = shard.all_gather %l on @grid grid_axes = [0] gather_axis = 0 : tensor<1x4x2xf32> -> tensor<4x4x2xf32>
  %o0 = tensor.extract_slice %og[0, 0, 0, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<4x4x2x8xf32> to tensor<1x4x2x8xf32>
  %m0 = tensor.extract_slice %mg[0, 0, 0] [1, 4, 2] [1, 1, 1] : tensor<4x4x2xf32> to tensor<1x4x2xf32>
  %l0 = tensor.extract_slice %lg[0, 0, 0] [1, 4, 2] [1, 1, 1] : tensor<4x4x2xf32> to tensor<1x4x2xf32>
  %o1 = tensor.extract_slice %og[1, 0, 0, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<4x4x2x8xf32> to tensor<1x4x2x8xf32>
  %m1 = tensor.extract_slice %mg[1, 0, 0] [1, 4, 2] [1, 1, 1] : tensor<4x4x2xf32> to tensor<1x4x2xf32>
  %l1 = tensor.extract_slice %lg[1, 0, 0] [1, 4, 2] [1, 1, 1] : tensor<4x4x2xf32> to tensor<1x4x2xf32>
  %o2 = tensor.extract_slice %og[2, 0, 0, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<4x4x2x8xf32> to tensor<1x4x2x8xf32>
  %m2 = tensor.extract_slice %mg[2, 0, 0] [1, 4, 2] [1, 1, 1] : tensor<4x4x2xf32> to tensor<1x4x2xf32>
  %l2 = tensor.extract_slice %lg[2, 0, 0] [1, 4, 2] [1, 1, 1] : tensor<4x4x2xf32> to tensor<1x4x2xf32>
  %o3 = tensor.extract_slice %og[3, 0, 0, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<4x4x2x8xf32> to tensor<1x4x2x8xf32>
  %m3 = tensor.extract_slice %mg[3, 0, 0] [1, 4, 2] [1, 1, 1] : tensor<4x4x2xf32> to tensor<1x4x2xf32>
  %l3 = tensor.extract_slice %lg[3, 0, 0] [1, 4, 2] [1, 1, 1] : tensor<4x4x2xf32> to tensor<1x4x2xf32>
  %oa, %ma, %la = seqpar.attention_merge (%o0, %m0, %l0), (%o1, %m1, %l1) : tensor<1x4x2x8xf32>, tensor<1x4x2xf32>
  %ob, %mb, %lb = seqpar.attention_merge (%oa, %ma, %la), (%o2, %m2, %l2) : tensor<1x4x2x8xf32>, tensor<1x4x2xf32>
  %oc, %mc, %lc = seqpar.attention_merge (%ob, %mb, %lb), (%o3, %m3, %l3) : tensor<1x4x2x8xf32>, tensor<1x4x2xf32>
  return %oc, %k, %v : tensor<1x4x2x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>
}
