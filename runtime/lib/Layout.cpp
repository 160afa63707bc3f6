//===- Layout.cpp - validation, packing and byte counts -------------------===//

#include "Layout.h"

#include "Half.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstring>
#include <sstream>
#include <thread>
#include <type_traits>

namespace seqpar {
namespace rt {

size_t dtypeSize(DType dtype) {
  switch (dtype) {
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::F32:
  case DType::I32:
    return 4;
  case DType::I64:
    return 8;
  case DType::I8:
    return 1;
  }
  return 0;
}

const char *dtypeName(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "f32";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::I8:
    return "i8";
  }
  return "invalid";
}

const char *reductionName(Reduction reduction) {
  switch (reduction) {
  case Reduction::Sum:
    return "sum";
  case Reduction::Max:
    return "max";
  case Reduction::Min:
    return "min";
  }
  return "invalid";
}

const char *opKindName(OpKind kind) {
  switch (kind) {
  case OpKind::AllGather:
    return "all_gather";
  case OpKind::ReduceScatter:
    return "reduce_scatter";
  case OpKind::AllReduce:
    return "all_reduce";
  case OpKind::AllToAll:
    return "all_to_all";
  case OpKind::Shift:
    return "send";
  }
  return "invalid";
}

uint64_t ringBytesSent(OpKind kind, uint64_t bytes, int64_t groupSize,
                       int64_t shiftOffset) {
  if (groupSize <= 1)
    return 0;
  using u128 = unsigned __int128;
  u128 n = bytes, t = static_cast<u128>(groupSize);
  switch (kind) {
  case OpKind::AllReduce:
    return static_cast<uint64_t>(2 * n * (t - 1) / t);
  case OpKind::AllGather:
  case OpKind::ReduceScatter:
  case OpKind::AllToAll:
    return static_cast<uint64_t>(n * (t - 1) / t);
  case OpKind::Shift:
    return shiftOffset % groupSize == 0 ? 0 : bytes;
  }
  return 0;
}

CollectiveOp CollectiveOp::allGather(DType dtype, const void *input,
                                     void *output,
                                     std::vector<int64_t> localShape,
                                     int32_t dim) {
  CollectiveOp op;
  op.kind = OpKind::AllGather;
  op.dtype = dtype;
  op.input = input;
  op.output = output;
  op.shape = std::move(localShape);
  op.dim = dim;
  return op;
}

CollectiveOp CollectiveOp::reduceScatter(DType dtype, Reduction reduction,
                                         const void *input, void *output,
                                         std::vector<int64_t> fullShape,
                                         int32_t dim) {
  CollectiveOp op = allGather(dtype, input, output, std::move(fullShape), dim);
  op.kind = OpKind::ReduceScatter;
  op.reduction = reduction;
  return op;
}

CollectiveOp CollectiveOp::allReduce(DType dtype, Reduction reduction,
                                     const void *input, void *output,
                                     std::vector<int64_t> shape) {
  CollectiveOp op = allGather(dtype, input, output, std::move(shape), 0);
  op.kind = OpKind::AllReduce;
  op.reduction = reduction;
  return op;
}

CollectiveOp CollectiveOp::allToAll(DType dtype, const void *input,
                                    void *output,
                                    std::vector<int64_t> localShape,
                                    int32_t splitDim, int32_t concatDim) {
  CollectiveOp op =
      allGather(dtype, input, output, std::move(localShape), splitDim);
  op.kind = OpKind::AllToAll;
  op.concatDim = concatDim;
  return op;
}

CollectiveOp CollectiveOp::shift(DType dtype, const void *input, void *output,
                                 std::vector<int64_t> shape, int64_t offset) {
  CollectiveOp op = allGather(dtype, input, output, std::move(shape), 0);
  op.kind = OpKind::Shift;
  op.offset = offset;
  return op;
}

Status validateCollective(const CollectiveOp &op, int64_t groupSize,
                          std::vector<int64_t> *outputShape) {
  detail::Geometry geo;
  Status status = detail::validate(op, groupSize, &geo);
  if (status.ok() && outputShape)
    *outputShape = geo.outputShape;
  return status;
}

namespace detail {

std::string shapeString(const std::vector<int64_t> &shape) {
  std::ostringstream os;
  os << '[';
  for (size_t i = 0; i < shape.size(); ++i)
    os << (i ? "," : "") << shape[i];
  os << ']';
  return os.str();
}

namespace {
Status invalid(const CollectiveOp &op, const std::string &what) {
  const char *name = static_cast<int32_t>(op.kind) >= 0 &&
                             static_cast<int32_t>(op.kind) <= 4
                         ? opKindName(op.kind)
                         : "collective";
  return Status::error(StatusCode::InvalidArgument,
                       std::string(name) + ": " + what);
}

void view(const std::vector<int64_t> &shape, int32_t dim, int64_t *outer,
          int64_t *extent, int64_t *inner) {
  *outer = 1;
  *inner = 1;
  for (int32_t i = 0; i < dim; ++i)
    *outer *= shape[i];
  *extent = shape[dim];
  for (size_t i = dim + 1; i < shape.size(); ++i)
    *inner *= shape[i];
}

bool overlaps(const void *a, size_t aBytes, const void *b, size_t bBytes) {
  auto pa = reinterpret_cast<uintptr_t>(a), pb = reinterpret_cast<uintptr_t>(b);
  return aBytes && bBytes && pa < pb + bBytes && pb < pa + aBytes;
}
} // namespace

Status validate(const CollectiveOp &op, int64_t t, Geometry *geo) {
  int32_t kind = static_cast<int32_t>(op.kind);
  if (kind < 0 || kind > 4)
    return invalid(op, "unknown collective kind " + std::to_string(kind));
  int32_t dtype = static_cast<int32_t>(op.dtype);
  if (dtype < 0 || dtype > 5)
    return invalid(op, "unknown dtype " + std::to_string(dtype) +
                           " (0 = f32, 1 = f16, 2 = bf16, 3 = i32, 4 = i64, "
                           "5 = i8)");
  bool reduces =
      op.kind == OpKind::AllReduce || op.kind == OpKind::ReduceScatter;
  int32_t red = static_cast<int32_t>(op.reduction);
  if (reduces && (red < 0 || red > 2))
    return invalid(op, "unknown reduction " + std::to_string(red) +
                           " (0 = sum, 1 = max, 2 = min)");
  if (t < 1)
    return invalid(op, "group size " + std::to_string(t) + " < 1");
  const std::vector<int64_t> &shape = op.shape;
  // Formatted only for a message: validation runs on every call.
  auto shapeStr = [&] { return shapeString(shape); };
  if (shape.size() > 64)
    return invalid(op, "more than 64 dims");
  int64_t elems = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < 0)
      return invalid(op, "negative extent in shape " + shapeStr());
    if (shape[i] && elems > (INT64_C(1) << 60) / shape[i])
      return invalid(op, "shape " + shapeStr() + " overflows 2^60 elements");
    elems *= shape[i];
  }
  bool hasDim = op.kind == OpKind::AllGather ||
                op.kind == OpKind::ReduceScatter ||
                op.kind == OpKind::AllToAll;
  auto dimInRange = [&](int32_t d) {
    return d >= 0 && d < static_cast<int32_t>(shape.size());
  };
  if (hasDim && !dimInRange(op.dim))
    return invalid(op, std::string(op.kind == OpKind::AllToAll ? "split dim "
                                                               : "dim ") +
                           std::to_string(op.dim) + " out of range for shape " +
                           shapeStr() + " (" + std::to_string(shape.size()) +
                           " dims)");
  if (op.kind == OpKind::AllToAll && !dimInRange(op.concatDim))
    return invalid(op, "concat dim " + std::to_string(op.concatDim) +
                           " out of range for shape " + shapeStr() + " (" +
                           std::to_string(shape.size()) + " dims)");
  if ((op.kind == OpKind::ReduceScatter || op.kind == OpKind::AllToAll) &&
      shape[op.dim] % t != 0)
    return invalid(op, "extent " + std::to_string(shape[op.dim]) + " of dim " +
                           std::to_string(op.dim) + " in shape " + shapeStr() +
                           " is not divisible by the group size " +
                           std::to_string(t));

