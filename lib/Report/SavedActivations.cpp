//===- SavedActivations.cpp - what training keeps for the backward pass ---===//
//
// Per-op save rules (Korthikanti et al. 2022, section 4.1): a matmul keeps
// its activation inputs, softmax its output, dropout its mask (1 byte per
// element), a normalization (LayerNorm, RMSNorm) its input, and any other
// op the inputs its derivative reads (GeLU's input, both factors of a
// product, nothing for additions, scales or masks). Normalization and
// softmax are recognised as a whole so their internal steps keep nothing.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Analysis/Activations.h"

#include "seqpar/Analysis/Contraction.h"
#include "seqpar/Analysis/SoftmaxMatch.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/Report/Report.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallBitVector.h"

#include <queue>

using namespace mlir;
using namespace mlir::seqpar;

namespace {

bool isViewOp(Operation *op) {
  return isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::CastOp,
             linalg::TransposeOp, linalg::BroadcastOp>(op);
}

/// All loops parallel and the output written at every point once.
bool isElementwise(linalg::LinalgOp op) {
  return op.getNumLoops() == op.getNumParallelLoops() &&
         op.getNumDpsInits() == 1 &&
         op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isPermutation();
}

/// Input operands (indices) whose values the op's derivative reads: the
/// body is traced from the activation inputs; a product of two traced
/// values, a division by one, a comparison or max/min of one, or any math
/// function of one needs the traced inputs.
llvm::SmallBitVector neededInputs(linalg::LinalgOp op,
                                  const llvm::DenseSet<Value> &activations) {
  unsigned numInputs = op.getNumDpsInputs();
  llvm::SmallBitVector needed(numInputs);
  Block *body = op.getBlock();
  if (!body || body->getNumArguments() < numInputs)
    return needed;
  llvm::DenseMap<Value, llvm::SmallBitVector> deps;
  for (unsigned i = 0; i < numInputs; ++i) {
    llvm::SmallBitVector bit(numInputs);
    if (activations.contains(op.getDpsInputOperand(i)->get()))
      bit.set(i);
    deps[body->getArgument(i)] = bit;
  }
  auto depOf = [&](Value v) {
    auto it = deps.find(v);
    return it == deps.end() ? llvm::SmallBitVector(numInputs) : it->second;
  };
  for (Operation &inner : body->without_terminator()) {
    llvm::SmallBitVector all(numInputs);
    for (Value operand : inner.getOperands())
      all |= depOf(operand);
    if (all.any()) {
      if (isa<arith::AddFOp, arith::SubFOp, arith::NegFOp, arith::TruncFOp,
              arith::ExtFOp, arith::BitcastOp, arith::CmpIOp>(inner)) {
        // Linear (or integer index arithmetic): nothing kept.
      } else if (isa<arith::MulFOp>(inner)) {
        if (depOf(inner.getOperand(0)).any() &&
            depOf(inner.getOperand(1)).any())
          needed |= all;
      } else if (isa<arith::DivFOp>(inner)) {
        if (depOf(inner.getOperand(1)).any())
          needed |= all;
      } else if (auto select = dyn_cast<arith::SelectOp>(inner)) {
        needed |= depOf(select.getCondition());
      } else if (isa<arith::CmpFOp>(inner)) {
        // The comparison's inputs are kept where it selects (above).
      } else {
        // max/min, math functions, anything unknown: keep what it reads.
        needed |= all;
      }
    }
    for (Value result : inner.getResults())
      deps[result] = all;
  }
  // Comparisons feeding selects are kept through the condition's deps.
  return needed;
}

/// Only arithmetic a normalization applies to its input before reducing
/// (casts, squares, powers, scales): no transcendental, no max/min.
bool isPolynomialBody(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (!body)
    return false;
  for (Operation &inner : body->without_terminator())
    if (!isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
             arith::NegFOp, arith::TruncFOp, arith::ExtFOp, arith::ConstantOp,
             math::PowFOp, math::FPowIOp>(inner))
      return false;
  return true;
}

class SaveRules {
public:
  SaveRules(func::FuncOp func, Recompute recompute)
      : func(func), recompute(recompute), activations(findActivations(func)) {}

  std::vector<SavedTensor> run();

private:
  SmallVector<Value> activationOperands(Operation *op) {
    SmallVector<Value> found;
    for (Value operand : op->getOperands())
      if (activations.contains(operand))
        found.push_back(operand);
    return found;
  }
  void save(Value value, Operation *user, StringRef rule);
  void saveKey(const void *key, Value value, Operation *user, StringRef rule,
               int64_t bytes);
  /// Saves a matmul input: the all-gathered shard when it was gathered.
  void saveMatmulInput(Value value, Operation *user);
  void findSoftmaxAndAttentionCores();
  void findNormalizations();
  void applyOpRule(Operation *op);

