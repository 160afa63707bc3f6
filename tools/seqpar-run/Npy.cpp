//===- Npy.cpp - .npy reader and writer -----------------------------------===//
//
// Format: "\x93NUMPY", major, minor, header length (uint16 for 1.0, uint32
// for 2.0/3.0, little-endian), then an ASCII Python dict
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } padded with
// spaces to a 64-byte boundary and ended by '\n', then the raw data.
//
//===----------------------------------------------------------------------===//

#include "Npy.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

namespace seqpar::npy {

size_t dtypeSize(DType dtype) {
  switch (dtype) {
  case DType::F32:
  case DType::I32:
    return 4;
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::I64:
    return 8;
  }
  return 0;
}

const char *dtypeName(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "f32";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  }
  return "?";
}

bool isHalf(DType dtype) { return dtype == DType::F16 || dtype == DType::BF16; }

static const char *descrOf(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "<f4";
  case DType::F16:
    return "<f2";
  case DType::BF16:
    return "<u2";
  case DType::I32:
    return "<i4";
  case DType::I64:
    return "<i8";
  }
  return "";
}

int64_t Array::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// The quoted value after `'key':` in the header dict, or the raw text up to
/// the next ',' / '}' for unquoted values; "" when absent.
static std::string findValue(const std::string &header, const std::string &key) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos)
    return "";
  at = header.find(':', at);
  if (at == std::string::npos)
    return "";
  ++at;
  while (at < header.size() && header[at] == ' ')
    ++at;
  if (at < header.size() && header[at] == '\'') {
    size_t end = header.find('\'', at + 1);
    return end == std::string::npos ? "" : header.substr(at + 1, end - at - 1);
  }
  if (at < header.size() && header[at] == '(') {
    size_t end = header.find(')', at);
    return end == std::string::npos ? "" : header.substr(at, end - at + 1);
  }
  size_t end = header.find_first_of(",}", at);
  return header.substr(at, end - at);
}

bool read(const std::string &path, Array &array, std::string &error) {
  auto fail = [&](const std::string &what) {
    error = path + ": " + what;
    return false;
  };
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return fail("cannot open file");
  char magic[8];
  if (!in.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0)
    return fail("not a .npy file (bad magic)");
  int major = static_cast<unsigned char>(magic[6]);
  uint32_t headerLen = 0;
  if (major == 1) {
    unsigned char len[2];
    if (!in.read(reinterpret_cast<char *>(len), 2))
      return fail("truncated header");
    headerLen = len[0] | (len[1] << 8);
  } else if (major == 2 || major == 3) {
    unsigned char len[4];
    if (!in.read(reinterpret_cast<char *>(len), 4))
      return fail("truncated header");
    headerLen = len[0] | (len[1] << 8) | (len[2] << 16) |
                (static_cast<uint32_t>(len[3]) << 24);
  } else {
    return fail("unsupported .npy version " + std::to_string(major));
  }
  if (headerLen > (1u << 20))
    return fail("header too long");
  std::string header(headerLen, '\0');
  if (!in.read(header.data(), headerLen))
    return fail("truncated header");

  std::string descr = findValue(header, "descr");
  if (descr == "<f4" || descr == "=f4")
    array.dtype = DType::F32;
  else if (descr == "<f2" || descr == "=f2")
    array.dtype = DType::F16;
  else if (descr == "<u2" || descr == "=u2" || descr == "<V2")
    array.dtype = DType::BF16;
  else if (descr == "<i4" || descr == "=i4")
    array.dtype = DType::I32;
  else if (descr == "<i8" || descr == "=i8")
    array.dtype = DType::I64;
  else
    return fail("unsupported dtype '" + descr +
                "' (little-endian <f4, <f2, <u2 (bf16), <i4, <i8)");
  if (findValue(header, "fortran_order").find("False") == std::string::npos)
    return fail("Fortran-order arrays are not supported");
  std::string shape = findValue(header, "shape");
  if (shape.size() < 2 || shape.front() != '(' || shape.back() != ')')
    return fail("missing or malformed shape in the header");
  array.shape.clear();
  std::stringstream dims(shape.substr(1, shape.size() - 2));
  std::string item;
  while (std::getline(dims, item, ',')) {
    size_t first = item.find_first_not_of(' ');
    if (first == std::string::npos)
      continue;
    char *end = nullptr;
    long long value = std::strtoll(item.c_str() + first, &end, 10);
    if (end == item.c_str() + first || value < 0)
      return fail("malformed shape " + shape);
    array.shape.push_back(value);
  }
  size_t bytes = array.numElements() * dtypeSize(array.dtype);
  array.data.resize(bytes);
  if (bytes && !in.read(reinterpret_cast<char *>(array.data.data()), bytes))
    return fail("truncated data: expected " + std::to_string(bytes) +
                " bytes for shape " + shape);
  return true;
}

