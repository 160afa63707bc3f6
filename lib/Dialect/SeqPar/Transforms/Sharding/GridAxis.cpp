//===- GridAxis.cpp - find the grid axis a rewrite shards over ------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Sharding/GridAxis.h"

#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

LogicalResult mlir::seqpar::resolveGridAxis(func::FuncOp func,
                                            StringRef gridName,
                                            int64_t gridAxis, StringRef role,
                                            FlatSymbolRefAttr &grid,
                                            int16_t &axis, int64_t &numRanks) {
  Location loc = func.getLoc();
  Operation *symbolTableOp = SymbolTable::getNearestSymbolTable(func);
  shard::GridOp gridOp;
  if (!gridName.empty()) {
    gridOp = dyn_cast_or_null<shard::GridOp>(
        symbolTableOp ? SymbolTable::lookupSymbolIn(symbolTableOp, gridName)
                      : nullptr);
    if (!gridOp)
      return emitError(loc) << "no shard.grid named @" << gridName;
  } else {
    SmallVector<shard::GridOp> grids;
    if (symbolTableOp)
      for (Region &region : symbolTableOp->getRegions())
        for (Block &block : region)
          for (auto candidate : block.getOps<shard::GridOp>())
            grids.push_back(candidate);
    if (grids.size() != 1)
      return emitError(loc)
             << "found " << grids.size() << " shard.grid ops; name the " << role
             << " grid with the 'grid' option";
    gridOp = grids.front();
  }
  int64_t axisIndex = gridAxis;
  if (axisIndex < 0) {
    if (gridOp.getRank() != 1)
      return emitError(loc) << "grid @" << gridOp.getSymName() << " has "
                            << gridOp.getRank() << " axes; name the " << role
                            << " axis with the 'grid-axis' option";
    axisIndex = 0;
  }
  if (axisIndex >= gridOp.getRank())
    return emitError(loc) << "grid axis " << axisIndex
                          << " is out of range for grid @"
                          << gridOp.getSymName() << " of rank "
                          << gridOp.getRank();
  numRanks = gridOp.getShape()[axisIndex];
  if (ShapedType::isDynamic(numRanks) || numRanks < 1)
    return emitError(loc) << "grid axis " << axisIndex << " of @"
                          << gridOp.getSymName()
                          << " needs a static size to shard the sequence";
  grid = FlatSymbolRefAttr::get(gridOp.getSymNameAttr());
  axis = static_cast<int16_t>(axisIndex);
  return success();
}
