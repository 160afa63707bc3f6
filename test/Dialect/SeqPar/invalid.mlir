// RUN: seqpar-opt %s -split-input-file -verify-diagnostics

// Tests that a grid axis cannot appear twice in one sharding.

shard.grid @grid(shape = 2x2) {sym_visibility = "private"}
// expected-error @+1 {{grid axis 0 is used more than once in the sharding}}
func.func @axis_twice(%a: tensor<4x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0], [0]]>}) {
  return
}

// -----

// Tests that negative grid axes are rejected.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-error @+1 {{grid axis must be non-negative, got -1}}
func.func @negative_axis(%a: tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[-1]]>}) {
  return
}

// -----

// Tests that a grouped split needs at least two groups.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-error @+1 {{groups must be at least 2, got 1}}
func.func @one_group(%a: tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0] groups 1]>}) {
  return
}

// -----

// Tests that a zigzag split needs a grid axis.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-error @+1 {{a zigzag split needs at least one grid axis}}
func.func @zigzag_no_axis(%a: tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[] zigzag]>}) {
  return
}

// -----

// Tests that a cyclic split needs an interleave of at least 1.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-error @+1 {{the interleave of a cyclic split must be at least 1, got 0}}
func.func @cyclic_zero(%a: tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0] cyclic 0]>}) {
  return
}

// -----

// Tests that a cyclic split needs a grid axis.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-error @+1 {{a cyclic split needs at least one grid axis}}
func.func @cyclic_no_axis(%a: tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[] cyclic 2]>}) {
  return
}

// -----

// Tests that a cyclic per-rank dim must hold whole blocks of the interleave.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-error @+1 {{per-rank dim 0 of size 6 is not divisible into 4 cyclic chunks}}
func.func @cyclic_partial_block(%a: tensor<6xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[0] cyclic 4]>}) {
  return
}

// -----

// Tests that the grid must exist.

// expected-error @+1 {{argument #0 attribute 'seqpar.sharding': grid @nogrid is not a shard.grid visible here}}
func.func @missing_grid(%a: tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@nogrid, [[0]]>}) {
  return
}

// -----

// Tests that axes must exist on the grid.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-error @+1 {{grid axis 1 is out of range for @grid of rank 1}}
func.func @axis_out_of_range(%a: tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[1]]>}) {
  return
}

// -----

// Tests that a sharding cannot have more dims than the value.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-error @+1 {{sharding has 2 dims but the value has rank 1}}
func.func @too_many_dims(%a: tensor<4xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0]]>}) {
  return
}

// -----

