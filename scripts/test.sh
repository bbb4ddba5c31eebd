#!/usr/bin/env bash
# The README's test command (and CI's, through .ci/run): installs what is missing, then
#   1. configures the `ci` preset (release, warnings are errors, CUDA arch 90 where nvcc is
#      found; a unity build: each target's C++ files compiled eight to a batch, see
#      cmake/unity_build.cmake; for day-to-day work on one file add -DCMAKE_UNITY_BUILD=OFF),
#      builds with every core, and runs every test offscreen, side by side except the ones that
#      time themselves. Without a GPU the GPU tests are skipped, and the reason each one gives
#      is printed so that a skip is never silent;
#   2. builds the `asan` preset (AddressSanitizer + UBSan, CUDA off: no GPU in CI and nvcc is
#      slow; line tables only, -g1: every report still names file and line; a unity build, each
#      target's files compiled eight to a batch; the project's libraries shared, since UBSan's
#      check data makes each statically linked test program ~190 MB, 8.4 GB in all, more than a
#      CI machine's disk has had free), only the programs the tests run, and runs the same tests
#      under it; any sanitizer report fails the run;
#   3. fuzzes the recording and sweep loaders and the expression parser for a bounded time
#      (scripts/fuzz.sh, clang).
# The exit status is non-zero when any of them failed.
#
# usage: scripts/test.sh [extra ctest arguments, e.g. -R cli]
#   FUSESCOPE_SANITIZE=0       skip step 2 (a quick local run)
#   FUSESCOPE_FUZZ_SECONDS=N   fuzz each loader N seconds (default 60); 0 skips step 3
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup-deps.sh

# What a build takes on disk and what is left, so that a full disk shows in CI's log before
# a link fails on it.
disk_report() {
    echo "disk: build/$1 takes $(du -sh "build/$1" | cut -f1);" \
        "$(df -h --output=avail . | tail -1 | tr -d ' ') free"
}

cmake --preset ci
cmake --build --preset ci -j"$(nproc)"
disk_report ci

export QT_QPA_PLATFORM=offscreen
test_status=0
# Tests run side by side, one a core; the ones that time themselves are RUN_SERIAL.
ctest --preset ci --output-on-failure --timeout 600 -j"$(nproc)" "$@" || test_status=$?

# ctest keeps every test's output in LastTest.log; a GoogleTest skip prints "file:line: Skipped"
# followed by its message, a Qt Test skip prints "SKIP   : test() reason". Each reason is shown
# once, with how many tests gave it and the first few names.
log=build/ci/Testing/Temporary/LastTest.log
if [[ -f "$log" ]]; then
    awk '
        /^[0-9]+\/[0-9]+ Testing: / { test = $3 }
        want_reason { if ($0 !~ /^\[/) record(test, $0); want_reason = 0; next }
        /: Skipped$/ { want_reason = 1; next }
        /^SKIP   : / { line = $0; sub(/^SKIP   : /, "", line); record(test, line) }
        function record(name, reason) {
            if (!(reason in count)) order[++reasons] = reason
            count[reason]++
            if (count[reason] <= 3) names[reason] = names[reason] (count[reason] > 1 ? ", " : "") name
            skipped++
        }
        END {
            for (i = 1; i <= reasons; i++) {
                r = order[i]
                more = count[r] > 3 ? ", ..." : ""
                printf "  %d skipped: %s\n      (%s%s)\n", count[r], r, names[r], more
            }
            if (skipped) printf "%d skipped test(s) in all\n", skipped
        }
    ' "$log" > build/ci/skipped.txt || true
    echo
    if [[ -s build/ci/skipped.txt ]]; then
        echo "== Skipped tests and why =="
        cat build/ci/skipped.txt
    else
        echo "== No test was skipped =="
    fi
fi

# The CPU lesson's ratios (fused vs unfused vs the copy roofline) on this machine, so that a
# regression shows in CI's log. A benchmark, not a test: it never changes the exit status.
echo
echo "== CPU lesson benchmark (N = 2^24, every hardware thread) =="
build/ci/benchmarks/cpu_lesson_benchmark --json build/ci/cpu_lesson_benchmark.json ||
    echo "(the benchmark did not finish)"

asan_status=skipped
if [[ "${FUSESCOPE_SANITIZE:-1}" != 0 ]]; then
    echo
    echo "== AddressSanitizer + UBSan build (asan preset, CUDA off) and tests =="
    asan_started=$SECONDS
    asan_status=0
    cmake --preset asan -DFUSESCOPE_CUDA=OFF
    # Only what the tests run: the tools and benchmarks no test starts are not rebuilt here.
    if cmake --build --preset asan -j"$(nproc)" --target fusescope_test_programs; then
        disk_report asan
        # The asan test preset sets ASAN_OPTIONS and UBSAN_OPTIONS: the first report stops the
        # test and fails it (the code is built with -fno-sanitize-recover=undefined too).
        ctest --preset asan --output-on-failure --timeout 900 -j"$(nproc)" "$@" || asan_status=$?
    else
        asan_status=1
    fi
    echo "asan: build and tests took $((SECONDS - asan_started)) s"
fi

fuzz_status=skipped
fuzz_seconds=${FUSESCOPE_FUZZ_SECONDS:-60}
if [[ "$fuzz_seconds" != 0 ]]; then
    echo
    echo "== Fuzzing the loaders (${fuzz_seconds} s each) =="
    fuzz_status=0
    scripts/fuzz.sh "$fuzz_seconds" || fuzz_status=$?
fi

verdict() {
    case "$1" in
        0) echo passed ;;
        skipped) echo skipped ;;
        *) echo FAILED ;;
    esac
}
echo
echo "== Summary: tests $(verdict "$test_status"), asan $(verdict "$asan_status")," \
    "fuzz $(verdict "$fuzz_status") =="
for status in "$test_status" "$asan_status" "$fuzz_status"; do
    if [[ "$status" != 0 && "$status" != skipped ]]; then
        exit 1
    fi
done
exit 0
