// RUN: seqpar-opt %s -split-input-file --seqpar-context-parallel="kv-cache-interleave=1" --canonicalize --cse 2>/dev/null | FileCheck %s --check-prefix=ZIGZAG
// RUN: seqpar-opt %s -split-input-file --seqpar-context-parallel="load-balance=none kv-cache-interleave=2" --canonicalize --cse 2>/dev/null | FileCheck %s --check-prefix=CONTIG
// RUN: seqpar-opt %s -split-input-file --seqpar-context-parallel="kv-cache-interleave=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// A prefill's K/V returned block-cyclic (docs/decode.md, "From prefill to
// decode") under ring attention: GQA 4/2, s = 8 on c = 2 ranks. The K and V
// the function returns are the ones the ring carries, so each rank copies
// its slots out of every block it holds (its own at step 0, the received
// one at step 1), while the next block is in flight: no all_to_all.

// Zigzag, interleave 1: rank r's block from source rank j holds chunks j
// and 3-j of 2 tokens; each chunk viewed as [round, owner, within] =
// [1, 2, 1] gives owner r's token to slot j (first chunk) or 3-j (second).
// ZIGZAG-LABEL: func.func @prefill
// ZIGZAG-SAME: -> (tensor<1x4x16xf32> {{.*}}, tensor<1x2x4x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, {{\[\[}}], [], [0] cyclic 1]>}, tensor<1x2x4x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, {{\[\[}}], [], [0] cyclic 1]>})
// ZIGZAG-DAG: %[[C3:.*]] = arith.constant 3 : index
// ZIGZAG-DAG: %[[RANK:.*]] = shard.process_multi_index on @grid axes = [0]
// ZIGZAG: seqpar.shift_start %arg1 {{.*}}ring_begin
// ZIGZAG: seqpar.attention_block %arg0, %arg1, %arg2
// ZIGZAG: %[[SLOTS:.*]] = tensor.empty() : tensor<1x2x4x4xf32>
// ZIGZAG: %[[K0:.*]] = tensor.extract_slice %arg1[0, 0, 0, 0] [1, 2, 2, 4]
// ZIGZAG: %[[K0V:.*]] = tensor.expand_shape %[[K0]] {{.*}} output_shape [1, 2, 1, 2, 1, 4]
// ZIGZAG: %[[K0R:.*]] = tensor.extract_slice %[[K0V]][0, 0, 0, %[[RANK]], 0, 0] [1, 2, 1, 1, 1, 4]
// ZIGZAG: %[[K0C:.*]] = tensor.collapse_shape %[[K0R]]
// ZIGZAG: %[[KA:.*]] = tensor.insert_slice %[[K0C]] into %[[SLOTS]][0, 0, %[[RANK]], 0] [1, 2, 1, 4]
// ZIGZAG: tensor.extract_slice %arg1[0, 0, 2, 0] [1, 2, 2, 4]
// ZIGZAG: %[[SECOND:.*]] = arith.subi %[[C3]], %[[RANK]]
// ZIGZAG: %[[KB:.*]] = tensor.insert_slice {{.*}} into %[[KA]][0, 0, %[[SECOND]], 0] [1, 2, 1, 4]
// ZIGZAG: tensor.extract_slice %arg2[0, 0, 0, 0] [1, 2, 2, 4]
// ZIGZAG: %[[VB:.*]] = tensor.insert_slice {{.*}}[0, 0, %[[SECOND]], 0] [1, 2, 1, 4]
// ZIGZAG: %[[K1:.*]] = seqpar.wait
// ZIGZAG: %[[V1:.*]] = seqpar.wait {{.*}}ring_end
// ZIGZAG: %[[SOURCE:.*]] = arith.remui
// ZIGZAG: scf.if
// ZIGZAG: seqpar.attention_merge
// ZIGZAG: tensor.extract_slice %[[K1]][0, 0, 0, 0] [1, 2, 2, 4]
// ZIGZAG: %[[KC:.*]] = tensor.insert_slice {{.*}} into %[[KB]][0, 0, %[[SOURCE]], 0] [1, 2, 1, 4]
// ZIGZAG: tensor.extract_slice %[[K1]][0, 0, 2, 0] [1, 2, 2, 4]
// ZIGZAG: %[[SECOND1:.*]] = arith.subi %[[C3]], %[[SOURCE]]
// ZIGZAG: %[[KD:.*]] = tensor.insert_slice {{.*}} into %[[KC]][0, 0, %[[SECOND1]], 0] [1, 2, 1, 4]
// ZIGZAG: tensor.extract_slice %[[V1]][0, 0, 0, 0] [1, 2, 2, 4]
// ZIGZAG: %[[VC:.*]] = tensor.insert_slice {{.*}} into %[[VB]][0, 0, %[[SOURCE]], 0] [1, 2, 1, 4]
// ZIGZAG: %[[VD:.*]] = tensor.insert_slice {{.*}} into %[[VC]][0, 0, %[[SECOND1]], 0] [1, 2, 1, 4]
// ZIGZAG-NOT: shard.all_to_all
// ZIGZAG: return %{{.*}}, %[[KD]], %[[VD]]

