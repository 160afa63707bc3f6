#!/usr/bin/env python3
"""Writes a bad variant of a training graph of bench/gen_train_graph.py
(`--model gpt --flatten --form plain`, layout bsh): the input classes that
docs/training-graphs.md ("Bad input") says what seqpar does with.

Variants (--variant):
  loss-tokens       result #0 is the per-token loss [b, s], not the mean
  loss-row          result #0 is the loss summed over the batch, [s]
  extra-activation  one more result: the MLP's GELU output flattened to
                    [b*s, ffn] (typed as the fc1 weight when b*s = h)
  extra-product     one more result: ln2(x)^T . gelu, [h, ffn] (typed as the
                    fc1 weight, but no parameter's gradient)
  grad-twice        the fc1 weight's gradient returned a second time
  grad-transposed   one more result: the fc1 weight's gradient transposed,
                    [ffn, h] (typed as the fc2 weight)
  grad-shape        the fc1 weight's gradient replaced by its transpose: the
                    result's shape is not its parameter's
  call-private      the backward's GELU gradient goes through a call to a
                    private function with a body (scales it by 0.5)
  call-external     the same call, to an external declaration
  tosa-reverse      the backward's GELU gradient reversed along its features
                    (tosa.reverse, axis 2) before the fc1 weight gradient
  generic-reverse   the same with a linalg.generic whose input map reads
                    feature ffn-1-j
  generic-index     the backward's GELU gradient scaled by (1 + its feature
                    index / ffn) (linalg.index of the split loop)
  returns-nothing   the function returns nothing
  mismatched-types  the signature says result #0 is tensor<1xf32>, the
                    return gives tensor<f32>

Usage: bad_train_graph.py IN OUT --variant V
"""
import argparse
import re
import sys


class Graph:
    """The text of one generated training graph and its names."""

    def __init__(self, text):
        self.text = text
        m = re.search(r"^// model=\S+ .*$", text, re.M)
        self.params = dict(kv.split("=") for kv in m.group(0)[3:].split())
        m = re.search(r"^// results: (.*)$", text, re.M)
        self.result_names = m.group(1).split()
        self.b, self.s, self.h = (int(self.params[k]) for k in "bsh")
        self.ffn = int(re.search(r"%l0_w_fc1: tensor<\d+x(\d+)xf32>",
                                 text).group(1))
        self.counter = 0

    # The return and the signature.
    def returned(self):
        m = list(re.finditer(r"^( *)return (.*) : (.*)$", self.text, re.M))[-1]
        return m, m.group(2).split(", "), m.group(3).split(", ")

    def signature(self):
        return re.search(r"\n      -> \((.*)\) \{\n", self.text)

    def set_results(self, values, types):
        m, _, _ = self.returned()
        ret = "%sreturn %s : %s" % (m.group(1), ", ".join(values),
                                    ", ".join(types)) if values else \
            m.group(1) + "return"
        self.text = self.text[:m.start()] + ret + self.text[m.end():]
        s = self.signature()
        self.text = self.text[:s.start(1)] + ", ".join(types) + \
            self.text[s.end(1):]

    def result(self, name):
        _, values, types = self.returned()
        i = self.result_names.index(name)
        return values[i], types[i]

    def append_result(self, value, type_):
        _, values, types = self.returned()
        self.set_results(values + [value], types + [type_])

    def replace_result(self, index, value, type_):
        _, values, types = self.returned()
        values[index], types[index] = value, type_
        self.set_results(values, types)

    def before_return(self, lines):
        m, _, _ = self.returned()
        self.text = self.text[:m.start()] + "".join(
            "    %s\n" % l for l in lines) + self.text[m.start():]

    def fresh(self, stem):
        self.counter += 1
        return "%%bad_%s%d" % (stem, self.counter)

    def defined(self, pattern):
        """The first value whose name matches `pattern` (%gelu\\d+)."""
        return re.search(r"^ *(%s) = " % pattern, self.text, re.M).group(1)

    def after_op(self, value, lines, reroute=True):
        """Inserts `lines` after the op defining `value`; with `reroute`,
        the later uses of `value` read the last line's result instead."""
        start = re.search(r"^ *%s = .*$" % re.escape(value), self.text, re.M)
        end = start.end()
        if start.group(0).rstrip().endswith("{"):
            end = re.compile(r"^ *\} -> .*$", re.M).search(self.text,
                                                            end).end()
        new = re.match(r"\s*(%\w+) =", lines[-1]).group(1)
        rest = self.text[end:]
        if reroute:
            rest = re.sub(re.escape(value) + r"\b", new, rest)
        self.text = self.text[:end] + "\n" + "\n".join(
            "    " + l for l in lines) + rest

    def transpose(self, value, rows, cols):
        e, t = self.fresh("e"), self.fresh("tr")
        return t, [
            "%s = tensor.empty() : tensor<%dx%dxf32>" % (e, cols, rows),
            "%s = linalg.transpose ins(%s : tensor<%dx%dxf32>) outs(%s : "
            "tensor<%dx%dxf32>) permutation = [1, 0]" % (t, value, rows, cols,
                                                         e, cols, rows)]

    def zero(self, shape):
        e, f = self.fresh("e"), self.fresh("zero")
        t = "tensor<%sxf32>" % "x".join(map(str, shape))
        return f, [
            "%s = tensor.empty() : %s" % (e, t),
            "%s = arith.constant 0.000000000e+00 : f32" % (f + "c"),
            "%s = linalg.fill ins(%s : f32) outs(%s : %s) -> %s" % (
                f, f + "c", e, t, t)]


