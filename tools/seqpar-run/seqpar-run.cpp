//===- seqpar-run.cpp - run a per-rank program on MPI ranks ---------------===//
//
// Runs a per-rank (SPMD) program under `mpirun -np N`, one process per rank:
// global inputs (from a seed or .npy files) are cut into each rank's
// arguments as their #seqpar.sharding attributes say, the program is
// compiled with the seqpar-lower-to-llvm pipeline and JIT-run with the MLIR
// ExecutionEngine (collectives on the seqpar runtime, GEMMs on OpenBLAS),
// outputs are assembled on rank 0, and with --reference the single-device
// program is run on the same global inputs and compared (docs/semantics.md
// §1: err = max|out - ref| / max(1, max|ref|); NaN and Inf compared by
// position). See docs/runtime-and-run.md §5.
//
// This file is the driver: FunctionIO.h handles the program's values
// (signature, cutting, assembling), Jit.h compiles and calls it, Compare.h
// judges the outputs and replicas, Job.h is the MPI job.
//
//===----------------------------------------------------------------------===//

#include "Compare.h"
#include "FunctionIO.h"
#include "GemmDispatch.h"
#include "Jit.h"
#include "Job.h"

#include "seqpar/Dialect/SeqPar/IR/ShardingLayout.h"
#include "seqpar/InitSeqPar.h"
#include "seqpar/Support/ModuleLoading.h"
#include "seqpar/Support/ToolOptions.h"
#include "seqpar/runtime/seqpar_runtime.h"
#include "seqpar/runtime/seqpar_runtime_alloc.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"

#include <sys/resource.h>

#include <chrono>
#include <ctime>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>

using namespace mlir;
using namespace mlir::seqpar;
using namespace ::seqpar::run;
namespace npy = ::seqpar::npy;
namespace cl = llvm::cl;

static cl::OptionCategory runCategory("seqpar-run options");

static cl::opt<std::string> programFile(cl::Positional, cl::Required,
                                        cl::desc("<per-rank program .mlir>"),
                                        cl::cat(runCategory));
static cl::opt<std::string> entryName("entry", cl::init("forward"),
                                      cl::desc("Entry function"),
                                      cl::cat(runCategory));
static cl::opt<std::string> referenceEntryName(
    "reference-entry",
    cl::desc("Entry function of the --reference program (default: --entry)"),
    cl::cat(runCategory));
static cl::opt<uint64_t> seed("seed", cl::init(0),
                              cl::desc("Seed of the generated global inputs"),
                              cl::cat(runCategory));
static cl::list<std::string>
    inputFiles("inputs", cl::CommaSeparated,
               cl::desc("Global inputs as .npy files, one per argument, in "
                        "argument order (instead of generated ones)"),
               cl::cat(runCategory));
static cl::opt<std::string>
    saveInputs("save-inputs",
               cl::desc("Write the global inputs to <prefix><k>.npy"),
               cl::cat(runCategory));
static cl::opt<std::string>
    outputPrefix("output-prefix",
                 cl::desc("Write the assembled outputs to <prefix><k>.npy"),
                 cl::cat(runCategory));
static cl::opt<std::string>
    referenceFile("reference",
                  cl::desc("Single-device program to compare the outputs "
                           "with (run on rank 0 on the same global inputs; "
                           "an f32 reference of an f16/bf16 program gets "
                           "them widened)"),
                  cl::cat(runCategory));
static cl::opt<double>
    tolerance("tol", cl::init(0),
              cl::desc("Error bound, a finite number >= 0 (default 1e-5 for "
                       "f32, 2e-2 for f16/bf16, 0 for integers)"),
              cl::cat(runCategory));
static cl::opt<unsigned> optLevel(
    "opt-level", cl::init(2),
    cl::desc("LLVM optimisation level of the JIT, 0-3 (default 2: "
             "vectorised for the host CPU; 0 compiles fastest)"),
    cl::cat(runCategory));
static cl::opt<bool> noBlas("no-blas", cl::init(false),
                            cl::desc("Run matmuls as loops instead of BLAS"),
                            cl::cat(runCategory));
static cl::opt<bool> noRuntimeChecks(
    "no-runtime-checks", cl::init(false),
    cl::desc("Compile without the run-time bounds checks (slice offsets, "
             "loads, stores, linalg operand sizes; docs/runtime-and-run.md, "
             "\"Run-time checks\")"),
    cl::cat(runCategory));
