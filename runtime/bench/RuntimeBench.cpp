//===- RuntimeBench.cpp - runtime collectives vs direct MPI ---------------===//
//
// Host mode (default; run under mpirun -np N):
//   times the runtime's blocking f32 all-gather, reduce-scatter and
//   all-reduce (sum) on the communicator of grid [N] axis 0 against
//   MPI_Allgather, MPI_Reduce_scatter_block and MPI_Allreduce made directly
//   on a duplicate of MPI_COMM_WORLD (the same ranks in the same order) with
//   the same sizes. The direct calls
//   run through Runtime::runOnMpiThread, i.e. on the calling thread too
//   (nothing else is in flight), and are timed inside it with MPI_Wtime.
//   Iterations of the two alternate, in alternating order; each call is
//   preceded by the same MPI_Barrier; the time of an iteration is the max
//   over ranks; the median over iterations
//   is reported. Without --iters, each collective and size runs enough
//   iterations to last about kHostSeconds (at least 101, at most 4001, from
//   the warm-up's pace, the same count on every rank): a 40 us collective's
//   median over 21 samples moved by several percent from run to run, and
//   with a core busy a 16 MiB one is either preempted or not (2 or 6 ms),
//   so that a median over 21-30 samples fell on either mode by chance.
//   Builds without MPI have no host mode.
//
// Device mode (--device; NCCL builds only): the runtime's all-gather,
//   reduce-scatter, all-reduce, all-to-all and shift on cudaMalloc'd f32
//   buffers (NCCL backend) against ncclAllGather, ncclReduceScatter,
//   ncclAllReduce and grouped ncclSend/ncclRecv made directly on a
//   communicator of the same ranks, each synchronized with
//   cudaDeviceSynchronize; times, algorithm and bus bandwidth (the
//   nccl-tests conventions) of both.
//
// Sizes are N = bytes of the full tensor (gathered output of all-gather,
// unscattered input of reduce-scatter, the buffer of all-reduce / all-to-all
// / shift), docs/semantics.md §5's convention.
//
//===----------------------------------------------------------------------===//

#include "seqpar/runtime/Runtime.h"

#ifdef SEQPAR_RUNTIME_HAVE_MPI
#include <mpi.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#ifdef SEQPAR_BENCH_HAVE_CUDA
#include <cuda_runtime.h>
#include <nccl.h>
#endif

using namespace seqpar::rt;

