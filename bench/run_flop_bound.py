#!/usr/bin/env python3
"""seqpar's per-rank step time against the FLOP bound, in one run.

One GPT-2-sized layer (h=768, a=12, b=1, f32, forward, causal) at s=1024
and 4096 on 2 MPI ranks (1 BLAS thread each), as TP+SP (tp=2) and CP ring
(cp=2, zigzag), compiled by seqpar-opt from the single-device layer and run
by seqpar-run. Prints per variant the median and the fastest step time
(max over ranks) of --repeat launches, the median CPU time of the ranks'
calling threads during the step (seqpar-run's `cpu`: on a loaded, shared
machine the part of the step that was the program's own work), the median
time in the 'attention' region, and the fastest step time and the CPU time
over the FLOP bound:
the FLOPs a rank needs (its linears, 24 s h^2 / 2, and causal attention's
two products, 2 s^2 h / 2: the half of the s x s scores a causal mask
keeps) at this machine's single-core sgemm rate, which the script measures
first with the same seqpar-run and BLAS (a 2048^3 matmul on one rank, its
CPU time where seqpar-run reports it).

Then seqpar.attention alone (causal, [1, 6, s, 64] queries, MHA and GQA
with 2 K/V heads) on one rank, as seqpar-lower-to-llvm lowers it (query
and key tiles of 1024, causal tiles skipped), against its bound 2 s^2 d a.

--cpu-calls N adds, per row and seqpar-run, the CPU time of one call per
rank measured from outside, for builds that do not report `cpu`: two more
launches, one with N more warm-up calls than the other, and the
difference of all their processes' CPU time (user + system, as the kernel
accounts it to this script's children) / N / ranks.

--compare LABEL=BIN[,NAME=VALUE...] (repeatable) runs another seqpar-run
(e.g. an older build), with extra environment variables for its launches
(e.g. OPENBLAS_CORETYPE=Prescott, what OpenBLAS chooses on its own on CPUs
it does not know; LD_LIBRARY_PATH for a copied build), on the same
programs in the same run, interleaved launch by launch, and prints its
times and the ratio of this build's time to its. The machine's load
average is printed before and after (the machine is shared; compare
ratios taken in one run, not figures across runs).

Usage: python3 bench/run_flop_bound.py [--repeat 3] [--seq 1024,4096]
           [--compare old=OLD/bin/seqpar-run[,NAME=VALUE...]]...
Builds nothing; exits 2 if a tool is missing.
"""
import argparse
import os
import resource
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
H, A = 768, 12
# TP+SP with the input and output sequence-sharded, as between layers.
VARIANTS = [("TP+SP", "tp=2 input-sharded output-sharded"),
            ("CP ring", "cp=2 cp-strategy=ring")]


def die(msg):
    print(f"run_flop_bound.py: {msg}", file=sys.stderr)
    sys.exit(2)


def run(cmd, env=None):
    return subprocess.run(cmd, capture_output=True, text=True, env=env)


def mpirun_cmd(mpirun, n, env_names):
    v = run([mpirun, "--version"])
    cmd = [mpirun]
    if "Open MPI" in v.stdout + v.stderr:
        cmd.append("--oversubscribe")
        if os.getuid() == 0:
            cmd.append("--allow-run-as-root")
        for name in env_names:
            cmd += ["-x", name]
    return cmd + ["-np", str(n)]


def seqpar_run(args, binary, extra_env, prog, n, more=()):
    """One launch: (max wall over ranks, max attention seconds, max CPU
    seconds of the calling threads or None where seqpar-run does not report
    it, output)."""
    env = dict(os.environ)
    env.pop("OPENBLAS_CORETYPE", None)
    env.update(extra_env)
    cmd = mpirun_cmd(args.mpirun, n, list(extra_env)) + [
        binary, prog, "--blas-threads=1", *more]
    r = run(cmd, env)
    text = r.stdout + r.stderr
    walls = [float(w) for w in re.findall(r"^rank \d+: wall ([\d.eE+-]+) s", text, re.M)]
    if r.returncode or len(walls) != n:
        die(f"{binary} {prog} failed:\n" + "\n".join(text.strip().splitlines()[-5:]))
    att = [float(x) for x in re.findall(
        r"^\s+region 'attention': calls \d+, flops \d+, seconds ([\d.eE+-]+)", text, re.M)]
    cpu = [float(c) for c in re.findall(r"^rank \d+: wall .*, cpu ([\d.eE+-]+) s$", text, re.M)]
    return max(walls), (max(att) if att else 0.0), (max(cpu) if len(cpu) == n else None), text


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cpu_per_call(args, binary, env, prog, n):
    """CPU seconds of one call per rank, from the difference of two
    launches with args.cpu_calls more warm-up calls in one."""
    spent = []
    for warmup in (1, 1 + args.cpu_calls):
        before = children_cpu()
        seqpar_run(args, binary, env, prog, n, [f"--warmup={warmup}"])
        spent.append(children_cpu() - before)
    return (spent[1] - spent[0]) / args.cpu_calls / n


