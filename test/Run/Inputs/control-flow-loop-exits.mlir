// A loop of blocks with three exits into blocks that join, one forwarding
// %neg (computed in %init's buffer) before the join fills %init in place
// (test/Run/control-flow.test): lifted, the exits become an
// scf.index_switch, whose bufferization let the fill overwrite %neg
// (every output 1). The result is always x[:, 8:24].
shard.grid @grid(shape = 1) {sym_visibility = "private"}
func.func @forward(%x: tensor<8x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
    -> (tensor<8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %mone = arith.constant -1.0 : f32
  %x00 = tensor.extract %x[%c0, %c0] : tensor<8x32xf32>
  %x01 = tensor.extract %x[%c0, %c1] : tensor<8x32xf32>
  %pos = arith.cmpf ogt, %x00, %zero : f32
  %p1 = arith.cmpf ogt, %x01, %zero : f32
  %view = tensor.extract_slice %x[0, 8] [8, 16] [1, 1] : tensor<8x32xf32> to tensor<8x16xf32>
  %init = tensor.empty() : tensor<8x16xf32>
  %neg = linalg.negf ins(%view : tensor<8x16xf32>) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
  cf.br ^hdr(%c0 : index)
^hdr(%i: index):
  %is1 = arith.cmpi eq, %i, %c1 : index
  %c1st = arith.andi %is1, %pos : i1
  cf.cond_br %c1st, ^e1, ^body
^body:
  %c2nd = arith.andi %is1, %p1 : i1
  cf.cond_br %c2nd, ^e2, ^latch
^latch:
  %i1 = arith.addi %i, %c1 : index
  %done = arith.cmpi sge, %i1, %c3 : index
  cf.cond_br %done, ^e3, ^hdr(%i1 : index)
^e1:
  cf.br ^join(%neg, %mone : tensor<8x16xf32>, f32)
^e2:
  cf.br ^join(%view, %one : tensor<8x16xf32>, f32)
^e3:
  cf.br ^join(%view, %one : tensor<8x16xf32>, f32)
^join(%a1: tensor<8x16xf32>, %k: f32):
  %f = linalg.fill ins(%k : f32) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = linalg.mul ins(%a1, %f : tensor<8x16xf32>, tensor<8x16xf32>) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

func.func @reference(%x: tensor<8x32xf32>) -> tensor<8x16xf32> {
  %view = tensor.extract_slice %x[0, 8] [8, 16] [1, 1] : tensor<8x32xf32> to tensor<8x16xf32>
  return %view : tensor<8x16xf32>
}
