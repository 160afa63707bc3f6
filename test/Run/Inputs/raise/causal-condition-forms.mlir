// Causal selects written with arithmetic on the positions
// (docs/context-parallelism.md, "Masks"), each a causal select to -inf of
// scale * Q.K^T. The first four are key <= query and are raised with the
// causal flag; the last three are not (a future key shown, positions
// rounded by f16, an i32 sum that wraps) and are raised with their mask
// materialised. Written by hand; one function per form:
//   @ge_plus_one: j >= i + 1 hides (index)
//   @lt_plus_one: j < i + 1 shows (unsigned)
//   @difference: j - i > 0 hides (i64)
//   @float_compare: float(j) > float(i) hides (positions exact in f32)
//   @one_future_key: j > i + 1 hides: key i + 1 is shown, not causal
//   @f16_rounded: float(j + 3001) > float(i + 3001) in f16 (spacing 2 there: neighbours round together), not causal
//   @i32_wrap: j + big > i + big in i32 (wraps for positions of 8 and more), not causal
module {
  func.func @ge_plus_one(%q: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}, %k: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}, %v: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}) -> tensor<2x4x16x8xf32> {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %scale = arith.constant 0.353553385 : f32
    %el = tensor.empty() : tensor<2x4x16x16xf32>
    %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(b, a, i, j, d) -> (b, a, i, d)>, affine_map<(b, a, i, j, d) -> (b, a, j, d)>, affine_map<(b, a, i, j, d) -> (b, a, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%q, %k : tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) outs(%zl : tensor<2x4x16x16xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %p = arith.mulf %a, %b : f32
        %r = arith.addf %o, %p : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x16xf32>
    %sm = linalg.generic {indexing_maps = [affine_map<(b, a, i, j) -> (b, a, i, j)>, affine_map<(b, a, i, j) -> (b, a, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%s : tensor<2x4x16x16xf32>) outs(%el : tensor<2x4x16x16xf32>) {
      ^bb0(%a: f32, %o: f32):
        %i = linalg.index 2 : index
        %j = linalg.index 3 : index
        %sc = arith.mulf %a, %scale : f32
        %c1 = arith.constant 1 : index
        %i1 = arith.addi %i, %c1 : index
        %c = arith.cmpi sge, %j, %i1 : index
        %r = arith.select %c, %ninf, %sc : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x16xf32>
    %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x16x16xf32>) outs(%el : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %eo = tensor.empty() : tensor<2x4x16x8xf32>
    %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %o = linalg.generic {indexing_maps = [affine_map<(b, a, i, d, j) -> (b, a, i, j)>, affine_map<(b, a, i, d, j) -> (b, a, j, d)>, affine_map<(b, a, i, d, j) -> (b, a, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%p, %v : tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) outs(%zo : tensor<2x4x16x8xf32>) {
      ^bb0(%a: f32, %b: f32, %acc: f32):
        %m = arith.mulf %a, %b : f32
        %r = arith.addf %acc, %m : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x8xf32>
    return %o : tensor<2x4x16x8xf32>
  }

  func.func @lt_plus_one(%q: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}, %k: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}, %v: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}) -> tensor<2x4x16x8xf32> {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %scale = arith.constant 0.353553385 : f32
    %el = tensor.empty() : tensor<2x4x16x16xf32>
    %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(b, a, i, j, d) -> (b, a, i, d)>, affine_map<(b, a, i, j, d) -> (b, a, j, d)>, affine_map<(b, a, i, j, d) -> (b, a, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%q, %k : tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) outs(%zl : tensor<2x4x16x16xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %p = arith.mulf %a, %b : f32
        %r = arith.addf %o, %p : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x16xf32>
    %sm = linalg.generic {indexing_maps = [affine_map<(b, a, i, j) -> (b, a, i, j)>, affine_map<(b, a, i, j) -> (b, a, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%s : tensor<2x4x16x16xf32>) outs(%el : tensor<2x4x16x16xf32>) {
      ^bb0(%a: f32, %o: f32):
        %i = linalg.index 2 : index
        %j = linalg.index 3 : index
        %sc = arith.mulf %a, %scale : f32
        %c1 = arith.constant 1 : index
        %i1 = arith.addi %i, %c1 : index
        %c = arith.cmpi ult, %j, %i1 : index
        %r = arith.select %c, %sc, %ninf : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x16xf32>
    %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x16x16xf32>) outs(%el : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %eo = tensor.empty() : tensor<2x4x16x8xf32>
    %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %o = linalg.generic {indexing_maps = [affine_map<(b, a, i, d, j) -> (b, a, i, j)>, affine_map<(b, a, i, d, j) -> (b, a, j, d)>, affine_map<(b, a, i, d, j) -> (b, a, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%p, %v : tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) outs(%zo : tensor<2x4x16x8xf32>) {
      ^bb0(%a: f32, %b: f32, %acc: f32):
        %m = arith.mulf %a, %b : f32
        %r = arith.addf %acc, %m : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x8xf32>
    return %o : tensor<2x4x16x8xf32>
  }

  func.func @difference(%q: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}, %k: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}, %v: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}) -> tensor<2x4x16x8xf32> {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %scale = arith.constant 0.353553385 : f32
    %el = tensor.empty() : tensor<2x4x16x16xf32>
    %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(b, a, i, j, d) -> (b, a, i, d)>, affine_map<(b, a, i, j, d) -> (b, a, j, d)>, affine_map<(b, a, i, j, d) -> (b, a, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%q, %k : tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) outs(%zl : tensor<2x4x16x16xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %p = arith.mulf %a, %b : f32
        %r = arith.addf %o, %p : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x16xf32>
    %sm = linalg.generic {indexing_maps = [affine_map<(b, a, i, j) -> (b, a, i, j)>, affine_map<(b, a, i, j) -> (b, a, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%s : tensor<2x4x16x16xf32>) outs(%el : tensor<2x4x16x16xf32>) {
      ^bb0(%a: f32, %o: f32):
        %i = linalg.index 2 : index
        %j = linalg.index 3 : index
        %sc = arith.mulf %a, %scale : f32
        %ii = arith.index_cast %i : index to i64
        %jj = arith.index_cast %j : index to i64
        %d = arith.subi %jj, %ii : i64
        %z = arith.constant 0 : i64
        %c = arith.cmpi sgt, %d, %z : i64
        %r = arith.select %c, %ninf, %sc : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x16xf32>
    %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x16x16xf32>) outs(%el : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %eo = tensor.empty() : tensor<2x4x16x8xf32>
    %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %o = linalg.generic {indexing_maps = [affine_map<(b, a, i, d, j) -> (b, a, i, j)>, affine_map<(b, a, i, d, j) -> (b, a, j, d)>, affine_map<(b, a, i, d, j) -> (b, a, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%p, %v : tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) outs(%zo : tensor<2x4x16x8xf32>) {
      ^bb0(%a: f32, %b: f32, %acc: f32):
        %m = arith.mulf %a, %b : f32
        %r = arith.addf %acc, %m : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x8xf32>
    return %o : tensor<2x4x16x8xf32>
  }

  func.func @float_compare(%q: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}, %k: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}, %v: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}) -> tensor<2x4x16x8xf32> {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %scale = arith.constant 0.353553385 : f32
    %el = tensor.empty() : tensor<2x4x16x16xf32>
    %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(b, a, i, j, d) -> (b, a, i, d)>, affine_map<(b, a, i, j, d) -> (b, a, j, d)>, affine_map<(b, a, i, j, d) -> (b, a, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%q, %k : tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) outs(%zl : tensor<2x4x16x16xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %p = arith.mulf %a, %b : f32
        %r = arith.addf %o, %p : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x16xf32>
    %sm = linalg.generic {indexing_maps = [affine_map<(b, a, i, j) -> (b, a, i, j)>, affine_map<(b, a, i, j) -> (b, a, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%s : tensor<2x4x16x16xf32>) outs(%el : tensor<2x4x16x16xf32>) {
      ^bb0(%a: f32, %o: f32):
        %i = linalg.index 2 : index
        %j = linalg.index 3 : index
        %sc = arith.mulf %a, %scale : f32
        %ii = arith.index_cast %i : index to i32
        %jj = arith.index_cast %j : index to i32
        %fi = arith.sitofp %ii : i32 to f32
        %fj = arith.sitofp %jj : i32 to f32
        %c = arith.cmpf ogt, %fj, %fi : f32
        %r = arith.select %c, %ninf, %sc : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x16xf32>
    %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x16x16xf32>) outs(%el : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %eo = tensor.empty() : tensor<2x4x16x8xf32>
    %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %o = linalg.generic {indexing_maps = [affine_map<(b, a, i, d, j) -> (b, a, i, j)>, affine_map<(b, a, i, d, j) -> (b, a, j, d)>, affine_map<(b, a, i, d, j) -> (b, a, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%p, %v : tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) outs(%zo : tensor<2x4x16x8xf32>) {
      ^bb0(%a: f32, %b: f32, %acc: f32):
        %m = arith.mulf %a, %b : f32
        %r = arith.addf %acc, %m : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x8xf32>
    return %o : tensor<2x4x16x8xf32>
  }

  func.func @one_future_key(%q: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}, %k: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}, %v: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}) -> tensor<2x4x16x8xf32> {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %scale = arith.constant 0.353553385 : f32
    %el = tensor.empty() : tensor<2x4x16x16xf32>
    %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(b, a, i, j, d) -> (b, a, i, d)>, affine_map<(b, a, i, j, d) -> (b, a, j, d)>, affine_map<(b, a, i, j, d) -> (b, a, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%q, %k : tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) outs(%zl : tensor<2x4x16x16xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %p = arith.mulf %a, %b : f32
        %r = arith.addf %o, %p : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x16xf32>
    %sm = linalg.generic {indexing_maps = [affine_map<(b, a, i, j) -> (b, a, i, j)>, affine_map<(b, a, i, j) -> (b, a, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%s : tensor<2x4x16x16xf32>) outs(%el : tensor<2x4x16x16xf32>) {
      ^bb0(%a: f32, %o: f32):
        %i = linalg.index 2 : index
        %j = linalg.index 3 : index
        %sc = arith.mulf %a, %scale : f32
        %c1 = arith.constant 1 : index
        %i1 = arith.addi %i, %c1 : index
        %c = arith.cmpi ugt, %j, %i1 : index
        %r = arith.select %c, %ninf, %sc : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x16xf32>
    %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x16x16xf32>) outs(%el : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %eo = tensor.empty() : tensor<2x4x16x8xf32>
    %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %o = linalg.generic {indexing_maps = [affine_map<(b, a, i, d, j) -> (b, a, i, j)>, affine_map<(b, a, i, d, j) -> (b, a, j, d)>, affine_map<(b, a, i, d, j) -> (b, a, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%p, %v : tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) outs(%zo : tensor<2x4x16x8xf32>) {
      ^bb0(%a: f32, %b: f32, %acc: f32):
        %m = arith.mulf %a, %b : f32
        %r = arith.addf %acc, %m : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x8xf32>
    return %o : tensor<2x4x16x8xf32>
  }

  func.func @f16_rounded(%q: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}, %k: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}, %v: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}) -> tensor<2x4x16x8xf32> {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %scale = arith.constant 0.353553385 : f32
    %el = tensor.empty() : tensor<2x4x16x16xf32>
    %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(b, a, i, j, d) -> (b, a, i, d)>, affine_map<(b, a, i, j, d) -> (b, a, j, d)>, affine_map<(b, a, i, j, d) -> (b, a, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%q, %k : tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) outs(%zl : tensor<2x4x16x16xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %p = arith.mulf %a, %b : f32
        %r = arith.addf %o, %p : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x16xf32>
    %sm = linalg.generic {indexing_maps = [affine_map<(b, a, i, j) -> (b, a, i, j)>, affine_map<(b, a, i, j) -> (b, a, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%s : tensor<2x4x16x16xf32>) outs(%el : tensor<2x4x16x16xf32>) {
      ^bb0(%a: f32, %o: f32):
        %i = linalg.index 2 : index
        %j = linalg.index 3 : index
        %sc = arith.mulf %a, %scale : f32
        %ii = arith.index_cast %i : index to i32
        %jj = arith.index_cast %j : index to i32
        %off = arith.constant 3001 : i32
        %io = arith.addi %ii, %off : i32
        %jo = arith.addi %jj, %off : i32
        %fi = arith.sitofp %io : i32 to f16
        %fj = arith.sitofp %jo : i32 to f16
        %c = arith.cmpf ogt, %fj, %fi : f16
        %r = arith.select %c, %ninf, %sc : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x16xf32>
    %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x16x16xf32>) outs(%el : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %eo = tensor.empty() : tensor<2x4x16x8xf32>
    %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %o = linalg.generic {indexing_maps = [affine_map<(b, a, i, d, j) -> (b, a, i, j)>, affine_map<(b, a, i, d, j) -> (b, a, j, d)>, affine_map<(b, a, i, d, j) -> (b, a, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%p, %v : tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) outs(%zo : tensor<2x4x16x8xf32>) {
      ^bb0(%a: f32, %b: f32, %acc: f32):
        %m = arith.mulf %a, %b : f32
        %r = arith.addf %acc, %m : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x8xf32>
    return %o : tensor<2x4x16x8xf32>
  }

  func.func @i32_wrap(%q: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}, %k: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}, %v: tensor<2x4x16x8xf32> {seqpar.seq_dim = 2 : i64}) -> tensor<2x4x16x8xf32> {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %scale = arith.constant 0.353553385 : f32
    %el = tensor.empty() : tensor<2x4x16x16xf32>
    %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(b, a, i, j, d) -> (b, a, i, d)>, affine_map<(b, a, i, j, d) -> (b, a, j, d)>, affine_map<(b, a, i, j, d) -> (b, a, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%q, %k : tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) outs(%zl : tensor<2x4x16x16xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %p = arith.mulf %a, %b : f32
        %r = arith.addf %o, %p : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x16xf32>
    %sm = linalg.generic {indexing_maps = [affine_map<(b, a, i, j) -> (b, a, i, j)>, affine_map<(b, a, i, j) -> (b, a, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%s : tensor<2x4x16x16xf32>) outs(%el : tensor<2x4x16x16xf32>) {
      ^bb0(%a: f32, %o: f32):
        %i = linalg.index 2 : index
        %j = linalg.index 3 : index
        %sc = arith.mulf %a, %scale : f32
        %ii = arith.index_cast %i : index to i32
        %jj = arith.index_cast %j : index to i32
        %big = arith.constant 2147483640 : i32
        %io = arith.addi %ii, %big : i32
        %jo = arith.addi %jj, %big : i32
        %c = arith.cmpi sgt, %jo, %io : i32
        %r = arith.select %c, %ninf, %sc : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x16xf32>
    %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x16x16xf32>) outs(%el : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %eo = tensor.empty() : tensor<2x4x16x8xf32>
    %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %o = linalg.generic {indexing_maps = [affine_map<(b, a, i, d, j) -> (b, a, i, j)>, affine_map<(b, a, i, d, j) -> (b, a, j, d)>, affine_map<(b, a, i, d, j) -> (b, a, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%p, %v : tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) outs(%zo : tensor<2x4x16x8xf32>) {
      ^bb0(%a: f32, %b: f32, %acc: f32):
        %m = arith.mulf %a, %b : f32
        %r = arith.addf %acc, %m : f32
        linalg.yield %r : f32
    } -> tensor<2x4x16x8xf32>
    return %o : tensor<2x4x16x8xf32>
  }

}
