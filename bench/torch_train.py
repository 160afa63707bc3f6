#!/usr/bin/env python3
"""One GPT-2 layer training step (forward + backward) in PyTorch on 2 CPU
processes (gloo), with DTensor TP and TP+SP, for comparison with seqpar-run
on the same step (bench/run_training.py).

The step is the program `bench/gen_train_graph.py --model gpt --layers 1
--form plain` computes: the layer of bench/torch_layer.py (LayerNorm, Q/K/V,
causal attention, projection, residual, LayerNorm, MLP 4h with tanh-GELU,
residual, final LayerNorm), an LM head W [h, vocab] without bias, and the
causal-LM cross-entropy: token i scored on label i+1, the last token and
labels equal to -100 ignored, mean over the valid tokens. f32, no dropout,
`loss.backward()` into every parameter's `.grad`.

Variants (--variant):
  tp     Megatron TP: Q, K, V, fc1 ColwiseParallel, proj and fc2
         RowwiseParallel; the LM head ColwiseParallel with the logits left
         sharded on the vocabulary and `loss_parallel()` (Megatron's
         VocabParallelCrossEntropy: max and sum of exponentials all-reduced,
         the logits never gathered), as torchtitan does.
  tp-sp  the same plus SequenceParallel on the three LayerNorms,
         PrepareModuleInput(Shard(1) -> Replicate()) before attention and MLP
         and RowwiseParallel(output_layouts=Shard(1)); the head's input is
         all-gathered from Shard(1). Gradients of the sequence-parallel
         LayerNorm weights come back as Partial DTensors; the step
         redistributes them to Replicate (the all-reduce Megatron does in its
         optimizer hook) so that it ends with the gradients seqpar returns.

Measurements per rank (rank 0 prints one JSON line 'RESULT {...}'):
  step_s      median seconds of one step over --iters after --warmup, each
              after a barrier, gradients cleared before (set_to_none).
  comm_s      median per step of the summed duration of the outermost
              c10d / functional-collective events (issue + wait) in profiled
              steps (torch.profiler, record_shapes).
  sent_bytes  bytes sent per rank by docs/semantics.md §5's convention
              (all-reduce 2N(t-1)/t, all-gather and reduce-scatter N(t-1)/t,
              N the full tensor's bytes) from the shapes of the functional
              collectives DTensor issues (a collective of another kind
              makes the variant n/a),
              i.e. what the collectives ask for, not what gloo's emulations
              put on the wire (its reduce-scatter is an all-reduce).
  peak_bytes  growth of the RSS high-water mark (ru_maxrss) from after setup
              to after the steps (bench/torch_layer.py's measure).
  err         max over the loss and every parameter gradient of
              max|x - ref| / max(1, max|ref|) against the unparallelized
              module's step.

Usage: python bench/torch_train.py --variant tp --seq 1024 [--vocab 1024]
"""

import argparse
import copy
import os
import statistics
import sys
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_layer import Layer, comm_seconds, maxrss_bytes, parallelize, report  # noqa: E402

IGNORE = -100


class TrainModel(nn.Module):
    """bench/torch_layer.py's layer, then the LM head (no bias)."""

    def __init__(self, h, a, vocab):
        super().__init__()
        self.layer = Layer(h, a)
        self.head = nn.Linear(h, vocab, bias=False)

    def forward(self, x):
        return self.head(self.layer(x))


def lm_loss(logits, labels):
    """Causal-LM cross-entropy: logits [b, s, V] of token i against label
    i+1, mean over the labels that are not -100."""
    return F.cross_entropy(logits[:, :-1].flatten(0, 1), labels[:, 1:].flatten(0, 1),
                           ignore_index=IGNORE)


def parallelize_train(model, variant, mesh):
    """TP / TP+SP plan of the layer and the vocab-parallel head; returns the
    sequence dim the input is cut on (or None)."""
    from torch.distributed.tensor import Replicate, Shard
    from torch.distributed.tensor.parallel import ColwiseParallel, parallelize_module
    seq_dim = parallelize(model.layer, variant, mesh)
    parallelize_module(model.head, mesh, ColwiseParallel(
        input_layouts=Shard(1) if seq_dim else Replicate(), output_layouts=Shard(-1),
        use_local_output=False))
    return seq_dim


# The functional collectives DTensor issues: how the first input relates to N,
# the full tensor (docs/semantics.md §5).
SENT_BYTES = {
    "_c10d_functional::all_reduce": lambda n, t: 2 * n * (t - 1) // t,
    "_c10d_functional::all_gather_into_tensor": lambda n, t: n * (t - 1),  # input: 1/t of N
    "_c10d_functional::reduce_scatter_tensor": lambda n, t: n * (t - 1) // t,  # input: N
}


