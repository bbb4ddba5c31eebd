#!/usr/bin/env bash
# Fifth session's H200 call (carry .device-s5, holding the bundle staged from build/ci and this
# script's helpers): GPU tests, Ctrl-C in a prefill run on the GPU and on its 16-core CPU, the
# shared-memory refusal, counters against ncu, the shipped recordings re-made with every
# measurement and thinned, and GUI screenshots (normal and presentation layouts).
set -u
root=$(pwd); here=$root/.device-s5
work=/tmp/fs-s5; rm -rf $work; mkdir -p $work/r
tar -C $work -xzf $here/fusescope-*.tar.gz
b=$(ls -d $work/fusescope-*/ | head -1); b=${b%/}
cli="$b/fusescope-cli"; gui="$b/fusescope"; r=$work/r
export LD_LIBRARY_PATH="/usr/local/cuda-13.0/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export QT_QPA_PLATFORM=offscreen QT_PLUGIN_PATH="$b/plugins" QT_QPA_FONTDIR="$b/fonts" FONTCONFIG_FILE="$b/etc/fonts.conf"
export FUSESCOPE_KERNEL_CACHE=$work/kcache
log=$r/log.txt; start=$SECONDS; budget=${BUDGET:-540}
pack() { tar czf "$OUT/s5.tgz" -C $r . ; cp $log "$OUT/log.txt"; }
run() { local name=$1 limit=$2; shift 2; local left=$((budget-(SECONDS-start)))
  if ((left < 15)); then echo "== $name skipped (budget)" >> $log; return; fi
  ((limit > left-5)) && limit=$((left-5))
  echo "== $name $(date -u +%T) (limit ${limit}s): $*" >> $log; local t0=$SECONDS
  timeout -k 5 $limit "$@" > $r/$name.log 2>&1; echo "rc=$? $name $((SECONDS-t0))s (at $((SECONDS-start))s)" >> $log
  tail -${TAILN:-8} $r/$name.log >> $log; pack; }
nvidia-smi --query-gpu=name,driver_version,compute_mode,memory.used,memory.total --format=csv >> $log
# Cancel on the GPU: SIGINT to a long CLI run, and the GUI closed mid-run; how long each took to end.
TAILN=12 run cancel 60 bash $here/cancel_gpu.sh "$cli" "$r"
TAILN=4 run smem_refusal 60 $cli run --pipeline mlp --preset classroom --dtype tf32 --variants lesson_fused --tile block_m=128,block_n=128,block_h=64,block_i=64 --backend cuda
for t in cuda_tests tiles_gpu_tests measure_gpu_tests worker_tests mlp_tests kernels_tests; do [[ -x $b/tests/$t ]] && run test_$t 120 $b/tests/$t --gtest_brief=1; done
# The shipped recordings, re-made with counters, PM samples and the timeline, then thinned.
mkdir -p $r/ship
for spec in "classroom bf16" "classroom fp32" "decode-1 bf16" "decode-16 bf16" "prefill-4096 bf16"; do set -- $spec
  TAILN=3 run ship_mlp_$1_$2 60 $cli run --pipeline mlp --preset $1 --dtype $2 --backend cuda --measure all --json $r/ship/full-mlp-$1-$2.json
done
TAILN=3 run ship_swiglu_2e26 60 $cli run --pipeline swiglu --variants all --n 67108864 --backend cuda --measure all --json $r/ship/full-swiglu-2e26.json
TAILN=3 run ship_affine_2e26 60 $cli run --pipeline affine --variants all --n 67108864 --backend cuda --measure all --json $r/ship/full-affine-2e26.json
TAILN=3 run ship_swiglu_2e22 60 $cli run --pipeline swiglu --variants all --n 4194304 --backend cuda --measure all --json $r/ship/full-swiglu-2e22.json
for f in $r/ship/full-*.json; do n=$(basename $f); $cli shrink $f --json $r/ship/${n#full-} >> $r/shrink.log 2>&1; rm -f $f; done
for f in $r/ship/*.json; do echo "== $f" >> $r/show.log; $cli show $f >> $r/show.log 2>&1; done
grep -c "none of the known causes" $r/show.log >> $log
TAILN=60 run counters_vs_ncu 150 python3 $root/benchmarks/counters_vs_ncu.py --cli $cli --out $r/counters --case-timeout 80
[[ -f $here/shots.sh ]] && run shots 150 bash $here/shots.sh "$b" "$r"
pack
