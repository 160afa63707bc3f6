//===- Counters.h - collective and compute-region counters ------*- C++ -*-===//

#ifndef SEQPAR_RUNTIME_LIB_COUNTERS_H
#define SEQPAR_RUNTIME_LIB_COUNTERS_H

#include "seqpar/runtime/Runtime.h"

#include <mutex>

namespace seqpar {
namespace rt {
namespace detail {

/// This rank's counters; thread-safe (the progress thread records
/// completions, callers record waits and regions).
class Counters {
public:
  /// One completed collective: bytes per docs/semantics.md §5, seconds
  /// start->completion.
  void addCollective(const CounterKey &key, uint64_t bytesSent,
                     double seconds);
  /// Time a caller was blocked waiting for a collective. Both also count in
  /// every open region (RegionCounter::waitSeconds, collectiveSeconds).
  void addWait(const CounterKey &key, double seconds);
  Status regionBegin(const std::string &name, int64_t flops, double now);
  Status regionEnd(const std::string &name, double now);
  CounterSnapshot snapshot(int32_t rank) const;
  void reset();

private:
  mutable std::mutex mutex_;
  std::map<CounterKey, CollectiveCounter> collectives_;
  std::map<std::string, RegionCounter> regions_;
  struct Open {
    double start;
    int64_t flops;
    double waitSeconds = 0;
    double collectiveSeconds = 0;
  };
  std::map<std::string, Open> open_;
};

/// One-line-per-counter serialization used to gather snapshots on rank 0.
std::string serialize(const CounterSnapshot &snapshot);
bool deserialize(const std::string &text, CounterSnapshot *snapshot);

/// Every snapshot (one per rank), then, if `aggregate`, the sums over ranks
/// (calls, bytes, FLOPs summed; seconds and peak bytes: max over ranks).
std::string formatText(const std::vector<CounterSnapshot> &ranks,
                       bool aggregate);
std::string formatJson(const std::vector<CounterSnapshot> &ranks,
                       bool aggregate);

} // namespace detail
} // namespace rt
} // namespace seqpar

#endif // SEQPAR_RUNTIME_LIB_COUNTERS_H
