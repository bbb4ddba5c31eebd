#!/usr/bin/env bash
# Builds the libFuzzer targets of the loaders and of the expression parser (the `fuzz` preset:
# clang, ASan + UBSan, no CUDA) and runs each for a bounded time, starting from the committed
# seeds in fuzz/corpus/ and the hostile files in fuzz/hostile/. Any finding (a crash, a sanitizer
# report, a leak, an input slower than 10 s) fails the script; the input that caused it is kept
# in build/fuzz/findings/<target>/ (reproduce: build/fuzz/fuzz/<target>_fuzz FILE). The corpus
# the runs grow stays in build/fuzz/corpus/, so a later run goes on from it.
#
# usage: scripts/fuzz.sh [seconds per target, default 60]
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
    echo "fuzz: the time per target must be a whole number of seconds, not '$seconds'" >&2
    exit 2
fi
if ! command -v clang++ >/dev/null 2>&1; then
    echo "fuzz: clang++ is not installed (scripts/setup-deps.sh installs it)" >&2
    exit 1
fi

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j"$(nproc)"

export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

# One target: its run, its findings and a summary, written to build/fuzz/<target>.report (the
# targets run side by side, one a core: libFuzzer uses one core per run, so each gets the same
# time and coverage as when they ran one after the other).
fuzz_target() {
    local target=$1 dictionary corpus findings log return_status=0
    dictionary=fuzz/json.dict
    [[ $target == expression_parser ]] && dictionary=fuzz/expression.dict
    corpus=build/fuzz/corpus/$target
    findings=build/fuzz/findings/$target
    mkdir -p "$corpus" "$findings"
    log=build/fuzz/$target.log
    echo "== fuzzing $target for ${seconds} s =="
    # New inputs go to the first folder (the working corpus); the seeds are only read.
    if ! build/fuzz/fuzz/${target}_fuzz -max_total_time="$seconds" -timeout=10 \
        -rss_limit_mb=2048 -dict="$dictionary" -print_final_stats=1 \
        -artifact_prefix="$findings/" "$corpus" "fuzz/corpus/$target" "fuzz/hostile/$target" \
        >"$log" 2>&1; then
        return_status=1
        echo "fuzz: $target found a problem; the input is in $findings/:" >&2
        # The first report and its stack; the whole output is in the log.
        awk '/ERROR: |runtime error: |a loaded recording|a saved recording|saving and loading/ {
                 shown = 1 }
             shown && printed < 25 { print; printed++ }' "$log" >&2
        echo "fuzz: the whole output is in $log" >&2
    fi
    awk -v target="$target" '
        /^stat::number_of_executed_units:/ { execs = $2 }
        /^stat::average_exec_per_sec:/ { rate = $2 }
        /^stat::peak_rss_mb:/ { rss = $2 }
        END { printf "%s: %s runs, %s runs/s, peak %s MiB\n", target, execs, rate, rss }
    ' "$log"
    echo "$target: corpus of $(find "$corpus" -type f | wc -l) inputs (plus $(find "fuzz/corpus/$target" -type f | wc -l) seeds)"
    return "$return_status"
}

targets=(recording_loader sweep_loader tile_sweep_loader expression_parser)
cores=$(nproc)
for target in "${targets[@]}"; do
    # At most one run a core at a time.
    while (($(jobs -rp | wc -l) >= cores)); do
        wait -n || true
    done
    rm -f "build/fuzz/$target.status"
    {
        target_status=0
        fuzz_target "$target" >"build/fuzz/$target.report" 2>&1 || target_status=$?
        echo "$target_status" >"build/fuzz/$target.status"
    } &
done
wait
status=0
for target in "${targets[@]}"; do
    cat "build/fuzz/$target.report"
    [[ "$(cat "build/fuzz/$target.status" 2>/dev/null)" == 0 ]] || status=1
done
exit "$status"
