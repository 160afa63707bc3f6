// RUN: seqpar-opt %s --seqpar-plan-tensor-parallel=tp=4 --split-input-file -verify-diagnostics -allow-unregistered-dialect

// 6 heads of 8 cannot be split over 4 ranks: an error at the head reshape.
func.func @heads_not_divisible(%x: tensor<2x8x48xf32>, %wq: tensor<48x48xf32>) -> tensor<2x8x6x8xf32> {
  %zero = arith.constant 0.0 : f32
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x8x48xf32> into tensor<16x48xf32>
  %e = tensor.empty() : tensor<16x48xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16x48xf32>) -> tensor<16x48xf32>
  %q = linalg.matmul ins(%c, %wq : tensor<16x48xf32>, tensor<48x48xf32>) outs(%z : tensor<16x48xf32>) -> tensor<16x48xf32>
  // expected-error @+1 {{tensor parallelism: splits 48 features into 6 heads of 8, and tp=4 does not divide 6 heads}}
  %h = tensor.expand_shape %q [[0, 1], [2, 3]] output_shape [2, 8, 6, 8] : tensor<16x48xf32> into tensor<2x8x6x8xf32>
  return %h : tensor<2x8x6x8xf32>
}

// -----

// A hidden size the TP size does not divide.
func.func @hidden_not_divisible(%x: tensor<16x32xf32>, %w1: tensor<32x6xf32>, %w2: tensor<6x32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16x6xf32>) -> tensor<16x6xf32>
  // expected-error @+1 {{tensor parallelism: dim 1 holds 6 features, which tp=4 does not divide}}
  %h = linalg.matmul ins(%x, %w1 : tensor<16x32xf32>, tensor<32x6xf32>) outs(%z : tensor<16x6xf32>) -> tensor<16x6xf32>
  %e2 = tensor.empty() : tensor<16x32xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %y = linalg.matmul ins(%h, %w2 : tensor<16x6xf32>, tensor<6x32xf32>) outs(%z2 : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}

// -----

// A dynamic sequence length cannot be split.
// expected-error @+1 {{argument 0 of @dynamic_seq has type 'tensor<?x32xf32>': the planner needs static shapes (each split and its collectives are sized at compile time); export with a fixed batch and sequence length}}
func.func @dynamic_seq(%x: tensor<?x32xf32>) -> tensor<?x32xf32> {
  return %x : tensor<?x32xf32>
}

// -----

// Nor a dynamic batch (the message used to blame the sequence length).
// expected-error @+1 {{argument 0 of @dynamic_batch has type 'tensor<?x16x32xf32>': the planner needs static shapes (each split and its collectives are sized at compile time)}}
func.func @dynamic_batch(%x: tensor<?x16x32xf32>) -> tensor<?x16x32xf32> {
  return %x : tensor<?x16x32xf32>
}

// -----

