//===- Job.h - the MPI job seqpar-run runs in -------------------*- C++ -*-===//
//
// What every part of seqpar-run shares about the job: this process's rank,
// the one way to fail (rank 0 reports, every rank exits 1, since every rank
// reaches the same verdict), the world all-gather, and how messages write
// shapes and values.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_TOOLS_SEQPAR_RUN_JOB_H
#define SEQPAR_TOOLS_SEQPAR_RUN_JOB_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Twine.h"

#include <cstdint>
#include <string>
#include <vector>

namespace seqpar::run {

/// This process's rank and the job's number of ranks; main sets them once
/// the runtime has started.
struct World {
  int rank = 0;
  int size = 1;
};
extern World world;

/// Prints "seqpar-run: error: <message>" on rank 0 in one write (mpirun
/// forwards stdout and stderr separately: pieces of a line would interleave).
void reportError(const llvm::Twine &message);

/// Prints `message` (rank 0 only) and exits every rank with status 1.
[[noreturn]] void fail(const llvm::Twine &message);

/// All-gathers `bytes` bytes from every rank over the world (rank order).
std::vector<uint8_t> gatherBytes(const void *data, size_t bytes);

/// "[2,8,16]".
std::string shapeString(llvm::ArrayRef<int64_t> shape);

/// `value` with 9 significant digits ("%.9g").
std::string valueString(double value);

} // namespace seqpar::run

#endif // SEQPAR_TOOLS_SEQPAR_RUN_JOB_H
