#!/usr/bin/env python3
"""The lesson's Triton kernel at the tiles of a FuseScope tile sweep, timed on the same GPU: for
the sweep's best and worst measured configurations (and the lesson's default tiles), prints
FuseScope's median from the sweep file beside Triton's median (CUDA events) at the same tiles and
shape, and Triton's relative error against PyTorch's eager result. A float32 sweep is compared
with tl.dot's true float32 (input_precision="ieee"), a tf32 sweep with its default TF32.

Usage: python3 tiles_triton.py SWEEP.json [--repeats N] [--json OUT]
"""
import argparse
import json
import os
import sys

import torch
import triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mlp_peers import DTYPES, eager, lesson, rel_err, time_us  # noqa: E402


def triton_lesson(x, gate, up, down, out, tiles, cast, precision):
    lesson(x, gate, up, down, out, cast, precision, tiles)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("sweep")
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--json")
    args = parser.parse_args()
    with open(args.sweep) as f:
        sweep = json.load(f)
    dims = sweep["dimensions"]
    M, H, I = dims["M"], dims["H"], dims["I"]
    # float32 sweeps compare against tl.dot's true float32 ("ieee"), tf32 sweeps against its
    # default TF32 products.
    dtype, precision = DTYPES[sweep["dtype"]]
    measured = [c for c in sweep["cells"] if c["measured"] and c["check_ok"]]
    if not measured:
        print("no measured cell in", args.sweep)
        return 1
    best = min(measured, key=lambda c: c["time"]["median_ms"])
    worst = max(measured, key=lambda c: c["time"]["median_ms"])
    picks = [("best", best), ("worst", worst)]
    default = [c for c in measured if c["tuning"] == dict(block_m=32, block_n=64, block_h=64,
                                                          block_i=64)]
    if default:
        picks.append(("default", default[0]))
    torch.backends.cuda.matmul.allow_tf32 = False
    gen = torch.Generator(device="cuda").manual_seed(1)
    x = torch.rand(M, H, device="cuda", generator=gen).mul_(2).sub_(1)
    gate = (torch.rand(I, H, device="cuda", generator=gen) * 2 - 1) * (2 / H ** 0.5)
    up = (torch.rand(I, H, device="cuda", generator=gen) * 2 - 1) * (2 / H ** 0.5)
    down = (torch.rand(H, I, device="cuda", generator=gen) * 2 - 1) * (2 / I ** 0.5)
    x, gate, up, down = (t.to(dtype).contiguous() for t in (x, gate, up, down))
    expected = eager(x, gate, up, down)
    print(f"torch {torch.__version__}, triton {triton.__version__}, "
          f"{torch.cuda.get_device_name()}; M={M} H={H} I={I} {sweep['dtype']}")
    print(f"{'pick':8} {'tiles (m n h i)':18} {'FuseScope ms':>13} {'Triton ms':>10} "
          f"{'ratio':>6} {'Triton err':>10}")
    results = []
    for name, cell in picks:
        t = cell["tuning"]
        tiles = dict(BLOCK_M=t["block_m"], BLOCK_N=t["block_n"], BLOCK_H=t["block_h"],
                     BLOCK_I=t["block_i"])
        out = torch.empty(M, H, device="cuda", dtype=dtype)
        cast = dtype == torch.bfloat16
        try:
            triton_lesson(x, gate, up, down, out, tiles, cast, precision)
            torch.cuda.synchronize()
            err = rel_err(out, expected)
            ms = time_us(lambda: triton_lesson(x, gate, up, down, out, tiles, cast, precision),
                         args.repeats) / 1000.0
        except Exception as problem:  # a tile Triton refuses (shared memory, shapes)
            err, ms = float("nan"), float("nan")
            print(f"  triton refused {tiles}: {str(problem).splitlines()[0][:120]}")
        ours = cell["time"]["median_ms"]
        label = f"{t['block_m']} {t['block_n']} {t['block_h']} {t['block_i']}"
        print(f"{name:8} {label:18} {ours:13.4f} {ms:10.4f} {ours / ms:6.2f} {err:10.2e}")
        results.append(dict(pick=name, tuning=t, fusescope_ms=ours, triton_ms=ms,
                            triton_relative_error=err))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(shape=dims, dtype=sweep["dtype"], results=results), f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