def collective_bytes(prof, world):
    """Bytes sent by the functional collectives of a profiled step (f32,
    4 bytes an element: every tensor of the step is f32). Exits on a
    collective it cannot count, rather than print a wrong figure."""
    total = 0
    for ev in prof.events():
        if not ev.name.startswith("_c10d_functional::") or ev.name.endswith("wait_tensor"):
            continue
        if ev.name not in SENT_BYTES or not ev.input_shapes:
            raise RuntimeError(f"cannot count the bytes of collective {ev.name}")
        n = 4
        for d in ev.input_shapes[0]:
            n *= d
        total += SENT_BYTES[ev.name](n, world)
    return total


def step_fn(model, x, labels, loss_ctx):
    """One training step: loss, gradients in .grad (Partial ones reduced)."""
    from torch.distributed.tensor import DTensor, Replicate

    def step():
        model.zero_grad(set_to_none=True)
        with loss_ctx():
            loss = lm_loss(model(x), labels)
            loss.backward()
        for p in model.parameters():
            g = p.grad
            if isinstance(g, DTensor) and any(pl.is_partial() for pl in g.placements):
                p.grad = g.redistribute(g.device_mesh, [Replicate()] * g.device_mesh.ndim)
        return loss
    return step


def full(t):
    return t.full_tensor() if hasattr(t, "full_tensor") else t


def worker(rank, args, port):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    os.sched_setaffinity(0, {rank % os.cpu_count()})  # one core per rank, as mpirun binds
    torch.set_num_threads(1)
    dist.init_process_group("gloo", rank=rank, world_size=args.world)
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.tensor.parallel import loss_parallel
    mesh = init_device_mesh("cpu", (args.world,))
    torch.manual_seed(0)
    model = TrainModel(args.hidden, args.heads, args.vocab)
    x = torch.rand(args.batch, args.seq, args.hidden) * 2 - 1
    labels = torch.randint(0, args.vocab, (args.batch, args.seq))
    labels[:, ::7] = IGNORE  # some ignored labels, as the seqpar inputs may have
    out = {"rank": rank}
    try:
        par = copy.deepcopy(model)
        seq_dim = parallelize_train(par, args.variant, mesh)
        xl = x.chunk(args.world, dim=1)[rank].contiguous() if seq_dim else x
        step = step_fn(par, xl, labels, loss_parallel)
        rss0 = maxrss_bytes()
        for _ in range(args.warmup):
            step()
        steps = []
        for _ in range(args.iters):
            dist.barrier()
            t0 = time.perf_counter()
            loss = step()
            steps.append(time.perf_counter() - t0)
        peak = maxrss_bytes() - rss0
        comms, sent = [], 0
        for _ in range(args.iters):
            dist.barrier()
            with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU],
                                        record_shapes=True) as prof:
                step()
            comms.append(comm_seconds(prof))
            sent = collective_bytes(prof, args.world)
        grads = {n: full(p.grad) for n, p in par.named_parameters()}
        loss = full(loss)
        # The reference step after the measurements: its peak must not hide theirs.
        ref_loss = step_fn(model, x, labels, torch.enable_grad)()
        err = (loss - ref_loss).abs().item() / max(1.0, ref_loss.abs().item())
        for n, p in model.named_parameters():
            d = (grads[n] - p.grad).abs().max().item() / max(1.0, p.grad.abs().max().item())
            err = max(err, d)
        s, c = statistics.median(steps), statistics.median(comms)
        out.update(step_s=s, comm_s=c, compute_s=s - c, sent_bytes=sent, peak_bytes=peak,
                   err=err)
    except Exception as e:  # reported, not hidden: the table prints n/a (reason)
        out["na"] = f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"
    report(rank, args, out)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", choices=("tp", "tp-sp"), required=True)
    p.add_argument("--seq", type=int, default=1024)
    p.add_argument("--hidden", type=int, default=768)
    p.add_argument("--heads", type=int, default=12)
    p.add_argument("--vocab", type=int, default=1024)
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--world", type=int, default=2)
    p.add_argument("--iters", type=int, default=3)
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--port", type=int, default=29500 + os.getpid() % 1000)
    args = p.parse_args()
    for name in ("seq", "hidden", "heads", "vocab", "batch", "world", "iters"):
        if getattr(args, name) < 1:
            p.error(f"--{name} must be >= 1")
    if args.hidden % args.heads or args.heads % args.world or args.vocab % args.world \
            or args.seq % args.world:
        p.error("--hidden must divide by --heads, and --heads, --vocab, --seq by --world")
    mp.spawn(worker, args=(args, args.port), nprocs=args.world, join=True)


if __name__ == "__main__":
    sys.exit(main())
