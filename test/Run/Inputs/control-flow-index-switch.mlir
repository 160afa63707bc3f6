// An scf.index_switch whose case yields a tensor computed in a buffer that
// an op after the switch fills in place (test/Run/control-flow.test): the
// switch's result must not change. Bufferized as a switch, the fill
// overwrote it (every output 1). @reference: the expected result.
shard.grid @grid(shape = 1) {sym_visibility = "private"}
func.func @forward(%x: tensor<8x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
    -> (tensor<8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %mone = arith.constant -1.0 : f32
  %x00 = tensor.extract %x[%c0, %c0] : tensor<8x32xf32>
  %pos = arith.cmpf ogt, %x00, %zero : f32
  %flag = arith.index_castui %pos : i1 to index
  %view = tensor.extract_slice %x[0, 8] [8, 16] [1, 1] : tensor<8x32xf32> to tensor<8x16xf32>
  %init = tensor.empty() : tensor<8x16xf32>
  %neg = linalg.negf ins(%view : tensor<8x16xf32>) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
  %s:2 = scf.index_switch %flag -> tensor<8x16xf32>, f32
  case 1 {
    scf.yield %neg, %mone : tensor<8x16xf32>, f32
  }
  default {
    scf.yield %view, %one : tensor<8x16xf32>, f32
  }
  // (-view) * -1 or view * 1: the view either way.
  %f = linalg.fill ins(%s#1 : f32) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = linalg.mul ins(%s#0, %f : tensor<8x16xf32>, tensor<8x16xf32>) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

func.func @reference(%x: tensor<8x32xf32>) -> tensor<8x16xf32> {
  %view = tensor.extract_slice %x[0, 8] [8, 16] [1, 1] : tensor<8x32xf32> to tensor<8x16xf32>
  return %view : tensor<8x16xf32>
}
