//===- ModelShape.cpp - what the planner reads from the graph -------------===//
//
// The single-device graph is normalised and its attention raised (as
// seqpar-pipeline does), then read once: the attention ops give the layers
// and head shapes; the plain contractions with a weight operand give the
// parameters and, by alternation, the TP region (Megatron's column- then
// row-parallel pairs, Shoeybi et al. 2019, section 3): a weight matmul of a
// value outside the region starts it, the next one ends it with a TP
// all-reduce. Every other op inherits the region of its activation operands.
// A training graph (docs/training-graphs.md) is read on its forward part;
// what it keeps for the backward is read from the joint program itself.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Analysis/BufferForm.h"
#include "seqpar/Analysis/Contraction.h"
#include "seqpar/Analysis/SavedForBackward.h"
#include "seqpar/Analysis/SeqDimInference.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"
#include "seqpar/Pipelines/Pipelines.h"
#include "seqpar/Plan/Plan.h"
#include "seqpar/Analysis/Activations.h"
#include "seqpar/Report/Report.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/DenseSet.h"

#include <map>
#include <numeric>
#include <tuple>

using namespace mlir;
using namespace mlir::seqpar;

namespace {

enum Region { Outside = 0, Inside = 1 };

struct ShapeReader {
  ShapeReader(func::FuncOp func, ModelShape &shape,
              const SavedForBackward *training)
      : func(func), shape(shape), activations(findActivations(func)),
        training(training) {}

  LogicalResult readAttention();
  void classifyRegions();
  void findKVProjections();
  void countParamsAndFlops();
  void readParameters();
  void scanLiveWidths();
  void countSavedActivations();
  void countSavedForBackward();

  /// Whether `op` (or the top-level op holding it) belongs to the forward:
  /// every op of a forward graph, the loss's dependencies of a training
  /// graph.
  bool inForward(Operation *op) const {
    if (!training)
      return true;
    Operation *top = func->getRegion(0).front().findAncestorOpInBlock(*op);
    return top && training->forward.contains(top);
  }
  /// The table an embedding lookup reads: a generic over an activation (the
  /// token ids) whose body extracts from a floating-point parameter; null
  /// for other ops.
  Value lookupTable(Operation *op) const;
  /// A floating-point argument that is not an activation, or null.
  BlockArgument parameterOf(Value value) const;
  /// `op` reduces the output of column-parallel matmul `block` over its
  /// features.
  bool reducesVocab(Operation *op, int block) const;
  /// The vocabulary of an LM head or embedding table among `dims`, or 0.
  int64_t vocabularyIn(ArrayRef<int64_t> dims) const;

  /// The activation input of a plain contraction whose other input is a
  /// weight (not an activation); null otherwise.
  Value weightMatmulInput(Operation *op) const;
  /// Elements per token of a sequence-carrying tensor (0 otherwise).
  double perToken(Type type) const;

  func::FuncOp func;
  ModelShape &shape;
  llvm::DenseSet<Value> activations;
  llvm::DenseMap<Value, Region> region;
  /// Outside-region values read by a column-parallel matmul (roots).
  llvm::DenseSet<Value> gathered;
  llvm::DenseSet<Operation *> kvProjections;
  const SavedForBackward *training;
  Type activationType; // the attention's element type
  /// The column-parallel matmuls in program order, whether a row-parallel
  /// one closes each one's region, and the one an inside value descends
  /// from.
  SmallVector<Operation *> columnMatmuls;
  SmallVector<bool> closed;
  llvm::DenseMap<Value, int> blockOf;
  /// Outside-region values SP shards: computed after a row-parallel matmul
  /// or an embedding lookup (their outputs are reduce-scattered).
  llvm::DenseSet<Value> sequenceSharded;
};

} // namespace

