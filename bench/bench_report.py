"""Text tables, PNG plots and the markdown page of bench/run_all.py's results.

Times are seconds (compile, step) or milliseconds (runtime vs MPI, as its
tool prints them); memory and bytes sent are shown in MiB (2^20 bytes).
"""

import json
import os


def _pyplot():
    """matplotlib's pyplot (Agg backend), imported by the plots only: the text
    tables need no matplotlib (run_all.py --compile-only runs without the
    venv)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt

MIB = 2**20
DPI = 100


def _table(header, rows):
    """Markdown-style table (also readable as text)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def compile_tables(res):
    """(table, verdict lines) of the compile-time results: per pipeline or
    tool, time(largest)/time(next) against the layer ratio, and seqpar's
    whole pipeline against upstream's propagation + partition."""
    rows, verdicts = [], []
    by = {}
    for r in res["compile"]:
        by.setdefault(r["pipeline"], []).append(r)
        rows.append([r["pipeline"], r["layers"], r.get("kind", "passes"), f"{r['passes_s']:.3f}",
                     f"{1000 * r['passes_s'] / r['layers']:.2f}", f"{r['wall_s']:.3f}"])
    for name, rs in by.items():
        lo, hi = rs[-2], rs[-1]
        ratio = hi["passes_s"] / lo["passes_s"] if lo["passes_s"] > 0 else float("inf")
        ideal = hi["layers"] / lo["layers"]
        # A whole process's startup counts in both: its ratio reads low, so
        # only a high one says anything.
        startup = " (startup included)" if rs[0].get("kind") == "process" else ""
        ok = (startup or ideal / 2 <= ratio) and ratio <= ideal * 2
        verdicts.append(f"{name}: time({hi['layers']})/time({lo['layers']}) = {ratio:.2f}{startup} "
                        f"(linear: {ideal:g}) -> {'linear' if ok else 'NOT linear'}")
    names = list(by)
    upstream = next((n for n in names if n.startswith("upstream")), None)
    if upstream and names:
        for mine, theirs in zip(by[names[0]], by[upstream]):
            if theirs["passes_s"] > 0:
                whole = theirs.get("all_passes_s")
                verdicts.append(
                    f"{mine['layers']} layers: {names[0]} {mine['passes_s']:.3f} s / upstream "
                    f"propagation + partition {theirs['passes_s']:.3f} s = "
                    f"{mine['passes_s'] / theirs['passes_s']:.2f}"
                    + (f" (upstream with its cse, canonicalize: {whole:.3f} s)" if whole else ""))
    header = ["pipeline", "layers", "kind", "seconds", "ms/layer", "process_wall_s"]
    return _table(header, rows), verdicts


def _fmt(v, spec):
    return "-" if v is None else format(v, spec)


def layer_table(res, s, key="layer"):
    """Per-rank rows of res[key] (one layer's forward or training step) at s."""
    rows = []
    for r in res[key]:
        if r["s"] != s:
            continue
        if "na" in r:
            rows.append([r["impl"], r["variant"], "-", f"n/a ({r['na']})"] + [""] * 6)
            continue
        ratio = r["comm_s"] / r["compute_s"] if r["compute_s"] > 0 else None
        rows.append([r["impl"], r["variant"], r["rank"], f"{r['step_s']:.4f}",
                     f"{r['compute_s']:.4f}", f"{r['comm_s']:.4f}", _fmt(ratio, ".3f"),
                     f"{r['peak_bytes'] / MIB:.1f}",
                     _fmt(r.get("sent_bytes") and r["sent_bytes"] / MIB, ".1f"),
                     _fmt(r.get("err"), ".1e")])
    header = ["impl", "variant", "rank", "step_s", "compute_s", "comm_s", "comm/compute",
              "peak_MiB", "sent_MiB", "err"]
    return _table(header, rows)


def _steps(res, s, impl):
    """{variant: step seconds, max over ranks} of `impl`'s rows at s."""
    steps = {}
    for r in res["layer"]:
        if r["s"] == s and r["impl"] == impl and "na" not in r:
            steps[r["variant"]] = max(steps.get(r["variant"], 0.0), r["step_s"])
    return steps


