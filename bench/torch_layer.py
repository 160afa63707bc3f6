#!/usr/bin/env python3
"""One GPT-2 layer in PyTorch on 2 CPU processes (gloo), with PyTorch's own
parallelism, for comparison with seqpar-run (bench/run_all.py).

The layer: LayerNorm, Q/K/V linears, causal attention
(F.scaled_dot_product_attention, a heads), output projection, residual,
LayerNorm, MLP 4h with GELU (tanh), residual, final LayerNorm; f32, no
dropout, forward only under torch.no_grad(). It is the same graph as
`bench/gen_tp_graph.py --model gpt --layers 1 --form plain`.

Variants (--variant):
  tp     Megatron TP with torch.distributed.tensor.parallel: Q, K, V and fc1
         ColwiseParallel, proj and fc2 RowwiseParallel (2 all-reduces).
  tp-sp  the same plus SequenceParallel on the three LayerNorms and
         PrepareModuleInput (all-gather of the sequence) before attention and
         MLP, RowwiseParallel(output_layouts=Shard(1)) (reduce-scatter) after:
         Megatron SP in DTensor form. Gloo has no native reduce-scatter; c10d
         emulates it (all-reduce, then each rank keeps its part).
  cp     torch.distributed.tensor.experimental.context_parallel (ring
         attention over the sequence, layer replicated). Reported as n/a with
         the exception text if it does not run (it needs CUDA SDPA kernels).

Measurements per rank (printed as one JSON line 'RESULT {...}' by rank 0):
  step_s   median seconds of one forward over --iters calls after --warmup,
           each call started after a barrier (no profiler).
  comm_s   median seconds per forward the rank spent in collectives: the
           summed duration of the outermost c10d / functional-collective ops
           (issue + wait_tensor, i.e. time the calling thread was blocked)
           recorded by torch.profiler in separate, profiled forwards.
  compute_s = step_s - comm_s.
  peak_bytes  growth of the process's resident-set high-water mark
           (getrusage ru_maxrss) from after setup (model, inputs, first
           reference) to after all forwards: what the forwards added to the
           process's peak RSS, not an allocation count like seqpar-run's.
  err      max|out - ref| / max(1, max|ref|) against the unparallelized layer.

Usage: python bench/torch_layer.py --variant tp --seq 1024 [--iters 5]
"""

import argparse
import copy
import json
import os
import resource
import statistics
import sys
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F

# Profiler event names of collectives issued by the calling thread.
COMM_PREFIXES = ("c10d::", "_c10d_functional::", "c10d_functional::")


class Attention(nn.Module):
    """Causal self-attention; Q, K, V separate so ColwiseParallel splits heads."""

    def __init__(self, h, a):
        super().__init__()
        self.q, self.k, self.v = nn.Linear(h, h), nn.Linear(h, h), nn.Linear(h, h)
        self.proj = nn.Linear(h, h)
        self.d = h // a

    def forward(self, x):
        b, s = x.shape[0], x.shape[1]
        # -1: the heads this rank holds (a under no TP, a/t under TP).
        q, k, v = (m(x).view(b, s, -1, self.d).transpose(1, 2)
                   for m in (self.q, self.k, self.v))
        o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.proj(o.transpose(1, 2).reshape(b, s, -1))


class Mlp(nn.Module):
    def __init__(self, h):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(h, 4 * h), nn.Linear(4 * h, h)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x), approximate="tanh"))


class Layer(nn.Module):
    def __init__(self, h, a):
        super().__init__()
        self.ln1, self.ln2, self.lnf = nn.LayerNorm(h), nn.LayerNorm(h), nn.LayerNorm(h)
        self.attn, self.mlp = Attention(h, a), Mlp(h)

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        x = x + self.mlp(self.ln2(x))
        y = self.lnf(x)
        return y.to_local() if hasattr(y, "to_local") else y


def parallelize(model, variant, mesh):
    """Applies the TP / TP+SP plan; returns the sequence dim the input is cut on (or None)."""
    from torch.distributed.tensor import Replicate, Shard
    from torch.distributed.tensor.parallel import (
        ColwiseParallel, PrepareModuleInput, RowwiseParallel, SequenceParallel,
        parallelize_module)
    plan = {f"attn.{n}": ColwiseParallel() for n in ("q", "k", "v")}
    plan["mlp.fc1"] = ColwiseParallel()
    if variant == "tp":
        plan["attn.proj"] = RowwiseParallel()
        plan["mlp.fc2"] = RowwiseParallel()
        parallelize_module(model, mesh, plan)
        return None
    for n in ("ln1", "ln2", "lnf"):
        plan[n] = SequenceParallel()
    for n in ("attn", "mlp"):
        plan[n] = PrepareModuleInput(input_layouts=(Shard(1),),
                                     desired_input_layouts=(Replicate(),))
    plan["attn.proj"] = RowwiseParallel(output_layouts=Shard(1))
    plan["mlp.fc2"] = RowwiseParallel(output_layouts=Shard(1))
    parallelize_module(model, mesh, plan)
    return 1


