#!/usr/bin/env python3
"""Decode-step benchmark (docs/decode.md): one GPT-2-sized layer (h=768,
a=12 heads of d=64, b=1, f32) taking T = 1 or 4 new tokens against K/V
caches of L_max = 1k, 4k, 16k and 64k slots, on 1, 2 and 4 CPU MPI ranks:
the single-device step (dcp=1) and decode context parallelism
(`seqpar-pipeline dcp=N`, cyclic layout, all-gather merge; the all-to-all
merge over heads at one L_max). Per configuration: step wall and CPU time
per rank, the 'attention' region's seconds and FLOPs, seconds blocked in
collectives, bytes sent per rank (runtime counters, checked against the
pass's remark), peak bytes of the program's allocations and the KV-cache
bytes a rank holds; the error against the single-device export at the
smallest L_max (seqpar-run --reference). A second part runs one L_max at
a small and a large current length L, to show whether the attention's time
follows L or L_max. Writes docs/benchmarks-decode.md and
docs/bench/decode_*.png (the command style of bench/run_all.py, whose venv
bench/.venv and helpers it uses).

The steps come from `tools/seqpar-import/seqpar-import --model gpt2
--layers 1 --hidden 768 --heads 12 --batch 1 --decode T --cache-len LMAX
--past 8` (the exporter's own check against transformers' forward runs at
L = 8, so it stays cheap at 64k; the graph is the same for every L), which
needs .venv-import (scripts/setup-import.sh). The global inputs are written
once per (L_max, T) as .npy files (numpy, the distributions seqpar-run
generates: docs/runtime-and-run.md), with L = L_max / 2 (a half-full
cache), and every launch reads them (--inputs): generating 2 x 200 MB of
caches on each of 4 ranks costs more than the step.

Usage: python3 bench/run_decode.py [--quick] [--out docs/] [--repeat N]
       python3 bench/run_decode.py --replot docs/bench/decode_results.json
       python3 bench/run_decode.py --lmax 16384 --sweep-only sweep.json \
           --sweep-lengths 4,4096,16383 --sweep-variants dcp=2
           (the small/large L part alone, printed and saved, no page)
  --quick  L_max = 256 and 1024, one launch each (a smoke test, ~3 minutes);
           writes to a temporary directory unless --out is given.
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

ROOT = ra.ROOT
H, A, D, B = 768, 12, 64, 1
# (name, seqpar-pipeline options, ranks, L_max it runs at or None for all)
VARIANTS = [
    ("dcp=1", "dcp=1", 1, None),
    ("dcp=2", "dcp=2", 2, None),
    ("dcp=4", "dcp=4", 4, None),
    ("dcp=4 all-to-all", "dcp=4 dcp-merge=all-to-all", 4, "a2a"),
]
REMARK = re.compile(r"decode context parallelism \((\d+) ranks, ([^)]*)\): .* merge "
                    r"(all-gather|all-to-all): (\d+) bytes sent per rank(?: per step)?")
RANK_LINE = re.compile(r"rank (\d+): wall ([\d.eE+-]+) s, peak (\d+) bytes .*?jit ([\d.]+) s, "
                       r"cpu ([\d.eE+-]+) s")
ATT_FLOPS = re.compile(r"region 'attention': calls \d+, flops (\d+)")


def export(args, work, lmax, t):
    """The single-device decode step (cached in `work`)."""
    path = os.path.join(work, f"gpt2_decode_t{t}_l{lmax}.mlir")
    if os.path.exists(path):
        return path
    cmd = [args.seqpar_import, "--model", "gpt2", "--layers", "1", "--hidden", str(H),
           "--heads", str(A), "--batch", str(B), "--decode", str(t), "--cache-len", str(lmax),
           "--past", "8", "-o", path + ".tmp"]
    t0 = time.perf_counter()
    r = ra.run(cmd)
    if r.returncode:
        ra.die(f"seqpar-import failed ({' '.join(cmd)}):\n{r.stderr[-1500:]}")
    os.replace(path + ".tmp", path)
    check = (r.stderr.strip().splitlines() or ["?"])[-1]
    ra.log(f"  export T={t} L_max={lmax}: {time.perf_counter() - t0:.0f} s; {check}")
    return path


def arg_types(mlir):
    """[(shape, element type)] of @main's arguments."""
    text = open(mlir).read()
    m = re.search(r"func\.func @main\((.*?)\) ->", text)
    out = []
    for shape, elem in re.findall(r"%arg\d+: tensor<((?:\d+x)*)(\w+)>", m.group(1)):
        out.append(([int(s) for s in shape.rstrip("x").split("x")] if shape else [], elem))
    return out


