#!/usr/bin/env bash
# The session's last H200 call: GPU tests, shipped recordings (counters per launch, L2 requests),
# the MLP under compute-sanitizer, the device choice, and screenshots of every tab.
set -u
root=$(pwd); here=$root/.device-final
work=/tmp/fs-final; rm -rf $work; mkdir -p $work/r/shots
tar -C $work -xzf $here/fusescope-*.tar.gz
b=$(ls -d $work/fusescope-*/ | head -1); b=${b%/}
cli="$b/fusescope-cli"; r=$work/r
export LD_LIBRARY_PATH="/usr/local/cuda-13.0/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export QT_QPA_PLATFORM=offscreen QT_PLUGIN_PATH="$b/plugins" QT_QPA_FONTDIR="$b/fonts" FONTCONFIG_FILE="$b/etc/fonts.conf"
export FUSESCOPE_KERNEL_CACHE=$work/kcache
log=$r/log.txt; start=$SECONDS; budget=${BUDGET:-540}
pack() { tar czf "$OUT/final.tgz" -C $r . ; cp $log "$OUT/log.txt"; }
run() { local name=$1 limit=$2; shift 2; local left=$((budget-(SECONDS-start)));
  if ((left < 15)); then echo "== $name skipped (budget)" >> $log; return; fi
  ((limit > left-5)) && limit=$((left-5))
  echo "== $name $(date -u +%T) (limit ${limit}s): $*" >> $log; local t0=$SECONDS
  timeout -k 5 $limit "$@" > $r/$name.log 2>&1; echo "rc=$? $name ${SECONDS-t0}s" >> $log
  tail -${TAILN:-30} $r/$name.log >> $log; pack; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >> $log
for t in cuda_tests measure_gpu_tests measure_tests mlp_tests tiles_gpu_tests; do [[ -x $b/tests/$t ]] && TAILN=8 run test_$t 150 $b/tests/$t; done
run swiglu 120 $cli run --pipeline swiglu --variants all --n 67108864 --vector 4 --backend cuda --measure all --json $r/h200-swiglu-2e26.json
run affine 120 $cli run --pipeline affine --variants all --n 67108864 --vector 4 --backend cuda --measure all --json $r/h200-affine-2e26.json
run swiglu_l2 90 $cli run --pipeline swiglu --variants all --n 4194304 --vector 4 --backend cuda --measure all --json $r/h200-swiglu-2e22-in-l2.json
for p in classroom decode-1 decode-16 prefill-4096; do
  TAILN=45 run mlp_$p 150 $cli run --pipeline mlp --preset $p --dtype bf16 --backend cuda --measure all --json $r/h200-mlp-$p-bf16.json
done
run mlp_classroom_fp32 150 $cli run --pipeline mlp --preset classroom --dtype fp32 --backend cuda --measure all --json $r/h200-mlp-classroom-fp32.json
run sweep 150 $cli sweep --pipeline swiglu --variants fused,scratch,two_launch --from 4096 --to 268435456 --steps-per-octave 1 --vector 4 --backend cuda --json $r/h200-swiglu-size-sweep.json
run device0 60 $cli run --pipeline swiglu --n 1048576 --device 0 --backend cuda --json $r/device0.json
run device1 60 $cli run --pipeline swiglu --n 1048576 --device 1 --backend cuda
run nocublas 60 env FUSESCOPE_CUBLAS=/nonexistent/libcublas.so.13 $cli run --pipeline mlp --preset quick --backend cuda
TAILN=14 run soak_cuda 150 $b/tests/worker_soak --backend cuda --runs 1000 --pipeline swiglu --n 1048576
run sanitizer_mlp 150 /usr/local/cuda-13.0/bin/compute-sanitizer --tool memcheck --error-exitcode 86 $cli run --pipeline mlp --preset odd --dtype bf16 --backend cuda --repeat 1 --warmup 0
[[ -x $here/shots.sh ]] && run shots 240 bash $here/shots.sh "$b" "$r"
pack
