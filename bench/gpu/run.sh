#!/usr/bin/env bash
# The device benchmark in one command, on a machine with CMake (and nvcc + a GPU for the CUDA
# runner; without a GPU it runs the emulated device, which measures nothing about GPUs but
# checks the path). No R needed.
#   bash bench/gpu/run.sh [cuda|emulated] [quick|all-coordinates|exact]
#
# Default (issue 42, about 8 minutes on an H100 host after a 2-3 minute build): every row of
# the all-coordinates table, each design simulated once and fitted on one CPU core (the CPU's
# default start) and on the device twice, with its exact cycles only (start=never, the device
# as it was) and with the all-coordinates steps (start=always); the device's setup (upload,
# plans, first rebuild) at 1e6; one 10-fold cross-validation. "exact": the earlier sessions'
# table of the exact device cycle (issue 11). "quick": four small designs, both starts.
set -euo pipefail
cd "$(dirname "$0")/../.."
device=${1:-}
if [ -z "$device" ]; then
  if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then device=cuda; else device=emulated; fi
fi
if [ "$device" = "emulated" ]; then mode=emulate; dir=build/bench-emu; else mode=on; dir=build/bench-cuda; fi
cmake -S . -B "$dir" -DARGUS_CUDA=$mode -DCMAKE_BUILD_TYPE=Release -DARGUS_BUILD_TESTS=OFF >/dev/null
cmake --build "$dir" -j "$(nproc)" --target argus_bench_gpu >/dev/null
bin="$dir/argus_bench_gpu"
export OMP_WAIT_POLICY=passive
nvidia-smi -L 2>/dev/null || true
echo "host: $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2)"

if [ "${2:-}" = "quick" ]; then
  for d in "sccs 10000 200" "lr 100000 200" "cox 100000 200" "cox-continuous 100000 200"; do
    ARGUS_BENCH_STARTS=never,always "$bin" "$device" $d 3
  done
  exit 0
fi

if [ "${2:-}" = "exact" ]; then
  "$bin" "$device" sccs 100000 200 3
  ARGUS_BENCH_CPU_REPS=1 "$bin" "$device" sccs 1000000 200 3   # paper 000's design
  "$bin" "$device" lr 100000 1000 3
  ARGUS_BENCH_CPU_REPS=1 "$bin" "$device" lr 1000000 1000 3
  # Paper 003's designs: Cox and Fine-Gray, integer and continuous times. At 1e6 the fits stop
  # after 3 cycles and the cost of a cycle is printed without the setup; at 1e7 the CPU is left
  # out (one of its fits takes hours).
  for design in cox cox-continuous fgr fgr-continuous; do "$bin" "$device" $design 100000 1000 3; done
  for design in cox cox-continuous fgr fgr-continuous; do
    ARGUS_BENCH_CPU_REPS=1 ARGUS_BENCH_MAX_CYCLES=3 "$bin" "$device" $design 1000000 1000 1
  done
  for design in cox cox-continuous; do
    ARGUS_BENCH_CPU_REPS=0 ARGUS_BENCH_MAX_CYCLES=2 "$bin" "$device" $design 10000000 1000 1
  done
  "$bin" "$device" cox-counting 100000 1000 3
  ARGUS_BENCH_CPU_REPS=1 ARGUS_BENCH_MAX_CYCLES=3 "$bin" "$device" cox-counting 1000000 1000 1
  "$bin" "$device" clr-exact 100000 1000 3
  ARGUS_BENCH_CPU_REPS=1 "$bin" "$device" clr-exact 1000000 1000 1
  ARGUS_BENCH_CPU_REPS=1 ARGUS_BENCH_THREADS=$(nproc) "$bin" "$device" cv-cox-continuous 100000 1000 1
  exit 0
fi

# ---- issue 42: the all-coordinates steps against one CPU core and the device's exact cycles ----
# Each line: the CPU once (1 core, its default start), then the device with start=never and
# start=always (medians of 3), their time ratios to the CPU and largest |beta difference|.
# At 1e5 the GPU is bound by launch latency; at 1e6 by bandwidth, where the steps should win.
echo "== single fits at 1e5 (P = 1000 at 5%; sccs 1e5 cases x 200 drugs) =="
for d in "sccs 100000 200" "lr 100000 1000" "cox 100000 1000" "cox-continuous 100000 1000" \
         "fgr-continuous 100000 1000"; do
  ARGUS_BENCH_CPU_REPS=1 ARGUS_BENCH_STARTS=never,always "$bin" "$device" $d 3
done
echo "== single fits at 1e6, with the device's setup (upload, plans, first rebuild; target 50 ms) =="
for d in "sccs 1000000 200" "lr 1000000 1000" "cox 1000000 1000" "cox-continuous 1000000 1000"; do
  ARGUS_BENCH_SETUP=1 ARGUS_BENCH_CPU_REPS=1 ARGUS_BENCH_STARTS=never,always "$bin" "$device" $d 3
done
# Fine-Gray and counting-process Cox at 1e6: the exact device cycle took seconds a cycle on
# an H200 (bench/RESULTS.md), so the device fits with the steps only.
for d in "fgr-continuous 1000000 1000" "fgr 1000000 1000" "cox-counting 1000000 1000"; do
  ARGUS_BENCH_SETUP=1 ARGUS_BENCH_CPU_REPS=1 ARGUS_BENCH_STARTS=always "$bin" "$device" $d 1
done
echo "== one candidate's 10-fold cross-validation, Cox 1e5 continuous: CPU on every core; device with each start =="
ARGUS_BENCH_CPU_REPS=1 ARGUS_BENCH_THREADS=$(nproc) ARGUS_BENCH_START=never "$bin" "$device" cv-cox-continuous 100000 1000 1
ARGUS_BENCH_CPU_REPS=0 ARGUS_BENCH_START=always "$bin" "$device" cv-cox-continuous 100000 1000 1
