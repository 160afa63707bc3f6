//===- FunctionIO.cpp - a per-rank program's values -----------------------===//

#include "FunctionIO.h"
#include "Compare.h"
#include "Job.h"

#include "seqpar/Dialect/SeqPar/IR/ShardingLayout.h"

#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::seqpar;

namespace seqpar::run {

static FailureOr<npy::DType> getDType(Type type) {
  if (type.isF32())
    return npy::DType::F32;
  if (type.isF16())
    return npy::DType::F16;
  if (type.isBF16())
    return npy::DType::BF16;
  if (type.isInteger(32))
    return npy::DType::I32;
  if (type.isInteger(64))
    return npy::DType::I64;
  return failure();
}

/// The element type of a ranked tensor of a supported element type.
static FailureOr<npy::DType> getTensorDType(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return failure();
  return getDType(tensor.getElementType());
}

static std::string typeString(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

static npy::Array makeArray(npy::DType dtype, ArrayRef<int64_t> shape) {
  npy::Array array;
  array.dtype = dtype;
  array.shape.assign(shape.begin(), shape.end());
  array.data.assign(array.numElements() * npy::dtypeSize(dtype), 0);
  return array;
}

/// `array`'s values as `dtype` (exact when widening f16/bf16 to f32).
static npy::Array converted(const npy::Array &array, npy::DType dtype) {
  npy::Array result = makeArray(dtype, array.shape);
  for (int64_t i = 0, e = array.numElements(); i < e; ++i)
    npy::setElement(result, i, npy::getElement(array, i));
  return result;
}

//===----------------------------------------------------------------------===//
// The program and its signature
//===----------------------------------------------------------------------===//

Program loadProgram(MLIRContext &ctx, const std::string &path,
                    const std::string &entry, StringRef entryOption) {
  Program program;
  program.path = path;
  program.entryName = entry;
  std::string error;
  // Only rank 0 reports parse errors.
  FailureOr<LoadedModule> loaded = loadModule(
      ctx, path, world.rank == 0 ? llvm::errs() : llvm::nulls(), error);
  if (failed(loaded))
    fail(path + ": " + (error.empty() ? "cannot parse the program" : error));
  program.loaded = std::move(*loaded);
  FailureOr<SmallVector<func::FuncOp>> funcs =
      lookupFunctionsWithBody(program.module(), entry, error);
  if (failed(funcs))
    fail(path + ": " + error + " (choose one with " + entryOption + ")");
  program.entry = funcs->front();
  return program;
}

/// The `%name` of an entry argument, read from the source text at the
/// argument's location ("" when unknown).
static std::string getArgName(BlockArgument arg,
                              const llvm::SourceMgr &sources) {
  auto loc = dyn_cast<FileLineColLoc>(arg.getLoc());
  if (!loc || sources.getNumBuffers() == 0)
    return "";
  const llvm::MemoryBuffer *buffer = sources.getMemoryBuffer(1);
  StringRef text = buffer->getBuffer();
  for (unsigned line = 1; line < loc.getLine() && !text.empty(); ++line)
    text = text.split('\n').second;
  text = text.split('\n').first;
  if (loc.getColumn() == 0 || loc.getColumn() > text.size())
    return "";
  text = text.drop_front(loc.getColumn() - 1);
  if (!text.consume_front("%"))
    return "";
  size_t end = text.find_first_not_of(
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$.-");
  return "%" + text.take_front(end).str();
}

Signature readSignature(const Program &program) {
  func::FuncOp f = program.entry;
  const std::string &path = program.path, &entryName = program.entryName;
  Signature signature;
  FlatSymbolRefAttr gridName;
  auto check = [&](ShardingAttr s, const std::string &what) {
    if (!s)
      fail(path + ": " + what + " of @" + entryName +
           " has no 'seqpar.sharding' attribute: seqpar-run cannot tell how "
           "to cut it from the global input (a per-rank program needs one "
           "on every argument and result, docs/semantics.md, section 2)");
    if (gridName && s.getGrid() != gridName)
      fail(path + ": " + what + " is sharded on grid @" +
           s.getGrid().getValue() + ", others on @" + gridName.getValue());
    gridName = s.getGrid();
  };
  auto describe = [&](Type type, const std::string &what) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape())
      fail(path + ": " + what + " must be a tensor of static shape");
    if (failed(getDType(tensor.getElementType())))
      fail(path + ": " + what +
           " has an unsupported element type (f32, f16, bf16, i32, i64)");
    return tensor;
  };
  for (auto [i, arg] : llvm::enumerate(f.getArguments())) {
    ValueInfo info;
    info.name = getArgName(arg, *program.loaded.sources);
    std::string what = "argument #" + std::to_string(i) +
                       (info.name.empty() ? "" : " (" + info.name + ")");
    info.sharding = getArgSharding(f, i);
    check(info.sharding, what);
    info.localType = describe(arg.getType(), what);
    info.dtype = *getDType(info.localType.getElementType());
    signature.args.push_back(info);
  }
  for (auto [i, type] : llvm::enumerate(f.getResultTypes())) {
    ValueInfo info;
    std::string what = "result #" + std::to_string(i);
    info.name = what;
    info.sharding = getResultSharding(f, i);
    check(info.sharding, what);
    info.localType = describe(type, what);
    info.dtype = *getDType(info.localType.getElementType());
    signature.results.push_back(info);
  }
  if (!gridName)
    fail(path + ": @" + entryName + " has no arguments or results");
  auto grid = SymbolTable::lookupNearestSymbolFrom<shard::GridOp>(f, gridName);
  if (!grid)
    fail(path + ": grid @" + gridName.getValue() + " not found");
  signature.gridShape.assign(grid.getShape().begin(), grid.getShape().end());
  ArrayRef<int64_t> gridShape = signature.gridShape;
  int64_t devices = 1;
  for (int64_t extent : gridShape) {
    if (ShapedType::isDynamic(extent))
      fail(path + ": grid @" + gridName.getValue() + " has a dynamic extent");
    devices *= extent;
  }
  if (devices != world.size)
    fail(path + ": grid @" + gridName.getValue() + " of shape " +
         shapeString(gridShape) + " has " + std::to_string(devices) +
         " devices but this job has " + std::to_string(world.size) +
         " ranks: run it with mpirun -np " + std::to_string(devices));
  for (ValueInfo &info :
       llvm::concat<ValueInfo>(signature.args, signature.results))
    info.globalShape =
        getGlobalShape(info.sharding, info.localType.getShape(), gridShape);
  return signature;
}

//===----------------------------------------------------------------------===//
// Global inputs
//===----------------------------------------------------------------------===//

/// splitmix64: the generated inputs are a pure function of (seed, arg,
/// element), so every rank (and the reference) sees the same global values.
static uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// Generated global input `k`, a function of the seed, k, the global shape
/// and the element type only (never of names, which passes do not keep, so a
/// program and its rewrite get the same inputs; docs/runtime-and-run.md):
/// with u uniform in [-1, 1), the first argument (activations) is u, other
/// 1-D arguments (norm gains and biases) 1 + 0.1 u, other arguments
/// (weights) u / sqrt(dim 0); integers are uniform in [0, 8).
static npy::Array generateInput(const ValueInfo &info, int64_t k,
                                uint64_t seed) {
  npy::Array array = makeArray(info.dtype, info.globalShape);
  double scale = 1, offset = 0;
  if (k > 0 && array.shape.size() == 1) {
    scale = 0.1;
    offset = 1;
  } else if (k > 0 && !array.shape.empty()) {
    scale = 1.0 / std::sqrt(static_cast<double>(array.shape[0]));
  }
  uint64_t stream = mix(seed ^ mix(static_cast<uint64_t>(k) + 1));
  for (int64_t i = 0, e = array.numElements(); i < e; ++i) {
    uint64_t bits = mix(stream ^ static_cast<uint64_t>(i));
    if (array.dtype == npy::DType::I32 || array.dtype == npy::DType::I64) {
      npy::setElement(array, i, static_cast<double>(bits % 8));
      continue;
    }
    double u = static_cast<double>(bits >> 11) * 0x1.0p-53 * 2.0 - 1.0;
    npy::setElement(array, i, offset + scale * u);
  }
  return array;
}

std::vector<npy::Array> getGlobalInputs(const Program &program,
                                        const Signature &signature,
                                        ArrayRef<std::string> inputFiles,
                                        uint64_t seed) {
  ArrayRef<ValueInfo> args = signature.args;
  if (!inputFiles.empty() && inputFiles.size() != args.size())
    fail("--inputs names " + std::to_string(inputFiles.size()) +
         " files but @" + program.entryName + " takes " +
         std::to_string(args.size()) + " arguments");
  std::vector<npy::Array> globals;
  for (auto [k, info] : llvm::enumerate(args)) {
    if (inputFiles.empty()) {
      globals.push_back(generateInput(info, k, seed));
      continue;
    }
    npy::Array array;
    std::string error;
    if (!npy::read(inputFiles[k], array, error))
      fail(error);
    if (array.dtype != info.dtype ||
        ArrayRef<int64_t>(array.shape) != ArrayRef<int64_t>(info.globalShape))
      fail(inputFiles[k] + ": " + npy::dtypeName(array.dtype) + " " +
           shapeString(array.shape) + " does not match argument #" +
           std::to_string(k) +
           (info.name.empty() ? "" : " (" + info.name + ")") +
           ", whose global value is " + npy::dtypeName(info.dtype) + " " +
           shapeString(info.globalShape));
    globals.push_back(std::move(array));
  }
  return globals;
}

void writeArrays(const std::string &prefix,
                 const std::vector<npy::Array> &arrays) {
  for (auto [k, array] : llvm::enumerate(arrays)) {
    std::string error;
    if (!npy::write(prefix + std::to_string(k) + ".npy", array, error))
      fail(error);
  }
}

//===----------------------------------------------------------------------===//
// Cutting and assembling
//===----------------------------------------------------------------------===//

/// Global index (row-major) of every local element, per dim, for the
/// process at `coords`.
static SmallVector<SmallVector<int64_t>>
getIndexMaps(const ValueInfo &info, ArrayRef<int64_t> gridShape,
             ArrayRef<int64_t> coords) {
  SmallVector<SmallVector<int64_t>> maps;
  for (int64_t d = 0, e = info.globalShape.size(); d < e; ++d) {
    FailureOr<SmallVector<int64_t>> indices = getGlobalIndices(
        info.sharding, d, info.globalShape[d], gridShape, coords);
    if (failed(indices) ||
        static_cast<int64_t>(indices->size()) != info.localType.getDimSize(d))
      fail("dim " + std::to_string(d) + " of " + info.name + " (global " +
           shapeString(info.globalShape) +
           ") does not divide as its sharding says");
    maps.push_back(*indices);
  }
  return maps;
}

/// Calls `fn(localIndex, globalIndex)` for every local element.
template <typename Fn>
static void forEachElement(const ValueInfo &info,
                           ArrayRef<SmallVector<int64_t>> maps, Fn fn) {
  ArrayRef<int64_t> local = info.localType.getShape();
  int64_t rank = local.size();
  SmallVector<int64_t> globalStrides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    globalStrides[d] = globalStrides[d + 1] * info.globalShape[d + 1];
  int64_t count = info.localType.getNumElements();
  SmallVector<int64_t> index(rank, 0);
  for (int64_t i = 0; i < count; ++i) {
    int64_t g = 0;
    for (int64_t d = 0; d < rank; ++d)
      g += maps[d][index[d]] * globalStrides[d];
    fn(i, g);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < local[d])
        break;
      index[d] = 0;
    }
  }
}

