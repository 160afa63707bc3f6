//===- Jit.cpp - compile and call a program in process --------------------===//

#include "Jit.h"
#include "Job.h"

#include "seqpar/Pipelines/Pipelines.h"
#include "seqpar/runtime/seqpar_runtime.h"
#include "seqpar/runtime/seqpar_runtime_alloc.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/TargetSelect.h"

extern "C" {
// CBLAS (OpenBLAS), called by code from seqpar-lower-matmul-to-blas.
void cblas_sgemm(int order, int transA, int transB, int m, int n, int k,
                 float alpha, const float *a, int lda, const float *b, int ldb,
                 float beta, float *c, int ldc);
void openblas_set_num_threads(int threads);
}

using namespace mlir;
using namespace mlir::seqpar;

namespace seqpar::run {

void initializeJit(int blasThreads) {
  openblas_set_num_threads(blasThreads);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
}

std::unique_ptr<ExecutionEngine> compile(ModuleOp module, func::FuncOp entry,
                                         const JitOptions &options) {
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
  LowerToLLVMPipelineOptions pipelineOptions;
  pipelineOptions.blas = options.blas;
  buildLowerToLLVMPipeline(pm, pipelineOptions);
  if (failed(pm.run(module)))
    fail("lowering " + entry.getName() + " to LLVM failed (see above)");

  ExecutionEngineOptions engineOptions;
  // memrefCopy and friends, which the memref lowering calls for copies of
  // non-contiguous views (e.g. padded sequence slices).
  static const llvm::StringRef runnerUtils[] = {SEQPAR_C_RUNNER_UTILS};
  engineOptions.sharedLibPaths = runnerUtils;
  auto transformer = makeOptimizingTransformer(options.optLevel, 0, nullptr);
  engineOptions.transformer = transformer;
  static const llvm::CodeGenOptLevel codeGenLevels[] = {
      llvm::CodeGenOptLevel::None, llvm::CodeGenOptLevel::Less,
      llvm::CodeGenOptLevel::Default, llvm::CodeGenOptLevel::Aggressive};
  engineOptions.jitCodeGenOptLevel = codeGenLevels[options.optLevel];
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
  if (llvm::Error error =
          engine.invokePacked("_mlir_ciface___seqpar_main", args))
    fail("invocation failed: " + llvm::toString(std::move(error)));
}

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

} // namespace seqpar::run
