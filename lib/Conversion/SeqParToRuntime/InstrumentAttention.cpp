//===- InstrumentAttention.cpp - attention in runtime compute regions -----===//
//
// Wraps each attention op in seqpar_rt_region_begin / seqpar_rt_region_end
// calls of the runtime's compute-region counters, so seqpar-run reports per
// rank how many attention blocks ran, their FLOPs and their time: the load
// balance of ring attention (zigzag or not) and the compute a ring transfer
// can hide behind are read off these counters.
//
//===----------------------------------------------------------------------===//

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

constexpr StringLiteral kRegionName = "attention";
constexpr StringLiteral kNameGlobal = "__seqpar_region_attention";

/// FLOPs of the two contractions as the decomposition computes them:
/// 2 * b * a * s * t * d for Q.K^T and again for P.V (a causal block counts
/// whole: it is computed whole, then masked).
int64_t attentionFlops(Value query, Value key) {
  auto q = cast<RankedTensorType>(query.getType());
  auto k = cast<RankedTensorType>(key.getType());
  return 4 * q.getDimSize(0) * q.getDimSize(1) * q.getDimSize(2) *
         k.getDimSize(2) * q.getDimSize(3);
}

/// The module's NUL-terminated region name, created once.
LLVM::GlobalOp getOrCreateName(OpBuilder &b, ModuleOp module) {
  if (auto global = module.lookupSymbol<LLVM::GlobalOp>(kNameGlobal))
    return global;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  std::string text = (kRegionName + Twine('\0')).str();
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), text.size());
  return LLVM::GlobalOp::create(b, module.getLoc(), type, /*isConstant=*/true,
                                LLVM::Linkage::Internal, kNameGlobal,
                                b.getStringAttr(text));
}

struct InstrumentAttentionPass
    : public mlir::seqpar::impl::InstrumentAttentionBase<
          InstrumentAttentionPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::pair<Operation *, int64_t>> sites;
    module.walk([&](Operation *op) {
      if (auto block = dyn_cast<AttentionBlockOp>(op))
        sites.push_back({op, attentionFlops(block.getQuery(), block.getKey())});
      else if (auto attention = dyn_cast<AttentionOp>(op))
        sites.push_back(
            {op, attentionFlops(attention.getQuery(), attention.getKey())});
    });
    if (sites.empty())
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
    LLVM::GlobalOp name = getOrCreateName(b, module);
    for (auto [op, flops] : sites) {
      Location loc = op->getLoc();
      b.setInsertionPoint(op);
      Value text = LLVM::AddressOfOp::create(b, loc, name);
      LLVM::CallOp::create(b, loc, begin,
                           ValueRange{text, constantInt(b, loc, i64, flops)});
      b.setInsertionPointAfter(op);
      text = LLVM::AddressOfOp::create(b, loc, name);
      LLVM::CallOp::create(b, loc, end, ValueRange{text});
      ++numInstrumented;
    }
  }
};

} // namespace
