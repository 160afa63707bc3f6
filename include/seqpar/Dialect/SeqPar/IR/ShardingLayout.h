//===- ShardingLayout.h - where a rank's piece lies in the global tensor -*- C++ -*-===//
//
// The index arithmetic of #seqpar.sharding (docs/semantics.md §2) on concrete
// numbers, shared by everything that cuts per-rank values from global ones
// or assembles them back: seqpar-run (host buffers) and the rank simulator
// (seqpar-test-simulate-ranks, tensor slices).
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_DIALECT_SEQPAR_IR_SHARDINGLAYOUT_H
#define SEQPAR_DIALECT_SEQPAR_IR_SHARDINGLAYOUT_H

#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"

#include "llvm/ADT/SmallVector.h"

namespace mlir::seqpar {

/// Rank's linear index within the group of `axes` (row-major, first axis
/// major) given its coordinates `coords` on a grid of shape `gridShape`.
int64_t getGroupRank(llvm::ArrayRef<int16_t> axes,
                     llvm::ArrayRef<int64_t> gridShape,
                     llvm::ArrayRef<int64_t> coords);

/// `size` consecutive global indices from `start`.
struct IndexRange {
  int64_t start = 0;
  int64_t size = 0;
};

/// For dim `dim` of a value sharded by `sharding`, the ranges of global
/// indices the process with coordinates `coords` holds, in local order.
/// `globalSize` is the global extent of the dim. Unsplit: the whole dim;
/// contiguous: block k of n; `groups N`: block k of each of the N groups,
/// concatenated; zigzag: chunks k and 2n-1-k of 2n; `cyclic I`: the blocks
/// of I indices starting at (j n + k) I for j = 0, 1, ... (k = the rank in
/// the dim's axes group, n = the group size). Fails when the extent does not
/// divide.
llvm::FailureOr<llvm::SmallVector<IndexRange>>
getGlobalRanges(ShardingAttr sharding, int64_t dim, int64_t globalSize,
                llvm::ArrayRef<int64_t> gridShape,
                llvm::ArrayRef<int64_t> coords);

/// getGlobalRanges element by element: the global index of every local
/// position, in local order.
llvm::FailureOr<llvm::SmallVector<int64_t>>
getGlobalIndices(ShardingAttr sharding, int64_t dim, int64_t globalSize,
                 llvm::ArrayRef<int64_t> gridShape,
                 llvm::ArrayRef<int64_t> coords);

/// The global shape of a per-rank value of shape `localShape` (every split
/// dim times its number of ranks); dims may not be dynamic.
llvm::SmallVector<int64_t> getGlobalShape(ShardingAttr sharding,
                                          llvm::ArrayRef<int64_t> localShape,
                                          llvm::ArrayRef<int64_t> gridShape);

/// True when the process with `coords` holds a non-zero share of a partial
/// value: its coordinate is 0 on every partial axis. (A global value is cut
/// into partial sums by giving it all to those processes, zeros elsewhere.)
bool holdsPartialShare(ShardingAttr sharding, llvm::ArrayRef<int64_t> coords);

/// True when the process with `coords` is the representative of its
/// replicas: coordinate 0 on every grid axis the sharding does not use.
bool isReplicaRepresentative(ShardingAttr sharding,
                             llvm::ArrayRef<int64_t> coords);

/// Row-major coordinates of world rank `rank` on `gridShape`.
llvm::SmallVector<int64_t> getGridCoordinates(int64_t rank,
                                              llvm::ArrayRef<int64_t> gridShape);

} // namespace mlir::seqpar

#endif // SEQPAR_DIALECT_SEQPAR_IR_SHARDINGLAYOUT_H
