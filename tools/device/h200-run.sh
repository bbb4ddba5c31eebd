#!/usr/bin/env bash
# Everything the H200 machine runs for FuseScope, in one call, from the repository root:
#   bash tools/device/h200-run.sh [STEP...]        (run with the staged folder .device/ carried)
# Steps: env gputests cli measure sweep shots stagedemo sanitizer (the default); mlp, gui,
# liveshot, decode (the decode GEMVs' launch choices side by side, then the CLI at decode sizes),
# tests (every other test binary), shipped (the shipped tile sweeps made again, with
# Triton's times), recordings (the shipped decode-1 MLP recording made again); tables (tiles, peers and ncu: the lesson kernel against the lesson's Triton
# kernel over four tile grids; production against merged_gate_up and the peers; every kernel's
# DRAM bytes against Nsight Compute), which needs torch and triton; all (every step but the
# tables and shipped).
# That machine has no Qt and no GoogleTest: the programs and tests come from the portable bundle
# that tools/device/stage.sh put in .device/. CUPTI is the machine's own.
# Writes under $OUT (at most a few files): log.txt, summary.txt, gui.png, live-swiglu.png,
# results.tar.gz.
# Every step has a timeout and its rc is logged; the whole run stays inside a budget
# (FUSESCOPE_BUDGET_S, default 540 s) so that it ends well inside the 10-minute limit.
# FUSESCOPE_NCU_CASES (comma-separated) limits the ncu step to some of counters_vs_ncu.py's cases;
# FUSESCOPE_NCU_BUDGET_S (default 200) is that step's budget (all seven cases took about 260 s).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
staged="$root/.device"
out="${OUT:-/tmp/fusescope-out}"
budget=${FUSESCOPE_BUDGET_S:-540}
big_n=${FUSESCOPE_BIG_N:-268435456}   # 2^28 floats: 1.07 GB per array, far past the 60 MB L2
small_n=${FUSESCOPE_SMALL_N:-1000003} # odd, so the vector tail runs under compute-sanitizer

