// Branches that name one block twice, forwarding a strided view on one slot
// and a new tensor on the other (test/Run/control-flow.test). The second
// branch's condition is the first's negation: one run takes the first slot
// of one branch and the second slot of the other. @reference computes the
// same with selects.
shard.grid @grid(shape = 1) {sym_visibility = "private"}
func.func @forward(%x: tensor<8x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
    -> (tensor<8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %x00 = tensor.extract %x[%c0, %c0] : tensor<8x32xf32>
  %pos = arith.cmpf ogt, %x00, %zero : f32
  %notpos = arith.cmpf ole, %x00, %zero : f32
  %view = tensor.extract_slice %x[0, 8] [8, 16] [1, 1] : tensor<8x32xf32> to tensor<8x16xf32>
  %init = tensor.empty() : tensor<8x16xf32>
  %neg = linalg.negf ins(%view : tensor<8x16xf32>) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
  cf.cond_br %pos, ^first(%view : tensor<8x16xf32>), ^first(%neg : tensor<8x16xf32>)
^first(%a: tensor<8x16xf32>):
  %view2 = tensor.extract_slice %x[0, 4] [8, 16] [1, 1] : tensor<8x32xf32> to tensor<8x16xf32>
  %twice = linalg.add ins(%a, %a : tensor<8x16xf32>, tensor<8x16xf32>) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
  cf.cond_br %notpos, ^second(%view2 : tensor<8x16xf32>), ^second(%twice : tensor<8x16xf32>)
^second(%b: tensor<8x16xf32>):
  return %b : tensor<8x16xf32>
}

func.func @reference(%x: tensor<8x32xf32>) -> tensor<8x16xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %x00 = tensor.extract %x[%c0, %c0] : tensor<8x32xf32>
  %pos = arith.cmpf ogt, %x00, %zero : f32
  %view = tensor.extract_slice %x[0, 8] [8, 16] [1, 1] : tensor<8x32xf32> to tensor<8x16xf32>
  %init = tensor.empty() : tensor<8x16xf32>
  %neg = linalg.negf ins(%view : tensor<8x16xf32>) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
  %a = arith.select %pos, %view, %neg : tensor<8x16xf32>
  %view2 = tensor.extract_slice %x[0, 4] [8, 16] [1, 1] : tensor<8x32xf32> to tensor<8x16xf32>
  %twice = linalg.add ins(%a, %a : tensor<8x16xf32>, tensor<8x16xf32>) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
  %b = arith.select %pos, %twice, %view2 : tensor<8x16xf32>
  return %b : tensor<8x16xf32>
}
