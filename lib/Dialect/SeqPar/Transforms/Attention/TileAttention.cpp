//===- TileAttention.cpp - attention over key/value tiles -----------------===//
//
// The reference decomposition of an attention block materialises its
// [b, a, s, t] scores several times; at long sequences that, not the
// arithmetic, bounds what a rank can run. Splitting the keys into tiles and
// merging the tiles' (out, two-part LSE) with the rule of
// docs/semantics.md §4.3 (the ring's own merge, an online softmax) keeps every
// scores tensor at [b, a, s, tile].
//
//===----------------------------------------------------------------------===//

#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/Dialect/SeqPar/Transforms/Attention/AttentionPartial.h"
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"
#include "seqpar/Dialect/SeqPar/Transforms/Sharding/SequenceShardBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_TILEATTENTION
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// `whole` with `part` written at `offset` along `axis`.
Value insertAlong(OpBuilder &b, Location loc, Value part, Value whole,
                  int64_t axis, Value offset) {
  auto type = cast<RankedTensorType>(whole.getType());
  auto partType = cast<RankedTensorType>(part.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(type.getRank(), b.getIndexAttr(1));
  for (int64_t size : partType.getShape())
    sizes.push_back(b.getIndexAttr(size));
  offsets[axis] = offset;
  return tensor::InsertSliceOp::create(b, loc, part, whole, offsets, sizes,
                                       strides);
}

/// `size` elements of `value` from `offset` along `axis`; `value` as it is
/// when it is null or the axis is a broadcast one (size 1: a mask's rows,
/// columns or heads follow the tiles unless broadcast).
Value sliceUnlessBroadcast(OpBuilder &b, Location loc, Value value,
                           int64_t axis, OpFoldResult offset, int64_t size) {
  if (!value || cast<RankedTensorType>(value.getType()).getDimSize(axis) == 1)
    return value;
  return SequenceShardBuilder::sliceAlong(b, loc, value, axis, offset, size);
}

/// x + y written over x: running sums accumulate in place, not into a new
/// buffer copied back (bufferization reuses x's for an elementwise op).
Value addInPlace(OpBuilder &b, Location loc, Value x, Value y) {
  return linalg::AddOp::create(b, loc, TypeRange{x.getType()}, ValueRange{x, y},
                               ValueRange{x})
      .getResult(0);
}

/// The largest (`largest`) or smallest of the static 1-D index tensor
/// `positions`, compared unsigned as the causal mask compares positions.
Value positionBound(OpBuilder &b, Location loc, Value positions,
                    bool largest) {
  Value init = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{},
                                       b.getIndexType());
  // -1 is the largest index read unsigned.
  Value start = arith::ConstantIndexOp::create(b, loc, largest ? 0 : -1);
  Value filled = linalg::FillOp::create(b, loc, start, init).getResult(0);
  auto reduce = linalg::ReduceOp::create(
      b, loc, ValueRange{positions}, ValueRange{filled},
      ArrayRef<int64_t>{0},
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value bound =
            largest ? arith::MaxUIOp::create(nb, nl, args[0], args[1])
                          .getResult()
                    : arith::MinUIOp::create(nb, nl, args[0], args[1])
                          .getResult();
        linalg::YieldOp::create(nb, nl, bound);
      });
  return tensor::ExtractOp::create(b, loc, reduce.getResult(0), ValueRange{});
}

/// `merge(acc)` unless every key at `kvPositions` is after every query of a
/// causal block (the last query at `qLast`), in which case the tile is
/// wholly masked and its partial, the empty one, would leave `acc` as it
/// is: a runtime check, for blocks whose positions are not known statically
/// (ring steps, all-gather-KV, decode over a cache). With no `qLast`, just
/// `merge(acc)`.
SmallVector<Value> unlessInFuture(
    OpBuilder &b, Location loc, Value qLast, Value kvPositions,
    ValueRange acc,
    function_ref<SmallVector<Value>(OpBuilder &, Location)> merge) {
  if (!qLast)
    return merge(b, loc);
  Value kvFirst = positionBound(b, loc, kvPositions, /*largest=*/false);
  Value future = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                       kvFirst, qLast);
  auto branch = scf::IfOp::create(
      b, loc, future,
      [&](OpBuilder &ob, Location ol) { scf::YieldOp::create(ob, ol, acc); },
      [&](OpBuilder &ob, Location ol) {
        scf::YieldOp::create(ob, ol, merge(ob, ol));
      });
  return branch.getResults();
}

/// As unlessInFuture, and a tile whose keys are all at or before the first
/// query (`qFirst`) is merged by `merge(false)`, its block not causal: the
/// causal mask would keep every score, so its compare and select per score
/// are not made. The rest (the tiles across the diagonal) by `merge(true)`.
/// For blocks whose positions are not known statically, where a query
/// tile's keys cannot be split into past and diagonal ranges at compile
/// time (a Ulysses or ring block's zigzag halves, docs/runtime-and-run.md
/// "Attention tiles").
SmallVector<Value>
byCausality(OpBuilder &b, Location loc, Value qFirst, Value qLast,
            Value kvPositions, ValueRange acc,
            function_ref<SmallVector<Value>(OpBuilder &, Location, bool causal)>
                merge) {
  Value kvLast = positionBound(b, loc, kvPositions, /*largest=*/true);
  Value past =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, kvLast, qFirst);
  auto branch = scf::IfOp::create(
      b, loc, past,
      [&](OpBuilder &ob, Location ol) {
        scf::YieldOp::create(ob, ol, merge(ob, ol, /*causal=*/false));
      },
      [&](OpBuilder &ob, Location ol) {
        scf::YieldOp::create(ob, ol,
                             unlessInFuture(ob, ol, qLast, kvPositions, acc,
                                            [&](OpBuilder &mb, Location ml) {
                                              return merge(mb, ml,
                                                           /*causal=*/true);
                                            }));
      });
  return branch.getResults();
}