/// This process's piece of global input `global`.
static npy::Array cutInput(const npy::Array &global, const ValueInfo &info,
                           ArrayRef<int64_t> gridShape,
                           ArrayRef<int64_t> coords) {
  npy::Array local = makeArray(info.dtype, info.localType.getShape());
  if (!holdsPartialShare(info.sharding, coords))
    return local; // A partial value: the global one lives on coordinate 0.
  size_t elem = npy::dtypeSize(info.dtype);
  auto maps = getIndexMaps(info, gridShape, coords);
  forEachElement(info, maps, [&](int64_t l, int64_t g) {
    std::memcpy(local.data.data() + l * elem, global.data.data() + g * elem,
                elem);
  });
  return local;
}

Call prepareRankCall(const Signature &signature,
                     const std::vector<npy::Array> &globals,
                     ArrayRef<int64_t> coords) {
  Call call;
  for (auto [k, info] : llvm::enumerate(signature.args))
    call.inputs.push_back(
        cutInput(globals[k], info, signature.gridShape, coords));
  for (const ValueInfo &info : signature.results)
    call.outputs.push_back(makeArray(info.dtype, info.localType.getShape()));
  return call;
}

/// The world rank of the representative of the replicas the process at
/// `coords` belongs to: the same coordinates, 0 on the axes `sharding` does
/// not use (isReplicaRepresentative).
static int getRepresentative(ShardingAttr sharding, ArrayRef<int64_t> gridShape,
                             ArrayRef<int64_t> coords) {
  SmallVector<int64_t> repCoords(coords);
  SmallVector<int16_t> allAxes;
  for (auto [axis, c] : llvm::enumerate(repCoords)) {
    if (!sharding.usesAxis(static_cast<int16_t>(axis)))
      c = 0;
    allAxes.push_back(static_cast<int16_t>(axis));
  }
  // The world rank is the rank in the group of every axis.
  return static_cast<int>(getGroupRank(allAxes, gridShape, repCoords));
}

