#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The five real datasets (../shared/datasets): majority vote's error rates, scored
# with ties fractional (the papers' rule, reproduced exactly) and with ties to the
# lowest class, as listed in the datasets' README; and a CSV rewrite of a dataset
# (header, CRLF, quoted fields) gives byte-identical fit output. Skipped when the
# directory is missing.
. "$(dirname "$0")/lib.sh"
DATA=${1:-}
[ -z "$DATA" ] || DATA=$(abspath "$DATA")
[ -n "$DATA" ] && [ -f "$DATA/bluebird_crowd.txt" ] ||
    skip "datasets directory '${DATA:-unset}' not found (expected ../shared/datasets beside the project)"

# set  fractional  lowest-index ties (percent, README of the datasets)
while read -r set fractional lowest; do
    run 0 "$CS" evaluate --method mv --truth "$DATA/${set}_truth.txt" "$DATA/${set}_crowd.txt" || continue
    got_fractional=$(grep -o '"error_rate_tie_fractional":[0-9.]*' out.txt | cut -d: -f2)
    got_lowest=$(grep -o '"error_rate":[0-9.]*' out.txt | cut -d: -f2)
    # Within half a unit of the table's last digit (0.01 pp): "exactly" as printed.
    check "$set: mv fractional $got_fractional, expected $fractional %" \
        awk -v x="$got_fractional" -v r="$fractional" 'BEGIN { d = 100 * x - r; exit !(d <= 0.00501 && d >= -0.00501) }'
    check "$set: mv lowest-index $got_lowest, expected $lowest %" \
        awk -v x="$got_lowest" -v r="$lowest" 'BEGIN { d = 100 * x - r; exit !(d <= 0.00501 && d >= -0.00501) }'
done <<'TABLE'
bluebird 24.07 24.07
rte 10.31 8.13
trec 34.86 33.89
dog 17.78 18.22
web 26.93 22.35
TABLE

# bluebird as an annotation export: CSV, header, CRLF, every field quoted, extra column.
awk 'BEGIN { printf "task,annotator,answer,seconds\r\n" }
     { sub(/\r$/, ""); printf "\"%s\",\"%s\",\"%s\",%d\r\n", $1, $2, $3, NR }' "$DATA/bluebird_crowd.txt" >bluebird.csv
run 0 "$CS" fit $T1 --method ds "$DATA/bluebird_crowd.txt" && mv out.txt from_text.csv
run 0 "$CS" fit $T1 --method ds bluebird.csv && same out.txt from_text.csv
finish
