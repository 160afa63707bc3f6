// A cf.switch whose default and case name one block, forwarding a view and
// a new tensor, then a loop of cf blocks carrying a tensor
// (test/Run/control-flow.test): 3 trips of acc = acc * acc + view, acc
// starting at the switch's result. @reference computes the same with a
// select and an scf.for.
shard.grid @grid(shape = 1) {sym_visibility = "private"}
func.func @forward(%x: tensor<8x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
    -> (tensor<8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %x00 = tensor.extract %x[%c0, %c0] : tensor<8x32xf32>
  %pos = arith.cmpf ogt, %x00, %zero : f32
  %flag = arith.extui %pos : i1 to i32
  %view = tensor.extract_slice %x[0, 8] [8, 16] [1, 1] : tensor<8x32xf32> to tensor<8x16xf32>
  %init = tensor.empty() : tensor<8x16xf32>
  %neg = linalg.negf ins(%view : tensor<8x16xf32>) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
  cf.switch %flag : i32, [
    default: ^loop(%c0, %neg : index, tensor<8x16xf32>),
    1: ^loop(%c0, %view : index, tensor<8x16xf32>)
  ]
^loop(%i: index, %acc: tensor<8x16xf32>):
  %sq = linalg.mul ins(%acc, %acc : tensor<8x16xf32>, tensor<8x16xf32>) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
  %next = linalg.add ins(%sq, %view : tensor<8x16xf32>, tensor<8x16xf32>) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
  %i1 = arith.addi %i, %c1 : index
  %done = arith.cmpi sge, %i1, %c3 : index
  cf.cond_br %done, ^exit, ^loop(%i1, %next : index, tensor<8x16xf32>)
^exit:
  return %next : tensor<8x16xf32>
}

func.func @reference(%x: tensor<8x32xf32>) -> tensor<8x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %x00 = tensor.extract %x[%c0, %c0] : tensor<8x32xf32>
  %pos = arith.cmpf ogt, %x00, %zero : f32
  %view = tensor.extract_slice %x[0, 8] [8, 16] [1, 1] : tensor<8x32xf32> to tensor<8x16xf32>
  %init = tensor.empty() : tensor<8x16xf32>
  %neg = linalg.negf ins(%view : tensor<8x16xf32>) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
  %start = arith.select %pos, %view, %neg : tensor<8x16xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %start) -> tensor<8x16xf32> {
    %sq = linalg.mul ins(%acc, %acc : tensor<8x16xf32>, tensor<8x16xf32>) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
    %next = linalg.add ins(%sq, %view : tensor<8x16xf32>, tensor<8x16xf32>) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
    scf.yield %next : tensor<8x16xf32>
  }
  return %r : tensor<8x16xf32>
}