def sgemm_rate(args, binary, extra_env, work):
    """GFLOP/s of one 2048^3 matmul through seqpar-run's GEMM libraries
    (oneDNN at this size, docs/runtime-and-run.md) on one rank."""
    n = 2048
    prog = os.path.join(work, "matmul.mlir")
    r = '{seqpar.sharding = #seqpar.sharding<@grid, replicated>}'
    t = f"tensor<{n}x{n}xf32>"
    with open(prog, "w") as f:
        f.write(f'''shard.grid @grid(shape = 1) {{sym_visibility = "private"}}
func.func @forward(%a: {t} {r}, %b: {t} {r}) -> ({t} {r}) {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : {t}
  %c = linalg.fill ins(%z : f32) outs(%e : {t}) -> {t}
  %m = linalg.matmul ins(%a, %b : {t}, {t}) outs(%c : {t}) -> {t}
  return %m : {t}
}}
''')
    times = []
    for _ in range(args.repeat):
        wall, _, cpu, _ = seqpar_run(args, binary, extra_env, prog, 1, ["--warmup=2"])
        times.append(cpu if cpu is not None else wall)
    return 2.0 * n ** 3 / min(times) / 1e9


def needed_flops(s, h=H, ranks=2):
    """FLOPs per rank of the GPT layer (b = 1) split over `ranks`: linears
    (QKV, proj, fc1, fc2: 24 s h^2 in all) and causal attention (Q.K^T and
    P.V over the lower triangle: 2 s^2 h in all)."""
    return (24 * s * h * h + 2 * s * s * h) / ranks


def attention_program(path, s, heads, kv_heads):
    r = '{seqpar.sharding = #seqpar.sharding<@grid, replicated>}'
    q, k = f"tensor<1x{heads}x{s}x64xf32>", f"tensor<1x{kv_heads}x{s}x64xf32>"
    with open(path, "w") as f:
        f.write(f'''shard.grid @grid(shape = 1) {{sym_visibility = "private"}}
func.func @forward(%q: {q} {r}, %k: {k} {r}, %v: {k} {r}) -> ({q} {r}) {{
  %o = seqpar.attention %q, %k, %v {{causal, scale = 0.125 : f32}} : {q}, {k}, {k} -> {q}
  return %o : {q}
}}
''')


