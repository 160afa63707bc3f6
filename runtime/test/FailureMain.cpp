//===- FailureMain.cpp - jobs that must abort (run by expect_failure.sh) --===//
//
// Usage: seqpar-runtime-failure-test timeout | bad-argument
//   timeout:      rank 0 starts an all-gather that rank 1 never joins; the
//                 runtime must abort the job after SEQPAR_COLLECTIVE_TIMEOUT
//                 seconds with a message naming rank, op, grid axis, sizes.
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
    std::fprintf(stderr, "usage: %s timeout|bad-argument\n", argv[0]);
    return 2;
  }
  if (seqpar_rt_init() != SEQPAR_RT_OK) {
    std::fprintf(stderr, "init failed: %s\n", seqpar_rt_last_error());
    return 2;
  }
  int64_t grid[1] = {seqpar_rt_world_size()};
  int32_t axes[1] = {0};
  seqpar_rt_comm_t comm = nullptr;
  if (seqpar_rt_comm_get(grid, 1, axes, 1, &comm) != SEQPAR_RT_OK)
    return 2;
  float in[32] = {0}, out[32 * 8] = {0};
  int64_t shape[2] = {4, 8};
  if (std::strcmp(argv[1], "timeout") == 0) {
    if (seqpar_rt_world_rank() == 0) {
      seqpar_rt_all_gather(comm, SEQPAR_RT_F32, in, out, shape, 2, 1);
      std::printf("rank 0: all_gather returned; the timeout did not fire\n");
    } else {
      // Never join; stay alive long enough that only an abort ends the job.
      std::this_thread::sleep_for(std::chrono::seconds(40));
    }
  } else {
    seqpar_rt_set_error_mode(SEQPAR_RT_ERRORS_ABORT);
    seqpar_rt_all_gather(comm, SEQPAR_RT_F32, in, out, shape, 2, 5);
    std::printf("rank %d: bad all_gather returned\n", seqpar_rt_world_rank());
  }
  seqpar_rt_finalize();
  return 0;
}