  Geometry g;
  g.inputElems = elems;
  g.outputShape = shape;
  if (hasDim)
    view(shape, op.dim, &g.outer, &g.extent, &g.inner);
  switch (op.kind) {
  case OpKind::AllGather:
    if (elems && t > (INT64_C(1) << 60) / elems)
      return invalid(op, "gathered shape overflows 2^60 elements");
    g.outputShape[op.dim] *= t;
    g.chunkElems = elems;
    break;
  case OpKind::ReduceScatter:
    g.outputShape[op.dim] /= t;
    g.chunkElems = elems / t;
    break;
  case OpKind::AllToAll: {
    g.outputShape[op.dim] /= t; // chunk shape
    view(g.outputShape, op.concatDim, &g.chunkOuter, &g.chunkExtent,
         &g.chunkInner);
    g.chunkElems = elems / t;
    g.outputShape[op.concatDim] *= t;
    break;
  }
  case OpKind::AllReduce:
    g.chunkElems = elems;
    break;
  case OpKind::Shift:
    g.chunkElems = elems;
    g.shift = ((op.offset % t) + t) % t;
    break;
  }
  g.outputElems = 1;
  for (int64_t e : g.outputShape)
    g.outputElems *= e;
  int64_t perCall = op.kind == OpKind::AllGather ? g.inputElems : g.chunkElems;
  if (op.kind == OpKind::AllReduce || op.kind == OpKind::Shift)
    perCall = elems;
  if (perCall > INT_MAX)
    return invalid(op, "shape " + shapeStr() + " needs more than 2^31-1 "
                                             "elements in one transfer");

