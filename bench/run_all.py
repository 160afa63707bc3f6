#!/usr/bin/env python3
"""All of seqpar's benchmarks in one command: text tables, PNG plots and a
markdown page (docs/benchmarks.md, plots in docs/bench/).

1. Compile time of the whole pipeline on GPT graphs of 1, 10 and 80 layers
   at h=8192, a=64, s=16384, t=8 (bench/run_bench.sh's sizes): the unsharded
   graph through --seqpar-pipeline="tp=8" (TP planning + SP) and the TP graph
   through --seqpar-sp-pipeline; next to them upstream mlir-opt's
   sharding-propagation + shard-partition on the same model in the form
   upstream can partition, and seqpar-plan-auto / seqpar-report --peak on the
   plain graph (whole process); median of --repeat runs, seconds.
2. One GPT-2-sized layer (h=768, a=12, b=1, s=1024 and 4096, f32) on 2 CPU
   MPI ranks: TP, TP+SP and context parallelism (ring, all-gather, ulysses;
   zigzag) compiled by seqpar-opt from the single-device layer and run by
   seqpar-run (--blas-threads=1); per rank step time split into
   communication (seconds blocked in collectives, runtime counters) and
   compute (wall - communication), peak bytes of the program's allocations.
   PyTorch runs the same layer with its own TP / TP+SP / context_parallel
   (bench/torch_layer.py, gloo, one thread and core per rank); both sides
   are medians over --repeat launches.
3. The runtime's collectives against direct MPI calls
   (bench/run_runtime_bench.sh).

PyTorch and matplotlib come from PyPI into bench/.venv, created on first use
(about 5.5 GB: PyPI's Linux torch wheel pulls the CUDA libraries); the script
re-runs itself under that interpreter.

Usage: python3 bench/run_all.py [--quick] [--skip-torch] [--out docs/]
       python3 bench/run_all.py --replot docs/bench/results.json
       python3 bench/run_all.py --compile-only
  --quick  small sizes (a smoke test, ~2 minutes); writes to a temporary
           directory unless --out is given.
  --compile-only  section 1 at full size, printed only (no venv, MPI or
           PyTorch needed).
Builds nothing; exits 2 with a message if a tool is missing.
"""

import argparse
import datetime
import json
import operator
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")
VENV = os.path.join(BENCH, ".venv")
VENV_PY = os.path.join(VENV, "bin", "python")
SEQPAR_VARIANTS = [  # (name, seqpar-pipeline options)
    ("TP", "tp=2 sp=false"),
    # As PyTorch's TP+SP (bench/torch_layer.py: SequenceParallel LayerNorms)
    # takes the input sequence-sharded and leaves the output so.
    ("TP+SP", "tp=2 input-sharded output-sharded"),
    ("CP ring", "cp=2 cp-strategy=ring"),
    ("CP all-gather", "cp=2 cp-strategy=all-gather"),
    ("CP ulysses", "cp=2 cp-strategy=ulysses"),
    ("CP hybrid", None),  # needs cp >= 4 (2 ring x 2 Ulysses ranks)
]
TORCH_VARIANTS = [("TP", "tp"), ("TP+SP", "tp-sp"), ("CP ring", "cp")]


def die(msg):
    print(f"run_all.py: {msg}", file=sys.stderr)
    sys.exit(2)


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def ensure_venv(args, script=__file__):
    """Creates bench/.venv with numpy, matplotlib (and torch) and re-executes
    `script` (this one, or the benchmark that imported it) under it, unless
    already running there."""
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        return
    pkgs = ["numpy", "matplotlib"] + ([] if args.skip_torch else ["torch"])
    if not os.path.exists(VENV_PY):
        log(f"creating {VENV} (PyPI: {' '.join(pkgs)})")
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    missing = subprocess.run(
        [VENV_PY, "-c", "import importlib.util as u, sys; "
         "sys.exit(any(u.find_spec(p) is None for p in sys.argv[1:]))"] + pkgs)
    if missing.returncode:
        log(f"pip install {' '.join(pkgs)} into {VENV} (torch: several GB)")
        if subprocess.run([VENV_PY, "-m", "pip", "install", "-q"] + pkgs).returncode:
            die(f"pip install {' '.join(pkgs)} failed (needs PyPI)")
    os.execv(VENV_PY, [VENV_PY, os.path.abspath(script)] + sys.argv[1:])


