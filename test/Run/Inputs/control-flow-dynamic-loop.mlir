// A loop of blocks carrying a tensor<?x16xf32> (rows chosen from the data),
// one exit (test/Run/control-flow.test): lifted to scf.while, whose exit
// slot is poison of dynamic shape. @reference: the same with scf.for.
shard.grid @grid(shape = 1) {sym_visibility = "private"}
func.func @forward(%x: tensor<8x32xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>})
    -> (tensor<8x16xf32> {seqpar.sharding = #seqpar.sharding<@grid, replicated>}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %two = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  %x00 = tensor.extract %x[%c0, %c0] : tensor<8x32xf32>
  %s = arith.addf %x00, %two : f32
  %si = arith.fptoui %s : f32 to i32
  %n = arith.index_cast %si : i32 to index
  %n1 = arith.addi %n, %c1 : index
  %view = tensor.extract_slice %x[0, 8] [%n1, 16] [1, 1] : tensor<8x32xf32> to tensor<?x16xf32>
  %init = tensor.empty(%n1) : tensor<?x16xf32>
  cf.br ^loop(%c0, %view : index, tensor<?x16xf32>)
^loop(%i: index, %acc: tensor<?x16xf32>):
  %u = linalg.add ins(%acc, %view : tensor<?x16xf32>, tensor<?x16xf32>) outs(%init : tensor<?x16xf32>) -> tensor<?x16xf32>
  %i1 = arith.addi %i, %c1 : index
  %done = arith.cmpi sge, %i1, %c3 : index
  cf.cond_br %done, ^out, ^loop(%i1, %u : index, tensor<?x16xf32>)
^out:
  %e = tensor.empty() : tensor<8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %o = tensor.insert_slice %u into %z[0, 0] [%n1, 16] [1, 1] : tensor<?x16xf32> into tensor<8x16xf32>
  return %o : tensor<8x16xf32>
}

func.func @reference(%x: tensor<8x32xf32>) -> tensor<8x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %two = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  %x00 = tensor.extract %x[%c0, %c0] : tensor<8x32xf32>
  %s = arith.addf %x00, %two : f32
  %si = arith.fptoui %s : f32 to i32
  %n = arith.index_cast %si : i32 to index
  %n1 = arith.addi %n, %c1 : index
  %view = tensor.extract_slice %x[0, 8] [%n1, 16] [1, 1] : tensor<8x32xf32> to tensor<?x16xf32>
  %init = tensor.empty(%n1) : tensor<?x16xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %view) -> tensor<?x16xf32> {
    %u = linalg.add ins(%acc, %view : tensor<?x16xf32>, tensor<?x16xf32>) outs(%init : tensor<?x16xf32>) -> tensor<?x16xf32>
    scf.yield %u : tensor<?x16xf32>
  }
  %e = tensor.empty() : tensor<8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %o = tensor.insert_slice %r into %z[0, 0] [%n1, 16] [1, 1] : tensor<?x16xf32> into tensor<8x16xf32>
  return %o : tensor<8x16xf32>
}
