#!/usr/bin/env python3
"""Peers of FuseScope's MLP variants, timed in the same session on the same GPU: PyTorch's eager
five-kernel path and the lesson's own Triton kernel (copied from the lesson, section 4) at the
benchmark's shapes and the lesson kernel's default tiles (BLOCK_M=32, BLOCK_N=64, BLOCK_H=64,
BLOCK_I=64, num_warps=4). Prints microseconds (median of CUDA-event timings) and each output's
relative error against the eager float32-accumulated result (float32 inputs: true float32, no
TF32).

float32 runs twice, like-for-like with FuseScope's dtypes: "float32" is tl.dot with
input_precision="ieee" (true float32 products, as FuseScope's float32), "tf32" is tl.dot's default
on float32 inputs (TF32 tensor-core products, as FuseScope's tf32).

With --fusescope PATH (the mlp_benchmark binary), FuseScope's variants are run first in the same
session, and its lesson kernel is printed beside Triton's for each preset and dtype.

Usage: python3 mlp_peers.py [--json FILE] [--repeats N] [--presets a,b] [--fusescope BINARY]
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile

import torch
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def swiglu_mlp_kernel(x_ptr, gate_ptr, up_ptr, down_ptr, out_ptr, M, N_OUT, H, I,
                      N_ITERS_I: tl.constexpr, N_ITERS_H: tl.constexpr,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                      BLOCK_H: tl.constexpr, BLOCK_I: tl.constexpr,
                      CAST_HIDDEN: tl.constexpr, INPUT_PRECISION: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)

    x_bp = tl.make_block_ptr(x_ptr, (M, H), (H, 1), (pid_m * BLOCK_M, 0),
                             (BLOCK_M, BLOCK_H), (1, 0))
    out_bp = tl.make_block_ptr(out_ptr, (M, N_OUT), (N_OUT, 1),
                               (pid_m * BLOCK_M, pid_n * BLOCK_N),
                               (BLOCK_M, BLOCK_N), (1, 0))

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for ki in range(0, N_ITERS_I):
        gate_bp = tl.make_block_ptr(gate_ptr, (H, I), (1, H), (0, ki * BLOCK_I),
                                    (BLOCK_H, BLOCK_I), (0, 1))
        up_bp = tl.make_block_ptr(up_ptr, (H, I), (1, H), (0, ki * BLOCK_I),
                                  (BLOCK_H, BLOCK_I), (0, 1))
        down_bp = tl.make_block_ptr(down_ptr, (I, N_OUT), (1, I),
                                    (ki * BLOCK_I, pid_n * BLOCK_N),
                                    (BLOCK_I, BLOCK_N), (0, 1))

        g = tl.zeros((BLOCK_M, BLOCK_I), dtype=tl.float32)
        u = tl.zeros((BLOCK_M, BLOCK_I), dtype=tl.float32)
        x_win = x_bp
        for kh in range(0, N_ITERS_H):
            x_t = tl.load(x_win, boundary_check=(0, 1), padding_option="zero")
            g_t = tl.load(gate_bp, boundary_check=(0, 1), padding_option="zero")
            u_t = tl.load(up_bp, boundary_check=(0, 1), padding_option="zero")
            g = tl.dot(x_t, g_t, g, input_precision=INPUT_PRECISION)
            u = tl.dot(x_t, u_t, u, input_precision=INPUT_PRECISION)
            x_win = tl.advance(x_win, (0, BLOCK_H))
            gate_bp = tl.advance(gate_bp, (BLOCK_H, 0))
            up_bp = tl.advance(up_bp, (BLOCK_H, 0))

        hidden = g * tl.sigmoid(g) * u
        d_t = tl.load(down_bp, boundary_check=(0, 1), padding_option="zero")
        if CAST_HIDDEN:  # tl.dot wants matching operand types for bf16 weights
            hidden = hidden.to(d_t.dtype)
        acc = tl.dot(hidden, d_t, acc, input_precision=INPUT_PRECISION)

    tl.store(out_bp, acc.to(out_ptr.dtype.element_ty), boundary_check=(0, 1))


TILES = dict(BLOCK_M=32, BLOCK_N=64, BLOCK_H=64, BLOCK_I=64)
# (preset, M, H, I, FuseScope's dtype name). Storage and tl.dot's input precision per dtype:
# bfloat16 ignores the precision ("tf32" is tl.dot's default for every dtype).
DTYPES = {
    "bfloat16": (torch.bfloat16, "tf32"),
    "float32": (torch.float32, "ieee"),
    "tf32": (torch.float32, "tf32"),
}
SHAPES = [
    ("classroom", 512, 1024, 2816, "bfloat16"),
    ("classroom", 512, 1024, 2816, "float32"),
    ("classroom", 512, 1024, 2816, "tf32"),
    ("decode-1", 1, 4096, 14336, "bfloat16"),
    ("decode-4", 4, 4096, 14336, "bfloat16"),
    ("decode-8", 8, 4096, 14336, "bfloat16"),
    ("decode-16", 16, 4096, 14336, "bfloat16"),
    ("prefill-512", 512, 4096, 14336, "bfloat16"),
    ("prefill-4096", 4096, 4096, 14336, "bfloat16"),
]


def time_stats(fn, repeats, warmups=3):
    """(median, first quartile, third quartile) in ms over `repeats` launches timed by CUDA
    events, after `warmups` untimed ones."""
    for _ in range(warmups):
        fn()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(repeats)]
    stops = [torch.cuda.Event(enable_timing=True) for _ in range(repeats)]
    for start, stop in zip(starts, stops):
        start.record()
        fn()
        stop.record()
    torch.cuda.synchronize()
    times = sorted(s.elapsed_time(e) for s, e in zip(starts, stops))
    q = statistics.quantiles(times, n=4) if len(times) > 1 else [times[0]] * 3
    return statistics.median(times), q[0], q[2]


def time_us(fn, repeats, warmups=3):
    return time_stats(fn, repeats, warmups)[0] * 1000.0


def eager(x, gate, up, down):
    g = F.linear(x, gate)
    u = F.linear(x, up)
    s = F.silu(g)
    h = s * u
    return F.linear(h, down)


def graphed(fn):
    """fn captured once in a CUDA graph (after warm-up on a side stream); returns its replay."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        fn()
    return graph.replay


