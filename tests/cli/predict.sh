#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `crowdspec predict --workers` (label a new batch with known workers) and
# `crowdspec fit --init-workers` (warm start): hand-computed posteriors, the round
# trip fit -w -> predict, the continuation of a short fit, and every error path.
. "$(dirname "$0")/lib.sh"

# close FILE1 FILE2 TOL: same items, labels and columns; every posterior within TOL.
close() {
    CHECKS=$((CHECKS + 1))
    if ! paste -d, "$1" "$2" | awk -F, -v tol="$3" '
        NR == 1 { n = NF / 2; for (c = 1; c <= n; c++) if ($c != $(c + n)) { print "header " $c " vs " $(c + n); bad = 1 } next }
        { if ($1 != $(1 + n) || $2 != $(2 + n)) { print "line " NR ": " $1 "," $2 " vs " $(1 + n) "," $(2 + n); bad = 1 }
          for (c = 3; c <= n; c++) { d = $c - $(c + n); if (d < 0) d = -d; if (d > tol) { print "line " NR " column " c ": " $c " vs " $(c + n); bad = 1 } } }
        END { exit bad }' >close.txt; then
        fail "$1 and $2 differ beyond $3: $(head -3 close.txt)"
    fi
}

# --- A batch computed by hand ----------------------------------------------------
# Two known workers, classes a and b, prior (0.7, 0.3):
#   w0: P(.|a) = (0.9, 0.1), P(.|b) = (0.2, 0.8);  w1: P(.|a) = (0.6, 0.4), P(.|b) = (0.3, 0.7)
#   i0: w0 says a, w1 says b: 0.7*0.9*0.4 = 0.252 vs 0.3*0.2*0.7 = 0.042 -> (6/7, 1/7)
#   i1: w0 says b: 0.7*0.1 = 0.07 vs 0.3*0.8 = 0.24 -> (7/31, 24/31)
#   i2: a worker not in the file (the average: P(.|a) = (0.75, 0.25), P(.|b) = (0.25, 0.75))
#       says b: 0.7*0.25 = 0.175 vs 0.3*0.75 = 0.225 -> (0.4375, 0.5625)
cat >hand.csv <<'CSV'
worker,labels,accuracy,pi_a_a,pi_a_b,pi_b_a,pi_b_b,prior_a,prior_b
w0,5,0.87,0.9,0.1,0.2,0.8,0.7,0.3
w1,5,0.63,0.6,0.4,0.3,0.7,0.7,0.3
CSV
printf 'item,worker,label\ni0,w0,a\ni0,w1,b\ni1,w0,b\ni2,newcomer,b\n' >batch.csv
cat >expected.csv <<'CSV'
item,label,confidence,p_a,p_b
i0,a,0.8571428571,0.8571428571,0.1428571429
i1,b,0.7741935484,0.2258064516,0.7741935484
i2,b,0.5625,0.4375,0.5625
CSV
run 0 "$CS" predict --param support=all --workers hand.csv -o got.csv batch.csv && same got.csv expected.csv
stderr_is "note: 1 workers of batch.csv are not in hand.csv \('newcomer'\): their labels are weighed by the average of its 2 workers"
# The same workers as TSV, JSON records, JSON lines and the nested document.
tr ',' '\t' <hand.csv >hand.tsv
cat >hand.json <<'JSON'
[
{"worker":"w0","labels":5,"accuracy":0.87,"pi_a_a":0.9,"pi_a_b":0.1,"pi_b_a":0.2,"pi_b_b":0.8,"prior_a":0.7,"prior_b":0.3},
{"worker":"w1","labels":5,"accuracy":0.63,"pi_a_a":0.6,"pi_a_b":0.4,"pi_b_a":0.3,"pi_b_b":0.7,"prior_a":0.7,"prior_b":0.3}
]
JSON
sed -e '1d' -e '$d' -e 's/},$/}/' hand.json >hand.jsonl
cat >nested.json <<'JSON'
{"method":"ds","classes":["a","b"],"class_prior":[0.7,0.3],"workers":[
{"worker":"w0","labels":5,"accuracy":0.87,"confusion":[[0.9,0.1],[0.2,0.8]]},
{"worker":"w1","labels":5,"accuracy":0.63,"confusion":[[0.6,0.4],[0.3,0.7]]}]}
JSON
for f in hand.tsv hand.json hand.jsonl nested.json; do
    run 0 "$CS" predict --param support=all -q -w "$f" -o got.csv batch.csv && same got.csv expected.csv
