#!/usr/bin/env bash
# Installs every system dependency of Argus from Debian packages (run as root on a fresh
# Debian bookworm machine). Skips apt entirely when everything is already there.
set -euo pipefail
packages=(r-base-dev r-cran-rcpp r-cran-rcppeigen r-cran-testthat r-cran-survival
          r-cran-matrix r-cran-mass r-cran-glmnet r-cran-cmprsk r-cran-bit64 r-cran-knitr
          r-cran-rmarkdown pandoc cmake g++ make libgtest-dev
          r-cran-dbi r-cran-rsqlite r-cran-dplyr r-cran-dbplyr r-cran-rpostgresql postgresql
          r-cran-future r-cran-generics r-cran-sandwich r-cran-tibble)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
echo "deps: all present"
