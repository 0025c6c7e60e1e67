#!/usr/bin/env bash
# Run all Argus benchmarks and write a markdown report.
#
#   bench/run_all.sh                      # full sizes -> bench/history/run-all-DATE.md
#   bench/run_all.sh --quick              # smoke run  -> bench/RESULTS-quick.md
#   ARGUS_LIB=/tmp/rlib-bench bench/run_all.sh --install   # build this tree into $ARGUS_LIB first
#   bench/run_all.sh --out=/tmp/r.md -- --reps=5            # args after -- go to every script
#
# Options:
#   --quick      pass --quick to every script (small sizes), default output RESULTS-quick.md
#   --install    install a snapshot of the working tree into $ARGUS_LIB (default
#                /tmp/rlib-bench) before running; the copy keeps the build away from src/
#   --out=FILE   report path (default bench/history/run-all-DATE.md, or bench/RESULTS-quick.md)
#
# The report is a dated record; bench/RESULTS.md's current tables take its figures by hand.
#
# Environment: ARGUS_LIB = R library with the Argus build to benchmark (prepended to
# .libPaths() by each script); without it the default library is used.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
quick=0
install=0
out=""
scriptArgs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1; scriptArgs+=("--quick") ;;
    --install) install=1 ;;
    --out=*) out="${1#--out=}" ;;
    --) shift; scriptArgs+=("$@"); break ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
if [ -z "$out" ]; then
  if [ "$quick" = 1 ]; then out="$here/RESULTS-quick.md"; else out="$here/history/run-all-$(date -u +%F).md"; fi
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/argus-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT

if [ "$install" = 1 ]; then
  export ARGUS_LIB="${ARGUS_LIB:-/tmp/rlib-bench}"
  mkdir -p "$ARGUS_LIB"
  echo "installing a snapshot of $root into $ARGUS_LIB" >&2
  mkdir -p "$work/src-copy"
  tar -C "$root" --exclude=./build --exclude='./build-*' --exclude=./bench --exclude=./.git \
      --exclude='*.o' --exclude='*.so' --exclude='*.Rcheck' -cf - . | tar -C "$work/src-copy" -xf -
  R CMD INSTALL --no-test-load -l "$ARGUS_LIB" "$work/src-copy" > "$work/install.log" 2>&1 ||
    { tail -30 "$work/install.log" >&2; echo "install failed" >&2; exit 1; }
fi

cd "$root"
cpu="$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
mem="$(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)"
rver="$(Rscript -e 'cat(R.version.string)')"
versions="$(Rscript -e '
  lib <- Sys.getenv("ARGUS_LIB"); if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
  v <- function(p) tryCatch(as.character(utils::packageVersion(p)), error = function(e) "not installed")
  where <- tryCatch(find.package("Argus"), error = function(e) "?")
  built <- tryCatch(utils::packageDescription("Argus")$Built, error = function(e) "?")
  cat(sprintf("Argus %s (%s; built %s), glmnet %s, Matrix %s, BLAS %s", v("Argus"), where,
              built, v("glmnet"), v("Matrix"), basename(extSoftVersion()[["BLAS"]])))' 2>/dev/null || echo "?")"
rev="$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')"
dirty="$(git -C "$root" status --porcelain -- R src 2>/dev/null | wc -l | tr -d ' ')"
diffsum="$(git -C "$root" diff HEAD -- R src 2>/dev/null | md5sum | cut -c1-8)"
load0="$(cut -d' ' -f1-3 /proc/loadavg)"
started="$(date -u '+%Y-%m-%d %H:%M:%S UTC')"

run() {  # run SCRIPT: stdout -> $work/SCRIPT.md, stderr -> $work/SCRIPT.log
  local name="$1"
  echo "running bench/$name.R ${scriptArgs[*]:-}" >&2
  local t0=$SECONDS
  if ! Rscript "$here/$name.R" "${scriptArgs[@]}" > "$work/$name.md" 2> "$work/$name.log"; then
    echo "bench/$name.R failed:" >&2
    tail -20 "$work/$name.log" >&2
    printf '\n**bench/%s.R failed**; last lines of its log:\n\n```\n%s\n```\n' "$name" \
      "$(tail -20 "$work/$name.log")" >> "$work/$name.md"
  fi
  echo "$((SECONDS - t0))" > "$work/$name.seconds"
}
run sccs
run lr
run survival
run cv
run dense
load1="$(cut -d' ' -f1-3 /proc/loadavg)"

