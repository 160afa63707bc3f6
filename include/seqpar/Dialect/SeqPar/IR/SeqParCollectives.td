//===- SeqParCollectives.td - asynchronous collectives -----*- tablegen -*-===//
//
// Asynchronous forms of the collectives on tensors (a start op returning a
// !seqpar.request, and seqpar.wait), and the memref-level collectives that
// bufferization produces from them and from upstream `shard` collectives.
// The memref-level ops are what `seqpar-lower-collectives-to-runtime` turns
// into calls of the runtime's C ABI (runtime/include/seqpar/runtime/
// seqpar_runtime.h).
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_COLLECTIVES_TD
#define SEQPAR_COLLECTIVES_TD

include "seqpar/Dialect/SeqPar/IR/SeqParDialect.td"
include "mlir/Dialect/Shard/IR/ShardBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def SeqPar_RequestType : TypeDef<SeqPar_Dialect, "Request"> {
  let mnemonic = "request";
  let summary = "Handle of an asynchronous collective";
  let description = [{
    The handle a `seqpar.*_start` op returns and `seqpar.wait` consumes.
    `valueType` is the type of the value the collective produces: a ranked
    tensor before bufferization, a memref (the output buffer) after it.
    After `seqpar-lower-collectives-to-runtime` a request is the runtime's
    `seqpar_rt_request_t` (an `!llvm.ptr`).

    Example: `!seqpar.request<tensor<2x16x64xf32>>`,
    `!seqpar.request<memref<2x16x64xf32>>`.
  }];
  let parameters = (ins "::mlir::ShapedType":$valueType);
  let assemblyFormat = "`<` $valueType `>`";
  let genVerifyDecl = 1;
}

def SeqPar_TensorRequest : Type<
    And<[CPred<"::llvm::isa<::mlir::seqpar::RequestType>($_self)">,
         CPred<"::llvm::isa<::mlir::RankedTensorType>("
               "::llvm::cast<::mlir::seqpar::RequestType>($_self).getValueType())">]>,
    "request of a ranked tensor", "::mlir::seqpar::RequestType">;
def SeqPar_MemRefRequest : Type<
    And<[CPred<"::llvm::isa<::mlir::seqpar::RequestType>($_self)">,
         CPred<"::llvm::isa<::mlir::MemRefType>("
               "::llvm::cast<::mlir::seqpar::RequestType>($_self).getValueType())">]>,
    "request of a memref", "::mlir::seqpar::RequestType">;

/// The communication a collective performs, as a side effect on its own
/// resource: keeps collectives in program order and out of CSE/DCE.
def SeqPar_CommunicationResource
    : Resource<"::mlir::seqpar::CommunicationResource">;

//===----------------------------------------------------------------------===//
// Tensor-level asynchronous collectives
//===----------------------------------------------------------------------===//

class SeqPar_StartOp<string mnemonic, list<Trait> traits = []>
    : Op<SeqPar_Dialect, mnemonic, !listconcat(traits, [
        DeclareOpInterfaceMethods<SymbolUserOpInterface>,
        MemoryEffects<[MemWrite<SeqPar_CommunicationResource>]>])> {
  dag commonArgs = (ins
    FlatSymbolRefAttr:$grid,
    DefaultValuedAttr<Shard_GridAxesAttr, "{}">:$grid_axes
  );
  let results = (outs SeqPar_TensorRequest:$request);
  let hasVerifier = 1;
  code commonConstraints = [{
    Constraints shared by every `*_start` op:
    * `grid` names a `shard.grid` with static extents on `grid_axes`;
    * `grid_axes` are distinct and smaller than the grid's rank;
    * the input has a static shape;
    * the request has exactly one use, a `seqpar.wait` in the same block
      (the transfer is started and completed in one block: the ring of
      context parallelism starts a step's transfer, computes, then waits).
  }];
}

def SeqPar_AllGatherStartOp : SeqPar_StartOp<"all_gather_start"> {
  let summary = "Start an all-gather; the result is available at seqpar.wait";
  let description = [{
    Asynchronous form of `shard.all_gather`: within each group of ranks that
    share their coordinates on the grid axes not in `grid_axes`, the result
    is the concatenation along `gather_axis` of every group member's input,
    in axis-rank order (row-major over `grid_axes`). The transfer progresses
    between the start and the matching `seqpar.wait`, while the rank
    computes.

    }] # commonConstraints # [{
    * the request's tensor has the input's element type and shape, except
      dim `gather_axis`, which is the input's times the group size.

    Example (grid of 2 ranks):
    ```mlir
    %r = seqpar.all_gather_start %x on @grid grid_axes = [0] gather_axis = 0
        : tensor<2x4xf32> -> !seqpar.request<tensor<4x4xf32>>
    %y = seqpar.wait %r : !seqpar.request<tensor<4x4xf32>>
    ```
    Rank 0 holds rows [a0; a1], rank 1 [b0; b1] before; both hold
    [a0; a1; b0; b1] after the wait.
  }];
  let arguments = !con(commonArgs, (ins AnyRankedTensor:$input,
                                        I64Attr:$gather_axis));
  let assemblyFormat = [{
    $input `on` $grid (`grid_axes` `=` $grid_axes^)? `gather_axis` `=` $gather_axis
    attr-dict `:` type($input) `->` qualified(type($request))
  }];
}