def run(cmd, **kw):
    """Runs cmd, returns CompletedProcess with text output (never raises)."""
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def mpi_flags(mpirun):
    v = run([mpirun, "--version"])
    flags = []
    if "Open MPI" in v.stdout + v.stderr:
        flags.append("--oversubscribe")
        if os.getuid() == 0:
            flags.append("--allow-run-as-root")
    return flags


def loadavg():
    """1-minute load average (runnable processes)."""
    return os.getloadavg()[0]


# --------------------------------------------------------------------------
# 1. Compile time
# --------------------------------------------------------------------------

def timing_seconds(report):
    """From --mlir-timing: (total, parser + output) wall seconds."""
    total = io = 0.0
    for line in report.splitlines():
        m = re.match(r"\s*([\d.]+) \(\s*[\d.]+%\)\s+(\S.*)$", line)
        if not m:
            continue
        sec, name = float(m.group(1)), m.group(2).strip()
        if name == "Total":
            total = sec
        elif name in ("Parser", "Output"):
            io += sec
    return total, io


def timed_runs(args, cmd, what):
    """Runs cmd --repeat times: [(process wall s, stderr)]."""
    runs = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        r = run(cmd)
        runs.append((time.perf_counter() - t0, r.stderr))
        if r.returncode:
            die(f"{what} failed:\n{' '.join(cmd)}\n{r.stderr[-2000:]}")
    return runs


def pass_seconds(report, names):
    """From --mlir-timing: summed wall seconds of the passes called `names`."""
    total = 0.0
    for line in report.splitlines():
        m = re.match(r"\s*([\d.]+) \(\s*[\d.]+%\)\s+(\S.*)$", line)
        if m and m.group(2).strip() in names:
            total += float(m.group(1))
    return total


def compile_bench(args, work):
    """Rows: pipeline, layers, kind, median process wall s and the median of
    the seconds compared ("passes": timing total minus parsing and printing;
    "process": the whole process, for the tools without a timing report)."""
    c = args.compile
    base = ["--model", "gpt", "--batch", "1", "--seq", str(c["s"]),
            "--hidden", str(c["h"]), "--heads", str(c["a"])]
    plain = ["--tp", "1", "--form", "plain"]
    seqpar = [
        (f'seqpar-pipeline "tp={c["t"]}" (plan TP + SP)', plain,
         [f'--seqpar-pipeline=tp={c["t"]} seq-dim=1']),
        ("seqpar-sp-pipeline (TP graph -> TP+SP)",
         ["--tp", str(c["t"]), "--form", "tp", "--flatten", "--dropout"],
         ["--seqpar-sp-pipeline"]),
    ]
    # Upstream cannot take the plain graph (its reshapes and keepdim maps have
    # no sharding rule, docs/sequence-parallel.md): the same model with
    # explicit head dims and Megatron TP shard.sharding annotations.
    upstream = ("upstream sharding-propagation + shard-partition (TP-annotated)",
                ["--tp", str(c["t"]), "--form", "upstream"],
                ["--pass-pipeline=builtin.module(func.func(sharding-propagation,cse,"
                 "shard-partition,canonicalize,cse))"])
    tools = [(f"seqpar-plan-auto --devices {c['t']} (process)", args.seqpar_plan_auto,
              ["--devices", str(c["t"])]),
             ("seqpar-report --peak (process)", args.seqpar_report, ["--peak"])]
    graphs = {}

    def graph(gen, L):
        key = (tuple(gen), L)
        if key not in graphs:
            graphs[key] = os.path.join(work, f"compile_{len(graphs)}.mlir")
            g = run([sys.executable, os.path.join(BENCH, "gen_tp_graph.py")] + base + gen
                    + ["--layers", str(L), "-o", graphs[key]])
            if g.returncode:
                die(f"gen_tp_graph.py failed: {g.stderr.strip()}")
        return graphs[key]

    rows = []

    def add(name, L, kind, wall, seconds, **extra):
        rows.append({"pipeline": name, "layers": L, "kind": kind, "wall_s": wall,
                     "passes_s": seconds, **extra})
        log(f"  compile {name} L={L}: {seconds:.3f} s")

    med = statistics.median
    timing = ["--mlir-timing", "--mlir-print-op-on-diagnostic=false", "-o", os.devnull]
    for L in c["layers"]:
        # One layer count at a time, every pipeline and tool in turn, so
        # that the figures compared are taken under the same machine load.
        for name, gen, opts in seqpar + [upstream]:
            tool = args.mlir_opt if name == upstream[0] else args.seqpar_opt
            runs = timed_runs(args, [tool, graph(gen, L), *opts, *timing],
                              f"{os.path.basename(tool)} on {L} layers")
            walls = [w for w, _ in runs]
            passes = [operator.sub(*timing_seconds(err)) for _, err in runs]
            if name == upstream[0]:
                # The figure compared: propagation + partition alone.
                core = [pass_seconds(err, ("ShardingPropagation", "Partition"))
                        for _, err in runs]
                add(name, L, "passes", med(walls), med(core), all_passes_s=med(passes))
            else:
                add(name, L, "passes", med(walls), med(passes))
        for name, tool, opts in tools:
            wall = med(w for w, _ in timed_runs(args, [tool, *opts, graph(plain, L)], name))
            add(name, L, "process", wall, wall)
    return rows


