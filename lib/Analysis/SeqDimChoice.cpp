//===- SeqDimChoice.cpp - which argument dim is the sequence --------------===//

#include "seqpar/Analysis/SeqDimChoice.h"

#include "seqpar/Analysis/AttentionMatch.h"
#include "seqpar/Analysis/TokenWiseAnalysis.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"

using namespace mlir;
using namespace mlir::seqpar;

SmallVector<AttentionTokens>
mlir::seqpar::findAttentionTokens(func::FuncOp func) {
  SmallVector<AttentionTokens> tokens;
  collectSeqParAttentionTokens(func, tokens);
  func.walk([&](linalg::LinalgOp pv) {
    if (pv.getNumDpsInputs() != 2 || pv->getNumResults() != 1)
      return;
    std::string why;
    FailureOr<AttentionMatch> match = matchAttention(pv, why);
    if (failed(match))
      return;
    for (const HeadsOperand *operand :
         {&match->query, &match->key, &match->value})
      tokens.push_back({operand->value, operand->perm[2], pv});
  });
  return tokens;
}

/// "dim 1 of argument #0 of type 'tensor<2x16x64xf32>'".
static std::string describeArgDim(func::FuncOp func, unsigned arg,
                                  int64_t dim) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "dim " << dim << " of argument #" << arg << " of type '"
     << func.getArgument(arg).getType() << "'";
  return text;
}

/// Gives the integer arguments typed exactly as argument `arg` (token ids:
/// labels, masks, token-type ids of the same [b, s]) its sequence dim, and
/// returns their numbers. A training graph's labels reach no attention.
static SmallVector<unsigned>
alignTokenArguments(func::FuncOp func, unsigned arg, ArgSeqDims &choice) {
  SmallVector<unsigned> aligned;
  auto type = dyn_cast<RankedTensorType>(func.getArgument(arg).getType());
  if (!type || !type.getElementType().isSignlessInteger())
    return aligned;
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    if (i == arg || choice.dims[i] >= 0 ||
        func.getArgument(i).getType() != type)
      continue;
    choice.dims[i] = choice.dims[arg];
    choice.digits[i] = choice.digits[arg];
    aligned.push_back(i);
  }
  return aligned;
}

/// Takes the dim `dim` of argument `arg` as a sequence, with the token
/// digit `inferred` followed it back to where its dim holds the tokens
/// flattened with other dims ([b*s, h] or [s*b, h]).
static void takeSequence(const SeqDimInference &inferred, unsigned arg,
                         int64_t dim, ArgSeqDims &choice) {
  choice.dims[arg] = dim;
  if (auto it = inferred.tokens.find({arg, dim});
      it != inferred.tokens.end() &&
      (it->second.outer > 1 || it->second.inner > 1))
    choice.digits[arg] = it->second;
}

/// ", and of argument #1 (typed as it: token ids)".
static std::string describeAligned(ArrayRef<unsigned> aligned) {
  if (aligned.empty())
    return "";
  std::string text = ", and the same dim of argument";
  text += aligned.size() > 1 ? "s" : "";
  for (auto [i, arg] : llvm::enumerate(aligned))
    text += (i ? ", #" : " #") + std::to_string(arg);
  return text + " (integers of the same type: token-aligned)";
}

/// The token sequences `inferred` found besides `first` (the chosen
/// argument dim): its first sequence and its other sequences, but `first`.
/// None when `first` is not one of them (an option naming another dim).
static SmallVector<std::pair<unsigned, int64_t>>
sequencesBeside(const SeqDimInference &inferred,
                std::pair<unsigned, int64_t> first) {
  SmallVector<std::pair<unsigned, int64_t>> all(inferred.otherSequences);
  all.push_back({unsigned(inferred.argNumber), inferred.dim});
  if (!llvm::is_contained(all, first))
    return {};
  llvm::erase(all, first);
  return all;
}

/// Adds the token sequences `inferred` found besides `first` (an
/// encoder-decoder's decoder input beside its encoder input) to `choice`,
/// each with its own token digit and length, when they are split as it is;
/// says in `remark` which it added and why any other stays as it is. Every
/// rank then holds one block of each, and a cross-attention attends the
/// other's blocks like a self-attention (docs/context-parallelism.md,
/// "Encoder-decoder: two sequences").
static void addOtherSequences(func::FuncOp func,
                              const SeqDimInference &inferred,
                              std::pair<unsigned, int64_t> first,
                              ArgSeqDims &choice, InFlightDiagnostic &remark) {
  auto tokensOf = [&](unsigned arg, int64_t dim) {
    return inferred.tokens.lookup({arg, dim}).extent;
  };
  // How a rewrite before this one split the dim (CP before SP): sequences
  // split differently hold different tokens per rank.
  auto splitOf = [&](unsigned arg, int64_t dim) {
    ShardingAttr sharding = getArgSharding(func, arg);
    return sharding ? sharding.getDimSharding(dim) : DimShardingAttr();
  };
  int64_t tokens = tokensOf(first.first, first.second);
  DimShardingAttr split = splitOf(first.first, first.second);
  for (auto [arg, dim] : sequencesBeside(inferred, first)) {
    if (choice.dims[arg] >= 0)
      continue;
    if (splitOf(arg, dim) != split) {
      remark << "; " << describeArgDim(func, arg, dim)
             << ", the tokens of a self-attention that reads none of the "
                "first, stays as it is: it is not split as the first is";
      continue;
    }
    takeSequence(inferred, arg, dim, choice);
    remark << "; a second sequence, the tokens of a self-attention that reads "
              "none of the first: "
           << describeArgDim(func, arg, dim)
           << describeFlattening(choice.digits[arg]);
    if (int64_t own = tokensOf(arg, dim); own != tokens)
      remark << (choice.digits[arg].extent > 0
                     ? " (the first has " + std::to_string(tokens) + ")"
                     : " (" + std::to_string(own) + " tokens, the first " +
                           std::to_string(tokens) + ")");
    remark << describeAligned(alignTokenArguments(func, arg, choice));
  }
}