def attention_rows(args, runs, peak, work, s):
    """seqpar.attention alone on one rank, MHA and GQA."""
    print(f"\nseqpar.attention alone, causal, 1 rank, [1, 6, {s}, 64] queries:\n")
    print("| K/V heads | seqpar-run | step_s median | step_s min | cpu_s median | bound_s "
          "| min step/bound | cpu/bound | this build/it (median) |")
    print("|" + " --- |" * 9)
    bound = 2.0 * s * s * 64 * 6 / (peak * 1e9)
    for kv_heads in (6, 2):
        prog = os.path.join(work, f"attention_{kv_heads}.mlir")
        attention_program(prog, s, 6, kv_heads)
        times = {name: [] for name, _, _ in runs}
        cpus = {name: [] for name, _, _ in runs}
        for _ in range(args.repeat):
            for name, binary, env in runs:
                wall, _, cpu, _ = seqpar_run(args, binary, env, prog, 1)
                times[name].append(wall)
                if cpu is not None:
                    cpus[name].append(cpu)
        med = {name: statistics.median(t) for name, t in times.items()}
        for name, _, _ in runs:
            cpu = statistics.median(cpus[name]) if cpus[name] else None
            print(f"| {kv_heads} | {name} | {med[name]:.4f} | {min(times[name]):.4f} | "
                  f"{f'{cpu:.4f}' if cpu is not None else '-'} | {bound:.4f} | "
                  f"{min(times[name]) / bound:.2f} | "
                  f"{f'{cpu / bound:.2f}' if cpu is not None else '-'} | "
                  f"{med['this build'] / med[name]:.3f} |", flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--seq", default="1024,4096")
    p.add_argument("--seqpar-opt", default=os.path.join(ROOT, "build/bin/seqpar-opt"))
    p.add_argument("--seqpar-run", default=os.path.join(ROOT, "build/bin/seqpar-run"))
    p.add_argument("--compare", action="append", default=[],
                   help="LABEL=BIN[,NAME=VALUE...]: another seqpar-run and its environment")
    p.add_argument("--mpirun", default="mpirun")
    p.add_argument("--cpu-calls", type=int, default=0,
                   help="measure each call's CPU time from outside with N extra calls")
    args = p.parse_args()
    runs = [("this build", args.seqpar_run, {})]
    for spec in args.compare:
        label, _, rest = spec.partition("=")
        binary, *env = rest.split(",")
        if not label or not binary or any("=" not in kv for kv in env):
            die(f"--compare {spec}: expected LABEL=BIN[,NAME=VALUE...]")
        runs.append((label, binary, dict(kv.split("=", 1) for kv in env)))
    for tool in [args.seqpar_opt] + [binary for _, binary, _ in runs]:
        if not os.access(tool, os.X_OK):
            die(f"{tool} not found (cmake --build build)")
    if not shutil.which(args.mpirun):
        die(f"{args.mpirun} not found")

    load_before = os.getloadavg()[0]
    work = tempfile.mkdtemp(prefix="seqpar-flop-bound-")
    print(f"run_flop_bound.py: 2 ranks, 1 BLAS thread each, {os.cpu_count()} CPUs, "
          f"load average (1 min) before {load_before:.2f}")
    rate = {}
    for name, binary, env in runs:
        rate[name] = sgemm_rate(args, binary, env, work)
        print(f"single-core sgemm (2048^3, best of {args.repeat}) via {name} "
              f"seqpar-run: {rate[name]:.1f} GFLOP/s")
    # The bound uses the best BLAS rate measured on this machine.
    peak = max(rate.values())
    print(f"FLOP bound at {peak:.1f} GFLOP/s\n")
    header = ["variant", "s", "seqpar-run", "step_s median", "step_s min", "cpu_s median",
              "attention_s", "bound_s", "min step/bound", "cpu/bound", "this build/it (median)"]
    if args.cpu_calls:
        header += ["cpu_s per call (outside)", "this build/it (cpu, outside)"]
    print("| " + " | ".join(header) + " |")
    print("|" + " --- |" * len(header))
    for s in [int(x) for x in args.seq.split(",")]:
        plain = os.path.join(work, f"layer_s{s}.mlir")
        g = run([sys.executable, os.path.join(ROOT, "bench", "gen_tp_graph.py"), "--model", "gpt",
                 "--layers", "1", "--batch", "1", "--seq", str(s), "--hidden", str(H),
                 "--heads", str(A), "--tp", "1", "--form", "plain", "-o", plain])
        if g.returncode:
            die(f"gen_tp_graph.py failed: {g.stderr.strip()}")
        bound = needed_flops(s) / (peak * 1e9)
        for variant, opts in VARIANTS:
            prog = os.path.join(work, f"layer_s{s}_{variant.replace(' ', '_')}.mlir")
            c = run([args.seqpar_opt, plain, f"--seqpar-pipeline={opts} seq-dim=1", "-o", prog])
            if c.returncode:
                die(f"seqpar-opt failed on {variant}: {c.stderr.strip()[-300:]}")
            times = {name: [] for name, _, _ in runs}
            for i in range(args.repeat):
                for name, binary, env in runs:
                    more = [f"--reference={plain}"] if i == 0 else []
                    wall, att, cpu, text = seqpar_run(args, binary, env, prog, 2, more)
                    if i == 0 and "reference: pass" not in text:
                        die(f"{name} {variant} s={s}: the output does not match the reference")
                    times[name].append((wall, att, cpu))
            outside = {name: cpu_per_call(args, binary, env, prog, 2)
                       for name, binary, env in runs} if args.cpu_calls else {}
            for name, _, _ in runs:
                t = times[name]
                wall = statistics.median(x[0] for x in t)
                fastest = min(x[0] for x in t)
                att = statistics.median(x[1] for x in t)
                cpus = [x[2] for x in t if x[2] is not None]
                cpu = statistics.median(cpus) if cpus else None
                base = statistics.median(x[0] for x in times["this build"])
                row = [variant, str(s), name, f"{wall:.4f}", f"{fastest:.4f}",
                       f"{cpu:.4f}" if cpu is not None else "-", f"{att:.4f}", f"{bound:.4f}",
                       f"{fastest / bound:.2f}", f"{cpu / bound:.2f}" if cpu is not None else "-",
                       f"{base / wall:.3f}"]
                if outside:
                    row += [f"{outside[name]:.4f}", f"{outside['this build'] / outside[name]:.3f}"]
                print("| " + " | ".join(row) + " |", flush=True)
    attention_rows(args, runs, peak, work, [int(x) for x in args.seq.split(",")][-1])
    print(f"\nload average (1 min) after {os.getloadavg()[0]:.2f}; {args.repeat} launches per "
          f"row, each timing one call after one warm-up; the first launch of each row checked "
          f"against the single-device layer (err <= 1e-5)")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