/// Keys [keyBegin, keyEnd) of `op` as a loop over tiles of `tile` keys,
/// each a smaller attention_block of `query` (rows at `qPositions`,
/// `mask`'s rows) merged into the running partial, which starts at `init`.
/// With `qLast` (the largest query position of a causal block), tiles
/// wholly after it are skipped at run time; with `qFirst` too (its
/// smallest), tiles wholly before it are not causal (byCausality). With
/// `allVisible` the tiles' blocks are not causal: the caller knows every
/// key of the range is at or before every query, so the causal mask would
/// keep every score. With `qFirst` and a `diagonalTile` dividing `tile`, a
/// tile across the queries' diagonal is itself a loop over tiles of
/// `diagonalTile` keys (each skipped, not causal or causal as above): of a
/// 512-key tile, a 128-query tile needs up to its last query only.
scf::ForOp buildKeyTileLoop(OpBuilder &b, Location loc, AttentionBlockOp op,
                            Value query, Value qPositions, Value mask,
                            Value keyBegin, Value keyEnd, int64_t tile,
                            AttentionPartial init, Value qLast = nullptr,
                            bool allVisible = false, Value qFirst = nullptr,
                            int64_t diagonalTile = 0) {
  auto queryType = cast<RankedTensorType>(query.getType());
  auto outType = cast<RankedTensorType>(op.getOut().getType())
                     .clone(queryType.getShape());
  auto rowType = RankedTensorType::get(queryType.getShape().drop_back(),
                                       b.getF32Type());
  Value step = arith::ConstantIndexOp::create(b, loc, tile);
  return scf::ForOp::create(
      b, loc, keyBegin, keyEnd, step, init.values(),
      [&](OpBuilder &nb, Location nloc, Value at, ValueRange acc) {
        auto slice = [&](Value whole, int64_t dim) {
          return SequenceShardBuilder::sliceAlong(nb, nloc, whole, dim, at,
                                                  tile);
        };
        Value k = slice(op.getKey(), 2);
        Value v = slice(op.getValue(), 2);
        Value kvPos = slice(op.getKvPositions(), 0);
        Value tileMask = sliceUnlessBroadcast(nb, nloc, mask, 3, at, tile);
        auto mergeTile = [&](OpBuilder &mb, Location ml,
                             bool causal) -> SmallVector<Value> {
          // The tile's positions key its dropout: the whole block's mask.
          auto part = AttentionBlockOp::create(
              mb, ml, outType, rowType, rowType, query, k, v, qPositions, kvPos,
              tileMask, op.getHeadOffset(), op.getScaleAttr(),
              causal ? op.getCausalAttr() : UnitAttr());
          cloneAttentionDropout(op.getDropout(), part.getDropout());
          return llvm::to_vector(
              buildAttentionMerge(mb, ml, AttentionPartial::of(acc),
                                  AttentionPartial::of(part))
                  .values());
        };
        if (qFirst && qLast && !allVisible) {
          bool subdivide = diagonalTile > 0 && diagonalTile < tile &&
                           tile % diagonalTile == 0;
          auto mergeOrSubdivide = [&](OpBuilder &mb, Location ml,
                                      bool causal) -> SmallVector<Value> {
            if (!causal || !subdivide)
              return mergeTile(mb, ml, causal);
            Value end = arith::AddIOp::create(
                mb, ml, at, arith::ConstantIndexOp::create(mb, ml, tile));
            return llvm::to_vector_of<Value>(
                buildKeyTileLoop(mb, ml, op, query, qPositions, mask, at, end,
                                 diagonalTile, AttentionPartial::of(acc), qLast,
                                 /*allVisible=*/false, qFirst)
                    .getResults());
          };
          scf::YieldOp::create(nb, nloc,
                               byCausality(nb, nloc, qFirst, qLast, kvPos, acc,
                                           mergeOrSubdivide));
          return;
        }
        scf::YieldOp::create(nb, nloc,
                             unlessInFuture(nb, nloc, qLast, kvPos, acc,
                                            [&](OpBuilder &mb, Location ml) {
                                              return mergeTile(mb, ml,
                                                               !allVisible);
                                            }));
      });
}

/// One iteration's slice of a result and its offset along the loop's dim.
struct LoopPiece {
  Value slice;
  Value at;
};

/// `op`'s results as one loop over [0, `extent`) in steps of `step`: each
/// iteration's slices, one per result from `body` given the loop index, are
/// written into the results along `dim` at their own offsets (a K/V head
/// group's dQ at its first query head, its dK and dV at its K/V head).
void replaceResultsByLoop(
    Operation *op, int64_t dim, int64_t extent, int64_t step,
    function_ref<SmallVector<LoopPiece>(OpBuilder &, Location, Value at)>
        body) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  SmallVector<Value> whole;
  for (Type type : op->getResultTypes()) {
    auto tensorType = cast<RankedTensorType>(type);
    whole.push_back(tensor::EmptyOp::create(b, loc, tensorType.getShape(),
                                            tensorType.getElementType()));
  }
  auto loop = scf::ForOp::create(
      b, loc, index(0), index(extent), index(step), whole,
      [&](OpBuilder &nb, Location nloc, Value at, ValueRange acc) {
        SmallVector<Value> merged;
        for (auto [piece, into] : llvm::zip_equal(body(nb, nloc, at), acc))
          merged.push_back(
              insertAlong(nb, nloc, piece.slice, into, dim, piece.at));
        scf::YieldOp::create(nb, nloc, merged);
      });
  op->replaceAllUsesWith(loop.getResults());
  op->erase();
}

/// `op` as a loop over dim `dim` (1: heads, 2: rows) of its results in
/// steps of `step`, each iteration's partial computed by `body` from the
/// first index `at` of its slice and written into the block's (out, row
/// max, row sum) at `at`.
void replaceByLoop(
    AttentionBlockOp op, int64_t dim, int64_t step,
    function_ref<AttentionPartial(OpBuilder &, Location, Value at)> body) {
  int64_t extent =
      cast<RankedTensorType>(op.getOut().getType()).getDimSize(dim);
  replaceResultsByLoop(op, dim, extent, step,
                       [&](OpBuilder &b, Location loc, Value at) {
                         SmallVector<LoopPiece> pieces;
                         for (Value value : body(b, loc, at).values())
                           pieces.push_back({value, at});
                         return pieces;
                       });
}

/// The partial of one query tile (rows `query` at `qPositions`, `mask`'s
/// rows, starting at row `at`) of a block.
using QueryTileBody =
    function_ref<AttentionPartial(OpBuilder &, Location, Value at, Value query,
                                  Value qPositions, Value mask)>;

/// `op`'s rows as a loop over query tiles of `tile` rows, each computed by
/// `body` and written into the block's (out, row max, row sum). Rows are
/// independent (each row's softmax is its own), so any block splits so.
void replaceByQueryTileLoop(AttentionBlockOp op, int64_t tile,
                            QueryTileBody body) {
  replaceByLoop(op, 2, tile, [&](OpBuilder &b, Location loc, Value at) {
    auto rows = [&](Value value, int64_t dim) {
      return SequenceShardBuilder::sliceAlong(b, loc, value, dim, at, tile);
    };
    // Separate statements: argument evaluation order would order them.
    Value query = rows(op.getQuery(), 2);
    Value qPositions = rows(op.getQPositions(), 0);
    Value mask = sliceUnlessBroadcast(b, loc, op.getMask(), 2, at, tile);
    return body(b, loc, at, query, qPositions, mask);
  });
}

