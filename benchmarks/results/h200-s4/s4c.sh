#!/usr/bin/env bash
# Fourth session's third H200 call: racecheck on the lesson kernel in float32 and TF32 (and the
# other variants) at a small odd shape, where it finishes; the unified lesson kernel body's GPU
# tests; memcheck and initcheck at the same shape.
set -u
root=$(pwd); here=$root/.device-s4
work=/tmp/fs-s4c; rm -rf $work; mkdir -p $work/r
tar -C $work -xzf $here/fusescope-*.tar.gz
b=$(ls -d $work/fusescope-*/ | head -1); b=${b%/}
cli="$b/fusescope-cli"; r=$work/r
export LD_LIBRARY_PATH="/usr/local/cuda-13.0/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export FUSESCOPE_KERNEL_CACHE=$work/kcache
cs=/usr/local/cuda-13.0/bin/compute-sanitizer
log=$r/log.txt; start=$SECONDS; budget=${BUDGET:-300}
pack() { tar czf "$OUT/s4c.tgz" -C $r . ; cp $log "$OUT/log.txt"; }
run() { local name=$1 limit=$2; shift 2; local left=$((budget-(SECONDS-start)));
  if ((left < 15)); then echo "== $name skipped (budget)" >> $log; return; fi
  ((limit > left-5)) && limit=$((left-5))
  echo "== $name $(date -u +%T) (limit ${limit}s): $*" >> $log; local t0=$SECONDS
  timeout -k 5 $limit "$@" > $r/$name.log 2>&1; echo "rc=$? $name $((SECONDS-t0))s (at $((SECONDS-start))s)" >> $log
  tail -${TAILN:-8} $r/$name.log >> $log; pack; }
TAILN=4 run test_mlp_tests 60 $b/tests/mlp_tests
TAILN=4 run test_tiles_gpu_tests 90 $b/tests/tiles_gpu_tests
TAILN=10 run time_classroom 40 $cli run --pipeline mlp --preset classroom --dtype bf16 --backend cuda --repeat 20
small=(--shape M=20,H=136,I=200 --backend cuda --repeat 1 --warmup 0 --no-roofs)
for tool in racecheck memcheck initcheck; do
  for d in fp32 tf32 bf16; do
    v=(); [[ $d == tf32 ]] && v=(--variants unfused,lesson_fused,merged_gate_up)
    TAILN=2 run san_${tool}_$d 80 $cs --tool $tool --error-exitcode 86 $cli run --pipeline mlp --dtype $d "${v[@]}" "${small[@]}"
  done
done
TAILN=2 run san_racecheck_tiles_tf32 80 $cs --tool racecheck --error-exitcode 86 $cli tiles --pipeline mlp --shape M=20,H=136,I=200 --dtype tf32 --grid block_m=16,32 --grid block_n=16,32 --repeat 1 --warmup 0 --backend cuda --no-references
pack
