#!/usr/bin/env bash
# Third session's H200 call: GPU tests, chain timing of the MLP, compute-sanitizer (memcheck,
# racecheck, initcheck) on every kernel family incl. NVRTC tiles, tie stability of a 48-cell
# tile sweep repeated 10 times, the helpers' GPU checks, screenshots from the bundle.
set -u
root=$(pwd); here=$root/.device-s3
work=/tmp/fs-s3; rm -rf $work; mkdir -p $work/r
tar -C $work -xzf $here/fusescope-*.tar.gz
b=$(ls -d $work/fusescope-*/ | head -1); b=${b%/}
cli="$b/fusescope-cli"; r=$work/r
export LD_LIBRARY_PATH="/usr/local/cuda-13.0/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export QT_QPA_PLATFORM=offscreen QT_PLUGIN_PATH="$b/plugins" QT_QPA_FONTDIR="$b/fonts" FONTCONFIG_FILE="$b/etc/fonts.conf"
export FUSESCOPE_KERNEL_CACHE=$work/kcache
cs=/usr/local/cuda-13.0/bin/compute-sanitizer
log=$r/log.txt; start=$SECONDS; budget=${BUDGET:-540}
pack() { tar czf "$OUT/s3.tgz" -C $r . ; cp $log "$OUT/log.txt"; }
run() { local name=$1 limit=$2; shift 2; local left=$((budget-(SECONDS-start)));
  if ((left < 15)); then echo "== $name skipped (budget)" >> $log; return; fi
  ((limit > left-5)) && limit=$((left-5))
  echo "== $name $(date -u +%T) (limit ${limit}s): $*" >> $log; local t0=$SECONDS
  timeout -k 5 $limit "$@" > $r/$name.log 2>&1; echo "rc=$? $name $((SECONDS-t0))s (at $((SECONDS-start))s)" >> $log
  tail -${TAILN:-8} $r/$name.log >> $log; pack; }
nvidia-smi --query-gpu=name,driver_version,memory.used,memory.total --format=csv >> $log
for t in cuda_tests measure_gpu_tests mlp_tests tiles_gpu_tests kernels_tests worker_tests; do [[ -x $b/tests/$t ]] && run test_$t 120 $b/tests/$t; done
# Chains timed back to back (no --measure: timing only).
for p in decode-1 decode-4 decode-8 decode-16 prefill-4096 classroom; do
  TAILN=16 run time_$p 60 $cli run --pipeline mlp --preset $p --dtype bf16 --backend cuda --repeat 20 --json $r/time-$p.json
done
TAILN=16 run time_classroom_fp32 60 $cli run --pipeline mlp --preset classroom --dtype fp32 --backend cuda --repeat 20
[[ -f $here/extra.sh ]] && run extra 120 bash $here/extra.sh "$b" "$r"
# Tie stability: the same 48-cell sweep 10 times (cache cold for the first); screenshots after
# the first, then the sanitizers, then the other nine.
t48() { TAILN=2 run tiles48_$1 60 $cli tiles --pipeline mlp --preset classroom --dtype bf16 --tile 32,64,64,64 --grid block_m=16..128 --grid block_n=16..128 --grid block_i=32,64,128 --repeat 10 --backend cuda --json $r/tiles48-$1.json; }
t48 0
[[ -f $here/shots.sh ]] && run shots 110 bash $here/shots.sh "$b" "$r"
for i in 1 2 3 4 5 6 7 8 9; do t48 $i; done
# compute-sanitizer on every kernel family, small shapes. racecheck and initcheck skip cuBLAS's
# own kernels (the compute roof's 8192^3 GEMM would take minutes under them) where the option works.
exclude=(--kernel-name-exclude "regex=nvjet|xmma|cutlass|gemm_|cublas")
$cs "${exclude[@]}" --tool memcheck true > $r/exclude-probe.log 2>&1 || exclude=()
echo "cuBLAS exclusion: ${exclude[*]:-(option refused, none)}" >> $log
for tool in memcheck racecheck initcheck; do
  opts=(--tool $tool --error-exitcode 86); [[ $tool != memcheck ]] && opts+=("${exclude[@]}")
  TAILN=3 run san_${tool}_swiglu 30 $cs "${opts[@]}" $cli run --pipeline swiglu --variants all --n 100003 --backend cuda --repeat 1 --warmup 0
  TAILN=3 run san_${tool}_affine 30 $cs "${opts[@]}" $cli run --pipeline affine --variants all --n 100003 --backend cuda --repeat 1 --warmup 0
  for d in bf16 fp32; do
    TAILN=3 run san_${tool}_mlp_$d 45 $cs "${opts[@]}" $cli run --pipeline mlp --preset odd --dtype $d --backend cuda --repeat 1 --warmup 0
  done
  TAILN=3 run san_${tool}_prod_tiles 45 $cs "${opts[@]}" $cli run --pipeline mlp --variants production --shape M=201,H=1000,I=2750 --dtype bf16 --tile tile_m=64,tile_i=32 --backend cuda --repeat 1 --warmup 0
  TAILN=3 run san_${tool}_tiles 45 $cs "${opts[@]}" $cli tiles --pipeline mlp --shape M=37,H=200,I=168 --dtype bf16 --tile 16,32,32,32 --grid block_m=16,32 --grid block_n=32,64 --repeat 1 --warmup 0 --backend cuda
done
pack