  func::FuncOp func;
  Recompute recompute;
  llvm::DenseSet<Value> activations;
  /// Ops whose keeping is decided by the pattern they belong to.
  llvm::DenseSet<Operation *> covered;
  /// Attention cores: their ops, Q.K^T and P.V (P's operand number).
  llvm::DenseSet<Operation *> core;
  llvm::DenseMap<Operation *, unsigned> pvProbabilities;
  llvm::MapVector<const void *, SavedTensor> saved;
};

} // namespace

void SaveRules::saveKey(const void *key, Value value, Operation *user,
                        StringRef rule, int64_t bytes) {
  if (!saved.count(key))
    saved[key] = SavedTensor{user, value, rule.str(), bytes};
}

void SaveRules::save(Value value, Operation *user, StringRef rule) {
  Value root = storageRoot(value);
  saveKey(root.getAsOpaquePointer(), root, user, rule,
          tensorBytes(root.getType()));
}

void SaveRules::saveMatmulInput(Value value, Operation *user) {
  Value root = storageRoot(value);
  if (auto gather = root.getDefiningOp<shard::AllGatherOp>()) {
    save(gather.getInput(), user, "matmul input (gathered shard)");
    return;
  }
  save(root, user, "matmul input");
}

void SaveRules::findSoftmaxAndAttentionCores() {
  SmallVector<std::pair<Value, Value>> softmaxes; // (p, x)
  func.walk([&](Operation *op) {
    if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op)) {
      if (activations.contains(softmax.getResult()[0]))
        softmaxes.push_back({softmax.getResult()[0], softmax.getInput()});
      covered.insert(op);
      return;
    }
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp || op->getNumResults() != 1 ||
        !activations.contains(op->getResult(0)))
      return;
    if (Value x = softmaxInput(op->getResult(0)))
      softmaxes.push_back({op->getResult(0), x});
  });
  for (auto [p, x] : softmaxes) {
    // The ops from x to p (max, exp, sum, division) are the softmax.
    SmallVector<Value> work{p};
    llvm::DenseSet<Operation *> inside;
    while (!work.empty()) {
      Operation *op = work.pop_back_val().getDefiningOp();
      if (!op || !inside.insert(op).second)
        continue;
      for (Value operand : activationOperands(op))
        if (operand != x)
          work.push_back(operand);
    }
    covered.insert(inside.begin(), inside.end());
    // The attention core around it: Q.K^T -> token-wise steps -> x, and
    // p -> (dropout, views) -> P.V.
    llvm::SmallVector<Operation *> chain(inside.begin(), inside.end());
    Value v = x;
    Operation *scores = nullptr;
    while (Operation *op = v.getDefiningOp()) {
      SmallVector<Value> inputs = activationOperands(op);
      auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
      if (linalgOp && isPlainContraction(linalgOp) && inputs.size() == 2) {
        scores = op;
        break;
      }
      bool step = isViewOp(op) || (linalgOp && isElementwise(linalgOp));
      if (!step || inputs.size() != 1)
        break;
      chain.push_back(op);
      v = inputs.front();
    }
    Operation *product = nullptr;
    unsigned pOperand = 0;
    for (v = p; !product;) {
      if (!v.hasOneUse())
        break;
      OpOperand &use = *v.getUses().begin();
      Operation *user = use.getOwner();
      auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
      if (linalgOp && isPlainContraction(linalgOp) &&
          activationOperands(user).size() == 2) {
        product = user;
        pOperand = use.getOperandNumber();
        break;
      }
      bool step = isViewOp(user) || isa<DropoutOp>(user) ||
                  (linalgOp && isElementwise(linalgOp) &&
                   activationOperands(user).size() == 1);
      if (!step || user->getNumResults() != 1)
        break;
      chain.push_back(user);
      v = user->getResult(0);
    }
    if (scores && product) {
      core.insert(chain.begin(), chain.end());
      core.insert(scores);
      core.insert(product);
      pvProbabilities[product] = pOperand;
    }
    if (recompute == Recompute::None || !core.contains(p.getDefiningOp()))
      save(p, p.getDefiningOp(), "softmax output");
  }
}

