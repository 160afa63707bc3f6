#!/usr/bin/env python3
"""Generation step for step: a prefill followed by decode steps, on one
device and on N ranks, compared at every step (docs/decode.md, "Prefill
then decode").

Runs the single-device prefill export on generated inputs (the prompt and
the weights), then its per-rank program on the same inputs; writes each
layer's K/V into caches of L_max slots (slots 0 .. s-1, zeros after); then
`--steps` times runs the single-device decode step and its per-rank program
on the same new tokens, L = s, s + T, ..., carrying each run's own caches
into its next step. seqpar-run assembles the per-rank outputs by their
#seqpar.sharding (block-cyclic, zigzag or contiguous) and cuts the next
program's inputs by its own, so every step checks that the two programs
agree on where each token lives. Prints the err (docs/semantics.md §1) of
every output at every step and exits 1 when one exceeds --tol.

Standard library only: the .npy helpers and the single-device wrapper come
from tools/seqpar-import/check-import.
"""
import argparse
import importlib.machinery
import importlib.util
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK_IMPORT = os.path.join(HERE, "..", "..", "tools", "seqpar-import",
                            "check-import")


def load_check_import():
    loader = importlib.machinery.SourceFileLoader("check_import", CHECK_IMPORT)
    spec = importlib.util.spec_from_loader("check_import", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


ci = load_check_import()


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout + proc.stderr)
        sys.exit("decode_chain: failed (exit %d): %s"
                 % (proc.returncode, " ".join(cmd)))


def read(path):
    with open(path, "rb") as f:
        return ci.read_npy(f.read(), path)


def seqpar_run(a, program, ranks, inputs, prefix):
    """Runs `program` on `ranks` ranks on the .npy `inputs`; the outputs'
    (shape, values) in order."""
    cmd = ([a.seqpar_run] if ranks == 1 else a.launcher.split() + [str(ranks),
                                                                   a.seqpar_run])
    run(cmd + [program, "--entry=main", "--inputs=" + ",".join(inputs),
               "--output-prefix=" + prefix])
    outputs, k = [], 0
    while os.path.exists("%s%d.npy" % (prefix, k)):
        shape, values, _ = read("%s%d.npy" % (prefix, k))
        outputs.append((shape, values))
        k += 1
    return outputs


def single(a, path, name):
    """The export at `path` as a one-rank program (check-import's wrapper)."""
    with open(path) as f:
        text = ci.single_device(f.read())
    out = os.path.join(a.work, name)
    with open(out, "w") as f:
        f.write(text)
    return out


def cache_from_prompt(shape, values, slots):
    """[b, h, s, d] K or V -> [b, h, slots, d], slots 0 .. s-1 filled."""
    b, h, s, d = shape
    cache = [0.0] * (b * h * slots * d)
    for i in range(b * h):
        cache[i * slots * d:i * slots * d + s * d] = values[i * s * d:(i + 1) * s * d]
    return (b, h, slots, d), cache


