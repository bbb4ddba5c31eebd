#!/usr/bin/env bash
# Second call: the worker tests (Qt Test) and the run estimate tests on the H200 host's 16 cores.
set -u
work=/tmp/fs-s5b; rm -rf $work; mkdir -p $work
tar -C $work -xzf .device-s5/fusescope-*.tar.gz
b=$(ls -d $work/fusescope-*/ | head -1); b=${b%/}
export LD_LIBRARY_PATH="/usr/local/cuda-13.0/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export QT_QPA_PLATFORM=offscreen QT_PLUGIN_PATH="$b/plugins" QT_QPA_FONTDIR="$b/fonts" FONTCONFIG_FILE="$b/etc/fonts.conf"
echo "== worker_tests"; timeout 200 $b/tests/worker_tests 2>&1 | grep -E "^(PASS|FAIL|SKIP)|Totals|XFAIL" | tail -60
echo "== kernels_tests RunEstimate and cancel"; timeout 120 $b/tests/kernels_tests --gtest_filter='RunEstimate*:Cancel*' 2>&1 | grep -E "estimated|OK|FAILED|PASSED"
