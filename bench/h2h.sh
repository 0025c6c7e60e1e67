#!/usr/bin/env bash
# The head-to-head table of issue 14: Argus against the incumbent on the shared simulator's
# data, one R process per row (bench/h2h.R), rows appended to a markdown file.
#
#   ARGUS_LIB=/tmp/rlib bash bench/h2h.sh [out.md] [reps]
#   ROWS="cox:1e5:exp:1,2 sccs:1e5:exp:1" bash bench/h2h.sh /tmp/h.md 3   # model:n:times:threads
# (threads: one count, or a list timed in the same process against the same incumbent fits)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:-/tmp/h2h.md}"
reps="${2:-3}"
rows="${ROWS:-cox:1e5:exp:1,2 cox:1e5:days:1,2 fgr:1e5:exp:1,2 fgr:1e5:days:1,2 sccs:1e5:exp:1,2 \
lr:1e5:exp:1,2 cox:1e6:days:1,2 fgr:1e6:days:1,2 cox:1e6:exp:1,2 fgr:1e6:exp:1,2}"
gen="${GEN:-$here/../../shared/peers/gen.R}"
header=TRUE
for row in $rows; do
  IFS=: read -r model n times threads <<<"$row"
  Rscript "$here/h2h.R" --model="$model" --n="$n" --times="$times" --threads="$threads" \
    --reps="$reps" --gen="$gen" --header="$header" | tee -a "$out"
  header=FALSE
done