/// The head offset of a group's block whose first query head is `first`:
/// the group's first global head (`headOffset` + first), which keys its
/// dropout; none without dropout (head_offset is only with a dropout).
Value groupHeadOffset(OpBuilder &b, Location loc, Value headOffset,
                      bool dropout, Value first) {
  if (!dropout)
    return {};
  return headOffset
             ? arith::AddIOp::create(b, loc, headOffset, first).getResult()
             : first;
}

/// `op` as a loop over its K/V heads g when it has several: each
/// iteration a block of the r = a / a_kv query heads of group g (a mask's
/// heads with them, a broadcast one as is) against K/V head g, written
/// into the results at heads [g r, (g + 1) r). Heads are independent; the
/// GEMMs are per head either way, but the passes over a tile's scores then
/// read one group's [b, r, q-tile, kv-tile], which stays in cache, rather
/// than every head's (docs/runtime-and-run.md, "Attention tiles"). Returns
/// the group's block, inside the loop, or `op` itself when it has one K/V
/// head.
AttentionBlockOp splitByKvHeads(AttentionBlockOp op) {
  int64_t heads = cast<RankedTensorType>(op.getQuery().getType()).getDimSize(1);
  int64_t kvHeads = cast<RankedTensorType>(op.getKey().getType()).getDimSize(1);
  if (kvHeads <= 1)
    return op;
  int64_t group = heads / kvHeads;
  auto withHeads = [&](Value result) {
    auto type = cast<RankedTensorType>(result.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape[1] = group;
    return type.clone(shape);
  };
  AttentionBlockOp part;
  // `first`: the group's first query head.
  replaceByLoop(op, 1, group, [&](OpBuilder &b, Location loc, Value first) {
    Value g = arith::DivUIOp::create(
        b, loc, first, arith::ConstantIndexOp::create(b, loc, group));
    auto heads = [&](Value value, Value at, int64_t count) {
      return SequenceShardBuilder::sliceAlong(b, loc, value, 1, at, count);
    };
    // Separate statements: argument evaluation order would order them.
    Value query = heads(op.getQuery(), first, group);
    Value key = heads(op.getKey(), g, 1);
    Value value = heads(op.getValue(), g, 1);
    Value mask = sliceUnlessBroadcast(b, loc, op.getMask(), 1, first, group);
    Value headOffset = groupHeadOffset(b, loc, op.getHeadOffset(),
                                       !op.getDropout().empty(), first);
    part = AttentionBlockOp::create(
        b, loc, withHeads(op.getOut()), withHeads(op.getRowMax()),
        withHeads(op.getRowSum()), query, key, value, op.getQPositions(),
        op.getKvPositions(), mask, headOffset, op.getScaleAttr(),
        op.getCausalAttr());
    cloneAttentionDropout(op.getDropout(), part.getDropout());
    return AttentionPartial::of(part);
  });
  return part;
}

/// The block backward `op` as a loop over its K/V heads g when it has
/// several, as splitByKvHeads does the forward: each iteration the block
/// backward of query heads [g r, (g + 1) r) against K/V head g, its dQ
/// written at those heads and its dK, dV at head g (a K/V head's gradients
/// sum over its own group only). A tile's P, dP and dS are then one
/// group's [b, r, q-tile, kv-tile] instead of every head's. Returns the
/// group's block backward, inside the loop, or `op` itself when it has one
/// K/V head.
AttentionBlockBackwardOp splitBackwardByKvHeads(AttentionBlockBackwardOp op) {
  auto queryType = cast<RankedTensorType>(op.getQueryGrad().getType());
  auto keyType = cast<RankedTensorType>(op.getKeyGrad().getType());
  int64_t heads = queryType.getDimSize(1);
  int64_t kvHeads = keyType.getDimSize(1);
  if (kvHeads <= 1)
    return op;
  int64_t group = heads / kvHeads;
  auto withHeads = [&](RankedTensorType type, int64_t count) {
    SmallVector<int64_t> shape(type.getShape());
    shape[1] = count;
    return type.clone(shape);
  };
  AttentionBlockBackwardOp part;
  // `first`: the group's first query head.
  replaceResultsByLoop(
      op, 1, heads, group, [&](OpBuilder &b, Location loc, Value first) {
        Value g = arith::DivUIOp::create(
            b, loc, first, arith::ConstantIndexOp::create(b, loc, group));
        auto headsOf = [&](Value value, Value at, int64_t count) {
          return SequenceShardBuilder::sliceAlong(b, loc, value, 1, at, count);
        };
        // Separate statements: argument evaluation order would order them.
        Value query = headsOf(op.getQuery(), first, group);
        Value key = headsOf(op.getKey(), g, 1);
        Value value = headsOf(op.getValue(), g, 1);
        Value outGrad = headsOf(op.getOutGrad(), first, group);
        Value out = headsOf(op.getOut(), first, group);
        Value rowMax = headsOf(op.getRowMax(), first, group);
        Value rowSum = headsOf(op.getRowSum(), first, group);
        Value mask =
            sliceUnlessBroadcast(b, loc, op.getMask(), 1, first, group);
        Value headOffset = groupHeadOffset(b, loc, op.getHeadOffset(),
                                           !op.getDropout().empty(), first);
        part = AttentionBlockBackwardOp::create(
            b, loc, withHeads(queryType, group), withHeads(keyType, 1),
            withHeads(keyType, 1), query, key, value, outGrad, out, rowMax,
            rowSum, op.getQPositions(), op.getKvPositions(), mask, headOffset,
            op.getScaleAttr(), op.getCausalAttr());
        cloneAttentionDropout(op.getDropout(), part.getDropout());
        return SmallVector<LoopPiece>{{part.getQueryGrad(), first},
                                      {part.getKeyGrad(), g},
                                      {part.getValueGrad(), g}};
      });
  return part;
}

/// The empty partial for `query`'s rows of `op`.
AttentionPartial emptyPartialFor(OpBuilder &b, Location loc,
                                 AttentionBlockOp op, Value query) {
  auto outType = cast<RankedTensorType>(op.getOut().getType())
                     .clone(cast<RankedTensorType>(query.getType()).getShape());
  return buildEmptyAttentionPartial(b, loc, outType);
}

/// The block as loops over query tiles of `qTile` rows (when fewer than its
/// rows) and, inside, key tiles of `kTile` keys (when fewer than its keys),
/// each a smaller attention_block merged into the running partial. Small
/// tiles keep a tile's [b, a, qTile, kTile] scores in cache
/// (docs/runtime-and-run.md, "Attention tiles").
void tileBlock(AttentionBlockOp op, int64_t qTile, int64_t kTile) {
  int64_t keys = cast<RankedTensorType>(op.getKey().getType()).getDimSize(2);
  // A causal block's tiles wholly in its queries' future are skipped.
  auto lastQuery = [&](OpBuilder &b, Location loc, Value qPositions) {
    return op.getCausal()
               ? positionBound(b, loc, qPositions, /*largest=*/true)
               : Value();
  };
  int64_t queries =
      cast<RankedTensorType>(op.getQuery().getType()).getDimSize(2);
  auto keyLoop = [&](OpBuilder &b, Location loc, Value query, Value qPositions,
                     Value mask) {
    Value begin = arith::ConstantIndexOp::create(b, loc, 0);
    Value end = arith::ConstantIndexOp::create(b, loc, keys);
    Value qLast = lastQuery(b, loc, qPositions);
    Value qFirst =
        qLast ? positionBound(b, loc, qPositions, /*largest=*/false) : Value();
    return AttentionPartial::of(
        buildKeyTileLoop(b, loc, op, query, qPositions, mask, begin, end, kTile,
                         emptyPartialFor(b, loc, op, query), qLast,
                         /*allVisible=*/false, qFirst,
                         /*diagonalTile=*/qTile < queries ? qTile : 0)
            .getResults());
  };
  if (qTile == queries) {
    OpBuilder b(op);
    AttentionPartial whole = keyLoop(b, op.getLoc(), op.getQuery(),
                                     op.getQPositions(), op.getMask());
    op->replaceAllUsesWith(whole.values());
    op->erase();
    return;
  }
  replaceByQueryTileLoop(
      op, qTile,
      [&](OpBuilder &b, Location loc, Value, Value query, Value qPositions,
          Value mask) -> AttentionPartial {
        if (kTile < keys)
          return keyLoop(b, loc, query, qPositions, mask);
        auto rowType = RankedTensorType::get(
            cast<RankedTensorType>(query.getType()).getShape().drop_back(),
            b.getF32Type());
        auto whole = [&](OpBuilder &wb, Location wl) -> SmallVector<Value> {
          auto part = AttentionBlockOp::create(
              wb, wl,
              cast<RankedTensorType>(op.getOut().getType())
                  .clone(cast<RankedTensorType>(query.getType()).getShape()),
              rowType, rowType, query, op.getKey(), op.getValue(), qPositions,
              op.getKvPositions(), mask, op.getHeadOffset(),
              op.getScaleAttr(), op.getCausalAttr());
          cloneAttentionDropout(op.getDropout(), part.getDropout());
          return llvm::to_vector(AttentionPartial::of(part).values());
        };
        Value qLast = lastQuery(b, loc, qPositions);
        if (!qLast)
          return AttentionPartial::of(whole(b, loc));
        // What a skipped block leaves: the empty partial.
        AttentionPartial empty = emptyPartialFor(b, loc, op, query);
        return AttentionPartial::of(unlessInFuture(
            b, loc, qLast, op.getKvPositions(), empty.values(), whole));
      });
}

/// A causal block whose query and key positions are both 0.. (non-CP
/// attention, `asBlock`) as a loop over query tiles of `qTile` rows, each
/// over the keys it can see: query tile [q, q + qTile) sees keys
/// [0, q + qTile) only (a key at position j is masked for every query
/// before j), so the tiles wholly in its future are never computed: about
/// half the work of the key loop alone. The skipped tiles would have
/// merged as the empty partial, which a merge ignores. The visible keys
/// are tiles of `kTile` (a multiple of `qTile`) up to the last whole one,
/// then tiles of `qTile` up to the diagonal. The key tiles that end at or
/// before q, the last whole one before it, are in every query's past: their
/// blocks are not causal, so no score of theirs is compared with a position
/// (docs/runtime-and-run.md, "Attention tiles").
void tileCausalBlock(AttentionBlockOp op, int64_t qTile, int64_t kTile) {
  replaceByQueryTileLoop(
      op, qTile,
      [&](OpBuilder &b, Location loc, Value at, Value query, Value qPositions,
          Value mask) -> AttentionPartial {
        auto index = [&](int64_t v) {
          return arith::ConstantIndexOp::create(b, loc, v).getResult();
        };
        // The start of the kTile tile that holds `key`.
        auto tileStart = [&](Value key) -> Value {
          return arith::MulIOp::create(
              b, loc, arith::DivUIOp::create(b, loc, key, index(kTile)),
              index(kTile));
        };
        // Causal attention has s = s_kv (its verifier): keyEnd <= keys.
        Value keyEnd = arith::AddIOp::create(b, loc, at, index(qTile));
        Value pastEnd = tileStart(at);
        Value wholeEnd = kTile == qTile ? keyEnd : tileStart(keyEnd);
        AttentionPartial partial = AttentionPartial::of(
            buildKeyTileLoop(b, loc, op, query, qPositions, mask, index(0),
                             pastEnd, kTile, emptyPartialFor(b, loc, op, query),
                             /*qLast=*/nullptr, /*allVisible=*/true)
                .getResults());
        partial = AttentionPartial::of(
            buildKeyTileLoop(b, loc, op, query, qPositions, mask, pastEnd,
                             wholeEnd, kTile, partial)
                .getResults());
        if (kTile == qTile)
          return partial;
        return AttentionPartial::of(
            buildKeyTileLoop(b, loc, op, query, qPositions, mask, wholeEnd,
                             keyEnd, qTile, partial)
                .getResults());
      });
}

/// The block backward `op` as loops over query tiles of `qTile` rows and,
/// inside, key tiles of `kTile` keys (docs/semantics.md §4.7: with the rows'
/// global LSE each tile's gradients are the block's restricted to it): a
/// query tile's dQ sums over its key tiles, a key tile's dK and dV over the
/// query tiles. Every P and dS is [b, a, qTile, kTile]. A causal block's
/// tiles wholly in a query tile's future add nothing and are not computed,
/// and those wholly in its past are blocks without the causal mask, as in
/// the forward (docs/runtime-and-run.md, "Attention tiles"): with
/// `causalFromZero` (query and key positions both 0.., s = s_kv, qTile =
/// kTile) query tile [q, q + qTile) reads keys [0, q) unmasked and
/// [q, q + qTile) causal; over positions known only at run time (ring
/// steps, Ulysses, all-gather-KV), each key tile is skipped, unmasked or
/// causal by its positions' bounds (byCausality).
void tileBlockBackward(AttentionBlockBackwardOp op, int64_t qTile,
                       int64_t kTile, bool causalFromZero) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto index = [&](OpBuilder &ob, Location l, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(ob, l, v);
  };
  auto zeros = [&](OpBuilder &ob, Location l, Type type) -> Value {
    auto shaped = cast<RankedTensorType>(type);
    Value init = tensor::EmptyOp::create(ob, l, shaped.getShape(),
                                         shaped.getElementType());
    Value zero = arith::ConstantOp::create(
        ob, l, ob.getZeroAttr(shaped.getElementType()));
    return linalg::FillOp::create(ob, l, zero, init).getResult(0);
  };
  auto queryGradType = cast<RankedTensorType>(op.getQueryGrad().getType());
  int64_t queries = queryGradType.getDimSize(2);
  int64_t keys = cast<RankedTensorType>(op.getKey().getType()).getDimSize(2);
  Value mask = op.getMask();
  SmallVector<Value> init = {
      tensor::EmptyOp::create(b, loc, queryGradType.getShape(),
                              b.getF32Type()),
      zeros(b, loc, op.getKeyGrad().getType()),
      zeros(b, loc, op.getValueGrad().getType())};
  auto rows = scf::ForOp::create(
      b, loc, index(b, loc, 0), index(b, loc, queries), index(b, loc, qTile),
      init, [&](OpBuilder &qb, Location ql, Value q0, ValueRange outer) {
        auto rowsOf = [&](Value value, int64_t dim) {
          return SequenceShardBuilder::sliceAlong(qb, ql, value, dim, q0,
                                                  qTile);
        };
        Value query = rowsOf(op.getQuery(), 2);
        Value outGrad = rowsOf(op.getOutGrad(), 2);
        Value out = rowsOf(op.getOut(), 2);
        Value rowMax = rowsOf(op.getRowMax(), 2);
        Value rowSum = rowsOf(op.getRowSum(), 2);
        Value qPositions = rowsOf(op.getQPositions(), 0);
        Value rowMask = sliceUnlessBroadcast(qb, ql, mask, 2, q0, qTile);
        // Over run-time positions, the query tile's first and last.
        Value qFirst, qLast;
        if (op.getCausal() && !causalFromZero) {
          qFirst = positionBound(qb, ql, qPositions, /*largest=*/false);
          qLast = positionBound(qb, ql, qPositions, /*largest=*/true);
        }
        auto keyLoop = [&](Value keyBegin, Value keyEnd, bool allVisible,
                           ValueRange init) {
          return scf::ForOp::create(
              qb, ql, keyBegin, keyEnd, index(qb, ql, kTile), init,
              [&](OpBuilder &kb, Location kl, Value k0, ValueRange inner) {
                auto colsOf = [&](Value value, int64_t dim) {
                  return SequenceShardBuilder::sliceAlong(kb, kl, value, dim,
                                                          k0, kTile);
                };
                Value key = colsOf(op.getKey(), 2);
                Value value = colsOf(op.getValue(), 2);
                Value kvPositions = colsOf(op.getKvPositions(), 0);
                Value tileMask =
                    sliceUnlessBroadcast(kb, kl, rowMask, 3, k0, kTile);
                auto kType = cast<RankedTensorType>(key.getType());
                auto grads = [&](OpBuilder &gb, Location gl,
                                 bool causal) -> SmallVector<Value> {
                  auto part = AttentionBlockBackwardOp::create(
                      gb, gl, cast<RankedTensorType>(inner[0].getType()),
                      kType.clone(gb.getF32Type()),
                      kType.clone(gb.getF32Type()), query, key, value, outGrad,
                      out, rowMax, rowSum, qPositions, kvPositions, tileMask,
                      op.getHeadOffset(), op.getScaleAttr(),
                      causal ? op.getCausalAttr() : UnitAttr());
                  // The tile's global positions key its dropout: the block's.
                  cloneAttentionDropout(op.getDropout(), part.getDropout());
                  auto accumulate = [&](Value whole, Value piece) {
                    Value sum = addInPlace(gb, gl, colsOf(whole, 2), piece);
                    return insertAlong(gb, gl, sum, whole, 2, k0);
                  };
                  return {addInPlace(gb, gl, inner[0], part.getQueryGrad()),
                          accumulate(inner[1], part.getKeyGrad()),
                          accumulate(inner[2], part.getValueGrad())};
                };
                scf::YieldOp::create(
                    kb, kl,
                    qLast ? byCausality(kb, kl, qFirst, qLast, kvPositions,
                                        inner, grads)
                          : grads(kb, kl, op.getCausal() && !allVisible));
              });
        };
        auto queryGrad = zeros(
            qb, ql,
            cast<RankedTensorType>(query.getType()).clone(qb.getF32Type()));
        SmallVector<Value> init = {queryGrad, outer[1], outer[2]};
        scf::ForOp cols;
        if (causalFromZero && qTile == kTile) {
          scf::ForOp past =
              keyLoop(index(qb, ql, 0), q0, /*allVisible=*/true, init);
          cols = keyLoop(
              q0, arith::AddIOp::create(qb, ql, q0, index(qb, ql, qTile)),
              /*allVisible=*/false, past.getResults());
        } else {
          Value keyEnd =
              causalFromZero
                  ? arith::AddIOp::create(qb, ql, q0, index(qb, ql, qTile))
                        .getResult()
                  : index(qb, ql, keys);
          cols = keyLoop(index(qb, ql, 0), keyEnd, /*allVisible=*/false, init);
        }
        scf::YieldOp::create(
            qb, ql,
            ValueRange{insertAlong(qb, ql, cols.getResult(0), outer[0], 2, q0),
                       cols.getResult(1), cols.getResult(2)});
      });
  op->replaceAllUsesWith(rows.getResults());
  op->erase();
}