Value ShapeReader::weightMatmulInput(Operation *op) const {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !isPlainContraction(linalgOp) ||
      linalgOp.getNumDpsInputs() != 2)
    return {};
  Value a = linalgOp.getDpsInputOperand(0)->get();
  Value b = linalgOp.getDpsInputOperand(1)->get();
  if (activations.contains(a) && !activations.contains(b))
    return a;
  if (activations.contains(b) && !activations.contains(a))
    return b;
  return {};
}

double ShapeReader::perToken(Type type) const {
  auto ranked = dyn_cast<RankedTensorType>(type);
  int64_t tokens = shape.batch * shape.seq;
  // The sequence dim, or the batch and sequence flattened into one (the
  // [b*s, n] operands of exporters' linears).
  if (!ranked || !ranked.hasStaticShape() ||
      !(llvm::is_contained(ranked.getShape(), shape.seq) ||
        llvm::is_contained(ranked.getShape(), tokens)))
    return 0;
  int64_t elements = ranked.getNumElements();
  return elements % tokens == 0 ? double(elements / tokens) : 0;
}

LogicalResult ShapeReader::readAttention() {
  SmallVector<AttentionOp> attentions;
  func.walk([&](AttentionOp op) { attentions.push_back(op); });
  if (attentions.empty())
    return func.emitError()
           << "no attention found (neither seqpar.attention nor a softmax "
              "between two matmuls that seqpar-raise-attention raises): "
              "seqpar-plan-auto plans transformer graphs";
  AttentionOp first = attentions.front();
  auto q = cast<RankedTensorType>(first.getQuery().getType());
  auto k = cast<RankedTensorType>(first.getKey().getType());
  if (!q.hasStaticShape() || !k.hasStaticShape())
    return first.emitError() << "attention with a dynamic shape";
  for (AttentionOp op : attentions) {
    if (op.getQuery().getType() != q || op.getKey().getType() != k ||
        op.getCausal() != first.getCausal())
      return op.emitError() << "attention shapes differ between layers ("
                            << op.getQuery().getType() << " vs " << q
                            << "): the planner needs one layer shape";
  }
  if (q.getDimSize(2) != k.getDimSize(2))
    return first.emitError()
           << "cross-attention (s_q = " << q.getDimSize(2)
           << " != s_kv = " << k.getDimSize(2)
           << ") is not planned; a decode step is planned from its forward "
              "(prefill) graph: --workload=decode --context=N on it";
  // The cost model divides by each of b, a, s, d (a_kv >= 1 by the
  // verifier, and K's other dims are Q's).
  if (q.getNumElements() == 0)
    return first.emitError() << "attention with an empty dim (query " << q
                             << "): the planner needs b, a, s, d >= 1";
  shape.layers = attentions.size();
  shape.batch = q.getDimSize(0);
  shape.heads = q.getDimSize(1);
  shape.seq = q.getDimSize(2);
  shape.headDim = q.getDimSize(3);
  shape.kvHeads = k.getDimSize(1);
  shape.causal = first.getCausal();
  activationType = q.getElementType();
  if (func.getNumArguments() == 0)
    return func.emitError() << "the graph has no input";
  // The dim attention reads as its tokens (the passes infer the same one);
  // a dim of the right size only when that fails (b == s would be taken
  // for the batch).
  SmallVector<AttentionTokens> tokens;
  collectSeqParAttentionTokens(func, tokens);
  SeqDimInference inferred = inferSeqDim(func, tokens);
  if (inferred.succeeded() && inferred.argNumber == 0)
    shape.seqDim = inferred.dim;
  else if (auto input =
               dyn_cast<RankedTensorType>(func.getArgument(0).getType()))
    shape.seqDim =
        llvm::find(input.getShape(), shape.seq) - input.getShape().begin();
  shape.hidden = int64_t(perToken(func.getArgument(0).getType()));
  if (shape.hidden == 0)
    return func.emitError()
           << "the first argument " << func.getArgument(0).getType()
           << " does not carry the attention's " << shape.seq << " tokens";
  return success();
}

