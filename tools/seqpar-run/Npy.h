//===- Npy.h - .npy reader and writer ---------------------------*- C++ -*-===//
//
// NumPy .npy files (format versions 1.0, 2.0 and 3.0): little-endian f32
// ('<f4'), f16 ('<f2'), bf16 stored as uint16 ('<u2', the bits of the
// bfloat16), i32 ('<i4') and i64 ('<i8'), C order. Enough for seqpar-run's
// global inputs and outputs; no external dependency.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_TOOLS_SEQPAR_RUN_NPY_H
#define SEQPAR_TOOLS_SEQPAR_RUN_NPY_H

#include <cstdint>
#include <string>
#include <vector>

namespace seqpar::npy {

/// Element type of an array; the descr written is shown for each.
enum class DType { F32, F16, BF16, I32, I64 };

/// Bytes of one element.
size_t dtypeSize(DType dtype);
/// "f32", "f16", "bf16", "i32", "i64".
const char *dtypeName(DType dtype);
/// f16 or bf16.
bool isHalf(DType dtype);

/// A dense row-major array.
struct Array {
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data; ///< numElements() * dtypeSize(dtype) bytes
  int64_t numElements() const;
};

/// Reads `path`. On error returns false and sets `error` to a one-line
/// message naming the file and the problem (missing file, bad magic,
/// unsupported version or descr, Fortran order, truncated data).
bool read(const std::string &path, Array &array, std::string &error);

/// Writes `array` as a version 1.0 file; false and `error` on I/O failure.
bool write(const std::string &path, const Array &array, std::string &error);

/// Conversions between f32 and the 16-bit formats (round to nearest even).
uint16_t floatToHalf(float value);
float halfToFloat(uint16_t bits);
uint16_t floatToBF16(float value);
float bf16ToFloat(uint16_t bits);

/// Element `i` of `array` as a double.
double getElement(const Array &array, int64_t i);
/// Sets element `i` of `array` from a double (rounded to its type).
void setElement(Array &array, int64_t i, double value);

} // namespace seqpar::npy

#endif // SEQPAR_TOOLS_SEQPAR_RUN_NPY_H
