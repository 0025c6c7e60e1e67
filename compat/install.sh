#!/usr/bin/env bash
# Installs the Cyclops front end on Argus (compat/Cyclops) into a library of its own, never
# over a real Cyclops. Argus must be installed already (the README's first command does both).
#   bash compat/install.sh [LIB]
# LIB: default /usr/local/lib/R/argus-cyclops as root, ~/R/argus-cyclops otherwise.
# A study then uses it with .libPaths(c(LIB, .libPaths())) or R_LIBS=LIB.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -ge 1 ]; then lib=$1
elif [ "$(id -u)" = 0 ]; then lib=/usr/local/lib/R/argus-cyclops
else lib=$HOME/R/argus-cyclops; fi
mkdir -p "$lib"
lib=$(cd "$lib" && pwd)
# a Cyclops already in LIB must be this front end: the real one is never overwritten
if [ -f "$lib/Cyclops/DESCRIPTION" ] && ! grep -q "Argus" "$lib/Cyclops/DESCRIPTION"; then
  echo "compat/install.sh: $lib holds the real Cyclops; choose another library" >&2
  exit 1
fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
(cd "$work" && R CMD build --no-manual "$here/Cyclops" >build.log 2>&1) ||
  { cat "$work/build.log"; exit 1; }
R CMD INSTALL -l "$lib" "$work"/Cyclops_*.tar.gz >"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; exit 1; }
R_LIBS="$lib${R_LIBS:+:$R_LIBS}" Rscript -e 'suppressPackageStartupMessages(library(Cyclops))
  cat("Cyclops", as.character(packageVersion("Cyclops")), "on Argus",
      as.character(packageVersion("Argus")), "installed in", .libPaths()[1], "\n")'
echo "use it with: .libPaths(c(\"$lib\", .libPaths()))  or  R_LIBS=$lib Rscript study.R"
