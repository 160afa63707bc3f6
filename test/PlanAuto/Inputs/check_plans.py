#!/usr/bin/env python3
"""Checks seqpar-plan-auto on generated GPT-2 and Llama-70B-shaped graphs.

For every (model, s, D) point it runs the planner twice, with branch and
bound and with --exhaustive (every layout evaluated), and requires the same
ranking. Independently of the planner's C++ it also recomputes, from the
model's dimensions only:
  * the number of valid layouts (t * c = D; t divides a; t and a_kv divide
    one another; Ulysses sizes divide the heads of a TP rank);
  * each ranked plan's weight bytes, KV-cache bytes and bytes sent per rank
    (docs/semantics.md §5: TP 2 all-reduces per layer of N = b*(s/c)*h*e, each
    2N(t-1)/t; ring (c-1)*2*(s/c)*b*a_kv'*d*e; all-gather KV the same;
    Ulysses (c-1)/c of Q, K, V, O).
With --markdown it prints the docs' table of the chosen plans.
Exit status 0 when everything agrees, 1 otherwise.
"""
import argparse
import json
import os
import subprocess
import sys

MODELS = {
    # name: generator arguments, layers, h, a, a_kv, d, ffn, gated
    "gpt2": (["--model", "gpt", "--layers", "12", "--hidden", "768",
              "--heads", "12"], 12, 768, 12, 12, 64, 3072, False),
    "llama70b": (["--model", "llama", "--layers", "80", "--hidden", "8192",
                  "--heads", "64", "--kv-heads", "8", "--ffn", "28672"],
                 80, 8192, 64, 8, 128, 28672, True),
}
E = 2  # bf16


def expected_count(a, a_kv, s, devices, causal=True):
    count = 0
    for t in range(1, devices + 1):
        if devices % t or a % t or (a_kv % t and t % a_kv):
            continue
        c = devices // t
        kv = a_kv // t if a_kv % t == 0 else 1
        per_t = 2 if t > 1 else 1
        if c == 1:
            count += per_t
            continue
        n = 2 * 2  # ring, all-gather: zigzag and contiguous
        if (a // t) % c == 0 and kv % c == 0:
            n += 1  # ulysses
        for u in range(2, c):
            if c % u == 0 and (a // t) % u == 0 and kv % u == 0:
                n += 2
        count += per_t * n
    return count


def expected_costs(plan, model, s):
    _, layers, h, a, a_kv, d, ffn, gated = model
    t, c = plan["tp"], plan["cp"]
    zigzag = plan["load_balance"] == "zigzag"
    pieces = 2 * c if zigzag else c
    sl = -(-s // pieces) * pieces // c
    kv_split = a_kv % t == 0
    kv = a_kv // t if kv_split else 1
    kv_params = layers * 2 * h * a_kv * d
    mlp = (3 if gated else 2) * h * ffn
    matrices = layers * (2 * h * h + mlp) + kv_params
    vectors = (layers * 2 + 1) * h if gated else (layers * (4 * h + 3 * h + ffn + h + h) + 2 * h)
    if not gated:  # GPT: QKV fused (no separate K/V), biases
        matrices = layers * (4 * h * h + mlp)
        kv_params = 0
    params = (matrices - kv_params) / t + kv_params / (t if kv_split else 1) + vectors
    weight = params * E
    cache = layers * 2 * sl * kv * d * E
    sent = 0.0
    if t > 1:
        n = sl * h * E
        sent += layers * 2 * 2 * n * (t - 1) / t
    u = c if plan["strategy"] == "ulysses" else plan["ulysses"] if plan["strategy"] == "hybrid" else 1
    ring = c // u
    heads = a // t
    if u > 1:
        sent += layers * sl * (2 * heads + 2 * kv) * d * E * (u - 1) / u
    if plan["strategy"] == "all-gather" or ring > 1:
        sent += layers * (ring - 1) * 2 * sl * kv * d * E
    return {"weight_bytes": weight, "kv_cache_bytes": cache, "bytes_sent": sent}


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("check_plans: %s failed:\n%s" % (" ".join(cmd), p.stderr))
    return json.loads(p.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plan-auto", required=True)
    ap.add_argument("--gen", required=True, help="bench/gen_tp_graph.py")
    ap.add_argument("--work", required=True)
    ap.add_argument("--seqs", type=int, nargs="+", default=[8192, 32768, 131072])
    ap.add_argument("--devices", type=int, nargs="+", default=[8, 64])
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    errors = 0
    rows = []
    for name, model in MODELS.items():
        graph = os.path.join(args.work, name + ".mlir")
        subprocess.run([sys.executable, args.gen] + model[0] +
                       ["--batch", "1", "--seq", "1024", "--form", "plain",
                        "--tp", "1", "--dtype", "bf16", "-o", graph], check=True)
        for s in args.seqs:
            for devices in args.devices:
                base = [args.plan_auto, graph, "--json", "--seq=%d" % s,
                        "--devices=%d" % devices, "--hardware=h100",
                        "--runners-up=4"]
                fast, full = run(base), run(base + ["--exhaustive"])
                point = "%s s=%d D=%d" % (name, s, devices)
                if [p["pipeline"] for p in fast["ranked"]] != \
                        [p["pipeline"] for p in full["ranked"]] or \
                        [p["seconds"] for p in fast["ranked"]] != \
                        [p["seconds"] for p in full["ranked"]]:
                    print("FAIL %s: branch and bound %s != enumeration %s" % (
                        point, [p["pipeline"] for p in fast["ranked"]],
                        [p["pipeline"] for p in full["ranked"]]))
                    errors += 1
                want = expected_count(model[3], model[4], s, devices)
                if full["layouts"] != want or full["evaluated"] != want:
                    print("FAIL %s: %d layouts (%d evaluated), expected %d" % (
                        point, full["layouts"], full["evaluated"], want))
                    errors += 1
                for plan in full["ranked"]:
                    for key, value in expected_costs(plan, model, s).items():
                        if abs(plan[key] - value) > 1e-9 * max(1.0, value):
                            print("FAIL %s %s: %s %d, expected %d" % (
                                point, plan["pipeline"], key, plan[key], value))
                            errors += 1
                best = fast["ranked"][0]
                second = fast["ranked"][1]
                rows.append((name, s, devices, best, second, fast["evaluated"],
                             fast["layouts"]))
                print("ok %s: %s (%.4g s, %.1f GiB); evaluated %d of %d" % (
                    point, best["pipeline"], best["seconds"],
                    best["memory_bytes"] / 2**30, fast["evaluated"],
                    fast["layouts"]))
    if args.markdown:
        print("\n| model | s | D | chosen | time s (compute / TP / CP) | GiB (weights / KV / transient) | runner-up | its time s | evaluated |")
        print("|---|---|---|---|---|---|---|---|---|")
        for name, s, devices, best, second, ev, total in rows:
            print("| %s | %dk | %d | %s | %.3g (%.3g / %.3g / %.3g) | %.1f (%.1f / %.2f / %.2f) | %s | %.3g | %d of %d |" % (
                name, s // 1024, devices, best["pipeline"].replace(" seq-dim=1", "").replace(" seq-dim=0", ""),
                best["seconds"], best["compute_seconds"], best["tp_comm_seconds"],
                best["cp_comm_seconds"], best["memory_bytes"] / 2**30,
                best["weight_bytes"] / 2**30, best["kv_cache_bytes"] / 2**30,
                best["transient_bytes"] / 2**30,
                second["pipeline"].replace(" seq-dim=1", "").replace(" seq-dim=0", ""),
                second["seconds"], ev, total))
    print("check_plans: %d failure(s)" % errors)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
