//===- LLVMCallUtils.cpp - building calls of C functions on buffers -------===//

#include "seqpar/Conversion/LLVMCommon/LLVMCallUtils.h"

#include "seqpar/Analysis/ByteCounts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;

LLVM::LLVMFuncOp mlir::seqpar::getOrDeclareFunc(OpBuilder &b, ModuleOp module,
                                                StringRef name,
                                                LLVM::LLVMFunctionType type) {
  if (auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return func;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type);
}

Value mlir::seqpar::getConstantArray(OpBuilder &b, Location loc,
                                     ModuleOp module, ArrayRef<int64_t> values,
                                     unsigned bitWidth) {
  std::string name = "__seqpar_i" + std::to_string(bitWidth);
  for (int64_t v : values)
    name += "_" + (v < 0 ? "m" + std::to_string(-v) : std::to_string(v));
  auto elemType = b.getIntegerType(bitWidth);
  auto arrayType = LLVM::LLVMArrayType::get(elemType, values.size());
  auto global = module.lookupSymbol<LLVM::GlobalOp>(name);
  if (!global) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto tensorType =
        RankedTensorType::get({static_cast<int64_t>(values.size())}, elemType);
    SmallVector<APInt> ints;
    for (int64_t v : values)
      ints.push_back(APInt(bitWidth, v, /*isSigned=*/true));
    global = LLVM::GlobalOp::create(
        b, module.getLoc(), arrayType, /*isConstant=*/true,
        LLVM::Linkage::Private, name, DenseElementsAttr::get(tensorType, ints));
  }
  return LLVM::AddressOfOp::create(b, loc, global);
}

Value mlir::seqpar::constantInt(OpBuilder &b, Location loc, Type type,
                                int64_t value) {
  return LLVM::ConstantOp::create(b, loc, type,
                                  b.getIntegerAttr(type, value));
}

Value mlir::seqpar::getBufferAddress(OpBuilder &b, Location loc,
                                     Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  Value address =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  int64_t elemBytes = getElementBytes(type.getElementType());
  // Offset in elements: static from the layout, else from the metadata.
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  Value dynOffset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset)) {
    auto meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
    dynOffset = meta.getOffset();
  }
  if (dynOffset) {
    Value bytes = arith::MulIOp::create(
        b, loc, dynOffset, arith::ConstantIndexOp::create(b, loc, elemBytes));
    address = arith::AddIOp::create(b, loc, address, bytes);
  } else if (offset != 0) {
    address = arith::AddIOp::create(
        b, loc, address,
        arith::ConstantIndexOp::create(b, loc, offset * elemBytes));
  }
  Value asInt = arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
  return LLVM::IntToPtrOp::create(b, loc,
                                  LLVM::LLVMPointerType::get(b.getContext()),
                                  asInt);
}

bool mlir::seqpar::isContiguousRowMajor(MemRefType type) {
  if (!type.hasStaticShape())
    return false;
  return type.getLayout().isIdentity() ||
         memref::isStaticShapeAndContiguousRowMajor(type);
}
