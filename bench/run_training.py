#!/usr/bin/env python3
"""Training-step benchmark: one GPT-2-sized layer with an LM head (h=768,
a=12, b=1, s=1024 and 4096, f32), forward + backward, per rank on 2 CPU MPI
ranks: seqpar TP, TP+SP, TP+SP saving gathered inputs and context
parallelism (ring, ring keeping K/V, all-gather-KV, Ulysses) against PyTorch
DTensor TP and TP+SP (gloo) in the same run, with step time split into
compute and communication, peak memory, bytes sent per rank and the error of
the loss and every gradient. Writes docs/benchmarks-training.md and
docs/bench/training_*.png (bench_report.py); the command style of
bench/run_all.py, whose venv (bench/.venv) and helpers it uses.

seqpar: bench/gen_train_graph.py writes the single-device training program,
`seqpar-opt --seqpar-pipeline` plans it, `mpirun -np 2 seqpar-run
--blas-threads=1` runs it (the first launch against the single-device
program). PyTorch: bench/torch_train.py.

Usage: python3 bench/run_training.py [--quick] [--skip-torch] [--out docs/]
       python3 bench/run_training.py --replot docs/bench/training_results.json
  --quick  small sizes (a smoke test, ~1 minute); writes to a temporary
           directory unless --out is given.
Builds nothing; exits 2 with a message if a tool is missing.
"""

import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_all as ra  # noqa: E402  (venv, process and seqpar-run output helpers)

SEQPAR_VARIANTS = [  # (name, seqpar-pipeline options)
    ("TP", "tp=2 sp=false"),
    ("TP+SP", "tp=2"),
    ("TP+SP save-gathered", "tp=2 save-gathered=true"),
    # Context parallelism of the whole step, the attention backward included
    # (docs/context-parallelism.md, "Training: the attention backward").
    ("CP ring", "cp=2"),
    ("CP ring keep-kv", "cp=2 cp-keep-kv=true"),
    ("CP all-gather", "cp=2 cp-strategy=all-gather"),
    ("CP Ulysses", "cp=2 cp-strategy=ulysses"),
]
TORCH_VARIANTS = [("TP", "tp"), ("TP+SP", "tp-sp")]


def seqpar_rows(args, work, s):
    """Rows for every seqpar variant at sequence length s (per rank, medians)."""
    T = args.train
    plain = os.path.join(work, f"train_s{s}.mlir")
    g = ra.run([sys.executable, os.path.join(ra.BENCH, "gen_train_graph.py"), "--model", "gpt",
                "--layers", "1", "--batch", "1", "--seq", str(s), "--hidden", str(T["h"]),
                "--heads", str(T["a"]), "--vocab", str(T["vocab"]), "--form", "plain",
                "-o", plain])
    if g.returncode:
        ra.die(f"gen_train_graph.py failed: {g.stderr.strip()}")
    rows = []
    for name, opts in SEQPAR_VARIANTS:
        row = {"impl": "seqpar", "variant": name, "s": s}
        prog = os.path.join(work, f"train_s{s}_{len(rows)}.mlir")
        c = ra.run([args.seqpar_opt, plain, f"--seqpar-pipeline={opts} seq-dim=1", "-o", prog])
        if c.returncode:
            rows.append(dict(row, na="seqpar-opt failed: " + (c.stderr.strip().splitlines() or ["?"])[-1][:120]))
            continue
        runs, err = ra.seqpar_runs(args, prog, plain, f"{name}, s={s}")
        for rank in (0, 1):
            med = {k: statistics.median(run_[rank][k] for run_ in runs)
                   for k in ("wall_s", "comm_s")}
            rows.append(dict(row, rank=rank, step_s=med["wall_s"], comm_s=med["comm_s"],
                             compute_s=med["wall_s"] - med["comm_s"],
                             peak_bytes=runs[0][rank]["peak_bytes"],
                             sent_bytes=runs[0][rank]["sent_bytes"], err=err))
        ra.log(f"  seqpar {name} s={s}: step {rows[-1]['step_s']:.3f} s, err {err}")
    return rows