/// A static range [begin, begin + size) of a block's rows or keys.
struct Extent {
  int64_t begin, size;
};

/// The ranges a dim of `n` splits into for tiles of `tile`: [0, m), m the
/// largest multiple of `tile`, and the rest [m, n) when there is one, so
/// that each is a multiple of the tile or shorter than it; [0, n) alone
/// when `n` is a multiple or no longer than a tile (or `tile` is 0).
SmallVector<Extent, 2> splitForTiles(int64_t n, int64_t tile) {
  if (tile <= 0 || n <= tile || n % tile == 0)
    return {{0, n}};
  int64_t m = n - n % tile;
  return {{0, m}, {m, n - m}};
}

/// `value` restricted to `range` along `axis`; as it is when the range is
/// all of it or the axis is a broadcast one (size 1, a mask's).
Value sliceRange(OpBuilder &b, Location loc, Value value, int64_t axis,
                 Extent range) {
  if (value && range.begin == 0 &&
      range.size == cast<RankedTensorType>(value.getType()).getDimSize(axis))
    return value;
  return sliceUnlessBroadcast(b, loc, value, axis, b.getIndexAttr(range.begin),
                              range.size);
}

/// `type` with `size` along dim 2 (the rows or keys of every operand and
/// result of the attention blocks).
RankedTensorType withDim2(Type type, int64_t size) {
  auto shaped = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape(shaped.getShape());
  shape[2] = size;
  return shaped.clone(shape);
}

