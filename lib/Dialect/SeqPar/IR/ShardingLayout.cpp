//===- ShardingLayout.cpp - where a rank's piece lies in the global tensor ===//

#include "seqpar/Dialect/SeqPar/IR/ShardingLayout.h"

using namespace mlir;
using namespace mlir::seqpar;

int64_t mlir::seqpar::getGroupRank(ArrayRef<int16_t> axes,
                                   ArrayRef<int64_t> gridShape,
                                   ArrayRef<int64_t> coords) {
  int64_t rank = 0;
  for (int16_t axis : axes)
    rank = rank * gridShape[axis] + coords[axis];
  return rank;
}

FailureOr<SmallVector<IndexRange>>
mlir::seqpar::getGlobalRanges(ShardingAttr sharding, int64_t dim,
                              int64_t globalSize, ArrayRef<int64_t> gridShape,
                              ArrayRef<int64_t> coords) {
  DimShardingAttr split = sharding.getDimSharding(dim);
  if (!split)
    return SmallVector<IndexRange>{{0, globalSize}};
  int64_t n = 1;
  for (int16_t axis : split.getAxes())
    n *= gridShape[axis];
  int64_t k = getGroupRank(split.getAxes(), gridShape, coords);
  SmallVector<IndexRange> ranges;
  switch (split.getKind()) {
  case SplitKind::contiguous:
    if (globalSize % n != 0)
      return failure();
    ranges.push_back({k * (globalSize / n), globalSize / n});
    break;
  case SplitKind::grouped: {
    int64_t groups = split.getGroups();
    if (globalSize % (groups * n) != 0)
      return failure();
    int64_t groupSize = globalSize / groups, block = groupSize / n;
    for (int64_t g = 0; g < groups; ++g)
      ranges.push_back({g * groupSize + k * block, block});
    break;
  }
  case SplitKind::zigzag: {
    if (globalSize % (2 * n) != 0)
      return failure();
    int64_t chunk = globalSize / (2 * n);
    ranges.push_back({k * chunk, chunk});
    ranges.push_back({(2 * n - 1 - k) * chunk, chunk});
    break;
  }
  case SplitKind::cyclic: {
    // Index t on rank (t / I) mod n: block k of every round of n blocks.
    int64_t block = split.getInterleave();
    if (globalSize % (n * block) != 0)
      return failure();
    for (int64_t round = 0; round < globalSize / (n * block); ++round)
      ranges.push_back({(round * n + k) * block, block});
    break;
  }
  }
  return ranges;
}

FailureOr<SmallVector<int64_t>>
mlir::seqpar::getGlobalIndices(ShardingAttr sharding, int64_t dim,
                               int64_t globalSize, ArrayRef<int64_t> gridShape,
                               ArrayRef<int64_t> coords) {
  FailureOr<SmallVector<IndexRange>> ranges =
      getGlobalRanges(sharding, dim, globalSize, gridShape, coords);
  if (failed(ranges))
    return failure();
  SmallVector<int64_t> indices;
  for (IndexRange range : *ranges)
    for (int64_t i = 0; i < range.size; ++i)
      indices.push_back(range.start + i);
  return indices;
}

SmallVector<int64_t> mlir::seqpar::getGlobalShape(ShardingAttr sharding,
                                                  ArrayRef<int64_t> localShape,
                                                  ArrayRef<int64_t> gridShape) {
  SmallVector<int64_t> global(localShape);
  for (auto [dim, size] : llvm::enumerate(global)) {
    DimShardingAttr split = sharding.getDimSharding(dim);
    if (!split)
      continue;
    for (int16_t axis : split.getAxes())
      size *= gridShape[axis];
  }
  return global;
}

bool mlir::seqpar::holdsPartialShare(ShardingAttr sharding,
                                     ArrayRef<int64_t> coords) {
  return llvm::all_of(sharding.getPartialAxes(),
                      [&](int16_t axis) { return coords[axis] == 0; });
}

bool mlir::seqpar::isReplicaRepresentative(ShardingAttr sharding,
                                           ArrayRef<int64_t> coords) {
  for (auto [axis, coord] : llvm::enumerate(coords))
    if (coord != 0 && !sharding.usesAxis(static_cast<int16_t>(axis)))
      return false;
  return true;
}

SmallVector<int64_t>
mlir::seqpar::getGridCoordinates(int64_t rank, ArrayRef<int64_t> gridShape) {
  SmallVector<int64_t> coords(gridShape.size());
  for (int64_t axis = static_cast<int64_t>(gridShape.size()) - 1; axis >= 0;
       --axis) {
    coords[axis] = rank % gridShape[axis];
    rank /= gridShape[axis];
  }
  return coords;
}
