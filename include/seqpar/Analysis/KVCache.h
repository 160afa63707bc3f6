//===- KVCache.h - the KV caches of a decode step ---------------*- C++ -*-===//
//
// What a decode step's KV cache looks like (docs/decode.md, "The rewrite"):
// a function argument [b, a_kv, L_max, d] updated by inserts of the new
// tokens' K or V at the current length along the slots (dim 2): one insert
// per step, each into the previous one's result when a program runs several
// steps. The one home of that form, for seqpar-decode-context-parallel
// (which shards the caches) and seqpar-report (which counts their bytes).
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_ANALYSIS_KVCACHE_H
#define SEQPAR_ANALYSIS_KVCACHE_H

#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <string>

namespace mlir::seqpar {

/// The dim of a KV cache [b, a_kv, L_max, d] that holds its slots.
constexpr int64_t kKVCacheSlotDim = 2;

/// The cache argument `insert` updates, directly or through earlier
/// updates it writes into: every insert of the chain writes new tokens
/// [b, a_kv, T, d] at a (dynamic or constant) offset along the slots, its
/// other offsets 0, sizes whole and strides 1, static shapes; the argument
/// (of the function's entry block) is used by the first insert only. On
/// failure, `why` says which condition fails.
FailureOr<BlockArgument> getKVCacheArgument(tensor::InsertSliceOp insert,
                                            std::string &why);

/// The KV caches of `func`'s arguments: those marked `seqpar.kv_cache`
/// (per-rank steps) and those updated as above (single-device steps).
SmallVector<BlockArgument> findKVCacheArguments(func::FuncOp func);

/// `base` (null: replicated on `grid`) with the slots dim of a KV cache
/// split over `axes` by `kind` (cyclic: with `interleave`): the sharding of
/// a cache in the decode layouts (docs/decode.md).
ShardingAttr withKVCacheSplit(ShardingAttr base, FlatSymbolRefAttr grid,
                              ArrayRef<int16_t> axes, SplitKind kind,
                              int64_t interleave);

} // namespace mlir::seqpar

#endif // SEQPAR_ANALYSIS_KVCACHE_H
