//===- TokenWiseAnalysis.cpp - which ops can run on a sequence shard ------===//

#include "seqpar/Analysis/TokenWiseAnalysis.h"
#include "seqpar/Analysis/Contraction.h"

#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Traits.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::seqpar;

using Kind = TokenWiseInfo::Kind;

bool mlir::seqpar::isEffectFreeButChecks(Operation *op) {
  return !op
              ->walk([](Operation *nested) {
                if (isa<cf::AssertOp>(nested))
                  return WalkResult::advance();
                if (auto effects = dyn_cast<MemoryEffectOpInterface>(nested))
                  return effects.hasNoEffect() ? WalkResult::advance()
                                               : WalkResult::interrupt();
                return nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>()
                           ? WalkResult::advance()
                           : WalkResult::interrupt();
              })
              .wasInterrupted();
}

SmallVector<int64_t> mlir::seqpar::getArgSeqDims(func::FuncOp func,
                                                 int64_t optionSeqDim) {
  SmallVector<int64_t> dims(func.getNumArguments(), -1);
  bool anyAttr = false;
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    if (auto attr = func.getArgAttrOfType<IntegerAttr>(
            i, SeqParDialect::kSeqDimAttrName)) {
      dims[i] = attr.getInt();
      anyAttr = true;
    }
  }
  if (anyAttr || optionSeqDim < 0)
    return dims;
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    auto type = dyn_cast<RankedTensorType>(func.getArgument(i).getType());
    if (type && type.getRank() > optionSeqDim) {
      dims[i] = optionSeqDim;
      break;
    }
  }
  return dims;
}

TokenWiseAnalysis::TokenWiseAnalysis(func::FuncOp func,
                                     ArrayRef<int64_t> argSeqDims,
                                     ArrayRef<StridedDim> argDigits)
    : func(func), argSeqDims(argSeqDims), argDigits(argDigits) {}

std::optional<StridedDim> TokenWiseAnalysis::getSeqDim(Value value) const {
  auto it = seqDims.find(value);
  if (it == seqDims.end())
    return std::nullopt;
  return it->second;
}

const TokenWiseInfo &TokenWiseAnalysis::getInfo(Operation *op) const {
  auto it = infos.find(op);
  return it == infos.end() ? noSequence : it->second;
}

void TokenWiseAnalysis::setSeqDim(Value value, StridedDim seqDim) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  // Only static dims that really hold the whole sequence digit qualify.
  if (!type || seqDim.dim < 0 || seqDim.inner <= 0 || seqDim.extent <= 0 ||
      seqDim.dim >= type.getRank() || type.isDynamicDim(seqDim.dim) ||
      type.getDimSize(seqDim.dim) % (seqDim.extent * seqDim.inner) != 0)
    return;
  seqDim.outer = type.getDimSize(seqDim.dim) / (seqDim.extent * seqDim.inner);
  seqDims[value] = seqDim;
}

SmallVector<SequenceBlock> mlir::seqpar::findSequenceBlocks(func::FuncOp func) {
  SmallVector<SequenceBlock> blocks;
  if (func.getBody().empty())
    return blocks;
  for (Operation &op : func.getBody().front()) {
    // The dialect verifier checked the shape of the attribute.
    auto marker = op.getAttrOfType<DenseI64ArrayAttr>(
        SeqParDialect::kSequenceBlockAttrName);
    if (!marker || marker.size() != 3 || op.getNumResults() != 1)
      continue;
    blocks.push_back(
        {op.getResult(0), StridedDim{marker[0], marker[2], 1, marker[1]}});
  }
  return blocks;
}

