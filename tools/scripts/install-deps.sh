#!/bin/sh
# SPDX-License-Identifier: MIT
# Install what building and testing crowdspec needs on Debian 12 (or Ubuntu):
# compilers, CMake, pkg-config, OpenBLAS (CBLAS), LAPACKE, cmocka and Doxygen.
# Uses sudo when not run as root. Skips apt-get when everything is present.
#
# --test-extras also installs what the optional command-line tests use: chromium
# (cli_report_browser renders the HTML report in a headless browser) and man-db
# (cli_manpage renders docs/crowdspec.1 with man -l) and Python with numpy, pandas and
# pytest (python_bindings runs the package's tests; with dask and distributed its Dask
# tests run on a LocalCluster, skipped otherwise), and Debian's cargo and rustc
# (rust_bindings runs `cargo test` on bindings/rust; the crates need Rust >= 1.63, which
# is Debian 12's) when no cargo is on the PATH already (e.g. one from rustup), R with
# testthat (r_package installs the R package in bindings/r and runs its tests,
# r_package_check runs R CMD check; r-base-dev brings R and what R CMD INSTALL compiles
# with), and, with npm, the lezer Julia grammar into ~/.cache/crowdspec/lezer-julia
# (julia_bindings_static parses the Julia module with it, Julia itself not being in
# Debian 12; pinned versions, user-level, no root needed), and abi-dumper with
# abi-compliance-checker (abi_compliance compares the library's ABI with the release
# baselines in abi/). Without them those tests are reported as skipped (the Julia parse
# as a skipped step). CI (.ci/run) passes it.
#
# --reference-blas installs Debian's reference BLAS and LAPACK (netlib) beside
# OpenBLAS, for tools/scripts/test-reference-blas.sh (the build against the BLAS interface, not
# a vendor; --test-extras installs them too, for test_oom_ladder, which links them
# explicitly because OpenBLAS 0.3.21 hangs under an address-space limit; the library
# itself keeps OpenBLAS). --packaging installs what tools/scripts/build-debs.sh needs to build the Debian
# packages and check them (debhelper, dpkg-dev, lintian, and the reference BLAS the
# packages are built against).
#
# --mpi also installs Open MPI (libopenmpi-dev, openmpi-bin: mpi.h, libmpi, mpiexec)
# for the optional libcrowdspec_mpi and crowdspec-mpi (cmake -DCS_MPI=ON) and their
# tests (ctest -L mpi). CI (.ci/run) passes it.
#
# --clang installs clang with its sanitizer runtimes and libFuzzer (libclang-rt-dev),
# LLVM's OpenMP runtime for clang builds (libomp-dev) and Python (the seed corpora):
# for the libFuzzer targets (cmake -DCS_FUZZ=ON, tests/fuzz) and the ThreadSanitizer
# build of CI.
set -eu
extras=0
# BLAS/LAPACK: any implementation works (cmake/crowdspecLinalg.cmake); OpenBLAS is the
# fast default, liblapacke-dev the C interface of LAPACK.
packages="cmake make g++ pkg-config libopenblas-dev liblapacke-dev libcmocka-dev doxygen"
for arg in "$@"; do
  case $arg in
    --test-extras)
      extras=1
      packages="$packages chromium man-db python3-venv python3-setuptools python3-numpy python3-pandas python3-pytest python3-dask python3-distributed r-base-dev r-cran-testthat abi-dumper abi-compliance-checker libblas-dev liblapack-dev"
      command -v cargo >/dev/null 2>&1 || packages="$packages cargo" ;;
    --reference-blas) packages="$packages libblas-dev liblapack-dev" ;;
    --packaging) packages="$packages libblas-dev liblapack-dev debhelper dpkg-dev lintian" ;;
    --mpi) packages="$packages libopenmpi-dev openmpi-bin" ;;
    --clang) packages="$packages clang libclang-rt-dev libomp-dev python3" ;;
    *) echo "usage: $0 [--test-extras] [--reference-blas] [--packaging] [--mpi] [--clang]" >&2; exit 2 ;;
  esac
done
missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q
  $sudo apt-get install -y -q --no-install-recommends $missing
fi
if [ "$extras" -eq 1 ]; then
  lezer="${XDG_CACHE_HOME:-$HOME/.cache}/crowdspec/lezer-julia"
  if [ ! -d "$lezer/node_modules/@plutojl/lezer-julia" ]; then
    if command -v npm >/dev/null 2>&1; then
      mkdir -p "$lezer"
      npm install --prefix "$lezer" --no-save --no-audit --no-fund --loglevel=error \
        @plutojl/lezer-julia@1.2.0 @lezer/common@1.5.5 @lezer/lr@1.4.12 @lezer/highlight@1.2.5 ||
        echo "install-deps: npm could not install the lezer Julia grammar; the Julia parse will be skipped" >&2
    else
      echo "install-deps: no npm; the Julia parse of julia_bindings_static will be skipped" >&2
    fi
  fi
fi
