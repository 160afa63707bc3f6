#!/usr/bin/env python3
"""Merge a reference and a candidate function into one executable check module.

Usage:
  make_exec_check.py REF.mlir CAND.mlir [--names ORIG.mlir] [--tol 1e-5] [-o OUT]

REF.mlir and CAND.mlir are modules printed by seqpar-opt with
`-mlir-print-local-scope` (no attribute aliases, so their texts can be pasted
into one module) after `--seqpar-test-simulate-ranks
--symbol-privatize=exclude=forward_simulated --symbol-dce`: each holds one
public `@forward_simulated` with a global (single-device) signature of static
f32 tensors. REF's function is renamed `@reference`; CAND's keeps its name.
Both signatures must be equal (this also checks the global types the
simulation derives from the sharding attributes).

The emitted `@main` (no arguments) builds deterministic inputs in MLIR:
  arg k, element with row-major linear index i:  off + scale * sin(0.37 * i + k)
with scale 1 for the first argument (activations), 0.1 for 1-D arguments
(biases, norm betas) plus off 1 for norm gammas (argument names ending in `_g`
taken from --names, the generator's unprocessed module), and 1/sqrt(dim 0)
for other weights. It calls both functions and prints, per output j,
  err_j = max|cand - ref| / max(1, max|ref|)        (docs/semantics.md §1)
then the maximum over outputs and `pass: 1` when err <= tol, else `pass: 0`
(NaN anywhere fails). Only the Python standard library is used; every number
is computed by the lowered MLIR.
"""

import argparse
import math
import re
import sys

FUNC = "forward_simulated"


def die(msg):
    sys.exit(f"make_exec_check.py: error: {msg}")


def module_body(text, path):
    """The text between `module ... {` and the module's closing brace."""
    m = re.search(r"^module\b[^{]*\{", text, re.M)
    if not m or re.search(r"^#\w+ = ", text, re.M):
        die(f"{path}: expected a module without attribute aliases "
            "(print with -mlir-print-local-scope)")
    return text[m.end(): text.rindex("}")]


def split_types(s):
    """Splits a comma-separated type list at top level (outside <>)."""
    out, depth, cur = [], 0, ""
    for ch in s:
        depth += ch == "<"
        depth -= ch == ">"
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def signature(body, path):
    """(arg types, result types) of @forward_simulated."""
    m = re.search(r"func\.func @" + FUNC + r"\((.*?)\)(?: -> (.*?))? \{",
                  body)
    if not m:
        die(f"{path}: no public func.func @{FUNC}")
    args = [a.split(":", 1)[1].strip() for a in split_types(m.group(1))]
    res = (m.group(2) or "").strip()
    if res.startswith("("):
        res = res[1:-1]
    results = split_types(res)
    for ty in args + results:
        if not re.fullmatch(r"tensor<(\d+x)*f32>", ty):
            die(f"{path}: only static f32 tensors are supported, got {ty}")
    return args, results


def shape(ty):
    return [int(d) for d in ty[len("tensor<"):-1].split("x")[:-1]]


def arg_names(path, count):
    """Argument names of the first function in the generator's module."""
    if not path:
        return [""] * count
    text = open(path).read()
    m = re.search(r"func\.func @\w+\((.*?)\)\s*(->|\{)", text, re.S)
    names = re.findall(r"%([\w.$-]+)\s*:", m.group(1)) if m else []
    if len(names) != count:
        die(f"{path}: found {len(names)} argument names, expected {count}")
    return names


def identity_map(rank):
    dims = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({dims}) -> ({dims})>"


def iterators(kind, rank):
    return ", ".join([f'"{kind}"'] * rank)


def f32(x):
    return f"{x:.9e}"


def emit_input(k, ty, name):
    """SSA lines building argument k; returns (lines, value name)."""
    dims = shape(ty)
    if k == 0:
        scale, off = 1.0, 0.0
    elif len(dims) == 1:
        is_gamma = re.search(r"(^|_)g$|gamma", name) is not None
        scale, off = 0.1, (1.0 if is_gamma else 0.0)
    else:
        scale, off = 1.0 / math.sqrt(dims[0]), 0.0
    p = f"%in{k}_"
    lines = [f"    {p}e = tensor.empty() : {ty}",
             f"    {p}v = linalg.generic {{indexing_maps = "
             f"[{identity_map(len(dims))}], iterator_types = "
             f"[{iterators('parallel', len(dims))}]}} "
             f"outs({p}e : {ty}) {{",
             f"    ^bb0({p}o: f32):"]
    lin = None
    for d, size in enumerate(dims):
        lines.append(f"      {p}i{d} = linalg.index {d} : index")
        if lin is None:
            lin = f"{p}i{d}"
            continue
        lines += [f"      {p}n{d} = arith.constant {size} : index",
                  f"      {p}m{d} = arith.muli {lin}, {p}n{d} : index",
                  f"      {p}l{d} = arith.addi {p}m{d}, {p}i{d} : index"]
        lin = f"{p}l{d}"
    lines += [
        f"      {p}li = arith.index_cast {lin} : index to i64",
        f"      {p}lf = arith.sitofp {p}li : i64 to f32",
        f"      {p}c = arith.constant {f32(0.37)} : f32",
        f"      {p}k = arith.constant {f32(float(k))} : f32",
        f"      {p}x = arith.mulf {p}lf, {p}c : f32",
        f"      {p}y = arith.addf {p}x, {p}k : f32",
        f"      {p}s = math.sin {p}y : f32",
        f"      {p}sc = arith.constant {f32(scale)} : f32",
        f"      {p}of = arith.constant {f32(off)} : f32",
        f"      {p}z = arith.mulf {p}s, {p}sc : f32",
        f"      {p}r = arith.addf {p}z, {p}of : f32",
        f"      linalg.yield {p}r : f32",
        f"    }} -> {ty}"]
    return lines, f"{p}v"