BlockArgument ShapeReader::parameterOf(Value value) const {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner() != &func->getRegion(0).front() ||
      activations.contains(arg))
    return {};
  auto type = dyn_cast<RankedTensorType>(arg.getType());
  return type && isa<FloatType>(type.getElementType()) ? arg
                                                       : BlockArgument();
}

Value ShapeReader::lookupTable(Operation *op) const {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || llvm::none_of(generic.getDpsInputs(), [&](Value input) {
        return activations.contains(input);
      }))
    return {};
  Value table;
  generic.getRegion().walk([&](tensor::ExtractOp extract) {
    if (parameterOf(storageRoot(extract.getTensor())))
      table = storageRoot(extract.getTensor());
  });
  return table;
}

bool ShapeReader::reducesVocab(Operation *op, int block) const {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || linalgOp.getNumReductionLoops() == 0 ||
      op->getNumResults() != 1)
    return false;
  double vocab = perToken(columnMatmuls[block]->getResult(0).getType());
  // The head's region is open so far: a later row-parallel matmul would
  // close it, but none reads a cross-entropy's statistics.
  double width = perToken(op->getResult(0).getType());
  return vocab > 0 && width < vocab &&
         llvm::any_of(linalgOp.getDpsInputs(), [&](Value input) {
           auto it = blockOf.find(input);
           return it != blockOf.end() && it->second == block &&
                  perToken(input.getType()) == vocab;
         });
}

void ShapeReader::classifyRegions() {
  for (BlockArgument arg : func.getArguments())
    region[arg] = Outside;
  for (Operation &op : func.getBody().front()) {
    if (!inForward(&op))
      continue;
    Region result = Outside;
    int block = -1;
    bool sharded = false;
    if (Value input = weightMatmulInput(&op)) {
      Region in = region.lookup(input);
      result = in == Inside ? Outside : Inside;
      if (in == Inside) {
        shape.rowParallelWidths.push_back(
            int64_t(perToken(op.getResult(0).getType())));
        if (auto it = blockOf.find(input); it != blockOf.end() && it->second >= 0)
          closed[it->second] = true;
        sharded = true; // reduce-scattered under SP
      } else {
        gathered.insert(storageRoot(input));
        block = columnMatmuls.size();
        columnMatmuls.push_back(&op);
        closed.push_back(false);
      }
    } else {
      if (Value table = lookupTable(&op)) {
        sharded = true; // reduce-scattered under SP
        shape.lookups.push_back(
            Lookup{int64_t(perToken(op.getResult(0).getType())),
                   cast<RankedTensorType>(table.getType()).getDimSize(0)});
      }
      for (Value operand : op.getOperands()) {
        if (!activations.contains(operand))
          continue;
        if (region.lookup(operand) == Inside) {
          result = Inside;
          if (auto it = blockOf.find(operand); it != blockOf.end())
            block = it->second;
        }
        sharded |= sequenceSharded.contains(operand);
      }
      // A reduction over an LM head's split vocabulary (the cross-entropy's
      // row max and sum) is all-reduced: whole on every TP rank, over all
      // the tokens the head read.
      if (result == Inside && block >= 0 && reducesVocab(&op, block)) {
        result = Outside;
        sharded = false;
      }
    }
    for (Value value : op.getResults()) {
      region[value] = result;
      if (result == Inside)
        blockOf[value] = block;
      else if (sharded)
        sequenceSharded.insert(value);
    }
  }
  // The blocks whose values an attention reads as Q, K or V.
  llvm::DenseSet<int> attentionBlocks;
  func.walk([&](AttentionOp op) {
    for (Value operand : {op.getQuery(), op.getKey(), op.getValue()})
      if (auto it = blockOf.find(operand); it != blockOf.end())
        attentionBlocks.insert(it->second);
  });
  // One column input per distinct value the column-parallel matmuls read.
  llvm::DenseMap<Value, size_t> inputOf;
  for (auto [index, op] : llvm::enumerate(columnMatmuls)) {
    Value root = storageRoot(weightMatmulInput(op));
    auto [it, inserted] = inputOf.try_emplace(root, shape.columnInputs.size());
    if (inserted) {
      ColumnInput input;
      input.width = int64_t(perToken(root.getType()));
      input.sequenceSharded = sequenceSharded.contains(root);
      if (!closed[index])
        input.vocab = int64_t(perToken(op->getResult(0).getType()));
      shape.columnInputs.push_back(input);
    }
    shape.columnInputs[it->second].attention |=
        attentionBlocks.contains(int(index));
  }
}

