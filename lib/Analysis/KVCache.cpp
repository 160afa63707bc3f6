//===- KVCache.cpp - the KV caches of a decode step -----------------------===//

#include "seqpar/Analysis/KVCache.h"

#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::seqpar;

/// Whether `insert` writes whole heads of new tokens into a static cache.
static LogicalResult checkUpdate(tensor::InsertSliceOp insert,
                                 std::string &why) {
  RankedTensorType type = insert.getDestType();
  if (type.getRank() != 4 || !type.hasStaticShape()) {
    why = "the cache is not a static [b, a_kv, L_max, d] tensor";
    return failure();
  }
  RankedTensorType newType = insert.getSourceType();
  if (newType.getRank() != 4 || !newType.hasStaticShape() ||
      !insert.hasUnitStride()) {
    why = "the update is not a static, unit-stride insert of the new tokens";
    return failure();
  }
  for (int64_t dim = 0; dim < 4; ++dim) {
    if (dim == kKVCacheSlotDim)
      continue;
    std::optional<int64_t> offset =
        getConstantIntValue(insert.getMixedOffsets()[dim]);
    if (!offset || *offset != 0 ||
        newType.getDimSize(dim) != type.getDimSize(dim)) {
      why = "the update does not cover dim " + std::to_string(dim) +
            " of the cache whole";
      return failure();
    }
  }
  if (newType.getDimSize(kKVCacheSlotDim) > type.getDimSize(kKVCacheSlotDim)) {
    why = "more new tokens than cache slots";
    return failure();
  }
  return success();
}

FailureOr<BlockArgument>
mlir::seqpar::getKVCacheArgument(tensor::InsertSliceOp insert,
                                 std::string &why) {
  while (true) {
    if (failed(checkUpdate(insert, why)))
      return failure();
    Value dest = insert.getDest();
    if (auto previous = dest.getDefiningOp<tensor::InsertSliceOp>()) {
      insert = previous;
      continue;
    }
    auto cache = dyn_cast<BlockArgument>(dest);
    auto func = dyn_cast<func::FuncOp>(insert->getParentOp());
    if (!cache || !func || cache.getOwner() != &func.getBody().front()) {
      why = "it is not a tensor.insert_slice into a cache argument";
      return failure();
    }
    if (!cache.hasOneUse()) {
      why = "the cache argument has other uses than its update";
      return failure();
    }
    return cache;
  }
}

SmallVector<BlockArgument>
mlir::seqpar::findKVCacheArguments(func::FuncOp func) {
  SmallVector<BlockArgument> caches;
  if (func.isExternal())
    return caches;
  for (BlockArgument arg : func.getArguments()) {
    std::string why;
    auto insert = arg.hasOneUse()
                      ? dyn_cast<tensor::InsertSliceOp>(*arg.getUsers().begin())
                      : nullptr;
    if (func.getArgAttr(arg.getArgNumber(), SeqParDialect::kKVCacheAttrName) ||
        (insert && insert.getDest() == arg &&
         succeeded(getKVCacheArgument(insert, why))))
      caches.push_back(arg);
  }
  return caches;
}

ShardingAttr mlir::seqpar::withKVCacheSplit(ShardingAttr base,
                                            FlatSymbolRefAttr grid,
                                            ArrayRef<int16_t> axes,
                                            SplitKind kind,
                                            int64_t interleave) {
  MLIRContext *ctx = grid.getContext();
  if (!base)
    base = ShardingAttr::getReplicated(ctx, grid);
  SmallVector<DimShardingAttr> dims(base.getDims());
  auto unsplit = DimShardingAttr::get(ctx, {}, SplitKind::contiguous, 1, 1);
  if (dims.size() <= static_cast<size_t>(kKVCacheSlotDim))
    dims.resize(kKVCacheSlotDim + 1, unsplit);
  dims[kKVCacheSlotDim] = DimShardingAttr::get(
      ctx, axes, kind, 1, kind == SplitKind::cyclic ? interleave : 1);
  return ShardingAttr::get(ctx, base.getGrid(), dims, base.getPartialAxes());
}
