//===- SeqDimInference.cpp - the sequence dim attention implies -----------===//
//
// Backward counterpart of the token-wise analysis' propagation: a value's
// token digit (dim, inner stride, extent) is mapped onto the operands of the
// op defining it, rule by rule, until function arguments are reached.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Analysis/SeqDimInference.h"

#include "seqpar/Analysis/TokenWiseAnalysis.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Traits.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <tuple>

using namespace mlir;
using namespace mlir::seqpar;

void mlir::seqpar::collectSeqParAttentionTokens(
    func::FuncOp func, SmallVectorImpl<AttentionTokens> &tokens) {
  func.walk([&](Operation *op) {
    if (isa<AttentionOp, AttentionBlockOp>(op))
      for (Value operand : op->getOperands().take_front(3))
        tokens.push_back({operand, 2, op});
  });
}

namespace {

/// The token digit of one value: dim `dim` holds outer * length * inner
/// elements, the tokens at stride `inner` (StridedDim's convention).
struct Digit {
  Value value;
  int64_t dim;
  int64_t inner;
  int64_t length;
};

/// An argument dim a token digit reaches, how many tokens the digit has
/// there (fewer than the dim's size where it is flattened with others) and
/// its stride.
using ArgDim = std::tuple<unsigned, int64_t, int64_t, int64_t>;

/// Follows attention tokens back to the function's arguments. Every digit
/// reached is resolved once, to the argument dims it leads to, and shared by
/// all traces: the attentions of a deep model all lead back through the same
/// residual stream, so tracing each one afresh would be quadratic in depth.
class TokenTracer {
public:
  explicit TokenTracer(func::FuncOp func) : func(func) {}

  /// Argument dims reached from `start`, sorted.
  ArrayRef<ArgDim> trace(AttentionTokens start);
  /// The first op on the way without a rule (for diagnostics).
  Operation *firstStop = nullptr;

private:
  using Key = std::tuple<Value, int64_t, int64_t, int64_t>;
  using Reach = SmallVector<ArgDim, 1>;

  /// Resolves `root` and every digit it leads to (iteratively: a chain of
  /// thousands of ops must not recurse) and returns its entry in `reach`.
  unsigned resolve(const Digit &root);
  void push(Value value, int64_t dim, int64_t inner, int64_t length);
  /// Appends the digits `digit` maps onto to `next`; an argument digit adds
  /// itself to `own`.
  void visit(const Digit &digit);

  func::FuncOp func;
  /// Output of visit().
  SmallVector<Digit> next;
  Reach own;
  /// Digit -> index into `reach` once resolved.
  llvm::DenseMap<Key, unsigned> resolved;
  std::vector<Reach> reach;
};

} // namespace

void TokenTracer::push(Value value, int64_t dim, int64_t inner,
                       int64_t length) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || dim < 0 || dim >= type.getRank() || type.isDynamicDim(dim) ||
      inner < 1 || length < 1 || type.getDimSize(dim) % (inner * length) != 0)
    return;
  next.push_back({value, dim, inner, length});
}

unsigned TokenTracer::resolve(const Digit &root) {
  auto keyOf = [](const Digit &d) {
    return Key{d.value, d.dim, d.inner, d.length};
  };
  if (auto it = resolved.find(keyOf(root)); it != resolved.end())
    return it->second;
  // Post-order over the (acyclic) digit graph: a frame is expanded once,
  // its unresolved successors resolved above it, then it is merged.
  struct Frame {
    Digit digit;
    bool expanded = false;
    SmallVector<Digit> successors;
    Reach own;
  };
  SmallVector<Frame> stack;
  llvm::DenseSet<Key> expanded;
  stack.push_back({root});
  while (!stack.empty()) {
    Key key = keyOf(stack.back().digit);
    if (stack.back().expanded) {
      Frame frame = stack.pop_back_val();
      Reach merged = std::move(frame.own);
      for (const Digit &successor : frame.successors)
        if (auto it = resolved.find(keyOf(successor)); it != resolved.end())
          llvm::append_range(merged, reach[it->second]);
      llvm::sort(merged);
      merged.erase(llvm::unique(merged), merged.end());
      resolved[key] = reach.size();
      reach.push_back(std::move(merged));
      continue;
    }
    // Already resolved, or pushed twice and being expanded further down.
    if (resolved.contains(key) || !expanded.insert(key).second) {
      stack.pop_back();
      continue;
    }
    next.clear();
    own.clear();
    visit(stack.back().digit);
    stack.back().expanded = true;
    stack.back().own = own;
    stack.back().successors = next;
    // `next` is iterated, not the frame: pushing may move the frames.
    for (const Digit &successor : llvm::reverse(next))
      if (!resolved.contains(keyOf(successor)))
        stack.push_back({successor});
  }
  return resolved.lookup(keyOf(root));
}

