#!/usr/bin/env python3
"""FuseScope's DRAM counters against Nsight Compute's, kernel by kernel, on the same binary and shape.

For each case it runs the CLI three times:
  1. fusescope-cli run ... --measure counters --counted-launches L --json F   (FuseScope's
     counter run, each launch counted L times: each count the median, the DRAM ranges kept)
  2. ncu --clock-control none --metrics dram__bytes_read.sum,dram__bytes_write.sum,... --csv
         --nvtx --print-nvtx-rename kernel  fusescope-cli run ...   (the same command without
     --measure: under ncu the program's own profiler session would be refused)
  3. the same ncu command with ncu's default clock control, which locks the GPU's clocks to base
     (FuseScope counts at the clocks the GPU chooses, so the verdict compares it with run 2; run 3
     shows which kernels' counts move with the clocks; --no-base-clocks skips it)
The CUDA backend names every launch "variant/kernel" with NVTX, so ncu's rows map onto FuseScope's
kernels by name; a launch that starts several device kernels (cuBLAS split-K) is summed over the
`device_kernels` FuseScope recorded. ncu profiles every launch of the timed run (the check and
L - 1 repeats: L launches of each kernel at least, as FuseScope counts L); the table takes the
median over those launches, and shows each side's range of DRAM reads beside it.

It prints one table: model, FuseScope and ncu bytes, the ratio FuseScope / ncu, and whether the
difference is within the target: 3% or 1 MB, whichever is larger, of ncu's median ("yes"), or
else inside the range ncu's own launches of that kernel span ("spread": ncu disagrees with
itself by more than the target there, e.g. dirty lines a kernel leaves in the L2 at its end),
then ncu's DRAM reads at base clocks and whether they differ from ncu's at free clocks by more
than the target ("clocks": "moves" or "same"). Exit status 0 when every kernel is within it, 1
when some are not, 2 when a run failed.

usage: counters_vs_ncu.py --cli PATH [--ncu PATH] [--out DIR] [--cases a,b,...] [--budget S]
                          [--launches L]   (2 to 9, default 5) [--no-base-clocks]
       counters_vs_ncu.py --from-saved --out DIR     (the table again from a run's files)
Cases: decode-1, prefill-512, classroom (MLP, bf16, all variants), swiglu-2e28, swiglu-2e22,
affine-2e28, affine-2e22 (default: all, in that order).
"""
import argparse
import csv
import io
import json
import os
import re
import statistics
import subprocess
import sys
import time

CASES = {
    "decode-1": ["--pipeline", "mlp", "--preset", "decode-1", "--dtype", "bf16"],
    "prefill-512": ["--pipeline", "mlp", "--preset", "prefill-512", "--dtype", "bf16"],
    "classroom": ["--pipeline", "mlp", "--preset", "classroom", "--dtype", "bf16"],
    "swiglu-2e28": ["--pipeline", "swiglu", "--n", "2^28"],
    "swiglu-2e22": ["--pipeline", "swiglu", "--n", "2^22"],
    "affine-2e28": ["--pipeline", "affine", "--n", "2^28"],
    "affine-2e22": ["--pipeline", "affine", "--n", "2^22"],
}
COMMON = ["--variants", "all", "--backend", "cuda", "--warmup", "0", "--no-roofs"]
METRICS = ["dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_sectors_srcunit_tex_op_read.sum"]
TOLERANCE_FRACTION = 0.03
TOLERANCE_BYTES = 1e6


def within(measured, reference):
    return abs(measured - reference) <= max(TOLERANCE_FRACTION * reference, TOLERANCE_BYTES)


def verdict(row):
    """'yes' within the target of ncu's median; 'spread' outside it but inside the range ncu's
    own launches of the kernel gave (ncu disagrees with itself by more than the target there);
    'NO' otherwise."""
    if row.get("ncu_read") is None or row.get("fs_read") is None:
        return "no ncu row"
    pairs = (("fs_read", "ncu_read"), ("fs_written", "ncu_written"))
    if all(within(row[fs], row[ncu]) for fs, ncu in pairs):
        return "yes"
    def inside(fs, ncu):
        low, high = row[ncu + "_range"]
        return within(row[fs], row[ncu]) or low <= row[fs] <= high
    return "spread" if all(inside(fs, ncu) for fs, ncu in pairs) else "NO"


