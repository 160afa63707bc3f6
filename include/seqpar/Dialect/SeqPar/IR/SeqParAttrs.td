//===- SeqParAttrs.td - seqpar attributes ------------------*- tablegen -*-===//

#ifndef SEQPAR_ATTRS_TD
#define SEQPAR_ATTRS_TD

include "seqpar/Dialect/SeqPar/IR/SeqParDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def SeqPar_SplitKind : I32EnumAttr<"SplitKind", "how a tensor dim is split", [
    I32EnumAttrCase<"contiguous", 0>,
    I32EnumAttrCase<"grouped", 1>,
    I32EnumAttrCase<"zigzag", 2>,
    I32EnumAttrCase<"cyclic", 3>
  ]> {
  let cppNamespace = "::mlir::seqpar";
  let genSpecializedAttr = 0;
}

class SeqPar_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<SeqPar_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def SeqPar_DimShardingAttr : SeqPar_Attr<"DimSharding", "dim"> {
  let summary = "How one tensor dimension is split over grid axes";
  let description = [{
    One dimension of a `#seqpar.sharding`. `axes` lists the grid axes the
    dimension is split over, major to minor (empty: not split). The split kind:

    * `contiguous` (default): rank k of the axes group holds the k-th of n
      equal contiguous blocks (n = product of the axes' sizes).
    * `groups N`: the dimension is viewed as [N, size/N]; each of the N groups
      is split contiguously and rank k holds the k-th block of every group,
      concatenated (Megatron fused QKV: rank k holds [Q_k | K_k | V_k]).
    * `zigzag`: the dimension is cut into 2n chunks; rank k holds chunks k and
      2n-1-k, in that order (causal load balance for context parallelism).
    * `cyclic I`: block-cyclic with interleave I: index t is on rank
      (t / I) mod n; rank k holds the blocks of I indices k, k + n, k + 2n, ...
      in increasing order (a KV cache sharded for decode, as vLLM's decode
      context parallelism with interleave size I; docs/semantics.md §2).

    Constraints: axes are non-negative and distinct; `groups` is at least 2;
    the interleave at least 1; a grouped, zigzag or cyclic dimension is split
    over at least one axis.

    Examples (inside `#seqpar.sharding`): `[]`, `[0]`, `[0, 1]`,
    `[1] groups 3`, `[1] zigzag`, `[1] cyclic 16`.
  }];
  let parameters = (ins
    ArrayRefParameter<"int16_t">:$axes,
    EnumParameter<SeqPar_SplitKind>:$kind,
    DefaultValuedParameter<"int64_t", "1">:$groups,
    DefaultValuedParameter<"int64_t", "1">:$interleave
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Parses the body `[axes] (groups N | zigzag | cyclic I)?` without
    /// angle brackets.
    static DimShardingAttr parseBody(::mlir::AsmParser &parser);
    /// Prints the body `[axes] (groups N | zigzag | cyclic I)?` without
    /// angle brackets.
    void printBody(::mlir::AsmPrinter &printer) const;
    bool isSplit() const { return !getAxes().empty(); }
    /// Pieces of the dim each rank holds: `groups` for a grouped split, 2
    /// for zigzag, the interleave for cyclic (per round), else 1.
    int64_t getPiecesPerRank() const;
  }];
}

def SeqPar_ShardingAttr : SeqPar_Attr<"Sharding", "sharding"> {
  let summary = "Per-rank sharding of a value relative to its global tensor";
  let description = [{
    Relates a per-rank value to the global (single-device) tensor it is a
    piece of. `dims[i]` tells how global dimension i is split (trailing
    unsplit dimensions may be omitted); `partial` lists grid axes over which
    the per-rank values are partial sums of the global value.

    This attribute is the contract between seqpar passes, `seqpar-run` (which
    cuts per-rank arguments from global inputs and assembles outputs with it)
    and hand-written per-rank programs (docs/semantics.md §2).

    Constraints (checked where the attribute is attached to a function
    argument or result):
    * the grid symbol names a `shard.grid` visible from the function;
    * every axis is smaller than the grid's rank and appears at most once in
      the whole attribute (dims and partial);
    * there are at most as many dims as the value's rank;
    * a static dimension's global size is divisible by the number of pieces
      (product of axis sizes, times `groups`, times 2 for zigzag, times the
      interleave for cyclic).

    Examples:
    ```mlir
    // Replicated.
    #seqpar.sharding<@grid, replicated>
    // [b, s, h] with s split contiguously over grid axis 0.
    #seqpar.sharding<@grid, [[], [0]]>
    // Fused QKV weight [h, 3h]: each rank holds [Wq_k | Wk_k | Wv_k].
    #seqpar.sharding<@grid, [[], [0] groups 3]>
    // Zigzag over axis 1 for causal context parallelism.
    #seqpar.sharding<@grid, [[], [1] zigzag]>
    // A KV cache [b, a_kv, L, d], blocks of 16 tokens dealt round-robin over
    // axis 1.
    #seqpar.sharding<@grid, [[], [], [1] cyclic 16]>
    // Partial sums over axis 0 (a row-parallel matmul before its all-reduce).
    #seqpar.sharding<@grid, [], partial = [0]>
    ```
  }];
  let parameters = (ins
    "::mlir::FlatSymbolRefAttr":$grid,
    ArrayRefParameter<"DimShardingAttr">:$dims,
    ArrayRefParameter<"int16_t">:$partial_axes
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// True when no dim is split and nothing is partial.
    bool isReplicated() const;
    /// The split of dim `dim`, or null when the dim is not split.
    DimShardingAttr getDimSharding(int64_t dim) const;
    /// True when some dim is split over `axis` or the value is partial over it.
    bool usesAxis(int16_t axis) const;
    /// Number of pieces dim `dim` is cut into on the grid `gridShape`
    /// (product of axis sizes, times groups, times 2 for zigzag, times the
    /// interleave for cyclic); 1 if unsplit; -1 if an axis size is dynamic.
    int64_t getNumPieces(int64_t dim, ::llvm::ArrayRef<int64_t> gridShape) const;
    /// The per-rank shape of a global shape (dynamic dims and axes stay dynamic).
    ::llvm::SmallVector<int64_t> getLocalShape(::llvm::ArrayRef<int64_t> globalShape,
        ::llvm::ArrayRef<int64_t> gridShape) const;
    /// Returns a copy whose dim `dim` is further split over `axes`, appended
    /// as the minor axes (the dim must be unsplit or split contiguously; a
    /// zigzag split needs it unsplit).
    ShardingAttr withDimSplit(int64_t dim, ::llvm::ArrayRef<int16_t> axes,
                              SplitKind kind = SplitKind::contiguous) const;
    /// Replicated sharding on `grid`.
    static ShardingAttr getReplicated(::mlir::MLIRContext *ctx, ::mlir::FlatSymbolRefAttr grid);
  }];
}

#endif // SEQPAR_ATTRS_TD