LogicalResult TokenWiseAnalysis::run() {
  SmallVector<SequenceBlock> blocks = findSequenceBlocks(func);
  // Blocks of two lengths: an encoder-decoder's two sequences.
  for (const SequenceBlock &block : blocks)
    if (!llvm::is_contained(seqLens, block.seq.extent))
      seqLens.push_back(block.seq.extent);
  SmallVector<int64_t> blockLens(seqLens);
  if (!seqLens.empty())
    seqLen = seqLens.front();
  // The arguments the sequence starts at, and their layout.
  SmallVector<std::pair<unsigned, StridedDim>> seeds;
  for (auto [index, dim] : llvm::enumerate(argSeqDims)) {
    if (dim < 0)
      continue;
    auto type = dyn_cast<RankedTensorType>(func.getArgument(index).getType());
    if (!type || dim >= type.getRank())
      return emitError(func.getArgument(index).getLoc())
             << "sequence dim " << dim << " of argument #" << index
             << " is out of range for " << func.getArgument(index).getType();
    if (type.isDynamicDim(dim))
      return emitError(func.getArgument(index).getLoc())
             << "argument #" << index << " has a dynamic sequence length ("
             << type << ", dim " << dim
             << "); sequence parallelism needs a static length";
    int64_t length = type.getDimSize(dim);
    if (length == 0)
      return emitError(func.getArgument(index).getLoc())
             << "argument #" << index << " has an empty sequence (" << type
             << ", dim " << dim << ")";
    // A flattened dim ([b*s, h]) holds fewer tokens than elements.
    StridedDim seq{dim, 1, 1, length};
    if (index < argDigits.size() && argDigits[index].extent > 0) {
      seq = argDigits[index];
      if (seq.dim != dim || length % (seq.inner * seq.extent) != 0)
        return emitError(func.getArgument(index).getLoc())
               << "argument #" << index << ": " << seq.extent
               << " tokens at stride " << seq.inner << " do not tile dim "
               << dim << " of " << type;
      length = seq.extent;
    }
    // Beside blocks, an argument of another length holds the whole sequence
    // the blocks are taken from (a padded context-parallel program).
    if (!blockLens.empty() && !llvm::is_contained(blockLens, length))
      continue;
    // Arguments of other lengths are other sequences (an encoder-decoder's
    // two inputs): each value carries its own sequence's length.
    if (seqLen < 0)
      seqLen = length;
    if (!llvm::is_contained(seqLens, length))
      seqLens.push_back(length);
    seeds.push_back({index, seq});
  }
  if (seqLen < 0 || func.getBody().empty())
    return success();
  for (auto [index, seq] : seeds)
    setSeqDim(func.getArgument(index), seq);
  DenseMap<Value, StridedDim> blockSeeds;
  for (const SequenceBlock &block : blocks)
    blockSeeds[block.value] = block.seq;
  classifyBody(blockSeeds);
  return success();
}

void TokenWiseAnalysis::classifyBody(const DenseMap<Value, StridedDim> &seeds) {
  for (Operation &op : func.getBody().front()) {
    TokenWiseInfo info = classify(&op);
    if (info.kind != Kind::NoSequence)
      infos[&op] = std::move(info);
    // A block's producer reads the whole sequence (it takes the block out
    // of it): the sequence starts at its result.
    if (op.getNumResults() == 1)
      if (auto seed = seeds.find(op.getResult(0)); seed != seeds.end())
        setSeqDim(seed->first, seed->second);
  }
}

//===----------------------------------------------------------------------===//
// Per-op rules
//===----------------------------------------------------------------------===//

static TokenWiseInfo notTokenWise(Kind kind, const Twine &reason) {
  TokenWiseInfo info;
  info.kind = kind;
  info.reason = reason.str();
  return info;
}

/// True when `v`, computed in a linalg body, depends on `linalg.index` of
/// `loop`.
static bool dependsOnIndex(Value v, int64_t loop, Block *body) {
  SmallVector<Value> work{v};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value w = work.pop_back_val();
    Operation *def = w.getDefiningOp();
    if (!seen.insert(w).second || !def || def->getBlock() != body)
      continue;
    if (auto index = dyn_cast<linalg::IndexOp>(def);
        index && static_cast<int64_t>(index.getDim()) == loop)
      return true;
    llvm::append_range(work, def->getOperands());
  }
  return false;
}

/// Sequence-carrying values the body of `op` reads from above (see
/// TokenWiseInfo::capturedDims): each must be read by `tensor.extract` at
/// `linalg.index` of the sequence loop along its sequence dim, the loop
/// spanning that dim, and no other index may depend on the position.
/// Returns why not, or none (filling `info.capturedDims`).
static std::optional<std::string>
classifyCaptures(linalg::LinalgOp op, const TokenWiseAnalysis &analysis,
                 StridedDim loopSeq, TokenWiseInfo &info) {
  std::optional<std::string> why;
  Block *body = op.getBlock();
  // Computed at the first capture: most bodies read nothing from above, and
  // the loop ranges cost an inversion of the op's indexing maps.
  std::optional<SmallVector<int64_t>> ranges;
  op->walk([&](Operation *nested) {
    if (nested == op.getOperation())
      return;
    for (OpOperand &use : nested->getOpOperands()) {
      Value v = use.get();
      std::optional<StridedDim> seq = analysis.getSeqDim(v);
      if (why || !seq || op->isAncestor(v.getParentBlock()->getParentOp()))
        continue;
      auto extract = dyn_cast<tensor::ExtractOp>(nested);
      if (!extract || use.getOperandNumber() != 0 ||
          nested->getBlock() != body) {
        why = "reads a sequence-carrying value inside its body other than "
              "by a tensor.extract";
        continue;
      }
      auto index = extract.getIndices()[seq->dim].getDefiningOp<linalg::IndexOp>();
      auto type = cast<RankedTensorType>(v.getType());
      if (!ranges)
        ranges = op.getStaticLoopRanges();
      if (!index || static_cast<int64_t>(index.getDim()) != info.seqLoop ||
          seq->inner != loopSeq.inner || seq->extent != loopSeq.extent ||
          info.seqLoop >= static_cast<int64_t>(ranges->size()) ||
          type.getDimSize(seq->dim) != (*ranges)[info.seqLoop]) {
        why = "extracts from a sequence-carrying value at a position other "
              "than the token its sequence loop visits";
        continue;
      }
      for (auto [d, other] : llvm::enumerate(extract.getIndices()))
        if (static_cast<int64_t>(d) != seq->dim &&
            dependsOnIndex(other, info.seqLoop, body))
          why = "extracts from a sequence-carrying value at an index "
                "computed from the token's position";
      info.capturedDims.push_back({&use, seq->dim});
    }
  });
  return why;
}

