//===- KVCache.cpp - the KV caches of a decode step -----------------------===//

#include "seqpar/Analysis/KVCache.h"

#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::seqpar;

FailureOr<tensor::InsertSliceOp>
mlir::seqpar::matchKVCacheUpdate(BlockArgument cache, std::string &why) {
  auto type = dyn_cast<RankedTensorType>(cache.getType());
  if (!type || type.getRank() != 4 || !type.hasStaticShape()) {
    why = "the cache is not a static [b, a_kv, L_max, d] tensor";
    return failure();
  }
  if (!cache.hasOneUse()) {
    why = "the cache argument has other uses than its update";
    return failure();
  }
  auto insert = dyn_cast<tensor::InsertSliceOp>(*cache.getUsers().begin());
  if (!insert || insert.getDest() != cache) {
    why = "the cache argument is not updated by a tensor.insert_slice";
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
  return insert;
}

SmallVector<BlockArgument>
mlir::seqpar::findKVCacheArguments(func::FuncOp func) {
  SmallVector<BlockArgument> caches;
  if (func.isExternal())
    return caches;
  for (BlockArgument arg : func.getArguments()) {
    std::string why;
    if (func.getArgAttr(arg.getArgNumber(), SeqParDialect::kKVCacheAttrName) ||
        succeeded(matchKVCacheUpdate(arg, why)))
      caches.push_back(arg);
  }
  return caches;
}
