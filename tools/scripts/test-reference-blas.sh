#!/bin/sh
# SPDX-License-Identifier: MIT
# Build crowdspec against Debian's reference BLAS/LAPACK (netlib: libblas-dev,
# liblapack-dev, liblapacke-dev) instead of OpenBLAS, and run its test suite there.
#
#   tools/scripts/test-reference-blas.sh [BUILD_DIR]     (default build-refblas in the project)
#
# The machine's BLAS alternatives (update-alternatives) are left alone, OpenBLAS may
# stay installed: the build is pointed at the reference libraries by CMake's own
# means (BLA_VENDOR=Generic and CMAKE_LIBRARY_PATH=/usr/lib/<triplet>/blas:.../lapack),
# compiles against the netlib cblas.h, and the tests run with LD_LIBRARY_PATH on the
# same directories, so that every libblas.so.3 / liblapack.so.3 they load, also the
# one liblapacke.so.3 pulls in, is the reference one; ldd checks that before ctest.
# The command-line program is not built and the bindings' tests (labels python, rust,
# julia, r) are not run: they reach BLAS only through the C API the library tests cover.
# CI (.ci/run) runs this after installing the packages with
# tools/scripts/install-deps.sh --reference-blas.
set -eu
# BUILD_DIR as given, relative to where the script is called from (absolute: CMake is
# given it as the cblas.h directory's parent); by default build-refblas in the project.
build=
if [ $# -ge 1 ]; then
  case $1 in /*) build=$1 ;; *) build=$PWD/$1 ;; esac
fi
cd "$(dirname "$0")/../.."
build=${build:-$PWD/build-refblas}
triplet=$(${CC:-cc} -print-multiarch)
blasdir=/usr/lib/$triplet/blas
lapackdir=/usr/lib/$triplet/lapack
netlib_header=/usr/include/$triplet/cblas-netlib.h
for f in "$blasdir/libblas.so" "$lapackdir/liblapack.so" "$netlib_header" /usr/include/lapacke.h; do
  [ -e "$f" ] || { echo "$0: $f is missing (apt-get install libblas-dev liblapack-dev liblapacke-dev)" >&2; exit 1; }
done

# cblas.h of the reference implementation (the plain name may point to OpenBLAS's).
mkdir -p "$build/netlib-include"
ln -sf "$netlib_header" "$build/netlib-include/cblas.h"

cmake -S . -B "$build" -DBLA_VENDOR=Generic \
      -DCMAKE_LIBRARY_PATH="$blasdir;$lapackdir" \
      -DCS_CBLAS_INCLUDE_DIR="$build/netlib-include" \
      -DCS_BUILD_TOOLS=OFF
cmake --build "$build" -j 2

LD_LIBRARY_PATH=$blasdir:$lapackdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH
loaded=$(ldd "$build/src/libcrowdspec.so")
echo "$loaded" | grep -E 'blas|lapack'
echo "$loaded" | grep -q "$blasdir/libblas.so.3" || { echo "$0: libcrowdspec does not load $blasdir/libblas.so.3" >&2; exit 1; }
echo "$loaded" | grep -q "$lapackdir/liblapack.so.3" || { echo "$0: libcrowdspec does not load $lapackdir/liblapack.so.3" >&2; exit 1; }
if echo "$loaded" | grep -qi openblas; then
  echo "$0: OpenBLAS is still loaded" >&2; exit 1
fi
grep -q "BLA_VENDOR:.*=Generic" "$build/CMakeCache.txt"
ctest --test-dir "$build" --output-on-failure -LE '^(python|rust|julia|r)$'
