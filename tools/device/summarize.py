#!/usr/bin/env python3
"""Prints the short table that ends a device run: steps, the GPU, test tallies, the CLI's
measurements from its JSON recordings, and the H200's benchmark targets checked against them.
usage: summarize.py RESULTS_DIR (written by h200-run.sh)"""
import glob
import json
import os
import sys
import xml.etree.ElementTree as ElementTree

results = sys.argv[1]


def read_lines(name):
    path = os.path.join(results, name)
    return open(path).read().splitlines() if os.path.exists(path) else []


gpu_lines = read_lines("nvidia-smi.csv")[:1]
# Named from the GPU that ran: a call for the H200 may be given another card.
gpu_name = gpu_lines[0].split(",")[0].strip() if gpu_lines else "an unknown GPU"
print("=" * 78)
print(f"FuseScope on {gpu_name}: summary")
for line in gpu_lines:
    print("GPU:", line.strip())

print("\nsteps (rc 0 = ok, 124 = timed out, skipped = no time left)")
for line in read_lines("steps.tsv"):
    name, rc, wall = line.split("\t")
    print(f"  {name:24s} rc={rc:8s} {wall:>4s} s")

tests = sorted(glob.glob(os.path.join(results, "test_*.xml")))
if tests:
    print("\ntests            passed  failed skipped")
for path in tests:
    name = os.path.basename(path)[len("test_"):-len(".xml")]
    try:
        cases = ElementTree.parse(path).getroot().iter("testcase")
    except ElementTree.ParseError as error:
        print(f"  {name:16s} unreadable XML: {error}")
        continue
    passed = failed = skipped = 0
    reasons = set()
    for case in cases:
        skip = case.find("skipped")
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        elif skip is not None or case.get("result") == "skipped" or case.get("status") == "notrun":
            skipped += 1
            if skip is not None and skip.get("message"):
                reasons.add(skip.get("message").strip().splitlines()[-1][:100])
        else:
            passed += 1
    print(f"  {name:16s} {passed:6d} {failed:7d} {skipped:7d}")
    for reason in sorted(reasons)[:3]:
        print(f"      skipped because: {reason}")

recordings = {}
for path in sorted(glob.glob(os.path.join(results, "*_v[0-9].json"))):
    try:
        recordings[os.path.basename(path)[:-5]] = json.load(open(path))
    except (OSError, ValueError) as error:
        print(f"\n{os.path.basename(path)}: unreadable ({error})")

times = {}
if recordings:
    print("\nCLI runs (time: median of repeats; GB/s by the pass model; % of the copy roofline)")
    print(f"  {'pipeline':8s} {'vec':>3s} {'variant':11s} {'n':>10s} {'ms':>8s} {'GB/s':>7s}"
          f" {'%copy':>6s} {'peak MB':>8s} check")
def problem_value(run, dimension=None, tuning=None):
    """N or the vector width of a run: version 2 recordings name the problem, version 1 had keys."""
    problem = run.get("problem")
    if problem is None:
        return run.get("n" if dimension else "vector", 0)
    if dimension:
        return problem.get("dimensions", {}).get(dimension, 0)
    return problem.get("tuning", {}).get(tuning, 0)


for key, recording in recordings.items():
    roofline = recording.get("copy_roofline", {}).get("gbps") or 0.0
    for run in recording.get("runs", []):
        run = dict(run, n=problem_value(run, dimension="N"), vector=problem_value(run, tuning="vector"))
        moved = run.get("model_bytes_read", 0) + run.get("model_bytes_written", 0)
        ms = run.get("time_ms") or 0.0
        gbps = moved / (ms * 1e6) if ms > 0 else 0.0
        share = 100.0 * gbps / roofline if roofline > 0 else 0.0
        check = "ok" if run.get("check_ok") else f"FAIL (err {run.get('max_rel_error')})"
        times[(run.get("pipeline"), run.get("vector"), run.get("variant"))] = (ms, share)
        print(f"  {run.get('pipeline', '?'):8s} {run.get('vector', 0):3d} {run.get('variant', '?'):11s}"
              f" {run.get('n', 0):10d} {ms:8.3f} {gbps:7.0f} {share:6.1f}"
              f" {run.get('peak_bytes_in_flight', 0) / 1e6:8.0f} {check}")
    if roofline:
        print(f"  {'':8s} copy roofline ({key}): {roofline:.0f} GB/s")

if times:
    print(f"\nthe H200's targets (N = 2^28, float32; measured on {gpu_name})")

    def target(label, value, good, shown):
        if good is None:
            verdict = "(for comparison; the targets are at vector 4)"
        else:
            verdict = "n/a" if value is None else ("met" if good(value) else "NOT met")
        print(f"  {label:52s} {shown if value is not None else '-':>10s}  {verdict}")

    fused = times.get(("swiglu", 4, "fused"))
    target("fused SwiGLU, vector 4: time <= 0.78 ms", fused and fused[0],
           lambda v: v <= 0.78, fused and f"{fused[0]:.3f} ms")
    target("fused SwiGLU, vector 4: >= 85% of copy roofline", fused and fused[1],
           lambda v: v >= 85.0, fused and f"{fused[1]:.1f} %")
    for pipeline, unfused_names, fused_name, goal in (
            ("swiglu", ("scratch", "two_launch"), "fused", 1.55),
            ("affine", ("unfused",), "fused", 1.85)):
        for vector in (4, 1):
            done = times.get((pipeline, vector, fused_name))
            for unfused in unfused_names:
                slow = times.get((pipeline, vector, unfused))
                ratio = slow[0] / done[0] if slow and done and done[0] > 0 else None
                label = f"{pipeline} v{vector}: {unfused}/{fused_name} time" + (
                    f" >= {goal}" if vector == 4 else "")
                target(label, ratio, (lambda v, g=goal: v >= g) if vector == 4 else None,
                       ratio and f"{ratio:.2f}x")
print("=" * 78)
