#!/usr/bin/env bash
# Fails when an #include climbs the engine's layers. The order is the one line of
# src/engine/DESIGN.md that starts with "**Layers**": folders lowest first, separated by "<";
# folders of one rank, which may not include each other, by ",". A file under src/engine/F/
# (or src/bridge/, the folder "bridge") may include its own folder and lower ranks only, and
# every folder an include names must be in the order. Run by .ci/run.
#
#   tools/check_layers.sh [REPO]   check REPO (default: the repository holding this script)
#   tools/check_layers.sh --self-test
#                                  check that a climbing include in a scratch tree fails
set -euo pipefail

check() {
  local repo=$1
  local design="$repo/src/engine/DESIGN.md"
  local order
  order=$(grep -m1 '^\*\*Layers\*\*' "$design" | sed -n 's/.*`\([^`]*<[^`]*\)`.*/\1/p')
  if [ -z "$order" ]; then
    echo "check_layers: no '**Layers**' line with a \`a < b\` order in $design" >&2
    return 2
  fi
  (cd "$repo/src" && find engine bridge -type f \( -name '*.h' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cuh' \) |
     LC_ALL=C sort | xargs grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' /dev/null || true) |
    awk -v order="$order" '
      BEGIN {
        n = split(order, ranks, "<")
        for (r = 1; r <= n; ++r) {
          m = split(ranks[r], names, ",")
          for (k = 1; k <= m; ++k) { gsub(/[[:space:]]/, "", names[k]); if (names[k] != "") rank[names[k]] = r }
        }
        bad = 0
      }
      {
        # file:line:#include "folder/name.h"
        file = $0; sub(/:.*/, "", file)
        rest = $0; sub(/^[^:]*:/, "", rest); line = rest; sub(/:.*/, "", line)
        inc = rest; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
        split(file, parts, "/")
        from = parts[1] == "bridge" ? "bridge" : parts[2]
        if (index(inc, "/") == 0) next            # a file of the same folder
        to = inc; sub(/\/.*/, "", to)
        if (!(from in rank)) { printf "src/%s: folder %s is not in the layer order\n", file, from; bad = 1; next }
        if (!(to in rank)) { printf "src/%s:%s: includes %s, whose folder is not in the layer order\n", file, line, inc; bad = 1; next }
        if (to != from && rank[to] >= rank[from]) {
          printf "src/%s:%s: %s includes %s (%s is not below %s)\n", file, line, from, inc, to, from
          bad = 1
        }
      }
      END { exit bad }'
}

self_test() {
  local scratch
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' RETURN
  mkdir -p "$scratch/src/engine/common" "$scratch/src/engine/solver" "$scratch/src/engine/device" \
           "$scratch/src/bridge"
  printf '**Layers** (test): `common < solver < device < bridge`\n' >"$scratch/src/engine/DESIGN.md"
  printf '#include "common/a.h"\n#include "solver/b.h"\n#include "c.h"\n' >"$scratch/src/engine/device/d.cpp"
  printf '#include "device/d.h"\n' >"$scratch/src/bridge/e.cpp"
  printf '#include "common/a.h"\n' >"$scratch/src/engine/solver/b.h"
  check "$scratch" >/dev/null || { echo "self-test: a tree in order failed the check" >&2; return 1; }
  printf '#include "device/d.h"\n' >>"$scratch/src/engine/solver/b.h"
  if check "$scratch" >/dev/null; then echo "self-test: a climbing include passed" >&2; return 1; fi
  echo "self-test passed: a tree in order passes, a climbing include fails"
}

if [ "${1:-}" = "--self-test" ]; then
  self_test
else
  repo=${1:-"$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"}
  if check "$repo"; then
    echo "check_layers: no include climbs ($(grep -m1 '^\*\*Layers\*\*' "$repo/src/engine/DESIGN.md" |
      sed -n 's/.*`\([^`]*<[^`]*\)`.*/\1/p'))"
  else
    echo "check_layers: includes climb the layer order of src/engine/DESIGN.md" >&2
    exit 1
  fi
fi
