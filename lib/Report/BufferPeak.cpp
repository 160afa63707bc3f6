//===- BufferPeak.cpp - forward peak of simultaneously live buffers -------===//
//
// The program is lowered exactly as seqpar-run lowers it up to buffers
// (buildLowerToBuffersPipeline: bufferization, deallocation placement, BLAS
// and runtime calls), then its allocations are replayed in program order:
// memref.alloc adds its bytes, bufferization.dealloc / memref.dealloc of a
// live buffer (through views) removes them. scf.for bodies run once per
// iteration (static trip counts), scf.if takes the branch with the higher
// peak. The runtime's allocation counter sees the same allocations.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Analysis/Activations.h"
#include "seqpar/Analysis/ByteCounts.h"
#include "seqpar/Analysis/TripCount.h"
#include "seqpar/Pipelines/Pipelines.h"
#include "seqpar/Report/Report.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// Replays allocations; buffers are dynamic instances (a loop body's alloc
/// is a new buffer each iteration).
struct Replay {
  struct State {
    llvm::DenseMap<Value, int64_t> buffer; // SSA value -> buffer id
    std::vector<int64_t> bytes;            // per buffer id
    std::vector<bool> live;
    int64_t current = 0;
  };
  State state;
  int64_t peak = 0;
  bool exact = true;
  /// A buffer's bytes or the bytes live at once exceeded int64.
  bool overflow = false;

  /// `alignment`: the alloc's, or none. The lowering allocates with
  /// aligned_alloc (finalize-memref-to-llvm use-aligned-alloc), whose size
  /// memref-to-llvm rounds up to a multiple of the alignment: the alloc's,
  /// else the element's size up to a power of two and at least 16 bytes.
  /// The runtime's counter sees that size.
  void allocate(Value result, int64_t alignment = 0) {
    auto type = cast<MemRefType>(result.getType());
    int64_t size = 0;
    if (type.hasStaticShape() && type.getElementType().isIntOrFloat()) {
      if (alignment <= 0)
        alignment = std::max<int64_t>(
            16, llvm::PowerOf2Ceil(
                    llvm::divideCeil(type.getElementTypeBitWidth(), 8)));
      std::optional<int64_t> bytes = checkedBytes(type);
      if (bytes)
        bytes = llvm::checkedMul<int64_t>(
            llvm::divideCeil<int64_t>(*bytes, alignment), alignment);
      std::optional<int64_t> current =
          bytes ? llvm::checkedAdd(state.current, *bytes) : std::nullopt;
      if (!current) {
        overflow = true;
        return;
      }
      size = *bytes;
    } else {
      exact = false;
    }
    state.buffer[result] = state.bytes.size();
    state.bytes.push_back(size);
    state.live.push_back(true);
    state.current += size;
    peak = std::max(peak, state.current);
  }
  void release(Value memref) {
    auto it = state.buffer.find(memref);
    if (it == state.buffer.end() || !state.live[it->second])
      return;
    state.live[it->second] = false;
    state.current -= state.bytes[it->second];
  }
  void alias(Value result, Value source) {
    auto it = state.buffer.find(source);
    if (it != state.buffer.end())
      state.buffer[result] = it->second;
  }

  void run(Block &block) {
    for (Operation &op : block)
      step(&op);
  }

  void step(Operation *op) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      allocate(alloc.getResult(), alloc.getAlignment().value_or(0));
      return;
    }
    if (isa<bufferization::CloneOp>(op)) {
      allocate(op->getResult(0));
      return;
    }
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      release(dealloc.getMemref());
      return;
    }
    if (auto dealloc = dyn_cast<bufferization::DeallocOp>(op)) {
      for (auto [memref, condition] :
           llvm::zip(dealloc.getMemrefs(), dealloc.getConditions()))
        if (!matchPattern(condition, m_Zero()))
          release(memref);
      return;
    }
    if (auto metadata = dyn_cast<memref::ExtractStridedMetadataOp>(op)) {
      alias(metadata.getBaseBuffer(), metadata.getSource());
      return;
    }
    if (auto view = dyn_cast<ViewLikeOpInterface>(op)) {
      for (Value result : op->getResults())
        alias(result, view.getViewSource());
      return;
    }
    if (auto cast = dyn_cast<memref::CastOp>(op)) {
      alias(cast.getResult(), cast.getSource());
      return;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      runLoop(loop);
      return;
    }
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      runBranches(branch);
      return;
    }
    for (Region &region : op->getRegions())
      for (Block &block : region)
        run(block);
  }

  void runLoop(scf::ForOp loop) {
    std::optional<int64_t> staticTrips = getStaticTripCount(loop);
    int64_t trips = staticTrips.value_or(1);
    if (!staticTrips)
      exact = false;
    SmallVector<Value> carried(loop.getInitArgs());
    Block &body = *loop.getBody();
    for (int64_t i = 0; i < trips; ++i) {
      for (auto [arg, value] : llvm::zip(loop.getRegionIterArgs(), carried))
        alias(arg, value);
      run(body);
      carried.assign(body.getTerminator()->operand_begin(),
                     body.getTerminator()->operand_end());
    }
    for (auto [result, value] : llvm::zip(loop.getResults(), carried))
      alias(result, value);
  }

  void runBranches(scf::IfOp branch) {
    State before = state;
    int64_t peakBefore = peak;
    State best;
    int64_t bestPeak = -1;
    for (Region *region : {&branch.getThenRegion(), &branch.getElseRegion()}) {
      state = before;
      peak = before.current;
      if (!region->empty()) {
        run(region->front());
        for (auto [result, value] :
             llvm::zip(branch.getResults(),
                       region->front().getTerminator()->getOperands()))
          alias(result, value);
      }
      if (peak > bestPeak) {
        bestPeak = peak;
        best = state;
      }
    }
    state = std::move(best);
    peak = std::max(peakBefore, bestPeak);
  }
};

} // namespace

FailureOr<BufferPeak> mlir::seqpar::predictBufferPeak(ModuleOp module,
                                                      StringRef entry) {
  OwningOpRef<ModuleOp> copy = cast<ModuleOp>(module->clone());
  // The lowering's remarks (what runs on BLAS) are seqpar-run's business;
  // errors go on to the caller's handler.
  ScopedDiagnosticHandler quiet(module.getContext(), [](Diagnostic &diag) {
    return success(diag.getSeverity() == DiagnosticSeverity::Remark);
  });
  PassManager pm(module.getContext());
  LowerToLLVMPipelineOptions options; // seqpar-run's defaults
  buildLowerToBuffersPipeline(pm, options);
  if (failed(pm.run(*copy)))
    return failure();
  auto func = copy->lookupSymbol<func::FuncOp>(entry);
  if (!func || func.isExternal())
    return failure();
  Replay replay;
  replay.run(func.getBody().front());
  if (replay.overflow)
    return func.emitError()
           << "the forward peak of buffers does not fit in 64-bit bytes";
  return BufferPeak{replay.peak, replay.state.current, replay.exact};
}
