//===- DropoutKeep.cpp - seqpar.dropout's keep bit ------------------------===//
//
// Philox-4x32-10 (Salmon, Moraes, Dror, Shaw, "Parallel Random Numbers: As
// Easy as 1, 2, 3", SC 2011): ten rounds of two 32x32->64 multiplies with the
// round constants 0xD2511F53 and 0xCD9E8D57, the key bumped by the Weyl
// constants 0x9E3779B9 and 0xBB67AE85 between rounds.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Dialect/SeqPar/IR/DropoutKeep.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <array>

using namespace mlir;

namespace {

/// Emits arith ops on i32/i64 scalars.
struct ScalarBuilder {
  OpBuilder &b;
  Location loc;

  Value i32(uint32_t value) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                        static_cast<int64_t>(value));
  }
  Value i64(int64_t value) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), value);
  }
  Value low32(Value v) {
    return arith::TruncIOp::create(b, loc, b.getI32Type(), v);
  }
  Value high32(Value v) {
    return low32(arith::ShRUIOp::create(b, loc, v, i64(32)));
  }
  Value xorOf(Value a, Value c) { return arith::XOrIOp::create(b, loc, a, c); }
  Value add(Value a, Value c) { return arith::AddIOp::create(b, loc, a, c); }
};

/// Philox-4x32-10 of `counter` under `key`; returns the first output word.
Value philox4x32(ScalarBuilder &sb, std::array<Value, 4> counter,
                 std::array<Value, 2> key) {
  Value m0 = sb.i32(0xD2511F53u), m1 = sb.i32(0xCD9E8D57u);
  Value w0 = sb.i32(0x9E3779B9u), w1 = sb.i32(0xBB67AE85u);
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      key[0] = sb.add(key[0], w0);
      key[1] = sb.add(key[1], w1);
    }
    auto p0 = arith::MulUIExtendedOp::create(sb.b, sb.loc, m0, counter[0]);
    auto p1 = arith::MulUIExtendedOp::create(sb.b, sb.loc, m1, counter[2]);
    counter = {sb.xorOf(sb.xorOf(p1.getHigh(), counter[1]), key[0]),
               p1.getLow(),
               sb.xorOf(sb.xorOf(p0.getHigh(), counter[3]), key[1]),
               p0.getLow()};
  }
  return counter[0];
}

} // namespace

Value mlir::seqpar::buildDropoutKeep(OpBuilder &b, Location loc, Value linear,
                                     Value seed, int64_t site, double rate) {
  ScalarBuilder sb{b, loc};
  Value word = philox4x32(sb,
                          {sb.low32(linear), sb.high32(linear),
                           sb.i32(static_cast<uint32_t>(site)), sb.i32(0)},
                          {sb.low32(seed), sb.high32(seed)});
  // u = top 24 bits / 2^24 in [0, 1), exact in f32.
  Value top = arith::ShRUIOp::create(b, loc, word, sb.i32(8));
  Value u = arith::UIToFPOp::create(b, loc, b.getF32Type(), top);
  Value scaled = arith::MulFOp::create(
      b, loc, u,
      arith::ConstantFloatOp::create(b, loc, b.getF32Type(), APFloat(0x1p-24f)));
  return arith::CmpFOp::create(
      b, loc, arith::CmpFPredicate::OGE, scaled,
      arith::ConstantFloatOp::create(b, loc, b.getF32Type(),
                                     APFloat(static_cast<float>(rate))));
}
