//===- DecodeContextParallel.cpp - KV caches sharded over ranks -----------===//
//
// The seqpar-decode-context-parallel pass (docs/decode.md): a single-device
// decode step whose attentions read KV caches updated in place becomes the
// per-rank step over block-cyclically sharded caches, its partial attentions
// merged by the LSE rule (docs/semantics.md §4.3).
//
//===----------------------------------------------------------------------===//

#include "seqpar/Analysis/AttentionMatch.h"
#include "seqpar/Analysis/ByteCounts.h"
#include "seqpar/Analysis/CausalMask.h"
#include "seqpar/Analysis/KVCache.h"
#include "seqpar/Analysis/SymbolUses.h"
#include "seqpar/Dialect/SeqPar/Transforms/Attention/AttentionPartial.h"
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"
#include "seqpar/Dialect/SeqPar/Transforms/RuntimeCheck.h"
#include "seqpar/Dialect/SeqPar/Transforms/Sharding/GridAxis.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

namespace mlir::seqpar {
#define GEN_PASS_DEF_DECODECONTEXTPARALLEL
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// The sequence dim of keys and values [b, a_kv, L_max, d] (and of the
/// caches they are read from).
constexpr int64_t kSlotDim = kKVCacheSlotDim;

/// A KV cache: a function argument [b, a_kv, L_max, d] updated once by a
/// `tensor.insert_slice` of the new tokens at offset L along the slots, and
/// read by an attention whole or through `headSlice`, a slice of its heads
/// (a TP rank's K/V heads when TP keeps the K/V projection replicated).
struct CacheWrite {
  BlockArgument cache;
  tensor::InsertSliceOp insert;
  tensor::ExtractSliceOp headSlice;
};

/// An attention over caches, as the pass found it.
struct DecodeAttention {
  Operation *op;
  CacheWrite key, value;
  /// A `seqpar.attention` mask that is causality at the queries' run-time
  /// positions (query j at L + j): the block is causal by position instead,
  /// so key tiles past the last query are skipped (docs/decode.md).
  std::optional<RuntimeCausalMask> causalMask;
  /// Why a mask stays an additive mask (empty: no mask, or it does not).
  std::string maskKept;
};

/// Whether `e`, an expr of dim `query` and constants, is one
/// `expandQueryPosition` builds: sums and products by constants.
bool isExpandable(AffineExpr e, AffineExpr query) {
  if (isa<AffineConstantExpr>(e))
    return true;
  if (isa<AffineDimExpr>(e))
    return e == query;
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return false;
  if (e.getKind() == AffineExprKind::Add)
    return isExpandable(bin.getLHS(), query) &&
           isExpandable(bin.getRHS(), query);
  if (e.getKind() == AffineExprKind::Mul)
    return isExpandable(bin.getLHS(), query) &&
           isa<AffineConstantExpr>(bin.getRHS());
  return false;
}

/// `e` (isExpandable) at query row `row`, in index arithmetic, which wraps
/// modulo 2^64 as the mask's 64-bit sums do.
Value expandQueryPosition(OpBuilder &b, Location loc, AffineExpr e,
                          Value row) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return arith::ConstantIndexOp::create(b, loc, c.getValue());
  if (isa<AffineDimExpr>(e))
    return row;
  auto bin = cast<AffineBinaryOpExpr>(e);
  Value lhs = expandQueryPosition(b, loc, bin.getLHS(), row);
  Value rhs = expandQueryPosition(b, loc, bin.getRHS(), row);
  if (e.getKind() == AffineExprKind::Add)
    return arith::AddIOp::create(b, loc, lhs, rhs);
  return arith::MulIOp::create(b, loc, lhs, rhs);
}

/// The mask of `attention` as causality at run-time query positions, or why
/// it is kept as an additive mask (docs/decode.md).
FailureOr<RuntimeCausalMask> matchCausalMask(AttentionOp attention,
                                             std::string &why) {
  Value mask = attention.getMask();
  auto queryType = cast<RankedTensorType>(attention.getQuery().getType());
  auto keyType = cast<RankedTensorType>(attention.getKey().getType());
  auto maskType = cast<RankedTensorType>(mask.getType());
  MLIRContext *ctx = attention.getContext();
  // The logits' dims (b, a, T, L_max); the mask broadcasts over its unit
  // dims.
  SmallVector<int64_t> sizes{queryType.getDimSize(0), queryType.getDimSize(1),
                             queryType.getDimSize(2), keyType.getDimSize(2)};
  if (maskType.getRank() != 4 || !maskType.hasStaticShape()) {
    why = "its mask is not a static [b|1, a|1, T|1, L_max|1] tensor";
    return failure();
  }
  SmallVector<AffineExpr> coords;
  for (int64_t dim = 0; dim < 4; ++dim)
    coords.push_back(maskType.getDimSize(dim) == 1 && sizes[dim] != 1
                         ? getAffineConstantExpr(0, ctx)
                         : getAffineDimExpr(dim, ctx));
  AffineExpr query = getAffineDimExpr(2, ctx), key = getAffineDimExpr(3, ctx);
  FailureOr<RuntimeCausalMask> causal =
      runtimeCausalMask(mask, coords, query, key, sizes, why);
  if (failed(causal))
    return failure();
  // The positions are built before the attention from the scalars the mask
  // read.
  Block *block = attention->getBlock();
  for (auto [value, coefficient] : causal->runtime) {
    Operation *def = value.getDefiningOp();
    bool before = def ? def->getBlock() == block &&
                            def->isBeforeInBlock(attention)
                      : cast<BlockArgument>(value).getOwner() == block;
    if (!before) {
      why = "its mask reads a run-time integer not defined before the "
            "attention in its block";
      return failure();
    }
  }
  if (!isExpandable(causal->queryPosition, query)) {
    why = "its mask's query position is not a sum of the query index, "
          "constants and run-time integers";
    return failure();
  }
  // A finite hidden value weighs hidden keys 0 only on a row that shows a
  // key (docs/semantics.md §4.5); with an unsigned comparison key 0 is
  // shown to every row, with a signed one a negative query position hides
  // them all, and the additive mask then weighs every key the same.
  if (!std::isinf(causal->hidden)) {
    double limit = maskedLogitLimit(queryType.getElementType());
    if (causal->hidden > limit) {
      why = llvm::formatv("its mask hides keys with {0:e}, above {1:e} (not "
                          "-inf for every row)",
                          causal->hidden, limit)
                .str();
      return failure();
    }
    if (causal->isSigned) {
      why = llvm::formatv("its mask hides keys with the finite {0:e} and "
                          "compares positions signed: a row whose query "
                          "position is negative hides every key, and the "
                          "additive mask then weighs them all the same, "
                          "which the causal flag does not",
                          causal->hidden)
                .str();
      return failure();
    }
  }
  return causal;
}

