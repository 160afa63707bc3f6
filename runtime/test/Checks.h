//===- Checks.h - run one collective and check it against index math ------===//
//
// Every rank contributes value(i, its world rank) at linear index i; the
// expected output is computed from the communicator's members (world ranks in
// axis-rank order, from TestUtil.h's members()), so using a world rank where
// an axis rank is needed (docs/semantics.md §7) shows up as wrong values.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_RUNTIME_TEST_CHECKS_H
#define SEQPAR_RUNTIME_TEST_CHECKS_H

#include "TestUtil.h"

#include <algorithm>

namespace seqpar {
namespace rt {
namespace test {

/// Runs a collective given host buffers. The NCCL test installs a runner
/// that stages the buffers through device memory; null = host buffers.
using Runner = Status (*)(Communicator *, const CollectiveOp &, bool async);
inline Runner &runner() {
  static Runner r = nullptr;
  return r;
}

inline Status runOp(Communicator *c, const CollectiveOp &op, bool async) {
  if (runner())
    return runner()(c, op, async);
  if (!async)
    return c->run(op);
  std::unique_ptr<Request> request;
  Status s = c->start(op, &request);
  if (!s.ok())
    return s;
  return request->wait();
}

inline float reduceOf(Reduction red, const std::vector<float> &xs) {
  float acc = xs[0];
  for (size_t i = 1; i < xs.size(); ++i)
    acc = red == Reduction::Sum   ? acc + xs[i]
          : red == Reduction::Max ? std::max(acc, xs[i])
                                  : std::min(acc, xs[i]);
  return acc;
}

inline int axisRankOf(const std::vector<int> &m) {
  return static_cast<int>(std::find(m.begin(), m.end(), worldRank()) -
                          m.begin());
}

/// Compares `out` with `expected(i)`, reporting the first few mismatches.
template <typename F>
void expectAll(const Buffer &out, F expected, const std::string &what) {
  int bad = 0;
  for (int64_t i = 0; i < out.size() && bad < 3; ++i) {
    float want = expected(i);
    if (out.get(i) != want) {
      ADD_FAILURE() << what << ": rank " << worldRank() << " element " << i
                    << " is " << out.get(i) << ", expected " << want;
      ++bad;
    }
  }
}

inline void checkAllGather(Communicator *c, const std::vector<int> &m,
                           DType dt, std::vector<int64_t> local, int dim,
                           bool async = false) {
  int64_t t = static_cast<int64_t>(m.size());
  std::vector<int64_t> full = local;
  full[dim] *= t;
  Buffer in(dt, numElements(local)), out(dt, numElements(full));
  in.fill(worldRank());
  Status s = runOp(c, CollectiveOp::allGather(dt, in.data(), out.data(), local, dim), async);
  ASSERT_TRUE(s.ok()) << s.message;
  expectAll(out, [&](int64_t o) {
    std::vector<int64_t> idx = unravel(o, full);
    int64_t j = idx[dim] / local[dim];
    idx[dim] %= local[dim];
    return value(ravel(idx, local), m[j]);
  }, std::string("all_gather ") + name(dt) + " dim " + std::to_string(dim));
}

inline void checkReduceScatter(Communicator *c, const std::vector<int> &m,
                               DType dt, Reduction red,
                               std::vector<int64_t> full, int dim,
                               bool async = false) {
  int64_t t = static_cast<int64_t>(m.size());
  std::vector<int64_t> part = full;
  part[dim] /= t;
  Buffer in(dt, numElements(full)), out(dt, numElements(part));
  in.fill(worldRank());
  Status s = runOp(c, CollectiveOp::reduceScatter(dt, red, in.data(), out.data(), full, dim), async);
  ASSERT_TRUE(s.ok()) << s.message;
  int r = axisRankOf(m);
  expectAll(out, [&](int64_t o) {
    std::vector<int64_t> idx = unravel(o, part);
    idx[dim] += r * part[dim];
    std::vector<float> xs;
    for (int w : m)
      xs.push_back(value(ravel(idx, full), w));
    return reduceOf(red, xs);
  }, std::string("reduce_scatter ") + name(dt) + " " + reductionName(red) +
         " dim " + std::to_string(dim));
}

inline void checkAllReduce(Communicator *c, const std::vector<int> &m, DType dt,
                           Reduction red, std::vector<int64_t> shape,
                           bool inPlace = false, bool async = false) {
  Buffer in(dt, numElements(shape)), out(dt, numElements(shape));
  in.fill(worldRank());
  Buffer &dst = inPlace ? in : out;
  Status s = runOp(c, CollectiveOp::allReduce(dt, red, in.data(), dst.data(), shape), async);
  ASSERT_TRUE(s.ok()) << s.message;
  expectAll(dst, [&](int64_t i) {
    std::vector<float> xs;
    for (int w : m)
      xs.push_back(value(i, w));
    return reduceOf(red, xs);
  }, std::string("all_reduce ") + name(dt) + " " + reductionName(red));
}

inline void checkAllToAll(Communicator *c, const std::vector<int> &m, DType dt,
                          std::vector<int64_t> local, int split, int concat,
                          bool async = false) {
  int64_t t = static_cast<int64_t>(m.size());
  std::vector<int64_t> chunk = local;
  chunk[split] /= t;
  std::vector<int64_t> outShape = chunk;
  outShape[concat] *= t;
  Buffer in(dt, numElements(local)), out(dt, numElements(outShape));
  in.fill(worldRank());
  Status s = runOp(c, CollectiveOp::allToAll(dt, in.data(), out.data(), local, split, concat), async);
  ASSERT_TRUE(s.ok()) << s.message;
  int r = axisRankOf(m);
  expectAll(out, [&](int64_t o) {
    std::vector<int64_t> idx = unravel(o, outShape);
    int64_t j = idx[concat] / chunk[concat]; // sender's axis rank
    idx[concat] %= chunk[concat];
    idx[split] += r * chunk[split]; // my chunk of the sender's input
    return value(ravel(idx, local), m[j]);
  }, std::string("all_to_all ") + name(dt) + " split " + std::to_string(split) +
         " concat " + std::to_string(concat));
}

inline void checkShift(Communicator *c, const std::vector<int> &m, DType dt,
                       std::vector<int64_t> shape, int64_t offset,
                       bool async = false) {
  int64_t t = static_cast<int64_t>(m.size());
  Buffer in(dt, numElements(shape)), out(dt, numElements(shape));
  in.fill(worldRank());
  Status s = runOp(c, CollectiveOp::shift(dt, in.data(), out.data(), shape, offset), async);
  ASSERT_TRUE(s.ok()) << s.message;
  int64_t from = ((axisRankOf(m) - offset) % t + t) % t;
  expectAll(out, [&](int64_t i) { return value(i, m[from]); },
            std::string("shift ") + name(dt) + " offset " + std::to_string(offset));
}

} // namespace test
} // namespace rt
} // namespace seqpar

#endif // SEQPAR_RUNTIME_TEST_CHECKS_H
