#!/bin/sh
# SPDX-License-Identifier: MIT
# Check an installed crowdspec, e.g. the Debian packages after
# `apt-get install ./build-debs/*.deb`, with the consumer tests of the suite:
#
#   tools/scripts/test-installed.sh [PREFIX [LIBDIR]]     (default /usr and lib/<triplet>)
#
# 1. tests/consumers/pkgconfig.cmake: `pkg-config --cflags --libs crowdspec` with only
#    PREFIX's pkgconfig directory searched, docs/examples/basic.c compiled and run
#    against the shared library, then with `--static` against libcrowdspec.a;
# 2. tests/consumers/find_package: find_package(crowdspec CONFIG REQUIRED COMPONENTS
#    static) from PREFIX, both targets built and run, the version rules checked;
# 3. the installed example programs (PREFIX/share/doc/crowdspec/examples), built with
#    pkg-config and run; the program (`crowdspec --version`, `crowdspec demo`) and its
#    manual page (man -w, when man is installed); the HTML reference's index.
# Writes only under a temporary directory, which it removes.
set -eu
cd "$(dirname "$0")/../.."
prefix=${1:-/usr}
cc=${CC:-cc}
libdir=${2:-lib/$($cc -print-multiarch)}
version=$(sed -n 's/^#define CS_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9][0-9]*\).*/\2/p' \
          include/crowdspec/crowdspec.h | paste -sd. -)
major=${version%%.*}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== pkg-config consumer ($prefix/$libdir/pkgconfig)"
cmake -DPREFIX="$prefix" -DLIBDIR="$libdir" -DSOURCE="$PWD/docs/examples/basic.c" \
      -DWORK_DIR="$work/pkgconfig" -DCC="$cc" -DPKG_CONFIG=pkg-config \
      -DSOVERSION="$major" -DVERSION="$version" -P tests/consumers/pkgconfig.cmake

echo "== find_package consumer (CMAKE_PREFIX_PATH=$prefix)"
ctest --build-and-test tests/consumers/find_package "$work/find_package" \
      --build-generator "Unix Makefiles" \
      --build-options "-DCMAKE_PREFIX_PATH=$prefix" -DCMAKE_BUILD_TYPE=Release \
                      "-DCS_EXAMPLE=$PWD/docs/examples/basic.c" \
                      "-DCS_EXPECTED_PREFIX=$prefix" "-DCS_EXPECTED_VERSION=$version" \
      --test-command ctest --output-on-failure

echo "== installed examples, program, manual page, reference"
examples=$prefix/share/doc/crowdspec/examples
for e in basic points graph rank; do
  # shellcheck disable=SC2046 # pkg-config prints several words on purpose
  "$cc" -std=c99 -Wall -Wextra -Wpedantic -Werror "$examples/$e.c" \
        $(PKG_CONFIG_LIBDIR="$prefix/$libdir/pkgconfig" pkg-config --cflags --libs crowdspec) \
        -o "$work/$e"
  "$work/$e" > "$work/$e.out"
  echo "$e: $(sed -n 2p "$work/$e.out")"
done
grep -q "^ *4 *1 " "$work/basic.out"
grep -q "within-community density 1.0000, between-community density 0.0400" "$work/graph.out"
grep -q "^ *2 *0\.[0-4][0-9]  (answers the reverse)" "$work/rank.out"
# The program loads the installed library (the same file, whatever /lib -> /usr/lib says).
loaded=$(ldd "$work/basic" | sed -n "s|^[[:space:]]*libcrowdspec.so.$major => \([^ ]*\) .*|\1|p")
[ "$(readlink -f "$loaded")" = "$(readlink -f "$prefix/$libdir/libcrowdspec.so.$major")" ]
echo "basic loads $loaded"
[ "$("$prefix/bin/crowdspec" --version)" = "crowdspec $version" ]
"$prefix/bin/crowdspec" demo --seed 7 > "$work/demo.out"
grep -E "^(mv|opt-ds) " "$work/demo.out"
if command -v man >/dev/null 2>&1; then
  man -w crowdspec
fi
test -f "$prefix/share/doc/crowdspec/html/index.html"
grep -q "Getting started" "$prefix/share/doc/crowdspec/html/index.html"
echo "installed crowdspec $version in $prefix: all checks passed"
