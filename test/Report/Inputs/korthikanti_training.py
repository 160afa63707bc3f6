#!/usr/bin/env python3
"""What a training graph saves for backward (seqpar-report's "saved for
backward", read from the joint program) against Korthikanti et al. 2022,
Table 2, and the seeds' 70B numbers.

bench/gen_train_graph.py writes a GPT training graph (bf16, dropout on the
attention probabilities, after the attention and after the MLP, masks kept
as i1 tensors): the single-device program (no parallelism) and the Megatron
TP per-rank program, both cleaned up by `seqpar-opt --canonicalize --cse`;
TP+SP is seqpar-sp-pipeline of the TP program (input-sharded, so every layer
is alike). The paper's formulas, bytes per layer and rank, s b h the
sequence, batch and hidden sizes:

  no parallelism  sbh (34 + 5as/h)
  TP              sbh (10 + 24/t + 5as/(ht))
  TP+SP           sbh/t (34 + 5as/h)

The generated layer keeps what the paper counts, except:
  * each LayerNorm keeps its normalized input x^ = (x - mean) rstd (the
    same 2sbh as the paper's input x) and its rstd [s, b, 1] (2sb, which the
    paper leaves out): + 4sb per layer (two norms; / t where sharded);
  * the first layer's first norm needs no rstd: the training graph returns
    no gradient for its input x, so the backward of that norm's input is
    dead and canonicalization removes it: layer 0 keeps 2sb (/ t) less;
  * TP+SP: the SP pass all-gathers each norm output before the
    column-parallel linears (QKV, MLP in), and the weight-gradient matmuls
    of the backward read them again. By default the pipeline saves them
    sharded and re-gathers them in backward (seqpar-save-sharded,
    docs/semantics.md §10): what the program stores equals the formula
    (+ 4sb/t). With save-gathered=true it keeps them gathered:
    + 2 * 2sbh (t-1)/t, and seqpar-report's "saved sharded" figure for that
    program is again the formula.

Each expected figure is computed here from the formula, never read from the
output. Prints one line per check; exits 1 on any mismatch.

Usage: korthikanti_training.py SEQPAR_OPT SEQPAR_REPORT GEN_TRAIN_GRAPH WORKDIR
"""

import json
import os
import subprocess
import sys

OPT, REPORT, GEN, WORK = sys.argv[1:5]
E = 2  # bf16 bytes


def run(cmd):
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{done.stderr}")
    return done.stdout


def program(s, h, a, t, b, layers, sp, save_gathered=False):
    name = f"gpt_s{s}_h{h}_a{a}_t{t}_b{b}_l{layers}"
    raw = os.path.join(WORK, name + ".mlir")
    run([sys.executable, GEN, "--model", "gpt", "--layers", str(layers),
         "--tp", str(t), "--dtype", "bf16", "--dropout", "0.1", "--seq",
         str(s), "--hidden", str(h), "--heads", str(a), "--batch", str(b),
         "-o", raw])
    out = os.path.join(WORK, name + (".sp" if sp else ".clean") +
                       (".gathered" if save_gathered else "") + ".mlir")
    options = "input-sharded=true" + (" save-gathered=true" if save_gathered
                                      else "")
    passes = ([f"--seqpar-sp-pipeline={options}"] if sp else
              ["--canonicalize", "--cse"])
    run([OPT, raw, *passes, "-o", out])
    return out


def saved(path):
    report = json.loads(run([REPORT, path, "--json", "--peak=false"]))[0]
    part = report["saved_for_backward"]
    return ([layer["bytes"] for layer in part["layers"]],
            [layer["sharded_bytes"] for layer in part["layers"]])


failures = 0


def check(label, got, expected):
    """got: per-layer bytes; expected: (layer 0, every other layer)."""
    global failures
    want = [expected[0]] + [expected[1]] * (len(got) - 1)
    ok = got == want
    failures += not ok
    print(f"{label}: layers {got[:3]}{' ...' if len(got) > 3 else ''} "
          f"expected {want[:3]}{' ...' if len(want) > 3 else ''} "
          f"{'ok' if ok else 'MISMATCH'}")


def gpt(s, h, a, t, b=1, layers=2):
    sbh = s * b * h * E // 2  # the paper's sbh: its terms count 2-byte values
    sb = s * b * E // 2
    score = 5 * a * s * s * b  # 5as/h * sbh
    tag = f"gpt s={s} h={h} a={a} t={t} b={b}"
    if t == 1:
        none = sbh * 34 + score + 4 * sb
        got, _ = saved(program(s, h, a, 1, b, layers, sp=False))
        check(tag + " no parallelism", got, (none - 2 * sb, none))
        return None
    tp = sbh * 10 + sbh * 24 // t + score // t + 4 * sb
    got_tp, _ = saved(program(s, h, a, t, b, layers, sp=False))
    check(tag + " TP", got_tp, (tp - 2 * sb, tp))
    sp = (sbh * 34 + score) // t + 4 * sb // t
    gathered = 2 * 2 * sbh * (t - 1) // t
    got_sp, _ = saved(program(s, h, a, t, b, layers, sp=True))
    check(tag + " TP+SP (saved sharded, the default)", got_sp,
          (sp - 2 * sb // t, sp))
    if layers <= 2:  # the 80-layer graph: the default only
        got_kept, got_sharded = saved(
            program(s, h, a, t, b, layers, sp=True, save_gathered=True))
        check(tag + " TP+SP save-gathered, as stored", got_kept,
              (sp - 2 * sb // t + gathered, sp + gathered))
        check(tag + " TP+SP save-gathered, its saved-sharded figure",
              got_sharded, (sp - 2 * sb // t, sp))
    return got_tp, got_sp


gpt(16, 64, 4, 1)
gpt(16, 64, 4, 2)
gpt(48, 96, 6, 3, b=2)
gpt(64, 128, 8, 4)

# The seeds' 70B example, 80 layers (h = 8192, a = 64, t = 8, s = 16384,
# b = 1; shapes only). The TP region is the same in both programs, so the
# report's TP - TP+SP per layer is the non-TP region's (t-1)/t: 10sbh (+ the
# two rstd, 4sb) under TP, 1/t of it under TP+SP.
s, h, a, t, layers = 16384, 8192, 64, 8, 80
got_tp, got_sp = gpt(s, h, a, t, layers=layers)
non_tp = [(x - y) * t // (t - 1) for x, y in zip(got_tp, got_sp)]
total_tp, total_sp = sum(non_tp), sum(non_tp) // t
sbh, sb = s * h, s
expected = layers * (10 * sbh + 4 * sb) - 2 * sb  # layer 0: no first rstd
ok = total_tp == expected and all(n == non_tp[1] for n in non_tp[1:])
failures += not ok
print(f"70B non-TP region per layer: TP {non_tp[1]} bytes "
      f"({non_tp[1] / 1e9:.2f} GB), TP+SP {non_tp[1] // t} bytes "
      f"({non_tp[1] / t / 1e6:.1f} MB); over {layers} layers "
      f"{total_tp / 1e9:.1f} GB -> {total_sp / 1e9:.1f} GB; expected "
      f"{layers} x (10sbh + 4sb) - 2sb = {expected} "
      f"{'ok' if ok else 'MISMATCH'}")
sys.exit(1 if failures else 0)