def ratio_table(res, s):
    """Per variant at s: step (max over ranks), its ratio to PyTorch's TP+SP
    and TP steps of the same run, and to the FLOP bound (the layer's FLOPs
    per rank at the sgemm rate measured in the same run)."""
    from run_flop_bound import needed_flops
    lay, rate = res["meta"]["layer"], res["meta"].get("sgemm_gflops")
    bound = needed_flops(s, lay["h"], 2) / (rate * 1e9) if rate else None
    torch = _steps(res, s, "torch")
    rows = []
    for impl in ("seqpar", "torch"):
        for variant, step in _steps(res, s, impl).items():
            ratio = lambda ref: _fmt(ref and step / ref, ".2f")
            rows.append([impl, variant, f"{step:.4f}", ratio(torch.get("TP+SP")),
                         ratio(torch.get("TP")), _fmt(bound, ".4f"), ratio(bound)])
    return _table(["impl", "variant", "step_s", "/ torch TP+SP", "/ torch TP", "bound_s",
                   "/ bound"], rows)


def jit_table(res):
    rows = [[r["layers"], f"{r['jit_s']:.2f}", f"{r['jit_s'] / r['layers']:.2f}"]
            for r in res.get("jit", [])]
    return _table(["layers", "jit_s", "s/layer"], rows)


def runtime_table(res):
    rows = [[r.get("load", "idle"), r["collective"], f"{r['mib']} MiB", f"{r['mpi_ms']:.4f}",
             f"{r['runtime_ms']:.4f}", f"{r['mpi_ms'] / r['runtime_ms']:.3f}"]
            for r in res["runtime"]]
    return _table(["load", "collective", "size", "mpi_ms", "runtime_ms", "mpi/runtime"], rows)


def text_tables(res):
    """Everything as text (what run_all.py prints)."""
    m = res["meta"]
    c, lay = m["compile"], m["layer"]
    table, verdicts = compile_tables(res)
    out = [f"1. compile time, GPT h={c['h']} a={c['a']} s={c['s']} t={c['t']}, "
           f"median of {m['repeat']} (seconds)", table, *verdicts, ""]
    for s in lay["seqs"]:
        out += [f"2. one GPT layer h={lay['h']} a={lay['a']} b=1 s={s} f32 on 2 ranks "
                "(seconds per forward; MiB)", layer_table(res, s), "",
                f"   ratios at s={s} (sgemm {m.get('sgemm_gflops') or 0:.1f} GFLOP/s)",
                ratio_table(res, s), ""]
    if res.get("jit"):
        out += ["2b. JIT seconds, GPT-2-sized stacks at tp=2 (default opt level)",
                jit_table(res), ""]
    out += ["3. runtime collectives vs direct MPI (" + m.get("runtime_header", "") + ")",
            runtime_table(res)]
    return "\n".join(out)


# --------------------------------------------------------------------------
# Plots
# --------------------------------------------------------------------------

def plot_compile(res, path):
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    by = {}
    for r in res["compile"]:
        if r.get("kind", "passes") == "passes":  # the tools' seconds are whole processes
            by.setdefault(r["pipeline"], []).append(r)
    for name, rs in by.items():
        xs, ys = [r["layers"] for r in rs], [r["passes_s"] for r in rs]
        line, = ax.plot(xs, ys, "o-", label=name)
        per = ys[-1] / xs[-1]
        ax.plot([0, xs[-1]], [0, per * xs[-1]], ":", color=line.get_color(), lw=1)
    ax.set_xlabel("layers")
    ax.set_ylabel("pipeline passes, seconds")
    ax.set_title("compile time vs layers (dotted: linear through the largest)", fontsize=9)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