bool write(const std::string &path, const Array &array, std::string &error) {
  std::string header = "{'descr': '" + std::string(descrOf(array.dtype)) +
                       "', 'fortran_order': False, 'shape': (";
  for (int64_t d : array.shape)
    header += std::to_string(d) + ", ";
  // "(2, 3)" for rank > 1, "(4,)" for rank 1, "()" for rank 0.
  if (array.shape.size() > 1)
    header.erase(header.size() - 2);
  else if (array.shape.size() == 1)
    header.erase(header.size() - 1);
  header += "), }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  if (!out) {
    error = path + ": cannot create file";
    return false;
  }
  uint16_t len = static_cast<uint16_t>(header.size());
  out.write("\x93NUMPY\x01\x00", 8);
  char lenBytes[2] = {static_cast<char>(len & 0xff),
                      static_cast<char>(len >> 8)};
  out.write(lenBytes, 2);
  out.write(header.data(), header.size());
  out.write(reinterpret_cast<const char *>(array.data.data()),
            array.data.size());
  if (!out) {
    error = path + ": write failed";
    return false;
  }
  return true;
}

uint16_t floatToHalf(float value) {
  uint32_t x;
  std::memcpy(&x, &value, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  int32_t exp = static_cast<int32_t>((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = x & 0x7fffff;
  if (((x >> 23) & 0xff) == 0xff) // inf / nan
    return sign | 0x7c00 | (mant ? 0x200 : 0);
  if (exp >= 31)
    return sign | 0x7c00;
  if (exp <= 0) {
    if (exp < -10)
      return sign;
    mant |= 0x800000;
    uint32_t shift = 14 - exp;
    uint32_t half = mant >> shift;
    uint32_t rest = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rest > mid || (rest == mid && (half & 1)))
      ++half;
    return sign | half;
  }
  uint32_t half = sign | (exp << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half;
  return static_cast<uint16_t>(half);
}

float halfToFloat(uint16_t bits) {
  uint32_t sign = (bits & 0x8000u) << 16;
  uint32_t exp = (bits >> 10) & 0x1f, mant = bits & 0x3ff;
  uint32_t x;
  if (exp == 0) {
    if (mant == 0) {
      x = sign;
    } else {
      float f = std::ldexp(static_cast<float>(mant), -24);
      std::memcpy(&x, &f, 4);
      x |= sign;
    }
  } else if (exp == 31) {
    x = sign | 0x7f800000 | (mant << 13);
  } else {
    x = sign | ((exp - 15 + 127) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

uint16_t floatToBF16(float value) {
  uint32_t x;
  std::memcpy(&x, &value, 4);
  if ((x & 0x7fffffff) > 0x7f800000)
    return static_cast<uint16_t>((x >> 16) | 0x40);
  x += 0x7fff + ((x >> 16) & 1);
  return static_cast<uint16_t>(x >> 16);
}

float bf16ToFloat(uint16_t bits) {
  uint32_t x = static_cast<uint32_t>(bits) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

double getElement(const Array &array, int64_t i) {
  const uint8_t *p = array.data.data() + i * dtypeSize(array.dtype);
  switch (array.dtype) {
  case DType::F32: {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  case DType::F16: {
    uint16_t b;
    std::memcpy(&b, p, 2);
    return halfToFloat(b);
  }
  case DType::BF16: {
    uint16_t b;
    std::memcpy(&b, p, 2);
    return bf16ToFloat(b);
  }
  case DType::I32: {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case DType::I64: {
    int64_t v;
    std::memcpy(&v, p, 8);
    return static_cast<double>(v);
  }
  }
  return 0;
}

void setElement(Array &array, int64_t i, double value) {
  uint8_t *p = array.data.data() + i * dtypeSize(array.dtype);
  switch (array.dtype) {
  case DType::F32: {
    float f = static_cast<float>(value);
    std::memcpy(p, &f, 4);
    return;
  }
  case DType::F16: {
    uint16_t b = floatToHalf(static_cast<float>(value));
    std::memcpy(p, &b, 2);
    return;
  }
  case DType::BF16: {
    uint16_t b = floatToBF16(static_cast<float>(value));
    std::memcpy(p, &b, 2);
    return;
  }
  case DType::I32: {
    int32_t v = static_cast<int32_t>(value);
    std::memcpy(p, &v, 4);
    return;
  }
  case DType::I64: {
    int64_t v = static_cast<int64_t>(value);
    std::memcpy(p, &v, 8);
    return;
  }
  }
}

} // namespace seqpar::npy
