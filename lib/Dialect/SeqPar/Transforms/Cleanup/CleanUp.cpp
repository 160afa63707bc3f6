//===- CleanUp.cpp - canonicalize, then CSE -------------------------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Cleanup/CleanUp.h"

#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

/// Whether region simplification can do more in some region nested in
/// `op` than the pattern driver does: in a region of several blocks
/// (unreachable blocks, dead block arguments), and in a graph region whose
/// ops have results (a cycle of ops that use only each other is dead, but
/// each has a use, so the driver keeps it). Elsewhere it only erases the
/// dead ops the driver erases too, at the cost of a liveness walk of the
/// whole module after each of the driver's iterations (docs/benchmarks.md,
/// section 1). A module's body is a graph region, of symbols without
/// results.
static bool regionSimplificationCanAct(Operation *op) {
  return op
      ->walk([](Region *region) {
        if (region->empty())
          return WalkResult::advance();
        if (!region->hasOneBlock())
          return WalkResult::interrupt();
        if (mayBeGraphRegion(*region) &&
            llvm::any_of(region->front(), [](Operation &nested) {
              return nested.getNumResults() != 0;
            }))
          return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

std::shared_ptr<const FrozenRewritePatternSet>
seqpar::buildCanonicalizationPatterns(MLIRContext *context) {
  RewritePatternSet owning(context);
  for (Dialect *dialect : context->getLoadedDialects())
    dialect->getCanonicalizationPatterns(owning);
  for (RegisteredOperationName op : context->getRegisteredOperations())
    op.getCanonicalizationPatterns(owning, context);
  return std::make_shared<FrozenRewritePatternSet>(std::move(owning));
}

namespace {

/// While CSE runs, the ops a canonicalization may simplify further once it
/// has merged duplicates: the users of each op it replaces (they now read
/// the op kept, maybe twice: x - x) and the ops around them up to `root`
/// (an scf.if whose branch now yields an outer value), the op kept (more
/// uses), and the producers of the replaced op's operands (fewer uses).
/// Elsewhere the module is as the canonicalizer left it.
struct MergedByCSE : RewriterBase::Listener {
  explicit MergedByCSE(Operation *root) : root(root) {}

  void notifyOperationReplaced(Operation *op, ValueRange replacement) override {
    for (Operation *user : op->getUsers())
      for (Operation *around = user; around && around != root;
           around = around->getParentOp())
        ops.insert(around);
    for (Value v : llvm::concat<Value>(replacement, op->getOperands()))
      if (Operation *def = v.getDefiningOp())
        ops.insert(def);
  }
  void notifyOperationErased(Operation *op) override { erased.insert(op); }

  /// The ops recorded that are still in the module.
  SmallVector<Operation *> live() const {
    return llvm::to_vector(llvm::make_filter_range(
        ops, [&](Operation *op) { return !erased.contains(op); }));
  }

  Operation *root;
  llvm::SetVector<Operation *> ops;
  // CSE erases each duplicate after all replacements: filtered at the end
  // (removing each from `ops` would be quadratic).
  llvm::DenseSet<Operation *> erased;
};

} // namespace

bool seqpar::canonicalizeAndCSE(Operation *op,
                                const FrozenRewritePatternSet &patterns) {
  GreedyRewriteConfig config;
  config.setUseTopDownTraversal(true).setRegionSimplificationLevel(
      regionSimplificationCanAct(op) ? GreedySimplifyRegionLevel::Normal
                                     : GreedySimplifyRegionLevel::Disabled);
  // CSE can enable folds (x - x once both operands are one value) that
  // `canonicalize; cse` leaves for a second round. Canonicalizing the ops
  // CSE's merges touched tells whether it did (cheap: nothing else can
  // have changed); if so, both run again, so that a second clean-up finds
  // nothing (the named pipelines clean up once between rewrites,
  // docs/benchmarks.md §1). Bounded as the canonicalizer's own iterations
  // are, and ending with CSE: no duplicates are left.
  bool changed = false;
  int rounds = GreedyRewriteConfig().getMaxIterations();
  for (int round = 0; round < rounds; ++round) {
    bool canonicalized = false;
    (void)applyPatternsGreedily(op, patterns, config, &canonicalized);
    MergedByCSE merged(op);
    IRRewriter rewriter(op->getContext(), &merged);
    DominanceInfo dominance(op);
    bool deduplicated = false;
    eliminateCommonSubExpressions(rewriter, dominance, op, &deduplicated);
    changed |= canonicalized || deduplicated;
    if (!deduplicated)
      break;
    bool enabled = false;
    (void)applyOpPatternsGreedily(merged.live(), patterns,
                                  GreedyRewriteConfig(), &enabled);
    if (!enabled)
      break;
    if (round + 1 == rounds) {
      IRRewriter last(op->getContext());
      DominanceInfo lastDominance(op);
      eliminateCommonSubExpressions(last, lastDominance, op);
    }
  }
  return changed;
}