namespace {

void check(const Status &s, const char *what) {
  if (!s.ok()) {
    std::fprintf(stderr, "seqpar-runtime-bench: %s: %s\n", what,
                 s.message.c_str());
    std::exit(2);
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// Element-wise max over ranks of per-iteration times (valid on every rank).
std::vector<double> maxOverRanks(Runtime &rt, std::vector<double> v) {
#ifdef SEQPAR_RUNTIME_HAVE_MPI
  std::vector<double> out(v.size());
  check(rt.runOnMpiThread([&] {
          MPI_Allreduce(v.data(), out.data(), (int)v.size(), MPI_DOUBLE,
                        MPI_MAX, MPI_COMM_WORLD);
        }),
        "gather times");
  return out;
#else
  return v; // one process
#endif
}

/// Comma-separated sizes, each times `unit` bytes.
std::vector<int64_t> parseSizes(const char *s, int64_t unit) {
  std::vector<int64_t> out;
  std::string str(s);
  size_t pos = 0;
  while (pos <= str.size()) {
    size_t comma = str.find(',', pos);
    if (comma == std::string::npos)
      comma = str.size();
    if (comma > pos)
      out.push_back(std::atoll(str.substr(pos, comma - pos).c_str()) * unit);
    pos = comma + 1;
  }
  return out;
}

/// "16 MiB", "4 KiB".
std::string sizeString(int64_t bytes) {
  if (bytes % (1 << 20) == 0)
    return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes >> 10) + " KiB";
}

/// Seconds the timed iterations of one host collective and size take
/// together (both forms) when --iters is not given.
constexpr double kHostSeconds = 1.0;
constexpr int kMinHostIters = 101, kMaxHostIters = 4001;

void usage() {
  std::printf(
      "usage: mpirun -np N seqpar-runtime-bench [--sizes-mib=1,16 | "
      "--sizes-kib=4,64] [--iters=K] [--warmup=W] [--device]\n"
      "  host (default): runtime all-gather / reduce-scatter / all-reduce "
      "(f32, blocking) vs MPI_Allgather / MPI_Reduce_scatter_block / "
      "MPI_Allreduce; without --iters, 101 to 4001 iterations per size, "
      "about 1 s of them\n"
      "  --device: each collective on CUDA device buffers vs the same NCCL "
      "calls made directly (NCCL builds; default sizes 64,256,1024 MiB)\n");
}

#ifdef SEQPAR_RUNTIME_HAVE_MPI
int runHost(Runtime &rt, Communicator *comm, const std::vector<int64_t> &sizes,
            int iters, int warmup) {
  int t = comm->size();
  int rank = rt.worldRank();
  MPI_Comm direct = MPI_COMM_NULL;
  check(rt.runOnMpiThread([&] { MPI_Comm_dup(MPI_COMM_WORLD, &direct); }),
        "MPI_Comm_dup");
  if (rank == 0) {
    char count[96];
    if (iters > 0)
      std::snprintf(count, sizeof count, "%d iterations", iters);
    else
      std::snprintf(count, sizeof count,
                    "iterations of about %.2f s per size (%d to %d)",
                    kHostSeconds, kMinHostIters, kMaxHostIters);
    std::printf("seqpar-runtime-bench: host buffers, f32, blocking, %d ranks, "
                "%s after %d warm-up (median of per-iteration max over "
                "ranks)\n",
                t, count, warmup);
    std::printf("%-15s %9s %14s %14s %12s %6s\n", "collective", "size",
                "mpi_ms", "runtime_ms", "mpi/runtime", "iters");
  }
  int status = 0;
  const char *names[] = {"all_gather", "reduce_scatter", "all_reduce"};
  for (int kind = 0; kind < 3; ++kind) {
    for (int64_t bytes : sizes) {
      int64_t full = bytes / 4; // f32 elements of the full tensor
      full -= full % t;
      int64_t part = full / t;
      std::vector<float> fullBuf(full), partBuf(part);
      for (int64_t i = 0; i < full; ++i)
        fullBuf[i] = float((i + rank) % 97);
      for (int64_t i = 0; i < part; ++i)
        partBuf[i] = float((i * 3 + rank) % 89);
      std::vector<float> sumBuf(kind == 2 ? full : 0);
      CollectiveOp op =
          kind == 0   ? CollectiveOp::allGather(DType::F32, partBuf.data(),
                                                fullBuf.data(), {part}, 0)
          : kind == 1 ? CollectiveOp::reduceScatter(
                            DType::F32, Reduction::Sum, fullBuf.data(),
                            partBuf.data(), {full}, 0)
                      : CollectiveOp::allReduce(DType::F32, Reduction::Sum,
                                                fullBuf.data(), sumBuf.data(),
                                                {full});
      auto directCall = [&] {
        if (kind == 0)
          MPI_Allgather(partBuf.data(), (int)part, MPI_FLOAT, fullBuf.data(),
                        (int)part, MPI_FLOAT, direct);
        else if (kind == 1)
          MPI_Reduce_scatter_block(fullBuf.data(), partBuf.data(), (int)part,
                                   MPI_FLOAT, MPI_SUM, direct);
        else
          MPI_Allreduce(fullBuf.data(), sumBuf.data(), (int)full, MPI_FLOAT,
                        MPI_SUM, direct);
      };
      // Iteration `it` of both forms: (direct MPI s, runtime s).
      auto iteration = [&](int it) {
        double dm = 0, dr = 0;
        auto timeDirect = [&] {
          check(rt.runOnMpiThread([&] {
                  MPI_Barrier(direct);
                  double t0 = MPI_Wtime();
                  directCall();
                  dm = MPI_Wtime() - t0;
                }),
                "direct MPI");
        };
        auto timeRuntime = [&] {
          // The same barrier before both: the time is the collective's.
          check(rt.runOnMpiThread([&] { MPI_Barrier(direct); }), "barrier");
          double t0 = rt.now();
          check(comm->run(op), names[kind]);
          dr = rt.now() - t0;
        };
        // Either may gain from going second (caches, the peer's pace): the
        // order alternates.
        if (it % 2) {
          timeRuntime();
          timeDirect();
        } else {
          timeDirect();
          timeRuntime();
        }
        return std::pair<double, double>(dm, dr);
      };
      double warmed = 0;
      for (int it = 0; it < warmup; ++it) {
        auto [dm, dr] = iteration(it);
        warmed += dm + dr;
      }
      int count = iters;
      if (count <= 0) {
        // From the slowest rank's warm-up pace, so every rank agrees; no
        // warm-up, no pace: the fewest.
        double pace = maxOverRanks(rt, {warmed / std::max(warmup, 1)})[0];
        count = kMinHostIters;
        if (pace > 0)
          count = static_cast<int>(std::clamp<double>(
              std::ceil(kHostSeconds / pace), kMinHostIters, kMaxHostIters));
      }
      std::vector<double> tRt, tMpi;
      for (int it = warmup; it < warmup + count; ++it) {
        auto [dm, dr] = iteration(it);
        tMpi.push_back(dm);
        tRt.push_back(dr);
      }
      double mMpi = median(maxOverRanks(rt, tMpi));
      double mRt = median(maxOverRanks(rt, tRt));
      if (rank == 0)
        std::printf("%-15s %9s %14.4f %14.4f %12.3f %6d\n", names[kind],
                    sizeString(bytes).c_str(), mMpi * 1e3, mRt * 1e3,
                    mMpi / mRt, count);
    }
  }
  if (rank == 0)
    std::printf("ratio = MPI time / runtime time (>= 1: runtime at least as "
                "fast as direct MPI)\n");
  check(rt.runOnMpiThread([&] { MPI_Comm_free(&direct); }), "MPI_Comm_free");
  return status;
}
#endif

#ifdef SEQPAR_BENCH_HAVE_CUDA
/// nccl-tests' bus bandwidth factor (busbw = algbw * factor) of collective
/// `kind` (the order of runDevice's names) on t ranks.
double busFactor(int kind, int t) {
  double n = t;
  switch (kind) {
  case 2:
    return 2 * (n - 1) / n; // all-reduce
  case 4:
    return 1; // send/recv
  default:
    return (n - 1) / n; // all-gather, reduce-scatter, all-to-all
  }
}

/// An NCCL communicator of the world's ranks, for the direct calls.
ncclComm_t directNcclComm(Runtime &rt) {
  ncclUniqueId id;
  if (rt.worldRank() == 0 && ncclGetUniqueId(&id) != ncclSuccess) {
    std::fprintf(stderr, "seqpar-runtime-bench: ncclGetUniqueId failed\n");
    std::exit(2);
  }
#ifdef SEQPAR_RUNTIME_HAVE_MPI
  check(rt.runOnMpiThread([&] {
          MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
        }),
        "broadcast of the NCCL id");
#endif
  ncclComm_t comm;
  if (ncclCommInitRank(&comm, rt.worldSize(), id, rt.worldRank()) !=
      ncclSuccess) {
    std::fprintf(stderr, "seqpar-runtime-bench: ncclCommInitRank failed\n");
    std::exit(2);
  }
  return comm;
}

/// The NCCL calls the runtime makes for collective `kind` (f32, leading
/// dim, sum), made directly.
void directNccl(int kind, void *a, void *b, int64_t full, int t, int r,
                ncclComm_t nccl, cudaStream_t stream) {
  int64_t part = full / t;
  float *in = static_cast<float *>(a), *out = static_cast<float *>(b);
  switch (kind) {
  case 0:
    ncclAllGather(in, out, part, ncclFloat32, nccl, stream);
    break;
  case 1:
    ncclReduceScatter(in, out, part, ncclFloat32, ncclSum, nccl, stream);
    break;
  case 2:
    ncclAllReduce(in, out, full, ncclFloat32, ncclSum, nccl, stream);
    break;
  case 3:
    ncclGroupStart();
    for (int p = 0; p < t; ++p) {
      ncclSend(in + p * part, part, ncclFloat32, p, nccl, stream);
      ncclRecv(out + p * part, part, ncclFloat32, p, nccl, stream);
    }
    ncclGroupEnd();
    break;
  default:
    if (t == 1) { // a ring of one: the runtime copies
      cudaMemcpyAsync(out, in, full * 4, cudaMemcpyDeviceToDevice, stream);
      break;
    }
    ncclGroupStart();
    ncclSend(in, full, ncclFloat32, (r + 1) % t, nccl, stream);
    ncclRecv(out, full, ncclFloat32, (r - 1 + t) % t, nccl, stream);
    ncclGroupEnd();
    break;
  }
}

int runDevice(Runtime &rt, Communicator *comm,
              const std::vector<int64_t> &sizes, int iters, int warmup) {
  int rank = rt.worldRank();
  int t = comm->size();
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    if (rank == 0)
      std::printf("seqpar-runtime-bench --device: no CUDA device visible; "
                  "skipped\n");
    return 0;
  }
  cudaSetDevice(rank % ndev);
  ncclComm_t nccl = directNcclComm(rt);
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  if (rank == 0) {
    std::printf("seqpar-runtime-bench: device buffers (NCCL), f32, blocking, "
                "%d ranks, %d iterations after %d warm-up (median of "
                "per-iteration max over ranks); runtime vs the same NCCL "
                "calls made directly\n",
                t, iters, warmup);
    std::printf("%-15s %9s %11s %11s %11s %11s %11s %11s %12s\n",
                "collective", "size", "rt_ms", "nccl_ms", "rt_algbw",
                "nccl_algbw", "rt_busbw", "nccl_busbw", "nccl/runtime");
  }
  const char *names[] = {"all_gather", "reduce_scatter", "all_reduce",
                         "all_to_all", "shift"};
  for (int64_t bytes : sizes) {
    int64_t full = bytes / 4;
    full -= full % (int64_t(t) * t);
    int64_t part = full / t;
    void *a = nullptr, *b = nullptr;
    if (cudaMalloc(&a, full * 4) != cudaSuccess ||
        cudaMalloc(&b, full * 4) != cudaSuccess) {
      std::fprintf(stderr, "seqpar-runtime-bench: cudaMalloc of %s "
                           "failed\n", sizeString(bytes).c_str());
      return 2;
    }
    cudaMemset(a, 0, full * 4);
    cudaMemset(b, 0, full * 4);
    for (int kind = 0; kind < 5; ++kind) {
      CollectiveOp op;
      switch (kind) {
      case 0: op = CollectiveOp::allGather(DType::F32, a, b, {part}, 0); break;
      case 1:
        op = CollectiveOp::reduceScatter(DType::F32, Reduction::Sum, a, b,
                                         {full}, 0);
        break;
      case 2:
        op = CollectiveOp::allReduce(DType::F32, Reduction::Sum, a, b, {full});
        break;
      case 3: op = CollectiveOp::allToAll(DType::F32, a, b, {full}, 0, 0); break;
      default: op = CollectiveOp::shift(DType::F32, a, b, {full}, 1); break;
      }
      std::vector<double> tRt, tNccl;
      for (int it = 0; it < warmup + iters; ++it) {
        cudaDeviceSynchronize();
        check(rt.barrier(), "barrier");
        double t0 = rt.now();
        directNccl(kind, a, b, full, t, rank, nccl, stream);
        cudaDeviceSynchronize();
        double dn = rt.now() - t0;
        check(rt.barrier(), "barrier");
        t0 = rt.now();
        check(comm->run(op), names[kind]);
        cudaDeviceSynchronize();
        double dr = rt.now() - t0;
        if (it >= warmup) {
          tNccl.push_back(dn);
          tRt.push_back(dr);
        }
      }
      double mRt = median(maxOverRanks(rt, tRt));
      double mNccl = median(maxOverRanks(rt, tNccl));
      double gb = double(full) * 4 / 1e9, f = busFactor(kind, t);
      if (rank == 0)
        std::printf("%-15s %9s %11.4f %11.4f %11.2f %11.2f %11.2f %11.2f "
                    "%12.3f\n",
                    names[kind], sizeString(bytes).c_str(), mRt * 1e3,
                    mNccl * 1e3, gb / mRt, gb / mNccl, gb / mRt * f,
                    gb / mNccl * f, mNccl / mRt);
    }
    cudaFree(a);
    cudaFree(b);
  }
  if (rank == 0)
    std::printf("algbw = bytes of the full tensor / time (GB/s); busbw = "
                "algbw x (t-1)/t (all-reduce 2(t-1)/t, shift 1), nccl-tests' "
                "convention, 0 on one rank\n");
  cudaStreamDestroy(stream);
  ncclCommDestroy(nccl);
  return 0;
}
#endif

} // namespace