void ShapeReader::findKVProjections() {
  // Walk back from K and V through views, slices and elementwise ops (RoPE)
  // to the weight matmul that made them. A matmul that also feeds Q (a
  // fused QKV projection) is not a K/V-only projection.
  auto projectionOf = [&](Value value) -> Operation * {
    for (int step = 0; step < 32 && value; ++step) {
      value = storageRoot(value);
      Operation *def = value.getDefiningOp();
      if (!def)
        return nullptr;
      if (weightMatmulInput(def))
        return def;
      Value next;
      for (Value operand : def->getOperands())
        if (activations.contains(operand)) {
          next = operand;
          break;
        }
      value = next;
    }
    return nullptr;
  };
  llvm::DenseSet<Operation *> queryProjections;
  func.walk([&](AttentionOp op) {
    if (Operation *q = projectionOf(op.getQuery()))
      queryProjections.insert(q);
  });
  func.walk([&](AttentionOp op) {
    for (Value kv : {op.getKey(), op.getValue()})
      if (Operation *proj = projectionOf(kv))
        if (!queryProjections.contains(proj))
          kvProjections.insert(proj);
  });
}

void ShapeReader::countParamsAndFlops() {
  double tokens = double(shape.batch * shape.seq);
  llvm::DenseSet<Value> matrices, kvMatrices;
  func.walk([&](Operation *op) {
    if (isa<func::FuncOp>(op) || !inForward(op))
      return;
    Value input = weightMatmulInput(op);
    if (input) {
      auto linalgOp = cast<linalg::LinalgOp>(op);
      Value weight = linalgOp.getDpsInputOperand(0)->get() == input
                         ? linalgOp.getDpsInputOperand(1)->get()
                         : linalgOp.getDpsInputOperand(0)->get();
      matrices.insert(storageRoot(weight));
      if (kvProjections.contains(op))
        kvMatrices.insert(storageRoot(weight));
    }
    std::optional<OpFlops> flops = opFlops(op);
    if (!flops)
      return;
    if (flops->kind == "attention") {
      shape.attentionFlopsPerSeq2 +=
          double(flops->flops) / (double(shape.seq) * double(shape.seq));
    } else if (flops->kind == "matmul") {
      shape.matmulFlopsPerToken += double(flops->flops) / tokens;
      if (kvProjections.contains(op))
        shape.kvMatmulFlopsPerToken += double(flops->flops) / tokens;
    } else if (op->getNumResults() &&
               region.lookup(op->getResult(0)) == Inside) {
      shape.shardedVectorFlopsPerToken += double(flops->flops) / tokens;
    } else {
      shape.replicatedVectorFlopsPerToken += double(flops->flops) / tokens;
    }
  });
  auto elements = [](Value value) -> int64_t {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    return type && type.hasStaticShape() ? type.getNumElements() : 0;
  };
  for (Value weight : matrices)
    shape.matrixParams += elements(weight);
  for (Value weight : kvMatrices)
    shape.kvParams += elements(weight);
  for (BlockArgument arg : func.getArguments())
    if (parameterOf(arg) && !matrices.contains(arg))
      shape.vectorParams += elements(arg);
}