# --------------------------------------------------------------------------
# 2. One layer on 2 ranks
# --------------------------------------------------------------------------

COLL_ROW = re.compile(r"\s+(\w+)\s+\[[\d,]*\]\s+\[[\d,]*\]\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)")
# A compute region; regions collectives ran in (rings) add their seconds and
# the time waited on them.
REGION_ROW = re.compile(r"\s+region '([^']+)': calls (\d+), flops (\d+), seconds ([\d.eE+-]+)"
                        r"(?:, GFLOP/s [\d.eE+-]+)?(?:, collective seconds ([\d.eE+-]+), "
                        r"wait seconds ([\d.eE+-]+))?")


def parse_seqpar_run(text):
    """seqpar-run output -> {rank: {wall_s, peak_bytes, comm_s (blocked),
    transfer_s (in flight), sent_bytes, attention_s, regions: {name: {calls,
    flops, seconds, collective_s, wait_s}}}} and the reference error."""
    ranks, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"seqpar runtime counters: rank (\d+)", line)
        if m:
            cur = ranks.setdefault(int(m.group(1)), dict(comm_s=0.0, transfer_s=0.0,
                                                         sent_bytes=0, attention_s=0.0,
                                                         regions={}))
            continue
        if line.startswith("seqpar runtime counters:"):
            cur = None
            continue
        m = re.match(r"rank (\d+): wall ([\d.eE+-]+) s, peak (\d+) bytes", line)
        if m:
            r = ranks.setdefault(int(m.group(1)), {})
            r.update(wall_s=float(m.group(2)), peak_bytes=int(m.group(3)))
            jit = re.search(r", jit ([\d.eE+-]+) s", line)
            r["jit_s"] = float(jit.group(1)) if jit else None
            continue
        if cur is None:
            continue
        m = COLL_ROW.match(line)
        if m:
            cur["sent_bytes"] += int(m.group(3))
            cur["transfer_s"] += float(m.group(4))
            cur["comm_s"] += float(m.group(5))
            continue
        m = REGION_ROW.match(line)
        if m:
            cur["regions"][m.group(1)] = dict(
                calls=int(m.group(2)), flops=int(m.group(3)), seconds=float(m.group(4)),
                collective_s=float(m.group(5) or 0), wait_s=float(m.group(6) or 0))
            if m.group(1) == "attention":
                cur["attention_s"] = float(m.group(4))
    err = [float(e) for e in re.findall(r"err = ([\d.eE+-]+)", text)]
    return ranks, (max(err) if err else None)


def seqpar_runs(args, prog, reference, what, np=2, repeat=None):
    """`repeat` (default args.repeat) launches of `mpirun -np <np> seqpar-run
    prog`, the first checked against `reference` unless it is None (timing is
    per call): ([per-launch parse_seqpar_run ranks], the first launch's err).
    Exits on a failure."""
    runs, err = [], None
    for i in range(repeat or args.repeat):
        cmd = [args.mpirun, *mpi_flags(args.mpirun), "-np", str(np), args.seqpar_run, prog,
               "--blas-threads=1"]
        if i == 0 and reference:
            cmd.append(f"--reference={reference}")
        r = run(cmd)
        ranks, e = parse_seqpar_run(r.stdout + r.stderr)
        if r.returncode or len(ranks) != np:
            tail = (r.stdout + r.stderr).strip().splitlines()[-3:]
            die(f"seqpar-run failed on {what}:\n" + "\n".join(tail))
        err = e if i == 0 else err
        runs.append(ranks)
    return runs, err


