//===- SeqPar.cpp - C API for the seqpar dialect and pipelines ------------===//

#include "seqpar-c/SeqPar.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"

#include "seqpar/InitSeqPar.h"
#include "seqpar/Pipelines/Pipelines.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(SeqPar, seqpar,
                                      mlir::seqpar::SeqParDialect)

void seqparRegisterAndLoadDialects(MlirContext ctx) {
  DialectRegistry registry;
  seqpar::registerSeqParDialects(registry);
  MLIRContext *context = unwrap(ctx);
  context->appendDialectRegistry(registry);
  context->loadAllAvailableDialects();
}

void seqparRegisterPasses(void) { seqpar::registerAllSeqParPasses(); }

bool seqparAttributeIsASharding(MlirAttribute attr) {
  return isa<seqpar::ShardingAttr>(unwrap(attr));
}

bool seqparShardingIsReplicated(MlirAttribute attr) {
  return cast<seqpar::ShardingAttr>(unwrap(attr)).isReplicated();
}

MlirLogicalResult seqparRunSequenceParallelPipeline(MlirModule module,
                                                    MlirStringRef options) {
  ModuleOp op = unwrap(module);
  PassManager pm(op->getContext());
  seqpar::SequenceParallelPipelineOptions opts;
  if (failed(opts.parseFromString(unwrap(options))))
    return mlirLogicalResultFailure();
  seqpar::buildSequenceParallelPipeline(pm, opts);
  return wrap(pm.run(op));
}