void SaveRules::findNormalizations() {
  SmallVector<Operation *> ops;
  llvm::DenseMap<Operation *, unsigned> position;
  func.walk([&](Operation *op) {
    position[op] = ops.size();
    ops.push_back(op);
  });
  for (auto [index, op] : llvm::enumerate(ops)) {
    auto reduction = dyn_cast<linalg::LinalgOp>(op);
    if (!reduction || covered.contains(op) ||
        reduction.getNumReductionLoops() == 0 || isPlainContraction(reduction))
      continue;
    SmallVector<Value> inputs = activationOperands(op);
    if (inputs.size() != 1)
      continue;
    // Back from the reduced value through casts and powers to the input x.
    llvm::DenseSet<Value> fromX;
    llvm::SetVector<Operation *> region;
    Value x = inputs.front();
    fromX.insert(x);
    while (auto producer = x.getDefiningOp<linalg::LinalgOp>()) {
      // x * x reads one activation.
      llvm::SetVector<Value> producerInputs;
      for (Value input : activationOperands(producer))
        producerInputs.insert(input);
      if (covered.contains(producer) || !isElementwise(producer) ||
          !isPolynomialBody(producer) || producerInputs.size() != 1)
        break;
      region.insert(producer);
      x = producerInputs.front();
      fromX.insert(x);
    }
    region.insert(op);
    // Forward: ops combining x (or its casts) with what the region computed.
    llvm::DenseSet<Value> computed;
    // Only readers of a computed value can join the region: they are taken
    // in walk order (the order a scan of every later op would meet them in),
    // so a region costs its readers, not the rest of the function.
    std::priority_queue<unsigned, std::vector<unsigned>, std::greater<>>
        readers;
    llvm::DenseSet<Operation *> queued;
    auto compute = [&](ValueRange values) {
      for (Value value : values) {
        computed.insert(value);
        for (Operation *user : value.getUsers())
          if (unsigned at = position.lookup(user);
              at > index && queued.insert(user).second)
            readers.push(at);
      }
    };
    compute(op->getResults());
    bool combines = false;
    while (!readers.empty()) {
      Operation *next = ops[readers.top()];
      readers.pop();
      // Reshapes of the statistics (keepdim) belong to the region.
      if (isViewOp(next) && !isa<linalg::BroadcastOp>(next) &&
          computed.contains(next->getOperand(0))) {
        region.insert(next);
        compute(next->getResult(0));
        continue;
      }
      auto linalgOp = dyn_cast<linalg::LinalgOp>(next);
      if (!linalgOp || covered.contains(next) || isPlainContraction(linalgOp))
        continue;
      SmallVector<Value> nextInputs = activationOperands(next);
      bool readsComputed = false, onlyRegion = !nextInputs.empty();
      bool readsX = false;
      for (Value input : nextInputs) {
        readsComputed |= computed.contains(input);
        readsX |= fromX.contains(input);
        onlyRegion &= computed.contains(input) || fromX.contains(input);
      }
      if (!readsComputed || !onlyRegion)
        continue;
      combines |= readsX;
      region.insert(next);
      compute(next->getResults());
    }
    if (!combines)
      continue;
    covered.insert(region.begin(), region.end());
    save(x, op, "norm input");
  }
}

void SaveRules::applyOpRule(Operation *op) {
  bool inCore = recompute == Recompute::Selective && core.contains(op);
  if (auto dropout = dyn_cast<DropoutOp>(op)) {
    if (inCore || !activations.contains(dropout.getInput()))
      return;
    auto type = cast<RankedTensorType>(dropout.getType());
    if (type.hasStaticShape())
      saveKey(op, dropout.getResult(), op, "dropout mask",
              type.getNumElements());
    return;
  }
  if (auto attention = dyn_cast<AttentionOp>(op)) {
    for (Value input :
         {attention.getQuery(), attention.getKey(), attention.getValue()})
      save(input, op, "attention input");
    if (recompute == Recompute::Selective)
      return;
    save(attention.getResult(), op, "attention output");
    auto q = cast<RankedTensorType>(attention.getQuery().getType());
    // One f32 per query row: b * a * s (not numel / d, which is 0 / 0 for
    // an empty head dim).
    if (q.hasStaticShape())
      saveKey(op, attention.getResult(), op, "attention LSE",
              q.getDimSize(0) * q.getDimSize(1) * q.getDimSize(2) * 4);
    return;
  }
  if (auto block = dyn_cast<AttentionBlockOp>(op)) {
    // K/V blocks received from other ranks are sent again in backward.
    for (Value input : {block.getQuery(), block.getKey(), block.getValue()})
      if (!storageRoot(input).getDefiningOp<WaitOp>())
        saveMatmulInput(input, op);
    return;
  }
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || covered.contains(op))
    return;
  if (isPlainContraction(linalgOp)) {
    for (OpOperand *input : linalgOp.getDpsInputOperands()) {
      if (!activations.contains(input->get()))
        continue;
      auto pv = pvProbabilities.find(op);
      // Selective recomputation keeps V, not the probabilities.
      if (inCore && pv != pvProbabilities.end() &&
          pv->second == input->getOperandNumber())
        continue;
      saveMatmulInput(input->get(), op);
    }
    return;
  }
  if (inCore)
    return;
  llvm::SmallBitVector needed = neededInputs(linalgOp, activations);
  for (int i = needed.find_first(); i >= 0; i = needed.find_next(i))
    save(linalgOp.getDpsInputOperand(i)->get(), op, "nonlinear input");
}

std::vector<SavedTensor> SaveRules::run() {
  findSoftmaxAndAttentionCores();
  findNormalizations();
  func.walk([&](Operation *op) { applyOpRule(op); });
  std::vector<SavedTensor> result;
  for (auto &entry : saved)
    result.push_back(entry.second);
  return result;
}

std::vector<SavedTensor>
mlir::seqpar::computeSavedActivations(func::FuncOp func, Recompute recompute) {
  return SaveRules(func, recompute).run();
}
