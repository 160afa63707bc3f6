/*===- seqpar_runtime_alloc.h - counted allocation hooks ---------*- C -*-===//
 *
 * Library seqpar_runtime_alloc: the allocation functions that MLIR's
 * `finalize-memref-to-llvm{use-generic-functions=true}` makes lowered code
 * call, counting the bytes live in this process (= this rank). Link it (or
 * load it with mlir-runner -shared-libs) to route memref allocations through
 * the counter; the collective runtime reports its numbers when present.
 *
 * Sizes are in bytes of user data (the 16-byte header each block carries is
 * not counted). Thread-safe. malloc failure returns NULL, as malloc does.
 *
 *===----------------------------------------------------------------------===*/

#ifndef SEQPAR_RUNTIME_SEQPAR_RUNTIME_ALLOC_H
#define SEQPAR_RUNTIME_SEQPAR_RUNTIME_ALLOC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* MLIR generic allocation hooks (signatures of FunctionCallUtils.h with a
 * 64-bit index type). Blocks are 16-byte aligned; the aligned variant
 * honours any power-of-two `alignment` (others are rounded up to one). */
void *_mlir_memref_to_llvm_alloc(uint64_t size);
void *_mlir_memref_to_llvm_aligned_alloc(uint64_t alignment, uint64_t size);
/* Frees a block from either allocator; NULL is ignored. */
void _mlir_memref_to_llvm_free(void *ptr);

/* Bytes currently allocated through the hooks in this process. */
int64_t seqpar_rt_alloc_current_bytes(void);
/* Highest value of current bytes since start or the last reset. */
int64_t seqpar_rt_alloc_peak_bytes(void);
/* Number of allocations made since start. */
int64_t seqpar_rt_alloc_count(void);
/* Sets peak := current. */
void seqpar_rt_alloc_reset_peak(void);

/* Makes the C library keep the memory the process frees for its next
 * allocations instead of handing it back to the kernel, so a program that
 * allocates and frees the same buffers on every call touches no fresh pages
 * after the first (glibc: no mmap'd blocks, no heap trimming). The
 * process's memory then stays at its high-water mark; the counters above
 * are unaffected. Returns 1 when set, 0 where the C library has no such
 * settings. */
int seqpar_rt_alloc_keep_freed_memory(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SEQPAR_RUNTIME_SEQPAR_RUNTIME_ALLOC_H */