void ShapeReader::readParameters() {
  Block &body = func.getBody().front();
  llvm::DenseMap<Value, size_t> index;
  for (BlockArgument arg : func.getArguments()) {
    if (!parameterOf(arg))
      continue;
    index[arg] = shape.parameters.size();
    Parameter parameter;
    parameter.elements = cast<RankedTensorType>(arg.getType()).getNumElements();
    shape.parameters.push_back(parameter);
  }
  auto vocabOf = [&](int block) -> int64_t {
    if (block < 0 || closed[block])
      return 0;
    return int64_t(perToken(columnMatmuls[block]->getResult(0).getType()));
  };
  // The strongest split a use implies: a matmul's weight over a lookup's
  // table over a bias inside a region.
  auto classify = [&](Parameter &parameter, Operation *op, Value root) {
    ParameterSplit split = ParameterSplit::Never;
    int64_t rows = 0;
    if (Value input = weightMatmulInput(op); input && storageRoot(input) != root) {
      int block = llvm::find(columnMatmuls, op) - columnMatmuls.begin();
      if (block < int(columnMatmuls.size()) && !closed[block]) {
        split = ParameterSplit::Rows;
        rows = vocabOf(block);
      } else {
        split = kvProjections.contains(op) ? ParameterSplit::KVHeads
                                           : ParameterSplit::Always;
      }
    } else if (lookupTable(op) == root) {
      split = ParameterSplit::Rows;
      rows = cast<RankedTensorType>(root.getType()).getDimSize(0);
    } else if (op->getNumResults() &&
               region.lookup(op->getResult(0)) == Inside) {
      auto it = blockOf.find(op->getResult(0));
      int block = it == blockOf.end() ? -1 : it->second;
      split = vocabOf(block) ? ParameterSplit::Rows : ParameterSplit::Always;
      rows = vocabOf(block);
    }
    if (split < parameter.split) {
      parameter.split = split;
      parameter.rows = rows;
    }
  };
  for (Operation &op : body) {
    if (!inForward(&op) || getViewSource(&op))
      continue;
    llvm::DenseSet<Value> read;
    op.walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (Value root = storageRoot(operand); index.contains(root))
          read.insert(root);
    });
    for (Value root : read) {
      Parameter &parameter = shape.parameters[index.lookup(root)];
      ++parameter.forwardUses;
      classify(parameter, &op, root);
    }
  }
}