done
# JSON output, as fit writes it.
run 0 "$CS" predict -q -w hand.csv --format jsonl batch.csv
contains out.txt '{"item":"i2","label":"b","confidence":0.5625,"p_a":0.4375,"p_b":0.5625}'
# Without prior columns the prior is uniform (and a note says so):
#   i0: 0.5*0.9*0.4 = 0.18 vs 0.5*0.2*0.7 = 0.07 -> (0.72, 0.28)
#   i1: 0.05 vs 0.4 -> (1/9, 8/9);  i2: 0.125 vs 0.375 -> (0.25, 0.75)
cut -d, -f1-7 hand.csv >noprior.csv
run 0 "$CS" predict --param support=all -w noprior.csv batch.csv
cat >expected_uniform.csv <<'CSV'
item,label,confidence,p_a,p_b
i0,a,0.72,0.72,0.28
i1,b,0.8888888889,0.1111111111,0.8888888889
i2,b,0.75,0.25,0.75
CSV
same out.txt expected_uniform.csv
contains err.txt "noprior.csv has no prior_<class> columns: the class prior is uniform"

# --- Round trip: predict with a fit's workers file gives the fit's results ---------
"$CS" simulate --items 400 --workers 25 --seed 11 --labels crowd.csv --quiet
for method in ds opt-ds; do
    run 0 "$CS" fit $T1 -q --method "$method" --param support=all -o fit.csv -w fit_workers.csv crowd.csv
    run 0 "$CS" predict $T1 -q --param support=all -w fit_workers.csv -o predicted.csv crowd.csv
    # The workers file keeps 10 significant digits; the posteriors agree to ~1e-9.
    close fit.csv predicted.csv 1e-8
    # And from its JSON records.
    run 0 "$CS" fit $T1 -q --method "$method" --param support=all -o fit.csv -w fit_workers.json crowd.csv
    run 0 "$CS" predict $T1 -q --param support=all -w fit_workers.json -o predicted.csv crowd.csv
    close fit.csv predicted.csv 1e-8
done

# --- Warm start: --init-workers continues a short fit -------------------------------
# EM from the matrices and prior of a k-round fit starts with round k's E-step (the
# library's test_warm_start): N warm rounds are k + N - 1 rounds from scratch.
plain="$T1 -q --method ds --tol 0 --param accel=none"
run 0 "$CS" fit $plain --max-iter 3 -o short.csv -w short_workers.csv crowd.csv
run 0 "$CS" fit $plain --max-iter 5 --init-workers short_workers.csv -o warm.csv crowd.csv
run 0 "$CS" fit $plain --max-iter 7 -o cold7.csv crowd.csv
close warm.csv cold7.csv 1e-8
# ... and not k + N rounds, nor N: the comparison can tell.
run 0 "$CS" fit $plain --max-iter 8 -o cold8.csv crowd.csv
CHECKS=$((CHECKS + 1))
paste -d, warm.csv cold8.csv | awk -F, 'NR > 1 { d = $4 - $10; if (d < 0) d = -d; if (d > m) m = d } END { exit !(m > 1e-6) }' ||
    fail "warm 5 rounds should differ from 8 cold rounds"
