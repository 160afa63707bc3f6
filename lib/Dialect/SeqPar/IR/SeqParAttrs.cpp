//===- SeqParAttrs.cpp - seqpar attributes --------------------------------===//

#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::seqpar;

#include "seqpar/Dialect/SeqPar/IR/SeqParEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "seqpar/Dialect/SeqPar/IR/SeqParAttrs.cpp.inc"

void SeqParDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "seqpar/Dialect/SeqPar/IR/SeqParAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// DimShardingAttr
//===----------------------------------------------------------------------===//

static ParseResult parseAxisList(AsmParser &parser,
                                 SmallVectorImpl<int16_t> &axes) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        int16_t axis;
        if (parser.parseInteger(axis))
          return failure();
        axes.push_back(axis);
        return success();
      });
}

static void printAxisList(AsmPrinter &printer, ArrayRef<int16_t> axes) {
  printer << '[';
  llvm::interleaveComma(axes, printer);
  printer << ']';
}

DimShardingAttr DimShardingAttr::parseBody(AsmParser &parser) {
  SmallVector<int16_t> axes;
  if (parseAxisList(parser, axes))
    return {};
  SplitKind kind = SplitKind::contiguous;
  int64_t groups = 1, interleave = 1;
  if (succeeded(parser.parseOptionalKeyword("zigzag"))) {
    kind = SplitKind::zigzag;
  } else if (succeeded(parser.parseOptionalKeyword("groups"))) {
    kind = SplitKind::grouped;
    if (parser.parseInteger(groups))
      return {};
  } else if (succeeded(parser.parseOptionalKeyword("cyclic"))) {
    kind = SplitKind::cyclic;
    if (parser.parseInteger(interleave))
      return {};
  }
  return parser.getChecked<DimShardingAttr>(parser.getContext(), axes, kind,
                                            groups, interleave);
}

void DimShardingAttr::printBody(AsmPrinter &printer) const {
  printAxisList(printer, getAxes());
  if (getKind() == SplitKind::zigzag)
    printer << " zigzag";
  else if (getKind() == SplitKind::grouped)
    printer << " groups " << getGroups();
  else if (getKind() == SplitKind::cyclic)
    printer << " cyclic " << getInterleave();
}

int64_t DimShardingAttr::getPiecesPerRank() const {
  switch (getKind()) {
  case SplitKind::contiguous:
    return 1;
  case SplitKind::grouped:
    return getGroups();
  case SplitKind::zigzag:
    return 2;
  case SplitKind::cyclic:
    return getInterleave();
  }
  return 1;
}

Attribute DimShardingAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  DimShardingAttr attr = parseBody(parser);
  if (!attr || parser.parseGreater())
    return {};
  return attr;
}

void DimShardingAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printBody(printer);
  printer << '>';
}

LogicalResult
DimShardingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        ArrayRef<int16_t> axes, SplitKind kind,
                        int64_t groups, int64_t interleave) {
  llvm::SmallSet<int16_t, 4> seen;
  for (int16_t axis : axes) {
    if (axis < 0)
      return emitError() << "grid axis must be non-negative, got " << axis;
    if (!seen.insert(axis).second)
      return emitError() << "grid axis " << axis << " appears twice";
  }
  if (kind == SplitKind::grouped && groups < 2)
    return emitError() << "groups must be at least 2, got " << groups;
  if (kind != SplitKind::grouped && groups != 1)
    return emitError() << "groups is only meaningful for a grouped split";
  if (kind == SplitKind::cyclic && interleave < 1)
    return emitError() << "the interleave of a cyclic split must be at least "
                          "1, got "
                       << interleave;
  if (kind != SplitKind::cyclic && interleave != 1)
    return emitError() << "interleave is only meaningful for a cyclic split";
  if (kind != SplitKind::contiguous && axes.empty())
    return emitError() << "a " << stringifySplitKind(kind)
                       << " split needs at least one grid axis";
  return success();
}

//===----------------------------------------------------------------------===//
// ShardingAttr
//===----------------------------------------------------------------------===//

Attribute ShardingAttr::parse(AsmParser &parser, Type) {
  FlatSymbolRefAttr grid;
  if (parser.parseLess() || parser.parseAttribute(grid) || parser.parseComma())
    return {};
  SmallVector<DimShardingAttr> dims;
  if (failed(parser.parseOptionalKeyword("replicated"))) {
    if (parser.parseCommaSeparatedList(
            AsmParser::Delimiter::Square, [&]() -> ParseResult {
              DimShardingAttr dim = DimShardingAttr::parseBody(parser);
              if (!dim)
                return failure();
              dims.push_back(dim);
              return success();
            }))
      return {};
  }
  SmallVector<int16_t> partial;
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("partial") || parser.parseEqual() ||
        parseAxisList(parser, partial))
      return {};
  }
  if (parser.parseGreater())
    return {};
  // Trailing unsplit dims carry no information: drop them so equal
  // shardings compare equal.
  while (!dims.empty() && !dims.back().isSplit())
    dims.pop_back();
  return parser.getChecked<ShardingAttr>(parser.getContext(), grid, dims,
                                         partial);
}