void ShapeReader::scanLiveWidths() {
  // Each storage root is live from its definition to the last use of it or
  // of any view of it (seqpar-free-at-last-use frees buffers there).
  Block &body = func.getBody().front();
  llvm::DenseMap<Operation *, int64_t> index;
  int64_t n = 0;
  for (Operation &op : body)
    if (inForward(&op))
      index[&op] = n++;
  struct Interval {
    int64_t begin, end;
    double width;
    Value root;
  };
  llvm::DenseMap<Value, Interval> live;
  auto touch = [&](Value value, int64_t at) {
    if (!activations.contains(value))
      return;
    Value root = storageRoot(value);
    double width = perToken(root.getType());
    if (width == 0)
      return;
    int64_t begin =
        isa<BlockArgument>(root)
            ? 0
            : index.lookup(body.findAncestorOpInBlock(*root.getDefiningOp()));
    auto [it, inserted] =
        live.try_emplace(root, Interval{begin, at, width, root});
    if (!inserted)
      it->second.end = std::max(it->second.end, at);
  };
  for (Operation &op : body) {
    if (!inForward(&op))
      continue;
    int64_t at = index[&op];
    op.walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        touch(operand, at);
    });
    for (Value result : op.getResults())
      touch(result, at);
  }
  // Sweep: +width at begin, -width after end, per category.
  std::vector<LiveWidths> delta(n + 1);
  for (auto &entry : live) {
    const Interval &iv = entry.second;
    double LiveWidths::*field = &LiveWidths::replicated;
    if (region.lookup(iv.root) == Inside)
      field = &LiveWidths::tensorParallel;
    else if (gathered.contains(iv.root))
      field = &LiveWidths::gathered;
    delta[iv.begin].*field += iv.width;
    delta[iv.end + 1].*field -= iv.width;
  }
  LiveWidths current;
  std::vector<LiveWidths> points;
  for (int64_t i = 0; i < n; ++i) {
    current.replicated += delta[i].replicated;
    current.gathered += delta[i].gathered;
    current.tensorParallel += delta[i].tensorParallel;
    points.push_back(current);
  }
  // The frontier: the points no other point is >= in all three widths (of
  // equal points, the first), in program order. Taken in decreasing
  // (replicated, gathered, tensorParallel) order, equal points by position,
  // every point that can dominate a point comes before it: a point is kept
  // unless one before it has gathered and tensorParallel at least as large,
  // which a staircase of the kept (gathered -> largest tensorParallel at
  // gathered or above) answers in log n.
  std::vector<size_t> order(points.size());
  std::iota(order.begin(), order.end(), 0);
  auto key = [&](size_t i) {
    const LiveWidths &p = points[i];
    return std::make_tuple(-p.replicated, -p.gathered, -p.tensorParallel, i);
  };
  llvm::sort(order, [&](size_t a, size_t b) { return key(a) < key(b); });
  std::map<double, double> staircase; // gathered up, tensorParallel down
  std::vector<bool> kept(points.size());
  for (size_t i : order) {
    const LiveWidths &p = points[i];
    auto above = staircase.lower_bound(p.gathered);
    if (above != staircase.end() && above->second >= p.tensorParallel)
      continue;
    kept[i] = true;
    // Drop the steps this point covers, then add it.
    auto first = above;
    while (first != staircase.begin() &&
           std::prev(first)->second <= p.tensorParallel)
      --first;
    staircase.erase(first, above);
    staircase[p.gathered] = p.tensorParallel;
  }
  for (size_t i = 0; i < points.size(); ++i)
    if (kept[i])
      shape.liveFrontier.push_back(points[i]);
}

void ShapeReader::countSavedActivations() {
  for (const SavedTensor &saved :
       computeSavedActivations(func, Recompute::None)) {
    double tokens = double(shape.batch * shape.seq);
    bool inside = saved.value && region.lookup(saved.value) == Inside;
    bool fixedSize =
        saved.rule == "dropout mask" || saved.rule == "attention LSE";
    double *target = fixedSize ? (inside ? &shape.savedTensorParallelFixedBytes
                                         : &shape.savedReplicatedFixedBytes)
                               : (inside ? &shape.savedTensorParallelElements
                                         : &shape.savedReplicatedElements);
    double amount = fixedSize
                        ? double(saved.bytes) / tokens
                        : (saved.value ? perToken(saved.value.getType()) : 0);
    *target += amount;
  }
}

int64_t ShapeReader::vocabularyIn(ArrayRef<int64_t> dims) const {
  for (const ColumnInput &input : shape.columnInputs)
    if (input.vocab > 0 && llvm::is_contained(dims, input.vocab))
      return input.vocab;
  for (const Lookup &lookup : shape.lookups)
    if (llvm::is_contained(dims, lookup.rows))
      return lookup.rows;
  return 0;
}