def write(a, name, shape, values, elem="f32"):
    path = os.path.join(a.work, name)
    ci.write_npy(path, shape, values, elem)
    return path


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--prefill", required=True, help="single-device prefill "
                   "export (seqpar-import --prefill-cache)")
    p.add_argument("--prefill-ranks", required=True, help="its per-rank program")
    p.add_argument("--step", required=True, help="single-device decode step "
                   "export of the same model (seqpar-import --decode T)")
    p.add_argument("--step-ranks", required=True, help="its per-rank program")
    p.add_argument("--ranks", type=int, required=True,
                   help="ranks of the per-rank programs")
    p.add_argument("--steps", type=int, required=True, help="decode steps")
    p.add_argument("--seqpar-run", required=True)
    p.add_argument("--launcher", required=True,
                   help="e.g. 'mpirun -np' (the rank count is appended)")
    p.add_argument("--work", required=True, help="directory for the arrays")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--tol", type=float, default=1e-5)
    a = p.parse_args()
    if a.ranks < 1 or a.steps < 1:
        p.error("--ranks and --steps must be >= 1")
    os.makedirs(a.work, exist_ok=True)

    prefill = single(a, a.prefill, "prefill-single.mlir")
    step = single(a, a.step, "step-single.mlir")
    # The prompt and the weights: the inputs seqpar-run generates (--seed).
    inputs_prefix = os.path.join(a.work, "prompt")
    run([a.seqpar_run, prefill, "--entry=main", "--seed=%d" % a.seed,
         "--save-inputs=" + inputs_prefix])
    prompt = sorted((f for f in os.listdir(a.work) if f.startswith("prompt")),
                    key=lambda f: int(f[len("prompt"):-len(".npy")]))
    prompt = [os.path.join(a.work, f) for f in prompt]
    weights = prompt[1:]
    seq = read(prompt[0])[0][1]

    worst = 0.0

    def compare(what, outs, refs):
        nonlocal worst
        errs = []
        for k, ((shape, out), (ref_shape, ref)) in enumerate(zip(outs, refs)):
            if shape != ref_shape:
                sys.exit("decode_chain: %s output %d: shape %s, reference %s"
                         % (what, k, shape, ref_shape))
            errs.append(ci.max_err(out, ref))
        worst = max([worst] + errs)
        print("%s: err %s" % (what, " ".join("%.3g" % e for e in errs)))

    ref = seqpar_run(a, prefill, 1, prompt, os.path.join(a.work, "p-ref"))
    dist = seqpar_run(a, a.prefill_ranks, a.ranks, prompt,
                      os.path.join(a.work, "p-dist"))
    compare("prefill (s = %d)" % seq, dist, ref)

    # The step's arguments: x, the caches, L, the weights.
    with open(a.step) as f:
        header = f.read()
    num_caches = len(ci.result_names(header)) - 1
    m = re.search(r"^//   %arg0: x (\d+)x(\d+)x(\d+)xf32$", header, re.M)
    m_cache = re.search(r"^//   %arg1: .* (\d+)x(\d+)x(\d+)x(\d+)xf32$",
                        header, re.M)
    if not m or not m_cache:
        sys.exit("decode_chain: %s has no 'x BxTxH' or cache line in its "
                 "header (a seqpar-import --decode export)" % a.step)
    b, t, h = (int(v) for v in m.groups())
    slots = int(m_cache.group(3))
    caches = {"ref": [cache_from_prompt(*kv, slots) for kv in ref[1:]],
              "dist": [cache_from_prompt(*kv, slots) for kv in dist[1:]]}
    if len(caches["ref"]) != num_caches:
        sys.exit("decode_chain: the prefill returns %d K/V, the step reads %d "
                 "caches" % (len(caches["ref"]), num_caches))
    rng = random.Random(a.seed)
    for j in range(a.steps):
        length = seq + j * t
        if length + t > slots:
            sys.exit("decode_chain: step %d would write slots %d .. %d of %d"
                     % (j, length, length + t - 1, slots))
        x = write(a, "x%d.npy" % j, (b, t, h),
                  [rng.uniform(-1.0, 1.0) for _ in range(b * t * h)])
        lpath = write(a, "L%d.npy" % j, (), [length], "i64")
        outs = {}
        for who, program, ranks in (("ref", step, 1),
                                    ("dist", a.step_ranks, a.ranks)):
            cache_paths = [write(a, "%s-cache%d-%d.npy" % (who, j, k), *c)
                           for k, c in enumerate(caches[who])]
            outs[who] = seqpar_run(a, program, ranks,
                                   [x] + cache_paths + [lpath] + weights,
                                   os.path.join(a.work, "s%d-%s" % (j, who)))
            caches[who] = outs[who][1:]
        compare("step %d (L = %d, T = %d)" % (j, length, t), outs["dist"],
                outs["ref"])
    ok = worst <= a.tol
    print("chain: prefill + %d steps, max err = %.3g (tol %g) %s"
          % (a.steps, worst, a.tol, "ok" if ok else "FAIL"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
