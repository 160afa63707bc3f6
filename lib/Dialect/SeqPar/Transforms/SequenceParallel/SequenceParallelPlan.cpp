//===- SequenceParallelPlan.cpp - which ops run on sequence shards --------===//
//
// The planning half of seqpar-sequence-parallel (SequenceParallelPlan.h).
//
//===----------------------------------------------------------------------===//

#include "SequenceParallelPlan.h"

#include "seqpar/Analysis/ByteCounts.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::seqpar;

/// Whether `sharding` can describe dim `dim` split further over one more
/// grid axis (only contiguous splits compose).
bool mlir::seqpar::canSplitFurther(ShardingAttr sharding, int64_t dim) {
  DimShardingAttr split = sharding.getDimSharding(dim);
  return !split || split.getKind() == SplitKind::contiguous;
}

bool SequenceParallelPlan::isRoot(shard::AllReduceOp op) const {
  return op.getGrid() == grid.getValue() &&
         op.getGridAxes() == ArrayRef<int16_t>{axis} &&
         op.getReduction() == shard::ReductionKind::Sum &&
         isa<RankedTensorType>(op.getInput().getType()) &&
         op.getInput().getType() == op.getResult().getType();
}

void SequenceParallelPlan::computeTpLocal() {
  for (BlockArgument arg : func.getArguments()) {
    ShardingAttr sharding = getArgSharding(func, arg.getArgNumber());
    if (sharding && sharding.usesAxis(axis))
      tpLocal.insert(arg);
  }
  for (Operation &op : func.getBody().front()) {
    // A rank index is TP-local unless it only reads other axes (the CP
    // rank of a TP x CP program is the same on every TP rank).
    bool local = isa<shard::ProcessLinearIndexOp>(op);
    if (auto index = dyn_cast<shard::ProcessMultiIndexOp>(op))
      local =
          index.getAxes().empty() || llvm::is_contained(index.getAxes(), axis);
    for (Value operand : op.getOperands())
      local |= tpLocal.contains(operand);
    visitUsedValuesDefinedAbove(op.getRegions(), [&](OpOperand *use) {
      local |= tpLocal.contains(use->get());
    });
    // Collectives over the TP axis make their result the same on every rank.
    if (auto reduce = dyn_cast<shard::AllReduceOp>(op))
      local &= !llvm::is_contained(reduce.getGridAxes(), axis);
    if (auto gather = dyn_cast<shard::AllGatherOp>(op))
      local &= !llvm::is_contained(gather.getGridAxes(), axis);
    if (local)
      for (Value result : op.getResults())
        tpLocal.insert(result);
  }
}

bool SequenceParallelPlan::usesTpLocal(Operation *op) const {
  bool local = llvm::any_of(op->getOperands(), [&](Value operand) {
    return tpLocal.contains(operand);
  });
  visitUsedValuesDefinedAbove(op->getRegions(), [&](OpOperand *use) {
    local |= tpLocal.contains(use->get());
  });
  return local;
}

