//===- KVCache.h - the KV caches of a decode step ---------------*- C++ -*-===//
//
// What a decode step's KV cache looks like (docs/decode.md, "The rewrite"):
// a function argument [b, a_kv, L_max, d] updated once by an insert of the
// new tokens' K or V at the current length along the slots (dim 2). The one
// home of that form, for seqpar-decode-context-parallel (which shards the
// caches) and seqpar-report (which counts their bytes).
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_ANALYSIS_KVCACHE_H
#define SEQPAR_ANALYSIS_KVCACHE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <string>

namespace mlir::seqpar {

/// The dim of a KV cache [b, a_kv, L_max, d] that holds its slots.
constexpr int64_t kKVCacheSlotDim = 2;

/// The update of `cache` (an argument of its function's entry block): the
/// `tensor.insert_slice` of the new tokens [b, a_kv, T, d] into it at a
/// (dynamic or constant) offset along the slots, its other offsets 0,
/// sizes whole and strides 1, the argument's only use; static shapes. On
/// failure, `why` says which condition fails.
FailureOr<tensor::InsertSliceOp> matchKVCacheUpdate(BlockArgument cache,
                                                    std::string &why);

/// The KV caches of `func`'s arguments: those marked `seqpar.kv_cache`
/// (per-rank steps) and those with an update of the form above
/// (single-device steps).
SmallVector<BlockArgument> findKVCacheArguments(func::FuncOp func);

} // namespace mlir::seqpar

#endif // SEQPAR_ANALYSIS_KVCACHE_H