# A workers file whose workers all are absent (and without a prior): every worker
# starts from the majority vote with the uniform prior, which is ds's own start.
printf 'worker,labels,accuracy,pi_1_1,pi_1_2,pi_1_3,pi_2_1,pi_2_2,pi_2_3,pi_3_1,pi_3_2,pi_3_3\nnobody,0,0,1,0,0,0,1,0,0,0,1\n' >absent.csv
run 0 "$CS" fit $T1 --method ds --tol 0 --param accel=none --prior uniform --max-iter 4 --init-workers absent.csv -o warm.csv crowd.csv
contains err.txt "warm start from absent.csv: 0 of the 25 workers start from its confusion matrices, 25 new ones from the majority vote; 1 of its workers are not in crowd.csv (ignored); it has no class prior"
run 0 "$CS" fit $plain --prior uniform --max-iter 4 -o cold.csv crowd.csv
same warm.csv cold.csv
# Workers whose matrix has a row of zeros are unknown to the library: they start from
# the majority vote, and the note counts them so (all 25 of them: ds's own start again).
awk -F, -v OFS=, 'NR > 1 { for (f = 4; f <= 12; ++f) $f = 0 } { print }' short_workers.csv >zeros.csv
run 0 "$CS" fit $T1 --method ds --tol 0 --param accel=none --prior uniform --max-iter 4 --init-workers zeros.csv -o warm.csv crowd.csv
contains err.txt "warm start from zeros.csv: 0 of the 25 workers start from its confusion matrices, 25 from the majority vote because its matrix for them has a row of zeros; with --prior uniform its class prior is not used: EM keeps the uniform prior"
same warm.csv cold.csv
awk -F, -v OFS=, 'NR > 2 { $4 = 0; $5 = 0; $6 = 0 } { print }' short_workers.csv >zero_rows.csv
run 0 "$CS" fit $T1 --method ds --tol 0 --max-iter 4 --init-workers zero_rows.csv -o warm.csv crowd.csv
contains err.txt "warm start from zero_rows.csv: 1 of the 25 workers start from its confusion matrices, 24 from the majority vote because its matrix for them has a row of zeros"
# A class of the workers file that the data lacks is kept (a class nobody chose):
# the batch's labels are a and b only, the workers file has a, b and c.
printf 'worker,labels,accuracy,pi_a_a,pi_a_b,pi_a_c,pi_b_a,pi_b_b,pi_b_c,pi_c_a,pi_c_b,pi_c_c\nw0,1,1,0.8,0.1,0.1,0.1,0.8,0.1,0.1,0.1,0.8\n' >abc.csv
run 0 "$CS" fit -q --method ds --init-workers abc.csv batch.csv && contains out.txt "item,label,confidence,p_a,p_b,p_c"
run 0 "$CS" predict -q -w abc.csv batch.csv && contains out.txt "item,label,confidence,p_a,p_b,p_c"

