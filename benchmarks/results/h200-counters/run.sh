#!/usr/bin/env bash
# One H200 call for the counter fix: the GPU counter tests, then FuseScope's counters against
# ncu's for every case of benchmarks/counters_vs_ncu.py, then the build before the fix (old/) on
# decode-1 and prefill-512 for the before/after table. Staged by stage.sh beside this file into
# .device-counters/ (carried); run from the repository root:  BUDGET=380 bash .device-counters/run.sh
set -u
root=$(pwd); here=$root/.device-counters
work=/tmp/fs-counters; rm -rf $work; mkdir -p $work
tar -C $work -xzf $here/payload.tar.gz
export LD_LIBRARY_PATH="$work/lib:/usr/local/cuda-13.0/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export QT_QPA_PLATFORM=offscreen FUSESCOPE_KERNEL_CACHE=$work/kcache
r=$OUT; log=$r/log.txt; start=$SECONDS; budget=${BUDGET:-380}
left() { echo $((budget - (SECONDS - start))); }
step() { local name=$1 limit=$2; shift 2; local l=$(left)
  if ((l < 20)); then echo "== $name skipped (budget)" | tee -a $log; return; fi
  ((limit > l - 10)) && limit=$((l - 10))
  echo "== $name $(date -u +%T) (limit ${limit}s): $*" | tee -a $log; local t0=$SECONDS
  timeout -k 5 $limit "$@" > $work/$name.log 2>&1; echo "rc=$? $name $((SECONDS-t0))s (at $((SECONDS-start))s)" | tee -a $log
  tail -${TAILN:-12} $work/$name.log | tee -a $log; }
nvidia-smi --query-gpu=name,driver_version,memory.used,memory.total --format=csv | tee -a $log
TAILN=40 step gpu_tests 90 $work/new/measure_gpu_tests
step bench $(( $(left) - 60 )) python3 $here/counters_vs_ncu.py --cli $work/new/fusescope-cli --out $work/bench --budget $(( $(left) - 120 )) --case-timeout 100
cat $work/bench.log >> $log
for p in decode-1 prefill-512; do
  TAILN=3 step old_$p 40 $work/old/fusescope-cli run --pipeline mlp --preset $p --dtype bf16 --variants all --backend cuda --repeat 1 --warmup 0 --no-roofs --measure counters --json $work/bench/old-$p.json
done
tar czf $r/bench.tgz -C $work bench gpu_tests.log
echo "done at $((SECONDS-start))s" | tee -a $log