// An LM head whose logits are returned (nothing closes the split of its
// vocabulary) and a layer the planner does not recognise (a product over
// the linear's output features: no all-reduce combines partial products)
// stay replicated, with remarks.
// expected-remark @+1 {{tensor parallelism (tp=4): 0 blocks, 0 column-parallel and 0 row-parallel linears, 2 linears left replicated}}
func.func @unrecognised(%x: tensor<16x32xf32>, %x2: tensor<16x32xf32>, %w: tensor<32x32xf32>, %lm: tensor<32x64xf32>) -> (tensor<16x64xf32>, tensor<16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  // expected-remark @+1 {{linear left replicated: 'linalg.reduce'}}
  %h = linalg.matmul ins(%x, %w : tensor<16x32xf32>, tensor<32x32xf32>) outs(%z : tensor<16x32xf32>) -> tensor<16x32xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %n = linalg.reduce ins(%h : tensor<16x32xf32>) outs(%z1 : tensor<16xf32>) dimensions = [1]
    (%a: f32, %b: f32) {
      %s = arith.mulf %a, %b : f32
      linalg.yield %s : f32
    }
  %e2 = tensor.empty() : tensor<16x64xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  // expected-remark @+1 {{linear left replicated: 'func.return'}}
  %logits = linalg.matmul ins(%x2, %lm : tensor<16x32xf32>, tensor<32x64xf32>) outs(%z2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %logits, %n : tensor<16x64xf32>, tensor<16xf32>
}

// -----

// A function with call sites keeps its signature (the pipeline inlines first).
// expected-remark @+1 {{@callee has call sites: left unplanned (inline it first)}}
func.func @callee(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  return %x : tensor<16x32xf32>
}
// expected-remark @+1 {{tensor parallelism (tp=4): 0 blocks}}
func.func @caller(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %y = call @callee(%x) : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}

// -----

// References that are not calls count too: a func.constant (a symbol user),
// an attribute of any op (discardable, or an unregistered op's), and a
// function's argument and result attributes.
// expected-remark @+1 {{@by_constant has call sites: left unplanned (inline it first)}}
func.func @by_constant(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  return %x : tensor<16x32xf32>
}
// expected-remark @+1 {{@by_attribute has call sites: left unplanned (inline it first)}}
func.func @by_attribute(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  return %x : tensor<16x32xf32>
}
// expected-remark @+1 {{@by_unregistered has call sites: left unplanned (inline it first)}}
func.func @by_unregistered(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  return %x : tensor<16x32xf32>
}
// expected-remark @+1 {{@by_arg_attr has call sites: left unplanned (inline it first)}}
func.func @by_arg_attr(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  return %x : tensor<16x32xf32>
}
// expected-remark @+1 {{@by_result_attr has call sites: left unplanned (inline it first)}}
func.func @by_result_attr(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  return %x : tensor<16x32xf32>
}
// expected-remark @+1 {{tensor parallelism (tp=4): 0 blocks}}
func.func @referrer(%x: tensor<16x32xf32> {seqpar_test.callback = @by_arg_attr}) -> (tensor<16x32xf32> {seqpar_test.callback = [@by_result_attr]}) {
  %f = func.constant @by_constant : (tensor<16x32xf32>) -> tensor<16x32xf32>
  %e = tensor.empty() {seqpar_test.callback = [@by_attribute]} : tensor<16x32xf32>
  "test.register"() {callee = @by_unregistered} : () -> ()
  return %x : tensor<16x32xf32>
}

// -----

// A "row-parallel" contraction that transforms its accumulator
// (tanh(out) + a * b) is not a linear: its partial sums would not add up.
// expected-remark @+1 {{tensor parallelism (tp=4): 0 blocks, 0 column-parallel and 0 row-parallel linears, 1 linears left replicated}}
func.func @accumulator_transformed(%x: tensor<16x16xf32>, %w1: tensor<16x32xf32>, %w2: tensor<32x16xf32>) -> tensor<16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<16x32xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x32xf32>) -> tensor<16x32xf32>
  // expected-remark @+1 {{reduces over the split dim with a body that is not out = combine(out, f(ins)) for a sum, max or min}}
  %h = linalg.matmul ins(%x, %w1 : tensor<16x16xf32>, tensor<16x32xf32>) outs(%z1 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %e2 = tensor.empty() : tensor<16x16xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%h, %w2 : tensor<16x32xf32>, tensor<32x16xf32>) outs(%z2 : tensor<16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %to = math.tanh %o : f32
    %s = arith.addf %to, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x16xf32>
  return %y : tensor<16x16xf32>
}

// -----

// A split that reaches an unranked tensor (through tensor.cast) has no dim to
// split: the linear stays replicated.
// expected-remark @+1 {{tensor parallelism (tp=4): 0 blocks}}
func.func @unranked(%x: tensor<16x64xf32>, %w: tensor<64x256xf32>) -> tensor<*xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16x256xf32>) -> tensor<16x256xf32>
  // expected-remark-re @+1 {{linear left replicated: 'tensor.cast' at {{.*}} would split a value that is not a ranked tensor}}
  %h = linalg.matmul ins(%x, %w : tensor<16x64xf32>, tensor<64x256xf32>) outs(%z : tensor<16x256xf32>) -> tensor<16x256xf32>
  %c = tensor.cast %h : tensor<16x256xf32> to tensor<*xf32>
  return %c : tensor<*xf32>
}

// -----