/// Whether `value` holds 0, 1, ..., n-1: an index constant or a
/// tensor.generate yielding its index.
bool isIota(Value value, int64_t n) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || type.getRank() != 1 || type.getDimSize(0) != n)
    return false;
  DenseIntElementsAttr dense;
  if (matchPattern(value, m_Constant(&dense)))
    return llvm::all_of(llvm::enumerate(dense.getValues<APInt>()),
                        [](auto item) {
                          return item.value().getSExtValue() ==
                                 static_cast<int64_t>(item.index());
                        });
  auto generate = value.getDefiningOp<tensor::GenerateOp>();
  if (!generate)
    return false;
  Block &body = generate.getBody().front();
  Value yielded = body.getTerminator()->getOperand(0);
  if (auto cast = yielded.getDefiningOp<arith::IndexCastOp>())
    yielded = cast.getIn();
  return yielded == body.getArgument(0);
}

/// The cache write `value` is the result of, or why it is none.
FailureOr<CacheWrite> matchCacheWrite(Value value, func::FuncOp func,
                                      std::string &why) {
  auto headSlice = value.getDefiningOp<tensor::ExtractSliceOp>();
  if (headSlice) {
    auto sourceType = headSlice.getSourceType();
    if (sourceType.getRank() != 4 || !headSlice.hasUnitStride() ||
        headSlice.getResultType().getRank() != 4) {
      why = "it is a strided or rank-changing slice of a tensor";
      return failure();
    }
    // Only whole heads may be sliced: every batch row, slot and element.
    static constexpr const char *kDimNames[] = {"batch", "heads", "slots",
                                                "head dim"};
    for (int64_t dim = 0; dim < 4; ++dim) {
      if (dim == 1)
        continue;
      std::optional<int64_t> offset =
          getConstantIntValue(headSlice.getMixedOffsets()[dim]);
      if (!offset || *offset != 0 ||
          headSlice.getResultType().getDimSize(dim) !=
              sourceType.getDimSize(dim)) {
        why = std::string("it is a slice of the cache's ") + kDimNames[dim] +
              " (dim " + std::to_string(dim) +
              "), where only whole heads are followed";
        return failure();
      }
    }
    value = headSlice.getSource();
  }
  auto insert = value.getDefiningOp<tensor::InsertSliceOp>();
  if (!insert) {
    why = "it is not a tensor.insert_slice into a cache argument";
    return failure();
  }
  FailureOr<BlockArgument> cache = getKVCacheArgument(insert, why);
  if (failed(cache))
    return failure();
  return CacheWrite{*cache, insert, headSlice};
}

/// Matches `op`'s key and value to cache writes and checks the rest of the
/// attention's form (docs/decode.md); the failure says why not.
FailureOr<DecodeAttention>
matchDecodeAttention(Operation *op, func::FuncOp func, std::string &why) {
  Value key, value, mask;
  Region *dropout;
  if (auto block = dyn_cast<AttentionBlockOp>(op)) {
    key = block.getKey();
    value = block.getValue();
    mask = block.getMask();
    dropout = &block.getDropout();
    int64_t slots = cast<RankedTensorType>(key.getType()).getDimSize(kSlotDim);
    if (!isIota(block.getKvPositions(), slots)) {
      why = "its key positions are not the slots 0 .. L_max-1";
      return failure();
    }
  } else {
    auto attention = cast<AttentionOp>(op);
    key = attention.getKey();
    value = attention.getValue();
    mask = attention.getMask();
    dropout = &attention.getDropout();
    if (attention.getCausal()) {
      why = "it is causal over as many queries as slots (a prefill, not a "
            "decode step)";
      return failure();
    }
  }
  if (!dropout->empty()) {
    why = "it has attention dropout (not used in decode)";
    return failure();
  }
  std::string whyKey, whyValue;
  FailureOr<CacheWrite> keyWrite = matchCacheWrite(key, func, whyKey);
  FailureOr<CacheWrite> valueWrite = matchCacheWrite(value, func, whyValue);
  if (failed(keyWrite) || failed(valueWrite)) {
    why = failed(keyWrite) ? "its key is not a cache: " + whyKey
                           : "its value is not a cache: " + whyValue;
    return failure();
  }
  DecodeAttention result{op, *keyWrite, *valueWrite, std::nullopt, ""};
  if (mask) {
    auto maskType = cast<RankedTensorType>(mask.getType());
    int64_t columns = maskType.getDimSize(3);
    if (columns != 1 &&
        columns != cast<RankedTensorType>(key.getType()).getDimSize(kSlotDim)) {
      why = "its mask's key dim is neither 1 nor L_max";
      return failure();
    }
    if (auto attention = dyn_cast<AttentionOp>(op)) {
      FailureOr<RuntimeCausalMask> causal =
          matchCausalMask(attention, result.maskKept);
      if (succeeded(causal))
        result.causalMask = *causal;
    }
  }
  return result;
}

/// The query positions of `mask` for `numQueries` rows, [numQueries] index:
/// q(j), or max(q(j), -1) + 1 for a signed comparison (whose key positions
/// are then shifted by one).
Value buildQueryPositions(OpBuilder &b, Location loc,
                          const RuntimeCausalMask &mask, int64_t numQueries);