/// A tensor of `type` from `pieces`, each written at its offset along dim 2;
/// the piece itself when it is the whole.
Value concatDim2(OpBuilder &b, Location loc, Type type,
                 ArrayRef<std::pair<Value, int64_t>> pieces) {
  if (pieces.size() == 1)
    return pieces.front().first;
  auto shaped = cast<RankedTensorType>(type);
  Value whole = tensor::EmptyOp::create(b, loc, shaped.getShape(),
                                        shaped.getElementType());
  for (auto [piece, at] : pieces)
    whole = insertAlong(b, loc, piece, whole, 2,
                        arith::ConstantIndexOp::create(b, loc, at));
  return whole;
}

/// The operands a block and a block backward share, restricted to `rows`
/// and `keys` (the mask's rows and columns with them).
struct PieceOperands {
  Value query, key, value, qPositions, kvPositions, mask;
};
template <typename BlockOp>
PieceOperands slicePieceOperands(OpBuilder &b, Location loc, BlockOp op,
                                 Extent rows, Extent keys) {
  PieceOperands sliced;
  // Separate statements: argument evaluation order would order them.
  sliced.query = sliceRange(b, loc, op.getQuery(), 2, rows);
  sliced.key = sliceRange(b, loc, op.getKey(), 2, keys);
  sliced.value = sliceRange(b, loc, op.getValue(), 2, keys);
  sliced.qPositions = sliceRange(b, loc, op.getQPositions(), 0, rows);
  sliced.kvPositions = sliceRange(b, loc, op.getKvPositions(), 0, keys);
  sliced.mask =
      sliceRange(b, loc, sliceRange(b, loc, op.getMask(), 2, rows), 3, keys);
  return sliced;
}

