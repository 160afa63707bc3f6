//===- Job.cpp - the MPI job seqpar-run runs in ---------------------------===//

#include "Job.h"

#include "seqpar/runtime/seqpar_runtime.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace seqpar::run {

World world;

void reportError(const llvm::Twine &message) {
  if (world.rank != 0)
    return;
  std::fflush(stdout);
  llvm::errs() << ("seqpar-run: error: " + message + "\n").str();
  llvm::errs().flush();
}

void fail(const llvm::Twine &message) {
  reportError(message);
  std::exit(1);
}

std::vector<uint8_t> gatherBytes(const void *data, size_t bytes) {
  static seqpar_rt_comm_t worldComm = nullptr;
  if (!worldComm) {
    int64_t shape[1] = {world.size};
    int32_t axes[1] = {0};
    if (seqpar_rt_comm_get(shape, 1, axes, 1, &worldComm) != SEQPAR_RT_OK)
      fail(std::string("world communicator: ") + seqpar_rt_last_error());
  }
  // Moved as 2-byte units: the runtime copies all-gathered data bit-exactly.
  size_t padded = (bytes + 1) / 2 * 2;
  std::vector<uint8_t> in(padded, 0), out(padded * world.size, 0);
  std::memcpy(in.data(), data, bytes);
  int64_t units[1] = {static_cast<int64_t>(padded / 2)};
  if (padded && seqpar_rt_all_gather(worldComm, SEQPAR_RT_F16, in.data(),
                                     out.data(), units, 1, 0) != SEQPAR_RT_OK)
    fail(std::string("gathering outputs: ") + seqpar_rt_last_error());
  std::vector<uint8_t> result;
  for (int r = 0; r < world.size; ++r)
    result.insert(result.end(), out.begin() + r * padded,
                  out.begin() + r * padded + bytes);
  return result;
}

std::string shapeString(llvm::ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? "," : "") + std::to_string(d);
  return s + "]";
}

std::string valueString(double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", value);
  return buf;
}

} // namespace seqpar::run
