//===- SeqParToRuntime.h - collectives -> runtime C ABI ---------*- C++ -*-===//
//
// Patterns of `seqpar-lower-collectives-to-runtime`, for drivers that run
// them in their own conversion.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_CONVERSION_SEQPARTORUNTIME_SEQPARTORUNTIME_H
#define SEQPAR_CONVERSION_SEQPARTORUNTIME_SEQPARTORUNTIME_H

namespace mlir {
class RewritePatternSet;
class TypeConverter;
namespace seqpar {

/// Adds the conversion of !seqpar.request<...> to !llvm.ptr (the runtime's
/// seqpar_rt_request_t) and the identity for every other type.
void populateCollectivesToRuntimeTypeConversion(TypeConverter &converter);

/// Adds the patterns lowering seqpar.memref_{all_gather, reduce_scatter,
/// all_reduce, all_to_all, shift} (blocking and asynchronous),
/// seqpar.memref_wait, shard.process_multi_index, shard.process_linear_index
/// and shard.grid_shape to calls of the runtime C ABI (llvm dialect), with
/// the helper functions and constant globals they need created in the
/// enclosing module. A pattern fails to match (without a diagnostic) on an
/// element type other than f32/f16/bf16, a dynamic shape, a non-contiguous
/// buffer or a dynamic grid.
void populateCollectivesToRuntimePatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns);

} // namespace seqpar
} // namespace mlir

#endif // SEQPAR_CONVERSION_SEQPARTORUNTIME_SEQPARTORUNTIME_H