/// Decides whether `op`, which uses a sharded value, runs on the shard.
Placement SequenceParallelPlan::place(Operation *op,
                                      std::string &reason) const {
  if (isa<func::ReturnOp>(op)) {
    reason = "returns it";
    return Placement::NeedsAllTokens;
  }
  if (isa_and_nonnull<shard::ShardDialect>(op->getDialect())) {
    reason = "is a collective";
    return Placement::NeedsAllTokens;
  }
  const TokenWiseInfo &info = analysis.getInfo(op);
  if (info.kind == TokenWiseInfo::Kind::Unknown) {
    reason = info.reason;
    return Placement::Unprovable;
  }
  if (!isEffectFreeButChecks(op)) {
    reason = "has memory effects";
    return Placement::Unprovable;
  }
  bool reduces =
      allowPartialReductions && getSequenceReduction(op, analysis).has_value();
  if (!info.isTokenWise() && !reduces) {
    reason = "mixes tokens: " + info.reason;
    return Placement::NeedsAllTokens;
  }
  if (usesTpLocal(op)) {
    reason = "has an operand sharded or partial over the TP axis";
    return Placement::NeedsAllTokens;
  }
  // Every result must have a static, non-empty shape and (unless reduced)
  // keep the sequence.
  for (Value result : op->getResults()) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type || !type.hasStaticShape() || type.getNumElements() == 0 ||
        (!reduces && !analysis.getSeqDim(result))) {
      reason = "has a result of dynamic, empty or unsupported shape";
      return Placement::NeedsAllTokens;
    }
  }
  // Sequence-indexed operands that are not sharded are sliced locally.
  for (auto [index, dim] : llvm::enumerate(info.operandDims)) {
    auto type = dyn_cast<RankedTensorType>(op->getOperand(index).getType());
    if (dim >= 0 && (!type || type.isDynamicDim(dim))) {
      reason = "has a dynamic sequence-indexed operand";
      return Placement::NeedsAllTokens;
    }
  }
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    if (!expand.getOutputShape().empty()) {
      reason = "has a dynamic output shape";
      return Placement::NeedsAllTokens;
    }
  }
  if (isa<tosa::ReshapeOp>(op)) {
    reason = "is a tosa.reshape, whose shape operand is not rewritten (the "
             "seqpar-sp-pipeline lowers tosa first)";
    return Placement::NeedsAllTokens;
  }
  if (auto dropout = dyn_cast<DropoutOp>(op)) {
    StridedDim seq = *analysis.getSeqDim(dropout.getInput());
    if (seq.outer != 1) {
      reason = "a dropout whose sequence is flattened into a larger dim: "
               "a shard is not a box of the global tensor, so the mask "
               "cannot be keyed by position";
      return Placement::Unprovable;
    }
  }
  return reduces ? Placement::PartialReduction : Placement::Region;
}

void SequenceParallelPlan::build() {
  computeTpLocal();
  auto newComponent = [&](Value value) {
    unsigned id = components.size();
    components.emplace_back();
    merged.insert(id);
    shardedValues[value] = id;
    return id;
  };
  if (inputSharded) {
    for (BlockArgument arg : func.getArguments()) {
      std::optional<StridedDim> seq = analysis.getSeqDim(arg);
      ShardingAttr sharding = getArgSharding(func, arg.getArgNumber());
      if (seq && seq->inner == 1 && !tpLocal.contains(arg) &&
          (!sharding || canSplitFurther(sharding, seq->dim)))
        components[newComponent(arg)].args.push_back(arg);
    }
  }
  Block &body = func.getBody().front();
  func.walk([&](shard::AllReduceOp reduce) {
    if (reduce->getBlock() != &body && isRoot(reduce))
      nestedRoots.push_back(reduce);
  });
  for (Operation &op : body) {
    if (auto reduce = dyn_cast<shard::AllReduceOp>(op);
        reduce && isRoot(reduce)) {
      allRoots.push_back(reduce);
      auto type = cast<RankedTensorType>(reduce.getType());
      if (analysis.getSeqDim(reduce.getResult()) && type.hasStaticShape() &&
          type.getNumElements() > 0)
        components[newComponent(reduce.getResult())].roots.push_back(reduce);
      continue;
    }
    SmallVector<unsigned> ids;
    auto join = [&](Value operand) {
      auto it = shardedValues.find(operand);
      if (it != shardedValues.end())
        ids.push_back(it->second);
    };
    for (Value operand : op.getOperands())
      join(operand);
    for (auto [use, dim] : analysis.getInfo(&op).capturedDims)
      join(use->get());
    std::string reason;
    if (ids.empty())
      continue;
    Placement placement = place(&op, reason);
    if (placement != Placement::Region &&
        placement != Placement::PartialReduction)
      continue;
    for (unsigned id : ids)
      merged.unionSets(ids.front(), id);
    if (placement == Placement::PartialReduction) {
      SequenceReduction reduction = *getSequenceReduction(&op, analysis);
      reductionOps[&op] =
          PartialReduction{ids.front(), reduction.kind, reduction.seq};
      continue;
    }
    regionOps[&op] = ids.front();
    for (Value result : op.getResults())
      shardedValues[result] = ids.front();
  }
  pullGatheredOps();
  finalize();
}