ArrayRef<ArgDim> TokenTracer::trace(AttentionTokens start) {
  auto type = dyn_cast<RankedTensorType>(start.value.getType());
  if (!type || start.dim >= type.getRank() || type.isDynamicDim(start.dim))
    return {};
  next.clear();
  push(start.value, start.dim, 1, type.getDimSize(start.dim));
  if (next.empty())
    return {};
  Digit root = next.front();
  return reach[resolve(root)];
}

void TokenTracer::visit(const Digit &digit) {
  Value value = digit.value;
  auto same = [&](Value operand) {
    push(operand, digit.dim, digit.inner, digit.length);
  };
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (arg.getOwner() == &func.getBody().front())
      own.push_back({arg.getArgNumber(), digit.dim, digit.length, digit.inner});
    else if (!firstStop)
      firstStop = arg.getOwner()->getParentOp();
    return;
  }
  Operation *op = value.getDefiningOp();
  auto resultType = cast<RankedTensorType>(value.getType());
  int64_t resultIndex = cast<OpResult>(value).getResultNumber();

  // Linalg: the result dim is a loop; every operand indexing that loop
  // plainly (not in a compound expression) holds the tokens there.
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    // Named ops build their maps on each query: once per op.
    SmallVector<AffineMap> maps = linalgOp.getIndexingMapsArray();
    AffineMap resultMap =
        maps[linalgOp.getDpsInitOperand(resultIndex)->getOperandNumber()];
    auto loopExpr = dyn_cast<AffineDimExpr>(resultMap.getResult(digit.dim));
    if (!loopExpr)
      return;
    unsigned loop = loopExpr.getPosition();
    for (OpOperand &operand : op->getOpOperands()) {
      AffineMap map = maps[operand.getOperandNumber()];
      int64_t position = -1;
      bool plain = true;
      for (auto [index, expr] : llvm::enumerate(map.getResults())) {
        auto dimExpr = dyn_cast<AffineDimExpr>(expr);
        if (dimExpr && dimExpr.getPosition() == loop) {
          plain &= position < 0;
          position = index;
        } else if (!dimExpr && expr.isFunctionOfDim(loop)) {
          plain = false;
        }
      }
      if (position >= 0 && plain)
        push(operand.get(), position, digit.inner, digit.length);
    }
    return;
  }
  // Elementwise ops on tensors (arith, math, tosa's broadcasting ones):
  // operands of the result's rank line up dim for dim; a size-1 dim
  // broadcasts.
  if ((op->hasTrait<OpTrait::Elementwise>() ||
       op->hasTrait<OpTrait::ResultsBroadcastableShape>()) &&
      op->getNumResults() == 1) {
    for (Value operand : op->getOperands()) {
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (type && type.getRank() == resultType.getRank() &&
          type.getDimSize(digit.dim) == resultType.getDimSize(digit.dim))
        same(operand);
    }
    return;
  }
  auto stop = [&](Operation *) {
    if (!firstStop)
      firstStop = op;
  };
  TypeSwitch<Operation *>(op)
      .Case<tensor::CollapseShapeOp>([&](tensor::CollapseShapeOp collapse) {
        ReassociationIndices group =
            collapse.getReassociationIndices()[digit.dim];
        SmallVector<int64_t> sizes;
        for (int64_t d : group)
          sizes.push_back(collapse.getSrcType().getDimSize(d));
        if (auto found = findSeqInExpansion(sizes, digit.inner, digit.length)) {
          push(collapse.getSrc(), group[found->first], found->second,
               digit.length);
          return;
        }
        // A reorder of a whole token dim (hybrid context parallelism puts
        // the chunks of its Ulysses ranks in zigzag order): expanded into
        // factors, the factors transposed among themselves, collapsed back.
        auto transpose = collapse.getSrc().getDefiningOp<linalg::TransposeOp>();
        if (!transpose || digit.inner != 1 ||
            resultType.getDimSize(digit.dim) != digit.length)
          return;
        auto expand =
            transpose.getInput().getDefiningOp<tensor::ExpandShapeOp>();
        ArrayRef<int64_t> perm = transpose.getPermutation();
        llvm::SmallDenseSet<int64_t> permuted;
        for (int64_t d : group)
          permuted.insert(perm[d]);
        if (!expand || !llvm::all_of(group, [&](int64_t d) {
              return permuted.contains(d);
            }))
          return;
        for (auto [srcDim, expanded] :
             llvm::enumerate(expand.getReassociationIndices()))
          if (expanded == group)
            push(expand.getSrc(), srcDim, 1, digit.length);
      })
      .Case<tensor::ExpandShapeOp>([&](tensor::ExpandShapeOp expand) {
        SmallVector<ReassociationIndices> groups =
            expand.getReassociationIndices();
        for (auto [srcDim, group] : llvm::enumerate(groups)) {
          if (!llvm::is_contained(group, digit.dim))
            continue;
          int64_t inner = digit.inner;
          for (int64_t d : group)
            if (d > digit.dim) {
              if (resultType.isDynamicDim(d))
                return;
              inner *= resultType.getDimSize(d);
            }
          push(expand.getSrc(), srcDim, inner, digit.length);
        }
      })
      .Case<tensor::ExtractSliceOp>([&](tensor::ExtractSliceOp slice) {
        // The k-th kept source dim is result dim k; only a whole dim keeps
        // every token.
        llvm::SmallBitVector dropped = slice.getDroppedDims();
        int64_t kept = -1;
        for (int64_t d = 0; d < slice.getSourceType().getRank(); ++d) {
          if (!dropped.test(d))
            ++kept;
          if (kept != digit.dim || dropped.test(d))
            continue;
          if (spansWholeDim(slice, d, slice.getSourceType().getDimSize(d)))
            push(slice.getSource(), d, digit.inner, digit.length);
          return;
        }
      })
      .Case<tensor::InsertSliceOp>([&](tensor::InsertSliceOp insert) {
        same(insert.getDest());
        if (insert.getSourceType().getRank() == resultType.getRank() &&
            spansWholeDim(insert, digit.dim, resultType.getDimSize(digit.dim)))
          same(insert.getSource());
      })
      .Case<tensor::ConcatOp>([&](tensor::ConcatOp concat) {
        if (static_cast<int64_t>(concat.getDim()) != digit.dim)
          for (Value input : concat.getInputs())
            same(input);
      })
      .Case<tensor::PadOp>([&](tensor::PadOp pad) {
        if (pad.getStaticLow()[digit.dim] == 0 &&
            pad.getStaticHigh()[digit.dim] == 0)
          same(pad.getSource());
      })
      .Case<tensor::CastOp>(
          [&](tensor::CastOp cast) { same(cast.getSource()); })
      .Case<linalg::SoftmaxOp>(
          [&](linalg::SoftmaxOp softmax) { same(softmax.getInput()); })
      .Case<tosa::TransposeOp>([&](tosa::TransposeOp transpose) {
        push(transpose.getInput1(), transpose.getPerms()[digit.dim],
             digit.inner, digit.length);
      })
      .Case<tosa::ReshapeOp>([&](tosa::ReshapeOp reshape) {
        auto srcType = cast<RankedTensorType>(reshape.getInput1().getType());
        if (!srcType.hasStaticShape() || !resultType.hasStaticShape())
          return;
        // Flat stride of the token digit in the row-major result.
        int64_t stride = digit.inner;
        for (int64_t d = digit.dim + 1; d < resultType.getRank(); ++d)
          stride *= resultType.getDimSize(d);
        if (auto found =
                findSeqInExpansion(srcType.getShape(), stride, digit.length))
          push(reshape.getInput1(), found->first, found->second, digit.length);
      })
      .Case<DropoutOp>([&](DropoutOp dropout) { same(dropout.getInput()); })
      .Case<AttentionOp, AttentionBlockOp>([&](Operation *attention) {
        // Output rows (and the LSE) follow the queries.
        if (digit.dim == 2)
          same(attention->getOperand(0));
      })
      .Case<AttentionBackwardOp>([&](AttentionBackwardOp backward) {
        // dQ follows the queries, dK and dV the keys and values.
        if (digit.dim == 2)
          same(backward->getOperand(resultIndex));
      })
      .Case<AttentionMergeOp>([&](AttentionMergeOp merge) {
        // Results (out, row max, row sum) follow the first partial's.
        same(merge->getOperand(resultIndex));
      })
      .Case<shard::AllReduceOp>(
          [&](shard::AllReduceOp reduce) { same(reduce.getInput()); })
      .Case<shard::AllGatherOp, shard::ReduceScatterOp, shard::AllToAllOp,
            shard::AllSliceOp>([&](Operation *collective) {
        // Same rank, dims in place; where the collective resizes the token
        // dim, its other side holds a shard (or a gather) of the tokens.
        Value input = collective->getOperand(0);
        auto inputType = dyn_cast<RankedTensorType>(input.getType());
        if (!inputType || inputType.getRank() != resultType.getRank() ||
            inputType.isDynamicDim(digit.dim))
          return;
        int64_t before = inputType.getDimSize(digit.dim);
        if (before == resultType.getDimSize(digit.dim))
          same(input);
        else if (digit.inner == 1 &&
                 resultType.getDimSize(digit.dim) == digit.length)
          push(input, digit.dim, 1, before);
      })
      .Default(stop);
}