void ShardingAttr::print(AsmPrinter &printer) const {
  printer << '<' << getGrid() << ", ";
  if (getDims().empty()) {
    printer << (getPartialAxes().empty() ? "replicated" : "[]");
  } else {
    printer << '[';
    llvm::interleaveComma(getDims(), printer,
                          [&](DimShardingAttr dim) { dim.printBody(printer); });
    printer << ']';
  }
  if (!getPartialAxes().empty()) {
    printer << ", partial = ";
    printAxisList(printer, getPartialAxes());
  }
  printer << '>';
}

LogicalResult
ShardingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                     FlatSymbolRefAttr grid, ArrayRef<DimShardingAttr> dims,
                     ArrayRef<int16_t> partialAxes) {
  if (!grid)
    return emitError() << "expected a grid symbol";
  llvm::SmallSet<int16_t, 4> seen;
  auto check = [&](int16_t axis) -> LogicalResult {
    if (axis < 0)
      return emitError() << "grid axis must be non-negative, got " << axis;
    if (!seen.insert(axis).second)
      return emitError() << "grid axis " << axis
                         << " is used more than once in the sharding";
    return success();
  };
  for (DimShardingAttr dim : dims) {
    if (!dim)
      return emitError() << "null dim sharding";
    for (int16_t axis : dim.getAxes())
      if (failed(check(axis)))
        return failure();
  }
  for (int16_t axis : partialAxes)
    if (failed(check(axis)))
      return failure();
  return success();
}

bool ShardingAttr::isReplicated() const {
  return getPartialAxes().empty() &&
         llvm::none_of(getDims(),
                       [](DimShardingAttr dim) { return dim.isSplit(); });
}

DimShardingAttr ShardingAttr::getDimSharding(int64_t dim) const {
  if (dim < 0 || dim >= static_cast<int64_t>(getDims().size()) ||
      !getDims()[dim].isSplit())
    return {};
  return getDims()[dim];
}

bool ShardingAttr::usesAxis(int16_t axis) const {
  if (llvm::is_contained(getPartialAxes(), axis))
    return true;
  return llvm::any_of(getDims(), [&](DimShardingAttr dim) {
    return llvm::is_contained(dim.getAxes(), axis);
  });
}

int64_t ShardingAttr::getNumPieces(int64_t dim,
                                   ArrayRef<int64_t> gridShape) const {
  DimShardingAttr split = getDimSharding(dim);
  if (!split)
    return 1;
  int64_t pieces = 1;
  for (int16_t axis : split.getAxes()) {
    if (axis >= static_cast<int64_t>(gridShape.size()) ||
        ShapedType::isDynamic(gridShape[axis]))
      return -1;
    pieces *= gridShape[axis];
  }
  return pieces * split.getPiecesPerRank();
}

SmallVector<int64_t>
ShardingAttr::getLocalShape(ArrayRef<int64_t> globalShape,
                            ArrayRef<int64_t> gridShape) const {
  SmallVector<int64_t> local(globalShape);
  for (auto [dim, size] : llvm::enumerate(local)) {
    DimShardingAttr split = getDimSharding(dim);
    if (!split || ShapedType::isDynamic(size))
      continue;
    int64_t ranks = getNumPieces(dim, gridShape);
    if (ranks < 0) {
      size = ShapedType::kDynamic;
      continue;
    }
    size /= ranks / split.getPiecesPerRank();
  }
  return local;
}

ShardingAttr ShardingAttr::withDimSplit(int64_t dim, ArrayRef<int16_t> axes,
                                        SplitKind kind) const {
  SmallVector<DimShardingAttr> dims(getDims());
  MLIRContext *ctx = getContext();
  auto unsplit = DimShardingAttr::get(ctx, {}, SplitKind::contiguous, 1, 1);
  if (static_cast<int64_t>(dims.size()) <= dim)
    dims.resize(dim + 1, unsplit);
  SmallVector<int16_t> allAxes(dims[dim].getAxes());
  llvm::append_range(allAxes, axes);
  dims[dim] = DimShardingAttr::get(ctx, allAxes, kind, 1, 1);
  while (!dims.empty() && !dims.back().isSplit())
    dims.pop_back();
  return ShardingAttr::get(ctx, getGrid(), dims, getPartialAxes());
}

