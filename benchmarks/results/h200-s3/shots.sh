#!/usr/bin/env bash
# Screenshots from the bundle on the H200: every tab after H200 runs at 1280x720 and at
# 1920x1080 with 150% scaling, a live GUI run, a shipped recording, the explorer after a real
# sweep and the stage after clicking one of its cells; slide exports.
set -u
b=$1; r=$2; s=$r/shots; mkdir -p $s
shot() { local name=$1; shift
  for spec in "1280x720 1" "1920x1080 1.5"; do set -- $spec "$@"; local size=$1 scale=$2; shift 2
    QT_SCALE_FACTOR=$scale timeout 60 $b/fusescope --screenshot "$s/$name-${size}-s$scale.png" --size $size "$@" >> $s/shots.log 2>&1
    echo "$name $size $scale rc=$?" >> $s/shots.log
  done; }
mlp=$r/time-classroom.json; sw=$r/swiglu.json
timeout 60 $b/fusescope-cli run --pipeline swiglu --variants all --n 67108864 --backend cuda --measure all --json $sw > $s/swiglu-run.log 2>&1
[[ -f $r/mlp-measured.json ]] || timeout 90 $b/fusescope-cli run --pipeline mlp --preset classroom --dtype bf16 --backend cuda --measure all --json $r/mlp-measured.json > $s/mlp-run.log 2>&1
[[ -f $r/mlp-measured.json ]] && mlp=$r/mlp-measured.json
shot start
shot live-mlp-results --run mlp --preset classroom --dtype bf16 --backend cuda
shot shipped-decode --open "$b/share/fusescope/recordings/h200-mlp-decode-1-bf16.fusescope.json"
for tab in Results "Memory stage" "Model vs measured" "Run charts" "Bandwidth over time"; do
  key=$(echo "$tab" | tr ' A-Z' '-a-z')
  shot mlp-$key --open $mlp --show-tab "$tab"
done
shot swiglu-bandwidth --open $sw --show-tab "Bandwidth over time"
shot swiglu-stage --open $sw --show-tab "Memory stage"
shot size-sweep --open "$b/share/fusescope/recordings/h200-swiglu-size-sweep.fusescope.json" --show-tab "Size sweep"
t=$r/tiles48-0.json
if [[ -f $t ]]; then
  shot explorer-heatmap --open $t --show-tab "Tile explorer"
  shot explorer-roofline --open $t --show-tab "Tile explorer" --show-tab Roofline
  shot explorer-cell-stage --open $t --tile-cell best --show-tab "Memory stage"
fi
timeout 90 $b/fusescope --export-charts $s/slides --preset slide --open $mlp >> $s/shots.log 2>&1
echo "export rc=$?" >> $s/shots.log
ls -la $s >> $s/shots.log