// Tests that a grouped per-rank dim must hold whole groups.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-error @+1 {{per-rank dim 1 of size 8 is not divisible into 3 grouped chunks}}
func.func @partial_groups(%a: tensor<4x8xf32> {seqpar.sharding = #seqpar.sharding<@grid, [[], [0] groups 3]>}) {
  return
}

// -----

// Tests that a split sharding needs a tensor.

shard.grid @grid(shape = 2) {sym_visibility = "private"}
// expected-error @+1 {{a split or partial sharding needs a ranked tensor, got 'f32'}}
func.func @scalar(%a: f32 {seqpar.sharding = #seqpar.sharding<@grid, [], partial = [0]>}) {
  return
}

// -----

// Tests that seqpar.sharding must hold the sharding attribute.

// expected-error @+1 {{result #0 attribute 'seqpar.sharding': expected a #seqpar.sharding attribute}}
func.func @wrong_attr(%a: tensor<4xf32>) -> (tensor<4xf32> {seqpar.sharding = 3 : i64}) {
  return %a : tensor<4xf32>
}

// -----

// Tests that the sequence dim must exist on the argument.

// expected-error @+1 {{argument #0 attribute 'seqpar.seq_dim': sequence dim 2 is out of range for 'tensor<4x4xf32>'}}
func.func @seq_dim_range(%a: tensor<4x4xf32> {seqpar.seq_dim = 2 : i64}) {
  return
}

// -----

// Tests that unknown seqpar attributes are rejected.

// expected-error @+1 {{argument #0 attribute 'seqpar.bogus': unknown seqpar attribute}}
func.func @unknown_attr(%a: tensor<4xf32> {seqpar.bogus = 1 : i64}) {
  return
}

// -----

// Tests the dropout rate range.

func.func @dropout_rate(%x: tensor<4xf32>, %seed: i64) -> tensor<4xf32> {
  // expected-error @+1 {{rate must be in [0, 1), got 1}}
  %y = seqpar.dropout %x seed %seed {rate = 1.0 : f64, site = 0 : i64} : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Tests that dropout offsets come one per dim.

func.func @dropout_offsets(%x: tensor<4x4xf32>, %seed: i64, %o: index) -> tensor<4x4xf32> {
  // expected-error @+1 {{expects 2 offsets (one per dim), got 1}}
  %y = seqpar.dropout %x seed %seed offsets(%o) {rate = 0.5 : f64, site = 0 : i64} : tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// -----

// Tests that the global shape covers the shard.

func.func @dropout_global(%x: tensor<4x4xf32>, %seed: i64, %o: index) -> tensor<4x4xf32> {
  // expected-error @+1 {{global_shape dim 1 (2) is smaller than the local size 4}}
  %y = seqpar.dropout %x seed %seed offsets(%o, %o) {rate = 0.5 : f64, site = 0 : i64, global_shape = array<i64: 8, 2>} : tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// -----

// Tests that a global shape needs offsets.

func.func @dropout_global_no_offsets(%x: tensor<4x4xf32>, %seed: i64) -> tensor<4x4xf32> {
  // expected-error @+1 {{global_shape requires offsets}}
  %y = seqpar.dropout %x seed %seed {rate = 0.5 : f64, site = 0 : i64, global_shape = array<i64: 8, 4>} : tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// -----

// Tests that dropout needs a static shape.

func.func @dropout_dynamic(%x: tensor<?xf32>, %seed: i64) -> tensor<?xf32> {
  // expected-error @+1 {{requires a static shape}}
  %y = seqpar.dropout %x seed %seed {rate = 0.5 : f64, site = 0 : i64} : tensor<?xf32>
  return %y : tensor<?xf32>
}

// -----

// Tests that an attention's dropout region takes the four index
// coordinates (batch, head, query, key).
func.func @dropout_arguments(%q: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  // expected-error @+1 {{dropout region must take four index arguments (batch, head, query, key), got 2}}
  %o = seqpar.attention %q, %q, %q {scale = 1.0 : f32}
      : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
      dropout {
      ^bb0(%i: index, %j: index):
        %m = arith.constant 2.0 : f32
        seqpar.yield %m : f32
      }
  return %o : tensor<1x2x4x8xf32>
}

// -----

// Tests that the dropout region yields the multiplier in the query's
// element type.
func.func @dropout_type(%q: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  // expected-error @+1 {{dropout region must end in seqpar.yield of the keep multiplier, of the query's element type 'f32'}}
  %o = seqpar.attention %q, %q, %q {scale = 1.0 : f32}
      : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
      dropout {
      ^bb0(%b: index, %h: index, %i: index, %j: index):
        %m = arith.constant 2.0 : f16
        seqpar.yield %m : f16
      }
  return %o : tensor<1x2x4x8xf32>
}

// -----

// Tests that the dropout region is a function of the coordinates only: no
// side effects (a stateful generator would draw another mask per block).
func.func @dropout_effects(%q: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  // expected-error @+1 {{dropout region must be free of side effects (a function of the coordinates only), but holds 'memref.alloc'}}
  %o = seqpar.attention %q, %q, %q {scale = 1.0 : f32}
      : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
      dropout {
      ^bb0(%b: index, %h: index, %i: index, %j: index):
        %a = memref.alloc() : memref<f32>
        %m = arith.constant 2.0 : f32
        seqpar.yield %m : f32
      }
  return %o : tensor<1x2x4x8xf32>
}

// -----

// Tests that head_offset (the op's first global head) needs a dropout
// region, the only thing that reads it.
func.func @head_offset_alone(%q: tensor<1x2x4x8xf32>, %h: index) -> tensor<1x2x4x8xf32> {
  // expected-error @+1 {{head_offset requires a dropout region}}
  %o = seqpar.attention %q, %q, %q head_offset(%h) {scale = 1.0 : f32}
      : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32> -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// -----

// Tests that the KV-cache marker is a unit attribute on a 4-D tensor.
// expected-error @+1 {{argument #0 attribute 'seqpar.kv_cache': expected a unit attribute on a [b, a_kv, L_max, d] tensor}}
func.func @kv_cache_rank(%c: tensor<2x16x8xf32> {seqpar.kv_cache}) {
  return
}

// -----

// expected-error @+1 {{result #0 attribute 'seqpar.kv_cache': expected a unit attribute on a [b, a_kv, L_max, d] tensor}}
func.func @kv_cache_value(%c: tensor<1x2x16x8xf32>) -> (tensor<1x2x16x8xf32> {seqpar.kv_cache = 2 : i64}) {
  return %c : tensor<1x2x16x8xf32>
}

// -----

// Tests that a sequence block names a static dim its tokens tile.
func.func @sequence_block_tokens(%x: tensor<6x4xf32>) -> tensor<6x4xf32> {
  // expected-error @+1 {{attribute 'seqpar.sequence_block': 4 tokens of 1 rows do not tile dim 0 of 'tensor<6x4xf32>'}}
  %y = arith.addf %x, %x {seqpar.sequence_block = array<i64: 0, 4, 1>} : tensor<6x4xf32>
  return %y : tensor<6x4xf32>
}

// -----

func.func @sequence_block_dim(%x: tensor<6x4xf32>) -> tensor<6x4xf32> {
  // expected-error @+1 {{attribute 'seqpar.sequence_block': dim 2 is not a static dim of 'tensor<6x4xf32>'}}
  %y = arith.addf %x, %x {seqpar.sequence_block = array<i64: 2, 6, 1>} : tensor<6x4xf32>
  return %y : tensor<6x4xf32>
}

// -----

func.func @sequence_block_form(%x: tensor<6x4xf32>) -> tensor<6x4xf32> {
  // expected-error @+1 {{attribute 'seqpar.sequence_block': expected array<i64: dim, tokens, inner>}}
  %y = arith.addf %x, %x {seqpar.sequence_block = 0 : i64} : tensor<6x4xf32>
  return %y : tensor<6x4xf32>
}
