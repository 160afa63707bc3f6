//===- FunctionIO.h - a per-rank program's values ---------------*- C++ -*-===//
//
// The values going into and out of a per-rank program (docs/semantics.md
// §2): its entry's signature, global inputs (generated from a seed or read
// from .npy files) cut into this rank's arguments as their #seqpar.sharding
// says, outputs assembled from every rank's pieces, and the same global
// inputs handed to the single-device reference. The index arithmetic is
// seqpar/Dialect/SeqPar/IR/ShardingLayout.h's. Every problem fails the job
// with a message naming the file, the function and the value.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_TOOLS_SEQPAR_RUN_FUNCTIONIO_H
#define SEQPAR_TOOLS_SEQPAR_RUN_FUNCTIONIO_H

#include "Npy.h"

#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/Support/ModuleLoading.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include <string>
#include <vector>

namespace seqpar::run {

/// A parsed program with its entry function.
struct Program {
  std::string path;
  std::string entryName;
  mlir::seqpar::LoadedModule loaded;
  mlir::func::FuncOp entry;

  mlir::ModuleOp module() const { return *loaded.module; }
};

/// Parses `path` (rank 0 prints the parser's errors) and finds its function
/// @`entry` with a body; `entryOption` is the option that chooses it.
Program loadProgram(mlir::MLIRContext &ctx, const std::string &path,
                    const std::string &entry, llvm::StringRef entryOption);

/// One argument or result of the entry function.
struct ValueInfo {
  std::string name;
  mlir::RankedTensorType localType;
  mlir::seqpar::ShardingAttr sharding;
  llvm::SmallVector<int64_t> globalShape;
  npy::DType dtype = npy::DType::F32;
};

/// A per-rank entry's arguments and results and the shape of the one grid
/// their shardings name.
struct Signature {
  llvm::SmallVector<ValueInfo> args, results;
  llvm::SmallVector<int64_t> gridShape;
};

/// Reads the per-rank signature: every argument and result must be a static
/// tensor of a supported element type with a sharding on one static grid of
/// as many devices as the job has ranks.
Signature readSignature(const Program &program);

/// The global inputs: read from `inputFiles` (one per argument, checked for
/// element type and global shape), or generated from `seed` when there are
/// none.
std::vector<npy::Array> getGlobalInputs(const Program &program,
                                        const Signature &signature,
                                        llvm::ArrayRef<std::string> inputFiles,
                                        uint64_t seed);

/// Writes `arrays` to `<prefix><k>.npy`.
void writeArrays(const std::string &prefix,
                 const std::vector<npy::Array> &arrays);

/// The buffers of one call: its inputs, and its outputs (zeroed, written by
/// the call).
struct Call {
  std::vector<npy::Array> inputs, outputs;
};

/// This rank's call: its pieces of `globals`, and buffers of the per-rank
/// result shapes.
Call prepareRankCall(const Signature &signature,
                     const std::vector<npy::Array> &globals,
                     llvm::ArrayRef<int64_t> coords);

/// Every output of the grid assembled from each rank's piece in `outputs`
/// (replicas: the representative's; partial: summed), on every rank. An
/// output whose replicas differ prints `output k: FAIL: ...` on rank 0;
/// `replicasDiffer` names the first such output ("" when none).
std::vector<npy::Array> assembleOutputs(const Signature &signature,
                                        const std::vector<npy::Array> &outputs,
                                        std::string &replicasDiffer);

/// Checks that the single-device `reference` can run on `globals`: its
/// signature must match the program's (an f32 argument may take an f16/bf16
/// input, widened exactly), return `numOutputs` static tensors, and use grids
/// of one device only. Fails the job, naming the reference, otherwise.
void checkReference(const Program &reference,
                    const std::vector<npy::Array> &globals, size_t numOutputs);

/// The call of `reference` on `globals`, once checkReference has passed.
Call prepareReferenceCall(const Program &reference,
                          const std::vector<npy::Array> &globals);

} // namespace seqpar::run

#endif // SEQPAR_TOOLS_SEQPAR_RUN_FUNCTIONIO_H
