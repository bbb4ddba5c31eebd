#!/usr/bin/env bash
# Screenshots of every view after the H200 runs, at 1280x720 and 1920x1080 at 150%; slide exports.
set -u
b=$1; r=$2; s=$r/shots; mkdir -p $s
cli=$b/fusescope-cli
# A real tile sweep on this GPU for the explorer (16 configurations, compile included).
timeout 120 $cli tiles --pipeline mlp --preset classroom --dtype bf16 --tile 32,64,64,64 \
  --grid block_m=16,32,64,128 --grid block_n=16,32,64,128 --repeat 10 --json $r/tiles-live.json > $r/tiles-live.log 2>&1
echo "tiles rc=$?" >> $r/tiles-live.log
shot() { local name=$1; shift
  for spec in "1280x720 1" "1920x1080 1.5"; do set -- $spec "$@"; local size=$1 scale=$2; shift 2
    QT_SCALE_FACTOR=$scale timeout 60 $b/fusescope --screenshot "$s/$name-${size}-s$scale.png" --size $size "$@" >> $s/shots.log 2>&1
  done; }
shot start
shot mlp-results --open $r/h200-mlp-classroom-bf16.json
shot mlp-model-vs-measured --open $r/h200-mlp-classroom-bf16.json --show-tab "Model vs measured"
shot mlp-stage --open $r/h200-mlp-classroom-bf16.json --show-tab "Memory stage"
shot decode-results --open $r/h200-mlp-decode-1-bf16.json
shot swiglu-bandwidth --open $r/h200-swiglu-2e26.json --show-tab "Bandwidth over time"
shot swiglu-stage --open $r/h200-swiglu-2e26.json --show-tab "Memory stage"
shot size-sweep --open $r/h200-swiglu-size-sweep.json --show-tab "Size sweep"
[[ -f $r/tiles-live.json ]] && shot explorer-heatmap --open $r/tiles-live.json --show-tab "Tile explorer"
[[ -f $r/tiles-live.json ]] && shot explorer-roofline --open $r/tiles-live.json --show-tab "Tile explorer" --show-tab Roofline
timeout 90 $b/fusescope --export-charts $s/slides --preset slide --open $r/h200-mlp-classroom-bf16.json >> $s/shots.log 2>&1
echo "export rc=$?" >> $s/shots.log
ls -la $s >> $s/shots.log
