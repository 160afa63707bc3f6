//===- InitSeqPar.cpp - register seqpar in an embedding compiler ----------===//

#include "seqpar/InitSeqPar.h"

#include "seqpar/Conversion/Passes.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"
#include "seqpar/Dialect/SeqPar/Transforms/PrepareLowering/BufferizableOpInterfaceImpl.h"
#include "seqpar/Pipelines/Pipelines.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/Extensions/AllExtensions.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/RuntimeOpVerification.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/Transforms/RuntimeOpVerification.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/Extensions/AllExtensions.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/RuntimeOpVerification.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;

void mlir::seqpar::registerSeqParDialects(DialectRegistry &registry) {
  registry.insert<SeqParDialect, arith::ArithDialect, func::FuncDialect,
                  linalg::LinalgDialect, math::MathDialect,
                  shard::ShardDialect, tensor::TensorDialect,
                  tosa::TosaDialect>();
  func::registerAllExtensions(registry);
  tensor::registerAllExtensions(registry);
  registerBufferizableOpInterfaceExternalModels(registry);
  // seqpar-plan-tensor-parallel computes only the slices of a value a rank
  // reads, through the producer's TilingInterface.
  linalg::registerTilingInterfaceExternalModels(registry);
  // seqpar-insert-runtime-checks generates the checks these ops define.
  linalg::registerRuntimeVerifiableOpInterfaceExternalModels(registry);
  memref::registerRuntimeVerifiableOpInterfaceExternalModels(registry);
  tensor::registerRuntimeVerifiableOpInterfaceExternalModels(registry);
}

void mlir::seqpar::registerAllSeqParPasses() {
  // The pass registry rejects a second registration of the same pass name.
  // Test passes (seqpar-test-*) are not among them: seqpar-opt registers
  // those itself (test/lib).
  static bool registered = [] {
    registerSeqParPasses();
    registerSeqParConversionPasses();
    registerSeqParPipelines();
    return true;
  }();
  (void)registered;
}

void mlir::seqpar::registerAllSeqPar(DialectRegistry &registry) {
  registerSeqParDialects(registry);
  registerAllSeqParPasses();
}