def seqpar_layer(args, work, s):
    """Rows for every seqpar variant at sequence length s (per rank, medians)."""
    L = args.layer
    plain = os.path.join(work, f"layer_s{s}.mlir")
    g = run([sys.executable, os.path.join(BENCH, "gen_tp_graph.py"), "--model", "gpt",
             "--layers", "1", "--batch", "1", "--seq", str(s), "--hidden", str(L["h"]),
             "--heads", str(L["a"]), "--tp", "1", "--form", "plain", "-o", plain])
    if g.returncode:
        die(f"gen_tp_graph.py failed: {g.stderr.strip()}")
    rows = []
    for name, opts in SEQPAR_VARIANTS:
        row = {"impl": "seqpar", "variant": name, "s": s}
        if opts is None:
            rows.append(dict(row, na="needs >= 4 ranks (cp=4 as 2 ring x 2 Ulysses)"))
            continue
        prog = os.path.join(work, f"layer_s{s}_{len(rows)}.mlir")
        c = run([args.seqpar_opt, plain, f"--seqpar-pipeline={opts} seq-dim=1", "-o", prog])
        if c.returncode:
            rows.append(dict(row, na="seqpar-opt failed: " + (c.stderr.strip().splitlines() or ["?"])[-1][:120]))
            continue
        runs, err = seqpar_runs(args, prog, plain, f"{name}, s={s}")
        for rank in (0, 1):
            med = {k: statistics.median(run_[rank][k] for run_ in runs)
                   for k in ("wall_s", "comm_s", "transfer_s", "attention_s")}
            rows.append(dict(row, rank=rank, step_s=med["wall_s"], comm_s=med["comm_s"],
                             compute_s=med["wall_s"] - med["comm_s"],
                             transfer_s=med["transfer_s"], attention_s=med["attention_s"],
                             jit_s=runs[0][rank].get("jit_s"),
                             peak_bytes=runs[0][rank]["peak_bytes"],
                             sent_bytes=runs[0][rank]["sent_bytes"], err=err))
        log(f"  seqpar {name} s={s}: step {rows[-1]['step_s']:.3f} s")
    return rows


def torch_layer(args, s):
    """Rows for every PyTorch variant at sequence length s: per rank, medians
    over --repeat launches (as seqpar's rows), each launch's own figure the
    median of its --iters forwards. Launches differ more than forwards do
    (gloo's communication time above all), so one launch is not enough."""
    L = args.layer
    rows = []
    for name, variant in TORCH_VARIANTS:
        row = {"impl": "torch", "variant": name, "s": s}
        launches, failed = [], None
        for _ in range(args.repeat):
            r = run([sys.executable, os.path.join(BENCH, "torch_layer.py"), "--variant", variant,
                     "--seq", str(s), "--hidden", str(L["h"]), "--heads", str(L["a"]),
                     "--iters", str(L["iters"]), "--warmup", "2"])
            m = re.search(r"^RESULT (.*)$", r.stdout, re.M)
            if not m:
                tail = (r.stdout + r.stderr).strip().splitlines()[-3:]
                failed = "torch_layer.py failed: " + " | ".join(tail)[:200]
                break
            res = json.loads(m.group(1))
            args.torch_version = res["torch"]
            na = next((rk["na"] for rk in res["ranks"] if "na" in rk), None)
            if na:
                failed = na
                break
            launches.append({rk["rank"]: rk for rk in res["ranks"]})
        if failed:
            rows.append(dict(row, na=failed))
        else:
            med = statistics.median
            for rank in sorted(launches[0]):
                per = [launch[rank] for launch in launches]
                rows.append(dict(row, rank=rank, step_s=med(p["step_s"] for p in per),
                                 comm_s=med(p["comm_s"] for p in per),
                                 compute_s=med(p["compute_s"] for p in per),
                                 peak_bytes=per[0]["peak_bytes"], err=per[0]["err"],
                                 launches_step_s=[p["step_s"] for p in per]))
        log(f"  torch {name} s={s}: " + (rows[-1].get("na") or f"step {rows[-1]['step_s']:.3f} s"))
    return rows


def sgemm_gflops(args, work):
    """This machine's single-core sgemm rate, GFLOP/s, through seqpar-run's
    GEMM libraries (a 2048^3 matmul: oneDNN; bench/run_flop_bound.py's
    measurement): the FLOP bound's denominator, measured in the same run as
    the steps it judges."""
    sys.path.insert(0, BENCH)
    import run_flop_bound
    return run_flop_bound.sgemm_rate(args, args.seqpar_run, {}, work)


