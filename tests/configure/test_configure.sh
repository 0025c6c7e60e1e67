#!/usr/bin/env bash
# Tests configure's ARGUS_CUDA switch both ways on a copy of the package: the Makevars it
# writes must select the CPU stub or the CUDA objects, and bad values must fail.
# Prints "configure: N passed, N failed" and exits non-zero on any failure.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$root/configure" "$root/src" "$root/tools" "$work/"
rm -f "$work/src/Makevars"
cd "$work"
passed=0; failed=0
check() {  # description, command...
  local what=$1; shift
  if "$@" >/dev/null 2>&1; then passed=$((passed + 1)); echo "ok: $what"
  else failed=$((failed + 1)); echo "FAILED: $what"; fi
}
has_nvcc() { command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ] || [ -n "${CUDA_HOME:-}" ]; }

ARGUS_CUDA=off ./configure >/dev/null
check "off: CPU stub object" grep -q 'engine/device/cuda_info_stub.o' src/Makevars
check "off: no CUDA object" bash -c '! grep -q "cuda_info.o" src/Makevars'
check "off: no cudart" bash -c '! grep -q "lcudart" src/Makevars'
check "off: every engine source is compiled" bash -c \
  'for f in $(grep -v "^#" src/engine/sources.txt); do grep -q "${f%.cpp}.o" src/Makevars || exit 1; done'
check "off: the emulated device's stub" grep -q 'engine/device/emulated_device_stub.o' src/Makevars
check "bad value is rejected" bash -c '! ARGUS_CUDA=maybe ./configure'
if [ -f /usr/local/cuda/include/cccl/thrust/version.h ] || [ -n "${CUDA_HOME:-}" ]; then
  ARGUS_CUDA=emulate ./configure >/dev/null
  check "emulate: the emulated device object" grep -q 'engine/device/emulated_device.o:' src/Makevars
  check "emulate: Thrust's OMP system" grep -q 'THRUST_DEVICE_SYSTEM_OMP' src/Makevars
  check "emulate: no stub" bash -c '! grep -q "emulated_device_stub.o" src/Makevars'
  check "emulate: no cudart" bash -c '! grep -q "lcudart" src/Makevars'
fi

if has_nvcc; then
  ARGUS_CUDA=on ./configure >/dev/null
  check "on: CUDA object" grep -q 'engine/device/cuda_info.o' src/Makevars
  check "on: links cudart statically" grep -q 'lcudart_static' src/Makevars
  check "on: sm_75 SASS and PTX" grep -q 'code=sm_75 -gencode arch=compute_75,code=compute_75' src/Makevars
  CUDA_ARCH=fat ARGUS_CUDA=on ./configure >/dev/null
  check "on, CUDA_ARCH=fat: SASS for sm_90" grep -q 'code=sm_90' src/Makevars
  ARGUS_CUDA=on ./configure >/dev/null
  check "on: no CPU stub" bash -c '! grep -q "cuda_info_stub.o" src/Makevars'
  check "on: no hard-coded sm_ arch" bash -c '! grep -q "arch=sm_" src/Makevars'
  if nvidia-smi -L >/dev/null 2>&1; then
    ARGUS_CUDA=auto ./configure >/dev/null
    check "auto with a GPU: CUDA object" grep -q 'engine/device/cuda_info.o' src/Makevars
  else
    ARGUS_CUDA=auto ./configure >/dev/null
    check "auto without a GPU: CPU only" grep -q 'cuda_info_stub.o' src/Makevars
  fi
else
  check "on without nvcc fails" bash -c '! PATH=/usr/bin:/bin CUDA_HOME= ARGUS_CUDA=on ./configure'
fi
echo "configure: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
