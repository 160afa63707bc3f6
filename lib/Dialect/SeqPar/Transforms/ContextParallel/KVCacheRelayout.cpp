//===- KVCacheRelayout.cpp - a prefill's K/V in the decode layout ---------===//
//
// A prefill's K/V results [b, a_kv, s, d], held per rank in the prefill's
// context-parallel split (contiguous or zigzag), moved to the decode layout:
// block-cyclic with interleave I (docs/decode.md, "From prefill to decode").
// Where the prefill all-gathered them (all-gather-KV), each rank slices its
// slots out of the gathered tensor; otherwise each rank sends every other
// rank the tokens that rank owns, in one all-to-all of (c-1)/c of its K/V,
// and a local permutation before and after puts them in position order.
//
//===----------------------------------------------------------------------===//

#include "ContextParallelBuilder.h"

#include "seqpar/Analysis/ByteCounts.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::seqpar;

/// `value` [b, h, n, d] viewed as [b, h, shape..., d] (the tokens split
/// into `shape`), dims permuted by `perm` over those token dims, and
/// collapsed back to [b, h, n, d].
static Value permuteTokens(OpBuilder &b, Location loc, Value value,
                           ArrayRef<int64_t> shape, ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> expanded{type.getDimSize(0), type.getDimSize(1)};
  llvm::append_range(expanded, shape);
  expanded.push_back(type.getDimSize(3));
  int64_t k = shape.size();
  SmallVector<ReassociationIndices> groups{{0}, {1}, {}, {k + 2}};
  for (int64_t i = 0; i < k; ++i)
    groups[2].push_back(2 + i);
  Value view = tensor::ExpandShapeOp::create(b, loc, type.clone(expanded),
                                             value, groups);
  SmallVector<int64_t> permutation{0, 1}, permuted{expanded[0], expanded[1]};
  for (int64_t p : perm) {
    permutation.push_back(2 + p);
    permuted.push_back(shape[p]);
  }
  permutation.push_back(k + 2);
  permuted.push_back(expanded.back());
  Value init = tensor::EmptyOp::create(b, loc, permuted, type.getElementType());
  Value moved = linalg::TransposeOp::create(b, loc, view, init, permutation)
                    .getResult()[0];
  return tensor::CollapseShapeOp::create(b, loc, type, moved, groups);
}

/// `value` [b, h, 2c * piece, d] holding, source by source, rank k's two
/// zigzag halves (chunks k and 2c-1-k of `piece` tokens each), put in
/// position order (chunks 0 .. 2c-1).
static Value zigzagToPositionOrder(OpBuilder &b, Location loc, Value value,
                                   int64_t n, int64_t piece) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<Value> pieces;
  for (int64_t chunk = 0; chunk < 2 * n; ++chunk) {
    int64_t source = chunk < n ? chunk : 2 * n - 1 - chunk;
    int64_t half = chunk < n ? 0 : 1;
    int64_t offset = (source * 2 + half) * piece;
    SmallVector<OpFoldResult> offsets{b.getIndexAttr(0), b.getIndexAttr(0),
                                      b.getIndexAttr(offset),
                                      b.getIndexAttr(0)},
        sizes{b.getIndexAttr(type.getDimSize(0)),
              b.getIndexAttr(type.getDimSize(1)), b.getIndexAttr(piece),
              b.getIndexAttr(type.getDimSize(3))},
        strides(4, b.getIndexAttr(1));
    pieces.push_back(tensor::ExtractSliceOp::create(b, loc, value, offsets,
                                                    sizes, strides));
  }
  return tensor::ConcatOp::create(b, loc, /*dim=*/2, pieces).getResult();
}

