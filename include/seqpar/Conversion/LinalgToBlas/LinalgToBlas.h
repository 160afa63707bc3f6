//===- LinalgToBlas.h - f32 contractions on buffers -> CBLAS ----*- C++ -*-===//
//
// Patterns of `seqpar-lower-matmul-to-blas`, for drivers that run them in
// their own rewrite.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_CONVERSION_LINALGTOBLAS_LINALGTOBLAS_H
#define SEQPAR_CONVERSION_LINALGTOBLAS_LINALGTOBLAS_H

namespace mlir {
class RewritePatternSet;
namespace seqpar {

/// Adds the pattern turning f32 linalg contractions on buffers into
/// cblas_sgemm calls (see the seqpar-lower-matmul-to-blas pass).
void populateMatmulToBlasPatterns(RewritePatternSet &patterns);

} // namespace seqpar
} // namespace mlir

#endif // SEQPAR_CONVERSION_LINALGTOBLAS_LINALGTOBLAS_H