def _variant_means(res, s, key="layer"):
    """[(label, compute_s, comm_s, peak_bytes max over ranks, na)] in table order."""
    out, seen = [], {}
    for r in res[key]:
        if r["s"] != s:
            continue
        label = f"{r['impl']}\n{r['variant']}"
        if "na" in r:
            out.append([label, 0.0, 0.0, 0, True])
            continue
        if label not in seen:
            seen[label] = len(out)
            out.append([label, [], [], 0, False])
        e = out[seen[label]]
        e[1].append(r["compute_s"])
        e[2].append(r["comm_s"])
        e[3] = max(e[3], r["peak_bytes"])
    for e in out:
        if not e[4]:
            e[1], e[2] = sum(e[1]) / len(e[1]), sum(e[2]) / len(e[2])
    return out


def plot_steps(res, path, key="layer", what="forward"):
    seqs = res["meta"][key]["seqs"]
    plt = _pyplot()
    fig, axes = plt.subplots(1, len(seqs), figsize=(6 * len(seqs), 4.2))
    axes = list(axes) if len(seqs) > 1 else [axes]
    for ax, s in zip(axes, seqs):
        v = _variant_means(res, s, key)
        xs = range(len(v))
        comp = [e[1] for e in v]
        comm = [e[2] for e in v]
        ax.bar(xs, comp, color="#4c72b0", label="compute")
        ax.bar(xs, comm, bottom=comp, color="#dd8452", label="communication (blocked)")
        top = max((a + b for a, b in zip(comp, comm)), default=1)
        for x, e in zip(xs, v):
            if e[4]:
                ax.text(x, top * 0.02, "n/a", ha="center", fontsize=8)
        ax.set_xticks(list(xs))
        ax.set_xticklabels([e[0] for e in v], fontsize=7, rotation=45, ha="right")
        ax.set_ylabel(f"seconds per {what} (mean of 2 ranks)")
        ax.set_title(f"one GPT-2 layer {what}, s={s}, 2 CPU ranks", fontsize=9)
        ax.grid(axis="y", alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


def plot_peaks(res, path, key="layer"):
    seqs = res["meta"][key]["seqs"]
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 4.2))
    width = 0.8 / len(seqs)
    labels = None
    for i, s in enumerate(seqs):
        v = _variant_means(res, s, key)
        labels = [e[0] for e in v]
        xs = [x + (i - (len(seqs) - 1) / 2) * width for x in range(len(v))]
        ax.bar(xs, [e[3] / MIB for e in v], width, label=f"s={s}")
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, fontsize=7, rotation=45, ha="right")
    ax.set_ylabel("MiB (max over ranks)")
    ax.set_title("peak memory: seqpar = program allocations; torch = RSS high-water growth",
                 fontsize=9)
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


def plot_runtime(res, path):
    rows = res["runtime"]
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    xs = range(len(rows))
    ax.bar([x - 0.2 for x in xs], [r["mpi_ms"] for r in rows], 0.4, label="direct MPI")
    ax.bar([x + 0.2 for x in xs], [r["runtime_ms"] for r in rows], 0.4, label="seqpar runtime")
    ax.set_xticks(list(xs))
    ax.set_xticklabels([f"{r['collective']}\n{r['mib']} MiB"
                        + ("\n(busy)" if r.get("load", "idle") != "idle" else "") for r in rows],
                       fontsize=7)
    ax.set_ylabel("milliseconds per call (median)")
    ax.set_title("blocking f32 collectives on 2 ranks", fontsize=9)
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


# --------------------------------------------------------------------------
# Markdown
# --------------------------------------------------------------------------

