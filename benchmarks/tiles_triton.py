#!/usr/bin/env python3
"""The lesson's Triton kernel at every tile of FuseScope tile sweeps, timed on the same GPU: for
each sweep file, the whole grid as a table (FuseScope's median from the sweep beside Triton's
median at the same tiles and shape, their ratio, Triton's relative error against PyTorch's eager
result), then the worst ratio, both best configurations and both best-or-tied sets (the best cell
and the cells whose interquartile ranges, widened to at least +-1.5% of the median, overlap the
best's: the tile explorer's rule) and whether they overlap. A float32 sweep is compared with
tl.dot's true float32 (input_precision="ieee"), a tf32 sweep with its default TF32.

Triton compiles each tile once; --jobs processes compile the grid's kernels into Triton's cache
before the one timing process runs them (compiling is most of a cold grid's time).

--annotate DIR writes each sweep file again into DIR (same name) with Triton's times added as
the sweep's peer ("peer", and "peer_time" or "peer_note" in each cell, with "peer_kernel":
Triton's compiled kernel there, its threads, registers, spills and shared memory as Triton
reports them and its blocks an SM as the driver's occupancy calculator gives them): the tile
explorer's metric "time / the peer's" and its tooltips show them beside FuseScope's own.

Usage: python3 tiles_triton.py SWEEP.json [SWEEP.json ...] [--repeats N] [--jobs J] [--json OUT]
       [--annotate DIR]
"""
import argparse
import ctypes
import functools
import json
import multiprocessing
import os
import statistics
import sys

import torch
import triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mlp_peers import DTYPES, eager, lesson, lesson_kernel, rel_err, time_stats  # noqa: E402

TARGET_RATIO = 1.10
TIE_FLOOR = 0.015  # the explorer's widening of a cell's interquartile range


def label(t):
    return f"{t['block_m']}/{t['block_n']}/{t['block_h']}/{t['block_i']}"


def triton_tiles(t):
    return dict(BLOCK_M=t["block_m"], BLOCK_N=t["block_n"], BLOCK_H=t["block_h"],
                BLOCK_I=t["block_i"])


@functools.lru_cache(maxsize=1)
def cuda_driver():
    """libcuda, loaded once for every cell's occupancy question."""
    return ctypes.CDLL("libcuda.so.1")


def blocks_per_sm(function, threads, shared):
    """The driver's occupancy calculator for a loaded kernel; 0 where it cannot say."""
    try:
        driver = cuda_driver()
        blocks = ctypes.c_int(0)
        status = driver.cuOccupancyMaxActiveBlocksPerMultiprocessor(
            ctypes.byref(blocks), ctypes.c_void_p(function), ctypes.c_int(threads),
            ctypes.c_size_t(shared))
        return blocks.value if status == 0 else 0
    except (OSError, AttributeError, TypeError, ValueError):
        return 0


def kernel_facts(kernel):
    """Triton's compiled kernel as the annotated sweep records it; None where Triton does not
    say (Triton reports spills as local bytes / 4)."""
    try:
        threads = 32 * int(kernel.metadata.num_warps)
        shared = int(kernel.metadata.shared)
        facts = dict(threads=threads, registers=int(kernel.n_regs),
                     local_bytes=4 * int(kernel.n_spills), shared_bytes=shared)
    except (AttributeError, TypeError, ValueError):
        return None
    function = getattr(kernel, "function", None)
    facts["blocks_per_sm"] = blocks_per_sm(function, threads, shared) if function else 0
    return facts


def inputs(M, H, I, dtype):
    gen = torch.Generator(device="cuda").manual_seed(1)
    x = torch.rand(M, H, device="cuda", generator=gen).mul_(2).sub_(1)
    gate = (torch.rand(I, H, device="cuda", generator=gen) * 2 - 1) * (2 / H ** 0.5)
    up = (torch.rand(I, H, device="cuda", generator=gen) * 2 - 1) * (2 / H ** 0.5)
    down = (torch.rand(H, I, device="cuda", generator=gen) * 2 - 1) * (2 / I ** 0.5)
    return tuple(t.to(dtype).contiguous() for t in (x, gate, up, down))