static cl::opt<std::string> dumpLlvmIr(
    "dump-llvm-ir",
    cl::desc("Write the program's LLVM IR, as optimised for the host, to "
             "this file"),
    cl::cat(runCategory));
static cl::opt<bool> perfJitDump(
    "perf-jitdump", cl::init(false),
    cl::desc("Describe the compiled functions (one per loop nest) to perf: "
             "jitdump records under $JITDUMPDIR (default $HOME) for "
             "'perf record -k 1' then 'perf inject --jit' "
             "(docs/runtime-and-run.md, \"Profiling\")"),
    cl::cat(runCategory));
static cl::opt<int> warmup("warmup", cl::init(1),
                           cl::desc("Untimed runs before the measured one "
                                    "(JIT materialization, communicator "
                                    "creation, BLAS start-up)"),
                           cl::cat(runCategory));
static cl::opt<bool> keepFreedMemory(
    "keep-freed-memory", cl::init(true),
    cl::desc("Keep memory the program frees for its next allocations "
             "instead of returning it to the kernel, so calls after the "
             "first touch no fresh pages (glibc)"),
    cl::cat(runCategory));
static cl::opt<int64_t> attentionQTile(
    "attention-q-tile", cl::init(-1),
    cl::desc("Queries per attention tile (seqpar-lower-to-llvm's "
             "attention-q-tile; default: the pipeline's, 0: whole rows)"),
    cl::cat(runCategory));
static cl::opt<int64_t> attentionKvTile(
    "attention-kv-tile", cl::init(-1),
    cl::desc("Keys per attention tile (seqpar-lower-to-llvm's "
             "attention-kv-tile; default: the pipeline's, 0: no tiles)"),
    cl::cat(runCategory));
static cl::opt<int64_t> attentionBackwardTile(
    "attention-backward-tile", cl::init(-1),
    cl::desc("Queries and keys per tile of the attention backward "
             "(seqpar-lower-to-llvm's attention-backward-tile; default: the "
             "pipeline's, 0: as --attention-kv-tile; with "
             "--attention-kv-tile=0 no tiles)"),
    cl::cat(runCategory));
static cl::opt<unsigned> preferVectorWidth(
    "prefer-vector-width",
    cl::desc("Widest vectors the JIT's vectorisers use, in bits (default: "
             "the host's widest registers, 512 with AVX-512; 0: LLVM's "
             "tuning for the CPU)"),
    cl::cat(runCategory));
static cl::opt<int> blasThreads("blas-threads", cl::init(1),
                                cl::desc("Threads per rank of each GEMM "
                                         "(OpenBLAS's, and oneDNN's)"),
                                cl::cat(runCategory));
static cl::opt<bool> libxsmm(
    "libxsmm", cl::init(true),
    cl::desc("Run small GEMMs (attention tiles: B at most 512 columns and "
             "256 Ki elements) on libxsmm's generated kernels instead of "
             "oneDNN or OpenBLAS (docs/runtime-and-run.md, \"GEMM "
             "libraries\"); by "
             "default only with --blas-threads=1, as libxsmm's calls run "
             "on one thread"),
    cl::cat(runCategory));
static cl::opt<bool> onednn(
    "onednn", cl::init(true),
    cl::desc("Run the GEMMs libxsmm does not take (the linears) on oneDNN's "
             "sgemm with --blas-threads OpenMP threads instead of OpenBLAS "
             "(docs/runtime-and-run.md, \"GEMM libraries\"); by default "
             "only with --blas-threads=1"),
    cl::cat(runCategory));