def SeqPar_ReduceScatterStartOp : SeqPar_StartOp<"reduce_scatter_start"> {
  let summary = "Start a reduce-scatter; the result is available at seqpar.wait";
  let description = [{
    Asynchronous form of `shard.reduce_scatter`: the inputs of the group are
    reduced elementwise (`reduction`: sum, max or min) and axis rank k
    receives the k-th of t equal contiguous blocks along `scatter_axis`.

    }] # commonConstraints # [{
    * `reduction` is sum, max or min;
    * the input's dim `scatter_axis` is divisible by the group size t, and
      the request's tensor is the input's with that dim divided by t.

    Example (grid of 2 ranks):
    ```mlir
    %r = seqpar.reduce_scatter_start %p on @grid grid_axes = [0] scatter_axis = 0
        : tensor<4x8xf32> -> !seqpar.request<tensor<2x8xf32>>
    %y = seqpar.wait %r : !seqpar.request<tensor<2x8xf32>>
    ```
    Rank 0 holds P0, rank 1 P1 (both 4x8) before; after the wait rank 0
    holds rows 0-1 of P0 + P1, rank 1 rows 2-3.
  }];
  let arguments = !con(commonArgs, (ins AnyRankedTensor:$input,
      DefaultValuedAttr<Shard_ReductionKindAttr,
                        "::mlir::shard::ReductionKind::Sum">:$reduction,
      I64Attr:$scatter_axis));
  let assemblyFormat = [{
    $input `on` $grid (`grid_axes` `=` $grid_axes^)? (`reduction` `=` $reduction^)?
    `scatter_axis` `=` $scatter_axis
    attr-dict `:` type($input) `->` qualified(type($request))
  }];
}

def SeqPar_AllReduceStartOp : SeqPar_StartOp<"all_reduce_start"> {
  let summary = "Start an all-reduce; the result is available at seqpar.wait";
  let description = [{
    Asynchronous form of `shard.all_reduce`: every member of the group
    receives the elementwise reduction (`reduction`: sum, max or min) of the
    group's inputs.

    }] # commonConstraints # [{
    * `reduction` is sum, max or min;
    * the request's tensor type equals the input type.

    Example:
    ```mlir
    %r = seqpar.all_reduce_start %p on @grid grid_axes = [0]
        : tensor<4x8xf32> -> !seqpar.request<tensor<4x8xf32>>
    %y = seqpar.wait %r : !seqpar.request<tensor<4x8xf32>>
    ```
    Rank k holds P_k before; every rank holds P_0 + ... + P_{t-1} after.
  }];
  let arguments = !con(commonArgs, (ins AnyRankedTensor:$input,
      DefaultValuedAttr<Shard_ReductionKindAttr,
                        "::mlir::shard::ReductionKind::Sum">:$reduction));
  let assemblyFormat = [{
    $input `on` $grid (`grid_axes` `=` $grid_axes^)? (`reduction` `=` $reduction^)?
    attr-dict `:` type($input) `->` qualified(type($request))
  }];
}