/// Output `info` of the whole grid, assembled from every rank's piece
/// (replicas: the representative's; partial: summed). Every replica must
/// equal its representative exactly (the sharding says they hold the same
/// value); `replicaError` describes the first one that does not ("" if
/// none).
static npy::Array assemble(const npy::Array &local, const ValueInfo &info,
                           ArrayRef<int64_t> gridShape,
                           std::string &replicaError) {
  std::vector<uint8_t> all = gatherBytes(local.data.data(), local.data.size());
  npy::Array global = makeArray(info.dtype, info.globalShape);
  bool partial = !info.sharding.getPartialAxes().empty();
  auto pieceOf = [&](int64_t rank) {
    npy::Array piece = makeArray(info.dtype, info.localType.getShape());
    std::memcpy(piece.data.data(), all.data() + rank * local.data.size(),
                local.data.size());
    return piece;
  };
  std::vector<bool> written(global.numElements(), false);
  replicaError.clear();
  for (int r = 0; r < world.size; ++r) {
    SmallVector<int64_t> coords = getGridCoordinates(r, gridShape);
    auto maps = getIndexMaps(info, gridShape, coords);
    npy::Array piece = pieceOf(r);
    if (isReplicaRepresentative(info.sharding, coords)) {
      forEachElement(info, maps, [&](int64_t l, int64_t g) {
        double v = npy::getElement(piece, l);
        double old = written[g] ? npy::getElement(global, g) : 0;
        npy::setElement(global, g, partial ? old + v : v);
        written[g] = true;
      });
      continue;
    }
    if (!replicaError.empty())
      continue;
    int rep = getRepresentative(info.sharding, gridShape, coords);
    npy::Array repPiece = pieceOf(rep);
    Comparison comparison;
    forEachElement(info, maps, [&](int64_t l, int64_t g) {
      comparison.add(g, npy::getElement(piece, l),
                     npy::getElement(repPiece, l));
    });
    replicaError =
        describeReplicaMismatch(comparison, r, rep, info.globalShape);
  }
  return global;
}

