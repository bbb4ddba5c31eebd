#!/usr/bin/env bash
# Second H200 call: the GPU counter tests and the whole comparison again on the committed build,
# then the lesson kernel at prefill-512 measured several times by each side, to see how much its
# DRAM reads move from run to run. Staged by stage.sh into .device-counters/ (carried); run from
# the repository root:  BUDGET=380 bash .device-counters/run2.sh
set -u
root=$(pwd); here=$root/.device-counters
work=/tmp/fs-counters; rm -rf $work; mkdir -p $work
tar -C $work -xzf $here/payload.tar.gz
export LD_LIBRARY_PATH="$work/lib:/usr/local/cuda-13.0/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export QT_QPA_PLATFORM=offscreen FUSESCOPE_KERNEL_CACHE=$work/kcache
r=$OUT; log=$r/log.txt; start=$SECONDS; budget=${BUDGET:-380}
left() { echo $((budget - (SECONDS - start))); }
step() { local name=$1 limit=$2; shift 2; local l=$(left)
  if ((l < 20)); then echo "== $name skipped (budget)" | tee -a $log; return; fi
  ((limit > l - 10)) && limit=$((l - 10))
  echo "== $name $(date -u +%T) (limit ${limit}s): $*" | tee -a $log; local t0=$SECONDS
  timeout -k 5 $limit "$@" > $work/$name.log 2>&1; echo "rc=$? $name $((SECONDS-t0))s (at $((SECONDS-start))s)" | tee -a $log
  tail -${TAILN:-12} $work/$name.log | tee -a $log; }
cli=$work/new/fusescope-cli; mkdir -p $work/bench $work/lesson
lesson=(run --pipeline mlp --preset prefill-512 --dtype bf16 --variants lesson_fused --backend cuda --warmup 0 --no-roofs)
TAILN=20 step gpu_tests 90 $work/new/measure_gpu_tests
step bench 170 python3 $here/counters_vs_ncu.py --cli $cli --out $work/bench --case-timeout 80
cat $work/bench.log >> $log
for i in 1 2 3 4; do TAILN=1 step lesson_fs_$i 30 $cli "${lesson[@]}" --repeat 1 --measure counters --json $work/lesson/fs-$i.json; done
TAILN=2 step lesson_ncu 60 ncu --clock-control none --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,gpu__time_duration.sum --csv --print-units base --log-file $work/lesson/ncu.csv $cli "${lesson[@]}" --repeat 4
python3 - $work/lesson >> $log 2>&1 <<'PY'
import csv, glob, io, json, sys
d = sys.argv[1]
for f in sorted(glob.glob(d + "/fs-*.json")):
    k = json.load(open(f))["runs"][0]["kernels"][0]
    print("FuseScope %s: DRAM read %.1f MB, L2 requests %.1f MB" % (f.split("/")[-1], k["dram_bytes_read"] / 1e6, k["l2_sectors_read"] * 32 / 1e6))
t = open(d + "/ncu.csv").read(); t = t[t.find('"ID"'):]
by = {}
for row in csv.DictReader(io.StringIO(t)):
    if "lesson" in row["Kernel Name"].lower() or "Lesson" in row["Kernel Name"]:
        by.setdefault(row["ID"], {})[row["Metric Name"]] = float(row["Metric Value"].replace(",", ""))
for i, m in by.items():
    print("ncu launch %s: DRAM read %.1f MB, L2 requests %.1f MB, %.2f ms" % (i, m.get("dram__bytes_read.sum", 0) / 1e6, m.get("lts__t_sectors_srcunit_tex_op_read.sum", 0) * 32 / 1e6, m.get("gpu__time_duration.sum", 0) / 1e6))
PY
tail -12 $log
tar czf $r/bench2.tgz -C $work bench lesson gpu_tests.log
echo "done at $((SECONDS-start))s" | tee -a $log