struct DecodeContextParallelPass
    : public mlir::seqpar::impl::DecodeContextParallelBase<
          DecodeContextParallelPass> {
  using DecodeContextParallelBase::DecodeContextParallelBase;
  void runOnOperation() override;

private:
  LogicalResult runOnFunction(func::FuncOp func);
  /// On one rank the caches stay whole; an attention over them whose mask is
  /// causality at run-time positions still becomes a causal block, so a
  /// step costs its length L, not L_max, there too.
  void causalOnOneRank(func::FuncOp func, FlatSymbolRefAttr grid);
};

/// Builds the per-rank step of one function on n ranks of grid axis `axis`.
class DecodeStepBuilder {
public:
  DecodeStepBuilder(func::FuncOp func, FlatSymbolRefAttr grid, int16_t axis,
                    int64_t numRanks, SplitKind layout, int64_t interleave,
                    DecodeMerge merge)
      : func(func), grid(grid), axis(axis), numRanks(numRanks), layout(layout),
        interleave(interleave), merge(merge),
        b(OpBuilder::atBlockBegin(&func.getBody().front())) {
    rank = shard::ProcessMultiIndexOp::create(b, func.getLoc(),
                                              TypeRange{b.getIndexType()},
                                              grid.getValue(), {axis})
               .getResult()[0];
  }

  /// The rank's cache slots in place of `write`'s argument and the new
  /// tokens written by their owner (once per cache).
  Value writeCache(const CacheWrite &write);
  /// The rank's slots after `insert` (and the updates before it).
  Value writeUpdate(tensor::InsertSliceOp insert);
  /// Asserts at run time that the insert at slot `start` of `numNew` tokens
  /// fits in the global cache's `numSlots` slots, as the single-device
  /// insert requires: the owner-only select would drop the tokens past
  /// the end without a word.
  void checkWriteInBounds(Location loc, Value start, int64_t numNew,
                          int64_t numSlots);
  /// What the attention reads of the rank's slots after `write`.
  Value readCache(const CacheWrite &write);
  /// The attention of `attention` over the rank's slots, merged over ranks,
  /// in place of its results.
  void distribute(const DecodeAttention &attention);

  /// Erases what the rewrite left unused.
  void eraseReplaced() {
    for (Operation *slice : replacedSlices)
      slice->erase();
    replacedSlices.clear();
  }
  /// Whether `value` is a cache's rank slots after the update.
  bool isWrittenCache(Value value) const {
    return llvm::is_contained(llvm::make_second_range(written), value);
  }

  int64_t bytesSent = 0;

private:
  /// Global position p(i) of the rank's slot `slot` of `slots`
  /// (docs/decode.md).
  Value slotPosition(OpBuilder &ob, Location loc, Value slot, int64_t slots);
  /// The positions of the rank's `slots` slots plus `shift`, [slots] index.
  Value slotPositions(int64_t slots, int64_t shift = 0);
  /// The query positions of `mask` for `numQueries` rows, [numQueries]
  /// index: q(j), or max(q(j), -1) + 1 for a signed comparison (whose key
  /// positions are then shifted by one).
  Value queryPositions(const RuntimeCausalMask &mask, int64_t numQueries,
                       Location loc);
  /// `mask` [b|1, a|1, T|1, L_max|1] with its key columns read at the
  /// rank's slots.
  Value localMask(Value mask, int64_t slots);
  /// The ranks' partials merged: on every rank, in rank order.
  AttentionPartial mergeAllGather(AttentionPartial partial);
  /// The partials exchanged by heads, merged, the heads gathered back (the
  /// row max and row sum only when `gatherMax` / `gatherSum`).
  AttentionPartial mergeAllToAll(AttentionPartial partial, bool gatherMax,
                                 bool gatherSum);
  /// `value` all-gathered along `dim` over the axis.
  Value allGather(Value value, int64_t dim);
  /// Slice `k` of n along dim `dim`.
  Value piece(Value value, int64_t dim, int64_t k);
  Value index(Location loc, int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }

  func::FuncOp func;
  FlatSymbolRefAttr grid;
  int16_t axis;
  int64_t numRanks;
  SplitKind layout;
  int64_t interleave;
  DecodeMerge merge;
  OpBuilder b;
  Value rank;
  llvm::DenseMap<std::pair<int64_t, int64_t>, Value> positionsBySlots;
  llvm::DenseMap<Operation *, Value> written;
  /// The cache arguments already given their per-rank type.
  llvm::DenseSet<BlockArgument> localized;
  /// The head slices of the global caches, erased once their attentions are.
  llvm::SetVector<Operation *> replacedSlices;
};

Value DecodeStepBuilder::slotPosition(OpBuilder &ob, Location loc, Value slot,
                                      int64_t slots) {
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(ob, loc, v);
  };
  if (layout == SplitKind::contiguous)
    return arith::AddIOp::create(
        ob, loc, arith::MulIOp::create(ob, loc, rank, constant(slots)), slot);
  if (layout == SplitKind::zigzag) {
    // Slots [0, half) are chunk r, [half, slots) chunk 2n-1-r.
    int64_t half = slots / 2;
    Value first = arith::CmpIOp::create(ob, loc, arith::CmpIPredicate::ult,
                                        slot, constant(half));
    Value mirrored =
        arith::SubIOp::create(ob, loc, constant(2 * numRanks - 1), rank);
    Value chunk = arith::SelectOp::create(ob, loc, first, rank, mirrored);
    return arith::AddIOp::create(
        ob, loc, arith::MulIOp::create(ob, loc, chunk, constant(half)),
        arith::RemUIOp::create(ob, loc, slot, constant(half)));
  }
  Value size = constant(interleave);
  Value round = arith::DivUIOp::create(ob, loc, slot, size);
  Value within = arith::RemUIOp::create(ob, loc, slot, size);
  Value blockIndex = arith::AddIOp::create(
      ob, loc, arith::MulIOp::create(ob, loc, round, constant(numRanks)), rank);
  return arith::AddIOp::create(
      ob, loc, arith::MulIOp::create(ob, loc, blockIndex, size), within);
}

