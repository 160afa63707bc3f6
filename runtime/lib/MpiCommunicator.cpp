//===- MpiCommunicator.cpp - collectives on host buffers over MPI ---------===//
//
// Each collective becomes one MPI call: MPI_Iallreduce, MPI_Ialltoall (also
// for the reduce-scatter, whose chunks each rank then reduces itself), posted
// by the MPI thread, or, when every member runs it on its calling thread
// (MpiEngine::runDirect), the blocking form of the same collective, which is
// what a program calling MPI itself would make; or point-to-point calls,
// MPI_Irecv + MPI_Isend posted together (no deadlock, whatever the
// direction): the ring shift, and the all-gather, which is posted together
// with its agreement check (MpiOp::postWithCheck). A non-leading dim is handled
// by packing per-rank chunks into contiguous scratch (splitPack) before and
// unpacking (concatUnpack) after, on the thread that owns MPI. f16/bf16
// reductions are widened to f32 scratch, reduced in f32, narrowed once.
//
//===----------------------------------------------------------------------===//

#include "Backends.h"

#include "Layout.h"

#include <cstring>

namespace seqpar {
namespace rt {
namespace detail {

namespace {
constexpr int kShiftTag = 0x5e9;
constexpr int kGatherTag = 0x5ea;

MPI_Op mpiOp(Reduction reduction) {
  switch (reduction) {
  case Reduction::Max:
    return MPI_MAX;
  case Reduction::Min:
    return MPI_MIN;
  case Reduction::Sum:
    break;
  }
  return MPI_SUM;
}

/// The MPI type that moves (and, but for f16/bf16, reduces) `dtype`.
MPI_Datatype mpiType(DType dtype) {
  switch (dtype) {
  case DType::F16:
  case DType::BF16:
    return MPI_UINT16_T;
  case DType::I32:
    return MPI_INT32_T;
  case DType::I64:
    return MPI_INT64_T;
  case DType::I8:
    return MPI_INT8_T;
  case DType::F32:
    break;
  }
  return MPI_FLOAT;
}

char *allocScratch(std::unique_ptr<char[]> &slot, size_t bytes) {
  slot.reset(new char[bytes ? bytes : 1]);
  return slot.get();
}

MPI_Request *newRequest(MpiOp &op) {
  op.requests.push_back(MPI_REQUEST_NULL);
  return &op.requests.back();
}

class MpiRequest : public Request {
public:
  MpiRequest(std::shared_ptr<RequestState> state, MpiEngine &engine,
             Counters &counters, const CounterKey &key)
      : state_(std::move(state)), engine_(engine), counters_(counters),
        key_(&key) {}
  ~MpiRequest() override {
    if (!waited_)
      wait();
  }
  Status wait() override {
    if (waited_)
      return Status::success();
    double t0 = monotonicSeconds();
    engine_.waitFor(*state_);
    counters_.addWait(*key_, monotonicSeconds() - t0);
    waited_ = true;
    return Status::success();
  }
  bool test() override {
    std::lock_guard<std::mutex> lock(state_->mutex);
    return state_->done;
  }
  double completedAt() const override {
    std::lock_guard<std::mutex> lock(state_->mutex);
    return state_->completedAt;
  }

private:
  std::shared_ptr<RequestState> state_;
  MpiEngine &engine_;
  Counters &counters_;
  const CounterKey *key_; ///< the communicator's, which outlives requests
  bool waited_ = false;
};
} // namespace

MpiCommunicator::MpiCommunicator(CommunicatorInfo info, int color,
                                 MpiEngine &engine, Counters &counters)
    : info_(std::move(info)), label_(info_.label()), color_(color),
      engine_(engine), counters_(counters) {
  for (size_t kind = 0; kind < counterKeys_.size(); ++kind)
    counterKeys_[kind] =
        CounterKey{static_cast<OpKind>(kind), info_.gridShape, info_.axes};
}

MpiCommunicator::~MpiCommunicator() {
  if (comm_ == MPI_COMM_NULL)
    return;
  MPI_Comm comm = comm_;
  engine_.runSync([&comm] { MPI_Comm_free(&comm); },
                  "MPI_Comm_free of " + info_.label());
}

void MpiCommunicator::ensureCreated(const CollectiveOp &op) {
  std::lock_guard<std::mutex> lock(createMutex_);
  if (comm_ != MPI_COMM_NULL)
    return;
  MPI_Comm parent = engine_.controlComm(), comm = MPI_COMM_NULL;
  int color = color_, key = info_.rank;
  engine_.runControl(
      controlSignature(ControlKind::CreateCommunicator, info_.worldRank,
                       info_.gridShape, info_.axes, op.kind),
      describe(op, info_) +
          " (first creating its communicator, collective over the world)",
      [&] { MPI_Comm_split(parent, color, key, &comm); });
  comm_ = comm;
}

std::unique_ptr<MpiOp> MpiCommunicator::newOp(const CollectiveOp &op) {
  auto m = std::make_unique<MpiOp>();
  m->describe = [op, info = &info_] { return describe(op, *info); };
  m->checkComm = comm_;
  m->sequence = &sequence_;
  m->signature = signatureOf(op, info_.worldRank);
  m->groupLabel = &label_;
  m->startTime = monotonicSeconds();
  return m;
}

void MpiCommunicator::checkOnly(const CollectiveOp &op) {
  ensureCreated(op);
  std::unique_ptr<MpiOp> m = newOp(op);
  m->post = [](MpiOp &) {};
  m->state = std::make_shared<RequestState>();
  engine_.submit(std::move(m));
}

void MpiCommunicator::runCollective(ControlKind kind,
                                    const std::string &description,
                                    std::function<void()> fn) {
  engine_.runCollective(comm_, &sequence_,
                        controlSignature(kind, info_.worldRank), label_,
                        description, std::move(fn));
}

Status MpiCommunicator::start(const CollectiveOp &op,
                              std::unique_ptr<Request> *request) {
  *request = nullptr;
  std::unique_ptr<MpiOp> m;
  Status status = prepare(op, &m);
  if (!status.ok())
    return status;
  auto state = std::make_shared<RequestState>();
  m->state = state;
  engine_.submit(std::move(m));
  *request = std::make_unique<MpiRequest>(state, engine_, counters_,
                                          counterKey(op.kind));
  return Status::success();
}

Status MpiCommunicator::run(const CollectiveOp &op) {
  double t0 = monotonicSeconds();
  std::unique_ptr<MpiOp> m;
  Status status = prepare(op, &m);
  if (!status.ok())
    return status;
  if (!engine_.runDirect(*m)) {
    m->state = std::make_shared<RequestState>();
    MpiRequest request(m->state, engine_, counters_, counterKey(op.kind));
    engine_.submit(std::move(m));
    return request.wait();
  }
  // The caller was blocked throughout.
  counters_.addWait(counterKey(op.kind), monotonicSeconds() - t0);
  return Status::success();
}

Status MpiCommunicator::prepare(const CollectiveOp &op,
                                std::unique_ptr<MpiOp> *result) {
  Geometry g;
  Status status = validate(op, info_.size, &g);
  if (!status.ok())
    return Status::error(status.code,
                         status.message + " (on " + label_ + ")");

  ensureCreated(op);
  std::unique_ptr<MpiOp> m = newOp(op);
  const CounterKey *key = &counterKey(op.kind);
  uint64_t bytes = g.bytesSent;
  Counters *counters = &counters_;
  m->record = [counters, key, bytes](MpiOp &, double seconds) {
    counters->addCollective(*key, bytes, seconds);
  };

  const size_t es = dtypeSize(op.dtype);
  const MPI_Comm comm = comm_;
  const int t = info_.size, r = info_.rank;
  const DType dtype = op.dtype;
  const bool widen = isHalf(dtype); // reduced in f32
  const MPI_Datatype moveType = mpiType(dtype);
  const MPI_Datatype reduceType = widen ? MPI_FLOAT : moveType;
  const MPI_Op reduce = mpiOp(op.reduction);
  const char *in = static_cast<const char *>(op.input);
  char *out = static_cast<char *>(op.output);

  switch (op.kind) {
  case OpKind::AllGather: {
    const int count = static_cast<int>(g.inputElems);
    const size_t blockBytes = static_cast<size_t>(g.inputElems) * es;
    const bool direct = g.outer == 1; // gathered dim is leading: no unpack
    // Point-to-point, posted with the agreement check (README "Agreement
    // check"): every rank sends its block to every other and receives
    // theirs, peers in rotated order so that no rank is everyone's first.
    m->postWithCheck = true;
    m->post = [=](MpiOp &o) {
      char *dst = direct ? out
                         : allocScratch(o.scratchA,
                                        static_cast<size_t>(g.outputElems) * es);
      for (int k = 1; k < t; ++k) {
        int from = (r + t - k) % t;
        MPI_Irecv(dst + static_cast<size_t>(from) * blockBytes, count, moveType,
                  from, kGatherTag, comm, newRequest(o));
      }
      for (int k = 1; k < t; ++k)
        MPI_Isend(in, count, moveType, (r + k) % t, kGatherTag, comm,
                  newRequest(o));
      // The own block while the peers' are in flight.
      char *own = dst + static_cast<size_t>(r) * blockBytes;
      if (own != in)
        std::memmove(own, in, blockBytes);
    };
    if (!direct)
      m->complete = [=](MpiOp &o) {
        concatUnpack(o.scratchA.get(), out, g.outer, g.extent, g.inner, t, es);
      };
    break;
  }
  case OpKind::ReduceScatter: {
    // An all-to-all of the per-rank chunks, then each rank reduces the t
    // chunks it received (README "Reduce-scatter"): Open MPI's
    // reduce-scatter algorithms took 12-15 ms for 16 MiB on 2 ranks where
    // its all-gather of the same size takes 1.6 ms.
    const int block = static_cast<int>(g.chunkElems);
    const size_t reducedSize = widen ? 4 : es;
    m->post = [=](MpiOp &o) {
      const char *src = in;
      if (g.outer != 1) {
        char *packed =
            allocScratch(o.scratchA, static_cast<size_t>(g.inputElems) * es);
        splitPack(in, packed, g.outer, g.extent, g.inner, t, es);
        src = packed;
      }
      if (widen) {
        float *wide = reinterpret_cast<float *>(
            allocScratch(o.scratchB, static_cast<size_t>(g.inputElems) * 4));
        toF32(dtype, src, wide, g.inputElems);
        src = reinterpret_cast<const char *>(wide);
      }
      char *received = allocScratch(
          o.scratchC, static_cast<size_t>(g.inputElems) * reducedSize);
      if (o.blocking)
        MPI_Alltoall(src, block, reduceType, received, block, reduceType, comm);
      else
        MPI_Ialltoall(src, block, reduceType, received, block, reduceType, comm,
                      newRequest(o));
    };
    const Reduction reduction = op.reduction;
    m->complete = [=](MpiOp &o) {
      char *received = o.scratchC.get();
      if (!widen) {
        reduceChunks(dtype, reduction, received, t, block, out);
        return;
      }
      // Reduced in f32 into the first chunk, narrowed once.
      reduceChunks(DType::F32, reduction, received, t, block, received);
      fromF32(dtype, reinterpret_cast<float *>(received), out, block);
    };
    break;
  }
  case OpKind::AllReduce: {
    const int count = static_cast<int>(g.inputElems);
    m->post = [=](MpiOp &o) {
      const void *src = in == out ? MPI_IN_PLACE : in;
      void *res = out;
      if (widen) {
        float *wide = reinterpret_cast<float *>(
            allocScratch(o.scratchB, static_cast<size_t>(count) * 4));
        toF32(dtype, in, wide, count);
        src = MPI_IN_PLACE;
        res = wide;
      }
      if (o.blocking)
        MPI_Allreduce(src, res, count, reduceType, reduce, comm);
      else
        MPI_Iallreduce(src, res, count, reduceType, reduce, comm,
                       newRequest(o));
    };
    if (widen)
      m->complete = [=](MpiOp &o) {
        fromF32(dtype, reinterpret_cast<float *>(o.scratchB.get()), out, count);
      };
    break;
  }
  case OpKind::AllToAll: {
    const int chunk = static_cast<int>(g.chunkElems);
    const bool packIn = g.outer != 1;       // split dim not leading
    const bool unpackOut = g.chunkOuter != 1; // concat dim not leading
    m->post = [=](MpiOp &o) {
      const char *src = in;
      if (packIn) {
        char *packed =
            allocScratch(o.scratchA, static_cast<size_t>(g.inputElems) * es);
        splitPack(in, packed, g.outer, g.extent, g.inner, t, es);
        src = packed;
      }
      char *dst = unpackOut ? allocScratch(o.scratchB,
                                           static_cast<size_t>(g.outputElems) *
                                               es)
                            : out;
      if (o.blocking)
        MPI_Alltoall(src, chunk, moveType, dst, chunk, moveType, comm);
      else
        MPI_Ialltoall(src, chunk, moveType, dst, chunk, moveType, comm,
                      newRequest(o));
    };
    if (unpackOut)
      m->complete = [=](MpiOp &o) {
        concatUnpack(o.scratchB.get(), out, g.chunkOuter, g.chunkExtent,
                     g.chunkInner, t, es);
      };
    break;
  }
  case OpKind::Shift: {
    const int count = static_cast<int>(g.inputElems);
    const int64_t k = g.shift;
    m->post = [=](MpiOp &o) {
      if (k == 0) { // the ring maps every rank to itself
        std::memcpy(out, in, static_cast<size_t>(count) * es);
        return;
      }
      int dst = static_cast<int>((r + k) % t);
      int src = static_cast<int>((r - k + t) % t);
      MPI_Irecv(out, count, moveType, src, kShiftTag, comm, newRequest(o));
      MPI_Isend(in, count, moveType, dst, kShiftTag, comm, newRequest(o));
    };
    break;
  }
  }

  m->requests.reserve(2);
  *result = std::move(m);
  return Status::success();
}

} // namespace detail
} // namespace rt
} // namespace seqpar