/// Linalg ops: the sequence dim of every sequence-carrying operand must be
/// indexed by the same parallel loop L, through a plain `dL` result of its
/// map; no map may use L inside a compound expression. Results keep the
/// sequence where their init map puts L.
static TokenWiseInfo classifyLinalg(linalg::LinalgOp op,
                                    const TokenWiseAnalysis &analysis,
                                    SmallVectorImpl<StridedDim> &resultDims) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  TokenWiseInfo info;
  info.kind = Kind::TokenWise;
  std::optional<StridedDim> loopSeq;
  std::string mixReason;
  // Operands may carry the sequence along different loops: the logits read
  // the queries along one loop and the keys along another, and P.V the
  // queries through P and the keys through V. Such an op mixes tokens
  // whichever loop is taken, but the loop decides where its result carries
  // the sequence. Take a loop the first result keeps (parallel, a plain dim
  // of its init's map), the outermost one there ([.., queries, keys] is the
  // logits' layout, so the queries' dim), so that an attention left
  // unraised hands the queries' sequence on to the o-projection's
  // all_reduce whichever operand the exporter wrote first (K.Q^T, V^T.P^T;
  // docs/sequence-parallel.md). Without one, the first operand's loop.
  if (op.getNumDpsInits() > 0) {
    AffineMap initMap = maps[op.getDpsInitOperand(0)->getOperandNumber()];
    unsigned outermost = initMap.getNumResults();
    for (OpOperand &operand : op->getOpOperands()) {
      std::optional<StridedDim> seq = analysis.getSeqDim(operand.get());
      AffineMap map = maps[operand.getOperandNumber()];
      if (!seq || seq->dim >= static_cast<int64_t>(map.getNumResults()))
        continue;
      auto dimExpr = dyn_cast<AffineDimExpr>(map.getResult(seq->dim));
      if (!dimExpr ||
          iterators[dimExpr.getPosition()] != utils::IteratorType::parallel)
        continue;
      std::optional<unsigned> kept = initMap.getResultPosition(dimExpr);
      if (kept && *kept < outermost) {
        outermost = *kept;
        info.seqLoop = dimExpr.getPosition();
        loopSeq = seq;
      }
    }
  }
  // Inputs that read the sequence along another loop: with them whole the
  // op may still be token-wise along `seqLoop` (TokenWiseInfo::
  // wholeOperands). False once any other mixing is seen.
  SmallVector<unsigned> otherLoopInputs;
  bool onlyOtherLoops = true;
  for (OpOperand &operand : op->getOpOperands()) {
    std::optional<StridedDim> seq = analysis.getSeqDim(operand.get());
    if (!seq)
      continue;
    AffineMap map = maps[operand.getOperandNumber()];
    auto dimExpr = dyn_cast<AffineDimExpr>(map.getResult(seq->dim));
    if (!dimExpr) {
      if (mixReason.empty())
        mixReason = "operand #" + std::to_string(operand.getOperandNumber()) +
                    " indexes the sequence with a compound expression";
      onlyOtherLoops = false;
      continue;
    }
    int64_t loop = dimExpr.getPosition();
    if (info.seqLoop < 0) {
      info.seqLoop = loop;
      loopSeq = seq;
    } else if (loop != info.seqLoop || seq->inner != loopSeq->inner ||
               seq->extent != loopSeq->extent) {
      if (mixReason.empty())
        mixReason =
            "operand #" + std::to_string(operand.getOperandNumber()) +
            (loop == info.seqLoop && seq->extent != loopSeq->extent
                 ? " carries another sequence along loop d" +
                       std::to_string(loop) + " (" +
                       std::to_string(seq->extent) + " tokens, not " +
                       std::to_string(loopSeq->extent) + ")"
                 : " reads other tokens (its sequence dim follows loop d" +
                       std::to_string(loop) + ", not d" +
                       std::to_string(info.seqLoop) + ")");
      if (loop != info.seqLoop && op.isDpsInput(&operand) &&
          !map.isFunctionOfDim(info.seqLoop))
        otherLoopInputs.push_back(operand.getOperandNumber());
      else
        onlyOtherLoops = false;
    }
  }
  if (info.seqLoop < 0) {
    // No operand carries the sequence, but the body may read a value that
    // does at the token a loop visits (a cross-entropy over labels that
    // lost their sequence dim to a shift): that loop is the sequence loop.
    op->walk([&](tensor::ExtractOp extract) {
      std::optional<StridedDim> seq = analysis.getSeqDim(extract.getTensor());
      if (info.seqLoop >= 0 || !seq ||
          op->isAncestor(extract.getTensor().getParentBlock()->getParentOp()))
        return;
      if (auto index = extract.getIndices()[seq->dim]
                           .getDefiningOp<linalg::IndexOp>()) {
        info.seqLoop = index.getDim();
        loopSeq = seq;
      }
    });
  }
  if (info.seqLoop < 0)
    return notTokenWise(Kind::NotTokenWise, mixReason);

  // Where each operand places loop L, and whether L is used in a compound
  // expression anywhere.
  for (auto [index, map] : llvm::enumerate(maps)) {
    int64_t position = -1;
    for (auto [resultIndex, expr] : llvm::enumerate(map.getResults())) {
      if (auto dimExpr = dyn_cast<AffineDimExpr>(expr)) {
        if (dimExpr.getPosition() == info.seqLoop) {
          if (position >= 0) {
            onlyOtherLoops = false;
            if (mixReason.empty())
              mixReason = "operand #" + std::to_string(index) +
                          " indexes the sequence loop twice";
          }
          position = resultIndex;
        }
      } else if (expr.isFunctionOfDim(info.seqLoop)) {
        onlyOtherLoops = false;
        if (mixReason.empty())
          mixReason = "operand #" + std::to_string(index) +
                      " indexes the sequence loop with a compound expression";
      }
    }
    info.operandDims.push_back(position);
  }
  // Results follow the sequence where their init indexes L (also for ops
  // that are not token-wise, so the sequence reaches the all-reduces after
  // attention).
  bool parallel = iterators[info.seqLoop] == utils::IteratorType::parallel;
  std::string resultReason;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    int64_t position = info.operandDims[init.getOperandNumber()];
    resultDims.push_back(
        parallel && position >= 0
            ? StridedDim{position, loopSeq->inner, 1, loopSeq->extent}
            : StridedDim{});
    if (position < 0 && resultReason.empty())
      resultReason = "result #" + std::to_string(resultDims.size() - 1) +
                     " does not keep the sequence dim";
  }
  // Mixing only through inputs read along other loops, none of which
  // indexes L, with L parallel and kept: token-wise once they are whole,
  // if the checks below pass too (else the mixing is the reason).
  bool wholeInputsSuffice = !mixReason.empty() && onlyOtherLoops &&
                            !otherLoopInputs.empty() && parallel &&
                            resultReason.empty();
  if (!mixReason.empty() && !wholeInputsSuffice)
    return notTokenWise(Kind::NotTokenWise, mixReason);
  if (std::optional<std::string> why =
          classifyCaptures(op, analysis, *loopSeq, info))
    return wholeInputsSuffice ? notTokenWise(Kind::NotTokenWise, mixReason)
                              : notTokenWise(Kind::Unknown, *why);
  DenseSet<OpOperand *> localIndices = info.capturedIndexOperands();
  op.getBlock()->walk([&](linalg::IndexOp index) {
    if (static_cast<int64_t>(index.getDim()) != info.seqLoop)
      return;
    for (OpOperand &use : index->getUses())
      info.positionDependent |= !localIndices.contains(&use);
  });
  if (!isEffectFreeButChecks(op))
    return wholeInputsSuffice
               ? notTokenWise(Kind::NotTokenWise, mixReason)
               : notTokenWise(Kind::Unknown, "has memory effects");
  if (wholeInputsSuffice) {
    info.kind = Kind::NotTokenWise;
    info.reason = mixReason;
    info.wholeOperands = std::move(otherLoopInputs);
    return info;
  }
  if (!parallel) {
    // A reduction loop that a result still indexes: not a reduction of the
    // whole sequence (whose result is global), and not proven token-wise.
    for (auto [resultIndex, init] : llvm::enumerate(op.getDpsInitsMutable()))
      if (info.operandDims[init.getOperandNumber()] >= 0)
        return notTokenWise(
            Kind::NotTokenWise,
            "reduces over the sequence loop d" + Twine(info.seqLoop) +
                " but keeps it in result #" + Twine(resultIndex));
    // Every operand reads the sequence through loop L and L is reduced: the
    // result is the combination of per-shard partial results.
    info.kind = Kind::NotTokenWise;
    info.reason = "reduces over the sequence (loop d" +
                  std::to_string(info.seqLoop) + ")";
    info.reducesSequence = true;
    return info;
  }
  if (!resultReason.empty())
    return notTokenWise(Kind::NotTokenWise, resultReason);
  return info;
}