def SeqPar_AllToAllStartOp : SeqPar_StartOp<"all_to_all_start"> {
  let summary = "Start an all-to-all; the result is available at seqpar.wait";
  let description = [{
    Asynchronous form of `shard.all_to_all`: the input is split into t equal
    chunks along `split_axis`; chunk j goes to axis rank j; the t chunks
    received are concatenated along `concat_axis` in axis-rank order (the
    Ulysses exchange between sequence- and head-sharded layouts).

    }] # commonConstraints # [{
    * the input's dim `split_axis` is divisible by the group size t; the
      request's tensor is the input's with `split_axis` divided by t and
      then `concat_axis` multiplied by t.

    Example (grid of 2 ranks, [s/2, a] -> [s, a/2]):
    ```mlir
    %r = seqpar.all_to_all_start %q on @grid grid_axes = [0] split_axis = 1 concat_axis = 0
        : tensor<4x8xf32> -> !seqpar.request<tensor<8x4xf32>>
    %y = seqpar.wait %r : !seqpar.request<tensor<8x4xf32>>
    ```
    Rank k holds tokens of block k with all heads before; it holds all
    tokens of head block k after.
  }];
  let arguments = !con(commonArgs, (ins AnyRankedTensor:$input,
                                        I64Attr:$split_axis,
                                        I64Attr:$concat_axis));
  let assemblyFormat = [{
    $input `on` $grid (`grid_axes` `=` $grid_axes^)?
    `split_axis` `=` $split_axis `concat_axis` `=` $concat_axis
    attr-dict `:` type($input) `->` qualified(type($request))
  }];
}

def SeqPar_ShiftStartOp : SeqPar_StartOp<"shift_start"> {
  let summary = "Start a ring send/recv; the result is available at seqpar.wait";
  let description = [{
    Ring send/receive within the group: axis rank r sends its input to axis
    rank (r + offset) mod t and receives the input of axis rank
    (r - offset) mod t (cyclic; `np.roll` by `offset` over the ranks). The
    pass-KV ring of context parallelism moves K/V one step per ring step
    with `offset = 1` while the step computes.

    }] # commonConstraints # [{
    * the request's tensor type equals the input type.

    Example (grid of 4 ranks):
    ```mlir
    %r = seqpar.shift_start %kv on @grid grid_axes = [0] offset = 1
        : tensor<2x8x16xf32> -> !seqpar.request<tensor<2x8x16xf32>>
    %next = seqpar.wait %r : !seqpar.request<tensor<2x8x16xf32>>
    ```
    Ranks 0..3 hold KV0..KV3 before; they hold KV3, KV0, KV1, KV2 after.
  }];
  let arguments = !con(commonArgs, (ins AnyRankedTensor:$input,
                                        I64Attr:$offset));
  let assemblyFormat = [{
    $input `on` $grid (`grid_axes` `=` $grid_axes^)? `offset` `=` $offset
    attr-dict `:` type($input) `->` qualified(type($request))
  }];
}

