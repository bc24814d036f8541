#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs every libFuzzer target of tests/fuzz for SECONDS each (default 600, the bench;
# CI passes 60), one after the other, from the seed corpora of make_corpus.py plus what
# earlier runs in the same BUILD_DIR found (BUILD_DIR/fuzz-corpus/<target>). Prints one
# line per target: seconds, executions, executions per second, corpus size and the
# result; a crash's input is kept as BUILD_DIR/fuzz-artifacts/<target>-crash-*. Exits 1
# when a target found something.
#
#   tools/scripts/install-deps.sh --clang
#   cmake -S . -B build-fuzz -DCS_FUZZ=ON -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCS_BUILD_TESTS=OFF -DCS_BUILD_TOOLS=OFF
#   cmake --build build-fuzz -j 2 --target fuzz_targets
#   tests/fuzz/bench_fuzz.sh build-fuzz [SECONDS]
set -u
build=${1:?usage: $0 BUILD_DIR [SECONDS]}
seconds=${2:-600}
here=$(cd "$(dirname "$0")" && pwd)
corpus="$build/fuzz-corpus"
artifacts="$build/fuzz-artifacts"
mkdir -p "$corpus" "$artifacts"
/usr/bin/python3 "$here/make_corpus.py" "$corpus" > /dev/null || exit 2
# OpenBLAS's own threads make an input with a large eigenproblem several times slower
# on a shared machine (a fuzz_graph seed: 13.5 s against 2.65 s on one thread, measured
# under load), close to the 25 s hang limit; the targets fit on one thread anyway.
OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
export OPENBLAS_NUM_THREADS
status=0
total_runs=0
printf '%-18s %8s %12s %8s %8s  %s\n' target seconds executions exec/s corpus result
for t in fuzz_fit fuzz_points fuzz_graph fuzz_cli_readers fuzz_json_readers fuzz_comparisons fuzz_numbers \
         fuzz_tags fuzz_load; do
  bin="$build/tests/fuzz/$t"
  [ -x "$bin" ] || { echo "$bin: not built (cmake --build $build --target fuzz_targets)" >&2; exit 2; }
  log="$build/fuzz-$t.log"
  start=$(date +%s)
  # -timeout: one input taking 25 s is a finding (a hang); -rss_limit_mb: so is 2 GB.
  "$bin" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2048 -print_final_stats=1 \
         -artifact_prefix="$artifacts/$t-" "$corpus/$t" > "$log" 2>&1
  rc=$?
  took=$(( $(date +%s) - start ))
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  runs=${runs:-0}
  total_runs=$((total_runs + runs))
  size=$(ls "$corpus/$t" | wc -l)
  if [ "$rc" -eq 0 ]; then result=ok; else result="FOUND (exit $rc, see $log)"; status=1; fi
  printf '%-18s %8d %12d %8d %8d  %s\n' "$t" "$took" "$runs" $((runs / (took > 0 ? took : 1))) "$size" "$result"
  if [ "$rc" -ne 0 ]; then grep -E 'INVARIANT|ERROR|runtime error|SUMMARY' "$log" | head -n 5; fi
done
echo "total: $total_runs executions"
exit $status