  size_t es = dtypeSize(op.dtype);
  size_t inBytes = static_cast<size_t>(g.inputElems) * es;
  size_t outBytes = static_cast<size_t>(g.outputElems) * es;
  if (inBytes && !op.input)
    return invalid(op, "null input buffer for shape " + shapeStr());
  if (outBytes && !op.output)
    return invalid(op, "null output buffer for output shape " +
                           shapeString(g.outputShape));
  bool inPlaceOk = op.kind == OpKind::AllReduce && op.input == op.output;
  if (!inPlaceOk && overlaps(op.input, inBytes, op.output, outBytes))
    return invalid(op, "input and output buffers overlap (only all_reduce "
                       "may run in place, with input == output)");

  uint64_t n = op.kind == OpKind::AllGather ? outBytes : inBytes;
  g.bytesSent = ringBytesSent(op.kind, n, t, op.offset);
  *geo = std::move(g);
  return Status::success();
}

void splitPack(const void *src, void *dst, int64_t outer, int64_t extent,
               int64_t inner, int64_t t, size_t es) {
  int64_t m = extent / t;
  size_t row = static_cast<size_t>(m * inner) * es;
  const char *s = static_cast<const char *>(src);
  char *d = static_cast<char *>(dst);
  for (int64_t j = 0; j < t; ++j)
    for (int64_t o = 0; o < outer; ++o)
      std::memcpy(d + (j * outer + o) * row,
                  s + (o * extent + j * m) * inner * es, row);
}

void concatUnpack(const void *src, void *dst, int64_t outer, int64_t m,
                  int64_t inner, int64_t t, size_t es) {
  size_t row = static_cast<size_t>(m * inner) * es;
  const char *s = static_cast<const char *>(src);
  char *d = static_cast<char *>(dst);
  for (int64_t j = 0; j < t; ++j)
    for (int64_t o = 0; o < outer; ++o)
      std::memcpy(d + (o * t * m + j * m) * inner * es,
                  s + (j * outer + o) * row, row);
}

void toF32(DType dtype, const void *src, float *dst, int64_t n) {
  const uint16_t *s = static_cast<const uint16_t *>(src);
  if (dtype == DType::F32)
    std::memcpy(dst, src, static_cast<size_t>(n) * 4);
  else if (dtype == DType::F16)
    for (int64_t i = 0; i < n; ++i)
      dst[i] = f16ToF32(s[i]);
  else
    for (int64_t i = 0; i < n; ++i)
      dst[i] = bf16ToF32(s[i]);
}

void fromF32(DType dtype, const float *src, void *dst, int64_t n) {
  uint16_t *d = static_cast<uint16_t *>(dst);
  if (dtype == DType::F32)
    std::memcpy(dst, src, static_cast<size_t>(n) * 4);
  else if (dtype == DType::F16)
    for (int64_t i = 0; i < n; ++i)
      d[i] = f32ToF16(src[i]);
  else
    for (int64_t i = 0; i < n; ++i)
      d[i] = f32ToBf16(src[i]);
}

