//===- TestUtil.h - helpers shared by the runtime tests ---------*- C++ -*-===//
//
// Expected values are computed here from index arithmetic on the global
// tensors, independently of the runtime's packing code; 16-bit encodings use
// frexp/ldexp, not the runtime's bit conversions.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_RUNTIME_TEST_TESTUTIL_H
#define SEQPAR_RUNTIME_TEST_TESTUTIL_H

#include "seqpar/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <numeric>
#include <vector>

namespace seqpar {
namespace rt {
namespace test {

inline Runtime &rt() { return Runtime::get(); }
inline int worldRank() { return rt().worldRank(); }
inline int worldSize() { return rt().worldSize(); }

inline Communicator *comm(const std::vector<int64_t> &grid,
                          const std::vector<int32_t> &axes) {
  Communicator *c = nullptr;
  Status s = rt().communicator(grid, axes, &c);
  EXPECT_TRUE(s.ok()) << s.message;
  return c;
}

/// World communicator as grid [W], axis 0.
inline Communicator *worldComm() { return comm({worldSize()}, {0}); }

inline int64_t numElements(const std::vector<int64_t> &shape) {
  return std::accumulate(shape.begin(), shape.end(), int64_t{1},
                         std::multiplies<int64_t>());
}

inline std::vector<int64_t> unravel(int64_t lin,
                                    const std::vector<int64_t> &shape) {
  std::vector<int64_t> idx(shape.size());
  for (size_t i = shape.size(); i-- > 0;) {
    idx[i] = lin % shape[i];
    lin /= shape[i];
  }
  return idx;
}

inline int64_t ravel(const std::vector<int64_t> &idx,
                     const std::vector<int64_t> &shape) {
  int64_t lin = 0;
  for (size_t i = 0; i < shape.size(); ++i)
    lin = lin * shape[i] + idx[i];
  return lin;
}

/// Small integers, exact in f32, f16, bf16 and the integer types, and so are
/// sums of up to 8.
inline float value(int64_t lin, int contributor) {
  return static_cast<float>((lin * 7 + contributor * 5 + 3) % 29);
}

/// Test-side 16-bit encodings of exactly representable normal numbers.
inline uint16_t encodeF16(float v) {
  if (v == 0)
    return std::signbit(v) ? 0x8000 : 0;
  int e;
  float m = std::frexp(std::fabs(v), &e); // v = m * 2^e, m in [0.5, 1)
  uint16_t sign = v < 0 ? 0x8000 : 0;
  return static_cast<uint16_t>(sign | ((e - 1 + 15) << 10) |
                               static_cast<uint16_t>((2 * m - 1) * 1024));
}
inline float decodeF16(uint16_t h) {
  int exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  float mag = exp == 0 ? std::ldexp(man / 1024.0f, -14)
                       : std::ldexp(1 + man / 1024.0f, exp - 15);
  return (h & 0x8000) ? -mag : mag;
}
inline uint16_t encodeBF16(float v) {
  uint32_t x;
  std::memcpy(&x, &v, 4);
  return static_cast<uint16_t>(x >> 16); // exact for our values
}
inline float decodeBF16(uint16_t h) {
  uint32_t x = static_cast<uint32_t>(h) << 16;
  float v;
  std::memcpy(&v, &x, 4);
  return v;
}

/// A typed host buffer.
struct Buffer {
  DType dtype;
  std::vector<char> bytes;
  Buffer(DType d, int64_t n) : dtype(d), bytes(n * dtypeSize(d)) {}
  int64_t size() const {
    return static_cast<int64_t>(bytes.size() / dtypeSize(dtype));
  }
  void *data() { return bytes.data(); }
  void set(int64_t i, float v) {
    if (isInteger()) {
      setInt(i, static_cast<int64_t>(v));
      return;
    }
    if (dtype == DType::F32) {
      std::memcpy(&bytes[i * 4], &v, 4);
      return;
    }
    uint16_t h = dtype == DType::F16 ? encodeF16(v) : encodeBF16(v);
    std::memcpy(&bytes[i * 2], &h, 2);
  }
  float get(int64_t i) const {
    if (isInteger())
      return static_cast<float>(getInt(i));
    if (dtype == DType::F32) {
      float v;
      std::memcpy(&v, &bytes[i * 4], 4);
      return v;
    }
    uint16_t h;
    std::memcpy(&h, &bytes[i * 2], 2);
    return dtype == DType::F16 ? decodeF16(h) : decodeBF16(h);
  }
  bool isInteger() const {
    return dtype == DType::I32 || dtype == DType::I64 || dtype == DType::I8;
  }
  /// Integer elements (I32, I64, I8), exactly.
  void setInt(int64_t i, int64_t v) {
    if (dtype == DType::I64) {
      std::memcpy(&bytes[i * 8], &v, 8);
      return;
    }
    if (dtype == DType::I8) {
      bytes[i] = static_cast<char>(static_cast<int8_t>(v));
      return;
    }
    int32_t w = static_cast<int32_t>(v);
    std::memcpy(&bytes[i * 4], &w, 4);
  }
  int64_t getInt(int64_t i) const {
    if (dtype == DType::I64) {
      int64_t v;
      std::memcpy(&v, &bytes[i * 8], 8);
      return v;
    }
    if (dtype == DType::I8)
      return static_cast<int8_t>(bytes[i]);
    int32_t w;
    std::memcpy(&w, &bytes[i * 4], 4);
    return w;
  }
  /// Fills with value(i, contributor).
  void fill(int contributor) {
    for (int64_t i = 0; i < size(); ++i)
      set(i, value(i, contributor));
  }
};

/// World ranks of a grid communicator's members, in axis-rank order,
/// computed from the row-major grid layout (independent of the runtime).
inline std::vector<int> members(const std::vector<int64_t> &grid,
                                const std::vector<int32_t> &axes) {
  std::vector<int64_t> mine = unravel(worldRank(), grid);
  std::vector<int64_t> sub;
  for (int32_t a : axes)
    sub.push_back(grid[a]);
  std::vector<int> out;
  for (int64_t j = 0; j < numElements(sub); ++j) {
    std::vector<int64_t> idx = mine, sj = unravel(j, sub);
    for (size_t k = 0; k < axes.size(); ++k)
      idx[axes[k]] = sj[k];
    out.push_back(static_cast<int>(ravel(idx, grid)));
  }
  return out;
}

inline const char *name(DType d) { return dtypeName(d); }

} // namespace test
} // namespace rt
} // namespace seqpar

#endif // SEQPAR_RUNTIME_TEST_TESTUTIL_H