def precompile(job):
    """One worker's share of the grid, run once each so that Triton's cache holds them."""
    (M, H, I, dtype_name), tunings = job
    torch.backends.cuda.matmul.allow_tf32 = False
    dtype, precision = DTYPES[dtype_name]
    x, gate, up, down = inputs(M, H, I, dtype)  # Triton specializes on M (1, multiples of 16)
    out = torch.empty(M, H, device="cuda", dtype=dtype)
    for t in tunings:
        try:
            lesson(x, gate, up, down, out, dtype == torch.bfloat16, precision, triton_tiles(t))
        except Exception:  # refused tiles are reported by the timing pass
            pass
    torch.cuda.synchronize()


def best_or_tied(rows):
    """Labels of the best row and the rows whose widened interquartile ranges overlap its."""
    if not rows:
        return set()

    def span(r):
        med, q1, q3 = r
        return min(q1, med * (1 - TIE_FLOOR)), max(q3, med * (1 + TIE_FLOOR))

    times = {name: r for name, r in rows.items()}
    best = min(times, key=lambda n: times[n][0])
    low, high = span(times[best])
    return {n for n, r in times.items() if span(r)[0] <= high and span(r)[1] >= low}


def compare(path, args):
    with open(path) as f:
        sweep = json.load(f)
    dims = sweep["dimensions"]
    M, H, I = dims["M"], dims["H"], dims["I"]
    dtype, precision = DTYPES[sweep["dtype"]]
    cells = sweep["cells"]
    if args.jobs > 1:
        tunings = [c["tuning"] for c in cells]
        shares = [tunings[k::args.jobs] for k in range(args.jobs)]
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            pool.map(precompile, [((M, H, I, sweep["dtype"]), s) for s in shares if s])
    torch.backends.cuda.matmul.allow_tf32 = False
    x, gate, up, down = inputs(M, H, I, dtype)
    expected = eager(x, gate, up, down)
    out = torch.empty(M, H, device="cuda", dtype=dtype)
    cast = dtype == torch.bfloat16
    print(f"\n{path}: M={M} H={H} I={I} {sweep['dtype']}; torch {torch.__version__}, triton "
          f"{triton.__version__}, {torch.cuda.get_device_name()}")
    print(f"{'tiles (m/n/h/i)':16} {'FuseScope ms':>13} {'Triton ms':>10} {'ratio':>6} "
          f"{'Triton err':>10} {'Triton kernel':>16}  note")
    results, ours, theirs = [], {}, {}
    for cell in sorted(cells, key=lambda c: tuple(c["tuning"][k] for k in
                                                  ("block_m", "block_n", "block_h", "block_i"))):
        t = cell["tuning"]
        name = label(t)
        run = lambda: lesson(x, gate, up, down, out, cast, precision, triton_tiles(t))  # noqa
        refusal = ""
        facts = None
        try:
            facts = kernel_facts(lesson_kernel(x, gate, up, down, out, cast, precision,
                                               triton_tiles(t)))
            torch.cuda.synchronize()
            err = rel_err(out, expected)
            med, q1, q3 = time_stats(run, args.repeats)
            theirs[name] = (med, q1, q3)
            note = ""
        except Exception as problem:  # a tile Triton refuses (shared memory, shapes)
            err, med = float("nan"), float("nan")
            refusal = "Triton refused: " + (str(problem).splitlines() or [""])[0]
            note = refusal[:96]
        mine = cell["time"]["median_ms"] if cell.get("measured") and cell.get("check_ok") else None
        if mine is not None:
            ours[name] = (mine, cell["time"]["q1_ms"], cell["time"]["q3_ms"])
        elif cell.get("refusal"):
            note = (note + "; " if note else "") + "FuseScope refused: " + \
                str(cell["refusal"].get("reason", ""))[:80]
        elif not note:
            note = "FuseScope: " + (cell.get("error") or "not measured")[:80]
        ratio = mine / med if mine is not None and med == med else float("nan")
        flag = " *" if ratio == ratio and ratio > TARGET_RATIO else ""
        kernel = (f"{facts['threads']}t {facts['registers']}r {facts['blocks_per_sm']}/SM"
                  if facts else "-")
        print(f"{name:16} {mine if mine is not None else float('nan'):13.4f} {med:10.4f} "
              f"{ratio:6.2f} {err:10.2e} {kernel:>16}  {note}{flag}")
        if name in theirs:  # the sweep file's own timing fields
            cell["peer_time"] = dict(median_ms=med, q1_ms=theirs[name][1], q3_ms=theirs[name][2],
                                     repeats=args.repeats)
            cell.pop("peer_note", None)
        else:
            cell.pop("peer_time", None)
            cell["peer_note"] = refusal[:1000]
        if name in theirs and facts:
            cell["peer_kernel"] = facts
        else:
            cell.pop("peer_kernel", None)
        results.append(dict(tuning=t, fusescope_ms=mine, triton_ms=med if med == med else None,
                            ratio=ratio if ratio == ratio else None, triton_relative_error=err,
                            note=note, triton_kernel=facts))
    both = [r for r in results if r["ratio"] is not None]
    summary = {}
    if both:
        worst = max(both, key=lambda r: r["ratio"])
        over = [r for r in both if r["ratio"] > TARGET_RATIO]
        best_ours = min(ours, key=lambda n: ours[n][0])
        best_theirs = min(theirs, key=lambda n: theirs[n][0])
        ties_ours, ties_theirs = best_or_tied(ours), best_or_tied(theirs)
        median = statistics.median(r["ratio"] for r in both)
        print(f"both ran {len(both)}; ratio median {median:.2f}, worst {worst['ratio']:.2f} at "
              f"{label(worst['tuning'])}; over {TARGET_RATIO:.2f}: {len(over)} "
              f"({', '.join(label(r['tuning']) for r in over) or 'none'})")
        print(f"best: FuseScope {best_ours} {ours[best_ours][0]:.4f} ms, Triton {best_theirs} "
              f"{theirs[best_theirs][0]:.4f} ms (FuseScope's best / Triton's best "
              f"{ours[best_ours][0] / theirs[best_theirs][0]:.2f})")
        print(f"best-or-tied: FuseScope {sorted(ties_ours)}, Triton {sorted(ties_theirs)}; "
              f"overlap {sorted(ties_ours & ties_theirs) or 'none'}")
        summary = dict(worst_ratio=worst["ratio"], worst=worst["tuning"], over_target=len(over),
                       both_ran=len(both), fusescope_best=best_ours,
                       fusescope_best_ms=ours[best_ours][0], triton_best=best_theirs,
                       triton_best_ms=theirs[best_theirs][0], fusescope_ties=sorted(ties_ours),
                       triton_ties=sorted(ties_theirs))
    sweep["peer"] = dict(
        name=f"Triton {triton.__version__}",
        source=(f"the lesson's swiglu_mlp_kernel (num_warps=4) at each cell's tiles, torch "
                f"{torch.__version__}, {torch.cuda.get_device_name()}, median of "
                f"{args.repeats}, timed by benchmarks/tiles_triton.py after the sweep"))
    return dict(sweep=path, shape=dims, dtype=sweep["dtype"], results=results, summary=summary,
                annotated=sweep)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("sweeps", nargs="+")
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes that compile Triton's kernels before timing")
    parser.add_argument("--json")
    parser.add_argument("--annotate", metavar="DIR",
                        help="write each sweep into DIR with Triton's times as its peer")
    args = parser.parse_args()
    reports = [compare(path, args) for path in args.sweeps]
    if args.annotate:
        os.makedirs(args.annotate, exist_ok=True)
        for report in reports:
            target = os.path.join(args.annotate, os.path.basename(report["sweep"]))
            if os.path.abspath(target) == os.path.abspath(report["sweep"]):
                sys.exit(f"--annotate {args.annotate}: would overwrite {report['sweep']}")
            with open(target + ".part", "w") as f:  # the old file stays if writing fails
                json.dump(report["annotated"], f, indent=1)
                f.flush()
                os.fsync(f.fileno())
            os.replace(target + ".part", target)
    for report in reports:
        del report["annotated"]
    if args.json:
        with open(args.json, "w") as f:
            json.dump(reports, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