bool mlir::seqpar::spansWholeDim(OffsetSizeAndStrideOpInterface slice,
                                 int64_t dim, int64_t full) {
  return getConstantIntValue(slice.getMixedOffsets()[dim]) == 0 &&
         getConstantIntValue(slice.getMixedSizes()[dim]) == full &&
         getConstantIntValue(slice.getMixedStrides()[dim]) == 1;
}

std::string mlir::seqpar::describeFlattening(StridedDim seq) {
  if (seq.outer <= 1 && seq.inner <= 1)
    return "";
  std::string text = ", which flattens ";
  if (seq.outer > 1)
    text += std::to_string(seq.outer) + " sequences of ";
  text += std::to_string(seq.extent) + " tokens";
  if (seq.inner > 1)
    text += " of " + std::to_string(seq.inner) + " rows each";
  return text;
}

std::optional<std::pair<int64_t, int64_t>>
mlir::seqpar::findSeqInExpansion(ArrayRef<int64_t> sizes, int64_t inner,
                                 int64_t seqLen) {
  int64_t stride = 1;
  for (int64_t j = static_cast<int64_t>(sizes.size()) - 1; j >= 0; --j) {
    if (ShapedType::isDynamic(sizes[j]))
      return std::nullopt;
    if (inner % stride == 0 && (stride * sizes[j]) % (seqLen * inner) == 0)
      return std::make_pair(j, inner / stride);
    stride *= sizes[j];
  }
  return std::nullopt;
}

