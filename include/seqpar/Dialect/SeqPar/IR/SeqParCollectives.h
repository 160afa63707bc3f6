//===- SeqParCollectives.h - async and memref collectives -------*- C++ -*-===//
//
// Declarations the asynchronous and memref-level collectives need before
// their generated op classes (SeqParCollectives.td): the request type and the
// communication side-effect resource. Included by SeqPar.h.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_DIALECT_SEQPAR_IR_SEQPARCOLLECTIVES_H
#define SEQPAR_DIALECT_SEQPAR_IR_SEQPARCOLLECTIVES_H

#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_TYPEDEF_CLASSES
#include "seqpar/Dialect/SeqPar/IR/SeqParOpsTypes.h.inc"

namespace mlir::seqpar {

/// The side-effect resource of inter-rank communication. Every collective
/// writes it, so collectives keep their program order (every rank must issue
/// them in the same order) and are never CSE'd or erased as dead.
struct CommunicationResource
    : public SideEffects::Resource::Base<CommunicationResource> {
  llvm::StringRef getName() final { return "seqpar.communication"; }
};

/// Number of ranks in a collective's group: the product of the extents of
/// `gridAxes` on `grid`; -1 if an extent is dynamic or an axis is out of
/// range.
int64_t getGroupSize(shard::GridOp grid, llvm::ArrayRef<int16_t> gridAxes);

/// Element type code of the runtime C ABI (SEQPAR_RT_F32/F16/BF16/I32/I64/I8
/// = 0/1/2/3/4/5) for `type` (integers: signless i32, i64, i8, and i1, which
/// memory holds one byte per element), or -1 when the runtime does not
/// handle it.
int32_t getRuntimeDType(Type type);

} // namespace mlir::seqpar

#endif // SEQPAR_DIALECT_SEQPAR_IR_SEQPARCOLLECTIVES_H