/// Refuses option values that make no sense, before any work; fills in the
/// default --reference-entry.
static void checkOptions() {
  auto givenEmpty = [](const cl::opt<std::string> &option) {
    return option.getNumOccurrences() && option.empty();
  };
  for (const cl::opt<std::string> *option :
       {&entryName, &referenceEntryName, &referenceFile, &saveInputs,
        &outputPrefix, &dumpLlvmIr})
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
  for (const cl::opt<int64_t> *tile :
       {&attentionQTile, &attentionKvTile, &attentionBackwardTile})
    if (tile->getNumOccurrences() && *tile < 0)
      fail("--" + tile->ArgStr + "=" + std::to_string(*tile) +
           ": a tile size is >= 1, or 0");
  if (preferVectorWidth.getNumOccurrences() && preferVectorWidth != 0 &&
      !llvm::is_contained({128u, 256u, 512u}, preferVectorWidth.getValue()))
    fail("--prefer-vector-width=" + std::to_string(preferVectorWidth) +
         ": expected 128, 256, 512 or 0 (LLVM's choice)");
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

static JitOptions getJitOptions() {
  JitOptions options;
  options.optLevel = optLevel;
  options.blas = !noBlas;
  options.runtimeChecks = !noRuntimeChecks;
  options.attentionQTile = attentionQTile;
  options.attentionKvTile = attentionKvTile;
  options.attentionBackwardTile = attentionBackwardTile;
  options.preferVectorWidth = preferVectorWidth.getNumOccurrences()
                                  ? preferVectorWidth.getValue()
                                  : getHostVectorWidth();
  // Every rank compiles the same program: rank 0 writes it.
  options.llvmIrFile = world.rank == 0 ? dumpLlvmIr.getValue() : "";
  options.perfJitDump = perfJitDump;
  return options;
}

/// Loads --reference on every rank (each fails alike on a bad file; rank 0
/// reports) and checks it against the global inputs and the program's
/// result count, before the per-rank program runs: a bad reference fails at
/// once rather than after a long run. Returns nothing without --reference.
static std::optional<Program>
loadReference(MLIRContext &ctx, const std::vector<npy::Array> &globals,
              size_t numOutputs) {
  if (referenceFile.empty())
    return std::nullopt;
  Program reference =
      loadProgram(ctx, referenceFile, referenceEntryName, "--reference-entry");
  // Its inputs are built after the run, so that the run's memory does not
  // hold a second copy of the global inputs.
  checkReference(reference, globals, numOutputs);
  return reference;
}

/// Runs the single-device reference on rank 0 on the global inputs and
/// compares the assembled outputs with its results; prints one line per
/// output. Returns true when every output passes.
static bool compareWithReference(const Program &reference,
                                 const std::vector<npy::Array> &globals,
                                 const std::vector<npy::Array> &outputs) {
  Call call = prepareReferenceCall(reference, globals);
  JitOptions options = getJitOptions();
  options.llvmIrFile.clear(); // the program's, not the reference's
  auto engine = compile(reference.module(), reference.entry, options);
  invoke(*engine, call.inputs, call.outputs);
  std::optional<double> tol;
  if (tolerance.getNumOccurrences())
    tol = tolerance.getValue();
  return compareOutputs(outputs, call.outputs, tol);
}

/// Minor page faults of this process so far (every thread).
static int64_t minorPageFaults() {
  rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

/// CPU time of the calling thread so far, in seconds: the timed call's
/// compute where BLAS runs one thread, whatever else the machine runs
/// (docs/runtime-and-run.md §5).
static double threadCpuSeconds() {
  timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return now.tv_sec + 1e-9 * now.tv_nsec;
}

/// Prints, on rank 0, the program's figures and every rank's wall time,
/// peak bytes, page faults, JIT time and the calling thread's CPU time.
static void printRankFigures(ArrayRef<int64_t> gridShape, int64_t flops,
                             double seconds, int64_t peak, int64_t faults,
                             double jitSeconds, double cpuSeconds,
                             GemmCalls gemms, const std::string &blas) {
  struct {
    double seconds;
    int64_t peak;
    int64_t faults;
    double jitSeconds;
    double cpuSeconds;
    GemmCalls gemms;
  } mine{seconds, peak, faults, jitSeconds, cpuSeconds, gemms};
  std::vector<uint8_t> all = gatherBytes(&mine, sizeof(mine));
  if (world.rank != 0)
    return;
  std::printf("seqpar-run: %s @%s on grid %s, %d ranks, %lld FLOPs per rank "
              "(contractions)\n",
              programFile.c_str(), entryName.c_str(),
              shapeString(gridShape).c_str(), world.size,
              static_cast<long long>(flops));
  std::printf("blas: %s\n", blas.c_str());
  for (int r = 0; r < world.size; ++r) {
    std::memcpy(&mine, all.data() + r * sizeof(mine), sizeof(mine));
    std::printf("rank %d: wall %.6f s, peak %lld bytes (program "
                "allocations), %lld page faults, jit %.3f s, cpu %.6f s\n",
                r, mine.seconds, static_cast<long long>(mine.peak),
                static_cast<long long>(mine.faults), mine.jitSeconds,
                mine.cpuSeconds);
  }
  for (int r = 0; r < world.size; ++r) {
    std::memcpy(&mine, all.data() + r * sizeof(mine), sizeof(mine));
    std::printf("rank %d gemms: %lld on libxsmm, %lld on oneDNN, %lld on "
                "OpenBLAS\n",
                r, static_cast<long long>(mine.gemms.libxsmm),
                static_cast<long long>(mine.gemms.onednn),
                static_cast<long long>(mine.gemms.fallback));
  }
  std::fflush(stdout);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  hideUnrelatedOptions(runCategory);
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
  world.rank = seqpar_rt_world_rank();
  world.size = seqpar_rt_world_size();
  checkOptions();
  if (keepFreedMemory)
    seqpar_rt_alloc_keep_freed_memory();
  // libxsmm runs each call on the calling thread, and oneDNN's OpenMP
  // threads spin a while after each call waiting for the next: with more
  // BLAS threads they only take over when asked to.
  auto chosen = [&](const cl::opt<bool> &library) {
    return library && (blasThreads == 1 || library.getNumOccurrences() > 0);
  };
  std::string blas =
      initializeJit(blasThreads, chosen(libxsmm), chosen(onednn));

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registerAllPasses();
  registerAllSeqPar(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();

  Program program = loadProgram(ctx, programFile, entryName, "--entry");
  Signature signature = readSignature(program);
  std::vector<npy::Array> globals =
      getGlobalInputs(program, signature, inputFiles, seed);
  if (!saveInputs.empty() && world.rank == 0)
    writeArrays(saveInputs, globals);
  std::optional<Program> reference =
      loadReference(ctx, globals, signature.results.size());
  printDiagnosticsWithoutOps(ctx);
  if (world.rank != 0)
    reference.reset(); // only rank 0 runs it
  Call call = prepareRankCall(
      signature, globals, getGridCoordinates(world.rank, signature.gridShape));

  int64_t flops = countFlops(program.module());
  OwningOpRef<ModuleOp> perRank = program.module().clone();
  auto jitStart = std::chrono::steady_clock::now();
  auto engine =
      compile(*perRank, perRank->lookupSymbol<func::FuncOp>(entryName),
              getJitOptions());
  double jitSeconds = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - jitStart)
                          .count();
  // Ranks finish compiling at different times (minutes apart for large
  // programs at --opt-level=3): they meet here under a long timeout, so the
  // collective timeout then measures collectives alone.
  double collectiveTimeout = seqpar_rt_get_timeout();
  seqpar_rt_set_timeout(std::max(collectiveTimeout, 600.0));
  seqpar_rt_barrier();
  seqpar_rt_set_timeout(collectiveTimeout);

  // The bufferized program may write into its argument buffers (in-place
  // elementwise ops on arguments): each call gets the inputs afresh.
  const std::vector<npy::Array> pristine = call.inputs;
  for (int i = 0; i < warmup; ++i) {
    invoke(*engine, call.inputs, call.outputs);
    call.inputs = pristine;
  }
  seqpar_rt_counters_reset();
  seqpar_rt_alloc_reset_peak();
  resetGemmCalls();
  seqpar_rt_barrier();
  int64_t faultsBefore = minorPageFaults();
  double cpuStart = threadCpuSeconds();
  auto start = std::chrono::steady_clock::now();
  seqpar_rt_region_begin(entryName.c_str(), flops);
  invoke(*engine, call.inputs, call.outputs);
  seqpar_rt_region_end(entryName.c_str());
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  double cpuSeconds = threadCpuSeconds() - cpuStart;
  int64_t faults = minorPageFaults() - faultsBefore;
  int64_t peak = seqpar_rt_alloc_peak_bytes();
  GemmCalls gemms = getGemmCalls();
  seqpar_rt_barrier();

  // The runtime's counters (before anything else communicates), then
  // per-rank wall time and peak bytes.
  seqpar_rt_print_counters(SEQPAR_RT_FORMAT_TEXT);
  std::fflush(stdout);
  printRankFigures(signature.gridShape, flops, seconds, peak, faults,
                   jitSeconds, cpuSeconds, gemms,
                   noBlas ? "none (--no-blas)" : blas);

  // Outputs assembled on every rank (rank 0 reports).
  std::string replicasDiffer; // the first output whose replicas differ
  std::vector<npy::Array> assembled =
      assembleOutputs(signature, call.outputs, replicasDiffer);
  if (world.rank != 0)
    return 0;
  if (!outputPrefix.empty())
    writeArrays(outputPrefix, assembled);
  bool ok = replicasDiffer.empty();
  if (reference) {
    bool matches = compareWithReference(*reference, globals, assembled);
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