def act_type(g):
    return "tensor<%dx%dx%dxf32>" % (g.b, g.s, g.ffn)


def custom_on_dgelu(g, build):
    """Routes the backward's GELU gradient through the op `build` writes."""
    dgelu = g.defined(r"%dgelu\d+")
    g.after_op(dgelu, build(dgelu))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--variant", required=True)
    ns = ap.parse_args(argv)
    g = Graph(open(ns.input).read())
    if g.params.get("model") != "gpt" or g.params.get("layout") != "bsh" or \
            g.params.get("flatten") != "1" or g.params.get("form") != "plain":
        sys.exit("bad_train_graph: expects --model gpt --flatten --form plain")
    b, s, h, ffn = g.b, g.s, g.h, g.ffn
    v = ns.variant
    if v == "loss-tokens":
        g.replace_result(0, g.defined(r"%nll\d+"), "tensor<%dx%dxf32>" % (b, s))
    elif v == "loss-row":
        zero, lines = g.zero([s])
        row = g.fresh("row")
        nll = g.defined(r"%nll\d+")
        lines.append(
            "%s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> "
            "(d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = "
            "[\"reduction\", \"parallel\"]} ins(%s : tensor<%dx%dxf32>) "
            "outs(%s : tensor<%dxf32>) {\n    ^bb0(%%a: f32, %%o: f32):\n"
            "      %%r = arith.addf %%o, %%a : f32\n      linalg.yield %%r : "
            "f32\n    } -> tensor<%dxf32>" % (row, nll, b, s, zero, s, s))
        g.before_return(lines)
        g.replace_result(0, row, "tensor<%dxf32>" % s)
    elif v == "extra-activation":
        act = g.fresh("act")
        g.before_return([
            "%s = tensor.collapse_shape %s [[0, 1], [2]] : %s into "
            "tensor<%dx%dxf32>" % (act, g.defined(r"%gelu\d+"), act_type(g),
                                   b * s, ffn)])
        g.append_result(act, "tensor<%dx%dxf32>" % (b * s, ffn))
    elif v == "extra-product":
        fc1_in = re.search(r"linalg\.matmul ins\((%\w+), %l0_w_fc1 ",
                           g.text).group(1)
        act = g.fresh("act")
        lines = ["%s = tensor.collapse_shape %s [[0, 1], [2]] : %s into "
                 "tensor<%dx%dxf32>" % (act, g.defined(r"%gelu\d+"),
                                        act_type(g), b * s, ffn)]
        tr, more = g.transpose(fc1_in, b * s, h)
        zero, zeros = g.zero([h, ffn])
        prod = g.fresh("prod")
        lines += more + zeros + [
            "%s = linalg.matmul ins(%s, %s : tensor<%dx%dxf32>, "
            "tensor<%dx%dxf32>) outs(%s : tensor<%dx%dxf32>) -> "
            "tensor<%dx%dxf32>" % (prod, tr, act, h, b * s, b * s, ffn, zero,
                                   h, ffn, h, ffn)]
        g.before_return(lines)
        g.append_result(prod, "tensor<%dx%dxf32>" % (h, ffn))
    elif v == "grad-twice":
        g.append_result(*g.result("dl0_w_fc1"))
    elif v in ("grad-transposed", "grad-shape"):
        dw, _ = g.result("dl0_w_fc1")
        tr, lines = g.transpose(dw, h, ffn)
        g.before_return(lines)
        if v == "grad-transposed":
            g.append_result(tr, "tensor<%dx%dxf32>" % (ffn, h))
        else:
            g.replace_result(g.result_names.index("dl0_w_fc1"), tr,
                             "tensor<%dx%dxf32>" % (ffn, h))
    elif v in ("call-private", "call-external"):
        t = act_type(g)
        out = g.fresh("custom")
        custom_on_dgelu(g, lambda x: [
            "%s = func.call @custom_op(%s) : (%s) -> %s" % (out, x, t, t)])
        if v == "call-external":
            callee = "  func.func private @custom_op(%s) -> %s\n" % (t, t)
        else:
            callee = (
                "  func.func private @custom_op(%%a: %s) -> %s {\n"
                "    %%e = tensor.empty() : %s\n"
                "    %%r = linalg.generic {indexing_maps = [affine_map<(d0, "
                "d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, "
                "d1, d2)>], iterator_types = [\"parallel\", \"parallel\", "
                "\"parallel\"]} ins(%%a : %s) outs(%%e : %s) {\n"
                "    ^bb0(%%x: f32, %%o: f32):\n"
                "      %%c = arith.constant 5.000000e-01 : f32\n"
                "      %%y = arith.mulf %%x, %%c : f32\n"
                "      linalg.yield %%y : f32\n"
                "    } -> %s\n"
                "    return %%r : %s\n  }\n" % ((t,) * 7))
        g.text = re.sub(r"^module \{\n", lambda m: m.group(0) + callee,
                        g.text, count=1, flags=re.M)
    elif v == "tosa-reverse":
        t = act_type(g)
        out = g.fresh("rev")
        custom_on_dgelu(g, lambda x: [
            "%s = tosa.reverse %s {axis = 2 : i32} : (%s) -> %s" % (out, x, t,
                                                                   t)])
    elif v == "generic-reverse":
        t = act_type(g)
        e, out = g.fresh("e"), g.fresh("rev")
        custom_on_dgelu(g, lambda x: [
            "%s = tensor.empty() : %s" % (e, t),
            "%s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> "
            "(d0, d1, -d2 + %d)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], "
            "iterator_types = [\"parallel\", \"parallel\", \"parallel\"]} "
            "ins(%s : %s) outs(%s : %s) {\n    ^bb0(%%bad_x: f32, %%bad_o: f32):\n"
            "      linalg.yield %%bad_x : f32\n    } -> %s" % (
                out, ffn - 1, x, t, e, t, t)])
    elif v == "generic-index":
        t = act_type(g)
        e, out = g.fresh("e"), g.fresh("pos")
        custom_on_dgelu(g, lambda x: [
            "%s = tensor.empty() : %s" % (e, t),
            "%s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> "
            "(d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], "
            "iterator_types = [\"parallel\", \"parallel\", \"parallel\"]} "
            "ins(%s : %s) outs(%s : %s) {\n    ^bb0(%%bad_x: f32, %%bad_o: f32):\n"
            "      %%i = linalg.index 2 : index\n"
            "      %%n = arith.index_cast %%i : index to i64\n"
            "      %%f = arith.sitofp %%n : i64 to f32\n"
            "      %%w = arith.constant %f : f32\n"
            "      %%k = arith.mulf %%f, %%w : f32\n"
            "      %%one = arith.constant 1.0 : f32\n"
            "      %%sc = arith.addf %%k, %%one : f32\n"
            "      %%y = arith.mulf %%bad_x, %%sc : f32\n"
            "      linalg.yield %%y : f32\n    } -> %s" % (
                out, x, t, e, t, 1.0 / ffn, t)])
    elif v == "returns-nothing":
        g.set_results([], [])
    elif v == "mismatched-types":
        sig = g.signature()
        g.text = g.text[:sig.start(1)] + re.sub(
            r"^tensor<f32>", "tensor<1xf32>", sig.group(1)) + \
            g.text[sig.end(1):]
    else:
        sys.exit("bad_train_graph: no variant '%s'" % v)
    g.text = re.sub(r"^(// model=\S+ form=)(\S+)",
                    lambda m: m.group(1) + m.group(2) + "-bad-" + v, g.text,
                    count=1, flags=re.M)
    open(ns.output, "w").write(g.text)


if __name__ == "__main__":
    main()