// An empty feature dim (0 output features) is not split: the head reshape
// after it divided by its size (SIGFPE).
// expected-remark @+1 {{tensor parallelism (tp=4): 0 blocks}}
func.func @empty_features(%x: tensor<16x32xf32>, %w: tensor<32x0xf32>) -> tensor<16x0x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x0xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16x0xf32>) -> tensor<16x0xf32>
  // expected-remark-re @+1 {{linear left replicated: 'linalg.matmul' at {{.*}} the split dim 1 is empty}}
  %h = linalg.matmul ins(%x, %w : tensor<16x32xf32>, tensor<32x0xf32>) outs(%z : tensor<16x0xf32>) -> tensor<16x0xf32>
  %r = tensor.expand_shape %h [[0], [1, 2]] output_shape [16, 0, 4] : tensor<16x0xf32> into tensor<16x0x4xf32>
  return %r : tensor<16x0x4xf32>
}

// -----

// Tests that a split is proven for every operand and result of an op, not
// only the operand that brought it. Here the split feature loop d1 is a
// reduction that the result still indexes: splitting the init but not the
// result gave invalid IR ("expected type of operand #2 ... to match type of
// corresponding result").
// expected-remark @+1 {{tensor parallelism (tp=4): 0 blocks}}
func.func @reduction_loop_kept(%x: tensor<16x64xf32>, %w1: tensor<64x256xf32>, %w2: tensor<256x8xf32>) -> tensor<16x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16x256xf32>) -> tensor<16x256xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<16x64xf32>, tensor<64x256xf32>) outs(%z : tensor<16x256xf32>) -> tensor<16x256xf32>
  // expected-remark-re @-1 {{linear left replicated: 'linalg.generic' at {{.*}} reduces over the split loop d1 but keeps it in result #0}}
  %y = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "reduction", "reduction"]} ins(%h, %w2 : tensor<16x256xf32>, tensor<256x8xf32>) outs(%z : tensor<16x256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %o, %m : f32
    linalg.yield %t : f32
  } -> tensor<16x256xf32>
  return %y : tensor<16x256xf32>
}

// -----

// An operand that reads the split loop twice (a diagonal) cannot be cut
// along one dim (its other dim kept the global size: invalid IR).
// expected-remark @+1 {{tensor parallelism (tp=4): 0 blocks}}
func.func @twice(%x: tensor<16x64xf32>, %w1: tensor<64x256xf32>, %w2: tensor<256x64xf32>, %d: tensor<256x256xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16x256xf32>) -> tensor<16x256xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<16x64xf32>, tensor<64x256xf32>) outs(%z : tensor<16x256xf32>) -> tensor<16x256xf32>
  // expected-remark-re @-1 {{linear left replicated: 'linalg.generic' at {{.*}} indexes the split loop d1 twice in operand #1}}
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%h, %d : tensor<16x256xf32>, tensor<256x256xf32>) outs(%e : tensor<16x256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %t = arith.addf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<16x256xf32>
  %e2 = tensor.empty() : tensor<16x64xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  // expected-remark @+1 {{linear left replicated: 'func.return'}}
  %r = linalg.matmul ins(%y, %w2 : tensor<16x256xf32>, tensor<256x64xf32>) outs(%z2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// An operand that reads the split loop through a compound expression
// (255 - j) would read other ranks' features: before, it was left whole and
// each rank read the wrong columns, silently.
// expected-remark @+1 {{tensor parallelism (tp=4): 0 blocks}}
func.func @compound(%x: tensor<16x64xf32>, %w1: tensor<64x256xf32>, %w2: tensor<256x64xf32>, %d: tensor<16x256xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16x256xf32>) -> tensor<16x256xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<16x64xf32>, tensor<64x256xf32>) outs(%z : tensor<16x256xf32>) -> tensor<16x256xf32>
  // expected-remark-re @-1 {{linear left replicated: 'linalg.generic' at {{.*}} indexes the split loop d1 with a compound expression in operand #1}}
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 255 - j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%h, %d : tensor<16x256xf32>, tensor<16x256xf32>) outs(%e : tensor<16x256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %t = arith.addf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<16x256xf32>
  %e2 = tensor.empty() : tensor<16x64xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  // expected-remark @+1 {{linear left replicated: 'func.return'}}
  %r = linalg.matmul ins(%y, %w2 : tensor<16x256xf32>, tensor<256x64xf32>) outs(%z2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// An existing grid whose TP axis disagrees with tp.
// expected-error @+1 {{tp=4 but axis 0 of @grid has 2 ranks}}
shard.grid @grid(shape = 2)
func.func @grid_mismatch(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  return %x : tensor<16x32xf32>
}