def emit_error(j, ty, out, ref):
    """SSA lines computing err_j of output j; returns (lines, err value)."""
    rank = len(shape(ty))
    dims = ", ".join(f"d{i}" for i in range(rank))
    p = f"%err{j}_"
    lines = [
        f"    {p}e = tensor.empty() : tensor<f32>",
        f"    {p}i = linalg.fill ins(%zero : f32) outs({p}e : tensor<f32>) "
        f"-> tensor<f32>",
        f"    {p}red:2 = linalg.generic {{indexing_maps = "
        f"[{identity_map(rank)}, {identity_map(rank)}, "
        f"affine_map<({dims}) -> ()>, affine_map<({dims}) -> ()>], "
        f"iterator_types = [{iterators('reduction', rank)}]}} "
        f"ins({out}, {ref} : {ty}, {ty}) outs({p}i, {p}i : tensor<f32>, "
        f"tensor<f32>) {{",
        f"    ^bb0({p}a: f32, {p}b: f32, {p}md: f32, {p}mr: f32):",
        f"      {p}d = arith.subf {p}a, {p}b : f32",
        f"      {p}ad = math.absf {p}d : f32",
        f"      {p}ab = math.absf {p}b : f32",
        f"      {p}nd = arith.maximumf {p}md, {p}ad : f32",
        f"      {p}nr = arith.maximumf {p}mr, {p}ab : f32",
        f"      linalg.yield {p}nd, {p}nr : f32, f32",
        f"    }} -> (tensor<f32>, tensor<f32>)",
        f"    {p}xd = tensor.extract {p}red#0[] : tensor<f32>",
        f"    {p}xr = tensor.extract {p}red#1[] : tensor<f32>",
        f"    {p}den = arith.maximumf {p}xr, %one : f32",
        f"    {p}v = arith.divf {p}xd, {p}den : f32",
        f"    vector.print str \"output {j}: err = \"",
        f"    vector.print {p}v : f32"]
    return lines, f"{p}v"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ref")
    ap.add_argument("cand")
    ap.add_argument("--names", help="generator module giving argument names")
    ap.add_argument("--tol", type=float, default=1e-5)
    ap.add_argument("-o", "--output", default="-")
    opts = ap.parse_args()

    ref = module_body(open(opts.ref).read(), opts.ref)
    cand = module_body(open(opts.cand).read(), opts.cand)
    args, results = signature(ref, opts.ref)
    if signature(cand, opts.cand) != (args, results):
        die(f"signatures differ: {opts.ref}: {signature(ref, opts.ref)}; "
            f"{opts.cand}: {signature(cand, opts.cand)}")
    ref = ref.replace("@" + FUNC, "@reference")
    sym = r"func\.func (?:private )?@([\w.$-]+)"
    clash = set(re.findall(sym, ref)) & set(re.findall(sym, cand))
    if clash:
        die(f"symbols defined in both modules: {sorted(clash)}")

    names = arg_names(opts.names, len(args))
    body, ins = [], []
    for k, ty in enumerate(args):
        lines, v = emit_input(k, ty, names[k])
        body += lines
        ins.append(v)
    fty = f"({', '.join(args)}) -> ({', '.join(results)})"
    n = len(results)
    head = f"%ref:{n}" if n > 1 else "%ref"
    body.append(f"    {head} = func.call @reference({', '.join(ins)}) : {fty}")
    body.append(f"    {head.replace('ref', 'out')} = func.call @{FUNC}"
                f"({', '.join(ins)}) : {fty}")
    body += [f"    %zero = arith.constant {f32(0.0)} : f32",
             f"    %one = arith.constant {f32(1.0)} : f32",
             f"    %tol = arith.constant {f32(opts.tol)} : f32"]
    worst = "%zero"
    for j, ty in enumerate(results):
        sel = f"#{j}" if n > 1 else ""
        lines, err = emit_error(j, ty, f"%out{sel}", f"%ref{sel}")
        body += lines
        body.append(f"    %worst{j} = arith.maximumf {worst}, {err} : f32")
        worst = f"%worst{j}"
    body += [f"    vector.print str \"err = \"",
             f"    vector.print {worst} : f32",
             f"    %ok = arith.cmpf ole, {worst}, %tol : f32",
             f"    %oki = arith.extui %ok : i1 to i32",
             f"    vector.print str \"pass: \"",
             f"    vector.print %oki : i32",
             f"    return"]

    text = ("// Generated by test/lib/make_exec_check.py: @reference vs "
            f"@{FUNC}.\nmodule {{\n{ref}\n{cand}\n"
            "  func.func @main() {\n" + "\n".join(body) + "\n  }\n}\n")
    if opts.output == "-":
        sys.stdout.write(text)
    else:
        with open(opts.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
