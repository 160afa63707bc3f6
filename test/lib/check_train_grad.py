#!/usr/bin/env python3
"""Finite-difference check of a generated training graph's backward.

Runs a `bench/gen_train_graph.py --form fdcheck` module with seqpar-run (one
rank) twice: on seqpar-run's generated inputs, then with every
`--ignore-every`-th label set to -100 (ignore_index), and reads its three
results per parameter p: rel_p = |<grad_p, v_p> - fd_p| / max(|fd_p|,
|<grad_p, v_p>|, 1e-3), the analytic directional derivative and the central
difference, all computed in f64. Prints one line per run (the largest rel and
its parameter; every parameter with -v) and exits 1 when a rel is above
--tol. Standard library only (the .npy helpers of tools/seqpar-import/
check-import).

Usage: check_train_grad.py MODULE [--seqpar-run PATH] [--tol T]
                           [--ignore-every K] [--keep DIR] [-v]
"""
import argparse
import importlib.machinery
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load_npy_helpers():
    """tools/seqpar-import/check-import as a module (its .npy helpers)."""
    path = os.path.join(ROOT, "tools", "seqpar-import", "check-import")
    loader = importlib.machinery.SourceFileLoader("check_import", path)
    spec = importlib.util.spec_from_loader("check_import", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def run(seqpar_run, module, prefix, extra):
    """Runs `module` on one rank, its results written as <prefix><k>.npy."""
    r = subprocess.run([seqpar_run, module, "--output-prefix=" + prefix] + extra,
                       capture_output=True, text=True)
    if r.returncode:
        sys.exit("check_train_grad: seqpar-run failed (exit %d):\n%s"
                 % (r.returncode, (r.stdout + r.stderr)[-4000:]))


def main(argv=None):
    """Entry point: both runs and the per-parameter comparison."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("module")
    ap.add_argument("--seqpar-run", default=os.path.join(ROOT, "build", "bin", "seqpar-run"))
    ap.add_argument("--tol", type=float, default=1e-6)
    ap.add_argument("--ignore-every", type=int, default=3, metavar="K",
                    help="second run: 1 label in K set to -100 (default %(default)s)")
    ap.add_argument("--keep", metavar="DIR")
    ap.add_argument("-v", "--verbose", action="store_true")
    ns = ap.parse_args(argv)
    if not ns.tol >= 0:
        ap.error("--tol must be a non-negative number (got %s)" % ns.tol)
    if ns.ignore_every < 1:
        ap.error("--ignore-every must be positive (got %d)" % ns.ignore_every)
    npy = load_npy_helpers()
    with open(ns.module) as f:
        text = f.read()
    m = re.search(r"^// arguments: (.*)$", text, re.M)
    if not m or "form=fdcheck" not in text:
        sys.exit("check_train_grad: %s is not a gen_train_graph.py --form fdcheck module" % ns.module)
    params = m.group(1).split()[2:]
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        d = ns.keep or tmp
        os.makedirs(d, exist_ok=True)
        n_args = len(params) + 2
        run(ns.seqpar_run, ns.module, os.path.join(d, "gen"), ["--save-inputs=" + os.path.join(d, "in")])
        labels = os.path.join(d, "in1.npy")
        with open(labels, "rb") as f:
            shape, values, elem = npy.read_npy(f.read(), labels)
        values = [-100 if i % ns.ignore_every == 0 else v for i, v in enumerate(values)]
        npy.write_npy(os.path.join(d, "ign1.npy"), shape, values, elem)
        inputs = [os.path.join(d, "in%d.npy" % i) for i in range(n_args)]
        inputs[1] = os.path.join(d, "ign1.npy")
        run(ns.seqpar_run, ns.module, os.path.join(d, "ign"), ["--inputs=" + ",".join(inputs)])
        for prefix, what in (("gen", "generated labels"),
                             ("ign", "1 label in %d set to -100" % ns.ignore_every)):
            rel, an, fd = (npy.read_npy(open(os.path.join(d, "%s%d.npy" % (prefix, k)), "rb").read(),
                                        "%s%d.npy" % (prefix, k))[1] for k in range(3))
            if len(rel) != len(params):
                sys.exit("check_train_grad: %d results for %d parameters" % (len(rel), len(params)))
            worst = max(range(len(rel)), key=lambda i: rel[i])
            for i, name in enumerate(params):
                bad = not rel[i] <= ns.tol
                if ns.verbose or bad:
                    print("  %-12s grad.v = %-14.8g fd = %-14.8g rel = %.3g%s"
                          % (name, an[i], fd[i], rel[i], " FAIL" if bad else ""))
                ok = ok and not bad
            print("%s (%s): %d parameters, max rel = %.3g (%s) (tol %g) %s"
                  % (os.path.basename(ns.module), what, len(params), rel[worst], params[worst], ns.tol,
                     "ok" if max(rel) <= ns.tol else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
