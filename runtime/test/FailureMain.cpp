//===- FailureMain.cpp - jobs that must abort (run by expect_failure.sh) --===//
//
// Usage: seqpar-runtime-failure-test MODE, MODE one of
//   timeout:      rank 0 starts an all-gather that rank 1 never joins; the
//                 runtime must abort the job after SEQPAR_COLLECTIVE_TIMEOUT
//                 seconds with a message naming rank, op, grid axis, sizes.
//   skip-first:   the same, but rank 1 never even asks for the communicator,
//                 so the all-gather is the first collective on its axis: the
//                 message must still name it (not communicator creation).
//   skip-to-barrier: rank 1 skips the all-gather and waits in a barrier.
//   mismatch:     rank 0 calls all_gather, rank 1 all_reduce on the same
//                 axis: every rank must report both calls and abort.
//   gather-sizes: both call all_gather, rank 1 with 1024 times rank 0's
//                 block: the transfer is posted with the agreement check,
//                 so the check must still report both calls (not MPI's
//                 truncation error, nor a hang).
//   bad-argument: error mode "abort": a dim out of range must abort every
//                 rank with the message instead of returning.
// Exits 0 only if the job was not aborted (which the wrapper treats as a
// failure).
//
//===----------------------------------------------------------------------===//

#include "seqpar/runtime/seqpar_runtime.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr,
                 "usage: %s timeout|skip-first|skip-to-barrier|"
                 "mismatch|gather-sizes|bad-argument\n",
                 argv[0]);
    return 2;
  }
  if (seqpar_rt_init() != SEQPAR_RT_OK) {
    std::fprintf(stderr, "init failed: %s\n", seqpar_rt_last_error());
    return 2;
  }
  const char *mode = argv[1];
  bool first = seqpar_rt_world_rank() == 0;
  int64_t grid[1] = {seqpar_rt_world_size()};
  int32_t axes[1] = {0};
  seqpar_rt_comm_t comm = nullptr;
  bool skipper = !first && (std::strcmp(mode, "skip-first") == 0 ||
                            std::strcmp(mode, "skip-to-barrier") == 0);
  if (!skipper && seqpar_rt_comm_get(grid, 1, axes, 1, &comm) != SEQPAR_RT_OK)
    return 2;
  static float in[32 * 1024], out[32 * 1024 * 8];
  int64_t shape[2] = {4, 8};
  if (std::strcmp(mode, "bad-argument") == 0) {
    seqpar_rt_set_error_mode(SEQPAR_RT_ERRORS_ABORT);
    seqpar_rt_all_gather(comm, SEQPAR_RT_F32, in, out, shape, 2, 5);
    std::printf("rank %d: bad all_gather returned\n", seqpar_rt_world_rank());
  } else if (std::strcmp(mode, "mismatch") == 0) {
    if (first)
      seqpar_rt_all_gather(comm, SEQPAR_RT_F32, in, out, shape, 2, 1);
    else
      seqpar_rt_all_reduce(comm, SEQPAR_RT_F32, SEQPAR_RT_SUM, in, out, shape,
                           2);
    std::printf("rank %d: mismatched collective returned\n",
                seqpar_rt_world_rank());
  } else if (std::strcmp(mode, "gather-sizes") == 0) {
    int64_t large[2] = {4096, 8};
    seqpar_rt_all_gather(comm, SEQPAR_RT_F32, in, out, first ? shape : large, 2,
                         0);
    std::printf("rank %d: mismatched all_gather returned\n",
                seqpar_rt_world_rank());
  } else if (first) {
    seqpar_rt_all_gather(comm, SEQPAR_RT_F32, in, out, shape, 2, 1);
    std::printf("rank 0: all_gather returned; the timeout did not fire\n");
  } else if (std::strcmp(mode, "skip-to-barrier") == 0) {
    seqpar_rt_barrier();
    std::printf("rank 1: barrier returned\n");
  } else {
    // Never join; stay alive long enough that only an abort ends the job.
    std::this_thread::sleep_for(std::chrono::seconds(40));
  }
  seqpar_rt_finalize();
  return 0;
}