def jit_bench(args, work):
    """Rows: JIT seconds (max over 2 ranks, one launch each, no warm-up
    call) of GPT-2-sized stacks (h=768, s=128) of 1, 4 and 12 layers at
    tp=2 at seqpar-run's default optimisation level, for linearity."""
    rows = []
    for layers in ([1, 2] if args.quick else [1, 4, 12]):
        plain = os.path.join(work, f"jit_{layers}.mlir")
        prog = os.path.join(work, f"jit_{layers}_tp.mlir")
        g = run([sys.executable, os.path.join(BENCH, "gen_tp_graph.py"), "--model", "gpt",
                 "--layers", str(layers), "--batch", "1", "--seq", "128", "--hidden", "768",
                 "--heads", "12", "--tp", "1", "--form", "plain", "-o", plain])
        c = run([args.seqpar_opt, plain, "--seqpar-pipeline=tp=2 seq-dim=1", "-o", prog])
        if g.returncode or c.returncode:
            die(f"preparing the {layers}-layer JIT program failed:\n{(g.stderr + c.stderr)[-1500:]}")
        r = run([args.mpirun, *mpi_flags(args.mpirun), "-np", "2", args.seqpar_run, prog,
                 "--blas-threads=1", "--warmup=0"])
        jits = [float(x) for x in re.findall(r"^rank \d+: wall .*, jit ([\d.eE+-]+) s", r.stdout + r.stderr, re.M)]
        if r.returncode or len(jits) != 2:
            die(f"seqpar-run failed on the {layers}-layer JIT program")
        rows.append({"layers": layers, "jit_s": max(jits)})
        log(f"  JIT {layers} layers: {rows[-1]['jit_s']:.2f} s")
    return rows


# --------------------------------------------------------------------------
# 3. Runtime vs MPI
# --------------------------------------------------------------------------

def runtime_bench(args):
    """Rows of bench/run_runtime_bench.sh --loaded: collective, size,
    mpi_ms, runtime_ms, load ("idle", or "one core busy" with a spinning
    process beside the 2 ranks)."""
    extra = ["--iters=5", "--sizes-mib=1,4"] if args.quick else []
    r = run(["bash", os.path.join(BENCH, "run_runtime_bench.sh"), "--loaded", *extra])
    if r.returncode:
        die("bench/run_runtime_bench.sh failed:\n" + (r.stdout + r.stderr)[-1500:])
    rows, load = [], "idle"
    for line in r.stdout.splitlines():
        if line.startswith("== one core busy"):
            load = "one core busy"
        m = re.match(r"(\w+)\s+(\d+) MiB\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", line)
        if m:
            rows.append({"collective": m.group(1), "mib": int(m.group(2)),
                         "mpi_ms": float(m.group(3)), "runtime_ms": float(m.group(4)),
                         "load": load})
    header = next((l for l in r.stdout.splitlines() if l.startswith("seqpar-runtime-bench:")), "")
    return rows, header


# --------------------------------------------------------------------------

