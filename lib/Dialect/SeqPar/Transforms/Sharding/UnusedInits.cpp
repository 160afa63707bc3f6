//===- UnusedInits.cpp - erase the inits a rewrite replaced ---------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Sharding/UnusedInits.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <algorithm>

using namespace mlir;

void seqpar::eraseUnusedInits(ArrayRef<Operation *> inits) {
  SmallVector<Operation *> order(inits);
  std::stable_partition(order.begin(), order.end(), [](Operation *def) {
    return isa<linalg::FillOp>(def);
  });
  for (Operation *def : order)
    if (def->use_empty())
      def->erase();
}