std::vector<npy::Array> assembleOutputs(const Signature &signature,
                                        const std::vector<npy::Array> &outputs,
                                        std::string &replicasDiffer) {
  std::vector<npy::Array> assembled;
  replicasDiffer.clear();
  for (auto [k, info] : llvm::enumerate(signature.results)) {
    std::string replicaError;
    assembled.push_back(
        assemble(outputs[k], info, signature.gridShape, replicaError));
    if (replicaError.empty())
      continue;
    if (world.rank == 0)
      std::printf("output %zu: FAIL: %s\n", k, replicaError.c_str());
    if (replicasDiffer.empty())
      replicasDiffer = "output " + std::to_string(k);
  }
  std::fflush(stdout);
  return assembled;
}

//===----------------------------------------------------------------------===//
// The reference
//===----------------------------------------------------------------------===//

/// True when the reference's `type` gets the f16/bf16 `global` widened to
/// f32 (a higher-precision reference).
static bool isWidened(Type type, const npy::Array &global) {
  FailureOr<npy::DType> dtype = getTensorDType(type);
  return succeeded(dtype) && *dtype == npy::DType::F32 &&
         npy::isHalf(global.dtype);
}

void checkReference(const Program &reference,
                    const std::vector<npy::Array> &globals,
                    size_t numOutputs) {
  func::FuncOp f = reference.entry;
  const std::string &path = reference.path, &entry = reference.entryName;
  if (f.getNumArguments() != globals.size())
    fail(path + ": @" + entry + " takes " +
         std::to_string(f.getNumArguments()) +
         " arguments, the per-rank program " + std::to_string(globals.size()));
  for (auto [i, type] : llvm::enumerate(f.getArgumentTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    FailureOr<npy::DType> dtype = getTensorDType(type);
    if (failed(dtype) ||
        (*dtype != globals[i].dtype && !isWidened(type, globals[i])) ||
        ArrayRef<int64_t>(tensor.getShape()) !=
            ArrayRef<int64_t>(globals[i].shape))
      fail(path + ": argument #" + std::to_string(i) + " has type " +
           typeString(type) + " but the global input is " +
           npy::dtypeName(globals[i].dtype) + " " +
           shapeString(globals[i].shape) +
           " (an f32 reference may take f16/bf16 inputs)");
  }
  if (f.getNumResults() != numOutputs)
    fail(path + ": @" + entry + " returns " +
         std::to_string(f.getNumResults()) + " values, the per-rank program " +
         std::to_string(numOutputs));
  bool multiDevice = false;
  reference.module()->walk([&](shard::GridOp grid) {
    for (int64_t extent : grid.getShape())
      multiDevice |= extent != 1;
  });
  if (multiDevice)
    fail(path + ": the reference must be a single-device program "
                "(every shard.grid of size 1)");
  for (Type type : f.getResultTypes()) {
    // A result must be a tensor too (the wrapper stores it into a buffer).
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (failed(getTensorDType(type)) || !tensor.hasStaticShape())
      fail(path + ": unsupported result type " + typeString(type));
  }
}

Call prepareReferenceCall(const Program &reference,
                          const std::vector<npy::Array> &globals) {
  func::FuncOp f = reference.entry;
  Call call;
  for (auto [i, type] : llvm::enumerate(f.getArgumentTypes()))
    call.inputs.push_back(isWidened(type, globals[i])
                              ? converted(globals[i], *getTensorDType(type))
                              : globals[i]);
  for (Type type : f.getResultTypes())
    call.outputs.push_back(makeArray(*getTensorDType(type),
                                     cast<RankedTensorType>(type).getShape()));
  return call;
}

} // namespace seqpar::run
