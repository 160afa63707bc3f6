// A block with two predecessors writes into its tensor argument in place
// (linalg.fill outs(%v)) while one predecessor forwards a view of the
// function's argument, which is read again afterwards
// (test/Run/control-flow.test). Bufferized as unstructured control flow,
// the fill wrote into the argument's buffer.
shard.grid @grid(shape = 1) {sym_visibility = "private"}
func.func @forward(%x: tensor<8x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
    -> (tensor<8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>},
        tensor<8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %x00 = tensor.extract %x[%c0, %c0] : tensor<8x32xf32>
  %pos = arith.cmpf ogt, %x00, %zero : f32
  %view = tensor.extract_slice %x[0, 8] [8, 16] [1, 1] : tensor<8x32xf32> to tensor<8x16xf32>
  %init = tensor.empty() : tensor<8x16xf32>
  %neg = linalg.negf ins(%view : tensor<8x16xf32>) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
  cf.cond_br %pos, ^new, ^old
^new:
  %e = linalg.exp ins(%neg : tensor<8x16xf32>) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
  cf.br ^join(%e : tensor<8x16xf32>)
^old:
  cf.br ^join(%view : tensor<8x16xf32>)
^join(%v: tensor<8x16xf32>):
  %w = linalg.fill ins(%one : f32) outs(%v : tensor<8x16xf32>) -> tensor<8x16xf32>
  %again = tensor.extract_slice %x[0, 8] [8, 16] [1, 1] : tensor<8x32xf32> to tensor<8x16xf32>
  return %w, %again : tensor<8x16xf32>, tensor<8x16xf32>
}

func.func @reference(%x: tensor<8x32xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %one = arith.constant 1.0 : f32
  %init = tensor.empty() : tensor<8x16xf32>
  %w = linalg.fill ins(%one : f32) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
  %view = tensor.extract_slice %x[0, 8] [8, 16] [1, 1] : tensor<8x32xf32> to tensor<8x16xf32>
  return %w, %view : tensor<8x16xf32>, tensor<8x16xf32>
}