TokenWiseInfo TokenWiseAnalysis::classify(Operation *op) {
  // Collect which operands carry the sequence.
  bool anySeq = false;
  for (Value operand : op->getOperands())
    anySeq |= seqDims.count(operand) > 0;
  bool capturesSeq = false;
  if (op->getNumRegions() > 0) {
    op->walk([&](Operation *nested) {
      if (nested == op)
        return;
      for (Value operand : nested->getOperands())
        capturesSeq |= seqDims.count(operand) > 0 &&
                       !op->isAncestor(operand.getParentBlock()->getParentOp());
    });
  }
  if (!anySeq && !capturesSeq)
    return noSequence;
  // A linalg body may read the sequence from above at the token it visits
  // (classifyCaptures).
  if (capturesSeq && !isa<linalg::LinalgOp>(op))
    return notTokenWise(Kind::Unknown,
                        "has regions that use a sequence-carrying value");

  auto operandSeq = [&](unsigned index) { return getSeqDim(op->getOperand(index)); };
  // An attention operand [b, a, s, d] whose dim 2 holds its sequence's
  // tokens: that sequence, which the results it follows keep.
  auto attentionTokens = [&](unsigned index) -> std::optional<StridedDim> {
    std::optional<StridedDim> operand = operandSeq(index);
    if (!operand || operand->dim != 2 || operand->inner != 1)
      return std::nullopt;
    return operand;
  };

  // Linalg (named and generic).
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    SmallVector<StridedDim> resultDims;
    TokenWiseInfo info = classifyLinalg(linalgOp, *this, resultDims);
    for (auto [result, seq] : llvm::zip(op->getResults(), resultDims))
      if (seq.dim >= 0)
        setSeqDim(result, seq);
    return info;
  }

  TokenWiseInfo info;
  info.kind = Kind::TokenWise;
  info.operandDims.assign(op->getNumOperands(), -1);
  // Why operand `i`, laid out as `other`, does not line up with `seq`.
  auto otherDigit = [](unsigned i, StridedDim other, StridedDim seq) {
    std::string why = "operand #" + std::to_string(i);
    if (other.extent != seq.extent)
      return why + " carries another sequence (" +
             std::to_string(other.extent) + " tokens, not " +
             std::to_string(seq.extent) + ")";
    return why + " carries the sequence in another dim";
  };
  // The first `count` operands (concat's inputs, insert_slice's source and
  // destination) hold the sequence as `seq` where they hold it at all: they
  // get its dim; else the reason for the first that does not.
  auto sameSeqOperands = [&](StridedDim seq,
                             unsigned count) -> std::optional<TokenWiseInfo> {
    for (unsigned i = 0; i < count; ++i) {
      std::optional<StridedDim> other = operandSeq(i);
      if (other && !other->sameDigit(seq))
        return notTokenWise(Kind::NotTokenWise, otherDigit(i, *other, seq));
      info.operandDims[i] = seq.dim;
    }
    return std::nullopt;
  };

  // Elementwise ops on tensors (arith, math) and tosa's broadcasting
  // elementwise ops: every ranked operand of the result's rank lines up dim
  // for dim; a size-1 dim broadcasts.
  bool elementwise = op->hasTrait<OpTrait::Elementwise>() ||
                     op->hasTrait<OpTrait::ResultsBroadcastableShape>();
  if (elementwise && op->getNumResults() == 1) {
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    std::optional<StridedDim> seq;
    for (unsigned i = 0; i < op->getNumOperands(); ++i)
      if ((seq = operandSeq(i)))
        break;
    if (!resultType || !seq || !isEffectFreeButChecks(op))
      return notTokenWise(Kind::Unknown, "elementwise op not on tensors");
    for (unsigned i = 0; i < op->getNumOperands(); ++i) {
      auto type = dyn_cast<RankedTensorType>(op->getOperand(i).getType());
      if (!type)
        continue;
      if (type.getRank() != resultType.getRank())
        return notTokenWise(Kind::Unknown,
                            "operand #" + Twine(i) + " has another rank");
      std::optional<StridedDim> other = operandSeq(i);
      if (other && !other->sameDigit(*seq))
        return notTokenWise(Kind::NotTokenWise, otherDigit(i, *other, *seq));
      if (type.getDimSize(seq->dim) == resultType.getDimSize(seq->dim))
        info.operandDims[i] = seq->dim;
      else if (type.getDimSize(seq->dim) != 1)
        return notTokenWise(Kind::Unknown,
                            "operand #" + Twine(i) + " has a mismatched shape");
    }
    setSeqDim(op->getResult(0), *seq);
    return info;
  }

  return TypeSwitch<Operation *, TokenWiseInfo>(op)
      .Case<tensor::CollapseShapeOp>([&](tensor::CollapseShapeOp collapse) {
        StridedDim seq = *operandSeq(0);
        auto srcType = collapse.getSrcType();
        for (auto [group, dims] :
             llvm::enumerate(collapse.getReassociationIndices())) {
          if (!llvm::is_contained(dims, seq.dim))
            continue;
          int64_t inner = seq.inner;
          for (int64_t d : dims)
            if (d > seq.dim)
              inner *= srcType.getDimSize(d);
          info.operandDims[0] = seq.dim;
          setSeqDim(collapse.getResult(),
                    StridedDim{(int64_t)group, inner, 1, seq.extent});
        }
        return info;
      })
      .Case<tensor::ExpandShapeOp>([&](tensor::ExpandShapeOp expand) {
        StridedDim seq = *operandSeq(0);
        auto resultType = expand.getResultType();
        ReassociationIndices dims =
            expand.getReassociationIndices()[seq.dim];
        SmallVector<int64_t> sizes;
        for (int64_t d : dims)
          sizes.push_back(resultType.getDimSize(d));
        auto found = findSeqInExpansion(sizes, seq.inner, seq.extent);
        if (!found)
          return notTokenWise(Kind::NotTokenWise,
                              "splits the sequence across several dims");
        info.operandDims[0] = seq.dim;
        setSeqDim(expand.getResult(),
                  StridedDim{dims[found->first], found->second, 1, seq.extent});
        return info;
      })
      .Case<tensor::ExtractSliceOp>([&](tensor::ExtractSliceOp slice) {
        if (!operandSeq(0))
          return notTokenWise(Kind::Unknown, "sequence in a slice index");
        StridedDim seq = *operandSeq(0);
        if (!spansWholeDim(slice, seq.dim,
                           slice.getSourceType().getDimSize(seq.dim)))
          return notTokenWise(Kind::NotTokenWise,
                              "slices the sequence dim " + Twine(seq.dim));
        llvm::SmallBitVector dropped = slice.getDroppedDims();
        int64_t resultDim = 0;
        for (int64_t d = 0; d < seq.dim; ++d)
          resultDim += dropped.test(d) ? 0 : 1;
        info.operandDims[0] = seq.dim;
        setSeqDim(slice.getResult(),
                  StridedDim{resultDim, seq.inner, 1, seq.extent});
        return info;
      })
      .Case<tensor::InsertSliceOp>([&](tensor::InsertSliceOp insert) {
        // Token-wise when the slice spans the whole sequence dim of a
        // destination of the same rank (tosa.concat on another dim lowers
        // to such inserts).
        std::optional<StridedDim> seq =
            operandSeq(1) ? operandSeq(1) : operandSeq(0);
        if (!seq)
          return notTokenWise(Kind::Unknown, "sequence in a slice index");
        RankedTensorType destType = insert.getDestType();
        if (insert.getSourceType().getRank() != destType.getRank() ||
            !spansWholeDim(insert, seq->dim, destType.getDimSize(seq->dim)))
          return notTokenWise(Kind::NotTokenWise,
                              "inserts a part of the sequence dim " +
                                  Twine(seq->dim));
        if (std::optional<TokenWiseInfo> bad = sameSeqOperands(*seq, 2))
          return *bad;
        setSeqDim(insert.getResult(), *seq);
        return info;
      })
      .Case<tensor::ConcatOp>([&](tensor::ConcatOp concat) {
        std::optional<StridedDim> seq;
        for (unsigned i = 0; i < op->getNumOperands() && !seq; ++i)
          seq = operandSeq(i);
        if (static_cast<int64_t>(concat.getDim()) == seq->dim)
          return notTokenWise(Kind::NotTokenWise,
                              "concatenates along the sequence dim");
        if (std::optional<TokenWiseInfo> bad =
                sameSeqOperands(*seq, op->getNumOperands()))
          return *bad;
        setSeqDim(concat.getResult(), *seq);
        return info;
      })
      .Case<tensor::ExtractOp>([&](tensor::ExtractOp) {
        return notTokenWise(Kind::NotTokenWise,
                            "reads single elements by index");
      })
      .Case<tosa::TransposeOp>([&](tosa::TransposeOp transpose) {
        StridedDim seq = *operandSeq(0);
        info.operandDims[0] = seq.dim;
        for (auto [resultDim, inputDim] :
             llvm::enumerate(transpose.getPerms()))
          if (inputDim == seq.dim)
            setSeqDim(transpose.getResult(),
                      StridedDim{(int64_t)resultDim, seq.inner, 1, seq.extent});
        return info;
      })
      .Case<tosa::ReshapeOp>([&](tosa::ReshapeOp reshape) {
        if (!operandSeq(0))
          return notTokenWise(Kind::Unknown, "sequence in a shape operand");
        StridedDim seq = *operandSeq(0);
        auto srcType = cast<RankedTensorType>(reshape.getInput1().getType());
        auto resultType = cast<RankedTensorType>(reshape.getType());
        if (!srcType.hasStaticShape() || !resultType.hasStaticShape())
          return notTokenWise(Kind::Unknown, "dynamic reshape");
        // Flat stride of the sequence digit in the row-major source.
        int64_t stride = seq.inner;
        for (int64_t d = seq.dim + 1; d < srcType.getRank(); ++d)
          stride *= srcType.getDimSize(d);
        auto found =
            findSeqInExpansion(resultType.getShape(), stride, seq.extent);
        if (!found)
          return notTokenWise(Kind::NotTokenWise,
                              "splits the sequence across several dims");
        info.operandDims[0] = seq.dim;
        setSeqDim(reshape.getResult(),
                  StridedDim{found->first, found->second, 1, seq.extent});
        return info;
      })
      .Case<tosa::ReduceSumOp, tosa::ReduceMaxOp, tosa::ReduceMinOp,
            tosa::ReduceProductOp, tosa::ReduceAllOp, tosa::ReduceAnyOp>(
          [&](auto reduce) {
            StridedDim seq = *operandSeq(0);
            if (static_cast<int64_t>(reduce.getAxis()) == seq.dim)
              return notTokenWise(Kind::NotTokenWise,
                                  "reduces over the sequence");
            info.operandDims[0] = seq.dim;
            setSeqDim(reduce.getResult(), seq);
            return info;
          })
      .Case<tosa::MatMulOp>([&](tosa::MatMulOp matmul) {
        // [N, H, W] x [N, W, C]: tokens along H of A, or along the batch N
        // of both.
        std::optional<StridedDim> a = operandSeq(0), b = operandSeq(1);
        if (!a || a->dim == 2 ||
            (b && (b->dim != 0 || a->dim != 0 || !b->sameDigit(*a))))
          return notTokenWise(Kind::NotTokenWise,
                              "reads other tokens (contracts or mixes the "
                              "sequence)");
        info.operandDims[0] = a->dim;
        if (a->dim == 0)
          info.operandDims[1] = 0;
        setSeqDim(matmul.getResult(), *a);
        return info;
      })
      .Case<tensor::PadOp>([&](tensor::PadOp pad) {
        if (!operandSeq(0))
          return notTokenWise(Kind::Unknown, "sequence in a padding amount");
        StridedDim seq = *operandSeq(0);
        ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
        if (low[seq.dim] != 0 || high[seq.dim] != 0)
          return notTokenWise(Kind::NotTokenWise, "pads the sequence dim");
        if (!pad.getConstantPaddingValue())
          return notTokenWise(Kind::Unknown, "pads with a computed value");
        info.operandDims[0] = seq.dim;
        setSeqDim(pad.getResult(), seq);
        return info;
      })
      .Case<linalg::SoftmaxOp>([&](linalg::SoftmaxOp softmax) {
        if (!operandSeq(0))
          return notTokenWise(Kind::Unknown, "sequence only in the init");
        StridedDim seq = *operandSeq(0);
        setSeqDim(softmax.getResult()[0], seq);
        if (static_cast<int64_t>(softmax.getDimension()) == seq.dim)
          return notTokenWise(Kind::NotTokenWise,
                              "normalises along the sequence dim");
        info.operandDims[0] = seq.dim;
        info.operandDims[1] = seq.dim;
        return info;
      })
      .Case<DropoutOp>([&](DropoutOp dropout) {
        if (!operandSeq(0))
          return notTokenWise(Kind::Unknown, "sequence in an offset");
        info.operandDims[0] = operandSeq(0)->dim;
        info.positionDependent = true;
        setSeqDim(dropout.getResult(), *operandSeq(0));
        return info;
      })
      .Case<AttentionOp>([&](AttentionOp attention) {
        // Every query reads every key: not token-wise, but the output keeps
        // the queries' sequence dim (context parallelism rewrites the op).
        if (std::optional<StridedDim> queries = attentionTokens(0))
          setSeqDim(attention.getResult(), *queries);
        for (unsigned i = 0; i < 3; ++i)
          if (attentionTokens(i))
            info.operandDims[i] = 2;
        TokenWiseInfo mixing = notTokenWise(
            Kind::NotTokenWise, "attends across the sequence");
        mixing.operandDims = info.operandDims;
        return mixing;
      })
      .Case<AttentionBackwardOp>([&](AttentionBackwardOp backward) {
        // The gradients follow the tokens of what they differentiate: dQ
        // the queries', dK and dV the keys'. Not token-wise either.
        for (unsigned i = 0; i < 5; ++i)
          if (attentionTokens(i))
            info.operandDims[i] = 2;
        Value grads[] = {backward.getQueryGrad(), backward.getKeyGrad(),
                         backward.getValueGrad()};
        for (auto [i, grad] : llvm::enumerate(grads))
          if (std::optional<StridedDim> tokens = attentionTokens(i))
            setSeqDim(grad, *tokens);
        TokenWiseInfo mixing = notTokenWise(
            Kind::NotTokenWise, "attends across the sequence");
        mixing.operandDims = info.operandDims;
        return mixing;
      })
      .Case<AttentionBlockOp, AttentionMergeOp>([&](Operation *attention) {
        // Context parallelism's block ops: out and LSE follow the queries'
        // (or the first partial's) tokens; not token-wise.
        if (std::optional<StridedDim> tokens = attentionTokens(0))
          for (Value result : attention->getResults())
            setSeqDim(result, *tokens);
        return notTokenWise(Kind::NotTokenWise,
                            "combines attention over the sequence");
      })
      .Case<shard::AllReduceOp>([&](shard::AllReduceOp reduce) {
        // Elementwise across ranks: keeps the shape and the sequence.
        info.operandDims[0] = operandSeq(0)->dim;
        setSeqDim(reduce.getResult(), *operandSeq(0));
        return info;
      })
      .Default([&](Operation *other) {
        return notTokenWise(Kind::Unknown, "has no token-wise rule for '" +
                                               other->getName().getStringRef() +
                                               "'");
      });
}

std::optional<SequenceReduction>
mlir::seqpar::getSequenceReduction(Operation *op,
                                   const TokenWiseAnalysis &analysis) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !analysis.getInfo(op).reducesSequence)
    return std::nullopt;
  std::optional<shard::ReductionKind> kind = getReductionCombiner(linalgOp);
  if (!kind)
    return std::nullopt;
  for (auto [index, dim] : llvm::enumerate(analysis.getInfo(op).operandDims))
    if (dim >= 0)
      if (std::optional<StridedDim> seq =
              analysis.getSeqDim(op->getOperand(index)))
        return SequenceReduction{*kind, *seq};
  return std::nullopt;
}
