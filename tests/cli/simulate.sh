#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# crowdspec simulate: deterministic by seed (byte-identical files, and a fixed
# checksum that catches any change of the simulator's output), its formats, the
# worker mix and class prior options, and its errors.
. "$(dirname "$0")/lib.sh"

opts="--items 400 --workers 30 --labels-per-item 4 --seed 11 --quiet"
run 0 "$CS" simulate $opts --labels a.csv --truth a_truth.csv --confusion a_conf.json
run 0 "$CS" simulate $opts --labels b.csv --truth b_truth.csv --confusion b_conf.json
same a.csv b.csv
same a_truth.csv b_truth.csv
same a_conf.json b_conf.json
run 0 "$CS" simulate --items 400 --workers 30 --labels-per-item 4 --seed 12 --quiet --labels c.csv
CHECKS=$((CHECKS + 1))
cmp -s a.csv c.csv && fail "seeds 11 and 12 gave the same labels"

# The simulator's output for a fixed spec never changes (benchmarks and users rely on
# regenerating the same crowd). Recorded with crowdspec 0.1.0.
run 0 "$CS" simulate --items 50 --workers 10 --labels-per-item 3 --classes 4 --seed 7 --quiet
check "fixed checksum of the seed-7 crowd (got $(cksum <out.txt))" test "$(cksum <out.txt)" = "125345857 1040"

# Formats: header lines for .csv/.tsv, plain triples otherwise; sizes; 1-based ids.
contains a.csv "item,worker,label"
check "400 x 4 labels + header" test "$(wc -l <a.csv)" -eq 1601
check "400 truth lines + header" test "$(wc -l <a_truth.csv)" -eq 401
run 0 "$CS" simulate $opts --labels a.tsv --truth a_truth.tsv
check "TSV header" test "$(head -n 1 a.tsv)" = "$(printf 'item\tworker\tlabel')"
run 0 "$CS" simulate $opts --labels a.txt --truth a_truth.txt
check "whitespace: no header" test "$(head -n 1 a.txt | tr ' ' ',')" = "$(sed -n 2p a.csv)"
run 0 "$CS" simulate $opts --format csv --labels a.dat
same a.dat a.csv
run 0 "$CS" simulate $opts
same out.txt a.txt
CHECKS=$((CHECKS + 1))
awk -F, 'NR > 1 { if ($1 < 1 || $1 > 400 || $2 < 1 || $2 > 30 || $3 < 1 || $3 > 3) bad = 1; if (seen[$1 "," $2]++) bad = 1 }
         END { exit bad }' a.csv || fail "ids out of range or a worker labels an item twice"
# The files read back: fit and evaluate take them as they are.
run 0 "$CS" evaluate $T1 --method mv --truth a_truth.csv a.csv && contains out.txt '"scored":400'
run 0 "$CS" fit $T1 --method mv -o fitted.csv a.tsv

# The worker mix and the class prior.
run 0 "$CS" simulate --items 300 --workers 20 --experts 1 --normal 0 --spammers 0 --adversaries 0 \
    --class-prior 1,0,0 --seed 3 --quiet --labels e.txt --truth e_truth.txt --confusion e_conf.csv
CHECKS=$((CHECKS + 1))
awk -F, 'NR > 1 && ($4 != "expert" || $3 < 0.9) { bad = 1 } END { exit bad }' e_conf.csv || fail "not all experts"
CHECKS=$((CHECKS + 1))
awk '$2 != 1 { bad = 1 } END { exit bad }' e_truth.txt || fail "--class-prior 1,0,0 gave another class"
contains e_conf.csv "worker,labels,accuracy,type,pi_1_1"
run 0 "$CS" simulate --items 300 --workers 20 --spammers 1 --normal 0 --experts 0 --adversaries 0 --seed 3 --quiet --confusion s_conf.csv --labels s.txt
CHECKS=$((CHECKS + 1))
awk -F, 'NR > 1 && $4 != "spammer" { bad = 1 } END { exit bad }' s_conf.csv || fail "not all spammers"
run 0 "$CS" simulate --items 10 --workers 5 --labels-per-item 2 --seed 1 --labels x.txt
stderr_is '^crowdspec: simulated 10 items, 3 classes, 5 workers \([0-9]+ experts, [0-9]+ normal, [0-9]+ spammers, [0-9]+ adversaries\), 20 labels \(seed 1\)$'

# Errors.
run 1 "$CS" simulate --classes 3 --class-prior 1,2 && stderr_is "expected 3 weights \\(one per class, --classes 3\\), got 2$"
run 1 "$CS" simulate --workers 3 --labels-per-item 4 && stderr_is 'exceeds --workers 3'
run 1 "$CS" simulate --spammers -0.5 && stderr_is "^crowdspec: --spammers '-0\\.5': expected a number"
run 1 "$CS" simulate --experts 0 --normal 0 --spammers 0 --adversaries 0 && stderr_is 'sum to 0'
run 1 "$CS" simulate --class-prior 0,0,0 && stderr_is 'the weights sum to 0'
run 1 "$CS" simulate --items 0 && stderr_is "^crowdspec: --items '0': expected an integer in 1\\.\\."
run 1 "$CS" simulate --format xml && stderr_is "expected csv, tsv or whitespace"
run 1 "$CS" simulate extra.txt && stderr_is "unexpected argument 'extra\\.txt'"
run 1 "$CS" simulate --truth - && stderr_is 'only one of --labels, --truth and --confusion can go to standard output'
no_temporaries
finish