Value DecodeStepBuilder::slotPositions(int64_t slots, int64_t shift) {
  Value &positions = positionsBySlots[{slots, shift}];
  if (positions)
    return positions;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfterValue(rank);
  Location loc = func.getLoc();
  auto type = RankedTensorType::get({slots}, b.getIndexType());
  positions = tensor::GenerateOp::create(
      b, loc, type, ValueRange{}, [&](OpBuilder &ob, Location l, ValueRange i) {
        Value p = slotPosition(ob, l, i[0], slots);
        if (shift != 0)
          p = arith::AddIOp::create(
              ob, l, p, arith::ConstantIndexOp::create(ob, l, shift));
        tensor::YieldOp::create(ob, l, p);
      });
  return positions;
}

Value DecodeStepBuilder::queryPositions(const RuntimeCausalMask &mask,
                                        int64_t numQueries, Location loc) {
  return buildQueryPositions(b, loc, mask, numQueries);
}

Value buildQueryPositions(OpBuilder &b, Location loc,
                          const RuntimeCausalMask &mask, int64_t numQueries) {
  // The run-time part, once: each scalar as index (i64 to index keeps its
  // 64 bits), times its coefficient.
  Value runtime;
  for (auto [value, coefficient] : mask.runtime) {
    Value scalar = value;
    if (isa<RankedTensorType>(scalar.getType()))
      scalar = tensor::ExtractOp::create(b, loc, scalar, ValueRange{});
    if (!scalar.getType().isIndex())
      scalar = arith::IndexCastOp::create(b, loc, b.getIndexType(), scalar);
    if (coefficient != 1)
      scalar = arith::MulIOp::create(
          b, loc, scalar, arith::ConstantIndexOp::create(b, loc, coefficient));
    runtime = runtime ? arith::AddIOp::create(b, loc, runtime, scalar)
                      : scalar;
  }
  auto type = RankedTensorType::get({numQueries}, b.getIndexType());
  return tensor::GenerateOp::create(
      b, loc, type, ValueRange{}, [&](OpBuilder &ob, Location l, ValueRange i) {
        Value q;
        auto constant = dyn_cast<AffineConstantExpr>(mask.queryPosition);
        if (runtime && constant && constant.getValue() == 0)
          q = runtime;
        else
          q = expandQueryPosition(ob, l, mask.queryPosition, i[0]);
        if (runtime && q != runtime)
          q = arith::AddIOp::create(ob, l, q, runtime);
        // Signed: q < 0 shows no key; max(q, -1) + 1 is 0 there and above
        // every shifted key position p + 1 >= 1 (q = 2^63 - 1 wraps to
        // 2^63, still above them read unsigned).
        if (mask.isSigned)
          q = arith::AddIOp::create(
              ob, l,
              arith::MaxSIOp::create(
                  ob, l, q, arith::ConstantIndexOp::create(ob, l, -1)),
              arith::ConstantIndexOp::create(ob, l, 1));
        tensor::YieldOp::create(ob, l, q);
      });
}

Value DecodeStepBuilder::writeCache(const CacheWrite &write) {
  return writeUpdate(write.insert);
}

void DecodeStepBuilder::checkWriteInBounds(Location loc, Value start,
                                           int64_t numNew, int64_t numSlots) {
  // Signed, so that a negative L fails, and so does every L when the
  // tokens outnumber the slots (last < 0).
  Value first = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::sge, start,
      arith::ConstantIndexOp::create(b, loc, 0));
  Value last = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::sle, start,
      arith::ConstantIndexOp::create(b, loc, numSlots - numNew));
  Value inBounds = arith::AndIOp::create(b, loc, first, last);
  createRuntimeCheck(
      b, loc, inBounds,
      llvm::formatv("a decode step's {0} new tokens at slots L .. L+{1} need "
                    "0 <= L <= {2} (the KV cache has {3} slots)",
                    numNew, numNew - 1, numSlots - numNew, numSlots)
          .str());
}

Value DecodeStepBuilder::writeUpdate(tensor::InsertSliceOp insert) {
  if (Value local = written.lookup(insert))
    return local;
  // The slots before this update: the argument's, or an earlier step's.
  Value dest = insert.getDest();
  if (auto previous = dest.getDefiningOp<tensor::InsertSliceOp>()) {
    dest = writeUpdate(previous);
  } else if (auto arg = dyn_cast<BlockArgument>(dest);
             arg && localized.insert(arg).second) {
    auto globalType = cast<RankedTensorType>(arg.getType());
    SmallVector<int64_t> shape(globalType.getShape());
    shape[kSlotDim] /= numRanks;
    arg.setType(globalType.clone(shape));
  }
  auto localType = cast<RankedTensorType>(dest.getType());
  ArrayRef<int64_t> shape = localType.getShape();
  Location loc = insert.getLoc();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(insert);
  Value start = getValueOrCreateConstantIndexOp(
      b, loc, insert.getMixedOffsets()[kSlotDim]);
  Value fresh = insert.getSource();
  int64_t numNew = insert.getSourceType().getDimSize(kSlotDim);
  checkWriteInBounds(loc, start, numNew, shape[kSlotDim] * numRanks);
  Value init =
      tensor::EmptyOp::create(b, loc, shape, localType.getElementType());
  MLIRContext *ctx = b.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(4, ctx);
  // Slot i takes new token p(i) - L when L <= p(i) < L + T: the owner
  // writes each new position once, every other slot keeps its value.
  Value local =
      linalg::GenericOp::create(
          b, loc, localType, ValueRange{dest}, ValueRange{init},
          ArrayRef<AffineMap>{id, id},
          SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            SmallVector<Value> at;
            for (int64_t dim = 0; dim < 4; ++dim)
              at.push_back(linalg::IndexOp::create(nb, nl, dim));
            Value p = slotPosition(nb, nl, at[kSlotDim], shape[kSlotDim]);
            Value end = arith::AddIOp::create(
                nb, nl, start, arith::ConstantIndexOp::create(nb, nl, numNew));
            Value mine = arith::AndIOp::create(
                nb, nl,
                arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::sge, p,
                                      start),
                arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::slt, p,
                                      end));
            // Clamped, so the read stays in bounds on slots not written.
            Value j = arith::MinSIOp::create(
                nb, nl,
                arith::MaxSIOp::create(
                    nb, nl, arith::SubIOp::create(nb, nl, p, start),
                    arith::ConstantIndexOp::create(nb, nl, 0)),
                arith::ConstantIndexOp::create(nb, nl, numNew - 1));
            at[kSlotDim] = j;
            Value newValue = tensor::ExtractOp::create(nb, nl, fresh, at);
            linalg::YieldOp::create(
                nb, nl,
                arith::SelectOp::create(nb, nl, mine, newValue, args[0])
                    .getResult());
          })
          .getResult(0);
  written[insert] = local;
  insert.getResult().replaceAllUsesWith(local);
  insert.erase();
  return local;
}