// Contiguous, interleave 2: source rank j's 4 tokens are one round
// [1, 2 owners, 2 within], owner r's 2 tokens go to slots 2j and 2j+1.
// CONTIG-LABEL: func.func @prefill
// CONTIG-SAME: tensor<1x2x4x4xf32> {seqpar.sharding = #seqpar.sharding<@grid, {{\[\[}}], [], [0] cyclic 2]>}
// CONTIG-DAG: %[[RANK:.*]] = shard.process_multi_index on @grid axes = [0]
// CONTIG: %[[SLOTS:.*]] = tensor.empty() : tensor<1x2x4x4xf32>
// CONTIG: %[[KV:.*]] = tensor.expand_shape %arg1 {{.*}} output_shape [1, 2, 1, 2, 2, 4]
// CONTIG: tensor.extract_slice %[[KV]][0, 0, 0, %[[RANK]], 0, 0] [1, 2, 1, 1, 2, 4]
// CONTIG: %[[AT:.*]] = arith.muli %[[RANK]], %c2
// CONTIG: %[[KA:.*]] = tensor.insert_slice {{.*}} into %[[SLOTS]][0, 0, %[[AT]], 0] [1, 2, 2, 4]
// CONTIG: %[[K1:.*]] = seqpar.wait
// CONTIG: seqpar.wait {{.*}}ring_end
// CONTIG: %[[SOURCE:.*]] = arith.remui
// CONTIG: %[[K1V:.*]] = tensor.expand_shape %[[K1]] {{.*}} output_shape [1, 2, 1, 2, 2, 4]
// CONTIG: tensor.extract_slice %[[K1V]][0, 0, 0, %[[RANK]], 0, 0]
// CONTIG: %[[AT1:.*]] = arith.muli %[[SOURCE]], %c2
// CONTIG: %[[KB:.*]] = tensor.insert_slice {{.*}} into %[[KA]][0, 0, %[[AT1]], 0] [1, 2, 2, 4]
// CONTIG-NOT: shard.all_to_all
// CONTIG: return %{{.*}}, %[[KB]], %{{.*}}

// REMARK: remark: context-parallel over @grid axes [0] (c=2, s=8, zigzag): 1 attention -> ring (2 transfers, 256 bytes sent per rank), 0 all_gather (0 bytes) for ops that need all tokens; 2 K/V results block-cyclic (interleave 1) kept from the ring's K/V blocks (0 bytes)
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  shard.grid @grid(shape = 2)
  func.func @prefill(%q: tensor<1x4x8x4xf32> {seqpar.seq_dim = 2 : i64},
                     %k: tensor<1x2x8x4xf32> {seqpar.seq_dim = 2 : i64},
                     %v: tensor<1x2x8x4xf32> {seqpar.seq_dim = 2 : i64})
      -> (tensor<1x8x16xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) {
    %o = seqpar.attention %q, %k, %v {causal, scale = 0.5 : f32}
        : tensor<1x4x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x4x8x4xf32>
    %init = tensor.empty() : tensor<1x8x4x4xf32>
    %t = linalg.transpose ins(%o : tensor<1x4x8x4xf32>)
        outs(%init : tensor<1x8x4x4xf32>) permutation = [0, 2, 1, 3]
    %h = tensor.collapse_shape %t [[0], [1], [2, 3]]
        : tensor<1x8x4x4xf32> into tensor<1x8x16xf32>
    return %h, %k, %v : tensor<1x8x16xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>
  }
}

// -----

// The K returned is not the one the attention reads (k * 2, as a K before
// RoPE would be): the ring never holds it, so it is relaid by an
// all_to_all, with a remark; the V is still kept from the ring.
// REMARK: remark: context-parallel: result #1 relaid block-cyclic by an all_to_all: it is not the key or value a ring attention carries (only those are kept from the ring's blocks)
// REMARK: remark: context-parallel over @grid axes [0] (c=2, s=8, zigzag): {{.*}}; 1 K/V results block-cyclic (interleave 1, 1 all_to_all each, 64 bytes); 1 K/V results block-cyclic (interleave 1) kept from the ring's K/V blocks (0 bytes)
// ZIGZAG-LABEL: func.func @not_carried
// ZIGZAG: seqpar.attention_block %arg0, %arg1, %arg2
// ZIGZAG: %[[DOUBLED:.*]] = linalg.generic
// ZIGZAG: shard.all_to_all {{.*}} on @grid grid_axes = [0] split_axis = 2 concat_axis = 2
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  shard.grid @grid(shape = 2)
  func.func @not_carried(%q: tensor<1x4x8x4xf32> {seqpar.seq_dim = 2 : i64},
                         %k: tensor<1x2x8x4xf32> {seqpar.seq_dim = 2 : i64},
                         %v: tensor<1x2x8x4xf32> {seqpar.seq_dim = 2 : i64})
      -> (tensor<1x8x16xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) {
    %o = seqpar.attention %q, %k, %v {causal, scale = 0.5 : f32}
        : tensor<1x4x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x4x8x4xf32>
    %init = tensor.empty() : tensor<1x8x4x4xf32>
    %t = linalg.transpose ins(%o : tensor<1x4x8x4xf32>)
        outs(%init : tensor<1x8x4x4xf32>) permutation = [0, 2, 1, 3]
    %h = tensor.collapse_shape %t [[0], [1], [2, 3]]
        : tensor<1x8x4x4xf32> into tensor<1x8x16xf32>
    %kinit = tensor.empty() : tensor<1x2x8x4xf32>
    %k2 = linalg.generic {indexing_maps = [#id, #id],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%k : tensor<1x2x8x4xf32>) outs(%kinit : tensor<1x2x8x4xf32>) {
    ^bb0(%x: f32, %out: f32):
      %y = arith.addf %x, %x : f32
      linalg.yield %y : f32
    } -> tensor<1x2x8x4xf32>
    return %h, %k2, %v : tensor<1x8x16xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>
  }
}
