#!/usr/bin/env bash
# The helpers' GPU checks: failures (OOM, illegal address, reset), --device everywhere, the
# remembered GPU that is gone, production tiles compiled at run time.
set -u
b=$1; r=$2; cli=$b/fusescope-cli; e=$r/extra; mkdir -p $e
step() { local name=$1; shift; echo "== $name: $*"; timeout 60 "$@" > $e/$name.log 2>&1; echo "rc=$? $name"; tail -n ${TAILN:-6} $e/$name.log; }
[[ -x $b/tests/worker_gpu_failure_tests ]] && TAILN=4 step gpu_failure $b/tests/worker_gpu_failure_tests -v2
step oom_precheck $cli run --pipeline affine --n 2^36 --backend cuda
step device1_run $cli run --pipeline affine --device 1
step device1_tiles $cli tiles --grid block_m=16,32 --device 1
step device1_resources $cli resources --preset classroom --device 1
step novisible env CUDA_VISIBLE_DEVICES= $cli run --pipeline affine --device 0
TAILN=25 step resources_dev0 $cli resources --preset classroom --dtype bf16 --tile 64,64,32,64 --device 0
mkdir -p $e/cfg/FuseScope; printf '[run]\ncudaDevice=1\n' > $e/cfg/FuseScope/fusescope.conf
step gpu_gone env XDG_CONFIG_HOME=$e/cfg $b/fusescope --screenshot $e/gpu-gone.png --size 1280x720
TAILN=14 step prod_tiles_odd $cli run --pipeline mlp --variants production --shape M=201,H=1000,I=2750 --dtype bf16 --tile tile_m=64,tile_i=32 --backend cuda
TAILN=14 step prod_tiles_128 $cli run --pipeline mlp --variants production --preset prefill-4096 --dtype bf16 --tile 128,128 --backend cuda
TAILN=25 step prod_resources $cli resources --variant production --preset prefill-4096 --dtype bf16 --tile 64,128
TAILN=20 step prod_sweep $cli tiles --variant production --preset prefill-512 --dtype bf16 --grid tile_m=64,128 --grid tile_i=32..128 --repeat 10 --backend cuda --json $r/production-tiles-prefill512.json
