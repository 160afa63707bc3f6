//===- SeqParDialect.td - seqpar dialect definition --------*- tablegen -*-===//

#ifndef SEQPAR_DIALECT_TD
#define SEQPAR_DIALECT_TD

include "mlir/IR/OpBase.td"

def SeqPar_Dialect : Dialect {
  let name = "seqpar";
  let cppNamespace = "::mlir::seqpar";
  let summary = "Sequence and context parallelism for transformer graphs";
  let description = [{
    The `seqpar` dialect carries what the upstream `shard` dialect lacks for
    transformer sequence parallelism: the per-rank sharding attribute that
    relates a per-rank value to its global tensor (`#seqpar.sharding`), the
    sequence-dimension annotation of function arguments (`seqpar.seq_dim`),
    position-keyed dropout (`seqpar.dropout`), and asynchronous forms of the
    collectives and of the ring shift (start returning a request, wait) for
    overlapping communication with compute. Synchronous collectives are
    upstream `shard` ops.

    Function-argument and -result attributes understood by the dialect:

    * `seqpar.sharding = #seqpar.sharding<...>`: how the per-rank value relates
      to the global tensor. Verified against the grid and the argument type.
    * `seqpar.seq_dim = N : i64` (arguments only): dimension N of the argument
      is the sequence dimension. Wins over any pass option.
    * `seqpar.kv_cache` (unit; arguments and results): the value is a KV
      cache [b, a_kv, L_max, d] of a decode step, its slots along dim 2
      (set by seqpar-decode-context-parallel; read by seqpar-report).
    * `seqpar.sequence_block = array<i64: dim, tokens, inner>` (on an op with
      one ranked tensor result): the result holds this rank's `tokens` tokens
      of the sequence along `dim`, each token `inner` consecutive rows of it
      (set by seqpar-context-parallel on a padded sequence, whose arguments
      stay whole; seqpar-sequence-parallel shards from these values).
  }];
  let dependentDialects = ["::mlir::shard::ShardDialect"];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Name of the per-rank sharding attribute on function arguments/results.
    static constexpr llvm::StringLiteral kShardingAttrName = "seqpar.sharding";
    /// Name of the sequence-dimension attribute on function arguments.
    static constexpr llvm::StringLiteral kSeqDimAttrName = "seqpar.seq_dim";
    /// Name of the KV-cache marker on function arguments and results.
    static constexpr llvm::StringLiteral kKVCacheAttrName = "seqpar.kv_cache";
    /// Discardable attributes the context-parallel rewrite puts on the first
    /// transfer and on the last wait of each ring it builds, holding the
    /// ring's kind ("attention" or "attention_backward"):
    /// seqpar-instrument-attention wraps that span in a runtime region.
    static constexpr llvm::StringLiteral kRingBeginAttrName =
        "seqpar.ring_begin";
    static constexpr llvm::StringLiteral kRingEndAttrName = "seqpar.ring_end";
    /// Discardable attribute marking a value as this rank's block of the
    /// sequence: [dim, tokens, inner] (TokenWiseAnalysis.h).
    static constexpr llvm::StringLiteral kSequenceBlockAttrName =
        "seqpar.sequence_block";
    void registerAttributes();
    /// Registers !seqpar.request (SeqParCollectives.cpp).
    void registerTypes();
  }];
}

#endif // SEQPAR_DIALECT_TD