METHODS = """\
## How it is measured

* **Compile time**: `seqpar-opt ... --mlir-timing -o /dev/null`; `seconds`
  (kind `passes`) is the timing report's total minus parsing and printing,
  `process_wall_s` the whole process (startup, parse, passes, print). Graphs
  from `bench/gen_tp_graph.py` with run_bench.sh's sizes: the unsharded graph
  (`--form plain --tp 1`) through `--seqpar-pipeline="tp=8 seq-dim=1"` (TP
  planning, SP rewrite and clean-ups: the whole pipeline), and the per-rank
  TP graph (`--form tp --tp 8 --flatten --dropout`) through
  `--seqpar-sp-pipeline`. Upstream: `mlir-opt` runs
  `func.func(sharding-propagation,cse,shard-partition,canonicalize,cse)` on
  the same model written as upstream can partition it (`--form upstream --tp
  8`: explicit head dims, no reshapes, Megatron `shard.sharding`
  annotations; the plain graph's reshapes and keepdim maps have no upstream
  sharding rule, docs/sequence-parallel.md); its `seconds` are
  ShardingPropagation + Partition alone. `seqpar-plan-auto --devices 8` and
  `seqpar-report --peak` read the plain graph; kind `process`: their whole
  process's wall time. Each layer count runs every pipeline and tool in
  turn, so compared figures share the machine's load.
* **seqpar layer**: the single-device layer (`gen_tp_graph.py --model gpt
  --layers 1 --form plain`: LayerNorm, QKV, causal attention, projection,
  residual, LayerNorm, MLP 4h with tanh-GELU, residual, final LayerNorm)
  through `seqpar-opt --seqpar-pipeline="<opts> seq-dim=1"` with `tp=2
  sp=false` (TP), `tp=2 input-sharded output-sharded` (TP+SP: the input
  and output sequence-sharded, as PyTorch's TP+SP takes and leaves them),
  `cp=2 cp-strategy=ring|all-gather|ulysses` (zigzag load balance, the
  default); run by `mpirun -np 2 seqpar-run
  --blas-threads=1` (Open MPI binds rank r to core r). seqpar-run times one
  call after one warm-up call, between barriers; each number is the median
  over separate `mpirun` launches. The first launch also checks the output
  against the single-device program (`err`). `comm_s` = the `wait_seconds`
  column of the runtime counters summed over collectives: the time the rank
  was blocked in a collective or in `seqpar.wait` (for blocking collectives
  this includes waiting for the other rank to arrive; for the ring's
  asynchronous transfers it is only the part compute did not hide).
  `compute_s` = wall - `comm_s`. `peak_MiB`: the peak of the program's own
  allocations (arguments excluded) counted by the runtime's allocator hook.
  `sent_MiB`: bytes sent per rank by the counters (docs/semantics.md §5
  convention).
* **PyTorch layer** (`bench/torch_layer.py`): the same layer as an
  `nn.Module` (separate Q, K, V linears, `F.scaled_dot_product_attention(...,
  is_causal=True)`, which on CPU is a flash-style kernel that never holds the
  s x s scores), `torch.no_grad()`, gloo, 2 processes from `mp.spawn`, each
  with `torch.set_num_threads(1)` and pinned to one core. TP:
  `ColwiseParallel` on Q, K, V, fc1 and `RowwiseParallel` on proj, fc2.
  TP+SP: additionally `SequenceParallel` on the three LayerNorms,
  `PrepareModuleInput(Shard(1) -> Replicate())` before attention and MLP and
  `RowwiseParallel(output_layouts=Shard(1))`; the input arrives
  sequence-sharded. `step_s`: median over 5 forwards after 2 warm-ups, each
  after a barrier, in each of `repeat` launches, then the median over the
  launches (as seqpar's rows; one launch's figure moved by up to 30% between
  runs). `comm_s`: median over 5 further forwards under
  `torch.profiler` of the summed duration of the outermost `c10d::*` /
  `_c10d_functional::*` events on the calling thread (issue plus
  `wait_tensor`: time blocked in collectives; gloo's own worker-thread
  events are not counted). Gloo has no reduce-scatter: c10d runs an
  all-reduce and keeps this rank's part, so TP+SP moves as many bytes as TP
  there. `peak_MiB`: growth of the process's RSS high-water mark
  (`getrusage` `ru_maxrss`) from after setup to after the forwards; this is
  **not** the same quantity as seqpar's allocation peak (it includes the
  allocator's and libraries' pages and misses memory reused from setup),
  so compare the two only roughly. `err` against the unparallelized module.
* **Runtime vs MPI**: `bench/run_runtime_bench.sh` (seqpar-runtime-bench):
  blocking f32 all-gather / reduce-scatter through the runtime against
  `MPI_Allgather` / `MPI_Reduce_scatter_block`, sizes = bytes of the full
  tensor, median over iterations (as many as take about 1 s per
  collective and size, 101 to 4001) of the max over ranks.
* Peak memory here is that of a forward-only run, not the activation
  bytes saved for backward (docs/semantics.md §6, `seqpar-report`).
"""