def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--quick", action="store_true", help="small sizes, for a smoke test")
    p.add_argument("--skip-torch", action="store_true", help="no PyTorch rows (no torch install)")
    p.add_argument("--out", default=None,
                   help="directory for benchmarks.md and bench/*.png (default docs/; "
                        "--quick: a temporary directory)")
    p.add_argument("--repeat", type=int, default=None, help="runs per measurement (median)")
    p.add_argument("--replot", metavar="RESULTS_JSON",
                   help="measure nothing: rewrite the page and plots from a results.json")
    p.add_argument("--seqpar-opt", default=os.path.join(ROOT, "build/bin/seqpar-opt"))
    p.add_argument("--seqpar-run", default=os.path.join(ROOT, "build/bin/seqpar-run"))
    p.add_argument("--seqpar-plan-auto", default=os.path.join(ROOT, "build/bin/seqpar-plan-auto"))
    p.add_argument("--seqpar-report", default=os.path.join(ROOT, "build/bin/seqpar-report"))
    p.add_argument("--mlir-opt", default=shutil.which("mlir-opt") or "/usr/lib/llvm-22/bin/mlir-opt",
                   help="upstream mlir-opt (section 1 compares upstream's partitioner)")
    p.add_argument("--compile-only", action="store_true",
                   help="section 1 only: print its table, write nothing")
    p.add_argument("--mpirun", default=shutil.which("mpirun") or "mpirun")
    args = p.parse_args()

    if args.replot:
        ensure_venv(args)
        sys.path.insert(0, BENCH)
        import bench_report
        with open(args.replot) as f:
            results = json.load(f)
        out = args.out or os.path.join(ROOT, "docs")
        print(bench_report.text_tables(results))
        bench_report.write(results, out)
        return

    compile_tools = (args.seqpar_opt, args.seqpar_plan_auto, args.seqpar_report)
    for tool in compile_tools + (() if args.compile_only else (args.seqpar_run,)):
        if not os.access(tool, os.X_OK):
            die(f"{tool} not found or not executable: build it (cmake --build build)")
    if not os.access(args.mlir_opt, os.X_OK):
        die(f"upstream mlir-opt not found at {args.mlir_opt} (--mlir-opt)")
    if args.compile_only:
        args.compile = dict(h=8192, a=64, s=16384, t=8, layers=[1, 10, 80])
        args.repeat = args.repeat or 3
        sys.path.insert(0, BENCH)
        import bench_report  # its tables need no matplotlib
        with tempfile.TemporaryDirectory() as work:
            res = {"compile": compile_bench(args, work)}
        table, verdicts = bench_report.compile_tables(res)
        print("\n".join([f"1. compile time, median of {args.repeat} (seconds); load "
                         f"{loadavg():.2f}", table, *verdicts]))
        return
    if not shutil.which(args.mpirun):
        die(f"{args.mpirun} not found: install Open MPI (apt-get install openmpi-bin)")
    if not shutil.which("bash"):
        die("bash not found (needed for bench/run_runtime_bench.sh)")
    ensure_venv(args)

    if args.quick:
        args.compile = dict(h=512, a=8, s=1024, t=8, layers=[1, 2, 4])
        args.layer = dict(h=768, a=12, seqs=[128, 256], iters=3)
        args.repeat = args.repeat or 1
        out = args.out or tempfile.mkdtemp(prefix="seqpar-bench-quick.")
    else:
        args.compile = dict(h=8192, a=64, s=16384, t=8, layers=[1, 10, 80])
        args.layer = dict(h=768, a=12, seqs=[1024, 4096], iters=5)
        args.repeat = args.repeat or 3
        out = args.out or os.path.join(ROOT, "docs")
    args.torch_version = None

    meta = {"date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
            "command": " ".join(["python3", "bench/run_all.py"] + sys.argv[1:]),
            "cpus": os.cpu_count(), "load_before": loadavg(),
            "commit": run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"]).stdout.strip(),
            "cpu": next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                         if l.startswith("model name")), "?"),
            "mem_gib": os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30,
            "binaries": time.strftime("%Y-%m-%d %H:%M", time.localtime(
                os.path.getmtime(args.seqpar_opt))),
            "quick": args.quick, "repeat": args.repeat,
            "compile": args.compile, "layer": args.layer}
    results = {"meta": meta}
    with tempfile.TemporaryDirectory() as work:
        log("1. compile time")
        results["compile"] = compile_bench(args, work)
        log("2. one layer on 2 ranks")
        meta["sgemm_gflops"] = sgemm_gflops(args, work)
        log(f"  single-core sgemm: {meta['sgemm_gflops']:.1f} GFLOP/s")
        layer = []
        for s in args.layer["seqs"]:
            layer += seqpar_layer(args, work, s)
            if args.skip_torch:
                layer += [{"impl": "torch", "variant": n, "s": s, "na": "--skip-torch"}
                          for n, _ in TORCH_VARIANTS]
            else:
                layer += torch_layer(args, s)
        results["layer"] = layer
        log("2b. JIT time")
        results["jit"] = jit_bench(args, work)
        log("3. runtime vs MPI")
        results["runtime"], meta["runtime_header"] = runtime_bench(args)
    meta["load_after"] = loadavg()
    meta["torch"] = args.torch_version

    sys.path.insert(0, BENCH)
    import bench_report  # numpy/matplotlib: only under the venv
    print(bench_report.text_tables(results))
    bench_report.write(results, out)
    print(f"\nwrote {os.path.join(out, 'benchmarks.md')} and {os.path.join(out, 'bench')}/*.png")


if __name__ == "__main__":
    main()
