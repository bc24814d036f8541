#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the Debian packages of crowdspec from debian/ and check them with lintian.
#
#   tools/scripts/build-debs.sh [OUT_DIR]          (default build-debs)
#
# Copies the tree (the files git tracks or would track, so no build directories) to
# OUT_DIR/src/crowdspec-<version>, runs `dpkg-buildpackage -b -us -uc` there, moves the
# packages (libcrowdspec0, libcrowdspec-dev, crowdspec, crowdspec-doc, and the -dbgsym
# .ddeb files) to OUT_DIR and runs lintian on every .deb: any error fails, warnings are
# printed (docs/packaging.md explains the ones that remain). DEB_BUILD_OPTIONS is passed
# on (e.g. nocheck skips the test suite in the package build; parallel=N).
# Needs debhelper, dpkg-dev, lintian and the Build-Depends of debian/control:
# tools/scripts/install-deps.sh --packaging.
set -eu
cd "$(dirname "$0")/../.."
out=${1:-build-debs}

version=$(sed -n 's/^#define CS_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9][0-9]*\).*/\2/p' \
          include/crowdspec/crowdspec.h | paste -sd. -)
packaged=$(dpkg-parsechangelog -S Version)
if [ "$version" != "$packaged" ]; then
  echo "$0: crowdspec.h says $version but debian/changelog's last entry is $packaged" >&2
  exit 1
fi

rm -rf "$out"
src="$out/src/crowdspec-$version"
mkdir -p "$src"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git ls-files --cached --others --exclude-standard |
    while IFS= read -r f; do if [ -e "$f" ]; then printf '%s\n' "$f"; fi; done |
    tar -cf - -T - | tar -xf - -C "$src"
else
  tar -cf - --exclude='./build*' --exclude="./$out" . | tar -xf - -C "$src"
fi

(cd "$src" && dpkg-buildpackage -b -us -uc)
for f in "$out"/src/*.deb "$out"/src/*.ddeb "$out"/src/*.changes "$out"/src/*.buildinfo; do
  [ -e "$f" ] && mv "$f" "$out"/
done
rm -rf "$out/src"

echo "== lintian"
status=0
for deb in "$out"/*.deb; do
  echo "-- $(basename "$deb")"
  lintian --fail-on error "$deb" || status=1
done
ls -l "$out"
exit $status
