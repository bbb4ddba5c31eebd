#!/usr/bin/env bash
# The tile explorer's proof on the H200, in one call (carried as .device-tiles; run from the repo
# root): NVRTC compile times cold and warm, a 48-configuration sweep of the lesson kernel on the
# classroom shape in bfloat16 (cold cache, then warm), decode M=1, odd shapes, a machine without
# NVRTC, and the lesson's Triton kernel at the best and worst tiles. Writes $OUT/log.txt and the
# sweep files.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/tiles-out}
mkdir -p "$out"
log="$out/log.txt"
work=/tmp/tiles-work
rm -rf "$work" && mkdir -p "$work"
tar -C "$work" -xzf "$here/cli.tar.gz"
cli="$work/cli/fusescope-cli"
export LD_LIBRARY_PATH="$work/cli/lib:/usr/local/cuda-13.0/lib64:/usr/local/cuda-13.0/targets/x86_64-linux/lib"
export FUSESCOPE_KERNEL_CACHE=/tmp/tiles-kernel-cache
rm -rf "$FUSESCOPE_KERNEL_CACHE"
say() { echo "$*" | tee -a "$log"; }
t0=$SECONDS
step() {  # step NAME TIMEOUT COMMAND...
    local name=$1 limit=$2; shift 2
    if ((SECONDS - t0 > 290)); then say "===== [$name] skipped: past the 290 s budget"; return; fi
    say "===== [$name] $(date -u +%T) $*"
    local s=$SECONDS
    timeout -k 5 "$limit" "$@" > "$work/$name.log" 2>&1
    local rc=$?
    cat "$work/$name.log" >> "$log"
    tail -n 40 "$work/$name.log"
    say "===== [$name] rc=$rc wall=$((SECONDS - s))s (total $((SECONDS - t0))s)"
}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee -a "$log"
nproc | tee -a "$log"
classroom=(--pipeline mlp --preset classroom --dtype bf16)
grid48=(--grid block_m=16..128 --grid block_n=16..128 --grid block_i=32,64,128 --tile 32,64,64,64)
step resources-cold 60 "$cli" resources "${classroom[@]}" --tile 64,64,32,64
step resources-warm 30 "$cli" resources "${classroom[@]}" --tile 64,64,32,64
step sweep-cold 120 "$cli" tiles "${classroom[@]}" "${grid48[@]}" --repeat 10 --json "$out/classroom-bf16-cold.json"
step sweep-warm 60 "$cli" tiles "${classroom[@]}" "${grid48[@]}" --repeat 10 --json "$out/classroom-bf16.json"
step decode 60 "$cli" tiles --pipeline mlp --preset decode-1 --dtype bf16 --tile 16,64,64,64 --grid block_m=16,32 --grid block_n=32,64,128 --repeat 10 --json "$out/decode1-bf16.json"
step resources-decode 30 "$cli" resources --pipeline mlp --preset decode-1 --dtype bf16 --tile 16,64,64,64
step odd-bf16 45 "$cli" tiles --pipeline mlp --preset odd --dtype bf16 --grid block_m=16,32 --grid block_n=16,64 --grid block_h=32,128 --grid block_i=16,128 --repeat 3 --no-references
step odd-fp32 45 "$cli" tiles --pipeline mlp --preset odd --dtype fp32 --grid block_m=16,64 --grid block_n=16,64 --tile 16,16,32,32 --repeat 3 --no-references
step classroom-fp32 60 "$cli" tiles --pipeline mlp --preset classroom --dtype fp32 --grid block_m=16,32,64 --grid block_n=32,64 --tile 32,64,32,32 --repeat 5 --no-references
step run-tile 30 "$cli" run --pipeline mlp --preset classroom --dtype bf16 --variants lesson_fused --tile 64,64,32,64 --backend cuda --measure off
step run-default 30 "$cli" run --pipeline mlp --preset classroom --dtype bf16 --variants lesson_fused --backend cuda --measure off
step no-nvrtc-default 30 env FUSESCOPE_NVRTC=/nonexistent/libnvrtc.so.13 "$cli" run --pipeline mlp --preset quick --dtype bf16 --variants lesson_fused --backend cuda --measure off
step no-nvrtc-tiles 30 env FUSESCOPE_NVRTC=/nonexistent/libnvrtc.so.13 "$cli" run --pipeline mlp --preset quick --dtype bf16 --variants lesson_fused --tile 64,64,32,64 --backend cuda --measure off
[[ -f "$here/tiles_gpu_test" ]] && step gtest 120 "$here/tiles_gpu_test"
step triton 60 env PYTHONUNBUFFERED=1 python3 "$here/tiles_triton.py" "$out/classroom-bf16.json" --json "$out/triton.json"
step triton-decode 40 env PYTHONUNBUFFERED=1 python3 "$here/tiles_triton.py" "$out/decode1-bf16.json" --repeats 10
say "done in $((SECONDS - t0))s"
