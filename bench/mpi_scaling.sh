#!/bin/sh
# SPDX-License-Identifier: MIT
# Time per EM round of one crowd fit: cs_fit in one process (1 and 2 threads) against
# cs_fit_mpi over 2 and 4 processes (one thread each), on a simulated crowd generated
# by each process for its own items (bench_mpi.cpp). One JSON line per configuration.
#
#   bench/mpi_scaling.sh [BUILD_DIR]        (configured with -DCS_MPI=ON -DCS_BUILD_BENCH=ON)
#   ITEMS=1e7 PER_ITEM=10 WORKERS=2000 K=3 ROUNDS=12 bench/mpi_scaling.sh build
#
# Defaults: 10^7 items x 10 labels = 10^8 labels, 2,000 workers, k = 3, 12 rounds of
# plain EM (ds, --accel none, tol 0: every round the same work). bench_mpi reports
# each configuration's largest peak RSS over its processes.
set -eu
BUILD=${1:-build}
B="$BUILD/bench/bench_mpi"
[ -x "$B" ] || { echo "$B not found: configure with -DCS_MPI=ON -DCS_BUILD_BENCH=ON" >&2; exit 2; }
ARGS="--items ${ITEMS:-1e7} --per-item ${PER_ITEM:-10} --workers ${WORKERS:-2000} --k ${K:-3} --rounds ${ROUNDS:-12} ${EXTRA:-}"
MPIEXEC=${MPIEXEC:-mpiexec}
# Open MPI: more processes than cores, and root in containers.
if "$MPIEXEC" --version 2>/dev/null | grep -Eq "Open MPI|OpenRTE"; then
  OVERSUBSCRIBE=--oversubscribe
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
else
  OVERSUBSCRIBE=
fi
# shellcheck disable=SC2086
"$B" --plain 1 --threads 1 $ARGS
# shellcheck disable=SC2086
"$B" --plain 1 --threads 2 $ARGS
for np in 1 2 4; do
  # shellcheck disable=SC2086
  "$MPIEXEC" -n $np $OVERSUBSCRIBE "$B" --threads 1 $ARGS
done
