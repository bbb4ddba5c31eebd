#!/bin/bash
# Run 2: A = 85e8c6a (lesson bf16 kernel), B = 2f4ed94 (+ prefill gate_up whole-tile copies),
# C = 04adc37 (+ ldmatrix before next copies in both). Each: GPU tests, memcheck; A: every preset
# and the peers; B, C: classroom and prefill; A's classroom again at the end (drift bracket).
set -u
here=$(cd "$(dirname "$0")" && pwd)
w=/tmp/run2; mkdir -p $w
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
export PYTHONUNBUFFERED=1
t0=$(date +%s); el() { echo "[t=$(( $(date +%s) - t0 ))s]"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > $w/env.log 2>&1
for s in A B C; do
  echo "== $s tests $(el)"; timeout 60 $here/$s/mlp_tests > $w/tests_$s.log 2>&1; echo "rc=$?"; grep -E "FAILED|PASSED|Failure|rror" $w/tests_$s.log | head -12
  echo "== $s memcheck $(el)"; timeout 60 compute-sanitizer --tool memcheck --leak-check no $here/$s/mlp_tests --gtest_filter='*Cuda*' > $w/memcheck_$s.log 2>&1; echo "rc=$?"; tail -2 $w/memcheck_$s.log
done
echo "== A benchmark $(el)"; timeout 120 $here/A/mlp_benchmark --json $w/mlp_benchmark_A.json > $w/benchmark_A.log 2>&1; echo "rc=$?"; cat $w/benchmark_A.log
echo "== peers $(el)"; timeout 120 python3 $here/mlp_peers.py --json $w/mlp_peers.json > $w/peers.log 2>&1; echo "rc=$?"; grep -v Warning $w/peers.log | tail -10
for s in B C A; do
  echo "== $s classroom+prefill $(el)"; timeout 60 $here/$s/mlp_benchmark --presets classroom,prefill_m512,prefill_m4096 --json $w/mlp_benchmark_${s}2.json > $w/benchmark_${s}2.log 2>&1; echo "rc=$?"; grep -E "lesson|production|unfused" $w/benchmark_${s}2.log
done
tar czf $OUT/run2.tgz -C /tmp run2; echo "done $(el)"