namespace {
template <typename T, typename Op>
void reduceChunksOf(const void *chunks, int64_t t, int64_t n, void *out,
                    Op op) {
  const T *c = static_cast<const T *>(chunks);
  T *o = static_cast<T *>(out);
  if (t == 1) {
    if (o != c)
      std::memcpy(o, c, static_cast<size_t>(n) * sizeof(T));
    return;
  }
  for (int64_t i = 0; i < n; ++i)
    o[i] = op(c[i], c[n + i]);
  for (int64_t j = 2; j < t; ++j)
    for (int64_t i = 0; i < n; ++i)
      o[i] = op(o[i], c[j * n + i]);
}

/// Integers sum in the unsigned type of the same width: sums wrap.
template <typename T, bool = std::is_integral_v<T>> struct SumType {
  using type = T;
};
template <typename T> struct SumType<T, true> {
  using type = std::make_unsigned_t<T>;
};

template <typename T>
void reduceChunksAs(Reduction reduction, const void *chunks, int64_t t,
                    int64_t n, void *out) {
  using Sum = typename SumType<T>::type;
  switch (reduction) {
  case Reduction::Sum:
    return reduceChunksOf<T>(chunks, t, n, out, [](T a, T b) {
      return static_cast<T>(static_cast<Sum>(a) + static_cast<Sum>(b));
    });
  case Reduction::Max:
    // a != a: a NaN wins, as in arith.maximumf.
    return reduceChunksOf<T>(chunks, t, n, out,
                             [](T a, T b) { return a > b || a != a ? a : b; });
  case Reduction::Min:
    return reduceChunksOf<T>(chunks, t, n, out,
                             [](T a, T b) { return a < b || a != a ? a : b; });
  }
}
} // namespace

void reduceChunks(DType dtype, Reduction reduction, const void *chunks,
                  int64_t t, int64_t n, void *out) {
  switch (dtype) {
  case DType::I32:
    return reduceChunksAs<int32_t>(reduction, chunks, t, n, out);
  case DType::I64:
    return reduceChunksAs<int64_t>(reduction, chunks, t, n, out);
  case DType::I8:
    return reduceChunksAs<int8_t>(reduction, chunks, t, n, out);
  case DType::F32:
  case DType::F16:
  case DType::BF16:
    break;
  }
  reduceChunksAs<float>(reduction, chunks, t, n, out);
}

std::string describe(const CollectiveOp &op, const CommunicatorInfo &info) {
  std::ostringstream os;
  size_t es = dtypeSize(op.dtype);
  int64_t elems = 1;
  for (int64_t e : op.shape)
    elems *= e;
  os << opKindName(op.kind) << " on " << info.label() << " (axis rank "
     << info.rank << " of " << info.size << "), dtype " << dtypeName(op.dtype)
     << ", input shape " << shapeString(op.shape);
  if (op.kind == OpKind::AllGather || op.kind == OpKind::ReduceScatter)
    os << ", dim " << op.dim;
  if (op.kind == OpKind::AllToAll)
    os << ", split dim " << op.dim << ", concat dim " << op.concatDim;
  if (op.kind == OpKind::Shift)
    os << ", offset " << op.offset;
  if (op.kind == OpKind::AllReduce || op.kind == OpKind::ReduceScatter)
    os << ", reduction " << reductionName(op.reduction);
  os << ", " << elems * static_cast<int64_t>(es) << " input bytes";
  return os.str();
}

double monotonicSeconds() {
  static const auto epoch = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       epoch)
      .count();
}

double Backoff::next() const {
  double waited = monotonicSeconds() - since_;
  return waited < kSpinSeconds ? 0 : std::min(1e-3, waited / 16);
}