ShardingAttr ShardingAttr::getReplicated(MLIRContext *ctx,
                                         FlatSymbolRefAttr grid) {
  return ShardingAttr::get(ctx, grid, {}, {});
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

ShardingAttr mlir::seqpar::getArgSharding(FunctionOpInterface func,
                                          unsigned argIndex) {
  return func.getArgAttrOfType<ShardingAttr>(argIndex,
                                             SeqParDialect::kShardingAttrName);
}

ShardingAttr mlir::seqpar::getResultSharding(FunctionOpInterface func,
                                             unsigned resultIndex) {
  return func.getResultAttrOfType<ShardingAttr>(
      resultIndex, SeqParDialect::kShardingAttrName);
}

/// editArgAttrs / editResultAttrs over `count` dictionaries read by `get`.
static void editAttrDicts(FunctionOpInterface func, unsigned count,
                          function_ref<DictionaryAttr(unsigned)> get,
                          function_ref<void(unsigned, NamedAttrList &)> edit,
                          function_ref<void(ArrayRef<DictionaryAttr>)> set) {
  MLIRContext *ctx = func->getContext();
  SmallVector<DictionaryAttr> dicts;
  dicts.reserve(count);
  bool changed = false;
  for (unsigned i = 0; i < count; ++i) {
    DictionaryAttr before = get(i);
    NamedAttrList attrs(before);
    edit(i, attrs);
    DictionaryAttr after = attrs.getDictionary(ctx);
    changed |= after != (before ? before : DictionaryAttr::get(ctx));
    dicts.push_back(after);
  }
  if (changed)
    set(dicts);
}

void mlir::seqpar::editArgAttrs(
    FunctionOpInterface func,
    function_ref<void(unsigned, NamedAttrList &)> edit) {
  editAttrDicts(
      func, func.getNumArguments(),
      [&](unsigned i) { return func.getArgAttrDict(i); }, edit,
      [&](ArrayRef<DictionaryAttr> dicts) { func.setAllArgAttrs(dicts); });
}

void mlir::seqpar::editResultAttrs(
    FunctionOpInterface func,
    function_ref<void(unsigned, NamedAttrList &)> edit) {
  editAttrDicts(
      func, func.getNumResults(),
      [&](unsigned i) { return func.getResultAttrDict(i); }, edit,
      [&](ArrayRef<DictionaryAttr> dicts) { func.setAllResultAttrs(dicts); });
}

void mlir::seqpar::setMissingShardings(FunctionOpInterface func,
                                       ShardingAttr fallback) {
  auto setMissing = [&](unsigned, NamedAttrList &attrs) {
    if (!attrs.get(SeqParDialect::kShardingAttrName))
      attrs.set(SeqParDialect::kShardingAttrName, fallback);
  };
  editArgAttrs(func, setMissing);
  editResultAttrs(func, setMissing);
}

LogicalResult mlir::seqpar::verifyShardingForValue(
    ShardingAttr sharding, Type type, Operation *from,
    function_ref<InFlightDiagnostic()> emitError) {
  auto grid = SymbolTable::lookupNearestSymbolFrom<shard::GridOp>(
      from, sharding.getGrid());
  if (!grid)
    return emitError() << "grid " << sharding.getGrid()
                       << " is not a shard.grid visible here";
  ArrayRef<int64_t> gridShape = grid.getShape();
  auto checkAxis = [&](int16_t axis) -> LogicalResult {
    if (axis >= static_cast<int64_t>(gridShape.size()))
      return emitError() << "grid axis " << axis << " is out of range for "
                         << sharding.getGrid() << " of rank "
                         << gridShape.size();
    return success();
  };
  for (int16_t axis : sharding.getPartialAxes())
    if (failed(checkAxis(axis)))
      return failure();
  for (DimShardingAttr dim : sharding.getDims())
    for (int16_t axis : dim.getAxes())
      if (failed(checkAxis(axis)))
        return failure();
  if (sharding.isReplicated())
    return success();
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return emitError() << "a split or partial sharding needs a ranked tensor, "
                          "got "
                       << type;
  if (static_cast<int64_t>(sharding.getDims().size()) > tensor.getRank())
    return emitError() << "sharding has " << sharding.getDims().size()
                       << " dims but the value has rank " << tensor.getRank();
  // The per-rank size times the ranks holding distinct pieces is the global
  // size; every chunk must be whole.
  for (int64_t dim = 0; dim < tensor.getRank(); ++dim) {
    DimShardingAttr split = sharding.getDimSharding(dim);
    int64_t pieces = sharding.getNumPieces(dim, gridShape);
    if (!split || pieces < 0 || tensor.isDynamicDim(dim))
      continue;
    int64_t perRank = split.getPiecesPerRank();
    if (tensor.getDimSize(dim) % perRank != 0)
      return emitError() << "per-rank dim " << dim << " of size "
                         << tensor.getDimSize(dim) << " is not divisible into "
                         << perRank << " "
                         << stringifySplitKind(split.getKind()) << " chunks";
  }
  return success();
}