def _write_page(page, md):
    """Writes the lines md to page, keeping the hand-written "## Observations"
    section of an earlier page."""
    if os.path.exists(page):
        old = open(page).read()
        at = old.find("\n## Observations")
        if at >= 0:
            md = md + [old[at + 1:].rstrip(), ""]
    with open(page, "w") as f:
        f.write("\n".join(md))


def write(res, out):
    """Writes out/benchmarks.md and out/bench/*.png."""
    figdir = os.path.join(out, "bench")
    os.makedirs(figdir, exist_ok=True)
    plots = [("compile_time.png", plot_compile), ("step_time.png", plot_steps),
             ("peak_memory.png", plot_peaks), ("runtime_vs_mpi.png", plot_runtime)]
    for name, fn in plots:
        fn(res, os.path.join(figdir, name))
    with open(os.path.join(figdir, "results.json"), "w") as f:
        json.dump(res, f, indent=1)
    m = res["meta"]
    c, lay = m["compile"], m["layer"]
    table, verdicts = compile_tables(res)
    # The run keeps both cores busy itself: ~2 after it is its own load.
    busy = m["load_before"] > 0.5 or m["load_after"] > 2.5
    md = [
        "# Benchmarks",
        "",
        f"Generated by `{m['command']}` on {m['date']} at commit {m['commit']}"
        + (f" with the binaries found in build/bin (built {m['binaries']}, possibly from a "
           "working tree ahead of the commit)" if m.get("binaries") else "")
        + f"{' (QUICK smoke-test sizes)' if m['quick'] else ''}, on the 2-core CI-class "
        f"machine: {m['cpus']} CPUs ({m['cpu']}), {m['mem_gib']:.0f} GiB, Open MPI over "
        f"shared memory, GEMMs (libxsmm, oneDNN, OpenBLAS) on one thread per rank"
        + (f", PyTorch {m['torch']} (PyPI wheel, CPU, gloo)" if m.get("torch") else "") + ".",
        "",
        f"Load average (1 min) before / after: {m['load_before']:.2f} / {m['load_after']:.2f}"
        " (the run's own 2 ranks account for about 2 after it)"
        + ("; other work was running around it, so timings may be disturbed." if busy else "."),
        "",
        "Rerun: `python3 bench/run_all.py` (creates `bench/.venv` with torch, numpy and "
        "matplotlib from PyPI on first use); `--quick` for a smoke test, `--skip-torch`, "
        "`--out DIR`.",
        "",
        f"## 1. Compile time (GPT, h={c['h']}, a={c['a']}, s={c['s']}, t={c['t']}, b=1)",
        "",
        f"Median of {m['repeat']} runs, seconds.",
        "",
        table,
        "",
        *[f"- {v}" for v in verdicts],
        "",
        "![compile time vs layers](bench/compile_time.png)",
        "",
        f"## 2. One GPT-2-sized layer on 2 CPU ranks (h={lay['h']}, a={lay['a']}, b=1, f32, "
        "forward)",
        "",
        "Per rank, seconds per forward; MiB. CP hybrid needs cp >= 4 (2 ring x 2 "
        "Ulysses ranks); PyTorch's `context_parallel` is reported with the error it gives "
        "on CPU.",
        "",
    ]
    for s in lay["seqs"]:
        md += [f"### s = {s}", "", layer_table(res, s), "",
               "Ratios in this run: each variant's step (slowest rank) against PyTorch's "
               "and against the FLOP bound (the layer's FLOPs per rank, linears "
               "24 s h^2 / 2 and causal attention 2 s^2 h / 2, at the single-core sgemm "
               f"rate measured in this run: {m.get('sgemm_gflops') or 0:.1f} GFLOP/s).", "",
               ratio_table(res, s), ""]
    md += ["![step time per variant](bench/step_time.png)", "",
           "![peak memory per variant](bench/peak_memory.png)", ""]
    if res.get("jit"):
        md += ["### JIT time", "",
               "seqpar-run's JIT (lowering, LLVM at the default level, code generation), "
               "slowest of 2 ranks, GPT-2-sized layers (h=768, s=128) at tp=2:", "",
               jit_table(res), ""]
    md += ["## 3. Runtime collectives vs direct MPI", "",
           m.get("runtime_header", ""), "", runtime_table(res), "",
           "![runtime vs MPI](bench/runtime_vs_mpi.png)", "", METHODS]
    _write_page(os.path.join(out, "benchmarks.md"), md)