Value DecodeStepBuilder::readCache(const CacheWrite &write) {
  Value local = writeCache(write);
  tensor::ExtractSliceOp slice = write.headSlice;
  if (!slice)
    return local;
  replacedSlices.insert(slice);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(slice);
  SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
  sizes[kSlotDim] = b.getIndexAttr(
      cast<RankedTensorType>(local.getType()).getDimSize(kSlotDim));
  return tensor::ExtractSliceOp::create(b, slice.getLoc(), local,
                                        slice.getMixedOffsets(), sizes,
                                        slice.getMixedStrides());
}

Value DecodeStepBuilder::localMask(Value mask, int64_t slots) {
  auto type = cast<RankedTensorType>(mask.getType());
  if (type.getDimSize(3) == 1)
    return mask;
  SmallVector<int64_t> shape(type.getShape());
  shape[3] = slots;
  Location loc = mask.getLoc();
  Value positions = slotPositions(slots);
  Value init = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  AffineMap id = AffineMap::getMultiDimIdentityMap(4, b.getContext());
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{}, ValueRange{init},
             ArrayRef<AffineMap>{id},
             SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location nl, ValueRange) {
               SmallVector<Value> at;
               for (int64_t dim = 0; dim < 4; ++dim)
                 at.push_back(linalg::IndexOp::create(nb, nl, dim));
               at[3] = tensor::ExtractOp::create(nb, nl, positions,
                                                 ValueRange{at[3]});
               linalg::YieldOp::create(
                   nb, nl,
                   tensor::ExtractOp::create(nb, nl, mask, at).getResult());
             })
      .getResult(0);
}

Value DecodeStepBuilder::allGather(Value value, int64_t dim) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] *= numRanks;
  auto all = type.clone(shape);
  bytesSent += getBytesSent(CollectiveKind::AllGather, all, numRanks);
  return shard::AllGatherOp::create(b, value.getLoc(), all, grid,
                                    b.getDenseI16ArrayAttr({axis}), value,
                                    b.getIndexAttr(dim));
}

Value DecodeStepBuilder::piece(Value value, int64_t dim, int64_t k) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t rankDims = type.getRank();
  SmallVector<OpFoldResult> offsets(rankDims, b.getIndexAttr(0)),
      sizes = getAsIndexOpFoldResult(b.getContext(), type.getShape()),
      strides(rankDims, b.getIndexAttr(1));
  int64_t size = type.getDimSize(dim) / numRanks;
  offsets[dim] = b.getIndexAttr(k * size);
  sizes[dim] = b.getIndexAttr(size);
  return tensor::ExtractSliceOp::create(b, value.getLoc(), value, offsets,
                                        sizes, strides);
}

AttentionPartial DecodeStepBuilder::mergeAllGather(AttentionPartial partial) {
  // Gathered along the batch dim in rank order; every rank merges the same
  // pieces in the same order, so the replicas are equal bit for bit.
  SmallVector<Value, 3> all;
  for (Value v : partial.values())
    all.push_back(allGather(v, 0));
  Location loc = partial.out.getLoc();
  AttentionPartial merged;
  for (int64_t k = 0; k < numRanks; ++k) {
    AttentionPartial next{piece(all[0], 0, k), piece(all[1], 0, k),
                          piece(all[2], 0, k)};
    merged = k == 0 ? next : buildAttentionMerge(b, loc, merged, next);
  }
  return merged;
}

AttentionPartial DecodeStepBuilder::mergeAllToAll(AttentionPartial partial,
                                                  bool gatherMax,
                                                  bool gatherSum) {
  // Head chunk k of every rank's partial goes to rank k (arriving in rank
  // order along the batch dim); rank k merges its a/n heads over all ranks'
  // slots, and the merged heads are gathered back in head order.
  Location loc = partial.out.getLoc();
  SmallVector<Value, 3> exchanged;
  for (Value v : partial.values()) {
    auto type = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape[0] *= numRanks;
    shape[1] /= numRanks;
    bytesSent += getBytesSent(CollectiveKind::AllToAll, type, numRanks);
    exchanged.push_back(shard::AllToAllOp::create(
        b, loc, type.clone(shape), grid, b.getDenseI16ArrayAttr({axis}), v,
        b.getIndexAttr(1), b.getIndexAttr(0)));
  }
  AttentionPartial merged;
  for (int64_t k = 0; k < numRanks; ++k) {
    AttentionPartial next{piece(exchanged[0], 0, k), piece(exchanged[1], 0, k),
                          piece(exchanged[2], 0, k)};
    merged = k == 0 ? next : buildAttentionMerge(b, loc, merged, next);
  }
  merged.out = allGather(merged.out, 1);
  merged.rowMax = gatherMax ? allGather(merged.rowMax, 1) : Value();
  merged.rowSum = gatherSum ? allGather(merged.rowSum, 1) : Value();
  return merged;
}