def lesson_kernel(x, gate, up, down, out, cast_hidden, precision="tf32", tiles=None):
    """Runs the lesson's kernel once; returns Triton's compiled kernel (its registers, spills,
    shared memory and launch)."""
    tiles = tiles or TILES
    M, H = x.shape
    I = gate.shape[0]
    grid = (triton.cdiv(M, tiles["BLOCK_M"]), triton.cdiv(H, tiles["BLOCK_N"]))
    return swiglu_mlp_kernel[grid](x, gate, up, down, out, M, H, H, I,
                                   N_ITERS_I=triton.cdiv(I, tiles["BLOCK_I"]),
                                   N_ITERS_H=triton.cdiv(H, tiles["BLOCK_H"]),
                                   CAST_HIDDEN=cast_hidden, INPUT_PRECISION=precision,
                                   num_warps=4, **tiles)


def lesson(x, gate, up, down, out, cast_hidden, precision="tf32", tiles=None):
    lesson_kernel(x, gate, up, down, out, cast_hidden, precision, tiles)
    return out


def rel_err(a, b):
    return ((a.double() - b.double()).norm() / b.double().norm()).item()


def fusescope_lessons(binary, presets, repeats):
    """FuseScope's variants from mlp_benchmark, run now; {(preset, dtype): lesson_fused row}."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "fusescope.json")
        command = [binary, "--json", out, "--repeats", str(repeats)]
        if presets:
            command += ["--presets", ",".join(presets)]
        print("running", " ".join(command), flush=True)
        subprocess.run(command, check=True)
        with open(out) as f:
            rows = json.load(f)["results"]
    return {(r["preset"], r["dtype"]): r for r in rows if r["variant"] == "lesson_fused"}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--json")
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--presets", help="comma-separated preset names (default: all)")
    parser.add_argument("--fusescope", help="FuseScope's mlp_benchmark binary, run first")
    args = parser.parse_args()
    presets = [p for p in (args.presets or "").split(",") if p]
    shapes = [s for s in SHAPES if not presets or s[0] in presets]
    ours = fusescope_lessons(args.fusescope, presets, args.repeats) if args.fusescope else {}
    print(f"torch {torch.__version__}, triton {triton.__version__}, "
          f"{torch.cuda.get_device_name()}", flush=True)
    print(f"{'preset':14} {'dtype':9} {'eager us':>10} {'graph us':>10} {'lesson us':>11} "
          f"{'lesson err':>11} note", flush=True)
    results = []
    for name, M, H, I, dname in shapes:
        dtype, precision = DTYPES[dname]
        # The reference is true float32 (no TF32); eager is timed as the dtype computes.
        torch.backends.cuda.matmul.allow_tf32 = False
        gen = torch.Generator(device="cuda").manual_seed(1)
        x = torch.rand(M, H, device="cuda", generator=gen, dtype=torch.float32).mul_(2).sub_(1)
        gate = (torch.rand(I, H, device="cuda", generator=gen) * 2 - 1) * (2 / H ** 0.5)
        up = (torch.rand(I, H, device="cuda", generator=gen) * 2 - 1) * (2 / H ** 0.5)
        down = (torch.rand(H, I, device="cuda", generator=gen) * 2 - 1) * (2 / I ** 0.5)
        x, gate, up, down = (t.to(dtype).contiguous() for t in (x, gate, up, down))
        expected = eager(x, gate, up, down)
        torch.backends.cuda.matmul.allow_tf32 = dname == "tf32"
        eager_us = time_us(lambda: eager(x, gate, up, down), args.repeats)
        # The same five kernels replayed from a CUDA graph: no launch overhead between them.
        graph_us = time_us(graphed(lambda: eager(x, gate, up, down)), args.repeats)
        torch.backends.cuda.matmul.allow_tf32 = False
        out = torch.empty(M, H, device="cuda", dtype=dtype)
        note = {"float32": "tl.dot input_precision=ieee (true float32)",
                "tf32": "tl.dot default precision (tf32)"}.get(dname, "")
        cast = False
        try:
            lesson(x, gate, up, down, out, cast, precision)
        except Exception:  # the lesson's mixed fp32 x bf16 dot does not compile here
            cast = True
            note = "hidden cast to bf16 before the down dot"
            lesson(x, gate, up, down, out, cast, precision)
        torch.cuda.synchronize()
        err = rel_err(out, expected)
        # A run of seconds (the lesson kernel at prefill) gets 3 repeats, not 20.
        single = time_us(lambda: lesson(x, gate, up, down, out, cast, precision), 1, warmups=1)
        reps = 3 if single > 5e4 else args.repeats
        lesson_us = time_us(lambda: lesson(x, gate, up, down, out, cast, precision), reps,
                            warmups=1)
        print(f"{name:14} {dname:9} {eager_us:10.1f} {graph_us:10.1f} {lesson_us:11.1f} "
              f"{err:11.2e} {note}"
              f"{' (3 repeats)' if reps == 3 else ''}", flush=True)
        row = dict(preset=name, dtype=dname, M=M, H=H, I=I, eager_us=eager_us,
                   graph_us=graph_us,
                   lesson_triton_us=lesson_us, lesson_relative_error=err,
                   lesson_repeats=reps, triton_input_precision=precision, note=note)
        mine = ours.get((name, dname))
        if mine:
            row.update(lesson_fusescope_us=mine["us_median"],
                       lesson_fusescope_relative_error=mine["relative_error"])
        results.append(row)
        del x, gate, up, down, out, expected
        torch.cuda.empty_cache()
    compared = [r for r in results if "lesson_fusescope_us" in r]
    if compared:
        print("\nThe lesson kernel, FuseScope against Triton, at the same tiles "
              f"({TILES['BLOCK_M']}/{TILES['BLOCK_N']}/{TILES['BLOCK_H']}/{TILES['BLOCK_I']}):")
        print(f"{'preset':14} {'dtype':9} {'triton dot':10} {'FuseScope us':>13} "
              f"{'Triton us':>10} {'ratio':>6} {'FS err':>9} {'Triton err':>10}")
        for r in compared:
            # tl.dot ignores input_precision on bfloat16 inputs.
            dot = "bf16" if r["dtype"] == "bfloat16" else r["triton_input_precision"]
            print(f"{r['preset']:14} {r['dtype']:9} {dot:10} "
                  f"{r['lesson_fusescope_us']:13.1f} {r['lesson_triton_us']:10.1f} "
                  f"{r['lesson_fusescope_us'] / r['lesson_triton_us']:6.2f} "
                  f"{r['lesson_fusescope_relative_error']:9.2e} "
                  f"{r['lesson_relative_error']:10.2e}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(tiles=TILES, results=results), f, indent=2)


if __name__ == "__main__":
    main()
