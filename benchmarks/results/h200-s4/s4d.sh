#!/usr/bin/env bash
# Fourth session's last H200 call, after the re-read's mends (Hopper launch grid from one place):
# the MLP, tile and CUDA GPU tests, and prefill-4096 / decode-1 timings.
set -u
here=$(pwd)/.device-s4; work=/tmp/fs-s4d; rm -rf $work; mkdir -p $work
tar -C $work -xzf $here/fusescope-*.tar.gz; b=$(ls -d $work/fusescope-*/ | head -1); b=${b%/}
export LD_LIBRARY_PATH="/usr/local/cuda-13.0/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export FUSESCOPE_KERNEL_CACHE=$work/kcache
for t in mlp_tests tiles_gpu_tests cuda_tests; do echo "== $t"; timeout 120 $b/tests/$t 2>&1 | grep -E "PASSED|FAILED|SKIPPED \]|Failure" | head -8; done
for p in prefill-4096 decode-1; do echo "== $p"; timeout 60 $b/fusescope-cli run --pipeline mlp --preset $p --dtype bf16 --backend cuda --repeat 20 2>&1 | grep -E "^(unfused|production|merged|lesson)|copy roofline"; done
