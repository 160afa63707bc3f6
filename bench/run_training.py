#!/usr/bin/env python3
"""Training-step benchmark: one GPT-2-sized layer with an LM head (h=768,
a=12, vocab=1024, b=1, f32), forward + backward, on 2 and 4 CPU MPI ranks at
s/c = 1k to 8k tokens per rank: seqpar TP, TP+SP (saving inputs sharded or
gathered), context parallelism of the whole step (ring, ring keeping K/V,
all-gather-KV, Ulysses, hybrid) and TP+SP x CP, against PyTorch DTensor TP
and TP+SP (gloo, 2 ranks) in the same run. Per variant: step time, its
compute and blocked-communication parts, attention time (forward and
backward blocks), each ring's transfer time and the time ranks waited on it
(forward K/V ring, backward K/V + dK/dV ring) and the hidden part of the
backward ring, the backward blocks' FLOP balance over ranks, peak memory,
bytes sent per rank and the error of the loss and every gradient. Writes
docs/benchmarks-training.md and docs/bench/training_*.png
(bench_report.py); the command style of bench/run_all.py, whose venv
(bench/.venv) and helpers it uses.

seqpar: bench/gen_train_graph.py writes the single-device training program,
`seqpar-opt --seqpar-pipeline` plans it, `mpirun -np N seqpar-run
--blas-threads=1` runs it (the first launch against the single-device
program at s <= 4096). PyTorch: bench/torch_train.py.

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

# (name, seqpar-pipeline options, ranks, largest s run or None). Under TP
# each rank computes the whole causal s x s triangle for its a/t heads, so
# its step grows as s^2; its largest s keeps the whole run near an hour.
SEQPAR_VARIANTS = [
    ("TP", "tp=2 sp=false", 2, 8192),
    ("TP+SP", "tp=2", 2, 8192),
    ("TP+SP save-gathered", "tp=2 save-gathered=true", 2, 4096),
    # Context parallelism of the whole step, the attention backward included
    # (docs/context-parallelism.md, "Training: the attention backward").
    ("CP ring", "cp=2", 2, None),
    ("CP ring keep-kv", "cp=2 cp-keep-kv=true", 2, None),
    ("CP all-gather", "cp=2 cp-strategy=all-gather", 2, None),
    ("CP Ulysses", "cp=2 cp-strategy=ulysses", 2, None),
    ("TP+SP", "tp=4", 4, 8192),
    ("CP ring", "cp=4", 4, None),
    ("CP ring keep-kv", "cp=4 cp-keep-kv=true", 4, None),
    ("CP all-gather", "cp=4 cp-strategy=all-gather", 4, None),
    ("CP Ulysses", "cp=4 cp-strategy=ulysses", 4, None),
    ("CP hybrid 2x2", "cp=4 cp-strategy=hybrid cp-ulysses=2", 4, None),
    ("TP+SP x CP ring 2x2", "tp=2 cp=2", 4, 16384),
]
TORCH_VARIANTS = [("TP", "tp"), ("TP+SP", "tp-sp")]


def _region(rank, name, field):
    return rank["regions"].get(name, {}).get(field, 0.0)


def seqpar_summary(runs):
    """One row of figures from per-launch, per-rank seqpar-run results: each
    rank's median over launches, then the largest over ranks (the step ends
    with the slowest rank); the backward ring's hidden part is the smallest
    over ranks; FLOP balance is max/mean of the backward blocks' FLOPs."""
    nranks = len(runs[0])

    def med(rank, f):
        return statistics.median(f(run_[rank]) for run_ in runs)

    per = []
    for rank in range(nranks):
        x = {"step_s": med(rank, lambda r: r["wall_s"]), "comm_s": med(rank, lambda r: r["comm_s"]),
             "attn_s": med(rank, lambda r: _region(r, "attention", "seconds")
                           + _region(r, "attention_backward", "seconds"))}
        for key, region in (("fwd", "attention_ring"), ("bwd", "attention_backward_ring")):
            x[key + "_xfer_s"] = med(rank, lambda r: _region(r, region, "collective_s"))
            x[key + "_wait_s"] = med(rank, lambda r: _region(r, region, "wait_s"))
        x["bwd_flops"] = _region(runs[0][rank], "attention_backward", "flops")
        per.append(x)
    row = {k: max(x[k] for x in per) for k in ("step_s", "comm_s", "attn_s", "fwd_xfer_s",
                                                 "fwd_wait_s", "bwd_xfer_s", "bwd_wait_s")}
    row["compute_s"] = row["step_s"] - row["comm_s"]
    hidden = [1 - x["bwd_wait_s"] / x["bwd_xfer_s"] for x in per if x["bwd_xfer_s"] > 0]
    row["bwd_hidden"] = min(hidden) if hidden else None
    flops = [x["bwd_flops"] for x in per]
    row["bwd_flops_balance"] = max(flops) / (sum(flops) / len(flops)) if any(flops) else None
    row["peak_bytes"] = max(r["peak_bytes"] for r in runs[0].values())
    row["sent_bytes"] = max(r["sent_bytes"] for r in runs[0].values())
    row["per_rank"] = per
    return row


