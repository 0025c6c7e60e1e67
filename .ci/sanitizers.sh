#!/usr/bin/env bash
# The R package under AddressSanitizer and UndefinedBehaviorSanitizer: builds Argus from a
# source tarball with -fsanitize=address,undefined into its own library (build/ci-sanitize/lib)
# and runs tests/testthat/test-edited-objects.R with it (every field of argusData and argusFit
# edited, and the engine's entry points called with edited data), so that a read out of
# bounds is a failed run even where it does not crash. R itself is not instrumented: the
# sanitizer runtimes are preloaded, and leak detection is off (R keeps memory to its exit by
# design). The test's child R processes inherit both.
#   bash .ci/sanitizers.sh [tarball]  (from .ci/run, with its R CMD build tarball; alone after
#                                      .ci/deps.sh, it builds one)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
jobs=$(nproc 2>/dev/null || echo 2)
out=build/ci-sanitize
rm -rf "$out" && mkdir -p "$out/lib"
started=$(date +%s)

flags="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cat > "$out/Makevars" <<EOF
CXXFLAGS = $flags
CXX17FLAGS = $flags
CFLAGS = $flags
LDFLAGS = -fsanitize=address,undefined
EOF

tarball=${1:-}
if [ -z "$tarball" ]; then
  (cd "$out" && R CMD build --no-build-vignettes --no-manual "$root" >build.log 2>&1) ||
    { cat "$out/build.log"; exit 1; }
  tarball=$(ls "$out"/Argus_*.tar.gz)
fi
tarball=$(cd "$(dirname "$tarball")" && pwd)/$(basename "$tarball")
ARGUS_CUDA=off MAKEFLAGS="-j$jobs" R_MAKEVARS_USER="$root/$out/Makevars" \
  R CMD INSTALL --no-test-load -l "$out/lib" "$tarball" >"$out/install.log" 2>&1 ||
  { tail -40 "$out/install.log"; exit 1; }
grep -q -- "-fsanitize=address,undefined" "$out/install.log" ||
  { echo "the sanitizer flags did not reach the compiler"; tail -40 "$out/install.log"; exit 1; }
built=$(date +%s)
echo "built with $flags in $((built - started)) s"

runtimes="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
LD_PRELOAD="$runtimes" \
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:print_summary=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  Rscript -e '
    .libPaths(c(commandArgs(TRUE)[1], .libPaths()))
    suppressPackageStartupMessages({ library(testthat); library(Argus) })
    r <- as.data.frame(test_file("tests/testthat/test-edited-objects.R", reporter = "summary",
                                 stop_on_failure = FALSE))
    failed <- sum(r$failed) + sum(r$error)
    cat(sprintf("sanitized testthat: %d passed, %d failed, %d skipped\n", sum(r$passed), failed, sum(r$skipped)))
    quit(status = if (failed > 0 || sum(r$skipped) > 0) 1 else 0)' "$out/lib"
echo "sanitized run: $(( $(date +%s) - built )) s (total $(( $(date +%s) - started )) s)"