# --- Errors ---------------------------------------------------------------------------
run 1 "$CS" predict batch.csv && stderr_is "predict: --workers FILE is required"
run 1 "$CS" predict -w hand.csv && stderr_is "predict: missing the input FILE"
run 1 "$CS" predict -w hand.csv --method ds batch.csv && stderr_is "unknown option"
run 2 "$CS" predict -w missing.csv batch.csv && stderr_is "missing.csv"
run 2 "$CS" fit --init-workers missing.csv batch.csv && stderr_is "missing.csv"
run 2 "$CS" predict -w hand.csv missing.csv && stderr_is "missing.csv"
bad_workers() {  # bad_workers REGEX: the file bad.csv is refused by both commands
    run 2 "$CS" predict -w bad.csv batch.csv && stderr_is "$1"
    run 2 "$CS" fit --method ds --init-workers bad.csv batch.csv && stderr_is "$1"
}
sed 's/^worker,/id,/' hand.csv >bad.csv
bad_workers "bad.csv:1: no 'worker' column"
cut -d, -f1-3 hand.csv >bad.csv
bad_workers "bad.csv:1: no pi_<true>_<observed> columns"
cut -d, -f1-6 hand.csv >bad.csv
bad_workers "bad.csv:1: cannot tell the classes from the 3 pi_ columns"
cut -d, -f1-5,7- hand.csv >bad.csv
bad_workers "bad.csv:1: no column pi_b_a"
sed '1s/pi_b_b/pi_b_x/' hand.csv >bad.csv
bad_workers "bad.csv:1: column 'pi_b_x' is not pi_<true>_<observed> for the classes a, b"
sed '3s/0.3,0.7,0.7/0.3,oops,0.7/' hand.csv >bad.csv
bad_workers "bad.csv:3: 'pi_b_b' is 'oops', expected a finite number >= 0"
sed '2s/0.9,/-0.9,/' hand.csv >bad.csv
bad_workers "bad.csv:2: 'pi_a_a' is '-0.9', expected a finite number >= 0"
sed '3s/^w1,/w0,/' hand.csv >bad.csv
bad_workers "bad.csv:3: worker 'w0' appears twice \(first on line 2\)"
sed '3s/0.7,0.3$/0.6,0.4/' hand.csv >bad.csv
bad_workers "bad.csv:3: the prior_ columns differ from those on line 2"
sed '3s/,0.3$//' hand.csv >bad.csv
bad_workers "bad.csv:3: has 8 fields; the header has 9"
head -1 hand.csv >bad.csv
bad_workers "bad.csv:1: no workers"
: >bad.csv
bad_workers "bad.csv: empty workers file"
printf '[{"worker":"w0","pi_a_a":1,\n' >bad.csv
bad_workers "bad.csv:2: unexpected end of the JSON text"
printf '[{"worker":"w0","pi_a_a":1,"pi_a_b":0,"pi_b_a":0}]\n' >bad.csv
bad_workers "bad.csv:1: cannot tell the classes from the 3 pi_ columns"
printf '{"classes":["a","b"],"workers":[{"worker":"w0","confusion":[[1,0]]}]}\n' >bad.csv
bad_workers "bad.csv:1: \"confusion\" of worker 'w0' must be 2 rows of 2 numbers"
# A label of the batch outside the workers file's classes.
printf 'item,worker,label\ni0,w0,a\ni1,w1,zebra\n' >zebra.csv
run 2 "$CS" predict -w hand.csv zebra.csv && stderr_is "zebra.csv:3: label 'zebra' is not one of the classes of hand.csv \(a, b\)"
run 2 "$CS" fit --method ds --init-workers hand.csv zebra.csv && stderr_is "zebra.csv:3: label 'zebra' is not one of the classes of hand.csv \(a, b\)"
# With --classes, the two class sets must be equal.
run 2 "$CS" fit --method ds --classes a,b,c --init-workers hand.csv batch.csv &&
    stderr_is "class 'c' of batch.csv is not one of the classes of hand.csv \(a, b\); a warm start needs the same classes"
run 2 "$CS" fit --method ds --classes a,b --init-workers abc.csv batch.csv &&
    stderr_is "class 'c' of abc.csv is not one of the classes of batch.csv \(a, b\)"
run 0 "$CS" fit -q --method ds --classes b,a --init-workers hand.csv batch.csv && contains out.txt "p_b,p_a"
# Methods that cannot start from matrices say so (a fit error).
run 3 "$CS" fit -q --method mv --init-workers hand.csv batch.csv && stderr_is "'mv' cannot start from initial confusion matrices"
# Standard input twice; a duplicate label names its lines; no output file on error.
run 1 "$CS" predict -w - - <batch.csv && stderr_is "cannot both be standard input"
printf 'item,worker,label\ni0,w0,a\ni0,w0,b\n' >dup.csv
run 3 "$CS" predict -w hand.csv dup.csv && stderr_is "dup.csv:3: worker 'w0' labels item 'i0' again \(first on line 2\)"
run 0 "$CS" predict -q -w hand.csv --duplicates last dup.csv && contains out.txt "i0,b,"
run 2 "$CS" predict -w hand.csv -o never.csv zebra.csv
check "no output on error" test ! -e never.csv
no_temporaries
finish
