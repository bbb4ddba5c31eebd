#!/usr/bin/env bash
# The tile explorer's second H200 call (carried as .device-tiles; run from the repo root): the
# GPU tests, the precompiled kernel's report, `run --tile`, a machine without NVRTC, the classroom
# and decode sweeps again (shipped), and the same 12-configuration sweep 10 times (ties).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/tiles-out}
mkdir -p "$out"
log="$out/log.txt"
work=/tmp/tiles-work
rm -rf "$work" && mkdir -p "$work/ties"
tar -C "$work" -xzf "$here/cli.tar.gz"
cli="$work/cli/fusescope-cli"
export LD_LIBRARY_PATH="$work/cli/lib:/usr/local/cuda-13.0/lib64:/usr/local/cuda-13.0/targets/x86_64-linux/lib"
export FUSESCOPE_KERNEL_CACHE=/tmp/tiles-kernel-cache
rm -rf "$FUSESCOPE_KERNEL_CACHE"
say() { echo "$*" | tee -a "$log"; }
t0=$SECONDS
step() {  # step NAME TIMEOUT COMMAND...
    local name=$1 limit=$2; shift 2
    if ((SECONDS - t0 > 250)); then say "===== [$name] skipped: past the 250 s budget"; return; fi
    say "===== [$name] $(date -u +%T) $*"
    local s=$SECONDS
    timeout -k 5 "$limit" "$@" > "$work/$name.log" 2>&1
    local rc=$?
    cat "$work/$name.log" >> "$log"
    tail -n 25 "$work/$name.log"
    say "===== [$name] rc=$rc wall=$((SECONDS - s))s (total $((SECONDS - t0))s)"
}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee -a "$log"
classroom=(--pipeline mlp --preset classroom --dtype bf16)
grid48=(--grid block_m=16..128 --grid block_n=16..128 --grid block_i=32,64,128 --tile 32,64,64,64)
step gtest 90 "$work/cli/tiles_gpu_tests"
step sweep-cold 100 "$cli" tiles "${classroom[@]}" "${grid48[@]}" --repeat 10 --json "$out/classroom-bf16.json"
step decode 60 "$cli" tiles --pipeline mlp --preset decode-1 --dtype bf16 --tile 16,64,64,64 --grid block_m=16,32 --grid block_n=16..128 --repeat 10 --json "$out/decode1-bf16.json"
step resources-default 30 "$cli" resources "${classroom[@]}"
step run-default 30 "$cli" run "${classroom[@]}" --variants lesson_fused --backend cuda --json "$work/run-default.json"
step compute-roof 10 python3 -c "import json; r = json.load(open('$work/run-default.json')); print('compute_roof', r.get('compute_roof')); print('copy_roofline', r.get('copy_roofline'))"
step run-tile 30 "$cli" run "${classroom[@]}" --variants lesson_fused --tile 64,64,32,64 --backend cuda
step no-nvrtc-default 30 env FUSESCOPE_NVRTC=/nonexistent/libnvrtc.so.13 "$cli" run --pipeline mlp --preset quick --dtype bf16 --variants lesson_fused --backend cuda
step no-nvrtc-tiles 30 env FUSESCOPE_NVRTC=/nonexistent/libnvrtc.so.13 "$cli" run --pipeline mlp --preset quick --dtype bf16 --variants lesson_fused --tile 64,64,32,64 --backend cuda
step no-nvrtc-resources 30 env FUSESCOPE_NVRTC=/nonexistent/libnvrtc.so.13 "$cli" resources "${classroom[@]}" --tile 64,64,32,64
for k in 1 2 3 4 5 6 7 8 9 10; do
    step "ties-$k" 30 "$cli" tiles "${classroom[@]}" --tile 32,64,64,64 --grid block_m=16,32 --grid block_n=64,128 --grid block_i=32,64,128 --repeat 10 --no-references --json "$work/ties/run-$k.json"
done
step ties 30 python3 "$here/tiles_ties.py" "$work"/ties/run-*.json
say "done in $((SECONDS - t0))s"