void SequenceParallelPlan::pullGatheredOps() {
  Block &body = func.getBody().front();
  auto inRegion = [&](Operation *op) {
    return regionOps.count(op) || reductionOps.count(op);
  };
  // A boundary user: outside the region, gets an all-gather (the return
  // may keep a shard, an unprovable op drops the component).
  auto isBoundary = [&](OpOperand &use) {
    Operation *user = body.findAncestorOpInBlock(*use.getOwner());
    std::string reason;
    return user == use.getOwner() && !inRegion(user) &&
           !isa<func::ReturnOp>(user) &&
           place(user, reason) != Placement::Unprovable;
  };
  // Candidates: region ops whose results go only to boundaries or to other
  // region ops (those must then be pulled too, below).
  SmallVector<Operation *> ops;
  DenseSet<Operation *> candidates;
  for (auto &[op, id] : regionOps) {
    ops.push_back(op);
    if (!analysis.getInfo(op).capturedDims.empty())
      continue;
    bool candidate = true;
    for (Value result : op->getResults())
      for (OpOperand &use : result.getUses())
        candidate &= isBoundary(use) || regionOps.count(use.getOwner());
    if (candidate)
      candidates.insert(op);
  }
  DenseSet<Operation *> pulled = candidates;
  // A pulled op reads each sharded operand gathered: one gathered for a
  // boundary anyway, or one a pulled op computes whole. Its region users
  // must be pulled too (they would read a whole value otherwise).
  auto gathered = [&](Value value) {
    Operation *def = value.getDefiningOp();
    if (def && pulled.contains(def))
      return true;
    return llvm::any_of(value.getUses(),
                        [&](OpOperand &use) { return isBoundary(use); });
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (Operation *op : ops)
      if (pulled.contains(op) &&
          llvm::any_of(op->getOperands(), [&](Value operand) {
            return shardedValues.count(operand) && !gathered(operand);
          })) {
        pulled.erase(op);
        changed = true;
      }
    for (Operation *op : llvm::reverse(ops))
      if (pulled.contains(op) &&
          llvm::any_of(op->getUsers(), [&](Operation *user) {
            return regionOps.count(user) && !pulled.contains(user);
          })) {
        pulled.erase(op);
        changed = true;
      }
  }
  pullForFewerBytes(candidates, pulled, gathered, isBoundary);
  for (Operation *op : pulled) {
    regionOps.erase(op);
    for (Value result : op->getResults())
      shardedValues.erase(result);
  }
}

void SequenceParallelPlan::pullForFewerBytes(
    const DenseSet<Operation *> &candidates, DenseSet<Operation *> &pulled,
    function_ref<bool(Value)> gatheredAnyway,
    function_ref<bool(OpOperand &)> isBoundary) {
  DenseSet<Value> newGathers;
  auto gathered = [&](Value value) {
    return gatheredAnyway(value) || newGathers.contains(value);
  };
  auto bytes = [](Value value) {
    return checkedBytes(value.getType()).value_or(0);
  };
  auto pullable = [&](Operation *op) {
    return candidates.contains(op) && !pulled.contains(op);
  };
  // Last value first: the fewest ops leave the shard (an op that feeds
  // only pulled ones saves no gather, so it stays).
  for (auto [v, id] : llvm::reverse(shardedValues)) {
    Operation *def = v.getDefiningOp();
    if ((def && pulled.contains(def)) || gathered(v) || bytes(v) == 0)
      continue;
    // The candidates downstream of v whose every sharded operand is
    // gathered or computed whole once v is gathered (an op is reached once
    // its last such operand is: the walk stays near v instead of following
    // the residual stream to the end, which made the pass quadratic in
    // depth).
    // `operand` is whole once v is gathered and the ops of `ran` run whole.
    auto whole = [&](Value operand, const auto &ran) {
      Operation *from = operand.getDefiningOp();
      return !shardedValues.count(operand) || operand == v ||
             gathered(operand) ||
             (from && (pulled.contains(from) || ran.contains(from)));
    };
    llvm::SetVector<Operation *> reached;
    auto wholeSoFar = [&](Value operand) { return whole(operand, reached); };
    SmallVector<Value> worklist{v};
    while (!worklist.empty())
      for (Operation *user : worklist.pop_back_val().getUsers())
        if (pullable(user) && !reached.contains(user) &&
            llvm::all_of(user->getOperands(), wholeSoFar) &&
            reached.insert(user))
          llvm::append_range(worklist, user->getResults());
    // Of those, the ones whose region users are pulled too.
    DenseSet<Operation *> set(reached.begin(), reached.end());
    for (bool changed = true; changed;) {
      changed = false;
      for (Operation *op : reached) {
        if (!set.contains(op))
          continue;
        bool keep = llvm::all_of(op->getOperands(), [&](Value operand) {
          return whole(operand, set);
        });
        keep &= llvm::all_of(op->getUsers(), [&](Operation *user) {
          return !regionOps.count(user) || pulled.contains(user) ||
                 set.contains(user);
        });
        if (!keep) {
          set.erase(op);
          changed = true;
        }
      }
    }
    // Their results' gathers go; v's comes.
    int64_t saved = 0;
    for (Operation *op : set)
      for (Value result : op->getResults())
        if (llvm::any_of(result.getUses(), isBoundary))
          saved += bytes(result);
    if (set.empty() || saved <= bytes(v))
      continue;
    newGathers.insert(v);
    pulled.insert(set.begin(), set.end());
  }
}

