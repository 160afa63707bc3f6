//===- seqpar-run.cpp - run a per-rank program on MPI ranks ---------------===//
//
// Runs a per-rank (SPMD) program under `mpirun -np N`, one process per rank:
// global inputs (from a seed or .npy files) are cut into each rank's
// arguments as their #seqpar.sharding attributes say, the program is
// compiled with the seqpar-lower-to-llvm pipeline and JIT-run with the MLIR
// ExecutionEngine (collectives on the seqpar runtime, GEMMs on OpenBLAS),
// outputs are assembled on rank 0, and with --reference the single-device
// program is run on the same global inputs and compared (SPEC section 3:
// err = max|out - ref| / max(1, max|ref|)). See docs/runtime-and-run.md.
//
//===----------------------------------------------------------------------===//

#include "Npy.h"

#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/Dialect/SeqPar/IR/ShardingLayout.h"
#include "seqpar/Dialect/SeqPar/Transforms/LowerToLLVM.h"
#include "seqpar/InitSeqPar.h"
#include "seqpar/runtime/seqpar_runtime.h"
#include "seqpar/runtime/seqpar_runtime_alloc.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>

extern "C" {
// CBLAS (OpenBLAS), called by code from seqpar-lower-matmul-to-blas.
void cblas_sgemm(int order, int transA, int transB, int m, int n, int k,
                 float alpha, const float *a, int lda, const float *b, int ldb,
                 float beta, float *c, int ldc);
void openblas_set_num_threads(int threads);
}

using namespace mlir;
using namespace mlir::seqpar;
namespace cl = llvm::cl;
namespace npy = ::seqpar::npy;

static cl::opt<std::string> programFile(cl::Positional, cl::Required,
                                        cl::desc("<per-rank program .mlir>"));
static cl::opt<std::string> entryName("entry", cl::init("forward"),
                                      cl::desc("Entry function"));
static cl::opt<uint64_t> seed("seed", cl::init(0),
                              cl::desc("Seed of the generated global inputs"));
static cl::list<std::string>
    inputFiles("inputs", cl::CommaSeparated,
               cl::desc("Global inputs as .npy files, one per argument, in "
                        "argument order (instead of generated ones)"));
static cl::opt<std::string>
    saveInputs("save-inputs",
               cl::desc("Write the global inputs to <prefix><k>.npy"));
static cl::opt<std::string>
    outputPrefix("output-prefix",
                 cl::desc("Write the assembled outputs to <prefix><k>.npy"));
static cl::opt<std::string>
    referenceFile("reference",
                  cl::desc("Single-device program to compare the outputs "
                           "with (run on rank 0 on the same global inputs; "
                           "an f32 reference of an f16/bf16 program gets "
                           "them widened)"));
static cl::opt<double>
    tolerance("tol", cl::init(-1),
              cl::desc("Error bound (default 1e-5 for f32, 2e-2 for f16/bf16)"));
static cl::opt<unsigned> optLevel(
    "opt-level", cl::init(0),
    cl::desc("LLVM optimisation level of the JIT, 0-3. 0 (default) compiles "
             "a 12-layer model in seconds instead of minutes (LLVM's "
             "optimiser is superlinear in one large function) and "
             "contractions run on BLAS anyway; benchmarks use 3"));
static cl::opt<bool> noBlas("no-blas", cl::init(false),
                            cl::desc("Run matmuls as loops instead of BLAS"));
static cl::opt<int> warmup("warmup", cl::init(1),
                           cl::desc("Untimed runs before the measured one "
                                    "(JIT materialization, communicator "
                                    "creation, BLAS start-up)"));
static cl::opt<int> blasThreads("blas-threads", cl::init(1),
                                cl::desc("OpenBLAS threads per rank"));