steps=("$@")
[[ ${#steps[@]} -eq 0 ]] && steps=(env gputests cli measure sweep shots stagedemo sanitizer)
[[ " ${steps[*]} " == *" all "* ]] && steps=(env gputests tests cli mlp measure sweep shots stagedemo gui liveshot sanitizer)
[[ " ${steps[*]} " == *" tables "* ]] && steps+=(tiles peers ncu)
wants() { [[ " ${steps[*]} " == *" $1 "* ]]; }

work=/tmp/fusescope-h200
rm -rf "$work" && mkdir -p "$work/results" "$out"
results="$work/results"
log="$results/log.txt"
: > "$results/steps.tsv"
started=$SECONDS

save() {  # after every step, so a run cut short still returns what it has
    cp "$log" "$out/log.txt"
    tar -C "$work" -czf "$out/results.tar.gz" results 2>/dev/null
}
say() { echo "$*" | tee -a "$log"; }

step() {  # step NAME TIMEOUT_S COMMAND...   output to results/NAME.log and the main log
    local name=$1 limit=$2
    shift 2
    local left=$((budget - (SECONDS - started)))
    if ((left < 20)); then
        say "===== [$name] skipped: ${left}s left of the ${budget}s budget"
        printf '%s\t%s\t%s\n' "$name" "skipped" "0" >> "$results/steps.tsv"
        return 99
    fi
    ((limit > left - 10)) && limit=$((left - 10))
    say "===== [$name] $(date -u +%T) timeout ${limit}s: $*"
    local t0=$SECONDS
    timeout -k 10 "$limit" "$@" > "$results/$name.log" 2>&1
    local rc=$?
    tail -n 60 "$results/$name.log" >> "$log"
    ((rc == 124 || rc == 137)) && say "===== [$name] TIMED OUT after ${limit}s"
    say "===== [$name] rc=$rc wall=$((SECONDS - t0))s"
    printf '%s\t%s\t%s\n' "$name" "$rc" "$((SECONDS - t0))" >> "$results/steps.tsv"
    save
    return $rc
}

say "FuseScope device run: steps: ${steps[*]}; budget ${budget}s; OUT=$out"
bundle_tar=$(ls "$staged"/fusescope-*.tar.gz "$staged"/fusescope-*.tar.xz 2>/dev/null | head -n 1)
if [[ -z "$bundle_tar" ]]; then
    say "no bundle in $staged: run tools/device/stage.sh on the build machine and carry .device"
    save
    exit 1
fi
tar -C "$work" -xf "$bundle_tar" # gzip or xz, as stage.sh left it
bundle=$(ls -d "$work"/fusescope-*/ | head -n 1)
bundle=${bundle%/}
cli="$bundle/fusescope-cli"
cp "$staged/stage-info.txt" "$results/" 2>/dev/null

# CUPTI and the libnvperf libraries of this machine's toolkit.
export LD_LIBRARY_PATH="/usr/local/cuda-13.0/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# Tests that link Qt run offscreen with the bundle's plugins and fonts.
export QT_QPA_PLATFORM=offscreen QT_PLUGIN_PATH="$bundle/plugins" QT_QPA_FONTDIR="$bundle/fonts"
export FONTCONFIG_FILE="$bundle/etc/fonts.conf"

if wants env; then
    step env 30 bash -c "nvidia-smi; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader > '$results/nvidia-smi.csv';
        cat '$results/nvidia-smi.csv'; uname -r; grep PRETTY /etc/os-release; ldd --version | head -n 1;
        ls /usr/local/cuda-13.0/targets/x86_64-linux/lib | grep -E 'cupti|nvperf';
        echo '-- libraries not found (should be none):';
        for f in '$bundle'/bin/* '$bundle'/tests/* '$bundle'/plugins/platforms/*.so '$bundle'/lib/fusescope/*; do [ -f \"\$f\" ] && ldd \"\$f\" 2>/dev/null | grep 'not found' | sed \"s|^|\$(basename \$f): |\"; done; true"
fi

run_test_binaries() {  # run_test_binaries KIND(gpu|other)
    local kind=$1 name type tkind rc all_rc=0
    while read -r name type tkind; do
        [[ -z "$name" || "$tkind" != "$kind" ]] && continue
        if [[ "$type" == gtest ]]; then
            step "test_$name" 150 "$bundle/tests/$name" --gtest_brief=1 \
                --gtest_output="xml:$results/test_$name.xml"
        else
            step "test_$name" 150 "$bundle/tests/$name" -o "$results/test_$name.xml,junitxml" -o -,txt
        fi
        rc=$?
        ((rc != 0)) && all_rc=$rc
    done < "$staged/tests.list"
    return $all_rc
}
wants gputests && run_test_binaries gpu
wants tests && run_test_binaries other

if wants cli; then
    step cli_list 30 "$cli" list
    for pipeline in swiglu affine; do
        for vector in 4 1; do
            step "cli_${pipeline}_v${vector}" 100 "$cli" run --pipeline "$pipeline" --variants all \
                --n "$big_n" --vector "$vector" --repeat 20 --backend cuda \
                --json "$results/${pipeline}_v${vector}.json"
        done
    done
fi

if wants gui; then
    step gui 120 "$bundle/fusescope" --screenshot "$out/gui.png" --run swiglu --backend cuda
    [[ -f "$out/gui.png" ]] && cp "$out/gui.png" "$results/gui.png"
fi

# The measure layer's end-to-end check: counters, PM sampling and the live chart at N = 2^28.
if wants liveshot; then
    if [[ -x "$bundle/bin/fusescope-live-shot" ]]; then
        step liveshot 150 "$bundle/bin/fusescope-live-shot" --pipeline swiglu --n "$big_n" \
            --vector 4 --out "$out/live-swiglu.png"
        [[ -f "$out/live-swiglu.png" ]] && cp "$out/live-swiglu.png" "$results/"
    else
        say "===== [liveshot] skipped: the bundle has no fusescope-live-shot"
    fi
fi

# Issue 3: counters and PM sampling through the CLI, at 2^28 (DRAM traffic) and 2^22 (inside
# the L2, where the program must explain the gap).
if wants measure; then
    step measure_swiglu_28 150 "$cli" run --pipeline swiglu --variants all --n "$big_n" --vector 4 \
        --backend cuda --measure all --json "$results/swiglu_measured_28.json"
    step measure_affine_28 150 "$cli" run --pipeline affine --variants all --n "$big_n" --vector 4 \
        --backend cuda --measure all --json "$results/affine_measured_28.json"
    step measure_swiglu_22 100 "$cli" run --pipeline swiglu --variants all --n 4194304 --vector 4 \
        --backend cuda --measure all --json "$results/swiglu_measured_22.json"
fi

# The SwiGLU MLP through the CLI: every variant at the issue's presets, bf16 and float32 at the
# classroom shape, counters at the classroom shape, an odd shape, and the GUI after a CUDA run.
if wants mlp; then
    for preset in classroom decode-1 decode-4 decode-8 decode-16 prefill-512 prefill-4096; do
        step "mlp_${preset}_bf16" 150 "$cli" run --pipeline mlp --preset "$preset" --dtype bf16 \
            --backend cuda --json "$results/mlp_${preset}_bf16.json"
    done
    step mlp_classroom_fp32 150 "$cli" run --pipeline mlp --preset classroom --dtype fp32 \
        --backend cuda --json "$results/mlp_classroom_fp32.json"
    step mlp_odd_fp32 60 "$cli" run --pipeline mlp --preset odd --dtype fp32 --backend cuda
    step mlp_odd_bf16 60 "$cli" run --pipeline mlp --preset odd --dtype bf16 --backend cuda
    step mlp_classroom_measured 200 "$cli" run --pipeline mlp --preset classroom --dtype bf16 \
        --backend cuda --measure counters --json "$results/mlp_classroom_measured.json"
    step shot_mlp_results 120 "$bundle/fusescope" --screenshot "$results/gui_mlp_results.png" \
        --run mlp --preset classroom --dtype bf16 --backend cuda
    step shot_mlp_stage 120 "$bundle/fusescope" --screenshot "$results/gui_mlp_stage.png" \
        --run mlp --preset classroom --dtype bf16 --variants unfused,lesson_fused --backend cuda \
        --show-tab "Memory stage"
    [[ -f "$results/mlp_classroom_measured.json" ]] &&
        step shot_mlp_gaps 120 "$bundle/fusescope" --screenshot "$results/gui_mlp_gaps.png" \
            --open "$results/mlp_classroom_measured.json" --show-tab "Model vs measured"
    cp "$results"/gui_mlp_*.png "$out/" 2>/dev/null
fi

# The decode kernels under each launch choice in one process, then production as the CLI runs it.
if wants decode; then
    if [[ -x "$bundle/bin/mlp_benchmark" ]]; then
        step decode_sweep 120 "$bundle/bin/mlp_benchmark" --decode-sweep 1 --presets decode-1 \
            --repeats 50
    else
        say "===== [decode_sweep] skipped: the bundle has no mlp_benchmark (stage.sh adds it)"
    fi
    for preset in decode-1 decode-8 decode-16; do
        step "decode_${preset}" 90 "$cli" run --pipeline mlp --preset "$preset" --dtype bf16 \
            --variants all --backend cuda --repeat 50
    done
fi

if wants sweep; then
    step sweep_swiglu 200 "$cli" sweep --pipeline swiglu --variants fused,scratch --from 4096 \
        --to "$big_n" --steps-per-octave 1 --vector 4 --backend cuda --json "$results/sweep_swiglu.json"
fi

# Issue 2-4 pictures from the GUI after CUDA runs (a measured run: Measure is on by default).
if wants shots; then
    shot() {  # shot NAME ARGS...
        local name=$1
        shift
        step "shot_$name" 120 "$bundle/fusescope" --screenshot "$results/$name.png" "$@"
    }
    shot gui_results --run swiglu --backend cuda --n "$big_n"
    shot gui_bandwidth --run swiglu --backend cuda --n "$big_n" --show-tab Bandwidth
    shot gui_stage --run swiglu --variants scratch,fused --backend cuda --n "$big_n" \
        --show-tab "Memory stage"
    shot gui_gaps_22 --run swiglu --backend cuda --n 4194304 --show-tab "Model vs measured"
    [[ -f "$results/sweep_swiglu.json" ]] &&
        shot gui_sweep --open "$results/sweep_swiglu.json" --show-tab "Size sweep"
    cp "$results"/gui_*.png "$out/" 2>/dev/null
fi

# Issue 4: the side-by-side stage frames and GIF from the measured H200 recording.
if wants stagedemo; then
    if [[ -f "$results/swiglu_measured_28.json" && -x "$bundle/tests/stage_demo" ]]; then
        step stagedemo 150 "$bundle/tests/stage_demo" "$results/stage" \
            --recording "$results/swiglu_measured_28.json"
    else
        say "===== [stagedemo] skipped: needs the measure step's recording and the bundle's stage_demo"
    fi
fi

if wants sanitizer; then
    sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
    for pipeline in swiglu affine; do
        step "sanitizer_$pipeline" 120 "$sanitizer" --tool memcheck --leak-check full \
            --error-exitcode 86 "$bundle/bin/fusescope-cli" run --pipeline "$pipeline" \
            --variants all --n "$small_n" --vector 4 --repeat 2 --backend cuda
    done
fi

tiles() {  # tiles NAME ARGS...   a tile sweep of the lesson kernel into results/NAME.json
    local name=$1
    shift
    step "tiles_$name" 180 "$cli" tiles --pipeline mlp --backend cuda "$@" \
        --json "$results/$name.json"
}

# The lesson kernel against the lesson's own Triton kernel, tile by tile, over the four grids of
# benchmarks/results/tiles_triton.md (classroom bfloat16 and TF32, decode-1, prefill-512).
if wants tiles; then
    whole_grid=(--grid block_m=16..128 --grid block_n=16..128 --grid block_h=32..128
        --grid block_i=32..128)
    tiles classroom-bf16 --no-references --repeat 10 --preset classroom --dtype bf16 \
        --tile 32,64,64,64 "${whole_grid[@]}"
    tiles classroom-tf32 --no-references --repeat 10 --preset classroom --dtype tf32 \
        --tile 32,64,64,64 "${whole_grid[@]}"
    tiles decode1-bf16 --no-references --repeat 10 --preset decode-1 --dtype bf16 \
        --tile 16,32,64,64 --grid block_n=32,64 --grid block_h=64,128 --grid block_i=64,128
    tiles prefill512-bf16 --no-references --repeat 5 --preset prefill-512 --dtype bf16 \
        --tile 64,128,64,64 --grid block_m=32,64,128 --grid block_n=64,128 --grid block_i=32,64
    grids=()
    for name in classroom-bf16 classroom-tf32 decode1-bf16 prefill512-bf16; do
        [[ -f "$results/$name.json" ]] && grids+=("$results/$name.json")
    done
    ((${#grids[@]} > 0)) && step tiles_triton 240 python3 "$root/benchmarks/tiles_triton.py" \
        "${grids[@]}" --jobs "$(nproc)" --json "$results/tiles_triton.json"
fi

# The shipped files are named for the H200: made only there.
gpu_name=
if wants shipped || wants recordings; then
    gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
fi

# The shipped MLP recordings the decode kernels changed, made again as NOTES.md says, then
# thinned for shipping.
if wants recordings && [[ $gpu_name != *H200* ]]; then
    say "===== [recordings] skipped: the shipped recordings are named for the H200, this GPU is '$gpu_name'"
elif wants recordings; then
    for preset in decode-1; do
        name="h200-mlp-$preset-bf16"
        step "recording_$preset" 150 "$cli" run --pipeline mlp --preset "$preset" --dtype bf16 \
            --variants all --backend cuda --measure all --json "$results/$name.full.json" &&
            step "shrink_$preset" 30 "$cli" shrink "$results/$name.full.json" \
                --json "$out/$name.fusescope.json"
    done
fi

# The shipped sweeps made again, with the other variants' times as their reference lines.
if wants shipped && [[ $gpu_name != *H200* ]]; then
    say "===== [shipped] skipped: the shipped sweeps are named for the H200, this GPU is '$gpu_name'"
elif wants shipped; then
    mkdir -p "$results/shipped"
    tiles tiles-mlp-classroom-bf16-h200 --repeat 10 --preset classroom --dtype bf16 \
        --tile 32,64,64,64 --grid block_m=16,32,64,128 --grid block_n=16,32,64,128 \
        --grid block_i=32,64,128
    tiles tiles-mlp-decode1-bf16-h200 --repeat 10 --preset decode-1 --dtype bf16 \
        --tile 16,32,64,64 --grid block_n=32,64 --grid block_h=64,128 --grid block_i=64,128
    shipped=()
    for name in tiles-mlp-classroom-bf16-h200 tiles-mlp-decode1-bf16-h200; do
        [[ -f "$results/$name.json" ]] && shipped+=("$results/$name.json")
    done
    ((${#shipped[@]} > 0)) && step tiles_shipped 180 python3 "$root/benchmarks/tiles_triton.py" \
        "${shipped[@]}" --jobs "$(nproc)" --annotate "$results/shipped"
    cp "$results"/shipped/*.json "$out/" 2>/dev/null
fi

# Production against merged_gate_up, the unfused chain and PyTorch (eager and in a CUDA graph),
# interleaved in one process at Llama-3-8B prefill and decode.
if wants peers; then
    if [[ -x "$bundle/bin/mlp_benchmark" ]]; then
        step peers 200 python3 "$root/benchmarks/mlp_peers.py" \
            --fusescope "$bundle/bin/mlp_benchmark" --presets prefill-512,prefill-4096,decode-1 \
            --json "$results/mlp_peers.json"
    else
        say "===== [peers] skipped: the bundle has no mlp_benchmark (stage.sh adds it)"
    fi
fi

# Every kernel's DRAM read and write bytes against Nsight Compute's on the same binary and shape.
if wants ncu; then
    ncu_budget=${FUSESCOPE_NCU_BUDGET_S:-200}
    step ncu $((ncu_budget + 40)) python3 "$root/benchmarks/counters_vs_ncu.py" \
        --cli "$bundle/bin/fusescope-cli" --out "$results/counters" --budget "$ncu_budget" \
        ${FUSESCOPE_NCU_CASES:+--cases "$FUSESCOPE_NCU_CASES"}
fi

say "===== total wall $((SECONDS - started))s of ${budget}s"
python3 "$root/tools/device/summarize.py" "$results" > "$results/summary.txt" 2>&1 ||
    { echo "(summarize.py failed; steps:)"; cat "$results/steps.tsv"; } >> "$results/summary.txt"
cp "$results/summary.txt" "$out/summary.txt"
save
ls -la "$out" | tee -a "$log"
cat "$results/summary.txt"
