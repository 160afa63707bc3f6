//===- seqpar-run.cpp - run a per-rank program on MPI ranks ---------------===//
//
// Runs a per-rank (SPMD) program under `mpirun -np N`, one process per rank:
// global inputs (from a seed or .npy files) are cut into each rank's
// arguments as their #seqpar.sharding attributes say, the program is
// compiled with the seqpar-lower-to-llvm pipeline and JIT-run with the MLIR
// ExecutionEngine (collectives on the seqpar runtime, GEMMs on OpenBLAS),
// outputs are assembled on rank 0, and with --reference the single-device
// program is run on the same global inputs and compared (SPEC section 3:
// err = max|out - ref| / max(1, max|ref|); NaN and Inf compared by
// position). See docs/runtime-and-run.md.
//
//===----------------------------------------------------------------------===//

#include "Npy.h"

#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/Dialect/SeqPar/IR/ShardingLayout.h"
#include "seqpar/InitSeqPar.h"
#include "seqpar/Pipelines/Pipelines.h"
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
static cl::opt<std::string> referenceEntryName(
    "reference-entry",
    cl::desc("Entry function of the --reference program (default: --entry)"));
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
    tolerance("tol", cl::init(0),
              cl::desc("Error bound, a finite number >= 0 (default 1e-5 for "
                       "f32, 2e-2 for f16/bf16, 0 for integers)"));
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

/// Prints "seqpar-run: error: <message>" on rank 0 in one write (mpirun
/// forwards stdout and stderr separately: pieces of a line would interleave).
void reportError(const llvm::Twine &message) {
  if (worldRank != 0)
    return;
  std::fflush(stdout);
  llvm::errs() << ("seqpar-run: error: " + message + "\n").str();
  llvm::errs().flush();
}

