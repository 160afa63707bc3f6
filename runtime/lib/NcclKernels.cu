//===- NcclKernels.cu - f16/bf16 <-> f32 on the device --------------------===//
//
// The NCCL backend reduces 16-bit data in f32 like the MPI backend: widen,
// reduce in f32, narrow once (round to nearest even).
//
//===----------------------------------------------------------------------===//

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace seqpar {
namespace rt {
namespace detail {

namespace {
__global__ void widenKernel(int dtype, const void *src, float *dst, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x)
    dst[i] = dtype == 1 ? __half2float(static_cast<const __half *>(src)[i])
                        : __bfloat162float(
                              static_cast<const __nv_bfloat16 *>(src)[i]);
}

__global__ void narrowKernel(int dtype, const float *src, void *dst,
                             int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    if (dtype == 1)
      static_cast<__half *>(dst)[i] = __float2half_rn(src[i]);
    else
      static_cast<__nv_bfloat16 *>(dst)[i] = __float2bfloat16_rn(src[i]);
  }
}

unsigned blocksFor(int64_t n) {
  int64_t blocks = (n + 255) / 256;
  return static_cast<unsigned>(blocks < 4096 ? (blocks ? blocks : 1) : 4096);
}
} // namespace

/// dst[i] = float(src[i]) for n elements of dtype 1 (f16) or 2 (bf16).
cudaError_t cudaWidenToF32(int dtype, const void *src, float *dst, int64_t n,
                           cudaStream_t stream) {
  if (n == 0)
    return cudaSuccess;
  widenKernel<<<blocksFor(n), 256, 0, stream>>>(dtype, src, dst, n);
  return cudaGetLastError();
}

/// dst[i] = dtype(src[i]) rounded to nearest even, dtype 1 (f16) / 2 (bf16).
cudaError_t cudaNarrowFromF32(int dtype, const float *src, void *dst,
                              int64_t n, cudaStream_t stream) {
  if (n == 0)
    return cudaSuccess;
  narrowKernel<<<blocksFor(n), 256, 0, stream>>>(dtype, src, dst, n);
  return cudaGetLastError();
}

} // namespace detail
} // namespace rt
} // namespace seqpar