# --------------------------------------------------------------------------
# Training step (bench/run_training.py)
# --------------------------------------------------------------------------

def _train_seqs(res):
    """{ranks: [s, ...]} of the training results (JSON keys are strings)."""
    return {int(k): v for k, v in res["meta"]["train"]["seqs"].items()}


def _seconds(v):
    return _fmt(v, ".3f") if v else "-"


def training_table(res, ranks, s):
    """One row per implementation and variant on `ranks` ranks at s."""
    rows = []
    for r in res["train"]:
        if r["ranks"] != ranks or r["s"] != s:
            continue
        if "na" in r:
            rows.append([r["impl"], r["variant"], f"n/a ({r['na']})"] + [""] * 12)
            continue
        ring = r.get("bwd_xfer_s")
        rows.append([
            r["impl"], r["variant"], f"{r['step_s']:.3f}", f"{r['compute_s']:.3f}",
            f"{r['comm_s']:.3f}", _seconds(r.get("attn_s")),
            _seconds(r.get("fwd_xfer_s")), _seconds(r.get("fwd_wait_s")) if r.get("fwd_xfer_s") else "-",
            _seconds(ring), _seconds(r.get("bwd_wait_s")) if ring else "-",
            _fmt(r.get("bwd_hidden"), ".2f"), _fmt(r.get("bwd_flops_balance"), ".3f"),
            f"{r['peak_bytes'] / MIB:.1f}", f"{r['sent_bytes'] / MIB:.1f}", _fmt(r.get("err"), ".1e")])
    return _table(["impl", "variant", "step_s", "compute_s", "comm_s", "attn_s",
                   "fwd ring xfer_s", "fwd ring wait_s", "bwd ring xfer_s", "bwd ring wait_s",
                   "bwd hidden", "bwd FLOPs max/mean", "peak_MiB", "sent_MiB", "err"], rows)


def training_verdicts(res):
    """Lines: per rank count and s/ranks >= 4k (s/c for pure CP; TP x CP
    holds twice as many tokens per rank), the smallest hidden part of the
    backward ring's transfer time over the ring variants (goal >= 0.5)."""
    out = []
    for ranks, seqs in _train_seqs(res).items():
        for s in seqs:
            if s // ranks < 4096:
                continue
            for r in res["train"]:
                if (r["ranks"], r["s"], r["impl"]) != (ranks, s, "seqpar") or \
                        r.get("bwd_hidden") is None:
                    continue
                ok = r["bwd_hidden"] >= 0.5
                out.append(f"{ranks} ranks, s/ranks={s // ranks}, {r['variant']}: "
                           f"{r['bwd_hidden']:.2f} of the backward ring's transfer time hidden "
                           f"-> {'ok' if ok else 'BELOW 0.5'}")
    return out


def training_text(res):
    """The training benchmark as text (what run_training.py prints)."""
    tr = res["meta"]["train"]
    out = []
    for ranks, seqs in _train_seqs(res).items():
        for s in seqs:
            out += [f"one GPT layer training step h={tr['h']} a={tr['a']} vocab={tr['vocab']} "
                    f"b=1 s={s} (s/ranks={s // ranks}) f32 on {ranks} ranks (seconds per step, "
                    "max over ranks; MiB)", training_table(res, ranks, s), ""]
    return "\n".join(out + training_verdicts(res))