def seqpar_rows(args, work, ranks, s):
    """Rows for every seqpar variant on `ranks` ranks at sequence length s."""
    T = args.train
    plain = os.path.join(work, f"train_s{s}.mlir")
    if not os.path.exists(plain):
        g = ra.run([sys.executable, os.path.join(ra.BENCH, "gen_train_graph.py"), "--model",
                    "gpt", "--layers", "1", "--batch", "1", "--seq", str(s), "--hidden",
                    str(T["h"]), "--heads", str(T["a"]), "--vocab", str(T["vocab"]), "--form",
                    "plain", "-o", plain])
        if g.returncode:
            ra.die(f"gen_train_graph.py failed: {g.stderr.strip()}")
    rows = []
    for name, opts, np_, max_s in SEQPAR_VARIANTS:
        if np_ != ranks:
            continue
        row = {"impl": "seqpar", "variant": name, "ranks": ranks, "s": s}
        if max_s and s > max_s and not args.quick:
            rows.append(dict(row, na=f"s > {max_s}: not run, to keep the run near an hour"))
            continue
        prog = os.path.join(work, f"train_s{s}_{ranks}_{len(rows)}.mlir")
        c = ra.run([args.seqpar_opt, plain, f"--seqpar-pipeline={opts} seq-dim=1", "-o", prog])
        if c.returncode:
            rows.append(dict(row, na="seqpar-opt failed: " + (c.stderr.strip().splitlines() or ["?"])[-1][:120]))
            continue
        # The single-device reference (run on rank 0) at the small sizes; the
        # large ones repeat less, a step taking seconds to a minute.
        reference = plain if s <= T["check_upto"] else None
        repeat = args.repeat if s <= T["repeat_upto"] else 1
        runs, err = ra.seqpar_runs(args, prog, reference, f"{name}, s={s}", np=ranks,
                                   repeat=repeat)
        rows.append(dict(row, err=err, launches=repeat, **seqpar_summary(runs)))
        ra.log(f"  seqpar {name} ranks={ranks} s={s}: step {rows[-1]['step_s']:.3f} s, "
               f"bwd ring hidden {rows[-1]['bwd_hidden']}, err {err}")
    return rows


def torch_rows(args, ranks, s):
    """Rows for every PyTorch variant on `ranks` ranks at sequence length s."""
    T = args.train
    rows = []
    for name, variant in TORCH_VARIANTS:
        row = {"impl": "torch", "variant": name, "ranks": ranks, "s": s}
        if s > T["torch_upto"]:
            rows.append(dict(row, na=f"s > {T['torch_upto']}: not run"))
            continue
        r = ra.run([sys.executable, os.path.join(ra.BENCH, "torch_train.py"), "--variant", variant,
                    "--seq", str(s), "--hidden", str(T["h"]), "--heads", str(T["a"]),
                    "--vocab", str(T["vocab"]), "--world", str(ranks), "--iters",
                    str(T["iters"]), "--warmup", "1"])
        m = re.search(r"^RESULT (.*)$", r.stdout, re.M)
        if not m:
            tail = (r.stdout + r.stderr).strip().splitlines()[-3:]
            rows.append(dict(row, na="torch_train.py failed: " + " | ".join(tail)[:200]))
            continue
        res = json.loads(m.group(1))
        args.torch_version = res["torch"]
        bad = [rk["na"] for rk in res["ranks"] if "na" in rk]
        if bad:
            rows.append(dict(row, na=bad[0]))
            continue
        rk = res["ranks"]
        rows.append(dict(row, **{k: max(x[k] for x in rk) for k in (
            "step_s", "comm_s", "compute_s", "peak_bytes", "sent_bytes", "err")}))
        ra.log(f"  torch {name} ranks={ranks} s={s}: step {rows[-1]['step_s']:.3f} s")
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

    # s per rank count: s/c = 1k .. 8k tokens per rank.
    if args.quick:
        args.train = dict(h=768, a=12, vocab=1024, seqs={2: [256], 4: [512]}, iters=2,
                          check_upto=512, repeat_upto=512, torch_upto=256)
        args.repeat = args.repeat or 1
        out = args.out or tempfile.mkdtemp(prefix="seqpar-train-quick.")
    else:
        args.train = dict(h=768, a=12, vocab=1024,
                          seqs={2: [2048, 4096, 8192, 16384], 4: [4096, 8192, 16384, 32768]},
                          iters=3, check_upto=4096, repeat_upto=8192, torch_upto=8192)
        args.repeat = args.repeat or 3
        out = args.out or os.path.join(ra.ROOT, "docs")
    args.train["variants"] = list(dict.fromkeys(v[0] for v in SEQPAR_VARIANTS))
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
        for ranks, seqs in args.train["seqs"].items():
            for s in seqs:
                ra.log(f"training step, {ranks} ranks, s={s}")
                rows += seqpar_rows(args, work, ranks, s)
                # PyTorch at 2 ranks: 4 ranks on this machine's 2 cores would
                # time gloo's oversubscription more than the step.
                if ranks != 2:
                    continue
                if args.skip_torch:
                    rows += [{"impl": "torch", "variant": n, "ranks": ranks, "s": s,
                              "na": "--skip-torch"} for n, _ in TORCH_VARIANTS]
                else:
                    rows += torch_rows(args, ranks, s)
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
