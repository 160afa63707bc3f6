#!/usr/bin/env python3
"""Random small TP transformer programs for the randomized differential test.

Given a seed, draws a small configuration (model kind, layers, hidden size,
heads, GQA kv-heads, odd or even sequence length, batch, tensor-parallel size
t, layout, flatten, dropout) that bench/gen_tp_graph.py accepts, and writes:

  <dir>/p1.mlir    the single-device program (--tp 1)
  <dir>/tp.mlir    the per-rank TP program (--tp t)
  <dir>/plain.mlir the single-device program without sharding, in the forms
                   drawn for the seed (the planner's input)
  <dir>/p1f.mlir   the single-device program in those forms, f32 (the
                   reference of what is planned from plain.mlir)
  <dir>/in<k>.npy  with a padding mask: every argument of plain.mlir, the
                   mask 1 on the first keys of each row and 0 on the rest
  <dir>/config.txt key=value lines: seed, ranks, gen (generator arguments),
                   sp_options (the seqpar-sp-pipeline options), run_seed,
                   forms (generator arguments of the forms), forms_desc,
                   ref (p1f.mlir), inputs (the .npy files, comma-separated,
                   or empty), cp_options (the context-parallel options)

The forms are what other frontends write and seqpar's attention raiser and
TP planner accept (bench/gen_tp_graph.py's --logits, --pv, --gqa-repeat,
--softmax, --mask, --init, --mixed-bf16, --linear): each is drawn on its
own for each seed, from a generator of its own (forms_for), so the rest of
the configuration is what it was before they existed. tp.mlir and p1.mlir
keep the default forms: a tile of K/V heads and the masks change the
function, and the hand-written per-rank program is Megatron's own.

Pre/post norm and LayerNorm/RMSNorm come with the model kind (gpt: pre-norm
LayerNorm; llama: pre-norm RMSNorm, RoPE, GQA; bert: post-norm LayerNorm).
Everything is deterministic from the seed (Python's random.Random(seed)).
Standard library only.

With --training the configuration is one of bench/gen_train_graph.py
(model, layers, sizes, GQA, vocabulary or label count, layout, flatten; no
dropout) and the files are:

  <dir>/p1.mlir     the single-device training program (--form single)
  <dir>/tp.mlir     the per-rank TP training program (--form tp --tp t)
  <dir>/plain.mlir  the same without sharding (the planner's input)
  <dir>/fd.mlir     its finite-difference check (--form fdcheck)
  <dir>/config.txt  as above, with training=1

Usage: random_programs.py --seed S [--ranks "2 4"] [--training] [-o DIR] [--print]
"""
import argparse
import contextlib
import io
import math
import os
import random
import re
import shlex
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GEN = os.path.join(ROOT, "bench", "gen_tp_graph.py")
GEN_TRAIN = os.path.join(ROOT, "bench", "gen_train_graph.py")
sys.path.insert(0, os.path.join(ROOT, "bench"))
import gen_tp_graph  # noqa: E402  (validation shared with the generator)
import gen_train_graph  # noqa: E402


