#!/usr/bin/env bash
# Two H200s in one host: the device choice on the CLI and in the worker.
set -u
root=$(pwd); here=$root/.device-final
work=/tmp/fs-2; rm -rf $work; mkdir -p $work/r
tar -C $work -xzf $here/fusescope-*.tar.gz
b=$(ls -d $work/fusescope-*/ | head -1); b=${b%/}
cli="$b/fusescope-cli"; r=$work/r
export LD_LIBRARY_PATH="/usr/local/cuda-13.0/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export QT_QPA_PLATFORM=offscreen QT_PLUGIN_PATH="$b/plugins" QT_QPA_FONTDIR="$b/fonts" FONTCONFIG_FILE="$b/etc/fonts.conf"
{
nvidia-smi -L
echo "== list"; timeout 60 $cli list 2>&1 | tail -8
for d in 0 1 2; do echo "== run --device $d"; timeout 60 $cli run --pipeline swiglu --n 16777216 --device $d --backend cuda --measure counters --json $r/device$d.json 2>&1 | tail -9; echo "rc=$?"; done
python3 -c "
import json
for d in (0,1):
    j=json.load(open('$r/device%d.json'%d)); print('device', d, 'recorded device_index', j['device'].get('device_index'), j['device']['name'])
" 2>&1
echo "== kernels_tests ChooseGpu"; timeout 60 $b/tests/kernels_tests --gtest_filter='ChooseGpu.*' 2>&1 | tail -6
echo "== worker_tests"; timeout 90 $b/tests/worker_tests 2>&1 | grep -E "PASS|FAIL|SKIP|Totals" | tail -16
} > $OUT/two_gpus.txt 2>&1
