//===- Alloc.cpp - counted MLIR allocation hooks --------------------------===//
//
// Each block carries a 16-byte header just before the returned pointer:
// {raw malloc pointer, user size}. Both allocators share the header, so one
// free function releases either.
//
//===----------------------------------------------------------------------===//

#include "seqpar/runtime/seqpar_runtime_alloc.h"

#include <atomic>
#include <cstdlib>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace {
struct Header {
  void *raw;
  uint64_t size;
};
static_assert(sizeof(Header) == 16, "header must keep 16-byte alignment");

std::atomic<int64_t> currentBytes{0};
std::atomic<int64_t> peakBytes{0};
std::atomic<int64_t> allocCount{0};

void noteAlloc(uint64_t size) {
  int64_t now = currentBytes.fetch_add(static_cast<int64_t>(size)) +
                static_cast<int64_t>(size);
  int64_t peak = peakBytes.load();
  while (now > peak && !peakBytes.compare_exchange_weak(peak, now)) {
  }
  allocCount.fetch_add(1);
}

void *allocate(uint64_t alignment, uint64_t size) {
  if (alignment < 16)
    alignment = 16;
  // Round a non-power-of-two alignment up to one.
  uint64_t pow2 = 16;
  while (pow2 < alignment)
    pow2 <<= 1;
  alignment = pow2;
  uint64_t total = size + alignment + sizeof(Header);
  if (total < size)
    return nullptr; // overflow
  void *raw = std::malloc(total);
  if (!raw)
    return nullptr;
  uintptr_t base = reinterpret_cast<uintptr_t>(raw) + sizeof(Header);
  uintptr_t user = (base + alignment - 1) & ~(uintptr_t)(alignment - 1);
  Header *header = reinterpret_cast<Header *>(user) - 1;
  header->raw = raw;
  header->size = size;
  noteAlloc(size);
  return reinterpret_cast<void *>(user);
}
} // namespace

extern "C" {

void *_mlir_memref_to_llvm_alloc(uint64_t size) { return allocate(16, size); }

void *_mlir_memref_to_llvm_aligned_alloc(uint64_t alignment, uint64_t size) {
  return allocate(alignment, size);
}

void _mlir_memref_to_llvm_free(void *ptr) {
  if (!ptr)
    return;
  Header *header = static_cast<Header *>(ptr) - 1;
  currentBytes.fetch_sub(static_cast<int64_t>(header->size));
  std::free(header->raw);
}

int64_t seqpar_rt_alloc_current_bytes(void) { return currentBytes.load(); }
int64_t seqpar_rt_alloc_peak_bytes(void) { return peakBytes.load(); }
int64_t seqpar_rt_alloc_count(void) { return allocCount.load(); }
void seqpar_rt_alloc_reset_peak(void) { peakBytes.store(currentBytes.load()); }

int seqpar_rt_alloc_keep_freed_memory(void) {
#if defined(__GLIBC__)
  // glibc serves blocks above its mmap threshold (at most 32 MiB) with
  // fresh mappings and returns the heap's free top to the kernel: a program
  // that frees and reallocates the same large buffers every call then
  // faults every page in again. With no mmaps and no trimming, freed memory
  // stays in the heap for the next allocations.
  return mallopt(M_MMAP_MAX, 0) && mallopt(M_TRIM_THRESHOLD, -1);
#else
  return 0;
#endif
}

} // extern "C"