void DecodeStepBuilder::distribute(const DecodeAttention &attention) {
  Operation *op = attention.op;
  Value key = readCache(attention.key);
  Value value = readCache(attention.value);
  b.setInsertionPoint(op);
  Location loc = op->getLoc();
  int64_t slots = cast<RankedTensorType>(key.getType()).getDimSize(kSlotDim);
  AttentionBlockOp local;
  if (auto block = dyn_cast<AttentionBlockOp>(op)) {
    Value mask = block.getMask() ? localMask(block.getMask(), slots) : Value();
    local = AttentionBlockOp::create(
        b, loc, block.getOut().getType(), block.getRowMax().getType(),
        block.getRowSum().getType(), block.getQuery(), key, value,
        block.getQPositions(), slotPositions(slots), mask, Value(),
        block.getScaleAttr(),
        block.getCausalAttr());
  } else {
    auto full = cast<AttentionOp>(op);
    auto queryType = cast<RankedTensorType>(full.getQuery().getType());
    int64_t numQueries = queryType.getDimSize(2);
    auto outType = queryType.clone(b.getF32Type());
    auto rowsType =
        RankedTensorType::get(queryType.getShape().drop_back(), b.getF32Type());
    if (const std::optional<RuntimeCausalMask> &causal = attention.causalMask) {
      // Causal by position: the mask is not read, and key tiles after the
      // last query are skipped at run time (TileAttention).
      Value queryPositions = this->queryPositions(*causal, numQueries, loc);
      Value keyPositions = slotPositions(slots, causal->isSigned ? 1 : 0);
      local = AttentionBlockOp::create(
          b, loc, outType, rowsType, rowsType, full.getQuery(), key, value,
          queryPositions, keyPositions, Value(), Value(), full.getScaleAttr(),
          b.getUnitAttr());
    } else {
      // Not causal: the query positions are not read.
      Value queryPositions = tensor::GenerateOp::create(
          b, loc, RankedTensorType::get({numQueries}, b.getIndexType()),
          ValueRange{}, [](OpBuilder &ob, Location l, ValueRange i) {
            tensor::YieldOp::create(ob, l, i[0]);
          });
      Value mask = full.getMask() ? localMask(full.getMask(), slots) : Value();
      local = AttentionBlockOp::create(b, loc, outType, rowsType, rowsType,
                                       full.getQuery(), key, value,
                                       queryPositions, slotPositions(slots),
                                       mask, Value(), full.getScaleAttr(),
                                       UnitAttr());
    }
  }
  // A block's row max and sum are results; an attention's result reads the
  // row sum (rows with every key masked by -inf are NaN).
  bool isBlock = isa<AttentionBlockOp>(op);
  bool needMax = isBlock && !op->getResult(1).use_empty();
  bool needSum = !isBlock || !op->getResult(2).use_empty();
  AttentionPartial partial = AttentionPartial::of(local);
  AttentionPartial merged = merge == DecodeMerge::AllGather
                                ? mergeAllGather(partial)
                                : mergeAllToAll(partial, needMax, needSum);
  if (isBlock) {
    op->getResult(0).replaceAllUsesWith(merged.out);
    if (needMax)
      op->getResult(1).replaceAllUsesWith(merged.rowMax);
    if (needSum)
      op->getResult(2).replaceAllUsesWith(merged.rowSum);
  } else {
    Type elem =
        cast<RankedTensorType>(op->getResult(0).getType()).getElementType();
    op->getResult(0).replaceAllUsesWith(
        buildAttentionResult(b, loc, merged, elem));
  }
  op->erase();
}

} // namespace

void DecodeContextParallelPass::runOnOperation() {
  if (interleave < 1) {
    emitError(getOperation().getLoc())
        << "interleave=" << interleave.getValue()
        << " is not a block size: expected interleave >= 1";
    return signalPassFailure();
  }
  if (interleave != 1 && layout != SplitKind::cyclic) {
    emitError(getOperation().getLoc())
        << "interleave is only used by layout=cyclic";
    return signalPassFailure();
  }
  for (auto func : getOperation().getOps<func::FuncOp>())
    if (!func.isExternal() && failed(runOnFunction(func)))
      return signalPassFailure();
}

void DecodeContextParallelPass::causalOnOneRank(func::FuncOp func,
                                                FlatSymbolRefAttr grid) {
  SmallVector<AttentionOp> masked;
  for (auto attention : func.getBody().front().getOps<AttentionOp>())
    if (attention.getMask())
      masked.push_back(attention);
  for (AttentionOp attention : masked) {
    std::string why;
    FailureOr<DecodeAttention> match =
        matchDecodeAttention(attention, func, why);
    // Not a decode step's attention: the reason is the sharding's, which
    // one rank does not need.
    if (failed(match))
      continue;
    if (!match->causalMask) {
      emitRemark(attention.getLoc())
          << "decode context parallelism keeps the attention's additive mask "
             "(every slot is computed, whatever L): "
          << match->maskKept;
      continue;
    }
    const RuntimeCausalMask &causal = *match->causalMask;
    OpBuilder b(attention);
    Location loc = attention.getLoc();
    auto queryType = cast<RankedTensorType>(attention.getQuery().getType());
    int64_t slots = cast<RankedTensorType>(attention.getKey().getType())
                        .getDimSize(kSlotDim);
    Value queryPositions =
        buildQueryPositions(b, loc, causal, queryType.getDimSize(2));
    // Slot i holds position i (plus one for a signed comparison).
    int64_t shift = causal.isSigned ? 1 : 0;
    Value keyPositions = tensor::GenerateOp::create(
        b, loc, RankedTensorType::get({slots}, b.getIndexType()), ValueRange{},
        [&](OpBuilder &ob, Location l, ValueRange i) {
          Value p = i[0];
          if (shift != 0)
            p = arith::AddIOp::create(
                ob, l, p, arith::ConstantIndexOp::create(ob, l, shift));
          tensor::YieldOp::create(ob, l, p);
        });
    auto rowsType =
        RankedTensorType::get(queryType.getShape().drop_back(), b.getF32Type());
    auto block = AttentionBlockOp::create(
        b, loc, queryType.clone(b.getF32Type()), rowsType, rowsType,
        attention.getQuery(), attention.getKey(), attention.getValue(),
        queryPositions, keyPositions, Value(), Value(),
        attention.getScaleAttr(), b.getUnitAttr());
    attention.getResult().replaceAllUsesWith(buildAttentionResult(
        b, loc, AttentionPartial::of(block), queryType.getElementType()));
    attention.erase();
    emitRemark(loc) << "decode context parallelism: the attention's mask is "
                       "causal by position (key tiles past the last query "
                       "skipped)";
  }
  // The one rank's program, as the sharded one states it: what is not
  // stated is replicated (the whole caches included), rewritten or not.
  MLIRContext *ctx = func.getContext();
  setMissingShardings(func, ShardingAttr::getReplicated(ctx, grid));
}

