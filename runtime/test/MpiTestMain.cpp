//===- MpiTestMain.cpp - GoogleTest main for tests run under mpirun -------===//
//
// Initializes the runtime (and MPI) once, runs every test on every rank, and
// returns non-zero on a rank whose tests failed (mpirun then fails too).
// Rank 0 prints the usual GoogleTest output; other ranks print failures only,
// prefixed with their rank.
//
//===----------------------------------------------------------------------===//

#include "seqpar/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace {
class FailurePrinter : public ::testing::EmptyTestEventListener {
public:
  explicit FailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult &result) override {
    if (result.failed())
      std::printf("[rank %d] %s:%d: Failure\n%s\n", rank_,
                  result.file_name() ? result.file_name() : "?",
                  result.line_number(), result.summary());
  }
  void OnTestEnd(const ::testing::TestInfo &info) override {
    if (info.result()->Failed())
      std::printf("[rank %d] FAILED %s.%s\n", rank_, info.test_suite_name(),
                  info.name());
  }

private:
  int rank_;
};
} // namespace

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  seqpar::rt::Status status = seqpar::rt::Runtime::initialize();
  if (!status.ok()) {
    std::fprintf(stderr, "runtime init failed: %s\n", status.message.c_str());
    return 1;
  }
  int rank = seqpar::rt::Runtime::get().worldRank();
  if (rank != 0) {
    ::testing::TestEventListeners &listeners =
        ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new FailurePrinter(rank));
  }
  int rc = RUN_ALL_TESTS();
  seqpar::rt::Runtime::finalize();
  return rc;
}