/// The block `op` restricted to its `rows` and `keys` (their positions and
/// mask with them), causal only when `causal`.
AttentionBlockOp buildBlockPiece(OpBuilder &b, Location loc,
                                 AttentionBlockOp op, Extent rows, Extent keys,
                                 bool causal) {
  PieceOperands in = slicePieceOperands(b, loc, op, rows, keys);
  auto piece = AttentionBlockOp::create(
      b, loc, withDim2(op.getOut().getType(), rows.size),
      withDim2(op.getRowMax().getType(), rows.size),
      withDim2(op.getRowSum().getType(), rows.size), in.query, in.key, in.value,
      in.qPositions, in.kvPositions, in.mask, op.getHeadOffset(),
      op.getScaleAttr(), causal ? op.getCausalAttr() : UnitAttr());
  // The piece's global positions key its dropout: the block's.
  cloneAttentionDropout(op.getDropout(), piece.getDropout());
  return piece;
}

/// As buildBlockPiece, for a block backward: dQ of `rows`, dK and dV of
/// `keys`.
AttentionBlockBackwardOp buildBlockBackwardPiece(OpBuilder &b, Location loc,
                                                 AttentionBlockBackwardOp op,
                                                 Extent rows, Extent keys,
                                                 bool causal) {
  PieceOperands in = slicePieceOperands(b, loc, op, rows, keys);
  // Separate statements: argument evaluation order would order them.
  Value outGrad = sliceRange(b, loc, op.getOutGrad(), 2, rows);
  Value out = sliceRange(b, loc, op.getOut(), 2, rows);
  Value rowMax = sliceRange(b, loc, op.getRowMax(), 2, rows);
  Value rowSum = sliceRange(b, loc, op.getRowSum(), 2, rows);
  auto piece = AttentionBlockBackwardOp::create(
      b, loc, withDim2(op.getQueryGrad().getType(), rows.size),
      withDim2(op.getKeyGrad().getType(), keys.size),
      withDim2(op.getValueGrad().getType(), keys.size), in.query, in.key,
      in.value, outGrad, out, rowMax, rowSum, in.qPositions, in.kvPositions,
      in.mask, op.getHeadOffset(), op.getScaleAttr(),
      causal ? op.getCausalAttr() : UnitAttr());
  cloneAttentionDropout(op.getDropout(), piece.getDropout());
  return piece;
}

/// One block of a peeled block (forward or backward), and whether it is
/// a causal square whose queries and keys share their positions (0.., or
/// the range [m, n) of a peeled one): the causal skip's tiling needs to
/// know, since it reads the future from the tile indices.
template <typename BlockOp> struct Piece {
  BlockOp op;
  bool causalFromZero;
};

/// The (query, key) tiles of the causal skip (tileCausalBlock) for the
/// options `qTile` and `kTile`: query tiles of `qTile` (of `kTile` when 0)
/// and key tiles of `kTile` when the query tile divides it, else of the
/// query tile.
std::pair<int64_t, int64_t> causalTiles(int64_t qTile, int64_t kTile) {
  int64_t q = qTile > 0 ? qTile : kTile;
  return {q, kTile % q == 0 ? kTile : q};
}

/// The rows and keys that a causal square over shared positions (n rows)
/// splits into when `n` is not a multiple of `tile`: with m the largest
/// multiple, rows [0, m) against keys [0, m) (keys from m on are in the
/// future of every one of those rows: their partial is the empty one, their
/// gradients zero), again such a square; rows [m, n) against keys [0, m),
/// all in their past: not causal; and rows [m, n) against keys [m, n),
/// a causal square over shared positions. Empty when `n` needs no peeling.
struct FromZeroPeel {
  Extent head, tail;
};
std::optional<FromZeroPeel> peelFromZero(int64_t n, int64_t tile) {
  SmallVector<Extent, 2> ranges = splitForTiles(n, tile);
  if (ranges.size() == 1)
    return std::nullopt;
  return FromZeroPeel{ranges[0], ranges[1]};
}

