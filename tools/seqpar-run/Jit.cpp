//===- Jit.cpp - compile and call a program in process --------------------===//

#include "Jit.h"
#include "GemmDispatch.h"
#include "Job.h"

#include "seqpar/Pipelines/Pipelines.h"
#include "seqpar/Report/Report.h"
#include "seqpar/runtime/seqpar_runtime.h"
#include "seqpar/runtime/seqpar_runtime_alloc.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"

#include <cstdlib>
#include <limits>

using namespace mlir;
using namespace mlir::seqpar;

namespace seqpar::run {

/// glibc's vector math library, which the loop vectoriser calls for the
/// vector forms of expf, tanhf, ... (docs/runtime-and-run.md, "Code
/// generation"); invalid when it could not be loaded.
static llvm::sys::DynamicLibrary libmvec;

/// OpenBLAS, loaded at run time (docs/runtime-and-run.md, "BLAS kernels"):
/// cblas_sgemm, called by code from seqpar-lower-matmul-to-blas through
/// `dispatchSgemm` for what libxsmm and oneDNN do not take.
static llvm::sys::DynamicLibrary openblas;
static void *cblasSgemm = nullptr;

/// The host CPU's features, read once (the BLAS kernels, libmvec's ISAs and
/// the vector width all ask).
static const llvm::StringMap<bool> &getHostFeatures() {
  static const llvm::StringMap<bool> features =
      llvm::sys::getHostCPUFeatures();
  return features;
}

/// The OpenBLAS kernel set for the host's instruction sets: SkylakeX's
/// where AVX-512 (F, CD, BW, DQ, VL) runs, Haswell's where AVX2 and FMA
/// do, else none (OpenBLAS's own detection). OpenBLAS identifies x86 CPUs
/// by family and model and runs its SSE3 kernels on models it does not
/// know, however new.
static const char *getOpenBlasCore() {
  const llvm::StringMap<bool> &features = getHostFeatures();
  auto has = [&](llvm::ArrayRef<const char *> names) {
    return llvm::all_of(names,
                        [&](const char *name) { return features.lookup(name); });
  };
  if (has({"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"}))
    return "SkylakeX";
  if (has({"avx2", "fma"}))
    return "Haswell";
  return nullptr;
}

std::string initializeJit(int blasThreads, bool libxsmm, bool onednn) {
  // OpenBLAS picks its kernels when it is loaded, from OPENBLAS_CORETYPE
  // when that is set: set it (unless the user did) before loading.
  std::string chosen = "OpenBLAS's own detection";
  if (const char *user = std::getenv("OPENBLAS_CORETYPE"))
    chosen = std::string("OPENBLAS_CORETYPE=") + user;
  else if (const char *core = getOpenBlasCore()) {
    ::setenv("OPENBLAS_CORETYPE", core, /*overwrite=*/0);
    chosen = "the host's instruction sets";
  }
  std::string blasError;
  openblas = llvm::sys::DynamicLibrary::getPermanentLibrary(
      SEQPAR_OPENBLAS_LIBRARY, &blasError);
  if (!openblas.isValid())
    fail("cannot load OpenBLAS (" + blasError + ")");
  cblasSgemm = openblas.getAddressOfSymbol("cblas_sgemm");
  auto setThreads = reinterpret_cast<void (*)(int)>(
      openblas.getAddressOfSymbol("openblas_set_num_threads"));
  auto coreName = reinterpret_cast<char *(*)()>(
      openblas.getAddressOfSymbol("openblas_get_corename"));
  if (!cblasSgemm || !setThreads || !coreName)
    fail(std::string(SEQPAR_OPENBLAS_LIBRARY) +
         " lacks cblas_sgemm, openblas_set_num_threads or "
         "openblas_get_corename: not OpenBLAS");
  setThreads(blasThreads);
  std::string description = std::string("OpenBLAS ") + coreName() +
                            " kernels (chosen by " + chosen + "), " +
                            std::to_string(blasThreads) + " thread" +
                            (blasThreads == 1 ? "" : "s") + " per rank";
  // Every GEMM goes through dispatchSgemm, which counts them.
  GemmLibraries used =
      initializeGemms(reinterpret_cast<SgemmFunction>(cblasSgemm), libxsmm,
                      onednn, blasThreads);
  if (used.libxsmm)
    description += "; small GEMMs on libxsmm";
  else if (libxsmm)
    description += "; libxsmm has no kernels for this CPU";
  if (used.onednn)
    description += "; the others on " + getOnednnVersion();
  cblasSgemm = reinterpret_cast<void *>(&dispatchSgemm);

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  std::string error;
  libmvec = llvm::sys::DynamicLibrary::getPermanentLibrary("libmvec.so.1",
                                                           &error);
  if (!libmvec.isValid() && world.rank == 0)
    llvm::errs() << "seqpar-run: warning: libmvec.so.1 not loaded (" << error
                 << "): math functions stay scalar\n";
  return description;
}

/// The host CPU, by name and features (AVX2, AVX-512, ...), at the code
/// generator level that matches `optLevel`: without it LLVM's cost models
/// see no vector registers and the vectorisers do nothing.
static std::unique_ptr<llvm::TargetMachine>
createHostTargetMachine(unsigned optLevel) {
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    fail("cannot describe the host CPU to LLVM: " +
         llvm::toString(builder.takeError()));
  static const llvm::CodeGenOptLevel codeGenLevels[] = {
      llvm::CodeGenOptLevel::None, llvm::CodeGenOptLevel::Less,
      llvm::CodeGenOptLevel::Default, llvm::CodeGenOptLevel::Aggressive};
  builder->setCodeGenOptLevel(codeGenLevels[optLevel]);
  auto machine = builder->createTargetMachine();
  if (!machine)
    fail("cannot create LLVM's target machine for the host: " +
         llvm::toString(machine.takeError()));
  return std::move(*machine);
}

/// Library information for `machine`'s triple with libmvec's vector
/// functions: LLVM's list (expf, logf, ... for SSE and AVX2) plus the
/// forms glibc has and LLVM 22 does not list (tanhf and erff, which GELU
/// needs, and the AVX-512 forms), each only where the host runs its ISA.
static llvm::TargetLibraryInfoImpl
getLibraryInfo(const llvm::TargetMachine &machine) {
  const llvm::Triple &triple = machine.getTargetTriple();
  llvm::TargetLibraryInfoImpl info(triple);
  if (!libmvec.isValid() || triple.getArch() != llvm::Triple::x86_64)
    return info;
  info.addVectorizableFunctionsFromVecLib(llvm::VectorLibrary::LIBMVEC,
                                          triple);
  const llvm::StringMap<bool> &features = getHostFeatures();
  // The x86 vector function ABI's ISA letters: b = SSE, d = AVX2,
  // e = AVX-512, with 4, 8 and 16 floats.
  struct Isa {
    const char *feature;
    unsigned lanes;
    const char *prefix, *abi;
  };
  static const Isa isas[] = {{"sse2", 4, "_ZGVbN4v_", "_ZGV_LLVM_N4v"},
                             {"avx2", 8, "_ZGVdN8v_", "_ZGV_LLVM_N8v"},
                             {"avx512f", 16, "_ZGVeN16v_", "_ZGV_LLVM_N16v"}};
  struct Function {
    const char *libm, *intrinsic;
    unsigned listedUpTo; // the widest form LLVM's list has
  };
  static const Function functions[] = {{"expf", "llvm.exp.f32", 8},
                                       {"logf", "llvm.log.f32", 8},
                                       {"tanhf", "llvm.tanh.f32", 0},
                                       {"erff", nullptr, 0}};
  // VecDesc keeps StringRefs: the names live as long as the process.
  static llvm::StringSet<> names;
  std::vector<llvm::VecDesc> extra;
  for (const Isa &isa : isas) {
    if (!features.lookup(isa.feature))
      continue;
    for (const Function &fn : functions) {
      if (isa.lanes <= fn.listedUpTo)
        continue;
      llvm::StringRef vectorName =
          names.insert((llvm::Twine(isa.prefix) + fn.libm).str())
              .first->getKey();
      if (!libmvec.getAddressOfSymbol(vectorName.data()))
        continue; // an older glibc
      for (const char *scalar : {fn.libm, fn.intrinsic})
        if (scalar)
          extra.emplace_back(scalar, vectorName,
                             llvm::ElementCount::getFixed(isa.lanes),
                             /*Masked=*/false, isa.abi, std::nullopt);
    }
  }
  info.addVectorizableFunctions(extra);
  return info;
}

unsigned getHostVectorWidth() {
  const llvm::StringMap<bool> &features = getHostFeatures();
  if (features.lookup("avx512f"))
    return 512;
  return features.lookup("avx") ? 256 : 128;
}

/// What a compiled program calls for `abort` after a failed run-time check
/// (cf.assert, from seqpar-insert-runtime-checks or a decode step's
/// cache bounds) has printed its message to stdout: exit code 5 on every
/// rank (docs/runtime-and-run.md, "Run-time checks").
[[noreturn]] static void runtimeCheckFailed() {
  std::fflush(stdout);
  seqpar_rt_abort_job("a run-time check of the program failed (its message, "
                      "on stdout, names the op and its location); aborting "
                      "all ranks",
                      5);
  std::_Exit(5); // seqpar_rt_abort_job never returns
}

/// The wrapper around the program that seqpar-run calls (`compile` builds
/// it; ExecutionEngine packs its C interface as "_mlir_" + this name).
static constexpr llvm::StringLiteral kWrapperName = "__seqpar_main";
static constexpr llvm::StringLiteral kCInterfaceName =
    "_mlir_ciface___seqpar_main";

/// Keeps, of the module ExecutionEngine hands over, only what seqpar-run
/// calls: the packed C interface of the wrapper. ExecutionEngine wraps every
/// function in a packed `_mlir_<name>`; the wrappers of the program and of
/// `kWrapperName` call them with one argument per memref field (about 1800
/// for a 12-layer model's weights), and instruction selection takes time
/// quadratic in a call's stack arguments (docs/runtime-and-run.md, "Code
/// generation", the entry's wrappers). Every other function becomes
/// internal, so the optimiser deletes the unused wrappers, and the program
/// (`entryName`) and `kWrapperName`, each called once, are inlined into the
/// C interface: no call passes the expanded descriptors.
static void internalizeAllButEntry(llvm::Module &module,
                                   llvm::StringRef entryName) {
  std::string packedEntry = ("_mlir_" + kCInterfaceName).str();
  for (llvm::Function &fn : module) {
    if (fn.isDeclaration() || fn.getName() == packedEntry)
      continue;
    fn.setLinkage(llvm::GlobalValue::InternalLinkage);
    if ((fn.getName() == entryName || fn.getName() == kWrapperName) &&
        !fn.hasFnAttribute(llvm::Attribute::NoInline))
      fn.addFnAttr(llvm::Attribute::AlwaysInline);
  }
}

/// LLVM's default pipeline at `optLevel` for `machine`, with libmvec's
/// vector functions, as an ExecutionEngine transformer, after
/// internalizeAllButEntry. Appends the names of the vector functions the
/// optimised module calls to `vectorCalls` and writes the module to `irFile`
/// (unless empty).
static std::function<llvm::Error(llvm::Module *)>
makeHostOptimizer(unsigned optLevel, unsigned preferVectorWidth,
                  llvm::TargetMachine *machine, std::string entryName,
                  std::string irFile, std::vector<std::string> &vectorCalls) {
  return [=, &vectorCalls](llvm::Module *module) -> llvm::Error {
    internalizeAllButEntry(*module, entryName);
    // LLVM tunes AVX-512 server cores to 256-bit vectors (the clock drop
    // of early AVX-512 parts); the program's exp, max and sum loops run
    // faster at 512 on the cores measured (docs/runtime-and-run.md,
    // "Vector width"). The code generator reads the same attribute.
    if (preferVectorWidth)
      for (llvm::Function &fn : *module)
        if (!fn.isDeclaration())
          fn.addFnAttr("prefer-vector-width",
                       std::to_string(preferVectorWidth));
    // The runtime's allocator (seqpar-lower-to-llvm calls its aligned form
    // only) returns fresh memory, as malloc does: telling LLVM lets it see
    // that two buffers of the program never overlap, so a split reduction
    // keeps its partial results in registers instead of storing and
    // reloading them per vector, behind a run-time overlap check
    // (docs/runtime-and-run.md, "Code generation").
    if (llvm::Function *fn =
            module->getFunction("_mlir_memref_to_llvm_aligned_alloc"))
      fn->addRetAttr(llvm::Attribute::NoAlias);
    static const llvm::OptimizationLevel levels[] = {
        llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
        llvm::OptimizationLevel::O2, llvm::OptimizationLevel::O3};
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    // No unrolling (full unrolling included): the program's loops have
    // constant trip counts, and unrolled vector bodies made basic blocks of
    // thousands of instructions that the code generator's schedulers took
    // seconds each on. Interleaving still runs several vectors per
    // iteration.
    llvm::PipelineTuningOptions tuning;
    tuning.LoopUnrolling = false;
    tuning.LoopInterleaving = true;
    tuning.LoopVectorization = tuning.SLPVectorization = true;
    llvm::PassBuilder builder(machine, tuning);
    // Registered first, so the builder's default (no vector library) is
    // not.
    llvm::TargetLibraryInfoImpl libraryInfo = getLibraryInfo(*machine);
    fam.registerPass([&] { return llvm::TargetLibraryAnalysis(libraryInfo); });
    builder.registerModuleAnalyses(mam);
    builder.registerCGSCCAnalyses(cgam);
    builder.registerFunctionAnalyses(fam);
    builder.registerLoopAnalyses(lam);
    builder.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::ModulePassManager mpm =
        optLevel == 0
            ? builder.buildO0DefaultPipeline(levels[0])
            : builder.buildPerModuleDefaultPipeline(levels[optLevel]);
    // O0 inlines the always-inline functions but deletes nothing.
    if (optLevel == 0)
      mpm.addPass(llvm::GlobalDCEPass());
    mpm.run(*module, mam);
    for (llvm::Function &fn : *module)
      if (fn.isDeclaration() && fn.getName().starts_with("_ZGV"))
        vectorCalls.push_back(fn.getName().str());
    if (!irFile.empty()) {
      std::error_code error;
      llvm::raw_fd_ostream os(irFile, error, llvm::sys::fs::OF_Text);
      if (error)
        return llvm::createStringError(error, "cannot write " + irFile);
      module->print(os, nullptr);
    }
    return llvm::Error::success();
  };
}

std::unique_ptr<ExecutionEngine> compile(ModuleOp module, func::FuncOp entry,
                                         const JitOptions &options) {
  MLIRContext *ctx = module.getContext();
  // The lowering replaces `entry` with an llvm.func of the same name.
  std::string entryName = entry.getName().str();
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
  auto wrapper = func::FuncOp::create(b, loc, kWrapperName,
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
  LowerToLLVMPipelineOptions pipelineOptions;
  pipelineOptions.blas = options.blas;
  pipelineOptions.runtimeChecks = options.runtimeChecks;
  if (options.attentionQTile >= 0)
    pipelineOptions.attentionQTile = options.attentionQTile;
  if (options.attentionKvTile >= 0)
    pipelineOptions.attentionKvTile = options.attentionKvTile;
  if (options.attentionBackwardTile >= 0)
    pipelineOptions.attentionBackwardTile = options.attentionBackwardTile;
  buildLowerToLLVMPipeline(pm, pipelineOptions);
  if (failed(pm.run(module)))
    fail("lowering " + entryName + " to LLVM failed (see above)");

  ExecutionEngineOptions engineOptions;
  // memrefCopy and friends, which the memref lowering calls for copies of
  // non-contiguous views (e.g. padded sequence slices).
  static const llvm::StringRef runnerUtils[] = {SEQPAR_C_RUNNER_UTILS};
  engineOptions.sharedLibPaths = runnerUtils;
  std::unique_ptr<llvm::TargetMachine> machine =
      createHostTargetMachine(options.optLevel);
  std::vector<std::string> vectorCalls;
  auto transformer =
      makeHostOptimizer(options.optLevel, options.preferVectorWidth,
                        machine.get(), entryName, options.llvmIrFile,
                        vectorCalls);
  engineOptions.transformer = transformer;
  engineOptions.enablePerfNotificationListener = options.perfJitDump;
  // The engine generates code with its own copy of the host machine.
  auto engine = ExecutionEngine::create(
      module, engineOptions, createHostTargetMachine(options.optLevel));
  if (!engine)
    fail("JIT compilation failed: " + llvm::toString(engine.takeError()));
  // The runtime, the counted allocator and CBLAS, by address, so the JIT
  // never depends on which shared libraries happen to be loaded.
  (*engine)->registerSymbols([&](llvm::orc::MangleAndInterner interner) {
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
#undef SEQPAR_SYMBOL
    add("cblas_sgemm", cblasSgemm);
    // A failed run-time check (cf.assert) prints its message, then calls
    // abort: end the whole job instead of leaving ranks in a collective.
    add("abort", reinterpret_cast<void *>(&runtimeCheckFailed));
    // Only names getLibraryInfo found in libmvec reach the module.
    for (const std::string &name : vectorCalls)
      add(name.c_str(), libmvec.getAddressOfSymbol(name.c_str()));
    return map;
  });
  (*engine)->initialize();
  // LLJIT generates code at the first lookup: do it here, so the JIT's time
  // is the compile call's.
  if (auto entryFn = (*engine)->lookupPacked(kCInterfaceName); !entryFn)
    fail("JIT compilation failed: " + llvm::toString(entryFn.takeError()));
  return std::move(*engine);
}

/// A memref descriptor {allocated, aligned, offset, sizes[r], strides[r]}
/// of a dense row-major buffer.
static std::vector<int64_t> makeDescriptor(void *data,
                                           ArrayRef<int64_t> shape) {
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
  if (llvm::Error error = engine.invokePacked(kCInterfaceName, args))
    fail("invocation failed: " + llvm::toString(std::move(error)));
}

int64_t countFlops(ModuleOp module) {
  int64_t flops = 0;
  module.walk([&](Operation *op) {
    std::optional<mlir::seqpar::OpFlops> counted = mlir::seqpar::opFlops(op);
    if (counted && counted->kind == "matmul" && counted->fits)
      flops = llvm::checkedAdd(flops, counted->flops)
                  .value_or(std::numeric_limits<int64_t>::max());
  });
  return flops;
}

} // namespace seqpar::run