def run(command, log, timeout):
    started = time.monotonic()
    with open(log, "w") as out:
        out.write("$ " + " ".join(command) + "\n")
        out.flush()
        try:
            done = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, timeout=timeout)
            code = done.returncode
        except subprocess.TimeoutExpired:
            code = 124
    return code, time.monotonic() - started


def fusescope_kernels(path):
    """{(variant, kernel): dict} from a recording."""
    with open(path) as f:
        recording = json.load(f)
    kernels = {}
    for variant in recording["runs"]:
        for kernel in variant["kernels"]:
            kernels[(variant["variant"], kernel["name"])] = kernel
    return kernels, recording.get("counter_status", "")


def to_bytes(value, unit):
    scale = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "Tbyte": 1e12,
             "KB": 1e3, "MB": 1e6, "GB": 1e9, "sector": 1, "": 1}
    return float(value.replace(",", "")) * scale.get(unit, 1)


def launch_name(row):
    """ "variant/kernel": the innermost push/pop NVTX range FuseScope names each launch with,
    from ncu's NVTX column (the renamed kernel name adds the run's outer range and the device
    kernel's own name)."""
    for column, value in row.items():
        if column and "Push/Pop_Range" in column and value:
            found = re.findall(r"<default domain>:([^:]+):", value)
            # The MLP's library calls sit in a second range, "mlp/variant/kernel".
            named = [name for name in found if name.count("/") == 1]
            if named or found:
                return (named or found)[0]
    return row.get("Kernel Name", "")


def ncu_launches(text):
    """[(name, {metric: value})] in launch order from ncu's --csv output."""
    start = text.find('"ID"')
    if start < 0:
        return []
    rows = csv.DictReader(io.StringIO(text[start:]))
    launches = {}
    order = []
    for row in rows:
        key = row.get("ID")
        if key is None or row.get("Metric Name") not in METRICS:
            continue
        if key not in launches:
            launches[key] = (launch_name(row), {})
            order.append(key)
        launches[key][1][row["Metric Name"]] = to_bytes(row.get("Metric Value", "0"),
                                                        row.get("Metric Unit", ""))
    return [launches[k] for k in order]


def ncu_by_kernel(launches, fs_kernels):
    """{(variant, kernel): {metric: median over launches}}, each launch summed over its device
    kernels (FuseScope's device_kernels), matched by the NVTX name "variant/kernel"."""
    grouped = {}
    i = 0
    while i < len(launches):
        name = launches[i][0].strip()
        variant, _, kernel = name.partition("/")
        kernel = kernel.rstrip("/")
        fs = fs_kernels.get((variant, kernel))
        count = int(fs.get("device_kernels") or 1) if fs else 1
        summed = {m: 0.0 for m in METRICS}
        taken = 0
        while taken < count and i < len(launches) and launches[i][0].strip() == name:
            for m in METRICS:
                summed[m] += launches[i][1].get(m, 0.0)
            taken += 1
            i += 1
        grouped.setdefault((variant, kernel), []).append(summed)
    result = {}
    for key, samples in grouped.items():
        result[key] = {m: statistics.median(s[m] for s in samples) for m in METRICS}
        for m in METRICS[:2]:
            result[key][m + ":min"] = min(s[m] for s in samples)
            result[key][m + ":max"] = max(s[m] for s in samples)
        result[key]["launches"] = len(samples)
    return result