void Backoff::pause() const {
  double seconds = next();
  if (seconds > 0)
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

namespace {
// Word layout of an OpSignature (collectives; internal kinds reuse 2-12).
enum Word {
  kSequence = 0,
  kKind = 1,
  kDType = 2,
  kReduction = 3,
  kDim = 4,
  kConcatDim = 5,
  kOffset = 6,
  kNumDims = 7,
  kElements = 8,
  kShape = 9, // the first kShownDims extents
  kHash = 13, // of all extents (and axes)
  kWorldRank = OpSignature::kComparedWords,
  kNote = 15,
};
constexpr int kShownDims = 4;
constexpr int kShownAxes = 5; // control signatures: axes in words 2-6

int64_t hashValues(const std::vector<int64_t> &values) {
  uint64_t h = 1469598103934665603ULL; // FNV-1a
  for (int64_t v : values) {
    h ^= static_cast<uint64_t>(v);
    h *= 1099511628211ULL;
  }
  return static_cast<int64_t>(h);
}

/// "[4,8]" from the shown extents, "[4,8,2,2,...]" beyond them.
std::string shownShape(const OpSignature &s) {
  std::ostringstream os;
  os << '[';
  int64_t n = s.words[kNumDims];
  for (int64_t i = 0; i < std::min<int64_t>(n, kShownDims); ++i)
    os << (i ? "," : "") << s.words[kShape + i];
  if (n > kShownDims)
    os << ",...";
  os << ']';
  return os.str();
}
} // namespace

bool OpSignature::agreesWith(const OpSignature &other) const {
  return std::equal(words, words + kComparedWords, other.words);
}

OpSignature signatureOf(const CollectiveOp &op, int32_t worldRank) {
  OpSignature s;
  s.words[kKind] = static_cast<int64_t>(op.kind);
  s.words[kDType] = static_cast<int64_t>(op.dtype);
  bool reduces =
      op.kind == OpKind::AllReduce || op.kind == OpKind::ReduceScatter;
  if (reduces)
    s.words[kReduction] = static_cast<int64_t>(op.reduction);
  if (op.kind == OpKind::AllGather || op.kind == OpKind::ReduceScatter ||
      op.kind == OpKind::AllToAll)
    s.words[kDim] = op.dim;
  if (op.kind == OpKind::AllToAll)
    s.words[kConcatDim] = op.concatDim;
  if (op.kind == OpKind::Shift)
    s.words[kOffset] = op.offset;
  s.words[kNumDims] = static_cast<int64_t>(op.shape.size());
  int64_t elements = 1;
  for (int64_t e : op.shape)
    elements *= e;
  s.words[kElements] = elements;
  for (size_t i = 0; i < op.shape.size() && i < kShownDims; ++i)
    s.words[kShape + i] = op.shape[i];
  s.words[kHash] = hashValues(op.shape);
  s.words[kWorldRank] = worldRank;
  return s;
}

OpSignature controlSignature(ControlKind kind, int32_t worldRank,
                             const std::vector<int64_t> &grid,
                             const std::vector<int32_t> &axes, OpKind forOp) {
  OpSignature s;
  s.words[kKind] = static_cast<int64_t>(kind);
  s.words[kWorldRank] = worldRank;
  if (kind != ControlKind::CreateCommunicator)
    return s;
  s.words[kNumDims] = static_cast<int64_t>(grid.size());
  s.words[kElements] = static_cast<int64_t>(axes.size());
  for (size_t i = 0; i < grid.size() && i < kShownDims; ++i)
    s.words[kShape + i] = grid[i];
  for (size_t i = 0; i < axes.size() && i < kShownAxes; ++i)
    s.words[kDType + i] = axes[i];
  std::vector<int64_t> all(grid);
  all.push_back(-1);
  all.insert(all.end(), axes.begin(), axes.end());
  s.words[kHash] = hashValues(all);
  s.words[kNote] = static_cast<int64_t>(forOp);
  return s;
}

std::string describeSignature(const OpSignature &s) {
  std::ostringstream os;
  int64_t kind = s.words[kKind];
  switch (static_cast<ControlKind>(kind)) {
  case ControlKind::Barrier:
    return "barrier";
  case ControlKind::CounterGather:
    return "the counter report (gather on rank 0)";
  case ControlKind::NcclInit:
    return "NCCL communicator creation";
  case ControlKind::CreateCommunicator: {
    os << "creating the communicator of grid=" << shownShape(s) << " axes=[";
    int64_t n = s.words[kElements];
    for (int64_t i = 0; i < std::min<int64_t>(n, kShownAxes); ++i)
      os << (i ? "," : "") << s.words[kDType + i];
    os << (n > kShownAxes ? ",...]" : "]") << " (for its first collective, "
       << opKindName(static_cast<OpKind>(s.words[kNote])) << ")";
    return os.str();
  }
  }
  auto op = static_cast<OpKind>(kind);
  os << opKindName(op);
  if (op == OpKind::AllReduce || op == OpKind::ReduceScatter)
    os << ' ' << reductionName(static_cast<Reduction>(s.words[kReduction]));
  os << ' ' << dtypeName(static_cast<DType>(s.words[kDType])) << ' '
     << shownShape(s);
  if (op == OpKind::AllGather || op == OpKind::ReduceScatter)
    os << " dim " << s.words[kDim];
  if (op == OpKind::AllToAll)
    os << " split dim " << s.words[kDim] << " concat dim "
       << s.words[kConcatDim];
  if (op == OpKind::Shift)
    os << " offset " << s.words[kOffset];
  if (s.words[kNumDims] > kShownDims)
    os << " (" << s.words[kElements] << " elements)";
  return os.str();
}

} // namespace detail

std::string CommunicatorInfo::label() const {
  std::ostringstream os;
  os << "grid=" << detail::shapeString(gridShape) << " axes=[";
  for (size_t i = 0; i < axes.size(); ++i)
    os << (i ? "," : "") << axes[i];
  os << ']';
  return os.str();
}

} // namespace rt
} // namespace seqpar