int main(int argc, char **argv) {
  bool device = false;
  int iters = 0, warmup = 3;
  std::vector<int64_t> sizes;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (!std::strcmp(a, "--device"))
      device = true;
    else if (!std::strncmp(a, "--sizes-mib=", 12))
      sizes = parseSizes(a + 12, 1 << 20);
    else if (!std::strncmp(a, "--sizes-kib=", 12))
      sizes = parseSizes(a + 12, 1 << 10);
    else if (!std::strncmp(a, "--iters=", 8)) {
      iters = std::atoi(a + 8);
      if (iters < 1) {
        std::fprintf(stderr,
                     "seqpar-runtime-bench: --iters=%s: expected a "
                     "positive number of iterations\n",
                     a + 8);
        return 2;
      }
    } else if (!std::strncmp(a, "--warmup=", 9))
      warmup = std::atoi(a + 9);
    else if (!std::strcmp(a, "-h") || !std::strcmp(a, "--help")) {
      usage();
      return 0;
    } else {
      std::fprintf(stderr, "seqpar-runtime-bench: unknown argument '%s'\n", a);
      usage();
      return 2;
    }
  }
  for (int64_t bytes : sizes)
    if (bytes < 1024) {
      std::fprintf(stderr, "seqpar-runtime-bench: sizes must be positive "
                           "integers (KiB or MiB)\n");
      return 2;
    }
  if (sizes.empty())
    sizes = device ? std::vector<int64_t>{64 << 20, 256 << 20, int64_t(1) << 30}
                   : std::vector<int64_t>{1 << 20, 16 << 20};
  // Host mode without --iters: a count per size (runHost).
  if (iters <= 0 && device)
    iters = 10;
#ifndef SEQPAR_BENCH_HAVE_CUDA
  if (device) {
    std::printf("seqpar-runtime-bench --device: this build has no NCCL/CUDA "
                "backend; skipped\n");
    return 0;
  }
#endif
  check(Runtime::initialize(), "initialize");
  Runtime &rt = Runtime::get();
  Communicator *comm = nullptr;
  check(rt.communicator({rt.worldSize()}, {0}, &comm), "communicator");
  int rc = 0;
#ifdef SEQPAR_BENCH_HAVE_CUDA
  if (device)
    rc = runDevice(rt, comm, sizes, iters, warmup);
  else
#endif
#ifdef SEQPAR_RUNTIME_HAVE_MPI
    rc = runHost(rt, comm, sizes, iters, warmup);
#else
    std::printf("seqpar-runtime-bench: this runtime was built without MPI; "
                "host mode (runtime vs MPI) skipped\n");
#endif
  std::fflush(stdout);
  check(Runtime::finalize(), "finalize");
  return rc;
}
