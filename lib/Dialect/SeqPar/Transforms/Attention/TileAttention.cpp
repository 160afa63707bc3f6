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
    getOperation()->walk([&](Operation *op) {
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
  }
};

} // namespace
