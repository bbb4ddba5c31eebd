#!/usr/bin/env bash
# Screenshots on the H200: a live CUDA run of the MLP at prefill-4096 and the re-made prefill
# recording, in the normal and the presentation layout, at 1280x720 and at 1920x1080 with 150%.
set -u
b=$1; r=$2; s=$r/shots; mkdir -p $s
shot() { local name=$1; shift
  for spec in "1280x720 1" "1920x1080 1.5"; do set -- $spec "$@"; local size=$1 scale=$2; shift 2
    QT_SCALE_FACTOR=$scale timeout 60 $b/fusescope --screenshot "$s/$name-${size}.png" --size $size "$@" >> $s/shots.log 2>&1
    echo "$name $size $scale rc=$?" >> $s/shots.log
  done; }
shot live-mlp-prefill --run mlp --preset prefill-4096 --dtype bf16 --backend cuda
shot live-mlp-prefill-presentation --presentation --run mlp --preset prefill-4096 --dtype bf16 --backend cuda
m=$r/ship/mlp-prefill-4096-bf16.json
[[ -f $m ]] && shot prefill-results-presentation --presentation --open $m --show-tab Results
[[ -f $m ]] && shot prefill-stage --open $m --show-tab "Memory stage"
ls -la $s >> $s/shots.log