def compare(case, recording, ncu_log, ncu_base_log=None):
    """One row per FuseScope kernel of the case, with ncu's bytes where ncu profiled it (and, where
    ncu_base_log is given, ncu's bytes with its clocks locked to base)."""
    fs_kernels, _ = fusescope_kernels(recording)
    with open(ncu_log) as f:
        ncu = ncu_by_kernel(ncu_launches(f.read()), fs_kernels)
    base = {}
    if ncu_base_log and os.path.exists(ncu_base_log):
        with open(ncu_base_log) as f:
            base = ncu_by_kernel(ncu_launches(f.read()), fs_kernels)
    rows = []
    for (variant, kernel), fs in fs_kernels.items():
        ref = ncu.get((variant, kernel))
        row = {"case": case, "variant": variant, "kernel": kernel,
               "device_kernels": fs.get("device_kernels"),
               "model_read": fs.get("model_bytes_read"),
               "model_written": fs.get("model_bytes_written"),
               "fs_read": fs.get("dram_bytes_read"), "fs_written": fs.get("dram_bytes_written"),
               "fs_l2_read": (fs.get("l2_sectors_read") or 0) * 32,
               "fs_launches": fs.get("counted_launches") or 1,
               "fs_read_range": [fs.get("dram_bytes_read_low", fs.get("dram_bytes_read")),
                                 fs.get("dram_bytes_read_high", fs.get("dram_bytes_read"))]}
        if ref:
            row.update(ncu_read=ref[METRICS[0]], ncu_written=ref[METRICS[1]],
                       ncu_l2_read=ref[METRICS[2]] * 32, ncu_launches=ref["launches"],
                       ncu_read_range=[ref[METRICS[0] + ":min"], ref[METRICS[0] + ":max"]],
                       ncu_written_range=[ref[METRICS[1] + ":min"], ref[METRICS[1] + ":max"]])
        at_base = base.get((variant, kernel))
        if at_base:
            row.update(ncu_base_read=at_base[METRICS[0]], ncu_base_written=at_base[METRICS[1]],
                       ncu_base_read_range=[at_base[METRICS[0] + ":min"],
                                            at_base[METRICS[0] + ":max"]])
        rows.append(row)
    return rows


def megabytes(value):
    return "%.3f" % (value / 1e6) if value is not None else "-"


HEADER = ("case", "variant", "kernel", "model rd MB", "FS rd MB", "ncu rd MB", "rd FS/ncu",
          "FS rd range MB", "ncu rd range MB", "model wr MB", "FS wr MB", "ncu wr MB", "wr FS/ncu",
          "ncu wr range MB", "L2 rd FS/ncu", "ok", "ncu@base rd MB", "ncu@base rd range MB",
          "clocks")


def clock_flag(row):
    """'moves' where ncu's DRAM bytes with its clocks locked to base differ from its bytes at free
    clocks by more than the target, 'same' where not, '-' without both."""
    if row.get("ncu_base_read") is None or row.get("ncu_read") is None:
        return "-"
    same = (within(row["ncu_base_read"], row["ncu_read"]) and
            within(row["ncu_base_written"], row["ncu_written"]))
    return "same" if same else "moves"


def range_cell(values):
    if not values or values[0] is None or values[1] is None:
        return "-"
    return "%s-%s" % tuple(megabytes(v) for v in values)


