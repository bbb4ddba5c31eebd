#!/usr/bin/env bash
# Second, short call: the failure tests after the change, racecheck on FuseScope's own MLP and
# tile kernels with cuBLAS's Hopper kernels (nvjet) left out, and the GPU's compute mode.
set -u
root=$(pwd); here=$root/.device-s3
work=/tmp/fs-s3b; rm -rf $work; mkdir -p $work/r
tar -C $work -xzf $here/fusescope-*.tar.gz
b=$(ls -d $work/fusescope-*/ | head -1); b=${b%/}; cli="$b/fusescope-cli"; r=$work/r
export LD_LIBRARY_PATH="/usr/local/cuda-13.0/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export QT_QPA_PLATFORM=offscreen QT_PLUGIN_PATH="$b/plugins" QT_QPA_FONTDIR="$b/fonts" FONTCONFIG_FILE="$b/etc/fonts.conf"
export FUSESCOPE_KERNEL_CACHE=$work/kcache
cs=/usr/local/cuda-13.0/bin/compute-sanitizer; log=$r/log.txt
pack() { cp $log "$OUT/log.txt"; tar czf "$OUT/s3b.tgz" -C $r . ; }
nvidia-smi --query-gpu=name,compute_mode,driver_version --format=csv >> $log 2>&1
timeout 40 $b/tests/worker_gpu_failure_tests > $r/gpu_failure.log 2>&1; echo "gpu_failure rc=$?" >> $log
grep -E "^(PASS|FAIL|SKIP)|Totals" $r/gpu_failure.log >> $log; pack
small=(run --pipeline swiglu --n 1000 --backend cuda --repeat 1 --warmup 0)
excl=()
for form in "kns=nvjet" "nvjet"; do
  if timeout 20 $cs --tool racecheck --kernel-name-exclude $form $cli "${small[@]}" > $r/probe.log 2>&1; then excl=(--kernel-name-exclude $form); break; fi
done
echo "exclusion: ${excl[*]:-none}" >> $log
for name in mlp_bf16 mlp_fp32 prod_tiles tiles; do
  case $name in
    mlp_bf16) args=(run --pipeline mlp --preset odd --dtype bf16 --backend cuda --repeat 1 --warmup 0);;
    mlp_fp32) args=(run --pipeline mlp --preset odd --dtype fp32 --backend cuda --repeat 1 --warmup 0);;
    prod_tiles) args=(run --pipeline mlp --variants production --shape M=201,H=1000,I=2750 --dtype bf16 --tile tile_m=64,tile_i=32 --backend cuda --repeat 1 --warmup 0);;
    tiles) args=(tiles --pipeline mlp --shape M=37,H=200,I=168 --dtype bf16 --tile 16,32,32,32 --grid block_m=16,32 --grid block_n=32,64 --repeat 1 --warmup 0 --backend cuda);;
  esac
  timeout 30 $cs --tool racecheck --error-exitcode 86 "${excl[@]}" $cli "${args[@]}" > $r/race_$name.log 2>&1
  echo "race_$name rc=$?" >> $log; grep -E "SUMMARY|Race reported" $r/race_$name.log | head -3 >> $log
  grep -oE "(Read|Write) access at [A-Za-z0-9_]+" $r/race_$name.log | sort | uniq -c | head -5 >> $log; pack
done
pack