namespace {

int worldRank = 0, worldSize = 1;

/// Prints `message` (rank 0 only: every rank reaches the same verdict) and
/// exits every rank with status 1.
[[noreturn]] void fail(const llvm::Twine &message) {
  if (worldRank == 0)
    llvm::errs() << "seqpar-run: error: " << message << "\n";
  llvm::errs().flush();
  std::exit(1);
}

/// One argument or result of the entry function.
struct ValueInfo {
  std::string name;
  RankedTensorType localType;
  ShardingAttr sharding;
  SmallVector<int64_t> globalShape;
  npy::DType dtype = npy::DType::F32;
};

FailureOr<npy::DType> getDType(Type type) {
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

std::string typeString(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? "," : "") + std::to_string(d);
  return s + "]";
}

/// The `%name` of an entry argument, read from the source text at the
/// argument's location ("" when unknown).
std::string getArgName(BlockArgument arg, const llvm::SourceMgr &sources) {
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

/// A parsed program with its entry function.
struct Program {
  OwningOpRef<ModuleOp> module;
  func::FuncOp entry;
  llvm::SourceMgr sources;
};

void loadProgram(MLIRContext &ctx, const std::string &path, Program &program) {
  std::string error;
  auto file = openInputFile(path, &error);
  if (!file)
    fail(path + ": " + error);
  program.sources.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  // Only rank 0 reports parse errors.
  ScopedDiagnosticHandler silence(&ctx, [](Diagnostic &diag) {
    if (worldRank == 0)
      llvm::errs() << diag.getLocation() << ": " << diag << "\n";
    return success();
  });
  program.module = parseSourceFile<ModuleOp>(program.sources, &ctx);
  if (!program.module)
    fail(path + ": cannot parse the program");
  program.entry = program.module->lookupSymbol<func::FuncOp>(entryName);
  if (!program.entry || program.entry.isExternal())
    fail(path + ": no function @" + entryName +
         " with a body (choose one with --entry)");
}

/// Reads the per-rank signature: every argument and result must carry a
/// sharding on one static grid. Returns the grid's shape.
SmallVector<int64_t> readSignature(Program &program,
                                   SmallVector<ValueInfo> &args,
                                   SmallVector<ValueInfo> &results) {
  func::FuncOp f = program.entry;
  FlatSymbolRefAttr gridName;
  auto check = [&](ShardingAttr s, const std::string &what) {
    if (!s)
      fail(programFile + ": " + what + " of @" + entryName +
           " has no 'seqpar.sharding' attribute: seqpar-run cannot tell how "
           "to cut it from the global input (a per-rank program needs one "
           "on every argument and result, SPEC 3.5)");
    if (gridName && s.getGrid() != gridName)
      fail(programFile + ": " + what + " is sharded on grid @" +
           s.getGrid().getValue() + ", others on @" + gridName.getValue());
    gridName = s.getGrid();
  };
  auto describe = [&](Type type, const std::string &what) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape())
      fail(programFile + ": " + what + " must be a tensor of static shape");
    if (failed(getDType(tensor.getElementType())))
      fail(programFile + ": " + what +
           " has an unsupported element type (f32, f16, bf16, i32, i64)");
    return tensor;
  };
  for (auto [i, arg] : llvm::enumerate(f.getArguments())) {
    ValueInfo info;
    info.name = getArgName(arg, program.sources);
    std::string what = "argument #" + std::to_string(i) +
                       (info.name.empty() ? "" : " (" + info.name + ")");
    info.sharding = getArgSharding(f, i);
    check(info.sharding, what);
    info.localType = describe(arg.getType(), what);
    info.dtype = *getDType(info.localType.getElementType());
    args.push_back(info);
  }
  for (auto [i, type] : llvm::enumerate(f.getResultTypes())) {
    ValueInfo info;
    std::string what = "result #" + std::to_string(i);
    info.name = what;
    info.sharding = getResultSharding(f, i);
    check(info.sharding, what);
    info.localType = describe(type, what);
    info.dtype = *getDType(info.localType.getElementType());
    results.push_back(info);
  }
  if (!gridName)
    fail(programFile + ": @" + entryName + " has no arguments or results");
  auto grid =
      SymbolTable::lookupNearestSymbolFrom<shard::GridOp>(f, gridName);
  if (!grid)
    fail(programFile + ": grid @" + gridName.getValue() + " not found");
  SmallVector<int64_t> gridShape(grid.getShape());
  int64_t devices = 1;
  for (int64_t extent : gridShape) {
    if (ShapedType::isDynamic(extent))
      fail(programFile + ": grid @" + gridName.getValue() +
           " has a dynamic extent");
    devices *= extent;
  }
  if (devices != worldSize)
    fail(programFile + ": grid @" + gridName.getValue() + " of shape " +
         shapeString(gridShape) + " has " + std::to_string(devices) +
         " devices but this job has " + std::to_string(worldSize) +
         " ranks: run it with mpirun -np " + std::to_string(devices));
  for (ValueInfo &info : llvm::concat<ValueInfo>(args, results))
    info.globalShape = getGlobalShape(info.sharding, info.localType.getShape(),
                                      gridShape);
  return gridShape;
}

