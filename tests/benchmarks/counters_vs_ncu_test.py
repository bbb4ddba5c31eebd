#!/usr/bin/env python3
"""benchmarks/counters_vs_ncu.py --from-saved without a GPU: a FuseScope recording whose kernels
were counted five times and two ncu CSVs of five launches each (at free clocks and with the clocks
locked to base), written here, stand in for a run's files. Checks the table's verdicts (within
the target of ncu's median, inside ncu's own range, neither), that both sides' ranges of DRAM
reads are printed, which kernels' counts move with the clocks, and the exit status.

usage: counters_vs_ncu_test.py --script COUNTERS_VS_NCU
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys
import tempfile

MB = 1e6
NVTX = "thread Domain:Push/Pop_Range:PL_Type:PLM_Type"


def kernel(name, read, written, read_range):
    return {"name": name, "model_bytes_read": int(read), "model_bytes_written": int(written),
            "dram_bytes_read": read, "dram_bytes_written": written, "l2_sectors_read": read / 32,
            "device_kernels": 1, "counted_launches": 5, "dram_bytes_read_low": read_range[0],
            "dram_bytes_read_high": read_range[1]}


def write_recording(path):
    runs = [{"variant": "unfused", "kernels": [
                kernel("gemm_gate", 117.4 * MB, 0.03 * MB, (117.3 * MB, 117.5 * MB)),
                kernel("silu", 40 * MB, 20 * MB, (40 * MB, 40 * MB))]},
            {"variant": "lesson_fused", "kernels": [
                kernel("swiglu_mlp_lesson", 5571 * MB, 4.4 * MB, (3795 * MB, 7214 * MB))]}]
    with open(path, "w") as f:
        json.dump({"format": "fusescope-recording", "runs": runs, "counter_status": ""}, f)


FREE_CLOCKS = {"unfused/gemm_gate": [(117.45 * MB, 0.05 * MB)] * 5,
               "unfused/silu": [(38 * MB, 20 * MB), (42 * MB, 20 * MB), (36 * MB, 20 * MB),
                                (44 * MB, 20 * MB), (37 * MB, 20 * MB)],
               "lesson_fused/swiglu_mlp_lesson": [(4432 * MB, 4.4 * MB), (3351 * MB, 4.4 * MB),
                                                  (4445 * MB, 4.4 * MB), (2851 * MB, 4.4 * MB),
                                                  (4669 * MB, 4.4 * MB)]}
# At base clocks the lesson kernel's blocks keep pace and its reads settle; the others agree.
BASE_CLOCKS = dict(FREE_CLOCKS, **{
    "lesson_fused/swiglu_mlp_lesson": [(1264 * MB, 4.4 * MB), (1260 * MB, 4.4 * MB),
                                       (1266 * MB, 4.4 * MB), (1262 * MB, 4.4 * MB),
                                       (1264 * MB, 4.4 * MB)]})


def write_ncu(path, launches):
    """ncu's CSV of these launches, five a kernel, in ncu's column layout."""
    with open(path, "w", newline="") as f:
        f.write("==PROF== Connected to process\n")
        writer = csv.writer(f, quoting=csv.QUOTE_ALL)
        writer.writerow(["ID", "Kernel Name", NVTX, "Metric Name", "Metric Unit", "Metric Value"])
        launch = 0
        for name, counts in launches.items():
            for read, written in counts:
                for metric, value in (("dram__bytes_read.sum", read),
                                      ("dram__bytes_write.sum", written),
                                      ("lts__t_sectors_srcunit_tex_op_read.sum", read / 32)):
                    writer.writerow([launch, "kernel", "<default domain>:%s:" % name, metric,
                                     "byte" if metric.startswith("dram") else "sector",
                                     "%.0f" % value])
                launch += 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--script", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        write_recording(os.path.join(folder, "fusescope-decode-1.json"))
        write_ncu(os.path.join(folder, "ncu-decode-1.csv"), FREE_CLOCKS)
        write_ncu(os.path.join(folder, "ncu-base-decode-1.csv"), BASE_CLOCKS)
        result = subprocess.run([sys.executable, args.script, "--from-saved", "--out", folder,
                                 "--cases", "decode-1"], capture_output=True, text=True,
                                timeout=60)
        print(result.stdout + result.stderr)
        failures = []
        if result.returncode != 1:
            failures.append("exit status %d, not 1 (one kernel misses)" % result.returncode)
        header = next((line for line in result.stdout.splitlines()
                       if line.startswith("case")), "")
        # Cells are set apart by two spaces or more; a header's words by one.
        columns = re.split(r"\s{2,}", header.strip())
        rows = {line.split()[2]: dict(zip(columns, line.split()))
                for line in result.stdout.splitlines() if line.startswith("decode-1")}
        expected = {"gemm_gate": ("yes", "same"), "silu": ("spread", "same"),
                    "swiglu_mlp_lesson": ("NO", "moves")}
        for name, (verdict, clocks) in expected.items():
            if name not in rows:
                failures.append("no row for " + name)
                continue
            if rows[name].get("ok") != verdict:
                failures.append("%s: %s, not %s" % (name, rows[name].get("ok"), verdict))
            if rows[name].get("clocks") != clocks:
                failures.append("%s: clocks %s, not %s" % (name, rows[name].get("clocks"), clocks))
        if rows.get("swiglu_mlp_lesson", {}).get("ncu@base rd MB") != "1264.000":
            failures.append("the lesson kernel's row lacks ncu's median at base clocks, 1264.000")
        lesson = rows.get("swiglu_mlp_lesson", {}).values()
        for cell in ("3795.000-7214.000", "2851.000-4669.000"):
            if cell not in lesson:
                failures.append("the lesson kernel's row lacks the range " + cell)
        if "1 of 3 kernels neither" not in result.stdout:
            failures.append("the summary does not count one miss")
        if ("1 of 3 kernels count DRAM bytes outside the target of ncu's at free clocks: "
                "decode-1 lesson_fused/swiglu_mlp_lesson") not in result.stdout:
            failures.append("the summary does not name the one kernel whose count moves with "
                            "the clocks")
        for failure in failures:
            print("FAIL: " + failure)
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
