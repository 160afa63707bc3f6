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

/// The keys [0, keyEnd) of `op` as a loop over tiles of `tile` keys, each
/// a smaller attention_block of `query` (rows at `qPositions`, `mask`'s
/// rows) merged into the running partial, which starts empty.
scf::ForOp buildKeyTileLoop(OpBuilder &b, Location loc, AttentionBlockOp op,
                            Value query, Value qPositions, Value mask,
                            Value keyEnd, int64_t tile) {
  auto queryType = cast<RankedTensorType>(query.getType());
  auto outType = cast<RankedTensorType>(op.getOut().getType())
                     .clone(queryType.getShape());
  auto rowType = RankedTensorType::get(queryType.getShape().drop_back(),
                                       b.getF32Type());
  AttentionPartial empty = buildEmptyAttentionPartial(b, loc, outType);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value step = arith::ConstantIndexOp::create(b, loc, tile);
  return scf::ForOp::create(
      b, loc, zero, keyEnd, step, empty.values(),
      [&](OpBuilder &nb, Location nloc, Value at, ValueRange acc) {
        auto slice = [&](Value whole, int64_t dim) {
          return SequenceShardBuilder::sliceAlong(nb, nloc, whole, dim, at,
                                                  tile);
        };
        Value k = slice(op.getKey(), 2);
        Value v = slice(op.getValue(), 2);
        Value kvPos = slice(op.getKvPositions(), 0);
        // A mask's key columns follow the tile (a broadcast one stays).
        Value tileMask = mask;
        if (tileMask &&
            cast<RankedTensorType>(tileMask.getType()).getDimSize(3) != 1)
          tileMask = slice(tileMask, 3);
        // The tile's positions key its dropout: the whole block's mask.
        auto part = AttentionBlockOp::create(
            nb, nloc, outType, rowType, rowType, query, k, v, qPositions,
            kvPos, tileMask, op.getHeadOffset(), op.getScaleAttr(),
            op.getCausalAttr());
        cloneAttentionDropout(op.getDropout(), part.getDropout());
        AttentionPartial merged = buildAttentionMerge(
            nb, nloc, AttentionPartial::of(acc), AttentionPartial::of(part));
        scf::YieldOp::create(nb, nloc, merged.values());
      });
}

/// The block as a loop over key/value tiles of `tile` keys, each a smaller
/// attention_block merged into the running partial.
void tileBlock(AttentionBlockOp op, int64_t tile) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  int64_t keys = cast<RankedTensorType>(op.getKey().getType()).getDimSize(2);
  Value keyEnd = arith::ConstantIndexOp::create(b, loc, keys);
  scf::ForOp loop =
      buildKeyTileLoop(b, loc, op, op.getQuery(), op.getQPositions(),
                       op.getMask(), keyEnd, tile);
  op->replaceAllUsesWith(loop.getResults());
  op->erase();
}

/// A causal block whose query and key positions are both 0.. (non-CP
/// attention, `asBlock`) as a loop over query tiles of `tile` rows, each
/// over the key tiles it can see: query tile [q, q + tile) sees keys
/// [0, q + tile) only (a key at position j is masked for every query
/// before j), so the tiles wholly in its future are never computed: about
/// half the work of the key loop alone. The skipped tiles would have
/// merged as the empty partial, which a merge ignores.
void tileCausalBlock(AttentionBlockOp op, int64_t tile) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto outType = cast<RankedTensorType>(op.getOut().getType());
  auto rowType = cast<RankedTensorType>(op.getRowMax().getType());
  int64_t queries = outType.getDimSize(2);
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  SmallVector<Value> whole = {
      tensor::EmptyOp::create(b, loc, outType.getShape(), b.getF32Type()),
      tensor::EmptyOp::create(b, loc, rowType.getShape(), b.getF32Type()),
      tensor::EmptyOp::create(b, loc, rowType.getShape(), b.getF32Type())};
  auto loop = scf::ForOp::create(
      b, loc, index(0), index(queries), index(tile), whole,
      [&](OpBuilder &nb, Location nloc, Value at, ValueRange acc) {
        auto rows = [&](Value value, int64_t dim) {
          return SequenceShardBuilder::sliceAlong(nb, nloc, value, dim, at,
                                                  tile);
        };
        Value query = rows(op.getQuery(), 2);
        Value qPositions = rows(op.getQPositions(), 0);
        // A mask's query rows follow the tile (a broadcast one stays).
        Value mask = op.getMask();
        if (mask && cast<RankedTensorType>(mask.getType()).getDimSize(2) != 1)
          mask = rows(mask, 2);
        // Causal attention has s = s_kv (its verifier): keyEnd <= keys.
        Value keyEnd = arith::AddIOp::create(
            nb, nloc, at, arith::ConstantIndexOp::create(nb, nloc, tile));
        scf::ForOp part = buildKeyTileLoop(nb, nloc, op, query, qPositions,
                                           mask, keyEnd, tile);
        SmallVector<Value> merged;
        for (auto [piece, into] : llvm::zip(part.getResults(), acc))
          merged.push_back(insertAlong(nb, nloc, piece, into, 2, at));
        scf::YieldOp::create(nb, nloc, merged);
      });
  op->replaceAllUsesWith(loop.getResults());
  op->erase();
}

