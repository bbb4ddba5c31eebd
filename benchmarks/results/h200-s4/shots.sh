#!/usr/bin/env bash
# Screenshots of an MLP prefill run after the Hopper kernel: live GUI run, and every tab of the
# measured recording, at 1280x720 and at 1920x1080 with 150% scaling.
set -u
b=$1; r=$2; s=$r/shots; mkdir -p $s
shot() { local name=$1; shift
  for spec in "1280x720 1" "1920x1080 1.5"; do set -- $spec "$@"; local size=$1 scale=$2; shift 2
    QT_SCALE_FACTOR=$scale timeout 60 $b/fusescope --screenshot "$s/$name-${size}-s$scale.png" --size $size "$@" >> $s/shots.log 2>&1
    echo "$name $size $scale rc=$?" >> $s/shots.log
  done; }
m=$r/ship-mlp-prefill-4096-bf16.json
shot live-mlp-prefill --run mlp --preset prefill-4096 --dtype bf16 --backend cuda
for tab in Results "Memory stage" "Model vs measured"; do
  key=$(echo "$tab" | tr ' A-Z' '-a-z')
  [[ -f $m ]] && shot prefill-$key --open $m --show-tab "$tab"
done
ls -la $s >> $s/shots.log