ArgSeqDims mlir::seqpar::chooseArgSeqDims(func::FuncOp func,
                                          int64_t optionSeqDim) {
  ArgSeqDims choice;
  choice.dims = getArgSeqDims(func, optionSeqDim);
  choice.digits.assign(choice.dims.size(), StridedDim());
  bool fromAttribute =
      llvm::any_of(llvm::seq(func.getNumArguments()), [&](unsigned i) {
        return func.getArgAttr(i, SeqParDialect::kSeqDimAttrName) != nullptr;
      });
  if (!choice.any() && optionSeqDim >= 0) {
    // An explicit option that names nothing is not silently replaced.
    int64_t maxRank = -1;
    for (Type type : func.getArgumentTypes())
      if (auto ranked = dyn_cast<RankedTensorType>(type))
        maxRank = std::max(maxRank, ranked.getRank());
    llvm::raw_string_ostream os(choice.whyNone);
    os << "the seq-dim=" << optionSeqDim
       << " option applies to the first tensor argument of rank > "
       << optionSeqDim << ", and @" << func.getSymName() << " has none";
    if (maxRank >= 0)
      os << " (its tensor arguments have rank " << maxRank << " at most)";
    return choice;
  }
  if (func.getBody().empty()) {
    choice.whyNone = "it has no body";
    return choice;
  }
  if (choice.any() && !fromAttribute) {
    unsigned given = llvm::find_if(choice.dims, [](int64_t d) {
                       return d >= 0;
                     }) - choice.dims.begin();
    SmallVector<unsigned> aligned = alignTokenArguments(func, given, choice);
    if (!aligned.empty())
      emitRemark(func.getLoc())
          << "sequence dim: the seq-dim=" << optionSeqDim << " option names "
          << describeArgDim(func, given, optionSeqDim)
          << describeAligned(aligned);
  }
  SeqDimInference inferred = inferSeqDim(func, findAttentionTokens(func));
  if (choice.any()) {
    // A given dim that holds the attention's tokens flattened with other
    // dims ([b*s, h]) keeps the token digit they were followed along.
    for (auto [arg, dim] : llvm::enumerate(choice.dims))
      if (dim >= 0 && inferred.tokens.contains({arg, dim}))
        takeSequence(inferred, arg, dim, choice);
    if (!inferred.succeeded())
      return choice;
    unsigned given = inferred.argNumber;
    if (choice.dims[given] < 0)
      given = llvm::find_if(choice.dims, [](int64_t d) { return d >= 0; }) -
              choice.dims.begin();
    // The option names the dim of the first argument of larger rank; when
    // that is one of the sequences the attention reads, the others join it.
    // The attributes name every sequence themselves.
    std::pair<unsigned, int64_t> named{given, choice.dims[given]};
    if (!fromAttribute && !sequencesBeside(inferred, named).empty()) {
      InFlightDiagnostic remark = emitRemark(func.getLoc());
      remark << "sequence dim: the seq-dim=" << optionSeqDim << " option names "
             << describeArgDim(func, given, choice.dims[given]);
      addOtherSequences(func, inferred, named, choice, remark);
      return choice;
    }
    if (choice.dims[inferred.argNumber] == inferred.dim)
      return choice;
    std::string source =
        fromAttribute
            ? std::string("the seqpar.seq_dim attribute")
            : "the seq-dim=" + std::to_string(optionSeqDim) + " option";
    emitRemark(func.getLoc())
        << "sequence dim: " << source << " names "
        << describeArgDim(func, given, choice.dims[given])
        << ", but the attention reads its tokens from "
        << describeArgDim(func, inferred.argNumber, inferred.dim)
        << "; the given dim is used";
    return choice;
  }
  if (!inferred.succeeded()) {
    // Two token sequences (an encoder's and a decoder's) read by the
    // attentions, split along their tokens by an earlier rewrite (CP,
    // before SP on the TP axis): the split ones are the sequences, one or
    // both, each at one dim (docs/context-parallelism.md, "TP x CP").
    SmallVector<std::pair<unsigned, int64_t>> split;
    bool unique = inferred.reached.size() >= 2;
    for (auto &[arg, dims] : inferred.reached) {
      ShardingAttr sharding = getArgSharding(func, arg);
      int64_t splitDims = 0;
      for (int64_t dim : dims)
        if (sharding && sharding.getDimSharding(dim)) {
          ++splitDims;
          split.push_back({arg, dim});
        }
      unique &= splitDims <= 1;
    }
    if (!split.empty() && unique) {
      InFlightDiagnostic remark = emitRemark(func.getLoc());
      remark << "sequence dim: the attention reads tokens from "
             << inferred.reached.size() << " arguments; ";
      for (auto [i, argDim] : llvm::enumerate(split)) {
        choice.dims[argDim.first] = argDim.second;
        remark << (i ? " and " : "")
               << describeArgDim(func, argDim.first, argDim.second);
      }
      remark << (split.size() > 1 ? " are" : " is")
             << " split along them already";
      for (auto [arg, dim] : split)
        remark << describeAligned(alignTokenArguments(func, arg, choice));
      return choice;
    }
    choice.whyNone = "none is given (a seqpar.seq_dim argument attribute or "
                     "the 'seq-dim' option) and it cannot be inferred: " +
                     inferred.why;
    return choice;
  }
  takeSequence(inferred, inferred.argNumber, inferred.dim, choice);
  SmallVector<unsigned> aligned =
      alignTokenArguments(func, inferred.argNumber, choice);
  InFlightDiagnostic remark = emitRemark(func.getLoc());
  remark << "sequence dim inferred from the attention: "
         << describeArgDim(func, inferred.argNumber, inferred.dim)
         << describeFlattening(choice.digits[inferred.argNumber])
         << describeAligned(aligned);
  for (unsigned arg : inferred.smallerTie) {
    // A tie with another sequence (an encoder-decoder's two inputs after
    // CP) is said by addOtherSequences below.
    if (llvm::any_of(inferred.otherSequences,
                     [&](auto other) { return other.first == arg; }))
      continue;
    remark << " (argument #" << arg << " of type "
           << func.getArgument(arg).getType()
           << " reaches as many attention operands and has fewer elements: "
              "a table read by token, not the sequence)";
  }
  addOtherSequences(func, inferred, {inferred.argNumber, inferred.dim}, choice,
                    remark);
  return choice;
}

