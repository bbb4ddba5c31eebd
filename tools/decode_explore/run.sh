#!/usr/bin/env bash
# Runs the decode exploration benchmark and writes its output to $OUT/decode_explore.txt.
# Uses ./decode_explore next to this script (or $DECODE_EXPLORE); builds it with nvcc if absent.
# Usage: run.sh [repeats (>= 50, default 60)]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
binary=${DECODE_EXPLORE:-$here/decode_explore}
out=${OUT:-.}
mkdir -p "$out"
report="$out/decode_explore.txt"
if [[ ! -x $binary ]]; then
    nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
    "$nvcc" -O3 -std=c++20 -arch=sm_90 -I "$root/kernels" -Werror all-warnings \
        -Xcompiler -Wall,-Wextra -o "$binary" "$root/tools/decode_explore/decode_explore.cu"
fi
{
    date -u
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv ||
        echo "nvidia-smi unavailable"
} >"$report" 2>&1
start=$SECONDS
timeout 480 "$binary" "${1:-60}" 2>&1 | tee -a "$report"
echo "wall: $((SECONDS - start)) s" | tee -a "$report"