/// `op` as blocks whose rows are a multiple of `qTile` or fewer and whose
/// keys a multiple of `kTile` or fewer, so that the tiling below covers a
/// block of any length, not only multiples of the tiles: rows are
/// independent (their pieces are written side by side) and a row's key
/// pieces merge by their LSE (docs/semantics.md §4.3). A causal square
/// over shared positions (`causalFromZero`) peels as peelFromZero says,
/// for the causal skip's key tile (causalTiles), or its query tile when it
/// has no more rows than a key tile; its pieces are peeled in turn, so
/// that the rows after m are query tiles too and their diagonal skips its
/// future. Returns the pieces (`op` itself when it needs none); `op` is
/// replaced.
SmallVector<Piece<AttentionBlockOp>> peelBlock(AttentionBlockOp op,
                                               int64_t qTile, int64_t kTile,
                                               bool causalFromZero) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  int64_t rows = cast<RankedTensorType>(op.getQuery().getType()).getDimSize(2);
  int64_t keys = cast<RankedTensorType>(op.getKey().getType()).getDimSize(2);
  SmallVector<Piece<AttentionBlockOp>> pieces;
  // Each row range's partial and its first row.
  SmallVector<std::pair<AttentionPartial, int64_t>> rowPartials;
  if (causalFromZero) {
    auto [q, k] = causalTiles(qTile, kTile);
    std::optional<FromZeroPeel> peel = peelFromZero(rows, rows > k ? k : q);
    if (!peel)
      return {{op, true}};
    auto [head, tail] = *peel;
    AttentionBlockOp square = buildBlockPiece(b, loc, op, head, head, true);
    AttentionBlockOp past = buildBlockPiece(b, loc, op, tail, head, false);
    AttentionBlockOp diagonal = buildBlockPiece(b, loc, op, tail, tail, true);
    pieces = {{square, true}, {past, false}, {diagonal, true}};
    rowPartials.push_back({AttentionPartial::of(square), head.begin});
    rowPartials.push_back(
        {buildAttentionMerge(b, loc, AttentionPartial::of(past),
                             AttentionPartial::of(diagonal)),
         tail.begin});
  } else {
    SmallVector<Extent, 2> rowRanges = splitForTiles(rows, qTile);
    SmallVector<Extent, 2> keyRanges = splitForTiles(keys, kTile);
    if (rowRanges.size() == 1 && keyRanges.size() == 1)
      return {{op, false}};
    for (Extent rowRange : rowRanges) {
      std::optional<AttentionPartial> partial;
      for (Extent keyRange : keyRanges) {
        AttentionBlockOp piece =
            buildBlockPiece(b, loc, op, rowRange, keyRange, op.getCausal());
        pieces.push_back({piece, false});
        partial = partial ? buildAttentionMerge(b, loc, *partial,
                                                AttentionPartial::of(piece))
                          : AttentionPartial::of(piece);
      }
      rowPartials.push_back({*partial, rowRange.begin});
    }
  }
  SmallVector<Value> results;
  for (auto [index, result] : llvm::enumerate(op->getResults())) {
    SmallVector<std::pair<Value, int64_t>> parts;
    for (auto &[partial, at] : rowPartials)
      parts.push_back({partial.values()[index], at});
    results.push_back(concatDim2(b, loc, result.getType(), parts));
  }
  op->replaceAllUsesWith(results);
  op->erase();
  // Each piece is shorter than `op` in the dims it splits: this ends.
  SmallVector<Piece<AttentionBlockOp>> leaves;
  for (auto [piece, fromZero] : pieces)
    llvm::append_range(leaves, peelBlock(piece, qTile, kTile, fromZero));
  return leaves;
}

/// peelBlock for a block backward, square tiles of `tile`: a row range's
/// dQ sums over its key pieces, a key range's dK and dV over its row
/// pieces; over positions 0.. the rows before the last multiple never see
/// the keys after it (peelFromZero).
SmallVector<Piece<AttentionBlockBackwardOp>>
peelBlockBackward(AttentionBlockBackwardOp op, int64_t tile,
                  bool causalFromZero) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  int64_t rows = cast<RankedTensorType>(op.getQuery().getType()).getDimSize(2);
  int64_t keys = cast<RankedTensorType>(op.getKey().getType()).getDimSize(2);
  // (row range index, key range index, causal, causal from zero) of each
  // piece.
  SmallVector<std::tuple<size_t, size_t, bool, bool>> layout;
  SmallVector<Extent, 2> rowRanges, keyRanges;
  if (causalFromZero) {
    std::optional<FromZeroPeel> peel = peelFromZero(rows, tile);
    if (!peel)
      return {{op, true}};
    auto [head, tail] = *peel;
    rowRanges = keyRanges = {head, tail};
    layout = {{0, 0, true, true}, {1, 0, false, false}, {1, 1, true, false}};
  } else {
    rowRanges = splitForTiles(rows, tile);
    keyRanges = splitForTiles(keys, tile);
    if (rowRanges.size() == 1 && keyRanges.size() == 1)
      return {{op, false}};
    for (size_t i = 0; i < rowRanges.size(); ++i)
      for (size_t k = 0; k < keyRanges.size(); ++k)
        layout.push_back({i, k, op.getCausal(), false});
  }
  SmallVector<Piece<AttentionBlockBackwardOp>> pieces;
  // The running sums of each row range's dQ and each key range's dK, dV.
  SmallVector<Value> queryGrads(rowRanges.size()), keyGrads(keyRanges.size()),
      valueGrads(keyRanges.size());
  auto accumulate = [&](Value &sum, Value piece) {
    sum = sum ? addInPlace(b, loc, sum, piece) : piece;
  };
  for (auto [i, k, causal, fromZero] : layout) {
    AttentionBlockBackwardOp piece =
        buildBlockBackwardPiece(b, loc, op, rowRanges[i], keyRanges[k], causal);
    pieces.push_back({piece, fromZero});
    accumulate(queryGrads[i], piece.getQueryGrad());
    accumulate(keyGrads[k], piece.getKeyGrad());
    accumulate(valueGrads[k], piece.getValueGrad());
  }
  auto concat = [&](Type type, ArrayRef<Value> sums, ArrayRef<Extent> ranges) {
    SmallVector<std::pair<Value, int64_t>> parts;
    for (auto [sum, range] : llvm::zip_equal(sums, ranges))
      parts.push_back({sum, range.begin});
    return concatDim2(b, loc, type, parts);
  };
  SmallVector<Value> results = {
      concat(op.getQueryGrad().getType(), queryGrads, rowRanges),
      concat(op.getKeyGrad().getType(), keyGrads, keyRanges),
      concat(op.getValueGrad().getType(), valueGrads, keyRanges)};
  op->replaceAllUsesWith(results);
  op->erase();
  return pieces;
}