ArgSeqDims mlir::seqpar::keepShardableLengths(func::FuncOp func,
                                              const ArgSeqDims &dims,
                                              int64_t pieces, StringRef rewrite,
                                              StringRef piecesText) {
  ArgSeqDims kept = dims;
  auto lengthOf = [&](unsigned arg) -> int64_t {
    if (kept.digits[arg].extent > 0)
      return kept.digits[arg].extent;
    auto type = dyn_cast<RankedTensorType>(func.getArgument(arg).getType());
    int64_t dim = kept.dims[arg];
    if (!type || dim >= type.getRank() || type.isDynamicDim(dim))
      return -1; // The token-wise analysis reports it.
    return type.getDimSize(dim);
  };
  auto divides = [&](int64_t length) {
    return length > 0 && length % pieces == 0;
  };
  SmallVector<int64_t> lengths;
  for (unsigned arg = 0; arg < kept.dims.size(); ++arg)
    if (int64_t length = kept.dims[arg] >= 0 ? lengthOf(arg) : -1;
        length > 0 && !llvm::is_contained(lengths, length))
      lengths.push_back(length);
  if (lengths.size() < 2 || llvm::all_of(lengths, divides))
    return kept;
  // The lengths that divide are sharded; when none does, the first alone
  // (padded where asked, else refused by the rewrite).
  bool anyDivides = llvm::any_of(lengths, divides);
  auto tokens = [](int64_t n) {
    return std::to_string(n) + (n == 1 ? " token" : " tokens");
  };
  for (unsigned arg = 0; arg < kept.dims.size(); ++arg) {
    int64_t length = kept.dims[arg] >= 0 ? lengthOf(arg) : -1;
    if (length <= 0 || (anyDivides ? divides(length) : length == lengths[0]))
      continue;
    InFlightDiagnostic remark = emitRemark(func.getArgument(arg).getLoc());
    remark << rewrite << ": dim " << kept.dims[arg] << " of argument #" << arg
           << " (a sequence of " << tokens(length) << ") stays whole: ";
    if (anyDivides)
      remark << "it does not divide into the " << piecesText
             << ", and sequences of other lengths do (a sequence that needs "
                "padding is sharded alone)";
    else
      remark << "no sequence length divides into the " << piecesText
             << ", and only the first sequence (" << tokens(lengths[0])
             << ") is sharded, padded";
    kept.dims[arg] = -1;
  }
  return kept;
}

std::string mlir::seqpar::whyInvalidSeqDimOption(int64_t seqDim) {
  if (seqDim >= -1)
    return "";
  return "seq-dim=" + std::to_string(seqDim) +
         " is not a dim: expected a dim >= 0, or -1 (the default) to infer it "
         "from the attention";
}
