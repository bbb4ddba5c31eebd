#!/usr/bin/env bash
# Builds FuseScope for the H200 (release, CUDA arch 90, static CUDA runtime, GoogleTest static
# as Debian ships it) into build/h200 and stages what the GPU machine needs into .device/
# (git-ignored, carried to that machine): one portable bundle with the GUI, the CLI and every
# test executable, the list of tests, and a note of what was built.
#
# usage: tools/device/stage.sh [--no-build] [--build-dir DIR] [--tests NAME,...]
#   --build-dir: stage from another Release build configured for arch 90 (default build/h200)
#   --tests: bundle only these test executables (all of them are about 160 MiB, past what the
#            device carries), e.g. --tests cuda_tests,mlp_tests,tiles_gpu_tests,measure_gpu_tests
# A bundle too large for the device as gzip is compressed again with xz.
# then, on the device:   bash tools/device/h200-run.sh [steps]   with .device carried
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
build=build/h200
staged=.device
do_build=1
chosen_tests=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --no-build) do_build=0; shift ;;
        --build-dir) build="$2"; shift 2 ;;
        --tests) chosen_tests="$2"; shift 2 ;;
        *)
            echo "stage: unknown argument '$1' (--no-build, --build-dir DIR, --tests NAMES)" >&2
            exit 2
            ;;
    esac
done
limit_bytes=$((60 * 1024 * 1024)) # the device takes 64 MiB with the working tree

if [[ $do_build -eq 1 ]]; then
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFUSESCOPE_CUDA=ON \
        -DCMAKE_CUDA_ARCHITECTURES=90 -DFUSESCOPE_WARNINGS_AS_ERRORS=ON -DFUSESCOPE_BUILD_TESTS=ON
    cmake --build "$build" -j"$(nproc)"
fi

# Test executables: the ELF programs under tests/ (ctest's own tree stays here; the device runs
# the binaries directly). GPU tests are the ones named for CUDA or measurement.
mapfile -t test_binaries < <(find "$build/tests" -path '*/CMakeFiles' -prune -o -type f -perm -u+x -print |
    while read -r f; do file -b "$f" | grep -q '^ELF' && echo "$f"; done | sort)
if [[ -n "$chosen_tests" ]]; then
    IFS=, read -r -a wanted <<< "$chosen_tests"
    kept=()
    for name in "${wanted[@]}"; do
        found=""
        for binary in "${test_binaries[@]}"; do
            [[ "$(basename "$binary")" == "$name" ]] && found=$binary
        done
        if [[ -z "$found" ]]; then
            echo "stage: no test executable '$name' in $build/tests" >&2
            exit 1
        fi
        kept+=("$found")
    done
    test_binaries=("${kept[@]}")
fi
[[ ${#test_binaries[@]} -gt 0 ]] || { echo "stage: no test executables in $build/tests" >&2; exit 1; }

rm -rf "$staged"
mkdir -p "$staged"
: > "$staged/tests.list"
for binary in "${test_binaries[@]}"; do
    name=$(basename "$binary")
    [[ "$name" == *_demo ]] && continue # demos write pictures for people; they are not tests
    if grep -qa -- 'gtest_brief' "$binary"; then type=gtest; else type=qttest; fi
    case "$name" in
        # mlp_tests runs the MLP's CUDA variants against the reference where a GPU is there.
        *cuda* | *measure* | *gpu* | *cupti* | mlp_tests) kind=gpu ;;
        *) kind=other ;;
    esac
    echo "$name $type $kind" >> "$staged/tests.list"
done

# Tools meant for the GPU machine ride along in bin/ (the live-chart shot of the measure layer).
# mlp_benchmark times production against its peers there (benchmarks/mlp_peers.py).
mapfile -t tools < <(find "$build/tools" "$build/benchmarks" -path '*/CMakeFiles' -prune -o \
    -type f \( -name 'fusescope-live-shot' -o -name 'mlp_benchmark' \) -print 2>/dev/null)
packaging/make-bundle.sh --build-dir "$build" --output "$staged" --add-tests "${test_binaries[@]}" \
    ${tools[@]:+--add-programs "${tools[@]}"}

{
    echo "staged $(date -u +%FT%TZ) from $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . 2>/dev/null || echo ' (with uncommitted changes)')"
    grep -E '^(CMAKE_BUILD_TYPE|CMAKE_CUDA_ARCHITECTURES|FUSESCOPE_CUDA|CMAKE_CUDA_COMPILER):' "$build/CMakeCache.txt"
    echo "tests:"
    sed 's/^/  /' "$staged/tests.list"
} > "$staged/stage-info.txt"

staged_bytes=$(du -sb "$staged" | cut -f1)
tree_bytes=$(git ls-files -z | xargs -0 du -cb 2>/dev/null | tail -n 1 | cut -f1)
if ((staged_bytes + tree_bytes > limit_bytes)) && command -v xz > /dev/null; then
    for gz in "$staged"/fusescope-*.tar.gz; do
        gzip -dc "$gz" | xz -T0 -9 > "${gz%.gz}.xz.partial" && mv "${gz%.gz}.xz.partial" "${gz%.gz}.xz" &&
            rm "$gz"
    done
    staged_bytes=$(du -sb "$staged" | cut -f1)
fi
cat "$staged/stage-info.txt"
ls -la "$staged"
echo "stage: .device is $((staged_bytes / 1024 / 1024)) MiB, the tracked tree $((tree_bytes / 1024)) KiB"
if ((staged_bytes + tree_bytes > limit_bytes)); then
    echo "stage: too large to carry (limit 64 MiB with the working tree)" >&2
    exit 1
fi
echo "stage: on the device run:  bash tools/device/h200-run.sh     (carry: .device)"