/// splitmix64: the generated inputs are a pure function of (seed, arg,
/// element), so every rank (and the reference) sees the same global values.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// Generated global input `k`: u in [-1, 1) scaled as activations (first
/// argument), 1-D parameters (0.1 u, plus 1 for norm gains named *_g), or
/// weights (u / sqrt(dim 0)); integers in [0, 8).
npy::Array generateInput(const ValueInfo &info, int64_t k) {
  npy::Array array;
  array.dtype = info.dtype;
  array.shape.assign(info.globalShape.begin(), info.globalShape.end());
  array.data.resize(array.numElements() * npy::dtypeSize(array.dtype));
  double scale = 1, offset = 0;
  if (k > 0 && array.shape.size() == 1) {
    scale = 0.1;
    if (StringRef(info.name).ends_with("_g"))
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

/// Global index (row-major) of every local element, per dim, for the
/// process at `coords`.
SmallVector<SmallVector<int64_t>> getIndexMaps(const ValueInfo &info,
                                               ArrayRef<int64_t> gridShape,
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
void forEachElement(const ValueInfo &info,
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
npy::Array cutInput(const npy::Array &global, const ValueInfo &info,
                    ArrayRef<int64_t> gridShape, ArrayRef<int64_t> coords) {
  npy::Array local;
  local.dtype = info.dtype;
  local.shape.assign(info.localType.getShape().begin(),
                     info.localType.getShape().end());
  size_t elem = npy::dtypeSize(info.dtype);
  local.data.assign(local.numElements() * elem, 0);
  if (!holdsPartialShare(info.sharding, coords))
    return local; // A partial value: the global one lives on coordinate 0.
  auto maps = getIndexMaps(info, gridShape, coords);
  forEachElement(info, maps, [&](int64_t l, int64_t g) {
    std::memcpy(local.data.data() + l * elem, global.data.data() + g * elem,
                elem);
  });
  return local;
}

/// Compiles `module` (its @entry and an added C-interface wrapper
/// @__seqpar_main(inputs..., outputs...) writing results into caller
/// buffers) to a JIT engine.
std::unique_ptr<ExecutionEngine> compile(ModuleOp module, func::FuncOp entry) {
  MLIRContext *ctx = module.getContext();
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
  Location loc = entry.getLoc();
  SmallVector<Type> types(entry.getArgumentTypes());
  size_t numInputs = types.size();
  for (Type result : entry.getResultTypes()) {
    auto tensor = cast<RankedTensorType>(result);
    types.push_back(
        MemRefType::get(tensor.getShape(), tensor.getElementType()));
  }
  auto wrapper = func::FuncOp::create(b, loc, "__seqpar_main",
                                      b.getFunctionType(types, {}));
  wrapper->setAttr("llvm.emit_c_interface", b.getUnitAttr());
  Block *body = wrapper.addEntryBlock();
  b.setInsertionPointToStart(body);
  auto call = func::CallOp::create(b, loc, entry,
                                   body->getArguments().take_front(numInputs));
  for (auto [i, result] : llvm::enumerate(call.getResults())) {
    auto store = bufferization::MaterializeInDestinationOp::create(
        b, loc, result, body->getArgument(numInputs + i));
    store.setRestrict(true);
    store.setWritable(true);
  }
  func::ReturnOp::create(b, loc);

  PassManager pm(ctx);
  LowerToLLVMPipelineOptions options;
  options.blas = !noBlas;
  buildLowerToLLVMPipeline(pm, options);
  if (failed(pm.run(module)))
    fail("lowering " + entry.getName() + " to LLVM failed (see above)");

  ExecutionEngineOptions engineOptions;
  // memrefCopy and friends, which the memref lowering calls for copies of
  // non-contiguous views (e.g. padded sequence slices).
  static const llvm::StringRef runnerUtils[] = {SEQPAR_C_RUNNER_UTILS};
  engineOptions.sharedLibPaths = runnerUtils;
  if (optLevel > 3)
    fail("--opt-level must be 0, 1, 2 or 3");
  auto transformer = makeOptimizingTransformer(optLevel, 0, nullptr);
  engineOptions.transformer = transformer;
  static const llvm::CodeGenOptLevel codeGenLevels[] = {
      llvm::CodeGenOptLevel::None, llvm::CodeGenOptLevel::Less,
      llvm::CodeGenOptLevel::Default, llvm::CodeGenOptLevel::Aggressive};
  engineOptions.jitCodeGenOptLevel = codeGenLevels[optLevel];
  auto engine = ExecutionEngine::create(module, engineOptions);
  if (!engine)
    fail("JIT compilation failed: " + llvm::toString(engine.takeError()));
  // The runtime, the counted allocator and CBLAS, by address, so the JIT
  // never depends on which shared libraries happen to be loaded.
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap map;
    auto add = [&](const char *name, void *address) {
      map[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                             llvm::JITSymbolFlags::Exported};
    };
#define SEQPAR_SYMBOL(fn) add(#fn, reinterpret_cast<void *>(&fn))
    SEQPAR_SYMBOL(seqpar_rt_init);
    SEQPAR_SYMBOL(seqpar_rt_set_error_mode);
    SEQPAR_SYMBOL(seqpar_rt_comm_get);
    SEQPAR_SYMBOL(seqpar_rt_process_multi_index);
    SEQPAR_SYMBOL(seqpar_rt_all_gather);
    SEQPAR_SYMBOL(seqpar_rt_all_gather_start);
    SEQPAR_SYMBOL(seqpar_rt_reduce_scatter);
    SEQPAR_SYMBOL(seqpar_rt_reduce_scatter_start);
    SEQPAR_SYMBOL(seqpar_rt_all_reduce);
    SEQPAR_SYMBOL(seqpar_rt_all_reduce_start);
    SEQPAR_SYMBOL(seqpar_rt_all_to_all);
    SEQPAR_SYMBOL(seqpar_rt_all_to_all_start);
    SEQPAR_SYMBOL(seqpar_rt_shift);
    SEQPAR_SYMBOL(seqpar_rt_shift_start);
    SEQPAR_SYMBOL(seqpar_rt_wait);
    SEQPAR_SYMBOL(_mlir_memref_to_llvm_alloc);
    SEQPAR_SYMBOL(_mlir_memref_to_llvm_aligned_alloc);
    SEQPAR_SYMBOL(_mlir_memref_to_llvm_free);
    SEQPAR_SYMBOL(cblas_sgemm);
#undef SEQPAR_SYMBOL
    return map;
  });
  (*engine)->initialize();
  return std::move(*engine);
}

/// A memref descriptor {allocated, aligned, offset, sizes[r], strides[r]}
/// of a dense row-major buffer.
std::vector<int64_t> makeDescriptor(void *data, ArrayRef<int64_t> shape) {
  std::vector<int64_t> desc(3 + 2 * shape.size(), 0);
  desc[0] = desc[1] = static_cast<int64_t>(reinterpret_cast<intptr_t>(data));
  int64_t stride = 1;
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    desc[3 + d] = shape[d];
    desc[3 + shape.size() + d] = stride;
    stride *= shape[d];
  }
  return desc;
}

/// Runs @__seqpar_main on `inputs`, writing `outputs` (already sized).
void invoke(ExecutionEngine &engine, std::vector<npy::Array> &inputs,
            std::vector<npy::Array> &outputs) {
  std::vector<std::vector<int64_t>> descriptors;
  for (npy::Array &array : llvm::concat<npy::Array>(inputs, outputs))
    descriptors.push_back(makeDescriptor(array.data.data(), array.shape));
  std::vector<void *> pointers;
  for (auto &desc : descriptors)
    pointers.push_back(desc.data());
  std::vector<void *> args;
  for (void *&pointer : pointers)
    args.push_back(&pointer);
  if (llvm::Error error =
          engine.invokePacked("_mlir_ciface___seqpar_main", args))
    fail("invocation failed: " + llvm::toString(std::move(error)));
}

npy::Array makeArray(npy::DType dtype, ArrayRef<int64_t> shape) {
  npy::Array array;
  array.dtype = dtype;
  array.shape.assign(shape.begin(), shape.end());
  array.data.assign(array.numElements() * npy::dtypeSize(dtype), 0);
  return array;
}

/// FLOPs of the contractions in `module` (2 * product of the loop ranges),
/// for the compute-region counter.
int64_t countFlops(ModuleOp module) {
  int64_t flops = 0;
  module.walk([&](linalg::LinalgOp op) {
    if (!linalg::isaContractionOpInterface(op))
      return;
    int64_t n = 2;
    for (int64_t r : op.getStaticLoopRanges())
      n = ShapedType::isDynamic(r) ? 0 : n * r;
    flops += n;
  });
  return flops;
}

/// All-gathers `bytes` bytes from every rank over the world (rank order).
std::vector<uint8_t> gatherBytes(const void *data, size_t bytes) {
  static seqpar_rt_comm_t world = nullptr;
  if (!world) {
    int64_t shape[1] = {worldSize};
    int32_t axes[1] = {0};
    if (seqpar_rt_comm_get(shape, 1, axes, 1, &world) != SEQPAR_RT_OK)
      fail(std::string("world communicator: ") + seqpar_rt_last_error());
  }
  // Moved as 2-byte units: the runtime copies all-gathered data bit-exactly.
  size_t padded = (bytes + 1) / 2 * 2;
  std::vector<uint8_t> in(padded, 0), out(padded * worldSize, 0);
  std::memcpy(in.data(), data, bytes);
  int64_t units[1] = {static_cast<int64_t>(padded / 2)};
  if (padded &&
      seqpar_rt_all_gather(world, SEQPAR_RT_F16, in.data(), out.data(), units,
                           1, 0) != SEQPAR_RT_OK)
    fail(std::string("gathering outputs: ") + seqpar_rt_last_error());
  std::vector<uint8_t> result;
  for (int r = 0; r < worldSize; ++r)
    result.insert(result.end(), out.begin() + r * padded,
                  out.begin() + r * padded + bytes);
  return result;
}

/// Output `info` of the whole grid, assembled from every rank's piece
/// (replicas: the representative's; partial: summed). Sets `replicaDiff` to
/// the largest difference between replicas of one element.
npy::Array assemble(const npy::Array &local, const ValueInfo &info,
                    ArrayRef<int64_t> gridShape, double &replicaDiff) {
  std::vector<uint8_t> all = gatherBytes(local.data.data(), local.data.size());
  npy::Array global = makeArray(info.dtype, info.globalShape);
  npy::Array piece = makeArray(info.dtype, info.localType.getShape());
  std::vector<bool> written(global.numElements(), false);
  bool partial = !info.sharding.getPartialAxes().empty();
  replicaDiff = 0;
  // Representatives first, then replicas compared against them.
  for (int pass = 0; pass < 2; ++pass) {
    for (int r = 0; r < worldSize; ++r) {
      SmallVector<int64_t> coords = getGridCoordinates(r, gridShape);
      bool representative = isReplicaRepresentative(info.sharding, coords);
      if (representative != (pass == 0))
        continue;
      std::memcpy(piece.data.data(), all.data() + r * local.data.size(),
                  local.data.size());
      auto maps = getIndexMaps(info, gridShape, coords);
      forEachElement(info, maps, [&](int64_t l, int64_t g) {
        double v = npy::getElement(piece, l);
        if (!representative) {
          if (!partial)
            replicaDiff =
                std::max(replicaDiff, std::fabs(v - npy::getElement(global, g)));
          return;
        }
        double old = written[g] ? npy::getElement(global, g) : 0;
        npy::setElement(global, g, partial ? old + v : v);
        written[g] = true;
      });
    }
  }
  return global;
}

bool isHalf(npy::DType dtype) {
  return dtype == npy::DType::F16 || dtype == npy::DType::BF16;
}

/// `array`'s values as `dtype` (exact when widening f16/bf16 to f32).
npy::Array converted(const npy::Array &array, npy::DType dtype) {
  npy::Array result = makeArray(dtype, array.shape);
  for (int64_t i = 0, e = array.numElements(); i < e; ++i)
    npy::setElement(result, i, npy::getElement(array, i));
  return result;
}

double defaultTolerance(npy::DType dtype) {
  return dtype == npy::DType::F32 ? 1e-5 : (dtype == npy::DType::I32 ||
                                            dtype == npy::DType::I64)
                                               ? 0
                                               : 2e-2;
}

/// Runs the single-device program on the global inputs and compares.
/// Returns the process exit code.
int compareWithReference(MLIRContext &ctx, std::vector<npy::Array> &globals,
                         const std::vector<npy::Array> &outputs) {
  Program ref;
  loadProgram(ctx, referenceFile, ref);
  func::FuncOp f = ref.entry;
  if (f.getNumArguments() != globals.size())
    fail(referenceFile + ": @" + entryName + " takes " +
         std::to_string(f.getNumArguments()) + " arguments, the per-rank "
         "program " + std::to_string(globals.size()));
  // The reference may take f32 where the program takes f16/bf16 (a
  // higher-precision reference): it gets the same values, widened exactly.
  std::vector<npy::Array> refInputs;
  for (auto [i, type] : llvm::enumerate(f.getArgumentTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    FailureOr<npy::DType> dtype =
        tensor ? getDType(tensor.getElementType())
               : FailureOr<npy::DType>(failure());
    bool widened = succeeded(dtype) && *dtype == npy::DType::F32 &&
                   isHalf(globals[i].dtype);
    if (!tensor || failed(dtype) || (*dtype != globals[i].dtype && !widened) ||
        ArrayRef<int64_t>(tensor.getShape()) !=
            ArrayRef<int64_t>(globals[i].shape))
      fail(referenceFile + ": argument #" + std::to_string(i) + " has type " +
           typeString(type) + " but the global input is " +
           npy::dtypeName(globals[i].dtype) + " " +
           shapeString(globals[i].shape) +
           " (an f32 reference may take f16/bf16 inputs)");
    refInputs.push_back(widened ? converted(globals[i], *dtype) : globals[i]);
  }
  if (f.getNumResults() != outputs.size())
    fail(referenceFile + ": @" + entryName + " returns " +
         std::to_string(f.getNumResults()) + " values, the per-rank program " +
         std::to_string(outputs.size()));
  bool multiDevice = false;
  ref.module->walk([&](shard::GridOp grid) {
    for (int64_t extent : grid.getShape())
      multiDevice |= extent != 1;
  });
  if (multiDevice)
    fail(referenceFile + ": the reference must be a single-device program "
                         "(every shard.grid of size 1)");
  std::vector<npy::Array> refOutputs;
  for (Type type : f.getResultTypes()) {
    auto tensor = cast<RankedTensorType>(type);
    FailureOr<npy::DType> dtype = getDType(tensor.getElementType());
    if (failed(dtype) || !tensor.hasStaticShape())
      fail(referenceFile + ": unsupported result type " +
           typeString(type));
    refOutputs.push_back(makeArray(*dtype, tensor.getShape()));
  }
  auto engine = compile(*ref.module, f);
  invoke(*engine, refInputs, refOutputs);

  bool ok = true;
  for (size_t k = 0; k < outputs.size(); ++k) {
    const npy::Array &out = outputs[k], &want = refOutputs[k];
    bool widened = want.dtype == npy::DType::F32 && isHalf(out.dtype);
    if (out.shape != want.shape || (out.dtype != want.dtype && !widened))
      fail("output " + std::to_string(k) + ": the program gives " +
           npy::dtypeName(out.dtype) + " " + shapeString(out.shape) +
           ", the reference " + npy::dtypeName(want.dtype) + " " +
           shapeString(want.shape));
    double maxDiff = 0, maxRef = 0;
    bool nan = false;
    for (int64_t i = 0, e = out.numElements(); i < e; ++i) {
      double a = npy::getElement(out, i), b = npy::getElement(want, i);
      if (std::isnan(a) || std::isnan(b))
        nan = true;
      maxDiff = std::max(maxDiff, std::fabs(a - b));
      maxRef = std::max(maxRef, std::fabs(b));
    }
    double err = nan ? NAN : maxDiff / std::max(1.0, maxRef);
    double tol = tolerance >= 0 ? tolerance : defaultTolerance(out.dtype);
    bool pass = !nan && err <= tol;
    ok &= pass;
    std::printf("output %zu: %s %s err = %.3g (tol %.0e): %s\n", k,
                npy::dtypeName(out.dtype), shapeString(out.shape).c_str(),
                err, tol, pass ? "ok" : "FAIL");
  }
  std::printf("reference: %s\n", ok ? "pass" : "FAIL");
  std::fflush(stdout);
  return ok ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(
      argc, argv,
      "seqpar-run: run a per-rank program on MPI ranks (mpirun -np N)\n");
  // Compiled code runs with errors aborting the job; seqpar-run's own calls
  // report them.
  seqpar_rt_set_error_mode(SEQPAR_RT_ERRORS_RETURN);
  if (seqpar_rt_init() != SEQPAR_RT_OK) {
    llvm::errs() << "seqpar-run: error: runtime init: "
                 << seqpar_rt_last_error() << "\n";
    return 1;
  }
  worldRank = seqpar_rt_world_rank();
  worldSize = seqpar_rt_world_size();
  openblas_set_num_threads(std::max(1, blasThreads.getValue()));
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registerAllPasses();
  registerAllSeqPar(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();

  Program program;
  loadProgram(ctx, programFile, program);
  SmallVector<ValueInfo> args, results;
  SmallVector<int64_t> gridShape = readSignature(program, args, results);
  SmallVector<int64_t> coords = getGridCoordinates(worldRank, gridShape);

  // Global inputs.
  std::vector<npy::Array> globals;
  if (!inputFiles.empty() && inputFiles.size() != args.size())
    fail("--inputs names " + std::to_string(inputFiles.size()) +
         " files but @" + entryName + " takes " + std::to_string(args.size()) +
         " arguments");
  for (auto [k, info] : llvm::enumerate(args)) {
    if (inputFiles.empty()) {
      globals.push_back(generateInput(info, k));
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
           std::to_string(k) + (info.name.empty() ? "" : " (" + info.name + ")") +
           ", whose global value is " + npy::dtypeName(info.dtype) + " " +
           shapeString(info.globalShape));
    globals.push_back(std::move(array));
  }
  if (!saveInputs.empty() && worldRank == 0)
    for (auto [k, array] : llvm::enumerate(globals)) {
      std::string error;
      if (!npy::write(saveInputs + std::to_string(k) + ".npy", array, error))
        fail(error);
    }

  // This rank's arguments and output buffers.
  std::vector<npy::Array> locals, outputs;
  for (auto [k, info] : llvm::enumerate(args))
    locals.push_back(cutInput(globals[k], info, gridShape, coords));
  for (ValueInfo &info : results)
    outputs.push_back(makeArray(info.dtype, info.localType.getShape()));

  int64_t flops = countFlops(*program.module);
  OwningOpRef<ModuleOp> perRank = program.module->clone();
  auto engine =
      compile(*perRank, perRank->lookupSymbol<func::FuncOp>(entryName));

  // The bufferized program may write into its argument buffers (in-place
  // elementwise ops on arguments): each call gets the inputs afresh.
  const std::vector<npy::Array> pristine = locals;
  for (int i = 0; i < warmup; ++i) {
    invoke(*engine, locals, outputs);
    locals = pristine;
  }
  seqpar_rt_counters_reset();
  seqpar_rt_alloc_reset_peak();
  seqpar_rt_barrier();
  auto start = std::chrono::steady_clock::now();
  seqpar_rt_region_begin(entryName.c_str(), flops);
  invoke(*engine, locals, outputs);
  seqpar_rt_region_end(entryName.c_str());
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  int64_t peak = seqpar_rt_alloc_peak_bytes();
  seqpar_rt_barrier();

  // The runtime's counters (before anything else communicates), then
  // per-rank wall time and peak bytes.
  seqpar_rt_print_counters(SEQPAR_RT_FORMAT_TEXT);
  std::fflush(stdout);
  struct {
    double seconds;
    int64_t peak;
  } mine{seconds, peak};
  std::vector<uint8_t> all = gatherBytes(&mine, sizeof(mine));
  if (worldRank == 0) {
    std::printf("seqpar-run: %s @%s on grid %s, %d ranks, %lld FLOPs per rank "
                "(contractions)\n",
                programFile.c_str(), entryName.c_str(),
                shapeString(gridShape).c_str(), worldSize,
                static_cast<long long>(flops));
    for (int r = 0; r < worldSize; ++r) {
      std::memcpy(&mine, all.data() + r * sizeof(mine), sizeof(mine));
      std::printf("rank %d: wall %.6f s, peak %lld bytes (program "
                  "allocations)\n",
                  r, mine.seconds, static_cast<long long>(mine.peak));
    }
    std::fflush(stdout);
  }

  // Outputs assembled on every rank (rank 0 reports).
  std::vector<npy::Array> assembled;
  for (auto [k, info] : llvm::enumerate(results)) {
    double replicaDiff = 0;
    assembled.push_back(assemble(outputs[k], info, gridShape, replicaDiff));
    if (worldRank == 0 && replicaDiff > 0)
      std::printf("output %zu: warning: replicas differ by up to %.3g\n", k,
                  replicaDiff);
  }
  if (worldRank != 0)
    return 0;
  if (!outputPrefix.empty())
    for (auto [k, array] : llvm::enumerate(assembled)) {
      std::string error;
      if (!npy::write(outputPrefix + std::to_string(k) + ".npy", array, error))
        fail(error);
    }
  if (referenceFile.empty())
    return 0;
  return compareWithReference(ctx, globals, assembled);
}
