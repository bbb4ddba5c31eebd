#!/bin/bash
# Run 1: verify HEAD's defaults (tests, memcheck, benchmark without sweep, peers), then the new
# lesson bf16 kernel's tests and stage variants, Triton's and our SASS, Nsight on the new kernel.
set -u
here=$(cd "$(dirname "$0")" && pwd)
w=/tmp/run1; mkdir -p $w
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
export PYTHONUNBUFFERED=1 TRITON_CACHE_DIR=/tmp/tritoncache
t0=$(date +%s); el() { echo "[t=$(( $(date +%s) - t0 ))s]"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > $w/env.log 2>&1
echo "== HEAD tests $(el)"; timeout 60 $here/mlp_tests > $w/tests.log 2>&1; echo "rc=$?"; grep -E "FAILED|PASSED|Failure|error" $w/tests.log | head -20
echo "== HEAD memcheck $(el)"; timeout 90 compute-sanitizer --tool memcheck --leak-check no $here/mlp_tests --gtest_filter='*Cuda*' > $w/memcheck.log 2>&1; echo "rc=$?"; tail -3 $w/memcheck.log
echo "== HEAD benchmark $(el)"; timeout 120 $here/mlp_benchmark --json $w/mlp_benchmark.json > $w/benchmark.log 2>&1; echo "rc=$?"; cat $w/benchmark.log
echo "== NEW tests $(el)"; timeout 60 $here/mlp_tests_new > $w/tests_new.log 2>&1; echo "rc=$?"; grep -E "FAILED|PASSED|Failure|error" $w/tests_new.log | head -20
echo "== NEW lesson variants $(el)"
for v in old 4 3 2 4ca 3ca; do echo "-- $v"; FUSESCOPE_LESSON_BF16=$v timeout 40 $here/mlp_benchmark_new --presets classroom 2>&1 | grep -E "lesson|roof"; done | tee $w/variants.log
echo "== peers $(el)"; timeout 120 python3 $here/mlp_peers.py --json $w/mlp_peers.json > $w/peers.log 2>&1; echo "rc=$?"; grep -v Warning $w/peers.log | tail -10
echo "== NEW memcheck $(el)"; timeout 60 compute-sanitizer --tool memcheck --leak-check no $here/mlp_tests_new --gtest_filter='*Cuda*' > $w/memcheck_new.log 2>&1; echo "rc=$?"; tail -2 $w/memcheck_new.log
echo "== sass $(el)"
cuobjdump -sass $here/mlp_benchmark_new 2>/dev/null | awk '/Function : /{p = ($0 ~ /[Ll]esson/)} p' > $w/lesson_sass.txt
grep -c "" $w/lesson_sass.txt
mkdir -p $w/triton; find $TRITON_CACHE_DIR -name "swiglu_mlp_kernel*" | while read f; do cp "$f" $w/triton/$(basename $(dirname $f))_$(basename $f); done
for f in $w/triton/*.cubin; do cuobjdump -sass "$f" > "$f.sass" 2>&1; done; ls $w/triton | head -40
echo "== ncu new 4-stage $(el)"
FUSESCOPE_LESSON_BF16=4 timeout 60 ncu --clock-control none --kernel-name regex:swigluMlpLessonBf16 --launch-count 1 --section SpeedOfLight --section WarpStateStats --section Occupancy --section InstructionStats --section LaunchStats --metrics lts__t_sectors_srcunit_tex_op_read.sum,smsp__inst_executed.sum $here/mlp_benchmark_new --presets classroom > $w/ncu_new.log 2>&1
grep -E "Duration|Throughput|Occupancy|Warp Cycles Per Issued|Executed Ipc|inst_executed|lts__t|Registers|Stall" $w/ncu_new.log | cut -c1-150 | head -30
tar czf $OUT/run1.tgz -C /tmp run1; echo "done $(el)"
