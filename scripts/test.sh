#!/usr/bin/env bash
# The README's test command (and CI's, through .ci/run): installs what is missing, configures the
# `ci` preset (release, warnings are errors, CUDA arch 90 where nvcc is found), builds with every
# core, and runs every test offscreen. Without a GPU the GPU tests are skipped, and the reason
# each one gives is printed at the end so that a skip is never silent.
#
# usage: scripts/test.sh [extra ctest arguments, e.g. -R cli]
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup-deps.sh

cmake --preset ci
cmake --build --preset ci -j"$(nproc)"

export QT_QPA_PLATFORM=offscreen
test_status=0
ctest --preset ci --output-on-failure --timeout 600 "$@" || test_status=$?

# ctest keeps every test's output in LastTest.log; a GoogleTest skip prints "file:line: Skipped"
# followed by its message, a Qt Test skip prints "SKIP   : test() reason".
log=build/ci/Testing/Temporary/LastTest.log
if [[ -f "$log" ]]; then
    awk '
        /^[0-9]+\/[0-9]+ Testing: / { test = $3 }
        want_reason { if ($0 !~ /^\[/) print "  " test ": " $0; want_reason = 0; next }
        /: Skipped$/ { want_reason = 1; skipped++ ; next }
        /^SKIP   : / { sub(/^SKIP   : /, ""); print "  " test ": " $0; skipped++ }
        END { if (skipped) print skipped " skipped test(s), with the reasons above" > "/dev/stderr" }
    ' "$log" > build/ci/skipped.txt 2> build/ci/skipped-count.txt || true
    if [[ -s build/ci/skipped.txt ]]; then
        echo
        echo "== Skipped tests and why =="
        cat build/ci/skipped.txt
        cat build/ci/skipped-count.txt
    else
        echo
        echo "== No test was skipped =="
    fi
fi

exit "$test_status"
