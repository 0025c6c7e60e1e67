#!/usr/bin/env bash
# The device benchmark in one command, on a machine with CMake (and nvcc + a GPU for the CUDA
# runner; without a GPU it runs the emulated device, which measures nothing about GPUs but
# checks the path). No R needed.
#   bash bench/gpu/run.sh [cuda|emulated] [quick]
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
if [ "${2:-}" = "quick" ]; then
  "$bin" "$device" sccs 10000 200 3
  "$bin" "$device" lr 100000 200 3
  "$bin" "$device" cox 100000 200 3
  "$bin" "$device" cox-continuous 100000 200 3
  exit 0
fi
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
# Counting-process Cox and clr with exact ties (device runners never timed on a GPU yet:
# device = "auto" keeps them on the CPU until these rows say otherwise).
"$bin" "$device" cox-counting 100000 1000 3
ARGUS_BENCH_CPU_REPS=1 ARGUS_BENCH_MAX_CYCLES=3 "$bin" "$device" cox-counting 1000000 1000 1
"$bin" "$device" clr-exact 100000 1000 3
ARGUS_BENCH_CPU_REPS=1 "$bin" "$device" clr-exact 1000000 1000 1
# One variance's 10-fold cross-validation (the CPU on all cores).
ARGUS_BENCH_CPU_REPS=1 ARGUS_BENCH_THREADS=$(nproc) "$bin" "$device" cv-cox-continuous 100000 1000 1