def maxrss_bytes():
    """Process resident-set high-water mark, bytes (Linux ru_maxrss is KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def comm_seconds(prof):
    """Seconds in outermost collective ops on any thread that issued them."""
    total = 0.0
    for ev in prof.events():
        if not ev.name.startswith(COMM_PREFIXES):
            continue
        parent, nested = ev.cpu_parent, False
        while parent is not None:
            if parent.name.startswith(COMM_PREFIXES):
                nested = True
                break
            parent = parent.cpu_parent
        if not nested:
            total += ev.time_range.elapsed_us() * 1e-6
    return total


def run_cp(model, x, mesh, rank, world):
    """torch's context_parallel over the whole layer; raises if unsupported."""
    from torch.distributed.tensor.experimental import context_parallel
    xs = x.clone()
    with context_parallel(mesh, buffers=[xs], buffer_seq_dims=[1]):
        return model(xs)


def report(rank, args, out):
    """Gathers every rank's result dict; rank 0 prints them as one line
    'RESULT {...}'. Ends the process group."""
    gathered = [None] * args.world
    dist.all_gather_object(gathered, out)
    if rank == 0:
        print("RESULT " + json.dumps({"variant": args.variant, "seq": args.seq,
                                      "ranks": gathered, "torch": torch.__version__}),
              flush=True)
    dist.destroy_process_group()


def worker(rank, args, port):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    # One core per rank, as Open MPI's default binding does for seqpar-run.
    os.sched_setaffinity(0, {rank % os.cpu_count()})
    torch.set_num_threads(1)
    dist.init_process_group("gloo", rank=rank, world_size=args.world)
    from torch.distributed.device_mesh import init_device_mesh
    mesh = init_device_mesh("cpu", (args.world,))
    torch.manual_seed(0)
    model = Layer(args.hidden, args.heads).eval()
    x = torch.rand(args.batch, args.seq, args.hidden) * 2 - 1
    out = {"rank": rank}
    try:
        if args.variant == "cp":
            with torch.no_grad():
                ref = model(x)
                y = run_cp(model, x, mesh, rank, args.world)
            raise RuntimeError("context_parallel ran; timing it is not implemented")
        par = copy.deepcopy(model)
        seq_dim = parallelize(par, args.variant, mesh)
        xl = x.chunk(args.world, dim=1)[rank].contiguous() if seq_dim else x
        forward = lambda: par(xl)
        rss0 = maxrss_bytes()
        with torch.no_grad():
            for _ in range(args.warmup):
                y = forward()
            steps = []
            for _ in range(args.iters):
                dist.barrier()
                t0 = time.perf_counter()
                y = forward()
                steps.append(time.perf_counter() - t0)
            peak = maxrss_bytes() - rss0
            comms, prof_steps = [], []
            for _ in range(args.iters):
                dist.barrier()
                with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
                    t0 = time.perf_counter()
                    forward()
                    prof_steps.append(time.perf_counter() - t0)
                comms.append(comm_seconds(prof))
            ref = model(x)  # after the measurements: its peak must not hide theirs
        want = ref.chunk(args.world, dim=1)[rank] if seq_dim else ref
        err = ((y - want).abs().max() / max(1.0, ref.abs().max().item())).item()
        step, comm = statistics.median(steps), statistics.median(comms)
        out.update(step_s=step, comm_s=comm, compute_s=step - comm,
                   profiled_step_s=statistics.median(prof_steps),
                   peak_bytes=peak, err=err)
    except Exception as e:  # reported, not hidden: the table prints n/a (reason)
        out["na"] = f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"
    report(rank, args, out)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", choices=("tp", "tp-sp", "cp"), required=True)
    p.add_argument("--seq", type=int, default=1024)
    p.add_argument("--hidden", type=int, default=768)
    p.add_argument("--heads", type=int, default=12)
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--world", type=int, default=2)
    p.add_argument("--iters", type=int, default=5)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--port", type=int, default=29500 + os.getpid() % 1000)
    args = p.parse_args()
    mp.spawn(worker, args=(args, args.port), nprocs=args.world, join=True)


if __name__ == "__main__":
    sys.exit(main())
