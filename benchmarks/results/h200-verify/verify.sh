#!/usr/bin/env bash
# After the merges: GPU tests, counters in one session (L2 kept between kernels) with the
# per-launch fallback for cuBLAS split-K, the shipped recordings again, the device choice.
set -u
root=$(pwd); here=$root/.device-final
work=/tmp/fs-v; rm -rf $work; mkdir -p $work/r
tar -C $work -xzf $here/fusescope-*.tar.gz
b=$(ls -d $work/fusescope-*/ | head -1); b=${b%/}
cli="$b/fusescope-cli"; r=$work/r
export LD_LIBRARY_PATH="/usr/local/cuda-13.0/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export QT_QPA_PLATFORM=offscreen QT_PLUGIN_PATH="$b/plugins" QT_QPA_FONTDIR="$b/fonts" FONTCONFIG_FILE="$b/etc/fonts.conf"
log=$r/log.txt; start=$SECONDS; budget=${BUDGET:-400}
pack() { tar czf "$OUT/verify.tgz" -C $r . ; cp $log "$OUT/log.txt"; }
run() { local name=$1 limit=$2; shift 2; local left=$((budget-(SECONDS-start)));
  if ((left < 15)); then echo "== $name skipped (budget)" >> $log; return; fi
  ((limit > left-5)) && limit=$((left-5))
  echo "== $name $(date -u +%T): $*" >> $log
  timeout -k 5 $limit "$@" > $r/$name.log 2>&1; echo "rc=$? $name $((SECONDS-start))s" >> $log
  tail -${TAILN:-8} $r/$name.log >> $log; pack; }
for t in cuda_tests measure_gpu_tests mlp_tests tiles_gpu_tests kernels_tests worker_tests; do [[ -x $b/tests/$t ]] && run test_$t 150 $b/tests/$t; done
TAILN=14 run swiglu_l2 90 $cli run --pipeline swiglu --variants all --n 4194304 --vector 4 --backend cuda --measure all --json $r/h200-swiglu-2e22-in-l2.json
run swiglu 90 $cli run --pipeline swiglu --variants all --n 67108864 --vector 4 --backend cuda --measure all --json $r/h200-swiglu-2e26.json
run affine 90 $cli run --pipeline affine --variants all --n 67108864 --vector 4 --backend cuda --measure all --json $r/h200-affine-2e26.json
for p in classroom decode-1 decode-16 prefill-4096; do
  TAILN=30 run mlp_$p 120 $cli run --pipeline mlp --preset $p --dtype bf16 --backend cuda --measure all --json $r/h200-mlp-$p-bf16.json
done
run mlp_classroom_fp32 120 $cli run --pipeline mlp --preset classroom --dtype fp32 --backend cuda --measure all --json $r/h200-mlp-classroom-fp32.json
run device1 30 $cli run --pipeline swiglu --n 1048576 --device 1 --backend cuda
pack