/// The block backward `op` as loops over query tiles of `qTile` rows and,
/// inside, key tiles of `kTile` keys (docs/semantics.md §4.7: with the rows'
/// global LSE each tile's gradients are the block's restricted to it): a
/// query tile's dQ sums over its key tiles, a key tile's dK and dV over the
/// query tiles. Every P and dS is [b, a, qTile, kTile]. With
/// `causalFromZero` (query and key positions both 0.., s = s_kv) query tile
/// [q, q + qTile) reads keys [0, q + qTile) only: the tiles wholly in its
/// future add nothing and are not computed.
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
  auto add = [](OpBuilder &ob, Location l, Value x, Value y) -> Value {
    auto type = cast<RankedTensorType>(x.getType());
    Value init = tensor::EmptyOp::create(ob, l, type.getShape(),
                                         type.getElementType());
    return linalg::AddOp::create(ob, l, TypeRange{type}, ValueRange{x, y},
                                 ValueRange{init})
        .getResult(0);
  };
  auto queryGradType = cast<RankedTensorType>(op.getQueryGrad().getType());
  int64_t queries = queryGradType.getDimSize(2);
  int64_t keys = cast<RankedTensorType>(op.getKey().getType()).getDimSize(2);
  Value mask = op.getMask();
  auto maskDim = [&](int64_t dim) {
    return mask && cast<RankedTensorType>(mask.getType()).getDimSize(dim) != 1;
  };
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
        // A mask's rows and columns follow the tiles (broadcast dims stay).
        Value rowMask = maskDim(2) ? rowsOf(mask, 2) : mask;
        Value keyEnd =
            causalFromZero
                ? arith::AddIOp::create(qb, ql, q0, index(qb, ql, qTile))
                      .getResult()
                : index(qb, ql, keys);
        auto queryGrad = zeros(
            qb, ql, cast<RankedTensorType>(query.getType()).clone(qb.getF32Type()));
        auto cols = scf::ForOp::create(
            qb, ql, index(qb, ql, 0), keyEnd, index(qb, ql, kTile),
            ValueRange{queryGrad, outer[1], outer[2]},
            [&](OpBuilder &kb, Location kl, Value k0, ValueRange inner) {
              auto colsOf = [&](Value value, int64_t dim) {
                return SequenceShardBuilder::sliceAlong(kb, kl, value, dim, k0,
                                                        kTile);
              };
              Value key = colsOf(op.getKey(), 2);
              Value value = colsOf(op.getValue(), 2);
              Value kvPositions = colsOf(op.getKvPositions(), 0);
              Value tileMask = maskDim(3) ? colsOf(rowMask, 3) : rowMask;
              auto kType = cast<RankedTensorType>(key.getType());
              auto part = AttentionBlockBackwardOp::create(
                  kb, kl, cast<RankedTensorType>(inner[0].getType()),
                  kType.clone(kb.getF32Type()), kType.clone(kb.getF32Type()),
                  query, key, value, outGrad, out, rowMax, rowSum, qPositions,
                  kvPositions, tileMask, op.getHeadOffset(), op.getScaleAttr(),
                  op.getCausalAttr());
              // The tile's global positions key its dropout: the block's.
              cloneAttentionDropout(op.getDropout(), part.getDropout());
              auto accumulate = [&](Value whole, Value piece) {
                Value sum = add(kb, kl, colsOf(whole, 2), piece);
                return insertAlong(kb, kl, sum, whole, 2, k0);
              };
              scf::YieldOp::create(
                  kb, kl,
                  ValueRange{add(kb, kl, inner[0], part.getQueryGrad()),
                             accumulate(inner[1], part.getKeyGrad()),
                             accumulate(inner[2], part.getValueGrad())});
            });
        scf::YieldOp::create(
            qb, ql,
            ValueRange{insertAlong(qb, ql, cols.getResult(0), outer[0], 2, q0),
                       cols.getResult(1), cols.getResult(2)});
      });
  op->replaceAllUsesWith(rows.getResults());
  op->erase();
}