def draw(rng, ranks):
    """One candidate configuration as a dict (may still be rejected)."""
    model = rng.choice(["gpt", "llama", "bert"])
    t = rng.choice(ranks)
    h = rng.choice([16, 32, 48, 64])
    # Heads divide hidden, head dim even, heads divisible by t.
    heads = [a for a in range(1, h + 1) if h % a == 0 and (h // a) % 2 == 0 and a % t == 0]
    if not heads:
        return None
    a = rng.choice(heads)
    kv = a
    if model == "llama":
        kvs = [k for k in range(1, a + 1) if a % k == 0 and k % t == 0]
        kv = rng.choice(kvs)
    seq = rng.randint(6, 40)
    cfg = {
        "model": model, "layers": rng.randint(1, 3), "batch": rng.randint(1, 3),
        "seq": seq, "hidden": h, "heads": a, "kv_heads": kv, "tp": t,
        "layout": rng.choice(["bsh", "sbh"]), "flatten": rng.random() < 0.5,
        "dropout": rng.random() < 0.5, "dropout_op": False,
        "dropout_seed": rng.randint(0, 9999), "run_seed": rng.randint(0, 9999),
    }
    if cfg["dropout"]:
        cfg["dropout_op"] = rng.random() < 0.3
    return cfg


def gen_args(cfg, tp):
    """gen_tp_graph.py arguments for `cfg` at tensor-parallel size `tp`."""
    args = ["--model", cfg["model"], "--layers", str(cfg["layers"]),
            "--batch", str(cfg["batch"]), "--seq", str(cfg["seq"]),
            "--hidden", str(cfg["hidden"]), "--heads", str(cfg["heads"])]
    if cfg["model"] == "llama":
        args += ["--kv-heads", str(cfg["kv_heads"])]
    args += ["--layout", cfg["layout"]]
    if cfg["flatten"]:
        args.append("--flatten")
    if cfg["dropout"]:
        args.append("--dropout-op" if cfg["dropout_op"] else "--dropout")
        args += ["--seed", str(cfg["dropout_seed"])]
    return args + ["--tp", str(tp)]


def sp_options(cfg):
    """seqpar-sp-pipeline options: pad when t does not divide s."""
    return "pad=true" if cfg["seq"] % cfg["tp"] else ""


def accepted(cfg):
    """The generator's own validation, for both the TP and the 1-rank program."""
    for tp in (1, cfg["tp"]):
        try:
            with contextlib.redirect_stderr(io.StringIO()):
                parsed, _ = gen_tp_graph.parse_args(gen_args(cfg, tp))
        except SystemExit:
            return False
        if gen_tp_graph.validate(parsed):
            return False
    return True


def config_for(seed, ranks=(2, 4)):
    """The configuration of `seed`: redraws until the generator accepts one."""
    rng = random.Random(seed)
    while True:
        cfg = draw(rng, list(ranks))
        if cfg is not None and accepted(cfg):
            return cfg


def draw_training(rng, ranks):
    """One candidate training configuration (gen_train_graph.py arguments)."""
    model = rng.choice(["gpt", "llama", "bert"])
    t = rng.choice(ranks)
    h = rng.choice([16, 32, 48])
    heads = [a for a in range(1, h + 1) if h % a == 0 and (h // a) % 2 == 0 and a % t == 0]
    if not heads:
        return None
    a = rng.choice(heads)
    layers, batch, seq = rng.randint(1, 2), rng.randint(1, 2), rng.randint(2, 12)
    if seq < t:  # fewer tokens than ranks: SP refuses it (padding needs s >= t)
        return None
    args = ["--model", model, "--layers", str(layers), "--batch", str(batch),
            "--seq", str(seq), "--hidden", str(h), "--heads", str(a)]
    if model == "llama":
        args += ["--kv-heads", str(rng.choice([k for k in range(1, a + 1) if a % k == 0 and k % t == 0]))]
    args += ["--vocab", str(rng.choice([8, 12, 16, 24, 32])), "--layout", rng.choice(["bsh", "sbh"])]
    if rng.random() < 0.5:
        args.append("--flatten")
    return {"tp": t, "gen": args, "run_seed": rng.randint(0, 9999)}


def training_config_for(seed, ranks=(2, 4)):
    """The training configuration of `seed` (redrawn until accepted)."""
    rng = random.Random(seed)
    while True:
        cfg = draw_training(rng, list(ranks))
        if cfg is None:
            continue
        try:
            with contextlib.redirect_stderr(io.StringIO()):
                gen_train_graph.parse_args(cfg["gen"])
                gen_train_graph.parse_args(cfg["gen"] + ["--tp", str(cfg["tp"])])
        except SystemExit:
            continue
        return cfg


def draw_cp_options(rng, t, seq):
    """Context-parallel options on c = t ranks drawn from `rng`: a strategy
    (hybrid: 2 ring x 2 Ulysses ranks at t = 4), zigzag or contiguous,
    keep-kv for the ring, pad when the sequence of `seq` tokens needs it."""
    strategies = ["ring", "all-gather", "ulysses"] + (["hybrid"] if t == 4 else [])
    strategy = rng.choice(strategies)
    zigzag = rng.random() < 0.5
    opts = ["cp=%d" % t, "cp-strategy=" + strategy]
    if strategy == "hybrid":
        opts.append("cp-ulysses=2")
    if not zigzag:
        opts.append("load-balance=none")
    if strategy in ("ring", "hybrid") and rng.random() < 0.5:
        opts.append("cp-keep-kv=true")
    if seq % (2 * t if zigzag else t):
        opts.append("cp-pad=true")
    return " ".join(opts)


def cp_options(seed, cfg):
    """The context-parallel options checked for training seed `seed`, from a
    generator of their own, so the rest of the configuration stays what it
    was for every seed."""
    seq = int(cfg["gen"][cfg["gen"].index("--seq") + 1])
    return draw_cp_options(random.Random(seed * 7919 + 1), cfg["tp"], seq)


def write_training(cfg, seed, outdir):
    """The training programs of `cfg` and config.txt in `outdir`."""
    for form, name in (("single", "p1.mlir"), ("tp", "tp.mlir"), ("plain", "plain.mlir"),
                       ("fdcheck", "fd.mlir")):
        tp = ["--tp", str(cfg["tp"])] if form == "tp" else []
        subprocess.run([sys.executable, GEN_TRAIN] + cfg["gen"] + tp + ["--form", form, "-o",
                                                                        os.path.join(outdir, name)], check=True)
    seq = int(cfg["gen"][cfg["gen"].index("--seq") + 1])
    with open(os.path.join(outdir, "config.txt"), "w") as fh:
        fh.write("seed=%d\nranks=%d\ngen=%s\nsp_options=%s\nrun_seed=%d\ntraining=1\n"
                 "cp_options=%s\n"
                 % (seed, cfg["tp"], shlex.join(cfg["gen"]), "pad=true" if seq % cfg["tp"] else "",
                    cfg["run_seed"], cp_options(seed, cfg)))


def forms_for(seed, cfg):
    """The forms drawn for forward seed `seed`, from a generator of their own
    (so that drawing them changes no other choice): a dict of
    gen_tp_graph.py options (non-default ones only, in a fixed order),
    plus "bf16" and the padded keys per batch row "pads"."""
    rng = random.Random(seed * 6151 + 3)
    causal = cfg["model"] != "bert"
    gqa = cfg["model"] == "llama" and cfg["kv_heads"] < cfg["heads"]
    drawn = {
        "logits": rng.choice(["qk", "qk", "kq"]),
        "pv": rng.choice(["bmm", "bmm", "token-major", "vt"]),
        "gqa-repeat": rng.choice(["generic", "zero-add", "broadcast", "concat", "index-select", "gather",
                                  "concat-tile"]),
        "softmax": rng.choice(["generics", "generics", "linalg", "lse", "log-softmax", "reciprocal"]),
        "mask": rng.choice(["none", "none", "pad", "pad-min", "pad-body"] +
                           (["causal-pad", "window", "window-body"] if causal else [])),
        "window": rng.randint(1, cfg["seq"]),
        "init": rng.choice(["fill", "fill", "const", "cast", "mixed"]),
    }
    bf16 = rng.random() < 0.25
    # Right padding of 0 .. s-1 keys per row: key 0 is always attended, so
    # no query row is masked whole.
    pads = [rng.randint(0, cfg["seq"] - 1) for _ in range(cfg["batch"])]
    # Drawn last, so that the seeds drawn before it keep their other forms.
    drawn["linear"] = rng.choice(["default", "default", "bmm-broadcast", "bmm-copy"])
    defaults = {"logits": "qk", "pv": "bmm", "gqa-repeat": "generic", "softmax": "generics", "mask": "none",
                "init": "fill", "linear": "default"}
    forms = {k: v for k, v in drawn.items() if k in defaults and v != defaults[k]}
    if not gqa:
        forms.pop("gqa-repeat", None)
    if drawn["mask"].startswith("window"):
        forms["window"] = drawn["window"]
    return {"options": forms, "bf16": bf16,
            "pads": pads if drawn["mask"] in gen_tp_graph.PADDING_MASKS else []}


def form_args(forms, narrow=True):
    """gen_tp_graph.py arguments of `forms`; narrow=False: in f32."""
    args = []
    for k, v in forms["options"].items():
        args += ["--" + k, str(v)]
    if narrow and forms["bf16"]:
        args.append("--mixed-bf16")
    return args


def describe_forms(forms):
    """The forms as the per-seed line gives them."""
    words = ["%s=%s" % (k, v) for k, v in forms["options"].items()]
    if forms["bf16"]:
        words.append("bf16")
    if forms["pads"]:
        words.append("pads=" + "/".join(map(str, forms["pads"])))
    return " ".join(words) or "default"


def cp_options_forward(seed, cfg):
    """The context-parallel options checked for forward seed `seed`: as
    cp_options for training seeds, from a generator of their own."""
    return draw_cp_options(random.Random(seed * 7919 + 2), cfg["tp"], cfg["seq"])


def forward_args(path):
    """(name, shape, element type) of each argument of @forward in `path`."""
    text = open(path, encoding="utf-8").read()
    head = text[text.index("func.func @forward("):]
    head = head[:head.index("->")]
    out = []
    for name, ty in re.findall(r"(%[\w.]+): tensor<([^>]*)>", head):
        parts = ty.split("x")
        out.append((name, tuple(int(p) for p in parts[:-1]), parts[-1]))
    return out


def write_npy(path, descr, shape, data):
    """A little-endian C-order .npy of `data` (bytes)."""
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join("%d, " % d for d in shape) if len(shape) != 1 else "%d," % shape[0])
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as fh:
        fh.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode("latin1") + data)


def bf16_bits(x):
    """The bf16 nearest to the f32 `x` (ties to even), as its 16 bits."""
    b = struct.unpack("<I", struct.pack("<f", x))[0]
    return (b + 0x7FFF + ((b >> 16) & 1)) >> 16


def write_inputs(path, forms, run_seed, outdir):
    """Every argument of the program at `path` as in<k>.npy: the values
    seqpar-run would generate in kind (the first argument u, other 1-D ones
    1 + 0.1 u, the rest u / sqrt(dim 0), u uniform in [-1, 1)), the i64
    attention mask from forms["pads"]. Returns the file names."""
    rng = random.Random(run_seed)
    names = []
    for k, (_, shape, elem) in enumerate(forward_args(path)):
        count = 1
        for d in shape:
            count *= d
        name = "in%d.npy" % k
        if elem == "i64":
            s = shape[1]
            values = [1 if j < s - pad else 0 for pad in forms["pads"] for j in range(s)]
            write_npy(os.path.join(outdir, name), "<i8", shape, struct.pack("<%dq" % count, *values))
        else:
            u = [rng.uniform(-1.0, 1.0) for _ in range(count)]
            if k == 0:
                values = u
            elif len(shape) == 1:
                values = [1.0 + 0.1 * x for x in u]
            else:
                values = [x / math.sqrt(shape[0]) for x in u]
            if elem == "bf16":
                write_npy(os.path.join(outdir, name), "<u2", shape,
                          struct.pack("<%dH" % count, *(bf16_bits(x) for x in values)))
            else:
                write_npy(os.path.join(outdir, name), "<f4", shape, struct.pack("<%df" % count, *values))
        names.append(name)
    return names


def expected_plan(cfg, forms):
    """What planning `cfg` must give: (blocks, column-parallel,
    row-parallel, left replicated linears, reduce_scatters, attentions).
    Every layer is an attention block and an MLP block whose linears are
    all split (Q, K, V: one fused linear in GPT, three in Llama and BERT;
    Llama's gate and up), except K and V under a tile of K/V heads
    (concat-tile): each rank's query heads read K/V heads from all over, so
    those stay replicated. Every attention is raised (and so distributed by
    CP) except a causal model's under a padding mask added to its causal
    select (pad, pad-min, pad-body: Hugging Face GPT-2's eager form): that
    pair is the causal flag plus the mask only where the mask's values are
    bounded (docs/semantics.md §4.5), and (1 - float(m)) * c of an integer
    input, or finfo.min behind -1e9, are not; the attention stays as
    written, its keys all-gathered."""
    layers = cfg["layers"]
    col = {"gpt": 2, "llama": 5, "bert": 4}[cfg["model"]]
    repl = 0
    if forms["options"].get("gqa-repeat") == "concat-tile":
        col, repl = col - 2, 2
    raised = layers
    if cfg["model"] != "bert" and forms["options"].get("mask") in ("pad", "pad-min", "pad-body"):
        raised = 0
    return (2 * layers, col * layers, 2 * layers, repl * layers, 2 * layers, raised)


def describe(cfg):
    return " ".join(shlex.quote(a) for a in gen_args(cfg, cfg["tp"])[:-2]) + \
        " t=%d" % cfg["tp"] + (" pad" if sp_options(cfg) else "")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--ranks", default="2 4", help='choices of t, e.g. "2 4"')
    ap.add_argument("-o", "--outdir", default=None, help="write the programs here")
    ap.add_argument("--print", action="store_true", help="print the configuration")
    ap.add_argument("--training", action="store_true",
                    help="a training program (bench/gen_train_graph.py)")
    ns = ap.parse_args(argv)
    ranks = [int(r) for r in ns.ranks.split()]
    if ns.training:
        cfg = training_config_for(ns.seed, ranks)
        if ns.print or not ns.outdir:
            print(shlex.join(cfg["gen"]) + " t=%d" % cfg["tp"])
        if ns.outdir:
            os.makedirs(ns.outdir, exist_ok=True)
            write_training(cfg, ns.seed, ns.outdir)
        return 0
    cfg = config_for(ns.seed, ranks)
    if ns.print or not ns.outdir:
        print(describe(cfg))
    if ns.outdir:
        os.makedirs(ns.outdir, exist_ok=True)
        for tp, name in ((1, "p1.mlir"), (cfg["tp"], "tp.mlir")):
            subprocess.run([sys.executable, GEN] + gen_args(cfg, tp) +
                           ["-o", os.path.join(ns.outdir, name)], check=True)
        forms = forms_for(ns.seed, cfg)
        for extra, name in ((form_args(forms) + ["--form", "plain"], "plain.mlir"),
                            (form_args(forms, narrow=False), "p1f.mlir")):
            subprocess.run([sys.executable, GEN] + gen_args(cfg, 1) + extra +
                           ["-o", os.path.join(ns.outdir, name)], check=True)
        inputs = []
        if forms["pads"]:
            inputs = write_inputs(os.path.join(ns.outdir, "plain.mlir"), forms, cfg["run_seed"], ns.outdir)
        with open(os.path.join(ns.outdir, "config.txt"), "w") as fh:
            fh.write("seed=%d\n" % ns.seed)
            fh.write("ranks=%d\n" % cfg["tp"])
            fh.write("gen=%s\n" % shlex.join(gen_args(cfg, cfg["tp"])[:-2]))
            fh.write("sp_options=%s\n" % sp_options(cfg))
            fh.write("run_seed=%d\n" % cfg["run_seed"])
            fh.write("forms=%s\n" % shlex.join(form_args(forms)))
            fh.write("forms_desc=%s\n" % describe_forms(forms))
            fh.write("ref=p1f.mlir\n")
            fh.write("inputs=%s\n" % ",".join(inputs))
            fh.write("cp_options=%s\n" % cp_options_forward(ns.seed, cfg))
            fh.write("expect=%s\n" % " ".join(map(str, expected_plan(cfg, forms))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