def plot_training(res, path, field, ylabel, scale=1.0):
    """field against s/c per seqpar variant (and torch), one panel per rank
    count, log-log."""
    seqs = _train_seqs(res)
    plt = _pyplot()
    fig, axes = plt.subplots(1, len(seqs), figsize=(6.5 * len(seqs), 4.5))
    axes = list(axes) if len(seqs) > 1 else [axes]
    for ax, (ranks, ss) in zip(axes, seqs.items()):
        series = {}
        for r in res["train"]:
            if r["ranks"] == ranks and "na" not in r and r.get(field):
                series.setdefault(f"{r['impl']} {r['variant']}", []).append(
                    (r["s"] // ranks, r[field] / scale))
        for name, pts in series.items():
            pts.sort()
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o",
                    linestyle="--" if name.startswith("torch") else "-", label=name)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("s / ranks (tokens per rank under CP)")
        ax.set_ylabel(ylabel)
        ax.set_title(f"one GPT-2 layer training step, {ranks} CPU ranks", fontsize=9)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


TRAIN_METHODS = """\
## How it is measured

* **The step**: `bench/gen_train_graph.py --model gpt --layers 1 --form plain`
  writes the single-device training program: the GPT-2 layer (LayerNorm, fused
  QKV, causal attention, projection, residual, LayerNorm, MLP 4h with
  tanh-GELU, residual, final LayerNorm), an LM head W [h, vocab] and the
  causal-LM cross-entropy (shifted labels, -100 ignored, mean over valid
  tokens), then its backward, op by op; it returns the loss and the gradient
  of every parameter. seqpar plans it with `seqpar-opt
  --seqpar-pipeline="<opts> seq-dim=1"`: `tp=2 sp=false` (TP), `tp=2` (TP+SP,
  inputs of column-parallel linears saved sharded and re-gathered in backward),
  `tp=2 save-gathered=true` (TP+SP saving them gathered), `cp=c` with
  `cp-strategy` ring (zigzag), ring with `cp-keep-kv=true` (the backward reads
  the K/V blocks the forward received and sends only dK/dV), all-gather,
  Ulysses and hybrid (2 ring x 2 Ulysses), and `tp=2 cp=2` (TP+SP x CP ring).
  The head is vocab-parallel under TP (docs/training-graphs.md); under CP
  every weight gradient is all-reduced over the CP axis, which is most of
  CP's bytes at these sizes. `mpirun -np N seqpar-run --blas-threads=1` times
  one step after one warm-up step; the first launch at s <= 4096 also checks
  the loss and every gradient against the single-device program (`err`, the
  largest over the outputs).
* **Columns** (seconds per step, the largest over ranks): `comm_s` is the
  time ranks were blocked in collectives, `compute_s` the rest of the step;
  `attn_s` the forward and backward attention blocks (the runtime's
  'attention' and 'attention_backward' regions). `fwd ring` / `bwd ring`: the
  forward K/V ring and the backward ring (K/V again unless kept, and the
  dK/dV accumulators travelling home), each a runtime region from its first
  transfer to its last wait (`seqpar-instrument-attention`): `xfer_s` the
  start-to-completion seconds of its transfers, `wait_s` the time the rank
  was blocked on them; `bwd hidden` = 1 - wait / xfer of the backward ring,
  the smallest over ranks. Rings of all-gather-KV and Ulysses do not exist:
  their transfers are blocking collectives, inside `comm_s`. `bwd FLOPs
  max/mean`: the backward attention blocks' FLOPs over ranks (zigzag: 1.0).
  `peak_MiB`, `sent_MiB` as in docs/benchmarks.md: the peak of the program's
  own allocations and the bytes sent per the docs/semantics.md §5 convention.
* **Ranks and cores**: the machine has 2 cores; 4 ranks share them, so the
  4-rank times are about twice what 4 cores would give, and transfers there
  compete with compute for a core.
* **PyTorch** (`bench/torch_train.py`, 2 ranks): the same step as an
  `nn.Module` (separate Q, K, V linears;
  `F.scaled_dot_product_attention(is_causal=True)`, whose CPU backward does
  not hold the s x s probabilities either), gloo, each process with one thread
  pinned to one core, `loss.backward()`. TP: `ColwiseParallel` on Q, K, V,
  fc1, `RowwiseParallel` on proj, fc2, the head
  `ColwiseParallel(output_layouts=Shard(-1))` under `loss_parallel()`
  (vocab-parallel cross-entropy). TP+SP: additionally `SequenceParallel`
  LayerNorms, `PrepareModuleInput(Shard(1) -> Replicate())` and
  `RowwiseParallel(output_layouts=Shard(1))`. `step_s`: median over the timed
  steps after a warm-up, each after a barrier; `comm_s`: outermost collective
  events under `torch.profiler`; `sent_MiB`: the same §5 convention applied to
  those events' shapes; `peak_MiB`: growth of the RSS high-water mark (not
  the same quantity as seqpar's allocation peak: compare roughly). `err`: the
  loss and every gradient against the unparallelized module's step.
"""


def write_training(res, out):
    """Writes out/benchmarks-training.md and out/bench/training_*.png / .json."""
    figdir = os.path.join(out, "bench")
    os.makedirs(figdir, exist_ok=True)
    plot_training(res, os.path.join(figdir, "training_step_time.png"), "step_s",
                  "seconds per step (max over ranks)")
    plot_training(res, os.path.join(figdir, "training_peak_memory.png"), "peak_bytes",
                  "peak MiB (max over ranks)", MIB)
    with open(os.path.join(figdir, "training_results.json"), "w") as f:
        json.dump(res, f, indent=1)
    m = res["meta"]
    tr = m["train"]
    busy = m["load_before"] > 0.5 or m["load_after"] > 4.5
    md = [
        "# Training-step benchmark",
        "",
        f"Generated by `{m['command']}` on {m['date']} at commit {m['commit']} with the "
        f"binaries found in build/bin (built {m['binaries']}, possibly from a working tree ahead of "
        "the commit)"
        + (" (QUICK smoke-test sizes)" if m["quick"] else "")
        + f", on {m['cpus']} CPUs ({m['cpu']}), {m['mem_gib']:.0f} GiB, Open MPI over shared "
        "memory, GEMMs (libxsmm, oneDNN, OpenBLAS) on one thread per rank"
        + (f", PyTorch {m['torch']} (PyPI wheel, CPU, gloo)" if m.get("torch") else "") + ".",
        "",
        f"Load average (1 min) before / after: {m['load_before']:.2f} / {m['load_after']:.2f}"
        + ("; other work was running around it, so timings may be disturbed." if busy else "."),
        "",
        "Rerun: `python3 bench/run_training.py` (the venv of `bench/run_all.py`); `--quick`, "
        "`--skip-torch`, `--out DIR`, `--replot docs/bench/training_results.json`.",
        "",
        f"One GPT-2-sized layer with an LM head (h={tr['h']}, a={tr['a']}, vocab={tr['vocab']}, "
        "b=1, f32): forward + backward, seconds per step and MiB, the largest over ranks. "
        f"seqpar: per rank the median of {m['repeat']} launches up to s = {tr['repeat_upto']}, "
        "one launch above.",
        "",
    ]
    for ranks, seqs in _train_seqs(res).items():
        for s in seqs:
            md += [f"## {ranks} ranks, s = {s} (s/ranks = {s // ranks})", "",
                   training_table(res, ranks, s), ""]
    verdicts = training_verdicts(res)
    if verdicts:
        md += ["## The backward ring's transfers behind compute (s/ranks >= 4k)", "",
               "```", *verdicts, "```", ""]
    md += ["![training step time per variant](bench/training_step_time.png)", "",
           "![training peak memory per variant](bench/training_peak_memory.png)", "",
           TRAIN_METHODS]
    _write_page(os.path.join(out, "benchmarks-training.md"), md)
