#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Saved models in the program (issue 38): `fit --save`, `predict --model`, `update
# --model` with string ids; the model file rewritten atomically; damaged models refused
# with one line and exit 2. (test_cli_update checks update against the library.)
. "$(dirname "$0")/lib.sh"

# A crowd with string ids: items "doc-N", workers "rater-N". The first 700 rows are the
# first batch; the rest (known items, new items) the second.
"$CS" simulate --items 300 --workers 20 --seed 5 --labels sim.csv --quiet
awk -F, -v OFS=, 'NR == 1 { print; next } { $1 = "doc-" $1; $2 = "rater-" $2; print }' sim.csv >crowd.csv
head -701 crowd.csv >first.csv
{ head -1 crowd.csv; tail -n +702 crowd.csv; } >second.csv
# The second batch again, its rows in another order (names first appear elsewhere).
{ head -1 second.csv; tail -n +2 second.csv | sort -t, -k2,2 -k1,1; } >second_sorted.csv

# --- fit --save, predict --model ------------------------------------------------------
run 0 "$CS" fit $T1 -q --save model.csm -o fit.csv -w workers.csv first.csv
check "fit --save writes the model" test -s model.csm
# The saved workers at full precision: the fit's own rows, byte for byte.
run 0 "$CS" predict $T1 -q --model model.csm -o predicted.csv first.csv && same predicted.csv fit.csv
# Through the workers file (10 significant digits), the same labels.
run 0 "$CS" predict $T1 -q -w workers.csv -o predicted_w.csv first.csv
CHECKS=$((CHECKS + 1))
cut -d, -f1,2 predicted_w.csv | cmp -s - <(cut -d, -f1,2 fit.csv) || fail "predict -w and fit label differently"
# predict leaves the model as it was and knows its names: a batch of two known items
# labelled by a known worker and by one the model lacks.
cp model.csm model_before.csm
printf 'item,worker,label\nnew-item,rater-3,2\nnew-item,stranger,2\n' >batch.csv
run 0 "$CS" predict --model model.csm batch.csv && contains out.txt "new-item,"
contains err.txt "1 workers of batch.csv are not in model.csm ('stranger')"
same model.csm model_before.csm

# --- update --model: names, order, atomic rewrite -------------------------------------
cp model.csm model2.csm
run 0 "$CS" update $T1 --model model.csm -o updated.csv second.csv
contains err.txt "labels added to model.csm"
# This batch is larger than the first: the update is an automatic full refit.
contains err.txt "the update was a full refit"
check "update rewrites the model" bash -c '! cmp -s model.csm model_before.csm'
items=$(($(cut -d, -f1 crowd.csv | sort -u | wc -l) - 1))
CHECKS=$((CHECKS + 1))
[ "$(($(wc -l <updated.csv) - 1))" = "$items" ] || fail "update should write all $items items, wrote $(($(wc -l <updated.csv) - 1))"
# The same labels in another row order: the same items with the same results (new
# items are appended in the batch's order of first appearance, so sort the rows).
run 0 "$CS" update $T1 -q --model model2.csm -o updated2.csv second_sorted.csv
sort updated.csv >a.txt
sort updated2.csv >b.txt
CHECKS=$((CHECKS + 1))
paste -d, a.txt b.txt | awk -F, '{ n = NF / 2; if ($1 != $(1 + n) || $2 != $(2 + n)) bad = 1;
    for (c = 3; c <= n; c++) { d = $c - $(c + n); if (d < 0) d = -d; if (d > 1e-9) bad = 1 } } END { exit bad }' ||
    fail "update depends on the order of the batch's rows"
# The updated model predicts its own rows; a second update goes on from it.
run 0 "$CS" predict $T1 -q --model model.csm -o again.csv crowd.csv
CHECKS=$((CHECKS + 1))
cmp -s <(sort again.csv) a.txt || fail "predict --model after update differs from update's rows"
# --refit: a full fit from the updated state labels like a fit of all the labels.
cp model_before.csm model3.csm
run 0 "$CS" fit $T1 -q -o union.csv crowd.csv
run 0 "$CS" update $T1 -q --refit --model model3.csm -o refit.csv second_sorted.csv
CHECKS=$((CHECKS + 1))
diffs=$(join -t, <(tail -n +2 union.csv | cut -d, -f1,2 | sort) <(tail -n +2 refit.csv | cut -d, -f1,2 | sort) |
    awk -F, '$2 != $3' | wc -l)
[ "$diffs" -le 1 ] || fail "update --refit disagrees with a fit of the union on $diffs items"
no_temporaries

# --- Errors: one line, exit code, nothing replaced -------------------------------------
cp model.csm good.csm
head -c 100 good.csm >truncated.csm
run 2 "$CS" predict --model truncated.csm first.csv && stderr_is "truncated.csm: corrupt model: truncated"
run 2 "$CS" update --model truncated.csm -o never.csv second.csv && stderr_is "truncated.csm: corrupt model: truncated"
cp good.csm flipped.csm
printf 'Z' | dd of=flipped.csm bs=1 seek=2000 conv=notrunc 2>/dev/null
run 2 "$CS" update --model flipped.csm -o never.csv second.csv && stderr_is "flipped.csm: corrupt model: checksum mismatch"
cmp -s flipped.csm good.csm && fail "the flipped byte did not change the copy"
cp good.csm newer.csm
printf '\x07' | dd of=newer.csm bs=1 seek=8 conv=notrunc 2>/dev/null
run 2 "$CS" predict --model newer.csm first.csv && stderr_is "newer.csm: the model was saved in format version 7; this library .* reads versions up to 2"
run 2 "$CS" predict --model fit.csv first.csv && stderr_is "fit.csv: corrupt model: not a crowdspec model \(wrong magic number\)"
run 2 "$CS" update --model missing.csm second.csv && stderr_is "missing.csm"
check "no output after refused models" test ! -e never.csv
# A label outside the model's classes: an input error; the model is not rewritten.
printf 'item,worker,label\ndoc-1,rater-1,9\n' >zebra.csv
run 2 "$CS" update --model model.csm -o never.csv zebra.csv && stderr_is "zebra.csv:2: label '9' is not one of the classes of model.csm"
same model.csm good.csm
# The same labels again: duplicates (exit 3, the file and line), the model kept.
run 3 "$CS" update --model model.csm -o never.csv second.csv && stderr_is "second.csv:[0-9]+: worker 'rater-[0-9]+' labels item 'doc-[0-9]+' again \\(the model has its label\\)"
same model.csm good.csm
check "no output after refused updates" test ! -e never.csv
# Usage errors.
run 1 "$CS" update second.csv && stderr_is "update: --model MODEL is required"
run 1 "$CS" update --model model.csm -o model.csm second.csv && stderr_is "--output and --model name the same file"
run 1 "$CS" predict --model model.csm -w workers.csv first.csv && stderr_is "give --workers or --model, not both"
run 1 "$CS" predict --model - first.csv && stderr_is "--model needs a file name"
run 1 "$CS" fit --save - first.csv && stderr_is "--save needs a file name"
run 1 "$CS" fit --method mv --save mv.csm first.csv && stderr_is "a 'mv' fit cannot be saved"
check "no model after a refused --save" test ! -e mv.csm
run 1 "$CS" fit --save fit2.csv -o fit2.csv first.csv && stderr_is "--save names the same file as another output"
no_temporaries
finish