SeqDimInference mlir::seqpar::inferSeqDim(func::FuncOp func,
                                          ArrayRef<AttentionTokens> tokens) {
  SeqDimInference result;
  if (func.getBody().empty()) {
    result.why = "the function has no body";
    return result;
  }
  if (tokens.empty()) {
    result.why = "it has no attention (seqpar.attention, or a softmax P.V "
                 "product that seqpar-raise-attention recognises)";
    return result;
  }
  // How many token dims reach each argument, and at which dims.
  TokenTracer tracer(func);
  llvm::MapVector<unsigned, int64_t> votes;
  // Per token dim, the arguments it reaches (for `otherSequences`).
  SmallVector<llvm::SmallDenseSet<unsigned, 2>> argsOf;
  for (const AttentionTokens &start : tokens) {
    llvm::DenseSet<unsigned> voted;
    argsOf.emplace_back();
    for (auto [arg, dim, length, inner] : tracer.trace(start)) {
      argsOf.back().insert(arg);
      int64_t size = cast<RankedTensorType>(func.getArgument(arg).getType())
                         .getDimSize(dim);
      result.tokens.try_emplace(
          std::make_pair(arg, dim),
          StridedDim{dim, inner, size / (inner * length), length});
      SmallVector<int64_t, 2> &dims = result.reached[arg];
      if (!llvm::is_contained(dims, dim))
        dims.push_back(dim);
      if (voted.insert(arg).second)
        ++votes[arg];
    }
  }
  if (votes.empty()) {
    llvm::raw_string_ostream os(result.why);
    os << "the attention's tokens were not followed back to an argument";
    if (tracer.firstStop)
      os << " (no rule for '" << tracer.firstStop->getName() << "' at "
         << tracer.firstStop->getLoc() << ")";
    return result;
  }
  unsigned best = votes.front().first;
  for (auto [arg, count] : votes)
    if (count > votes.lookup(best))
      best = arg;
  auto describe = [&](unsigned arg) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "argument #" << arg << " of type '" << func.getArgument(arg).getType()
       << "'";
    return text;
  };
  // A tie between arguments of different sizes (an [s, h] position table
  // added to the [b, s, h] input reaches every operand the input does):
  // the larger one, the activations, is the sequence; the other is read
  // like any token-indexed table.
  auto elements = [&](unsigned arg) {
    auto type = cast<RankedTensorType>(func.getArgument(arg).getType());
    return type.hasStaticShape() ? type.getNumElements() : int64_t(-1);
  };
  for (auto [arg, count] : votes)
    if (count == votes.lookup(best) && elements(arg) > elements(best))
      best = arg;
  for (auto [arg, count] : votes) {
    if (arg == best || count != votes.lookup(best))
      continue;
    if (elements(arg) >= 0 && elements(arg) < elements(best)) {
      result.smallerTie.push_back(arg);
      continue;
    }
    result.why = "the tokens of as many attention operands come from " +
                 describe(best) + " as from " + describe(arg);
    return result;
  }
  ArrayRef<int64_t> dims = result.reached[best];
  if (dims.size() > 1) {
    llvm::raw_string_ostream os(result.why);
    os << "the attention's tokens come from dims ";
    llvm::interleave(dims, os, " and ");
    os << " of " << describe(best);
    return result;
  }
  result.argNumber = best;
  result.dim = dims.front();
  // A self-attention none of whose operands reads the chosen argument's
  // tokens attends over another sequence (docs/context-parallelism.md,
  // "Encoder-decoder: two sequences").
  for (size_t first = 0; first < tokens.size();) {
    size_t end = first + 1;
    while (end < tokens.size() && tokens[end].attention &&
           tokens[end].attention == tokens[first].attention)
      ++end;
    ArrayRef<llvm::SmallDenseSet<unsigned, 2>> group(&argsOf[first],
                                                     end - first);
    first = end;
    if (group.size() != 3 || !tokens[end - 1].attention ||
        llvm::any_of(group, [&](const auto &args) {
          return args.contains(best);
        }))
      continue;
    // Of the arguments all three reach, the largest: a position table
    // added to the decoder's input is read by token, as beside the first.
    SmallVector<unsigned> inAll;
    for (unsigned arg : group.front())
      if (group[1].contains(arg) && group[2].contains(arg))
        inAll.push_back(arg);
    int64_t largest = -1;
    for (unsigned arg : inAll)
      largest = std::max(largest, elements(arg));
    for (unsigned arg : inAll) {
      ArrayRef<int64_t> argDims = result.reached[arg];
      if (elements(arg) == largest && argDims.size() == 1 &&
          !llvm::is_contained(result.otherSequences,
                              std::make_pair(arg, argDims.front())))
        result.otherSequences.push_back({arg, argDims.front()});
    }
  }
  llvm::sort(result.otherSequences);
  return result;
}