def write_inputs(mlir, prefix, L, seed=0):
    """Global inputs as seqpar-run would generate them (distributions of
    docs/runtime-and-run.md, numpy's generator): x u, caches u, L, 1-D
    weights 1 + 0.1 u, others u / sqrt(dim 0). Returns the paths."""
    import numpy as np
    rng = np.random.default_rng(seed)
    paths = []
    for k, (shape, elem) in enumerate(arg_types(mlir)):
        path = f"{prefix}{k}.npy"
        if elem == "i64":
            v = np.array(L, dtype=np.int64).reshape(shape)
        else:
            u = rng.random(shape, dtype=np.float32) * 2 - 1
            v = u if k == 0 or len(shape) == 4 else \
                (1 + 0.1 * u if len(shape) == 1 else u / np.float32(np.sqrt(shape[0])))
        np.save(path, v.astype(np.float32) if elem != "i64" else v)
        paths.append(path)
    return paths


def compile_step(args, src, opts, out):
    """seqpar-opt --seqpar-pipeline=opts: (program, remark bytes or None,
    remark layout text)."""
    r = ra.run([args.seqpar_opt, src, f"--seqpar-pipeline={opts}", "-o", out])
    if r.returncode:
        ra.die(f"seqpar-opt --seqpar-pipeline={opts} failed on {src}:\n{r.stderr[-1500:]}")
    m = REMARK.search(r.stderr)
    return out, (int(m.group(4)) if m else None), (m.group(2) if m else None)


def launch(args, prog, np_, inputs, reference=None):
    """One `mpirun -np np_ seqpar-run`: per-rank dict (parse_seqpar_run's
    fields plus cpu_s, jit_s, att_flops) and the reference error/verdict."""
    cmd = [args.mpirun, *ra.mpi_flags(args.mpirun), "-np", str(np_), args.seqpar_run, prog,
           "--entry=main", "--blas-threads=1", f"--warmup={args.warmup}",
           "--inputs=" + ",".join(inputs)]
    if reference:
        cmd.append(f"--reference={reference}")
    r = ra.run(cmd)
    text = r.stdout + r.stderr
    ranks, err = ra.parse_seqpar_run(text)
    if r.returncode or len(ranks) != np_:
        ra.die(f"seqpar-run failed on {prog}:\n" + "\n".join(text.strip().splitlines()[-5:]))
    for m in RANK_LINE.finditer(text):
        ranks[int(m.group(1))].update(jit_s=float(m.group(4)), cpu_s=float(m.group(5)))
    # Per-rank blocks come in rank order; the aggregate block (sums) last.
    flops = [int(f) for f in ATT_FLOPS.findall(text)]
    for rank in range(np_):
        ranks[rank]["att_flops"] = flops[rank] if rank < len(flops) else 0
    verdict = None
    if reference:
        verdict = "pass" if "reference: pass" in text else "FAIL"
    return ranks, err, verdict