cat "$work"/*.log | grep '^METRIC ' > "$work/metrics.txt" || true
targets="$(Rscript - "$work/metrics.txt" <<'EOF'
args <- commandArgs(trailingOnly = TRUE)
lines <- readLines(args[1])
parse <- function(l) {
  parts <- strsplit(sub("^METRIC ", "", l), " ")[[1]]
  kv <- strsplit(parts[-1], "=", fixed = TRUE)
  c(metric = parts[1], stats::setNames(vapply(kv, `[`, "", 2), vapply(kv, `[`, "", 1)))
}
m <- lapply(lines, parse)
same <- function(a, b) {  # metric text a against wanted value b (number or text)
  if (is.numeric(b)) isTRUE(suppressWarnings(as.numeric(a)) == b) else identical(a, b)
}
pick <- function(.metric, ...) {
  want <- list(...)
  for (x in m) if (x[["metric"]] == .metric &&
                   all(vapply(names(want), function(k) !is.na(x[k]) && same(x[[k]], want[[k]]),
                              TRUE)))
    return(x)
  NULL
}
num <- function(x, k) as.numeric(x[[k]])
verdict <- function(p) if (p) "PASS" else "FAIL"
# pass: judged on elapsed time; passCpu: the same test on CPU time (steadier when shared).
row <- function(target, measured, pass, passCpu = pass) cat(sprintf("| %s | %s | %s |\n",
  target, measured, if (is.na(pass)) "not measured" else if (pass == passCpu) verdict(pass)
  else sprintf("%s (%s on cpu time)", verdict(pass), verdict(passCpu))))
cat("| target | measured | result |\n| --- | --- | --- |\n")
s <- pick("sccs", cases = 1e5, drugs = 200, variance = 1)
if (is.null(s)) row("SCCS 1e5 cases x 200 drugs, Laplace var 1: fit <= 0.2 s", "-", NA) else
  row("SCCS 1e5 cases x 200 drugs, Laplace var 1: fit <= 0.2 s",
      sprintf("%.3f s elapsed (%.3f s cpu, engine %.3f s, %s cycles, %s); %.1fx over",
              num(s, "fit"), num(s, "fitcpu"), num(s, "engine"), s[["cycles"]], s[["status"]],
              num(s, "fit") / 0.2),
      num(s, "fit") <= 0.2, num(s, "fitcpu") <= 0.2)
a <- pick("lr_fit", method = "argus", convergence = "gradient", tol = 1e-6, n = 1e5, p = 1000, density = 0.05)
g <- pick("lr_fit", method = "glmnet", n = 1e5, p = 1000, density = 0.05)
if (is.null(a) || is.null(g)) row("Logistic 1e5 x 1000 (5%), Laplace var 1: Argus (default tolerance 1e-6) < 0.5 x glmnet", "-", NA) else
  row("Logistic 1e5 x 1000 (5%), Laplace var 1: Argus (default tolerance 1e-6) < 0.5 x glmnet",
      sprintf("Argus %.3f s (%s cycles) vs glmnet %.3f s (%s passes): ratio %.2f elapsed, %.2f cpu; need <= %.3f s",
              num(a, "elapsed"), a[["cycles"]], num(g, "elapsed"), g[["cycles"]],
              num(a, "elapsed") / num(g, "elapsed"), num(a, "cpu") / num(g, "cpu"),
              0.5 * num(g, "elapsed")),
      num(a, "elapsed") < 0.5 * num(g, "elapsed"), num(a, "cpu") < 0.5 * num(g, "cpu"))
cox5 <- pick("survival_fit", model = "cox", n = 1e5, times = "integer")
if (is.null(cox5)) row("Cox 1e5 x 1000 (5%), integer days, Laplace var 1: fit <= 1.5 s", "-", NA) else
  row("Cox 1e5 x 1000 (5%), integer days, Laplace var 1: fit <= 1.5 s",
      sprintf("%.3f s elapsed (%.3f s cpu), %s cycles", num(cox5, "elapsed"), num(cox5, "cpu"),
              cox5[["cycles"]]),
      num(cox5, "elapsed") <= 1.5, num(cox5, "cpu") <= 1.5)
cox6 <- pick("survival_fit", model = "cox", n = 1e6, times = "integer")
if (is.null(cox6)) row("Cox 1e6: fit <= 30 s with <= 0.5 s per cycle", "-", NA) else
  row("Cox 1e6: fit <= 30 s with <= 0.5 s per cycle",
      sprintf("%.1f s elapsed (%.1f s cpu), %s cycles, %.2f s per cycle", num(cox6, "elapsed"),
              num(cox6, "cpu"), cox6[["cycles"]], num(cox6, "perCycle")),
      num(cox6, "elapsed") <= 30 && num(cox6, "perCycle") <= 0.5,
      num(cox6, "cpu") <= 30 && num(cox6, "perCycle") <= 0.5)
fgr5 <- pick("survival_fit", model = "fgr", n = 1e5, times = "integer")
if (is.null(fgr5) || is.null(cox5)) row("Fine-Gray within 2x of Cox (1e5, integer days)", "-", NA) else
  row("Fine-Gray within 2x of Cox (1e5, integer days)",
      sprintf("fgr %.3f s vs cox %.3f s elapsed (%.3f vs %.3f cpu)", num(fgr5, "elapsed"),
              num(cox5, "elapsed"), num(fgr5, "cpu"), num(cox5, "cpu")),
      num(fgr5, "elapsed") <= 2 * num(cox5, "elapsed"), num(fgr5, "cpu") <= 2 * num(cox5, "cpu"))
cv <- pick("cv_cox", n = 1e5, p = 1000, threads = 2)
if (is.null(cv)) row("Cox 1e5 x 1000 (5%), Laplace, 10-fold auto CV on 2 threads: CV < 2 x ten single fits at the chosen variance", "-", NA) else
  row("Cox 1e5 x 1000 (5%), Laplace, 10-fold auto CV on 2 threads: CV < 2 x ten single fits at the chosen variance",
      sprintf("CV %.1f s elapsed (%.1f s cpu), %s candidates, %s fold fits (%.3f s each); ten fits %.1f s (%.1f s cpu): ratio %.2f elapsed, %.2f on cpu / 2 threads; load %s",
              num(cv, "cv"), num(cv, "cvcpu"), cv[["candidates"]], cv[["fits"]],
              num(cv, "cv") / num(cv, "fits"), num(cv, "tenFits"), num(cv, "tenFitsCpu"),
              num(cv, "cv") / num(cv, "tenFits"), num(cv, "cvcpu") / 2 / num(cv, "tenFitsCpu"),
              cv[["load"]]),
      num(cv, "cv") < 2 * num(cv, "tenFits"), num(cv, "cvcpu") / 2 < 2 * num(cv, "tenFitsCpu"))
d <- pick("lr_createData", input = "sorted", n = 1e5, p = 1000)
if (is.null(d)) row("createData from 5M (rowId, covariateId) pairs <= 2 s", "-", NA) else
  row("createData from 5M (rowId, covariateId) pairs <= 2 s",
      sprintf("%.3f s elapsed (%.3f s cpu), %s pairs sorted by rowId", num(d, "elapsed"),
              num(d, "cpu"), format(as.numeric(d[["entries"]]), big.mark = ",")),
      num(d, "elapsed") <= 2, num(d, "cpu") <= 2)
EOF
)"

{
  echo "# Argus benchmark results"
  echo
  echo "Generated by \`bench/run_all.sh${scriptArgs[*]:+ ${scriptArgs[*]}}\` on $started."
  echo
  echo "## Machine"
  echo
  echo "- CPU: $cpu, nproc = $(nproc); memory $mem"
  echo "- $rver; $versions"
  echo "- source tree: $root at $rev, $dirty changed file(s) under R/ and src/ (diff md5 $diffsum)"
  echo "- load average before / after: $load0 / $load1 (a load above nproc means other work shared the CPUs: prefer the cpu times)"
  echo
  echo "## Targets"
  echo
  echo "Judged on elapsed time (median); where CPU time gives another verdict it is shown in parentheses."
  echo
  echo "$targets"
  echo
  echo "## SCCS (bench/sccs.R, $(cat "$work/sccs.seconds") s)"
  echo
  cat "$work/sccs.md"
  echo
  echo "## Logistic regression and createData (bench/lr.R, $(cat "$work/lr.seconds") s)"
  echo
  cat "$work/lr.md"
  echo
  echo "## Survival (bench/survival.R, $(cat "$work/survival.seconds") s)"
  echo
  cat "$work/survival.md"
  echo
  echo "## Cross-validation (bench/cv.R, $(cat "$work/cv.seconds") s)"
  echo
  cat "$work/cv.md"
  echo
  echo "## Dense columns at the default control (bench/dense.R, $(cat "$work/dense.seconds") s)"
  echo
  cat "$work/dense.md"
  echo
  echo "## Notes from the scripts (stderr)"
  echo
  echo '```'
  cat "$work/sccs.log" "$work/lr.log" "$work/survival.log" "$work/cv.log" "$work/dense.log" |
    grep -v '^METRIC ' || true
  echo '```'
} > "$out"
echo "wrote $out" >&2