FailureOr<Value>
mlir::seqpar::relayoutToCyclic(OpBuilder &b, Location loc, Value local,
                               const ContextParallelTarget &target,
                               int64_t interleave, int64_t &bytesSent,
                               std::string &why) {
  auto type = cast<RankedTensorType>(local.getType());
  int64_t n = target.numRanks;
  if (type.getRank() != 4 || !type.hasStaticShape()) {
    why =
        "it is not a static [b, a_kv, s, d] tensor with the sequence in dim 2";
    return failure();
  }
  if (target.axes.size() != 1) {
    why = "the sequence is split over more than one grid axis (hybrid)";
    return failure();
  }
  // Tokens of one rank per source chunk that go to each destination: the
  // chunks (s/c contiguous, or the two halves of zigzag) must hold whole
  // rounds of c blocks of I tokens.
  int64_t localLen = type.getDimSize(2);
  int64_t chunkLen = target.zigzag ? localLen / 2 : localLen;
  if (interleave < 1 || chunkLen % (n * interleave) != 0 ||
      (target.zigzag && localLen % 2 != 0)) {
    why = "its " + std::to_string(chunkLen) + "-token chunks per rank are " +
          "not whole rounds of " + std::to_string(n) + " ranks x " +
          std::to_string(interleave) + " tokens";
    return failure();
  }
  int64_t rounds = chunkLen / (n * interleave);
  int64_t halves = target.zigzag ? 2 : 1;
  // Token t of a chunk, [half, round, destination, within], goes to rank
  // `destination` (whole rounds start at a multiple of c I): grouped by
  // destination for the all-to-all.
  Value grouped = permuteTokens(b, loc, local, {halves, rounds, n, interleave},
                                {2, 0, 1, 3});
  bytesSent += getBytesSent(CollectiveKind::AllToAll, type, n);
  Value received =
      shard::AllToAllOp::create(b, loc, type, target.grid,
                                b.getDenseI16ArrayAttr(target.axes), grouped,
                                b.getIndexAttr(2), b.getIndexAttr(2))
          .getResult();
  if (!target.zigzag)
    return received; // Sources in rank order are chunks in position order.
  // Received [source, half, round, within]: source k's halves.
  return zigzagToPositionOrder(b, loc, received, n, rounds * interleave);
}

FailureOr<Value> mlir::seqpar::cyclicFromGathered(
    OpBuilder &b, Location loc, Value gathered, Value rank,
    const ContextParallelTarget &target, int64_t interleave,
    std::string &why) {
  auto type = cast<RankedTensorType>(gathered.getType());
  int64_t n = target.numRanks;
  if (type.getRank() != 4 || !type.hasStaticShape() ||
      target.axes.size() != 1) {
    why = "it is not a static [b, a_kv, s, d] tensor gathered over one axis";
    return failure();
  }
  int64_t len = type.getDimSize(2);
  if (interleave < 1 || len % (n * interleave) != 0 ||
      (target.zigzag && len % (2 * n) != 0)) {
    why = "its " + std::to_string(len) + " tokens are not whole rounds of " +
          std::to_string(n) + " ranks x " + std::to_string(interleave) +
          " tokens";
    return failure();
  }
  Value ordered = target.zigzag
                      ? zigzagToPositionOrder(b, loc, gathered, n, len / (2 * n))
                      : gathered;
  // Position p = (round * c + owner) * I + within: this rank's slots are
  // owner = rank, one block of I tokens per round.
  int64_t rounds = len / (n * interleave);
  SmallVector<int64_t> view{type.getDimSize(0), type.getDimSize(1), rounds, n,
                            interleave, type.getDimSize(3)};
  SmallVector<ReassociationIndices> groups{{0}, {1}, {2, 3, 4}, {5}};
  Value blocks = tensor::ExpandShapeOp::create(b, loc, type.clone(view),
                                               ordered, groups);
  SmallVector<OpFoldResult> offsets(6, b.getIndexAttr(0)), sizes, strides(
                                                                  6, b.getIndexAttr(1));
  for (int64_t extent : view)
    sizes.push_back(b.getIndexAttr(extent));
  offsets[3] = rank;
  sizes[3] = b.getIndexAttr(1);
  SmallVector<int64_t> mine(view);
  mine[3] = 1;
  Value owned = tensor::ExtractSliceOp::create(
      b, loc, type.clone(mine), blocks, offsets, sizes, strides);
  SmallVector<int64_t> local{view[0], view[1], rounds * interleave, view[5]};
  return tensor::CollapseShapeOp::create(b, loc, type.clone(local), owned,
                                         groups)
      .getResult();
}
