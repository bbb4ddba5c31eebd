#!/usr/bin/env bash
# Fourth session's second H200 call: GPU tests after the merges (TF32 dtype, shared NVRTC
# prelude, kernel lookup), TF32 runs and the lesson kernel against Triton at the same tiles and
# precision, recordings to ship, screenshots, racecheck of float32 and TF32.
set -u
root=$(pwd); here=$root/.device-s4
work=/tmp/fs-s4b; rm -rf $work; mkdir -p $work/r
tar -C $work -xzf $here/fusescope-*.tar.gz
b=$(ls -d $work/fusescope-*/ | head -1); b=${b%/}
cli="$b/fusescope-cli"; r=$work/r
export LD_LIBRARY_PATH="/usr/local/cuda-13.0/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export QT_QPA_PLATFORM=offscreen QT_PLUGIN_PATH="$b/plugins" QT_QPA_FONTDIR="$b/fonts" FONTCONFIG_FILE="$b/etc/fonts.conf"
export FUSESCOPE_KERNEL_CACHE=$work/kcache
cs=/usr/local/cuda-13.0/bin/compute-sanitizer
log=$r/log.txt; start=$SECONDS; budget=${BUDGET:-540}
pack() { tar czf "$OUT/s4b.tgz" -C $r --exclude='*.png' . ; tar czf "$OUT/shots.tgz" -C $r shots 2>/dev/null; cp $log "$OUT/log.txt"; }
run() { local name=$1 limit=$2; shift 2; local left=$((budget-(SECONDS-start)));
  if ((left < 15)); then echo "== $name skipped (budget)" >> $log; return; fi
  ((limit > left-5)) && limit=$((left-5))
  echo "== $name $(date -u +%T) (limit ${limit}s): $*" >> $log; local t0=$SECONDS
  timeout -k 5 $limit "$@" > $r/$name.log 2>&1; echo "rc=$? $name $((SECONDS-t0))s (at $((SECONDS-start))s)" >> $log
  tail -${TAILN:-8} $r/$name.log >> $log; pack; }
nvidia-smi --query-gpu=name,driver_version,compute_mode,memory.used,memory.total --format=csv >> $log
for t in mlp_tests tiles_gpu_tests cuda_tests kernels_tests worker_tests measure_gpu_tests; do [[ -x $b/tests/$t ]] && TAILN=6 run test_$t 120 $b/tests/$t; done
if [[ -x $b/tests/worker_gpu_failure_tests ]]; then
  for f in anOutOfMemoryIsReportedAndTheNextRunWorks aBrokenContextIsResetAndTheNextRunWorks aGpuGoneAtTheResetLeavesTheCpuAndSaysSo realGpuOutOfMemoryBeyondWhatIsFree realGpuKernelsLoadedBeforeAResetStillRunAfterIt realGpuIllegalAddressIsResetAndTheNextRunWorks; do
    TAILN=2 run failure_$f 40 $b/tests/worker_gpu_failure_tests $f
  done
fi
TAILN=14 run tf32_classroom 60 $cli run --pipeline mlp --preset classroom --dtype tf32 --variants unfused,lesson_fused,merged_gate_up --backend cuda --repeat 20
TAILN=10 run tf32_odd 60 $cli run --pipeline mlp --preset odd --dtype tf32 --variants unfused,lesson_fused,merged_gate_up --backend cuda --repeat 5
TAILN=4 run tf32_all_refused 30 $cli run --pipeline mlp --preset classroom --dtype tf32 --backend cuda
TAILN=40 run peers 150 python3 $here/mlp_peers.py --presets classroom --fusescope $b/bin/mlp_benchmark --json $r/peers.json
# Recordings to ship: every MLP preset that ships, measured (counters, PM samples, timeline).
for spec in "classroom bf16" "classroom fp32" "decode-1 bf16" "decode-16 bf16" "prefill-4096 bf16"; do set -- $spec
  TAILN=4 run ship_$1_$2 60 $cli run --pipeline mlp --preset $1 --dtype $2 --backend cuda --measure all --json $r/ship-mlp-$1-$2.json
done
[[ -f $here/shots.sh ]] && run shots 110 bash $here/shots.sh "$b" "$r"
TAILN=3 run tiles_prod_prefill512 60 $cli tiles --variant production --preset prefill-512 --dtype bf16 --grid tile_m=64,128 --grid tile_i=32..128 --repeat 10
TAILN=3 run tiles_lesson_decode1 60 $cli tiles --preset decode-1 --dtype bf16 --grid block_m=16..32 --grid block_n=16..128 --repeat 10
for tool in memcheck racecheck; do
  TAILN=3 run san_${tool}_tf32 90 $cs --tool $tool --error-exitcode 86 $cli run --pipeline mlp --preset odd --dtype tf32 --variants unfused,lesson_fused,merged_gate_up --backend cuda --repeat 1 --warmup 0 --no-roofs
done
TAILN=3 run san_racecheck_mlp_fp32 200 $cs --tool racecheck --error-exitcode 86 $cli run --pipeline mlp --preset odd --dtype fp32 --backend cuda --repeat 1 --warmup 0 --no-roofs
pack
