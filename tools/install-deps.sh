#!/bin/sh
# SPDX-License-Identifier: MIT
# Install what building and testing crowdspec needs on Debian 12 (or Ubuntu):
# compilers, CMake, pkg-config, OpenBLAS (CBLAS), LAPACKE, cmocka and Doxygen.
# Uses sudo when not run as root. Skips apt-get when everything is present.
#
# --test-extras also installs what the optional command-line tests use: chromium
# (cli_report_browser renders the HTML report in a headless browser) and man-db
# (cli_manpage renders docs/crowdspec.1 with man -l) and Python with numpy, pandas and
# pytest (python_bindings runs the package's tests), and Debian's cargo and rustc
# (rust_bindings runs `cargo test` on bindings/rust; the crates need Rust >= 1.63, which
# is Debian 12's) when no cargo is on the PATH already (e.g. one from rustup). Without
# them those tests are reported as skipped. CI (.ci/run) passes it.
set -eu
packages="cmake make g++ pkg-config libopenblas-dev liblapacke-dev libcmocka-dev doxygen"
for arg in "$@"; do
  case $arg in
    --test-extras)
      packages="$packages chromium man-db python3-venv python3-setuptools python3-numpy python3-pandas python3-pytest"
      command -v cargo >/dev/null 2>&1 || packages="$packages cargo" ;;
    *) echo "usage: $0 [--test-extras]" >&2; exit 2 ;;
  esac
done
missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends $missing