void ShapeReader::countSavedForBackward() {
  double tokens = double(shape.batch * shape.seq);
  // Tensors of the activations' element type scale with --element-bytes;
  // the others (i1 masks, integer ids, an f32 tensor of a bf16 graph) are
  // counted as stored.
  for (const SavedForBackwardTensor &saved : training->tensors) {
    double width = perToken(saved.value.getType());
    if (width == 0) {
      // An iota over the vocabulary (the one-hot of an embedding gradient)
      // is split with the vocab-parallel head. One over the sequence at its
      // dim (position ids, [1, s]) is not, even when s equals the vocabulary
      // (BERT's 8 labels at s = 8).
      auto dims = cast<RankedTensorType>(saved.value.getType()).getShape();
      bool overSequence = int64_t(dims.size()) > shape.seqDim &&
                          dims[shape.seqDim] == shape.seq;
      int64_t vocab = overSequence ? 0 : vocabularyIn(dims);
      if (vocab) {
        shape.savedVocabBytes += saved.bytes;
        shape.savedVocab = vocab;
      } else {
        shape.savedUntokenedBytes += saved.bytes;
      }
      continue;
    }
    bool scaled = saved.elementType == activationType;
    double amount = scaled ? width : double(saved.bytes) / tokens;
    double *elements = &shape.savedLeadingElements,
           *fixed = &shape.savedLeadingFixedBytes;
    if (region.lookup(saved.value) == Inside) {
      elements = &shape.savedTensorParallelElements;
      fixed = &shape.savedTensorParallelFixedBytes;
    } else if (sequenceSharded.contains(saved.value)) {
      elements = &shape.savedReplicatedElements;
      fixed = &shape.savedReplicatedFixedBytes;
    }
    *(scaled ? elements : fixed) += amount;
  }
}

FailureOr<ModelShape> mlir::seqpar::readModelShape(ModuleOp module,
                                                   StringRef entry) {
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal() && (entry.empty() || func.getSymName() == entry)) {
      if (diagnoseBufferForm(func, "seqpar-plan-auto",
                             DiagnosticSeverity::Error))
        return failure();
      break;
    }
  OwningOpRef<ModuleOp> clone(cast<ModuleOp>(module->clone()));
  PassManager pm(module->getContext());
  buildFrontendNormalizationPipeline(pm);
  pm.addPass(createCSEPass());
  // As seqpar-pipeline raises it: a training graph's attention backward
  // too, so its P is not saved.
  RaiseAttentionOptions raise;
  raise.backward = true;
  pm.addNestedPass<func::FuncOp>(createRaiseAttention(raise));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (failed(pm.run(*clone)))
    return failure();
  func::FuncOp func;
  clone->walk([&](func::FuncOp candidate) {
    if (!func && !candidate.isExternal() &&
        (entry.empty() || candidate.getSymName() == entry))
      func = candidate;
  });
  if (!func) {
    emitError(module.getLoc())
        << (entry.empty() ? std::string("no function with a body")
                          : "no function @" + entry.str());
    return failure();
  }
  if (!func.getBody().hasOneBlock())
    return func.emitError() << "the planner reads a single-block function";
  if (failed(checkFiguresFit(func)))
    return failure();
  ModelShape shape;
  shape.entry = func.getSymName().str();
  // A training graph: a one-element float result #0 (the loss) and
  // gradients (docs/training-graphs.md, "What is saved for backward").
  std::optional<SavedForBackward> training;
  std::string why;
  FailureOr<SavedForBackward> joint = analyzeSavedForBackward(func, why);
  if (succeeded(joint)) {
    training = std::move(*joint);
  } else if (func.getNumResults() > 1) {
    auto loss = dyn_cast<RankedTensorType>(func.getResultTypes()[0]);
    if (loss && loss.hasStaticShape() && loss.getNumElements() == 1 &&
        isa<FloatType>(loss.getElementType()))
      return func.emitError()
             << "this looks like a training graph (a loss and gradients) "
                "but its backward cannot be found: "
             << why << " (docs/training-graphs.md)";
  }
  shape.trainingGraph = training.has_value();
  ShapeReader reader(func, shape, training ? &*training : nullptr);
  if (failed(reader.readAttention()))
    return failure();
  reader.classifyRegions();
  reader.findKVProjections();
  reader.countParamsAndFlops();
  reader.readParameters();
  reader.scanLiveWidths();
  if (training)
    reader.countSavedForBackward();
  else
    reader.countSavedActivations();
  return shape;
}