def summary(runs):
    """Each rank's median over launches; then the largest over ranks (the
    step ends with the slowest rank) for times and peak; bytes sent from
    every rank (they must agree)."""
    n = len(runs[0])

    def med(rank, key):
        return statistics.median(run_[rank][key] for run_ in runs)

    per = {k: [med(r, k) for r in range(n)]
           for k in ("wall_s", "cpu_s", "attention_s", "comm_s", "peak_bytes", "att_flops")}
    sent = sorted({run_[r]["sent_bytes"] for run_ in runs for r in range(n)})
    return dict(step_s=max(per["wall_s"]), cpu_s=max(per["cpu_s"]),
                attention_s=max(per["attention_s"]), attention_min_s=min(per["attention_s"]),
                comm_s=max(per["comm_s"]), peak_bytes=int(max(per["peak_bytes"])),
                att_flops=int(max(per["att_flops"])), sent_bytes=sent)


def kv_bytes(lmax, ranks):
    """Bytes of the K and V caches one rank holds (f32)."""
    return 2 * B * A * (lmax // ranks) * D * 4


def bench(args, work):
    rows = []
    smallest = min(args.lmaxes)
    for lmax in args.lmaxes:
        for t in args.tokens:
            src = export(args, work, lmax, t)
            inputs = write_inputs(src, os.path.join(work, f"in_t{t}_l{lmax}_"), lmax // 2)
            for name, opts, np_, only in VARIANTS:
                if only == "a2a" and lmax != args.a2a_lmax:
                    continue
                prog, remark, layout = compile_step(
                    args, src, opts, os.path.join(work, f"t{t}_l{lmax}_{len(rows)}.mlir"))
                runs, err, verdict = [], None, None
                load0 = ra.loadavg()
                for i in range(args.repeat + (1 if lmax == smallest else 0)):
                    check = lmax == smallest and i == 0
                    ranks, e, v = launch(args, prog, np_, inputs, src if check else None)
                    if check:  # the checked launch is not timed
                        err, verdict = e, v
                        if v != "pass":
                            ra.die(f"{name} T={t} L_max={lmax}: reference {v} (err {e})")
                        continue
                    runs.append(ranks)
                row = dict(variant=name, opts=opts, ranks=np_, lmax=lmax, t=t, L=lmax // 2,
                           remark_bytes=remark if remark is not None else 0, layout=layout,
                           kv_bytes=kv_bytes(lmax, np_), err=err, verdict=verdict,
                           load=(load0 + ra.loadavg()) / 2, **summary(runs))
                row["bytes_match"] = row["sent_bytes"] == [row["remark_bytes"]]
                rows.append(row)
                ra.log(f"  {name:17s} T={t} L_max={lmax:6d}: step {row['step_s'] * 1e3:8.2f} ms,"
                       f" cpu {row['cpu_s'] * 1e3:8.2f} ms, attention {row['attention_s'] * 1e3:8.2f}"
                       f" ms, sent {row['sent_bytes']} (remark {remark}), err {err}, load"
                       f" {row['load']:.1f}")
    return rows


def length_sweep(args, work):
    """The attention at a small and a large L (same L_max, same inputs but
    L): does a rank's attention time follow L or its L_max / N slots? The
    two lengths alternate launch by launch, so both see the same load."""
    lmax, t = args.sweep_lmax, 1
    src = export(args, work, lmax, t)
    lengths = tuple(args.sweep_lengths) if args.sweep_lengths else (4, lmax - t)
    inputs = {L: write_inputs(src, os.path.join(work, f"sweep_L{L}_"), L) for L in lengths}
    rows = []
    for name, opts, np_, only in VARIANTS:
        if only or (args.sweep_variants and name not in args.sweep_variants):
            continue
        prog, _, _ = compile_step(args, src, opts, os.path.join(work, f"sweep_{np_}.mlir"))
        runs = {L: [] for L in lengths}
        for _ in range(args.repeat):
            for L in lengths:
                runs[L].append(launch(args, prog, np_, inputs[L])[0])
        for L in lengths:
            rows.append(dict(variant=name, ranks=np_, lmax=lmax, t=t, L=L, **summary(runs[L])))
            ra.log(f"  sweep {name} L={L}: attention {rows[-1]['attention_s'] * 1e3:.2f} ms,"
                   f" step {rows[-1]['step_s'] * 1e3:.2f} ms")
    return rows


# --------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------

MIB = 2**20


def _ms(v):
    return f"{v * 1e3:.2f}"


def _k(lmax):
    return f"{lmax // 1024}k" if lmax >= 1024 else str(lmax)


def main_table(res, t):
    header = ["L_max", "variant", "step ms", "cpu ms", "attention ms", "attention GFLOP",
              "comm ms", "other ms", "sent B/rank", "remark B", "KV MiB/rank", "peak MiB/rank",
              "err", "load"]
    lines = []
    for r in res["rows"]:
        if r["t"] != t:
            continue
        sent = r["sent_bytes"][0] if len(r["sent_bytes"]) == 1 else "/".join(map(str, r["sent_bytes"]))
        other = r["step_s"] - r["attention_s"] - r["comm_s"]
        err = "" if r["err"] is None else f"{r['err']:.1e} ({r['verdict']})"
        lines.append([_k(r["lmax"]), r["variant"], _ms(r["step_s"]), _ms(r["cpu_s"]),
                      _ms(r["attention_s"]), f"{r['att_flops'] / 1e9:.3f}", _ms(r["comm_s"]),
                      _ms(other), sent, r["remark_bytes"] if r["ranks"] > 1 else "-",
                      f"{r['kv_bytes'] / MIB:.1f}", f"{r['peak_bytes'] / MIB:.1f}", err,
                      f"{r['load']:.1f}"])
    return ra_table(header, lines)


def sweep_table(res):
    header = ["L_max", "variant", "L", "attention ms", "step ms", "cpu ms", "attention GFLOP"]
    lines = [[_k(r["lmax"]), r["variant"], r["L"], _ms(r["attention_s"]), _ms(r["step_s"]),
              _ms(r["cpu_s"]), f"{r['att_flops'] / 1e9:.3f}"] for r in res["sweep"]]
    return ra_table(header, lines)


def ra_table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def checks(res):
    """Lines: bytes sent vs remark, references."""
    out = []
    bad = [r for r in res["rows"] if r["ranks"] > 1 and not r["bytes_match"]]
    out.append("bytes sent per rank equal the pass's remark in every dcp > 1 configuration"
               if not bad else "bytes sent differ from the remark: " +
               ", ".join(f"{r['variant']} T={r['t']} L_max={r['lmax']}" for r in bad))
    refs = [r for r in res["rows"] if r["verdict"]]
    out.append(f"reference: {sum(r['verdict'] == 'pass' for r in refs)}/{len(refs)} pass at "
               f"L_max={_k(min(r['lmax'] for r in res['rows']))}")
    return out


def text_tables(res):
    parts = []
    for t in res["meta"]["tokens"]:
        parts += [f"T = {t}", main_table(res, t), ""]
    if res.get("sweep"):
        parts += ["attention at small and large L", sweep_table(res), ""]
    return "\n".join(parts + checks(res))


def plot(res, figdir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = res["rows"]
    names = [v[0] for v in VARIANTS if v[3] is None]
    tokens = res["meta"]["tokens"]
    paths = []
    for key, ylabel, fname in (("attention_s", "'attention' region, ms (slowest rank)",
                                "decode_attention.png"),
                               ("step_s", "step wall, ms (slowest rank)", "decode_step.png"),
                               ("cpu_s", "step CPU time, ms (busiest rank)", "decode_cpu.png")):
        fig, axes = plt.subplots(1, len(tokens), figsize=(5.5 * len(tokens), 4), squeeze=False)
        for ax, t in zip(axes[0], tokens):
            base = sorted((r for r in rows if r["variant"] == names[0] and r["t"] == t),
                          key=lambda r: r["lmax"])
            for i, name in enumerate(names):
                rs = sorted((r for r in rows if r["variant"] == name and r["t"] == t),
                            key=lambda r: r["lmax"])
                ax.plot([r["lmax"] for r in rs], [r[key] * 1e3 for r in rs], marker="o",
                        color=f"C{i}", label=name)
                if key == "attention_s" and i > 0:  # dcp=1's time / N
                    n = rs[0]["ranks"]
                    ax.plot([r["lmax"] for r in base], [r[key] * 1e3 / n for r in base], ":",
                            color=f"C{i}", label=f"dcp=1 / {n}")
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xlabel("cache capacity L_max (slots)")
            ax.set_ylabel(ylabel)
            ax.set_title(f"T = {t}")
            ax.grid(True, which="both", alpha=0.3)
            ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(figdir, fname), dpi=100)
        plt.close(fig)
        paths.append(fname)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for i, name in enumerate(names + ["dcp=4 all-to-all"]):
        for t, style in zip(tokens, ("-", "--")):
            rs = sorted((r for r in rows if r["variant"] == name and r["t"] == t),
                        key=lambda r: r["lmax"])
            if not rs:
                continue
            lab = f"{name}, T={t}"
            kw = dict(color=f"C{i}", marker="o" if len(rs) > 1 else "s", label=lab)
            if rs[0]["ranks"] > 1:  # one rank sends nothing
                axes[0].plot([r["lmax"] for r in rs], [r["sent_bytes"][0] for r in rs], style,
                             **kw)
            axes[1].plot([r["lmax"] for r in rs], [r["peak_bytes"] / MIB for r in rs], style,
                         **kw)
            if i == 0:
                axes[1].plot([r["lmax"] for r in rs], [r["kv_bytes"] / MIB for r in rs], ":",
                             color="gray", label="K+V cache held, 1 rank" if t == tokens[0]
                             else None)
    axes[0].set_ylabel("bytes sent per rank per step")
    axes[1].set_ylabel("peak MiB per rank (program allocations)")
    axes[1].legend(fontsize=7)
    for ax in axes:
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("cache capacity L_max (slots)")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(figdir, "decode_bytes_memory.png"), dpi=100)
    plt.close(fig)
    return paths + ["decode_bytes_memory.png"]


def write(res, out):
    figdir = os.path.join(out, "bench")
    os.makedirs(figdir, exist_ok=True)
    with open(os.path.join(figdir, "decode_results.json"), "w") as f:
        json.dump(res, f, indent=1)
    pngs = plot(res, figdir)
    m = res["meta"]
    md = ["# Decode-step benchmark: KV cache sharded over ranks", "",
          "Generated by `bench/run_decode.py` (docs/decode.md: `seqpar-pipeline dcp=N`). "
          "One GPT-2-sized layer (h = 768, a = 12 heads of d = 64, b = 1, f32, MLP 3072) "
          "exported by `seqpar-import --model gpt2 --layers 1 --hidden 768 --heads 12 --batch 1 "
          "--decode T --cache-len L_max --past 8`; dcp=1 is that step through "
          "`--seqpar-pipeline=dcp=1` (raised, one rank), dcp=N the per-rank step "
          "(cyclic layout, interleave 1; all-gather merge unless named), run by "
          "`mpirun -np N seqpar-run --entry=main --blas-threads=1 "
          f"--warmup={m['warmup']} --inputs=...` on global inputs written once per "
          "(L_max, T) with L = L_max / 2.", "",
          f"- Command: `{m['command']}`",
          f"- Date {m['date']}, commit {m['commit']}, binaries of {m['binaries']}; "
          f"{m['cpus']} CPUs ({m['cpu']}), {m['mem_gib']:.0f} GiB; load average "
          f"{m['load_before']:.1f} before, {m['load_after']:.1f} after (the machine is shared: "
          "the `load` column is the 1-minute load average around each configuration)",
          f"- {m['repeat']} timed launches per configuration (each: {m['warmup']} untimed calls, "
          "then one timed); per rank the median over launches, then the slowest rank. "
          "The first launch at the smallest L_max is not timed: it runs with `--reference` "
          "against the single-device export on the same inputs (`err` = seqpar-run's largest "
          "output error, all three outputs: hidden states and both updated caches).",
          f"- Benchmark run time {m['run_minutes']:.1f} min (exports included).", "",
          "Columns: `step` the timed call's wall time (seqpar-run's `wall`); `cpu` the calling "
          "thread's CPU time in it (wall minus cpu is time spent waiting for a core or a peer); "
          "`attention` the 'attention' region's seconds (seqpar.attention_block, both caches "
          "read) and its GFLOP (counted over all L_max / N slots); `comm` seconds blocked in "
          "collectives; `other` = step - attention - comm (projections, MLP, layer norms, the "
          "cache update, the merge); `sent` bytes sent per rank by the runtime's counters and "
          "`remark` the pass's figure; `KV` the K and V cache bytes a rank holds; `peak` the "
          "peak bytes of the program's allocations (the updated caches are new buffers).", ""]
    for t in m["tokens"]:
        md += [f"## T = {t}", "", main_table(res, t), ""]
    md += ["![attention](bench/decode_attention.png)", "",
           "![step](bench/decode_step.png)", "", "![cpu](bench/decode_cpu.png)", "",
           "![bytes and memory](bench/decode_bytes_memory.png)", ""]
    if res.get("sweep"):
        md += ["## Attention time at small and large L", "",
               f"Same L_max = {_k(m['sweep_lmax'])}, T = 1, same inputs except L "
               "(`--inputs` with the 0-d i64 argument set to L); the two lengths alternate "
               "launch by launch." + (f" Run separately: `{m['sweep_command']}` "
                                      f"({m['sweep_date']}, {m['sweep_minutes']:.1f} min)."
                                      if m.get("sweep_command") else ""),
               "", sweep_table(res), ""]
    md += ["## Checks", ""] + [f"- {c}" for c in checks(res)] + [""]
    sys.path.insert(0, ra.BENCH)
    import bench_report
    bench_report._write_page(os.path.join(out, "benchmarks-decode.md"), md)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--quick", action="store_true", help="small sizes, for a smoke test")
    p.add_argument("--out", default=None, help="directory for benchmarks-decode.md and "
                   "bench/decode_*.png (default docs/; --quick: a temporary directory)")
    p.add_argument("--repeat", type=int, default=None, help="timed launches per configuration")
    p.add_argument("--warmup", type=int, default=2, help="untimed calls per launch")
    p.add_argument("--lmax", default=None, help="comma-separated cache capacities")
    p.add_argument("--work", default=None, help="keep exports and inputs here (reused)")
    p.add_argument("--no-sweep", action="store_true", help="skip the small/large L runs")
    p.add_argument("--sweep-only", metavar="RESULTS_JSON", default=None,
                   help="run only the small/large L part, print its table and write its rows "
                   "to RESULTS_JSON (no page written)")
    p.add_argument("--sweep-lengths", default=None,
                   help="comma-separated current lengths L of that part (default 4,L_max-1)")
    p.add_argument("--sweep-variants", default=None,
                   help="comma-separated variants of that part (default dcp=1,dcp=2,dcp=4)")
    p.add_argument("--sweep-into", metavar="RESULTS_JSON",
                   help="run only the small/large L part and replace it in these results")
    p.add_argument("--replot", metavar="RESULTS_JSON")
    p.add_argument("--seqpar-opt", default=os.path.join(ROOT, "build/bin/seqpar-opt"))
    p.add_argument("--seqpar-run", default=os.path.join(ROOT, "build/bin/seqpar-run"))
    p.add_argument("--seqpar-import", default=os.path.join(ROOT, "tools/seqpar-import/seqpar-import"))
    p.add_argument("--mpirun", default=shutil.which("mpirun") or "mpirun")
    args = p.parse_args()
    args.skip_torch = True

    if args.replot:
        ra.ensure_venv(args, __file__)
        with open(args.replot) as f:
            res = json.load(f)
        print(text_tables(res))
        write(res, args.out or os.path.join(ROOT, "docs"))
        return
    for tool in (args.seqpar_opt, args.seqpar_run, args.seqpar_import):
        if not os.access(tool, os.X_OK):
            ra.die(f"{tool} not found or not executable")
    if not shutil.which(args.mpirun):
        ra.die(f"{args.mpirun} not found: install Open MPI (apt-get install openmpi-bin)")
    ra.ensure_venv(args, __file__)

    if args.quick:
        args.lmaxes = [256, 1024]
        args.repeat = args.repeat or 1
        out = args.out or tempfile.mkdtemp(prefix="seqpar-bench-decode.")
    else:
        args.lmaxes = [1024, 4096, 16384, 65536]
        args.repeat = args.repeat or 3
        out = args.out or os.path.join(ROOT, "docs")
    if args.lmax:
        args.lmaxes = [int(x) for x in args.lmax.split(",")]
    args.tokens = [1, 4]
    args.a2a_lmax = args.lmaxes[min(2, len(args.lmaxes) - 1)]
    args.sweep_lmax = args.a2a_lmax
    args.sweep_lengths = [int(x) for x in args.sweep_lengths.split(",")] \
        if args.sweep_lengths else None
    args.sweep_variants = args.sweep_variants.split(",") if args.sweep_variants else None
    if args.sweep_only:
        work = args.work or tempfile.mkdtemp(prefix="seqpar-decode.")
        os.makedirs(work, exist_ok=True)
        ra.log("attention at small and large L")
        t0 = time.perf_counter()
        meta = {"date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
                "command": " ".join(["python3", "bench/run_decode.py"] + sys.argv[1:]),
                "commit": ra.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"]
                                 ).stdout.strip(),
                "load_before": ra.loadavg(), "sweep_lmax": args.sweep_lmax,
                "repeat": args.repeat, "warmup": args.warmup}
        res = {"meta": meta, "sweep": length_sweep(args, work)}
        meta["load_after"] = ra.loadavg()
        meta["sweep_minutes"] = (time.perf_counter() - t0) / 60
        with open(args.sweep_only, "w") as f:
            json.dump(res, f, indent=1)
        print(sweep_table(res))
        return
    t0 = time.perf_counter()
    meta = {"date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
            "command": " ".join(["python3", "bench/run_decode.py"] + sys.argv[1:]),
            "cpus": os.cpu_count(), "load_before": ra.loadavg(),
            "commit": ra.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"]).stdout.strip(),
            "cpu": next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                         if l.startswith("model name")), "?"),
            "mem_gib": os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30,
            "binaries": time.strftime("%Y-%m-%d %H:%M", time.localtime(
                os.path.getmtime(args.seqpar_opt))),
            "repeat": args.repeat, "warmup": args.warmup, "lmaxes": args.lmaxes,
            "tokens": args.tokens, "a2a_lmax": args.a2a_lmax, "sweep_lmax": args.sweep_lmax}
    res = {"meta": meta}
    if args.sweep_into:
        with open(args.sweep_into) as f:
            res = json.load(f)
        res["meta"]["sweep_command"] = meta["command"]
        res["meta"]["sweep_date"] = meta["date"]
        args.sweep_lmax = res["meta"]["sweep_lmax"]
        meta = res["meta"]
    work = args.work or tempfile.mkdtemp(prefix="seqpar-decode.")
    os.makedirs(work, exist_ok=True)
    try:
        if not args.sweep_into:
            ra.log("1. decode steps")
            res["rows"] = bench(args, work)
        if not args.no_sweep:
            ra.log("2. attention at small and large L")
            res["sweep"] = length_sweep(args, work)
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
    if args.sweep_into:
        meta["sweep_minutes"] = (time.perf_counter() - t0) / 60
    else:
        meta["load_after"] = ra.loadavg()
        meta["run_minutes"] = (time.perf_counter() - t0) / 60
    print(text_tables(res))
    write(res, out)
    print(f"\nwrote {os.path.join(out, 'benchmarks-decode.md')} and "
          f"{os.path.join(out, 'bench')}/decode_*.png")


if __name__ == "__main__":
    main()
