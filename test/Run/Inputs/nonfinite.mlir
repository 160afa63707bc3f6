// A single-device program whose result holds NaN, +Inf and -Inf at fixed
// positions whatever its generated input: y = 0 * x + n / d with
// n / d = [0/0, 1/0, -1/0, 4/2, 1/4, 3/1].
shard.grid @grid(shape = 1) {sym_visibility = "private"}
func.func @forward(%x: tensor<6xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
    -> (tensor<6xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
  %n = arith.constant dense<[0.0, 1.0, -1.0, 4.0, 1.0, 3.0]> : tensor<6xf32>
  %d = arith.constant dense<[0.0, 0.0, 0.0, 2.0, 4.0, 1.0]> : tensor<6xf32>
  %zero = arith.constant dense<0.0> : tensor<6xf32>
  %q = arith.divf %n, %d : tensor<6xf32>
  %x0 = arith.mulf %x, %zero : tensor<6xf32>
  %y = arith.addf %x0, %q : tensor<6xf32>
  return %y : tensor<6xf32>
}
