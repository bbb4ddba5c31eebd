#!/usr/bin/env bash
# How long a run takes to end after Ctrl-C in the middle of MLP prefill-4096: on the CUDA backend
# (2000 repeats) and on the CPU backend (one CPU GEMM of that shape takes minutes), both through
# the CLI; and the window's start-up estimate for the same CPU run.
cli=$1; r=$2
ms() { date +%s%N | awk '{printf "%d", $1/1000000}'; }
for backend in cuda cpu; do
  $cli run --pipeline mlp --preset prefill-4096 --dtype bf16 --backend $backend --repeat 2000 > $r/cancel_$backend.out 2>&1 &
  pid=$!; sleep 8; t0=$(ms); kill -INT $pid; wait $pid; rc=$?; t1=$(ms)
  echo "$backend: SIGINT after 8 s of a 2000-repeat prefill-4096 run: exited rc=$rc $((t1-t0)) ms later"
  tail -3 $r/cancel_$backend.out
done