/// Prints `message` (rank 0 only: every rank reaches the same verdict) and
/// exits every rank with status 1.
[[noreturn]] void fail(const llvm::Twine &message) {
  reportError(message);
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

/// Parses `path` and finds its function @`entry` (chosen by `entryOption`).
void loadProgram(MLIRContext &ctx, const std::string &path,
                 const std::string &entry, StringRef entryOption,
                 Program &program) {
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
  program.entry = program.module->lookupSymbol<func::FuncOp>(entry);
  if (!program.entry || program.entry.isExternal())
    fail(path + ": no function @" + entry + " with a body (choose one with " +
         entryOption + ")");
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

/// Generated global input `k`, a function of the seed, k, the global shape
/// and the element type only (never of names, which passes do not keep, so a
/// program and its rewrite get the same inputs; docs/runtime-and-run.md):
/// with u uniform in [-1, 1), the first argument (activations) is u, other
/// 1-D arguments (norm gains and biases) 1 + 0.1 u, other arguments
/// (weights) u / sqrt(dim 0); integers are uniform in [0, 8).
npy::Array generateInput(const ValueInfo &info, int64_t k) {
  npy::Array array;
  array.dtype = info.dtype;
  array.shape.assign(info.globalShape.begin(), info.globalShape.end());
  array.data.resize(array.numElements() * npy::dtypeSize(array.dtype));
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

/// "[i,j,k]": the row-major index of element `linear` of `shape`.
std::string indexString(int64_t linear, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> index(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    index[d] = linear % shape[d];
    linear /= shape[d];
  }
  return shapeString(index);
}

std::string valueString(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

/// Element-wise comparison with an expected value under SPEC 3's metric,
/// err = max|got - want| / max(1, max|want|) over the finite pairs. NaN and
/// Inf are compared by position (docs/runtime-and-run.md): a NaN equals a
/// NaN, an Inf the Inf of the same sign; any other pair with a NaN or an Inf
/// is a mismatch, and makes err infinite.
class Comparison {
public:
  /// Element `index` (row-major in the global shape) is `got`, expected
  /// `want`.
  void add(int64_t index, double got, double want) {
    if (std::isfinite(got) && std::isfinite(want)) {
      double diff = std::fabs(got - want);
      if (diff > maxDiff_) {
        maxDiff_ = diff;
        worst_ = {index, got, want};
      }
      maxWant_ = std::max(maxWant_, std::fabs(want));
      return;
    }
    if ((std::isnan(got) && std::isnan(want)) || got == want) {
      ++equalNonFinite_;
      return;
    }
    if (mismatches_++ == 0)
      firstMismatch_ = {index, got, want};
    if (std::isfinite(want))
      maxWant_ = std::max(maxWant_, std::fabs(want));
  }
  double err() const {
    return mismatches_ ? INFINITY : maxDiff_ / std::max(1.0, maxWant_);
  }
  /// Every element equal (NaN = NaN).
  bool exact() const { return mismatches_ == 0 && maxDiff_ == 0; }
  /// Where the values differ: the first NaN/Inf mismatch and the largest
  /// difference, each with both values ("" when nothing differs).
  std::string differences(ArrayRef<int64_t> shape, StringRef other) const {
    std::string out;
    auto at = [&](const Sample &x) {
      return " at " + indexString(x.index, shape) + ": " + valueString(x.got) +
             " where " + other.str() + " has " + valueString(x.want);
    };
    if (mismatches_)
      out = std::to_string(mismatches_) + " NaN/Inf element" +
            (mismatches_ == 1 ? "" : "s") + " not equal to " + other.str() +
            "'s, first" + at(firstMismatch_);
    if (maxDiff_ > 0)
      out += (out.empty() ? "" : "; ") + std::string("largest difference") +
             at(worst_);
    return out;
  }
  /// "N NaN/Inf elements equal <other>'s" ("" when none).
  std::string equalNonFinite(StringRef other) const {
    if (!equalNonFinite_)
      return "";
    return std::to_string(equalNonFinite_) + " NaN/Inf element" +
           (equalNonFinite_ == 1 ? "" : "s") + " equal to " + other.str() +
           "'s";
  }

private:
  struct Sample {
    int64_t index = -1;
    double got = 0, want = 0;
  };
  double maxDiff_ = 0, maxWant_ = 0;
  Sample worst_, firstMismatch_;
  int64_t mismatches_ = 0, equalNonFinite_ = 0;
};

/// Output `info` of the whole grid, assembled from every rank's piece
/// (replicas: the representative's; partial: summed). Every replica must
/// equal its representative exactly (the sharding says they hold the same
/// value); `replicaError` describes the first one that does not ("" if
/// none).
npy::Array assemble(const npy::Array &local, const ValueInfo &info,
                    ArrayRef<int64_t> gridShape, std::string &replicaError) {
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
  for (int r = 0; r < worldSize; ++r) {
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
    // The representative: the same coordinates, 0 on the unused axes.
    SmallVector<int64_t> repCoords(coords);
    for (auto [axis, c] : llvm::enumerate(repCoords))
      if (!info.sharding.usesAxis(static_cast<int16_t>(axis)))
        c = 0;
    int64_t rep = 0;
    for (auto [axis, c] : llvm::enumerate(repCoords))
      rep = rep * gridShape[axis] + c;
    npy::Array repPiece = pieceOf(rep);
    Comparison comparison;
    forEachElement(info, maps, [&](int64_t l, int64_t g) {
      comparison.add(g, npy::getElement(piece, l),
                     npy::getElement(repPiece, l));
    });
    if (comparison.exact())
      continue;
    char err[32];
    std::snprintf(err, sizeof err, "%.3g", comparison.err());
    replicaError =
        "rank " + std::to_string(r) + " and rank " + std::to_string(rep) +
        " hold replicas of it but differ (err = " + err + "): " +
        comparison.differences(info.globalShape, "rank " + std::to_string(rep));
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

/// Runs the single-device program on the global inputs and compares; prints
/// one line per output. Returns true when every output passes.
bool compareWithReference(MLIRContext &ctx, std::vector<npy::Array> &globals,
                          const std::vector<npy::Array> &outputs) {
  Program ref;
  loadProgram(ctx, referenceFile, referenceEntryName, "--reference-entry", ref);
  func::FuncOp f = ref.entry;
  const std::string &refEntry = referenceEntryName;
  if (f.getNumArguments() != globals.size())
    fail(referenceFile + ": @" + refEntry + " takes " +
         std::to_string(f.getNumArguments()) +
         " arguments, the per-rank "
         "program " +
         std::to_string(globals.size()));
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
    fail(referenceFile + ": @" + refEntry + " returns " +
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
    Comparison comparison;
    for (int64_t i = 0, e = out.numElements(); i < e; ++i)
      comparison.add(i, npy::getElement(out, i), npy::getElement(want, i));
    double err = comparison.err();
    double tol = tolerance.getNumOccurrences() ? tolerance.getValue()
                                               : defaultTolerance(out.dtype);
    bool pass = err <= tol;
    ok &= pass;
    std::string detail;
    if (!pass)
      detail = ": " + comparison.differences(out.shape, "the reference");
    else if (std::string equal = comparison.equalNonFinite("the reference");
             !equal.empty())
      detail = " (" + equal + ")";
    std::printf("output %zu: %s %s err = %.3g (tol %.0e): %s%s\n", k,
                npy::dtypeName(out.dtype), shapeString(out.shape).c_str(), err,
                tol, pass ? "ok" : "FAIL", detail.c_str());
  }
  std::fflush(stdout);
  return ok;
}

/// Refuses option values that make no sense, before any work; fills in the
/// default --reference-entry.
void checkOptions() {
  auto givenEmpty = [](const cl::opt<std::string> &option) {
    return option.getNumOccurrences() && option.empty();
  };
  for (const cl::opt<std::string> *option :
       {&entryName, &referenceEntryName, &referenceFile, &saveInputs,
        &outputPrefix})
    if (givenEmpty(*option))
      fail("--" + option->ArgStr + " is empty");
  if (tolerance.getNumOccurrences() &&
      !(std::isfinite(tolerance.getValue()) && tolerance >= 0))
    fail("--tol=" + valueString(tolerance) +
         ": the error bound must be a finite number >= 0");
  if (optLevel > 3)
    fail("--opt-level must be 0, 1, 2 or 3");
  if (warmup < 0)
    fail("--warmup=" + std::to_string(warmup) +
         ": the number of untimed runs must be >= 0");
  if (blasThreads < 1)
    fail("--blas-threads=" + std::to_string(blasThreads) +
         ": the number of OpenBLAS threads must be >= 1");
  for (auto [k, file] : llvm::enumerate(inputFiles))
    if (file.empty())
      fail("--inputs: file #" + std::to_string(k) + " has an empty name");
  if (referenceEntryName.getNumOccurrences() && referenceFile.empty())
    fail("--reference-entry needs --reference");
  if (!referenceEntryName.getNumOccurrences())
    referenceEntryName = entryName.getValue();
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
  checkOptions();
  openblas_set_num_threads(blasThreads);
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
  loadProgram(ctx, programFile, entryName, "--entry", program);
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
  // Ranks finish compiling at different times (minutes apart for large
  // programs at --opt-level=3): they meet here under a long timeout, so the
  // collective timeout then measures collectives alone.
  double collectiveTimeout = seqpar_rt_get_timeout();
  seqpar_rt_set_timeout(std::max(collectiveTimeout, 600.0));
  seqpar_rt_barrier();
  seqpar_rt_set_timeout(collectiveTimeout);

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
  std::string replicasDiffer; // the first output whose replicas differ
  for (auto [k, info] : llvm::enumerate(results)) {
    std::string replicaError;
    assembled.push_back(assemble(outputs[k], info, gridShape, replicaError));
    if (replicaError.empty())
      continue;
    if (worldRank == 0)
      std::printf("output %zu: FAIL: %s\n", k, replicaError.c_str());
    if (replicasDiffer.empty())
      replicasDiffer = "output " + std::to_string(k);
  }
  std::fflush(stdout);
  if (worldRank != 0)
    return 0;
  if (!outputPrefix.empty())
    for (auto [k, array] : llvm::enumerate(assembled)) {
      std::string error;
      if (!npy::write(outputPrefix + std::to_string(k) + ".npy", array, error))
        fail(error);
    }
  bool ok = replicasDiffer.empty();
  if (!referenceFile.empty()) {
    bool matches = compareWithReference(ctx, globals, assembled);
    std::printf("reference: %s\n",
                !matches ? "FAIL"
                : ok     ? "pass"
                         : "FAIL (the outputs match, but replicas differ)");
    std::fflush(stdout);
    ok &= matches;
  }
  if (!replicasDiffer.empty())
    reportError("the replicas of " + replicasDiffer +
                " differ between ranks (see above): a replicated result must "
                "be the same on every rank");
  return ok ? 0 : 1;
}