static bool hasAttention(Operation *root) {
  return root
      ->walk([](Operation *op) {
        return isa<AttentionOp, AttentionBlockOp>(op) ? WalkResult::interrupt()
                                                      : WalkResult::advance();
      })
      .wasInterrupted();
}

/// True if `func` calls a function with a body that holds an attention.
static bool callsAttention(func::FuncOp func) {
  return func
      .walk([](CallOpInterface call) {
        auto callee =
            dyn_cast_or_null<FunctionOpInterface>(call.resolveCallable());
        return callee && !callee.isExternal() && hasAttention(callee)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// States that `func`, none of whose attentions is sharded, runs whole on
/// every rank of `grid`: every argument and result without a sharding
/// becomes replicated, so that seqpar-run can place it. Not when one is
/// already split or partial (a TP plan's or the user's): the function may
/// then compute per-rank values, which "replicated" would misstate; it is
/// left as it is. Returns whether it marked them.
static bool markRunsWhole(func::FuncOp func, FlatSymbolRefAttr grid) {
  auto split = [](ShardingAttr sharding) {
    return sharding && !sharding.isReplicated();
  };
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    if (split(getArgSharding(func, i)))
      return false;
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
    if (split(getResultSharding(func, i)))
      return false;
  setMissingShardings(func,
                      ShardingAttr::getReplicated(func.getContext(), grid));
  return true;
}

LogicalResult DecodeContextParallelPass::runOnFunction(func::FuncOp func) {
  bool attention = hasAttention(func);
  // A private function without attention is a helper, not a step.
  if (!attention && func.isPrivate())
    return success();
  FlatSymbolRefAttr grid;
  int16_t axis = 0;
  int64_t numRanks = 1;
  if (failed(resolveGridAxis(func, gridName, gridAxis, "decode CP", grid, axis,
                             numRanks)))
    return failure();
  if (!attention) {
    InFlightDiagnostic remark = emitRemark(func.getLoc());
    remark << "decode context parallelism: @" << func.getSymName()
           << (callsAttention(func)
                   ? " has no attention of its own (callees are not "
                     "followed: inline them first, e.g. --inline)"
                   : " has no attention (seqpar.attention, or a softmax P.V "
                     "product that seqpar-raise-attention recognises)");
    if (markRunsWhole(func, grid))
      remark << ": it runs whole on every rank";
    else
      remark << ": nothing to shard; its shardings are left as they are";
    return success();
  }
  if (numRanks == 1) {
    emitRemark(func.getLoc())
        << "decode context parallelism: grid axis " << axis << " of " << grid
        << " has one rank; nothing to shard";
    causalOnOneRank(func, grid);
    return success();
  }
  // Its argument types change: a function with call sites is left to the
  // inliner first.
  if (auto module = func->getParentOfType<ModuleOp>();
      module && isSymbolReferenced(func, module)) {
    emitRemark(func.getLoc())
        << "decode context parallelism: @" << func.getSymName()
        << " has call sites: left as it is (inline it first, e.g. --inline)";
    markRunsWhole(func, grid);
    return success();
  }
  // What an attention's raising left unused (the exporter's transposes and
  // products of the cache) would read the cache whole.
  IRRewriter rewriter(func.getContext());
  (void)runRegionDCE(rewriter, func.getBody());
  SmallVector<Operation *> candidates;
  func.walk([&](Operation *op) {
    if (isa<AttentionOp, AttentionBlockOp>(op))
      candidates.push_back(op);
  });
  // Slots per round of the layout: n I (cyclic), n (contiguous), 2n
  // (zigzag).
  std::optional<int64_t> perRound = llvm::checkedMul<int64_t>(
      numRanks, layout == SplitKind::cyclic   ? interleave.getValue()
                : layout == SplitKind::zigzag ? 2
                                              : 1);

  // Match every attention, then drop, until nothing changes, those whose
  // caches something else reads (an update read by a rejected attention
  // cannot be sharded for the others).
  llvm::MapVector<Operation *, DecodeAttention> accepted;
  auto reject = [&](Operation *op, const std::string &why) {
    emitRemark(op->getLoc()) << "attention left as it is by decode context "
                                "parallelism: "
                             << why;
  };
  for (Operation *op : candidates) {
    // Under control flow a step's bytes would depend on the branch taken.
    if (op->getBlock() != &func.getBody().front()) {
      reject(op, "it is inside control flow ('" +
                     op->getParentOp()->getName().getStringRef().str() + "')");
      continue;
    }
    std::string why;
    FailureOr<DecodeAttention> match = matchDecodeAttention(op, func, why);
    if (failed(match)) {
      reject(op, why);
      continue;
    }
    int64_t slots =
        cast<RankedTensorType>(match->key.cache.getType()).getDimSize(kSlotDim);
    int64_t valueSlots = cast<RankedTensorType>(match->value.cache.getType())
                             .getDimSize(kSlotDim);
    if (!perRound || slots % *perRound != 0 || valueSlots != slots) {
      reject(op, "its cache's " + std::to_string(slots) +
                     " slots are not divisible by " +
                     (perRound ? std::to_string(*perRound)
                               : "the ranks x interleave (which overflow)") +
                     " (the " + stringifySplitKind(layout).str() +
                     " layout on " + std::to_string(numRanks) + " ranks)");
      continue;
    }
    if (merge == DecodeMerge::AllToAll &&
        cast<RankedTensorType>(op->getOperand(0).getType()).getDimSize(1) %
                numRanks !=
            0) {
      reject(op, "merge=all-to-all needs the query heads divisible by " +
                     std::to_string(numRanks) + " ranks");
      continue;
    }
    ShardingAttr sharding =
        getArgSharding(func, match->key.cache.getArgNumber());
    ShardingAttr valueSharding =
        getArgSharding(func, match->value.cache.getArgNumber());
    if ((sharding && sharding.getDimSharding(kSlotDim)) ||
        (valueSharding && valueSharding.getDimSharding(kSlotDim))) {
      reject(op, "its cache's slots are already split");
      continue;
    }
    accepted.insert({op, *match});
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = accepted.begin(); it != accepted.end(); ++it) {
      // As the key or value (operands 1, 2) of an accepted attention.
      auto isAttentionKV = [&](OpOperand &use) {
        return accepted.count(use.getOwner()) &&
               (use.getOperandNumber() == 1 || use.getOperandNumber() == 2);
      };
      // The updates the accepted attentions read; a later step's update
      // may write into an earlier one's result.
      llvm::DenseSet<Operation *> updates;
      for (auto &entry : accepted)
        for (const CacheWrite *write : {&entry.second.key, &entry.second.value})
          for (auto insert = write->insert; insert;
               insert = insert.getDest().getDefiningOp<tensor::InsertSliceOp>())
            updates.insert(insert);
      // Every update of the chain becomes the rank's slots: each may be
      // read only by the accepted attentions, the next update and the
      // return.
      auto readOnlyByAccepted = [&](const CacheWrite &write) {
        for (auto insert = write.insert; insert;
             insert = insert.getDest().getDefiningOp<tensor::InsertSliceOp>())
          if (!llvm::all_of(insert->getUses(), [&](OpOperand &use) {
                Operation *user = use.getOwner();
                if (isa<func::ReturnOp>(user))
                  return true;
                if (auto later = dyn_cast<tensor::InsertSliceOp>(user))
                  return use.get() == later.getDest() &&
                         updates.contains(later);
                if (auto slice = dyn_cast<tensor::ExtractSliceOp>(user))
                  return llvm::all_of(slice->getUses(), isAttentionKV);
                return isAttentionKV(use);
              }))
            return false;
        return true;
      };
      if (readOnlyByAccepted(it->second.key) &&
          readOnlyByAccepted(it->second.value))
        continue;
      reject(it->first, "its updated cache is read by another op than the "
                        "attentions this pass shards");
      accepted.erase(it);
      changed = true;
      break;
    }
  }
  if (accepted.empty()) {
    // Nothing to shard: the step runs whole on every rank of the grid, and
    // says so, so that the program still runs there (seqpar-run places each
    // argument by its sharding).
    markRunsWhole(func, grid);
    return success();
  }

  DecodeStepBuilder builder(func, grid, axis, numRanks, layout, interleave,
                            merge);
  MLIRContext *ctx = func.getContext();
  auto shardingOf = [&](ShardingAttr base) {
    return withKVCacheSplit(base, grid, {axis}, layout, interleave);
  };
  llvm::SetVector<BlockArgument> caches;
  // Slots of the caches, all the same or not (-1).
  int64_t slots = 0;
  int64_t numCausal = 0;
  for (auto &[op, attention] : accepted) {
    if (attention.causalMask)
      ++numCausal;
    else if (!attention.maskKept.empty())
      emitRemark(op->getLoc())
          << "decode context parallelism keeps the attention's additive "
             "mask (each rank computes all its slots, whatever L): "
          << attention.maskKept;
    for (const CacheWrite *write : {&attention.key, &attention.value}) {
      if (!caches.insert(write->cache))
        continue;
      int64_t own =
          cast<RankedTensorType>(write->cache.getType()).getDimSize(kSlotDim);
      slots = slots == 0 || slots == own ? own : -1;
    }
    builder.distribute(attention);
  }
  builder.eraseReplaced();
  // Every other argument and result is replicated over the grid: the step
  // outside attention runs whole on every rank (docs/decode.md).
  auto replicated = ShardingAttr::getReplicated(ctx, grid);
  // A cache's sharding is derived from its old one; the rest keep theirs.
  auto setSharding = [&](NamedAttrList &attrs, bool cache) {
    auto sharding = dyn_cast_if_present<ShardingAttr>(
        attrs.get(SeqParDialect::kShardingAttrName));
    attrs.set(SeqParDialect::kShardingAttrName, cache ? shardingOf(sharding)
                                                : sharding ? sharding
                                                           : replicated);
    if (cache)
      attrs.set(SeqParDialect::kKVCacheAttrName, UnitAttr::get(ctx));
  };
  editArgAttrs(func, [&](unsigned i, NamedAttrList &attrs) {
    setSharding(attrs, caches.contains(func.getArgument(i)));
  });
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  func.setType(FunctionType::get(ctx, func.getBody().front().getArgumentTypes(),
                                 ret.getOperandTypes()));
  editResultAttrs(func, [&](unsigned i, NamedAttrList &attrs) {
    setSharding(attrs, builder.isWrittenCache(ret.getOperand(i)));
  });
  numRewritten += accepted.size();
  emitRemark(func.getLoc())
      << "decode context parallelism (" << numRanks << " ranks, "
      << stringifySplitKind(layout)
      << (layout == SplitKind::cyclic
              ? " " + std::to_string(interleave.getValue())
              : std::string())
      << "): " << accepted.size() << " attentions over " << caches.size()
      << " KV caches of "
      << (slots > 0
              ? std::to_string(slots) + " slots, " +
                    std::to_string(slots / numRanks)
              : std::string("1/") + std::to_string(numRanks) + " of their")
      << " slots per rank; merge "
      << (merge == DecodeMerge::AllGather ? "all-gather" : "all-to-all") << ": "
      << builder.bytesSent << " bytes sent per rank"
      << (numCausal > 0 ? "; " + std::to_string(numCausal) +
                              " masks causal by position (key tiles past "
                              "the last query skipped)"
                        : std::string());
  return success();
}