struct TileAttentionPass
    : public mlir::seqpar::impl::TileAttentionBase<TileAttentionPass> {
  using TileAttentionBase::TileAttentionBase;

  void runOnOperation() override {
    if (kvTile < 0) {
      getOperation()->emitError()
          << "tile-attention: kv-tile=" << kvTile.getValue()
          << " (seqpar-lower-to-llvm: attention-kv-tile) is not a tile size: "
             "expected keys per tile >= 1, or 0 to disable tiling";
      return signalPassFailure();
    }
    if (kvTile == 0)
      return;
    // Empty K/V (b, a_kv or d = 0) has no tile to slice.
    auto tiles = [&](Value key) {
      auto type = cast<RankedTensorType>(key.getType());
      int64_t keys = type.getDimSize(2);
      return type.getNumElements() > 0 && keys > kvTile && keys % kvTile == 0;
    };
    SmallVector<AttentionBlockOp> blocks, causalBlocks;
    SmallVector<AttentionOp> attentions;
    SmallVector<AttentionBlockBackwardOp> blockBackwards;
    SmallVector<AttentionBackwardOp> backwards;
    // A block backward is tiled when its keys or its queries are.
    auto tilesRows = [&](Value query) {
      auto type = cast<RankedTensorType>(query.getType());
      int64_t rows = type.getDimSize(2);
      return type.getNumElements() > 0 && rows > kvTile && rows % kvTile == 0;
    };
    getOperation()->walk([&](Operation *op) {
      if (auto grad = dyn_cast<AttentionBlockBackwardOp>(op);
          grad && (tiles(grad.getKey()) || tilesRows(grad.getQuery())))
        blockBackwards.push_back(grad);
      if (auto whole = dyn_cast<AttentionBackwardOp>(op);
          whole && (tiles(whole.getKey()) || tilesRows(whole.getQuery())) &&
          isa<Float32Type, Float16Type, BFloat16Type>(
              cast<RankedTensorType>(whole.getQuery().getType())
                  .getElementType()))
        backwards.push_back(whole);
      if (auto block = dyn_cast<AttentionBlockOp>(op);
          block && tiles(block.getKey()))
        blocks.push_back(block);
      auto attention = dyn_cast<AttentionOp>(op);
      Type elem = attention
                      ? cast<RankedTensorType>(attention.getQuery().getType())
                            .getElementType()
                      : Type();
      if (attention && tiles(attention.getKey()) &&
          (elem.isF32() || elem.isF16() || elem.isBF16()))
        attentions.push_back(attention);
    });
    // Causal attention over positions 0.. skips the future (its queries,
    // s = s_kv, split into whole tiles as its keys do).
    for (AttentionOp attention : attentions)
      (attention.getCausal() ? causalBlocks : blocks)
          .push_back(buildAttentionAsBlock(attention));
    for (AttentionBlockOp block : blocks) {
      tileBlock(block, kvTile);
      ++numTiled;
    }
    for (AttentionBlockOp block : causalBlocks) {
      tileCausalBlock(block, kvTile);
      ++numTiled;
      ++numCausalSkipping;
    }
    // The block backward over query and key tiles (either may be whole).
    auto tileOf = [&](Value value) {
      int64_t n = cast<RankedTensorType>(value.getType()).getDimSize(2);
      return n > kvTile && n % kvTile == 0 ? int64_t(kvTile) : n;
    };
    auto tileBackward = [&](AttentionBlockBackwardOp grad, bool fromZero) {
      tileBlockBackward(grad, tileOf(grad.getQuery()), tileOf(grad.getKey()),
                        fromZero && grad.getCausal());
      ++numTiled;
    };
    for (AttentionBlockBackwardOp grad : blockBackwards)
      tileBackward(grad, /*fromZero=*/false);
    // A whole backward: its stats block (over positions 0..) is tiled as a
    // forward block is; its block backward skips the causal future.
    for (AttentionBackwardOp whole : backwards) {
      AttentionBlockBackwardOp grad = buildAttentionBackwardAsBlocks(whole);
      auto stats = grad.getRowMax().getDefiningOp<AttentionBlockOp>();
      if (stats && tiles(stats.getKey())) {
        if (stats.getCausal())
          tileCausalBlock(stats, kvTile);
        else
          tileBlock(stats, kvTile);
      }
      tileBackward(grad, /*fromZero=*/true);
    }
  }
};

} // namespace
