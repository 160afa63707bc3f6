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

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/TypeSwitch.h"

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

/// The (query, key) pairs a causal block keeps, counted before `op` at run
/// time: #{(i, j) : kv_positions[j] <= q_positions[i]}, unsigned as the
/// causal rule compares; i64. Scalar loops, so no buffer is allocated (the
/// runtime's peak-bytes counters stay those of the program).
Value countKeptPairs(OpBuilder &b, Operation *op, Value qPositions,
                     Value kvPositions) {
  Location loc = op->getLoc();
  Type i64 = b.getI64Type();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto extent = [&](Value positions) {
    return arith::ConstantIndexOp::create(
        b, loc, cast<RankedTensorType>(positions.getType()).getDimSize(0));
  };
  Value queries = extent(qPositions), keys = extent(kvPositions);
  Value none = constantInt(b, loc, i64, 0);
  auto rows = scf::ForOp::create(
      b, loc, zero, queries, one, ValueRange{none},
      [&](OpBuilder &rb, Location l, Value i, ValueRange rowAcc) {
        Value q = tensor::ExtractOp::create(rb, l, qPositions, ValueRange{i});
        auto row = scf::ForOp::create(
            rb, l, zero, keys, one, rowAcc,
            [&](OpBuilder &kb, Location kl, Value j, ValueRange acc) {
              Value kv =
                  tensor::ExtractOp::create(kb, kl, kvPositions, ValueRange{j});
              Value kept = arith::CmpIOp::create(
                  kb, kl, arith::CmpIPredicate::ule, kv, q);
              Value add = arith::ExtUIOp::create(kb, kl, i64, kept);
              scf::YieldOp::create(
                  kb, kl, ValueRange{arith::AddIOp::create(kb, kl, acc[0], add)});
            });
        scf::YieldOp::create(rb, l, row.getResults());
      });
  return rows.getResult(0);
}

/// The FLOPs of `op` as an i64 value before it: a constant, or the
/// per-pair FLOPs times the kept pairs counted at run time. Dynamic shapes
/// or an overflow count 0 FLOPs (the time still counts).
Value buildFlops(OpBuilder &b, Operation *op) {
  Location loc = op->getLoc();
  Type i64 = b.getI64Type();
  b.setInsertionPoint(op);
  std::optional<int64_t> bound = getAttentionFlops(op);
  if (!bound || getKeptPairs(op))
    return constantInt(b, loc, i64, bound.value_or(0));
  // Within the bound, so the product fits.
  int64_t perPair = getAttentionFlopsPerPair(op).value_or(0);
  auto [qPositions, kvPositions] =
      llvm::TypeSwitch<Operation *, std::pair<Value, Value>>(op)
          .Case<AttentionBlockOp, AttentionBlockBackwardOp>([](auto block) {
            return std::pair<Value, Value>{block.getQPositions(),
                                           block.getKvPositions()};
          })
          .Default([](Operation *) { return std::pair<Value, Value>{}; });
  auto qType = dyn_cast_or_null<RankedTensorType>(
      qPositions ? qPositions.getType() : Type());
  auto kvType = dyn_cast_or_null<RankedTensorType>(
      kvPositions ? kvPositions.getType() : Type());
  if (!qType || !kvType || qType.getRank() != 1 || kvType.getRank() != 1 ||
      !qType.hasStaticShape() || !kvType.hasStaticShape())
    return constantInt(b, loc, i64, *bound);
  Value pairs = countKeptPairs(b, op, qPositions, kvPositions);
  return arith::MulIOp::create(b, loc, pairs,
                               constantInt(b, loc, i64, perPair));
}

struct InstrumentAttentionPass
    : public mlir::seqpar::impl::InstrumentAttentionBase<
          InstrumentAttentionPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    struct Site {
      Operation *op;
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
      sites.push_back({op, isa<AttentionOp, AttentionBlockOp>(op)
                               ? &kForward
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
                    Value flops) {
      LLVM::GlobalOp name = getOrCreateName(b, module, region);
      b.setInsertionPoint(first);
      Value text = LLVM::AddressOfOp::create(b, first->getLoc(), name);
      LLVM::CallOp::create(b, first->getLoc(), begin,
                           ValueRange{text, flops});
      b.setInsertionPointAfter(last);
      text = LLVM::AddressOfOp::create(b, last->getLoc(), name);
      LLVM::CallOp::create(b, last->getLoc(), end, ValueRange{text});
    };
    for (auto [op, region] : sites) {
      wrap(op, op, *region, buildFlops(b, op));
      ++numInstrumented;
    }
    // Rings count no FLOPs of their own: their blocks' regions do.
    for (auto [first, last, region] : rings) {
      b.setInsertionPoint(first);
      wrap(first, last, *region, constantInt(b, first->getLoc(), i64, 0));
      ++numRings;
    }
  }
};

} // namespace
