#!/bin/sh
# Install what building and testing crowdspec needs on Debian 12 (or Ubuntu):
# compilers, CMake, pkg-config, OpenBLAS (CBLAS), LAPACKE, cmocka and Doxygen.
# Uses sudo when not run as root. Skips apt-get when everything is present.
set -eu
packages="cmake make g++ pkg-config libopenblas-dev liblapacke-dev libcmocka-dev doxygen"
missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends $missing
