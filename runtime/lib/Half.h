//===- Half.h - f16 / bf16 <-> f32 conversions ------------------*- C++ -*-===//
//
// Bit-exact IEEE conversions used by the host backend to reduce 16-bit data
// in f32: widening is exact; narrowing rounds to nearest, ties to even,
// overflows to infinity and keeps NaNs quiet NaNs.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_RUNTIME_LIB_HALF_H
#define SEQPAR_RUNTIME_LIB_HALF_H

#include <cstdint>
#include <cstring>

namespace seqpar {
namespace rt {
namespace detail {

inline uint32_t floatBits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  return x;
}

inline float bitsFloat(uint32_t x) {
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

/// IEEE binary16 -> binary32 (exact, subnormals included).
inline float f16ToF32(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  if (exp == 0x1f)
    return bitsFloat(sign | 0x7f800000 | (mant << 13));
  if (exp != 0)
    return bitsFloat(sign | ((exp + 112) << 23) | (mant << 13));
  if (mant == 0)
    return bitsFloat(sign);
  // Subnormal: normalize the mantissa.
  uint32_t e = 0;
  while (!(mant & 0x400)) {
    mant <<= 1;
    ++e;
  }
  mant &= 0x3ff;
  return bitsFloat(sign | ((113 - e) << 23) | (mant << 13));
}

/// binary32 -> binary16, round to nearest even.
inline uint16_t f32ToF16(float f) {
  uint32_t x = floatBits(f);
  uint32_t sign = (x >> 16) & 0x8000;
  uint32_t absx = x & 0x7fffffff;
  if (absx >= 0x7f800000) // inf / NaN (NaN stays a quiet NaN)
    return static_cast<uint16_t>(
        sign | 0x7c00 | (absx > 0x7f800000 ? 0x200 | ((absx >> 13) & 0x3ff) : 0));
  if (absx >= 0x477ff000) // >= 65520 rounds to infinity
    return static_cast<uint16_t>(sign | 0x7c00);
  if (absx < 0x38800000) { // below the smallest normal 2^-14
    if (absx < 0x33000000) // below 2^-25: rounds to zero
      return static_cast<uint16_t>(sign);
    uint32_t mant = (absx & 0x7fffff) | 0x800000;
    uint32_t shift = 126 - (absx >> 23);
    uint32_t r = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1);
    uint32_t half = 1u << (shift - 1);
    if (rem > half || (rem == half && (r & 1)))
      ++r;
    return static_cast<uint16_t>(sign | r);
  }
  uint32_t r = (absx - 0x38000000) >> 13;
  uint32_t rem = absx & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (r & 1)))
    ++r;
  return static_cast<uint16_t>(sign | r);
}

/// bfloat16 -> binary32 (exact).
inline float bf16ToF32(uint16_t h) {
  return bitsFloat(static_cast<uint32_t>(h) << 16);
}

/// binary32 -> bfloat16, round to nearest even.
inline uint16_t f32ToBf16(float f) {
  uint32_t x = floatBits(f);
  if ((x & 0x7fffffff) > 0x7f800000) // NaN: keep it quiet
    return static_cast<uint16_t>((x >> 16) | 0x40);
  x += 0x7fff + ((x >> 16) & 1);
  return static_cast<uint16_t>(x >> 16);
}

} // namespace detail
} // namespace rt
} // namespace seqpar

#endif // SEQPAR_RUNTIME_LIB_HALF_H
