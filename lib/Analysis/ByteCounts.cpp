//===- ByteCounts.cpp - element sizes and bytes sent per collective -------===//

#include "seqpar/Analysis/ByteCounts.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <limits>

using namespace mlir;
using namespace mlir::seqpar;

int64_t mlir::seqpar::getElementBytes(Type type) {
  if (type.isIntOrFloat())
    return (type.getIntOrFloatBitWidth() + 7) / 8;
  return 8;
}

std::optional<int64_t> mlir::seqpar::checkedProduct(ArrayRef<int64_t> factors) {
  std::optional<int64_t> product = 1;
  for (int64_t factor : factors)
    if (product)
      product = llvm::checkedMul(*product, factor);
  return product;
}

std::optional<int64_t> mlir::seqpar::checkedBytes(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !isa<RankedTensorType, MemRefType>(type) ||
      !shaped.hasStaticShape())
    return 0;
  std::optional<int64_t> elements = checkedProduct(shaped.getShape());
  return elements ? llvm::checkedMul(*elements,
                                     getElementBytes(shaped.getElementType()))
                  : std::nullopt;
}

const char *mlir::seqpar::getCollectiveKindName(CollectiveKind kind) {
  switch (kind) {
  case CollectiveKind::AllReduce:
    return "all_reduce";
  case CollectiveKind::AllGather:
    return "all_gather";
  case CollectiveKind::ReduceScatter:
    return "reduce_scatter";
  case CollectiveKind::AllToAll:
    return "all_to_all";
  case CollectiveKind::Shift:
    return "send";
  }
  return "";
}

/// docs/semantics.md §5 for t > 1 ranks and a shift that moves data; the
/// integer and the real-valued counts share it.
template <typename T>
static T ringBytes(CollectiveKind kind, T bytes, T groupSize) {
  T n = bytes, t = groupSize;
  switch (kind) {
  case CollectiveKind::AllReduce:
    return 2 * n * (t - 1) / t;
  case CollectiveKind::AllGather:
  case CollectiveKind::ReduceScatter:
  case CollectiveKind::AllToAll:
    return n * (t - 1) / t;
  case CollectiveKind::Shift:
    return n;
  }
  return 0;
}

std::optional<int64_t> mlir::seqpar::getBytesSent(CollectiveKind kind,
                                                  int64_t bytes,
                                                  int64_t groupSize,
                                                  int64_t shiftOffset) {
  if (groupSize <= 1 ||
      (kind == CollectiveKind::Shift && shiftOffset % groupSize == 0))
    return 0;
  // 2N(t-1) overflows int64 long before the figure does.
  __int128 sent = ringBytes<__int128>(kind, bytes, groupSize);
  if (sent > std::numeric_limits<int64_t>::max())
    return std::nullopt;
  return static_cast<int64_t>(sent);
}

int64_t mlir::seqpar::getBytesSent(CollectiveKind kind, Type type,
                                   int64_t groupSize, int64_t shiftOffset) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  std::optional<int64_t> bytes = checkedBytes(type);
  if (!bytes)
    return kMax;
  return getBytesSent(kind, *bytes, groupSize, shiftOffset).value_or(kMax);
}

double mlir::seqpar::estimateBytesSent(CollectiveKind kind, double bytes,
                                       double groupSize) {
  if (groupSize <= 1)
    return 0;
  return ringBytes<double>(kind, bytes, groupSize);
}
