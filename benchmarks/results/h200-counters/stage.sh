#!/usr/bin/env bash
# Stages what run.sh needs into .device-counters/ (git-ignored): the CLI, the CUPTI module and the
# GPU counter tests from build/ci (new/), the CLI and module of the build before the fix (old/,
# from OLD_BUILD, default /work/main/build/ci), and the libraries they need that the H200 machine
# lacks (Qt and its dependencies; glibc, libstdc++ and the CUDA toolkit's are there), and the
# benchmark script.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd); cd "$root"
new=build/ci; old=${OLD_BUILD:-/work/main/build/ci}
stage=.device-counters; work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mkdir -p "$work/new" "$work/old" "$work/lib"
cp $new/app/cli/fusescope-cli $new/kernels/measure/libfusescope_cupti.so $new/tests/measure/measure_gpu_tests "$work/new/"
cp $old/app/cli/fusescope-cli $old/kernels/measure/libfusescope_cupti.so "$work/old/"
for f in "$work"/new/* "$work"/old/*; do
  ldd "$f" | awk '/=> \//{print $3}' | grep -Ev '/(libc|libm|libdl|librt|libpthread|libutil|libgcc_s|libstdc\+\+|libcuda|libcublas|libcublasLt|libcupti|libnvrtc|libnvperf[^/]*)\.so' || true
done | sort -u | xargs -r -I{} cp -L {} "$work/lib/"
strip "$work"/new/* "$work"/old/* 2>/dev/null || true
rm -rf "$stage"; mkdir -p "$stage"
tar czf "$stage/payload.tar.gz" -C "$work" new old lib
cp benchmarks/results/h200-counters/run.sh benchmarks/results/h200-counters/run2.sh benchmarks/counters_vs_ncu.py "$stage/"
# The device tool sends the session's checkout (DEVICE_ROOT), not this worktree: stage there too.
if [[ -n "${DEVICE_ROOT:-}" && "$DEVICE_ROOT" != "$root" ]]; then
  rm -rf "$DEVICE_ROOT/$stage"; cp -r "$stage" "$DEVICE_ROOT/$stage"
fi
ls -la "$stage"; du -sh "$stage"
