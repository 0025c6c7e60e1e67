#!/usr/bin/env bash
# The device checks a GPU session runs first, in one call of about 8 minutes on a 16-core
# machine with one GPU: the CUDA build of the device suite, the whole suite on the GPU, then
# compute-sanitizer's memcheck over the all-coordinates tests (memcheck runs kernels 10-100x
# slower, so not the whole suite). No R needed.
#
#   bash bench/gpu/device_check.sh [build-dir]
#
# Prints one line per stage and a summary; exits non-zero where a stage failed. The suite's
# AllCoordinatesStart.TwoFitsGiveTheSameBits is the run-to-run determinism check on the GPU.
set -uo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-build/gpu-check}
jobs=$(nproc 2>/dev/null || echo 4)
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
status=0
stage() { echo; echo "==== $* ($(date +%T)) ===="; }

stage "build: argus_device_tests_cuda with $nvcc"
start=$(date +%s)
if ! cmake -S . -B "$dir" -DARGUS_CUDA=on -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_BUILD_TYPE=Release \
       -DARGUS_BUILD_BENCH=OFF >"$dir.configure.log" 2>&1 ||
   ! cmake --build "$dir" -j "$jobs" --target argus_device_tests_cuda >"$dir.build.log" 2>&1; then
  tail -40 "$dir.configure.log" "$dir.build.log" 2>/dev/null
  echo "BUILD FAILED"
  exit 1
fi
echo "built in $(( $(date +%s) - start )) s"
nvidia-smi -L 2>/dev/null || true

stage "the device suite on the GPU"
start=$(date +%s)
timeout 240 "$dir/argus_device_tests_cuda" --gtest_brief=1 2>&1 | tail -60
rc=${PIPESTATUS[0]}
echo "device suite: exit $rc in $(( $(date +%s) - start )) s"
[ "$rc" -eq 0 ] || status=1

# Under memcheck: the all-coordinates steps on every covered model (every kernel they launch,
# the exact cycles after them where the certificate fails), the views' build on the device
# (the radix sort among them) and a batch of fold fits.
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
if [ -x "$sanitizer" ]; then
  stage "compute-sanitizer memcheck"
  start=$(date +%s)
  filter='AllCoordinatesStart.TwoFitsGiveTheSameBits:AllCoordinatesStart.ModelsWithoutABoundTakeTheExactCycles:AllCoordinatesStart.TheDeviceBuildsTheViewsAsTheHostOracle:BatchedFits.TwoBatchesGiveTheSameBits'
  timeout 200 "$sanitizer" --tool memcheck --leak-check full --error-exitcode 3 \
    "$dir/argus_device_tests_cuda" --gtest_brief=1 --gtest_filter="$filter" 2>&1 | tail -40
  rc=${PIPESTATUS[0]}
  echo "memcheck: exit $rc in $(( $(date +%s) - start )) s (3: memcheck found errors; 124: ran out of time)"
  [ "$rc" -eq 0 ] || status=1
else
  echo "compute-sanitizer not found: memcheck skipped"
  status=1
fi

stage "summary"
[ "$status" -eq 0 ] && echo "DEVICE CHECK PASSED" || echo "DEVICE CHECK FAILED (see above)"
exit "$status"