def SeqPar_WaitOp : Op<SeqPar_Dialect, "wait", [
    MemoryEffects<[MemWrite<SeqPar_CommunicationResource>]>,
    TypesMatchWith<"result type is the request's value type", "request",
                   "result",
                   "::llvm::cast<::mlir::seqpar::RequestType>($_self).getValueType()">]> {
  let summary = "Wait for an asynchronous collective and return its result";
  let description = [{
    Blocks until the collective that produced `request` has completed on
    this rank and returns its result. Between the start and the wait, the
    rank may compute: the transfer progresses meanwhile (the runtime's
    progress thread).

    Constraints:
    * `request` is the result of a `seqpar.*_start` op in the same block
      (checked with the start op's verifier: one use, this wait).

    Example:
    ```mlir
    %y = seqpar.wait %r : !seqpar.request<tensor<4x4xf32>>
    ```
  }];
  let arguments = (ins SeqPar_TensorRequest:$request);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$request attr-dict `:` qualified(type($request))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Memref-level collectives (after bufferization)
//===----------------------------------------------------------------------===//

class SeqPar_MemRefCollectiveOp<string mnemonic, list<Trait> traits = []>
    : Op<SeqPar_Dialect, mnemonic, !listconcat(traits, [
        DeclareOpInterfaceMethods<SymbolUserOpInterface>,
        MemoryEffects<[MemWrite<SeqPar_CommunicationResource>]>])> {
  dag commonArgs = (ins
    FlatSymbolRefAttr:$grid,
    DefaultValuedAttr<Shard_GridAxesAttr, "{}">:$grid_axes,
    Arg<AnyMemRef, "send buffer", [MemRead]>:$input,
    Arg<AnyMemRef, "receive buffer", [MemWrite]>:$output
  );
  let results = (outs Optional<SeqPar_MemRefRequest>:$request);
  let hasVerifier = 1;
  code commonConstraints = [{
    Blocking when the op has no result; asynchronous when it returns a
    `!seqpar.request<memref<...>>`: the transfer then continues after the op
    and completes at the `seqpar.memref_wait` of that request, which must
    name the same two buffers (so that buffer deallocation keeps them alive
    until then). Side effects: reads `input`, writes `output`, and
    communicates.

    Constraints shared by the memref-level collectives:
    * `grid` names a `shard.grid` with static extents on `grid_axes`;
    * `grid_axes` are distinct and smaller than the grid's rank;
    * input and output have the same element type and static shapes related
      as the op requires; a request's memref type is the output's type.
    The lowering additionally requires f32/f16/bf16 elements and contiguous
    row-major buffers (identity layout, or strides of a contiguous block).
  }];
}

def SeqPar_MemRefAllGatherOp : SeqPar_MemRefCollectiveOp<"memref_all_gather"> {
  let summary = "All-gather between buffers";
  let description = [{
    Bufferized `shard.all_gather` / `seqpar.all_gather_start`: `output` (the
    input's shape with dim `gather_axis` times the group size t) receives the
    group members' inputs concatenated along `gather_axis` in axis-rank
    order.

    }] # commonConstraints # [{

    Example:
    ```mlir
    seqpar.memref_all_gather %in, %out on @grid grid_axes = [0] gather_axis = 0
        : memref<2x4xf32>, memref<4x4xf32>
    %r = seqpar.memref_all_gather %in, %out on @grid grid_axes = [0] gather_axis = 0
        : memref<2x4xf32>, memref<4x4xf32> -> !seqpar.request<memref<4x4xf32>>
    ```
  }];
  let arguments = !con(commonArgs, (ins I64Attr:$gather_axis));
  let assemblyFormat = [{
    $input `,` $output `on` $grid (`grid_axes` `=` $grid_axes^)?
    `gather_axis` `=` $gather_axis attr-dict `:` type($input) `,` type($output)
    (`->` qualified(type($request))^)?
  }];
}

def SeqPar_MemRefReduceScatterOp
    : SeqPar_MemRefCollectiveOp<"memref_reduce_scatter"> {
  let summary = "Reduce-scatter between buffers";
  let description = [{
    Bufferized `shard.reduce_scatter` / `seqpar.reduce_scatter_start`:
    `output` receives axis rank k's block along `scatter_axis` of the
    elementwise reduction of the group's inputs.

    }] # commonConstraints # [{
    * the input's dim `scatter_axis` is the output's times the group size.

    Example:
    ```mlir
    seqpar.memref_reduce_scatter %in, %out on @grid grid_axes = [0] scatter_axis = 0
        : memref<4x8xf32>, memref<2x8xf32>
    ```
  }];
  let arguments = !con(commonArgs, (ins
      DefaultValuedAttr<Shard_ReductionKindAttr,
                        "::mlir::shard::ReductionKind::Sum">:$reduction,
      I64Attr:$scatter_axis));
  let assemblyFormat = [{
    $input `,` $output `on` $grid (`grid_axes` `=` $grid_axes^)?
    (`reduction` `=` $reduction^)? `scatter_axis` `=` $scatter_axis
    attr-dict `:` type($input) `,` type($output) (`->` qualified(type($request))^)?
  }];
}

