#!/usr/bin/env bash
# Fourth session's first H200 call: GPU tests, the Hopper gate_up kernel and the held timing start
# (MLP times at every preset), compute-sanitizer with the roofs left out (--no-roofs), the GPU
# failure tests one process each.
set -u
root=$(pwd); here=$root/.device-s4
work=/tmp/fs-s4; rm -rf $work; mkdir -p $work/r
tar -C $work -xzf $here/fusescope-*.tar.gz
b=$(ls -d $work/fusescope-*/ | head -1); b=${b%/}
cli="$b/fusescope-cli"; r=$work/r
export LD_LIBRARY_PATH="/usr/local/cuda-13.0/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export QT_QPA_PLATFORM=offscreen QT_PLUGIN_PATH="$b/plugins" QT_QPA_FONTDIR="$b/fonts" FONTCONFIG_FILE="$b/etc/fonts.conf"
export FUSESCOPE_KERNEL_CACHE=$work/kcache
cs=/usr/local/cuda-13.0/bin/compute-sanitizer
log=$r/log.txt; start=$SECONDS; budget=${BUDGET:-540}
pack() { tar czf "$OUT/s4.tgz" -C $r . ; cp $log "$OUT/log.txt"; }
run() { local name=$1 limit=$2; shift 2; local left=$((budget-(SECONDS-start)));
  if ((left < 15)); then echo "== $name skipped (budget)" >> $log; return; fi
  ((limit > left-5)) && limit=$((left-5))
  echo "== $name $(date -u +%T) (limit ${limit}s): $*" >> $log; local t0=$SECONDS
  timeout -k 5 $limit "$@" > $r/$name.log 2>&1; echo "rc=$? $name $((SECONDS-t0))s (at $((SECONDS-start))s)" >> $log
  tail -${TAILN:-8} $r/$name.log >> $log; pack; }
nvidia-smi --query-gpu=name,driver_version,compute_mode,memory.used,memory.total --format=csv >> $log
for t in cuda_tests mlp_tests tiles_gpu_tests kernels_tests measure_gpu_tests worker_tests; do [[ -x $b/tests/$t ]] && run test_$t 120 $b/tests/$t; done
if [[ -x $b/tests/worker_gpu_failure_tests ]]; then
  for f in anOutOfMemoryIsReportedAndTheNextRunWorks aBrokenContextIsResetAndTheNextRunWorks aGpuGoneAtTheResetLeavesTheCpuAndSaysSo realGpuOutOfMemoryBeyondWhatIsFree realGpuKernelsLoadedBeforeAResetStillRunAfterIt realGpuIllegalAddressIsResetAndTheNextRunWorks; do
    TAILN=3 run failure_$f 40 $b/tests/worker_gpu_failure_tests $f
  done
fi
for p in prefill-4096 prefill-512 decode-1 decode-4 decode-8 decode-16 classroom; do
  TAILN=16 run time_$p 60 $cli run --pipeline mlp --preset $p --dtype bf16 --backend cuda --repeat 20 --json $r/time-$p.json
done
TAILN=16 run time_classroom_fp32 60 $cli run --pipeline mlp --preset classroom --dtype fp32 --backend cuda --repeat 20
TAILN=14 run time_swiglu 60 $cli run --pipeline swiglu --variants all --n 2^26 --backend cuda --repeat 20
TAILN=20 run prefill_counters 90 $cli run --pipeline mlp --preset prefill-4096 --dtype bf16 --variants production,unfused --backend cuda --repeat 5 --measure counters --json $r/prefill-counters.json
[[ -f $here/extra.sh ]] && run extra 120 bash $here/extra.sh "$b" "$r"
for tool in memcheck initcheck racecheck; do
  opts=(--tool $tool --error-exitcode 86)
  TAILN=3 run san_${tool}_hopper 60 $cs "${opts[@]}" $cli run --pipeline mlp --variants production --shape M=201,H=1000,I=2750 --dtype bf16 --backend cuda --repeat 1 --warmup 0 --no-roofs
  TAILN=3 run san_${tool}_mlp_bf16 60 $cs "${opts[@]}" $cli run --pipeline mlp --preset odd --dtype bf16 --backend cuda --repeat 1 --warmup 0 --no-roofs
  TAILN=3 run san_${tool}_mlp_fp32 60 $cs "${opts[@]}" $cli run --pipeline mlp --preset odd --dtype fp32 --backend cuda --repeat 1 --warmup 0 --no-roofs
  TAILN=3 run san_${tool}_prod_tiles 45 $cs "${opts[@]}" $cli run --pipeline mlp --variants production --shape M=201,H=1000,I=2750 --dtype bf16 --tile tile_m=64,tile_i=32 --backend cuda --repeat 1 --warmup 0 --no-roofs
  TAILN=3 run san_${tool}_tiles 45 $cs "${opts[@]}" $cli tiles --pipeline mlp --shape M=37,H=200,I=168 --dtype bf16 --tile 16,32,32,32 --grid block_m=16,32 --grid block_n=32,64 --repeat 1 --warmup 0 --backend cuda --no-references
done
for f in $r/san_racecheck_*.log; do echo "== $f" >> $log; grep -oE "(Read|Write) access at [A-Za-z0-9_]+" $f | sort | uniq -c | head -6 >> $log; done
pack
