//===- InstrumentAttention.cpp - attention in runtime compute regions -----===//
//
// Wraps each attention op in seqpar_rt_region_begin / seqpar_rt_region_end
// calls of the runtime's compute-region counters, so seqpar-run reports per
// rank how many attention blocks ran, their FLOPs and their time: the load
// balance of ring attention (zigzag or not) and the compute a ring transfer
// can hide behind are read off these counters. Each ring the context-parallel
// rewrite marked (first transfer to last wait) becomes a region too, whose
// counters say how long the ring's transfers took and how long the rank was
// blocked on them: the part hidden behind compute, forward and backward apart.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Analysis/AttentionFlops.h"
#include "seqpar/Conversion/LLVMCommon/LLVMCallUtils.h"
#include "seqpar/Conversion/Passes.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_INSTRUMENTATTENTION
#include "seqpar/Conversion/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// The runtime regions: the forward attention ops, and the backward ones
/// (training graphs), whose FLOPs getAttentionFlops gives.
struct Region {
  StringLiteral name;
  StringLiteral global;
};
constexpr Region kForward{"attention", "__seqpar_region_attention"};
constexpr Region kBackward{"attention_backward",
                           "__seqpar_region_attention_backward"};
constexpr Region kRing{"attention_ring", "__seqpar_region_attention_ring"};
constexpr Region kBackwardRing{"attention_backward_ring",
                               "__seqpar_region_attention_backward_ring"};

/// The region of a ring marked with `kind`, or null for a kind this pass
/// does not know.
const Region *ringRegion(StringAttr kind) {
  if (kind && kind.getValue() == "attention")
    return &kRing;
  if (kind && kind.getValue() == "attention_backward")
    return &kBackwardRing;
  return nullptr;
}

/// The module's NUL-terminated name of `region`, created once.
LLVM::GlobalOp getOrCreateName(OpBuilder &b, ModuleOp module,
                               const Region &region) {
  if (auto global = module.lookupSymbol<LLVM::GlobalOp>(region.global))
    return global;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  std::string text = (region.name + Twine('\0')).str();
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), text.size());
  return LLVM::GlobalOp::create(b, module.getLoc(), type, /*isConstant=*/true,
                                LLVM::Linkage::Internal, region.global,
                                b.getStringAttr(text));
}

struct InstrumentAttentionPass
    : public mlir::seqpar::impl::InstrumentAttentionBase<
          InstrumentAttentionPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    struct Site {
      Operation *op;
      int64_t flops;
      const Region *region;
    };
    SmallVector<Site> sites;
    // Spans [first, last] of marked rings, wrapped as regions: a begin whose
    // end is not later in the same block (a pass moved one) is left alone.
    struct Span {
      Operation *first, *last;
      const Region *region;
    };
    SmallVector<Span> rings;
    module.walk([&](Operation *op) {
      if (const Region *region = ringRegion(
              op->getAttrOfType<StringAttr>(SeqParDialect::kRingBeginAttrName))) {
        for (Operation *it = op; it; it = it->getNextNode())
          if (ringRegion(it->getAttrOfType<StringAttr>(
                  SeqParDialect::kRingEndAttrName)) == region) {
            rings.push_back({op, it, region});
            break;
          }
      }
      if (!isa<AttentionOp, AttentionBlockOp, AttentionBackwardOp,
               AttentionBlockBackwardOp>(op))
        return;
      // Dynamic shapes or an overflow count 0 FLOPs (the time still counts).
      int64_t flops = getAttentionFlops(op).value_or(0);
      sites.push_back({op, flops,
                       isa<AttentionOp, AttentionBlockOp>(op) ? &kForward
                                                              : &kBackward});
    });
    if (sites.empty() && rings.empty())
      return;
    OpBuilder b(module.getContext());
    Type i32 = b.getI32Type(), i64 = b.getI64Type();
    auto ptr = LLVM::LLVMPointerType::get(module.getContext());
    LLVM::LLVMFuncOp begin =
        getOrDeclareFunc(b, module, "seqpar_rt_region_begin",
                         LLVM::LLVMFunctionType::get(i32, {ptr, i64}));
    LLVM::LLVMFuncOp end =
        getOrDeclareFunc(b, module, "seqpar_rt_region_end",
                         LLVM::LLVMFunctionType::get(i32, {ptr}));
    // region_begin(name, flops) before `first`, region_end(name) after `last`.
    auto wrap = [&](Operation *first, Operation *last, const Region &region,
                    int64_t flops) {
      LLVM::GlobalOp name = getOrCreateName(b, module, region);
      b.setInsertionPoint(first);
      Value text = LLVM::AddressOfOp::create(b, first->getLoc(), name);
      LLVM::CallOp::create(
          b, first->getLoc(), begin,
          ValueRange{text, constantInt(b, first->getLoc(), i64, flops)});
      b.setInsertionPointAfter(last);
      text = LLVM::AddressOfOp::create(b, last->getLoc(), name);
      LLVM::CallOp::create(b, last->getLoc(), end, ValueRange{text});
    };
    for (auto [op, flops, region] : sites) {
      wrap(op, op, *region, flops);
      ++numInstrumented;
    }
    // Rings count no FLOPs of their own: their blocks' regions do.
    for (auto [first, last, region] : rings) {
      wrap(first, last, *region, 0);
      ++numRings;
    }
  }
};

} // namespace
