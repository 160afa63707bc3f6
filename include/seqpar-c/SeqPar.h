/*===- seqpar-c/SeqPar.h - C API for the seqpar dialect and pipelines ---===*\
|*                                                                            *|
|* MLIR C-API style entry points so bindings in other languages can load the  *|
|* seqpar dialect, register its passes, inspect sharding attributes and run   *|
|* the sequence-parallel pipeline. Link SeqPar::SeqParCAPI.                   *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef SEQPAR_C_SEQPAR_H
#define SEQPAR_C_SEQPAR_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Handle of the seqpar dialect: mlirGetDialectHandle__seqpar__(). */
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(SeqPar, seqpar);

/** Loads the seqpar dialect and the upstream dialects its passes create ops
 *  in (arith, func, linalg, math, shard, tensor, tosa) into `ctx`. */
MLIR_CAPI_EXPORTED void seqparRegisterAndLoadDialects(MlirContext ctx);

/** Registers every seqpar pass and named pipeline with the global pass
 *  registry (idempotent). */
MLIR_CAPI_EXPORTED void seqparRegisterPasses(void);

/** True when `attr` is a #seqpar.sharding attribute. */
MLIR_CAPI_EXPORTED bool seqparAttributeIsASharding(MlirAttribute attr);

/** True when the #seqpar.sharding `attr` splits no dim and is not partial.
 *  `attr` must be a #seqpar.sharding (see seqparAttributeIsASharding). */
MLIR_CAPI_EXPORTED bool seqparShardingIsReplicated(MlirAttribute attr);

/** Runs seqpar-sp-pipeline on `module` with `options` written as on the
 *  command line (e.g. "grid-axis=0 pad=true"; empty for the defaults).
 *  Diagnostics go to the context's handlers; returns failure on a parse
 *  error in `options` or a failed pass. */
MLIR_CAPI_EXPORTED MlirLogicalResult
seqparRunSequenceParallelPipeline(MlirModule module, MlirStringRef options);

#ifdef __cplusplus
}
#endif

#endif /* SEQPAR_C_SEQPAR_H */
