#!/usr/bin/env python3
"""Context-parallel attention on CPU ranks: attention time and K/V wait time.

For every ring size c (MPI ranks), local sequence length s/c and strategy
(ring, all-gather, ulysses, and hybrid = 2 Ulysses ranks x c/2 ring ranks
for c >= 4), one causal attention layer (b = 1, a = c heads
so Ulysses can split them, d = 64, f32) is written as ``seqpar.attention``,
rewritten by ``seqpar-context-parallel`` (zigzag load balancing) and run by
``seqpar-run`` under ``mpirun -np c``. The runtime's per-rank counters give:

* attention_s: the 'attention' compute region (seqpar-instrument-attention),
  every attention block this rank ran, summed; max over ranks;
* transfer_s: start to completion of the K/V collectives (the ring's
  shift send/recv, the all-gather of K/V, Ulysses' all-to-alls; hybrid:
  both), summed;
  max over ranks;
* wait_s: time the rank was blocked in seqpar.wait (or a blocking
  collective) on those transfers, summed; max over ranks;
* hidden: 1 - wait_s / transfer_s for the ring, whose transfers are started
  before each step's compute and waited after it (docs/semantics.md §4.1): the
  part of the transfer time the compute hid. All-gather and Ulysses block,
  hidden ~ 0.

With --training the layer is the attention and its backward
(``seqpar.attention_backward`` of the same attention, dO an input), as a
training graph holds them once raised (docs/context-parallelism.md,
"Training: the attention backward"); the columns then add the backward's
region ('attention_backward') and the transfers include the backward's
(ring: K/V again and the dK/dV blocks on their way home), and the output
columns are forward + backward.

Sizes whose estimated peak over all ranks (about six [a, s_q, 1024] f32
buffers per rank: attention blocks run over key tiles of 1024, and a
backward block over 1024 x 1024 tiles) exceeds
--mem-gib are skipped with a line saying so; a run that fails prints its
last line and the table goes on. --check adds
seqpar-run's comparison against the unsharded program (slow at large s).

Example (the docs' table):
    python3 bench/run_cp_bench.py --ranks 2 4 --chunks 1024 2048 4096 8192
    python3 bench/run_cp_bench.py --training --ranks 2 4 --chunks 512 1024 2048

Only the Python standard library is used; builds nothing (ninja -C build).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEAD_DIM = 64
KV_TILE = 1024  # seqpar-lower-to-llvm's attention-kv-tile default
STRATEGIES = ("ring", "all-gather", "ulysses", "hybrid")
HYBRID_ULYSSES = 2  # hybrid's Ulysses ranks (grid [c/2, 2])
# Collectives that move K/V for each strategy (runtime counter names).
KV_COLLECTIVES = {
    "ring": ("send", "recv"),
    "all-gather": ("all_gather",),
    "ulysses": ("all_to_all",),
    "hybrid": ("send", "recv", "all_to_all"),
}


def program(grid, s, heads, training=False):
    """Unsharded causal attention, [1, heads, s, HEAD_DIM] f32, on a grid of
    shape `grid` (e.g. "4" or "2x2"); with `training` also its backward,
    returning out, dQ, dK and dV."""
    t = f"tensor<1x{heads}x{s}x{HEAD_DIM}xf32>"
    arg = f"{t} {{seqpar.seq_dim = 2 : i64}}"
    attrs = f"{{causal, scale = {1.0 / HEAD_DIM ** 0.5:.8e} : f32}}"
    head = f"shard.grid @grid(shape = {grid})\n"
    forward = f"  %o = seqpar.attention %q, %k, %v {attrs} : {t}, {t}, {t} -> {t}\n"
    if not training:
        return (head + f"func.func @main(%q: {arg}, %k: {arg}, %v: {arg}) -> {t} {{\n"
                + forward + f"  return %o : {t}\n}}\n")
    return (head + f"func.func @main(%q: {arg}, %k: {arg}, %v: {arg}, %do: {arg})"
            f" -> ({t}, {t}, {t}, {t}) {{\n" + forward
            + f"  %dq, %dk, %dv = seqpar.attention_backward %q, %k, %v, %o, %do {attrs}"
            f" : {t}, {t}, {t} -> {t}, {t}\n"
            f"  return %o, %dq, %dk, %dv : {t}, {t}, {t}, {t}\n}}\n")


def peak_gib(c, chunk, heads, strategy):
    """Rough per-rank peak: six score-sized f32 buffers (scores, logits,
    exponentials, probabilities and bufferization's copies) of a key tile
    (seqpar-tile-attention, 1024 keys) against all local queries (a
    backward's 1024 x 1024 tiles are smaller)."""
    if strategy == "ring":
        rows, cols, h = chunk, chunk, heads
    elif strategy == "all-gather":
        rows, cols, h = chunk, c * chunk, heads
    elif strategy == "hybrid":  # a ring of u * s/c tokens on heads / u heads
        u = HYBRID_ULYSSES
        rows, cols, h = u * chunk, u * chunk, heads // u
    else:  # Ulysses: heads / c heads over the whole sequence
        rows, cols, h = c * chunk, c * chunk, heads // c
    return 6 * h * rows * min(cols, KV_TILE) * 4 / 2**30


def parse_counters(text):
    """Per-rank dicts: collectives {op: (seconds, wait)}, regions {name: (flops, s)}."""
    ranks, current = {}, None
    for line in text.splitlines():
        m = re.match(r"seqpar runtime counters: rank (\d+)", line)
        if m:
            current = ranks.setdefault(int(m.group(1)), {"coll": {}, "region": {}})
            continue
        if line.startswith("seqpar runtime counters: aggregate"):
            current = None
            continue
        if current is None:
            continue
        m = re.match(r"\s+(\w+)\s+\[[\d,]*\]\s+\[[\d,]*\]\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)", line)
        if m:
            op = m.group(1)
            sec, wait = float(m.group(4)), float(m.group(5))
            old = current["coll"].get(op, (0.0, 0.0))
            current["coll"][op] = (old[0] + sec, old[1] + wait)
            continue
        m = re.match(r"\s+region '(\w+)': calls \d+, flops (\d+), seconds ([\d.eE+-]+)", line)
        if m:
            current["region"][m.group(1)] = (int(m.group(2)), float(m.group(3)))
    return ranks


def mpi_flags(mpirun):
    out = subprocess.run([mpirun, "--version"], capture_output=True, text=True)
    flags = []
    if "Open MPI" in out.stdout + out.stderr or "OpenRTE" in out.stdout + out.stderr:
        flags.append("--oversubscribe")
        if os.getuid() == 0:
            flags.append("--allow-run-as-root")
    return flags


def run_one(args, work, c, chunk, strategy):
    heads = c
    s = c * chunk
    base = os.path.join(work, f"c{c}_s{chunk}_{strategy}")
    grid, options = str(c), f"strategy={strategy}"
    if strategy == "hybrid":
        u = HYBRID_ULYSSES
        grid = f"{c // u}x{u}"
        options += " grid-axis=0 ulysses-axis=1"
    with open(base + ".mlir", "w") as f:
        f.write(program(grid, s, heads, args.training))
    with open(base + ".ref.mlir", "w") as f:
        f.write(program("1", s, heads, args.training))
    subprocess.run([args.seqpar_opt, base + ".mlir",
                    f"--seqpar-context-parallel={options}",
                    "--canonicalize", "--cse", "-o", base + ".rank.mlir"],
                   check=True, capture_output=True, text=True)
    cmd = [args.mpirun] + mpi_flags(args.mpirun) + [
        "-np", str(c), args.seqpar_run, base + ".rank.mlir", "--entry=main",
        "--opt-level=3"]
    if args.check:
        cmd.append("--reference=" + base + ".ref.mlir")
    done = subprocess.run(cmd, capture_output=True, text=True)
    ranks = parse_counters(done.stdout + done.stderr)
    if done.returncode != 0 or len(ranks) != c:
        lines = [l for l in (done.stdout + done.stderr).splitlines()
                 if "error" in l or "Killed" in l or "signal" in l]
        return {"failed": lines[-1].strip() if lines else
                f"exit status {done.returncode}"}
    attention, backward, transfer, wait, flops = [], [], [], [], []
    for r in ranks.values():
        f, sec = r["region"].get("attention", (0, 0.0))
        fb, secb = r["region"].get("attention_backward", (0, 0.0))
        attention.append(sec)
        backward.append(secb)
        flops.append(f + fb)
        kv = [r["coll"].get(op, (0.0, 0.0)) for op in KV_COLLECTIVES[strategy]]
        # A ring transfer is a send and a recv over the same time: count the
        # longer of the two.
        transfer.append(max(t for t, _ in kv))
        wait.append(max(w for _, w in kv))
    checked = ""
    if args.check:
        checked = "ok" if "reference: pass" in done.stdout else "FAIL"
    mean = sum(flops) / len(flops) if flops else 0
    return {
        "attention": max(attention), "backward": max(backward),
        "transfer": max(transfer),
        "wait": max(wait), "balance": max(flops) / mean if mean else 0,
        "checked": checked,
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ranks", type=int, nargs="+", default=[2, 4])
    p.add_argument("--chunks", type=int, nargs="+",
                   default=[1024, 2048, 4096, 8192, 16384],
                   help="local sequence lengths s/c")
    p.add_argument("--strategies", nargs="+", default=list(STRATEGIES),
                   choices=STRATEGIES)
    p.add_argument("--mem-gib", type=float, default=18.0,
                   help="skip sizes whose estimated peak over all ranks is larger")
    p.add_argument("--check", action="store_true",
                   help="also compare with the unsharded program")
    p.add_argument("--training", action="store_true",
                   help="the attention and its backward (seqpar.attention_backward)")
    p.add_argument("--seqpar-opt", default=os.path.join(ROOT, "build/bin/seqpar-opt"))
    p.add_argument("--seqpar-run", default=os.path.join(ROOT, "build/bin/seqpar-run"))
    p.add_argument("--mpirun", default=shutil.which("mpirun") or "mpirun")
    args = p.parse_args()
    for tool in (args.seqpar_opt, args.seqpar_run):
        if not os.access(tool, os.X_OK):
            sys.exit(f"run_cp_bench.py: {tool} not found (ninja -C build)")

    print(f"causal attention{' and its backward' if args.training else ''}, "
          f"b=1, a=c heads, d={HEAD_DIM}, f32, zigzag; seconds are max over ranks")
    print(f"{'c':>2} {'s/c':>6} {'strategy':<10} {'attention_s':>11} "
          + (f"{'backward_s':>10} " if args.training else "")
          + f"{'transfer_s':>10} {'wait_s':>8} {'hidden':>7} {'flops_max/mean':>14}"
          + ("  check" if args.check else ""))
    with tempfile.TemporaryDirectory() as work:
        for c in args.ranks:
            for chunk in args.chunks:
                for strategy in args.strategies:
                    if strategy == "hybrid" and (c < 2 * HYBRID_ULYSSES or
                                                 c % HYBRID_ULYSSES):
                        continue  # needs >= 2 ring ranks of 2 Ulysses ranks
                    need = c * peak_gib(c, chunk, c, strategy)
                    if need > args.mem_gib:
                        print(f"{c:>2} {chunk:>6} {strategy:<10} skipped: needs "
                              f"~{need:.1f} GiB on {c} ranks (--mem-gib {args.mem_gib:g})")
                        continue
                    r = run_one(args, work, c, chunk, strategy)
                    if "failed" in r:
                        print(f"{c:>2} {chunk:>6} {strategy:<10} failed: {r['failed']}",
                              flush=True)
                        continue
                    # Only the ring overlaps its transfers with compute.
                    hidden = "-"
                    if strategy == "ring" and r["transfer"] > 0:
                        hidden = f"{1 - r['wait'] / r['transfer']:.1%}"
                    print(f"{c:>2} {chunk:>6} {strategy:<10} {r['attention']:>11.4f} "
                          + (f"{r['backward']:>10.4f} " if args.training else "")
                          + f"{r['transfer']:>10.4f} {r['wait']:>8.4f} {hidden:>7} "
                          f"{r['balance']:>14.3f}"
                          + (f"  {r['checked']}" if args.check else ""),
                          flush=True)


if __name__ == "__main__":
    main()
