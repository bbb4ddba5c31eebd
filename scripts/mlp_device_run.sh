#!/bin/bash
# Runs the MLP's GPU checks and measurements on the H200 machine from a staged folder holding
# mlp_tests, mlp_benchmark and mlp_peers.py; logs and JSON go to $OUT. Each step has its own time
# limit so that one slow step cannot take the others' time.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/mlp-out}
mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
export PYTHONUNBUFFERED=1
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv
  cuobjdump --dump-resource-usage "$here/mlp_benchmark" 2>&1 | grep -E "Function|REG" | grep -B1 -E "LOCAL:[0-9]" | grep -iE "mlp|gemv|silu|mult|REG" | head -60
} > "$out/env.log" 2>&1
echo "== tests"; timeout 100 "$here/mlp_tests" > "$out/tests.log" 2>&1; echo "tests rc=$?"; tail -4 "$out/tests.log"
# MLP_BENCH_ARGS: extra benchmark options (default: the decode launch sweep).
echo "== benchmark"; timeout ${MLP_BENCH_TIMEOUT:-200} "$here/mlp_benchmark" --json "$out/mlp_benchmark.json" ${MLP_BENCH_ARGS---decode-sweep 1} 2>&1 | tee "$out/benchmark.log"; echo "benchmark rc=${PIPESTATUS[0]}"
echo "== peers"; timeout 150 python3 "$here/mlp_peers.py" --json "$out/mlp_peers.json" > "$out/peers.log" 2>&1; echo "peers rc=$?"; cat "$out/peers.log" | grep -v Warning | tail -12
if [ "${MLP_SKIP_MEMCHECK:-0}" != 1 ]; then
  echo "== memcheck"; timeout 110 compute-sanitizer --tool memcheck --leak-check no "$here/mlp_tests" --gtest_filter='*Cuda*' > "$out/memcheck.log" 2>&1; echo "memcheck rc=$?"; tail -3 "$out/memcheck.log"
fi
# MLP_NCU=1: Nsight Compute on the lesson kernel (bf16, then float32: 24 bf16 launches come first)
# and on the bf16 prefill gate_up kernel, clocks left alone.
if [ "${MLP_NCU:-0}" = 1 ]; then
  # Requested bytes: L2 sectors read and written on behalf of the SMs (32 bytes each).
  secs="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --metrics lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,dram__bytes_read.sum"
  {
    timeout 60 ncu --clock-control none --kernel-name regex:swigluMlpLesson --launch-count 1 $secs "$here/mlp_benchmark" --presets classroom
    timeout 60 ncu --clock-control none --kernel-name regex:swigluMlpLesson --launch-skip 24 --launch-count 1 $secs "$here/mlp_benchmark" --presets classroom
    timeout 90 ncu --clock-control none --kernel-name regex:gemmGateUpSiluMma --launch-count 1 $secs "$here/mlp_benchmark" --presets prefill-4096
  } > "$out/ncu.log" 2>&1
  echo "ncu rc=$?"
  grep -E "^  [a-z].*\(|Duration|DRAM Throughput|L2 Cache Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Theoretical Occupancy|Warp Cycles Per Issued|Stall|L1/TEX Hit|L2 Hit|lts__t_sectors|dram__bytes" "$out/ncu.log" | cut -c1-140 | head -60
fi