struct TileAttentionPass
    : public mlir::seqpar::impl::TileAttentionBase<TileAttentionPass> {
  using TileAttentionBase::TileAttentionBase;

  void runOnOperation() override {
    if (kvTile < 0) {
      emitError(getOperation()->getLoc())
          << "tile-attention: kv-tile=" << kvTile.getValue()
          << " (seqpar-lower-to-llvm: attention-kv-tile) is not a tile size: "
             "expected keys per tile >= 1, or 0 to disable tiling";
      return signalPassFailure();
    }
    if (qTile < 0) {
      emitError(getOperation()->getLoc())
          << "tile-attention: q-tile=" << qTile.getValue()
          << " (seqpar-lower-to-llvm: attention-q-tile) is not a tile size: "
             "expected queries per tile >= 1, or 0 for whole rows";
      return signalPassFailure();
    }
    if (backwardTile < 0) {
      emitError(getOperation()->getLoc())
          << "tile-attention: backward-tile=" << backwardTile.getValue()
          << " (seqpar-lower-to-llvm: attention-backward-tile) is not a tile "
             "size: expected queries and keys per tile >= 1, or 0 for kv-tile";
      return signalPassFailure();
    }
    if (kvTile == 0)
      return;
    // The backward's square tiles (backward-tile, else kv-tile).
    const int64_t gradTile = backwardTile > 0 ? backwardTile : kvTile;
    // A dim of `n` splits into tiles of `tile` when longer and a multiple
    // (peelBlock makes every block's dims so, or shorter than the tile).
    auto tileFor = [](int64_t n, int64_t tile) {
      return tile > 0 && n > tile && n % tile == 0 ? tile : n;
    };
    // A dim of `n` is tiled, once peeled, when longer than the tile.
    auto longer = [](int64_t n, int64_t tile) { return tile > 0 && n > tile; };
    auto extent = [](Value v, int64_t dim) {
      return cast<RankedTensorType>(v.getType()).getDimSize(dim);
    };
    // Empty K/V or queries (b, a_kv or d = 0) have no tile to slice.
    auto nonEmpty = [](Value v) {
      return cast<RankedTensorType>(v.getType()).getNumElements() > 0;
    };
    auto tilesForward = [&](Value query, Value key) {
      return nonEmpty(query) && nonEmpty(key) &&
             (longer(extent(key, 2), kvTile) ||
              longer(extent(query, 2), qTile));
    };
    // A block backward is tiled when its keys or its queries are.
    auto tilesGrad = [&](Value query, Value key) {
      return nonEmpty(query) && nonEmpty(key) &&
             (longer(extent(query, 2), gradTile) ||
              longer(extent(key, 2), gradTile));
    };
    SmallVector<AttentionBlockOp> blocks;
    SmallVector<AttentionOp> attentions;
    SmallVector<AttentionBlockBackwardOp> blockBackwards;
    SmallVector<AttentionBackwardOp> backwards;
    getOperation()->walk([&](Operation *op) {
      if (auto grad = dyn_cast<AttentionBlockBackwardOp>(op);
          grad && tilesGrad(grad.getQuery(), grad.getKey()))
        blockBackwards.push_back(grad);
      if (auto whole = dyn_cast<AttentionBackwardOp>(op);
          whole && tilesGrad(whole.getQuery(), whole.getKey()) &&
          isa<Float32Type, Float16Type, BFloat16Type>(
              cast<RankedTensorType>(whole.getQuery().getType())
                  .getElementType()))
        backwards.push_back(whole);
      if (auto block = dyn_cast<AttentionBlockOp>(op);
          block && tilesForward(block.getQuery(), block.getKey()))
        blocks.push_back(block);
      auto attention = dyn_cast<AttentionOp>(op);
      if (attention &&
          tilesForward(attention.getQuery(), attention.getKey()) &&
          isa<Float32Type, Float16Type, BFloat16Type>(
              cast<RankedTensorType>(attention.getQuery().getType())
                  .getElementType()))
        attentions.push_back(attention);
    });
    // Tiles a forward block whose dims are multiples of their tiles or
    // shorter (a piece of peelBlock); a causal one over positions 0..
    // (s = s_kv) skips the key tiles in each query tile's future.
    auto tilePiece = [&](AttentionBlockOp block, bool causalFromZero) {
      int64_t rows = extent(block.getQuery(), 2);
      if (causalFromZero) {
        // peelBlock made the rows a multiple of the causal key tile, or of
        // its query tile when no longer than a key tile.
        auto [qOption, kOption] = causalTiles(qTile, kvTile);
        // Clamped to the rows, the pair follows the skip's rule again.
        auto [q, k] =
            causalTiles(tileFor(rows, qOption), tileFor(rows, kOption));
        if (q < rows) {
          tileCausalBlock(block, q, k);
          ++numCausalSkipping;
          ++numTiled;
        }
        return;
      }
      int64_t q = tileFor(rows, qTile),
              k = tileFor(extent(block.getKey(), 2), kvTile);
      if (q == rows && k == extent(block.getKey(), 2))
        return; // one tile
      tileBlock(block, q, k);
      ++numTiled;
    };
    auto tileForward = [&](AttentionBlockOp block, bool causalFromZero) {
      block = splitByKvHeads(block);
      for (auto [piece, fromZero] :
           peelBlock(block, qTile, kvTile, causalFromZero))
        tilePiece(piece, fromZero);
    };
    for (AttentionBlockOp block : blocks)
      tileForward(block, /*causalFromZero=*/false);
    // A backward reads its attention's row statistics (the forward block's,
    // tiled or not) rather than recomputing them.
    AttentionBlocks converted = buildAttentionsAsBlocks(attentions, backwards);
    for (AttentionBlockOp block : converted.forwards)
      tileForward(block, block.getCausal());
    // The block backward over query and key tiles (either may be whole).
    auto tileOf = [&](Value value) {
      return tileFor(extent(value, 2), gradTile);
    };
    auto tileBackward = [&](AttentionBlockBackwardOp grad, bool fromZero) {
      grad = splitBackwardByKvHeads(grad);
      for (auto [piece, pieceFromZero] :
           peelBlockBackward(grad, gradTile, fromZero && grad.getCausal())) {
        int64_t q = tileOf(piece.getQuery()), k = tileOf(piece.getKey());
        if (q == extent(piece.getQuery(), 2) && k == extent(piece.getKey(), 2))
          continue; // one tile
        tileBlockBackward(piece, q, k, pieceFromZero);
        ++numTiled;
      }
    };
    for (AttentionBlockBackwardOp grad : blockBackwards)
      tileBackward(grad, /*fromZero=*/false);
    // A whole backward: a stats block of its own (over positions 0..) is
    // tiled as a forward block is; its block backward skips the causal
    // future.
    for (AttentionBlockBackwardOp grad : converted.backwards) {
      auto stats = grad.getRowMax().getDefiningOp<AttentionBlockOp>();
      if (stats && tilesForward(stats.getQuery(), stats.getKey()))
        tileForward(stats, stats.getCausal());
      tileBackward(grad, /*fromZero=*/true);
    }
  }
};

} // namespace