def SeqPar_MemRefAllReduceOp : SeqPar_MemRefCollectiveOp<"memref_all_reduce"> {
  let summary = "All-reduce between buffers";
  let description = [{
    Bufferized `shard.all_reduce` / `seqpar.all_reduce_start`: `output`
    receives the elementwise reduction of the group's inputs. `input` and
    `output` may be the same buffer (in place).

    }] # commonConstraints # [{

    Example:
    ```mlir
    seqpar.memref_all_reduce %in, %out on @grid grid_axes = [0] reduction = max
        : memref<4x8xf32>, memref<4x8xf32>
    ```
  }];
  let arguments = !con(commonArgs, (ins
      DefaultValuedAttr<Shard_ReductionKindAttr,
                        "::mlir::shard::ReductionKind::Sum">:$reduction));
  let assemblyFormat = [{
    $input `,` $output `on` $grid (`grid_axes` `=` $grid_axes^)?
    (`reduction` `=` $reduction^)?
    attr-dict `:` type($input) `,` type($output) (`->` qualified(type($request))^)?
  }];
}

def SeqPar_MemRefAllToAllOp : SeqPar_MemRefCollectiveOp<"memref_all_to_all"> {
  let summary = "All-to-all between buffers";
  let description = [{
    Bufferized `shard.all_to_all` / `seqpar.all_to_all_start`: chunk j of
    the input along `split_axis` goes to axis rank j; `output` receives the
    chunks of every axis rank concatenated along `concat_axis`.

    }] # commonConstraints # [{

    Example:
    ```mlir
    seqpar.memref_all_to_all %in, %out on @grid grid_axes = [0] split_axis = 1 concat_axis = 0
        : memref<4x8xf32>, memref<8x4xf32>
    ```
  }];
  let arguments = !con(commonArgs, (ins I64Attr:$split_axis,
                                        I64Attr:$concat_axis));
  let assemblyFormat = [{
    $input `,` $output `on` $grid (`grid_axes` `=` $grid_axes^)?
    `split_axis` `=` $split_axis `concat_axis` `=` $concat_axis
    attr-dict `:` type($input) `,` type($output) (`->` qualified(type($request))^)?
  }];
}

def SeqPar_MemRefShiftOp : SeqPar_MemRefCollectiveOp<"memref_shift"> {
  let summary = "Ring send/recv between buffers";
  let description = [{
    Bufferized `shard.shift` (rotate) / `seqpar.shift_start`: axis rank r
    sends `input` to axis rank (r + offset) mod t and receives `output` from
    axis rank (r - offset) mod t.

    }] # commonConstraints # [{
    * input and output have the same shape.

    Example:
    ```mlir
    seqpar.memref_shift %in, %out on @grid grid_axes = [0] offset = 1
        : memref<8x16xf32>, memref<8x16xf32>
    ```
  }];
  let arguments = !con(commonArgs, (ins I64Attr:$offset));
  let assemblyFormat = [{
    $input `,` $output `on` $grid (`grid_axes` `=` $grid_axes^)?
    `offset` `=` $offset attr-dict `:` type($input) `,` type($output)
    (`->` qualified(type($request))^)?
  }];
}

def SeqPar_MemRefWaitOp : Op<SeqPar_Dialect, "memref_wait", [
    MemoryEffects<[MemWrite<SeqPar_CommunicationResource>]>]> {
  let summary = "Complete an asynchronous memref-level collective";
  let description = [{
    Blocks until the collective of `request` completed: `output` then holds
    the result, and `input` may be reused. Naming both buffers keeps them
    alive (and unmodified by reordering) until the collective completes.
    Side effects: reads `input`, writes `output`, and communicates.

    Constraints:
    * the request's memref type is the output's type.

    Example:
    ```mlir
    seqpar.memref_wait %r, %in, %out
        : !seqpar.request<memref<4x4xf32>>, memref<2x4xf32>, memref<4x4xf32>
    ```
  }];
  let arguments = (ins SeqPar_MemRefRequest:$request,
                       Arg<AnyMemRef, "send buffer", [MemRead]>:$input,
                       Arg<AnyMemRef, "receive buffer", [MemWrite]>:$output);
  let assemblyFormat = [{
    $request `,` $input `,` $output attr-dict `:` qualified(type($request)) `,`
    type($input) `,` type($output)
  }];
  let hasVerifier = 1;
}

#endif // SEQPAR_COLLECTIVES_TD