bool SequenceParallelPlan::readsOnShard(OpOperand &use) const {
  Operation *user = use.getOwner();
  while (user->getParentOp() && !isa<func::FuncOp>(user->getParentOp()))
    user = user->getParentOp();
  if (!regionOps.count(user) && !reductionOps.count(user))
    return false;
  return user == use.getOwner() ||
         llvm::is_contained(
             llvm::make_first_range(analysis.getInfo(user).capturedDims),
             &use);
}

/// Finds, for each component, the first use outside the region and any use
/// by an op nothing can be proven about; blocked and empty components are
/// dropped from the plan.
void SequenceParallelPlan::finalize() {
  Block &body = func.getBody().front();
  for (auto &[value, id] : shardedValues) {
    Component &component = components[leader(id)];
    for (OpOperand &use : value.getUses()) {
      Operation *user = body.findAncestorOpInBlock(*use.getOwner());
      if (readsOnShard(use))
        continue;
      std::string reason;
      if (user != use.getOwner()) {
        // The analysis says why a captured read is not one it can prove.
        const TokenWiseInfo &info = analysis.getInfo(user);
        reason = info.kind == TokenWiseInfo::Kind::Unknown && !info.reason.empty()
                     ? info.reason
                     : "uses the value inside a nested region";
      } else if (place(user, reason) != Placement::Unprovable) {
        if (!component.firstBoundary ||
            user->isBeforeInBlock(component.firstBoundary)) {
          component.firstBoundary = user;
          component.firstBoundaryReason = reason;
        }
        continue;
      }
      if (!component.blocker) {
        component.blocker = user;
        component.blockerReason = reason;
      }
    }
  }
  // A root's partial-sum input computed on sequence shards means an op the
  // analysis took as TP-replicated is TP-local (typically a TP-split weight
  // without #seqpar.sharding): nothing about that region can be trusted.
  for (const Component &component : components)
    for (shard::AllReduceOp root : component.roots) {
      auto input = shardedValues.find(root.getInput());
      if (input == shardedValues.end() || isa<BlockArgument>(root.getInput()))
        continue;
      Component &culprit = components[leader(input->second)];
      if (!culprit.blocker) {
        culprit.blocker = root;
        culprit.blockerReason =
            "its partial-sum input would be computed on sequence shards; an "
            "operand on its path is probably TP-sharded without a "
            "#seqpar.sharding attribute";
      }
    }
  for (auto &[op, id] : regionOps)
    ++components[leader(id)].numRegionOps;
  for (auto &[op, reduction] : reductionOps)
    ++components[leader(reduction.component)].numRegionOps;
  for (unsigned id = 0; id < components.size(); ++id) {
    if (leader(id) == id)
      continue;
    Component &into = components[leader(id)];
    llvm::append_range(into.roots, components[id].roots);
    llvm::append_range(into.args, components[id].args);
  }
  auto dropped = [&](unsigned id) {
    return components[leader(id)].isDropped();
  };
  regionOps.remove_if([&](auto &entry) { return dropped(entry.second); });
  reductionOps.remove_if(
      [&](auto &entry) { return dropped(entry.second.component); });
  shardedValues.remove_if([&](auto &entry) { return dropped(entry.second); });
}
