//===- AttentionFlops.cpp - FLOPs of the seqpar attention ops -------------===//

#include "seqpar/Analysis/AttentionFlops.h"

#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::seqpar;

SmallVector<int64_t, 6> mlir::seqpar::getAttentionFlopFactors(Operation *op) {
  // Contractions per point of the b*a*s*t*d space, and the query and key.
  auto [perPoint, query, key] =
      llvm::TypeSwitch<Operation *, std::tuple<int64_t, Value, Value>>(op)
          .Case<AttentionOp, AttentionBlockOp>([](auto attention) {
            return std::tuple<int64_t, Value, Value>{4, attention.getQuery(),
                                                     attention.getKey()};
          })
          .Case<AttentionBlockBackwardOp>([](auto backward) {
            return std::tuple<int64_t, Value, Value>{10, backward.getQuery(),
                                                     backward.getKey()};
          })
          .Case<AttentionBackwardOp>([](auto backward) {
            return std::tuple<int64_t, Value, Value>{12, backward.getQuery(),
                                                     backward.getKey()};
          })
          .Default([](Operation *) {
            return std::tuple<int64_t, Value, Value>{0, Value(), Value()};
          });
  if (!perPoint)
    return {};
  auto q = dyn_cast<RankedTensorType>(query.getType());
  auto k = dyn_cast<RankedTensorType>(key.getType());
  if (!q || !k || !q.hasStaticShape() || !k.hasStaticShape() ||
      q.getRank() != 4 || k.getRank() != 4)
    return {};
  return {perPoint,        q.getDimSize(0), q.getDimSize(1),
          q.getDimSize(2), k.getDimSize(2), q.getDimSize(3)};
}

std::optional<int64_t> mlir::seqpar::getAttentionFlops(Operation *op) {
  SmallVector<int64_t, 6> factors = getAttentionFlopFactors(op);
  if (factors.empty())
    return std::nullopt;
  std::optional<int64_t> flops = 1;
  for (int64_t factor : factors)
    if (flops)
      flops = llvm::checkedMul(*flops, factor);
  return flops;
}
