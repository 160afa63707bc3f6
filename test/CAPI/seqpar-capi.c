//===- seqpar-capi.c - exercises the seqpar C API -------------------------===//
// RUN: seqpar-capi-test 2>&1 | FileCheck %s
//
// Tests the C API: dialect loading, attribute queries, which passes
// seqparRegisterPasses registers (not the test passes), and the pipeline
// (bad options fail cleanly; good ones rewrite).
//===----------------------------------------------------------------------===//

#include "seqpar-c/SeqPar.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>
#include <string.h>

static const char *kProgram =
    "shard.grid @grid(shape = 2) {sym_visibility = \"private\"}\n"
    "func.func @f(%x: tensor<8x4xf32> {seqpar.seq_dim = 0 : i64, "
    "seqpar.sharding = #seqpar.sharding<@grid, replicated>}) -> tensor<8x4xf32> {\n"
    "  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8x4xf32> -> tensor<8x4xf32>\n"
    "  %y = arith.addf %r, %x : tensor<8x4xf32>\n"
    "  return %y : tensor<8x4xf32>\n"
    "}\n";

static void printToStdout(MlirStringRef str, void *userData) {
  (void)userData;
  fwrite(str.data, 1, str.length, stdout);
}

/// Whether `pipeline` parses, i.e. names registered passes and pipelines.
static int parses(MlirContext ctx, const char *pipeline) {
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirLogicalResult result = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString(pipeline), printToStdout, NULL);
  mlirPassManagerDestroy(pm);
  return mlirLogicalResultIsSuccess(result);
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  seqparRegisterAndLoadDialects(ctx);
  seqparRegisterPasses();

  MlirAttribute sharding = mlirAttributeParseGet(
      ctx, mlirStringRefCreateFromCString("#seqpar.sharding<@grid, [[0]]>"));
  // CHECK: sharding: 1 replicated: 0
  printf("sharding: %d replicated: %d\n", seqparAttributeIsASharding(sharding),
         seqparShardingIsReplicated(sharding));
  MlirAttribute notSharding =
      mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString("1 : i64"));
  // CHECK: integer is a sharding: 0
  printf("integer is a sharding: %d\n", seqparAttributeIsASharding(notSharding));

  // Transforms, conversions and named pipelines are registered; the test
  // passes (test/lib) are seqpar-opt's alone.
  // CHECK: registered: 1 1 1
  printf("registered: %d %d %d\n",
         parses(ctx, "builtin.module(seqpar-context-parallel)"),
         parses(ctx, "builtin.module(seqpar-lower-collectives-to-runtime)"),
         parses(ctx, "builtin.module(seqpar-pipeline,seqpar-sp-pipeline)"));
  // CHECK: test passes: 0 0 0
  printf("\ntest passes: %d %d %d\n",
         parses(ctx, "builtin.module(seqpar-test-simulate-ranks)"),
         parses(ctx, "builtin.module(func.func(seqpar-test-token-wise))"),
         parses(ctx, "builtin.module(func.func(seqpar-test-seq-dim))"));

  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kProgram));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "parse failed\n");
    return 1;
  }
  // A bad option string is a failure, not a crash.
  MlirLogicalResult bad = seqparRunSequenceParallelPipeline(
      module, mlirStringRefCreateFromCString("no-such-option=1"));
  // CHECK: bad options: failure
  printf("bad options: %s\n", mlirLogicalResultIsFailure(bad) ? "failure" : "success");

  MlirLogicalResult ok = seqparRunSequenceParallelPipeline(
      module, mlirStringRefCreateFromCString("grid-axis=0"));
  // CHECK: pipeline: success
  printf("pipeline: %s\n", mlirLogicalResultIsSuccess(ok) ? "success" : "failure");
  // CHECK: shard.reduce_scatter
  // CHECK: shard.all_gather
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  printf("\n");

  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return 0;
}