def torch_rows(args, s):
    """Rows for every PyTorch variant at sequence length s."""
    T = args.train
    rows = []
    for name, variant in TORCH_VARIANTS:
        row = {"impl": "torch", "variant": name, "s": s}
        r = ra.run([sys.executable, os.path.join(ra.BENCH, "torch_train.py"), "--variant", variant,
                    "--seq", str(s), "--hidden", str(T["h"]), "--heads", str(T["a"]),
                    "--vocab", str(T["vocab"]), "--iters", str(T["iters"]), "--warmup", "1"])
        m = re.search(r"^RESULT (.*)$", r.stdout, re.M)
        if not m:
            tail = (r.stdout + r.stderr).strip().splitlines()[-3:]
            rows.append(dict(row, na="torch_train.py failed: " + " | ".join(tail)[:200]))
            continue
        res = json.loads(m.group(1))
        args.torch_version = res["torch"]
        for rk in res["ranks"]:
            if "na" in rk:
                rows.append(dict(row, na=rk["na"]))
                break
            rows.append(dict(row, rank=rk["rank"], **{k: rk[k] for k in (
                "step_s", "comm_s", "compute_s", "peak_bytes", "sent_bytes", "err")}))
        ra.log(f"  torch {name} s={s}: " + (rows[-1].get("na") or f"step {rows[-1]['step_s']:.3f} s"))
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--quick", action="store_true", help="small sizes, for a smoke test")
    p.add_argument("--skip-torch", action="store_true", help="no PyTorch rows (no torch install)")
    p.add_argument("--out", default=None,
                   help="directory for benchmarks-training.md and bench/training_*.png "
                        "(default docs/; --quick: a temporary directory)")
    p.add_argument("--repeat", type=int, default=None, help="seqpar launches per variant (median)")
    p.add_argument("--replot", metavar="RESULTS_JSON",
                   help="measure nothing: rewrite the page and plots from a training_results.json")
    p.add_argument("--seqpar-opt", default=os.path.join(ra.ROOT, "build/bin/seqpar-opt"))
    p.add_argument("--seqpar-run", default=os.path.join(ra.ROOT, "build/bin/seqpar-run"))
    p.add_argument("--mpirun", default=shutil.which("mpirun") or "mpirun")
    args = p.parse_args()
    if args.repeat is not None and args.repeat < 1:
        p.error("--repeat must be >= 1")

    if args.replot:
        ra.ensure_venv(args, __file__)
        import bench_report
        with open(args.replot) as f:
            results = json.load(f)
        out = args.out or os.path.join(ra.ROOT, "docs")
        print(bench_report.training_text(results))
        bench_report.write_training(results, out)
        return

    for tool in (args.seqpar_opt, args.seqpar_run):
        if not os.access(tool, os.X_OK):
            ra.die(f"{tool} not found or not executable: build it (cmake --build build)")
    if not shutil.which(args.mpirun):
        ra.die(f"{args.mpirun} not found: install Open MPI (apt-get install openmpi-bin)")
    ra.ensure_venv(args, __file__)

    if args.quick:
        args.train = dict(h=768, a=12, vocab=1024, seqs=[128, 256], iters=2)
        args.repeat = args.repeat or 1
        out = args.out or tempfile.mkdtemp(prefix="seqpar-train-quick.")
    else:
        args.train = dict(h=768, a=12, vocab=1024, seqs=[1024, 4096], iters=3)
        args.repeat = args.repeat or 3
        out = args.out or os.path.join(ra.ROOT, "docs")
    args.train["variants"] = [n for n, _ in SEQPAR_VARIANTS]
    args.torch_version = None

    meta = {"date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
            "command": " ".join(["python3", "bench/run_training.py"] + sys.argv[1:]),
            "cpus": os.cpu_count(), "load_before": ra.loadavg(),
            "commit": ra.run(["git", "-C", ra.ROOT, "rev-parse", "--short", "HEAD"]).stdout.strip(),
            "cpu": next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                         if l.startswith("model name")), "?"),
            "mem_gib": os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30,
            "binaries": time.strftime("%Y-%m-%d %H:%M", time.localtime(
                os.path.getmtime(args.seqpar_opt))),
            "quick": args.quick, "repeat": args.repeat, "train": args.train}
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for s in args.train["seqs"]:
            ra.log(f"training step, s={s}")
            rows += seqpar_rows(args, work, s)
            if args.skip_torch:
                rows += [{"impl": "torch", "variant": n, "s": s, "na": "--skip-torch"}
                         for n, _ in TORCH_VARIANTS]
            else:
                rows += torch_rows(args, s)
    meta["load_after"] = ra.loadavg()
    meta["torch"] = args.torch_version
    results = {"meta": meta, "train": rows}

    import bench_report  # numpy/matplotlib: only under the venv
    print(bench_report.training_text(results))
    bench_report.write_training(results, out)
    print(f"\nwrote {os.path.join(out, 'benchmarks-training.md')} and "
          f"{os.path.join(out, 'bench')}/training_*.png")


if __name__ == "__main__":
    main()
