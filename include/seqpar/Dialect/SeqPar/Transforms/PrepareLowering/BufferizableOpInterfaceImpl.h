//===- BufferizableOpInterfaceImpl.h - bufferization of collectives -*- C++ -*-===//
//
// BufferizableOpInterface external models for the upstream `shard`
// collectives (all_gather, reduce_scatter, all_reduce, all_to_all, all_slice,
// shift) and the seqpar asynchronous collectives, so that One-Shot
// Bufferize turns them into the memref-level `seqpar.memref_*` ops that
// `seqpar-lower-collectives-to-runtime` lowers to runtime calls.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_DIALECT_SEQPAR_TRANSFORMS_PREPARELOWERING_BUFFERIZABLEOPINTERFACEIMPL_H
#define SEQPAR_DIALECT_SEQPAR_TRANSFORMS_PREPARELOWERING_BUFFERIZABLEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
namespace seqpar {

/// Registers the external models on the shard and seqpar dialects.
///
/// What each op bufferizes to (every output is a new identity-layout buffer
/// from the bufferization allocation function; a send buffer that is not a
/// contiguous row-major block is first copied into one):
/// - shard.all_gather / reduce_scatter / all_reduce / all_to_all: the
///   blocking `seqpar.memref_*` op with that buffer as output;
/// - shard.shift (rotate or not: a rotation is a valid result where the
///   upstream op leaves values undefined): `seqpar.memref_shift` over
///   [shift_axis];
/// - shard.all_slice: no communication; a copy of this rank's slice (offset
///   from shard.process_multi_index);
/// - seqpar.*_start: a private copy of the input (the send buffer, so later
///   in-place writes to the input cannot race with the transfer), an output
///   buffer, and the asynchronous `seqpar.memref_*` op returning a
///   !seqpar.request<memref<...>>;
/// - seqpar.wait: `seqpar.memref_wait` naming the start's two buffers (which
///   keeps them alive until the transfer completed); its result is the
///   output buffer.
/// Reductions other than sum/max/min are refused with an error at the op.
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);

} // namespace seqpar
} // namespace mlir

#endif // SEQPAR_DIALECT_SEQPAR_TRANSFORMS_PREPARELOWERING_BUFFERIZABLEOPINTERFACEIMPL_H