def table_lines(rows):
    """The table as aligned lines, and how many kernels miss the target."""
    table = [HEADER]
    misses = 0
    for r in rows:
        have = r.get("ncu_read") is not None and r.get("fs_read") is not None
        ok = verdict(r)
        misses += 0 if ok in ("yes", "spread") else 1

        def ratio(a, b):
            return ("%.3f" % (a / b)) if have and b else "-"

        table.append((r["case"], r["variant"], r["kernel"], megabytes(r["model_read"]),
                      megabytes(r["fs_read"]), megabytes(r.get("ncu_read")),
                      ratio(r["fs_read"], r.get("ncu_read")), range_cell(r.get("fs_read_range")),
                      range_cell(r.get("ncu_read_range")), megabytes(r["model_written"]),
                      megabytes(r["fs_written"]), megabytes(r.get("ncu_written")),
                      ratio(r["fs_written"], r.get("ncu_written")),
                      range_cell(r.get("ncu_written_range")),
                      ratio(r["fs_l2_read"], r.get("ncu_l2_read")), ok,
                      megabytes(r.get("ncu_base_read")), range_cell(r.get("ncu_base_read_range")),
                      clock_flag(r)))
    widths = [max(len(str(row[c])) for row in table) for c in range(len(HEADER))]
    return ["  ".join(str(v).ljust(w) for v, w in zip(row, widths)) for row in table], misses


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cli", help="fusescope-cli to measure (and profile)")
    parser.add_argument("--ncu", default="ncu")
    parser.add_argument("--out", default="counters-vs-ncu")
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--budget", type=float, default=1e9,
                        help="seconds: cases that would start later are skipped and reported")
    parser.add_argument("--case-timeout", type=float, default=150)
    parser.add_argument("--launches", type=int, default=5,
                        help="launches of each kernel each side counts (2 to 9, default 5)")
    parser.add_argument("--no-base-clocks", action="store_true",
                        help="skip the third run, ncu with its clocks locked to base")
    parser.add_argument("--from-saved", action="store_true",
                        help="run nothing: make the table again from the files in --out")
    args = parser.parse_args()
    if not args.cli and not args.from_saved:
        parser.error("--cli is needed unless --from-saved")
    if not 2 <= args.launches <= 9:
        parser.error("--launches: 2 to 9")
    # The timed run launches each kernel once to check it, then once a repeat.
    timed = COMMON + ["--repeat", str(args.launches - 1)]
    os.makedirs(args.out, exist_ok=True)
    started = time.monotonic()

    rows = []
    failures = []
    skipped = []
    for case in args.cases.split(","):
        if case not in CASES:
            print("unknown case %s (known: %s)" % (case, ", ".join(CASES)), file=sys.stderr)
            return 2
        if time.monotonic() - started > args.budget:
            skipped.append(case)
            continue
        shape = CASES[case]
        recording = os.path.join(args.out, "fusescope-%s.json" % case)
        ncu_log = os.path.join(args.out, "ncu-%s.csv" % case)
        ncu_base_log = os.path.join(args.out, "ncu-base-%s.csv" % case)
        if args.from_saved:
            if not (os.path.exists(recording) and os.path.exists(ncu_log)):
                skipped.append(case)
                continue
            rows += compare(case, recording, ncu_log, ncu_base_log)
            continue
        code, seconds = run([args.cli, "run"] + shape + timed +
                            ["--measure", "counters", "--counted-launches", str(args.launches),
                             "--json", recording],
                            os.path.join(args.out, "fusescope-%s.log" % case), args.case_timeout)
        print("# %s: FuseScope counters rc=%d in %.0f s" % (case, code, seconds), flush=True)
        if code != 0 or not os.path.exists(recording):
            failures.append(case + " (FuseScope)")
            continue
        _, status = fusescope_kernels(recording)
        if status:
            print("# %s: counter status: %s" % (case, status))
        def profile(clock_control, log):
            return run([args.ncu, "--clock-control", clock_control, "--metrics",
                        ",".join(METRICS), "--csv", "--print-units", "base", "--nvtx",
                        "--print-nvtx-rename", "kernel", "--log-file", log, args.cli, "run"] +
                       shape + timed, log[:-len(".csv")] + ".log", args.case_timeout)
        code, seconds = profile("none", ncu_log)
        print("# %s: ncu rc=%d in %.0f s" % (case, code, seconds), flush=True)
        if not args.no_base_clocks:
            base_code, seconds = profile("base", ncu_base_log)
            print("# %s: ncu, clocks locked to base, rc=%d in %.0f s" % (case, base_code, seconds),
                  flush=True)
            if base_code != 0:
                failures.append(case + " (ncu at base clocks)")
        case_rows = (compare(case, recording, ncu_log, ncu_base_log)
                     if os.path.exists(ncu_log) else [])
        if code != 0 or not any("ncu_read" in r for r in case_rows):
            failures.append(case + " (ncu)")
            continue
        rows += case_rows
        for line in table_lines([r for r in rows if r["case"] == case])[0][1:]:
            print(line, flush=True)

    with open(os.path.join(args.out, "counters-vs-ncu.json"), "w") as f:
        json.dump(rows, f, indent=1)
    lines, misses = table_lines(rows)
    with open(os.path.join(args.out, "counters-vs-ncu.txt"), "w") as f:
        for line in lines:
            print(line)
            f.write(line + "\n")
    print("target: |FuseScope median - ncu median| <= max(3%% of it, 1 MB) for DRAM read and "
          "write (yes), or inside the range of ncu's own launches (spread); %d of %d kernels "
          "neither" % (misses, len(rows)))
    moved = ["%s %s/%s" % (r["case"], r["variant"], r["kernel"]) for r in rows
             if clock_flag(r) == "moves"]
    if any(clock_flag(r) != "-" for r in rows):
        print("with ncu's clocks locked to base (its default), %d of %d kernels count DRAM bytes "
              "outside the target of ncu's at free clocks%s" %
              (len(moved), len(rows), (": " + ", ".join(moved)) if moved else ""))
    if skipped:
        print("skipped (budget): " + ", ".join(skipped))
    if failures:
        print("failed: " + ", ".join(failures))
        return 2
    return 1 if misses or skipped else 0


if __name__ == "__main__":
    sys.exit(main())
