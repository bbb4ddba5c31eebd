#!/usr/bin/env bash
# How long fusescope-cli takes to end after Ctrl-C in the middle of a long run: MLP prefill-4096
# with 2000 repeats, SIGINT after a few seconds, on each backend given. Prints the exit status and
# the milliseconds from the signal to the exit, then the end of the program's output (the CPU
# run's estimate included).
#
# usage: benchmarks/cancel_latency.sh CLI [OUT_DIR] [BACKEND...]   (default backends: cuda cpu)
# The limit the project holds to: the run stops within 0.5 s of the signal on every backend.
set -u
if (($# < 1)) || [[ ! -x $1 ]]; then
    echo "usage: $0 PATH/TO/fusescope-cli [OUT_DIR] [BACKEND...]" >&2
    exit 2
fi
cli=$1
out=${2:-$(mktemp -d)}
shift $(($# < 2 ? $# : 2))
backends=("$@")
((${#backends[@]})) || backends=(cuda cpu)
mkdir -p "$out"
wait_s=${FUSESCOPE_CANCEL_AFTER_S:-8}
ms() { date +%s%N | awk '{printf "%d", $1 / 1000000}'; }
for backend in "${backends[@]}"; do
    log="$out/cancel_$backend.out"
    "$cli" run --pipeline mlp --preset prefill-4096 --dtype bf16 --backend "$backend" \
        --repeat 2000 > "$log" 2>&1 &
    pid=$!
    sleep "$wait_s"
    t0=$(ms)
    kill -INT "$pid"
    wait "$pid"
    rc=$?
    t1=$(ms)
    echo "$backend: SIGINT after $wait_s s of a 2000-repeat prefill-4096 run: exited rc=$rc $((t1 - t0)) ms later"
    tail -n 3 "$log"
done
