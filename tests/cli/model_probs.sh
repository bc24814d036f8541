#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 34 on the command line: --model-probs (items matched by id, columns by class
# name in any order, p_ prefix), crowdlab on a hand case, --scores and --label-scores
# hand-checked with mv, and the errors.
#
# Labels: i0 {w0 x, w1 x, w2 y}, i1 {w0 y, w1 y}, i2 {w0 x, w2 x}, i3 {w1 y}.
# crowdlab with the model (x, y) = i0 (0.7, 0.3), i1 (0.4, 0.6), i2 (0.2, 0.8),
# i3 (0.9, 0.1) is the hand case of tests/test_model_assist.cpp (crowdlab_by_hand):
# p_CR(x) = 0.8888847093, 0.1111127453, 0.888884992, 0.573231523.
# mv: i0 shares (2/3, 1/3), the others one-hot. The typical worker's matrix from the
# soft counts: row x (4/3 + 2, 2/3) / 4 = (5/6, 1/6), row y (2/3, 1/3 + 3) / 4 = (1/6, 5/6).
# Label next of i0: max(2/3 5/6, 1/3 1/6) + max(2/3 1/6, 1/3 5/6) - 2/3 = 15/18 - 2/3 = 1/6;
# 0 for the unanimous items. p_wrong: 1 - the share of the label's class.
. "$(dirname "$0")/lib.sh"

printf 'item,worker,label\ni0,w0,x\ni0,w1,x\ni0,w2,y\ni1,w0,y\ni1,w1,y\ni2,w0,x\ni2,w2,x\ni3,w1,y\n' >hand.csv
printf 'item,p_y,p_x\ni0,0.3,0.7\ni1,0.6,0.4\ni2,0.8,0.2\ni3,0.1,0.9\nzz,0.5,0.5\n' >probs.csv
run 0 "$CS" fit --method crowdlab --model-probs probs.csv -o items.csv hand.csv
cat >expected_items.csv <<'CSV'
item,label,confidence,p_x,p_y
i0,x,0.8888847093,0.8888847093,0.1111152907
i1,y,0.8888872547,0.1111127453,0.8888872547
i2,x,0.888884992,0.888884992,0.111115008
i3,x,0.573231523,0.573231523,0.426768477
CSV
same items.csv expected_items.csv
contains err.txt 'model probabilities for 4 of the 4 items from probs.csv; 1 of its items are not in hand.csv (ignored)'
# Columns named by the class alone, tab-separated.
printf 'item\tx\ty\ni0\t0.7\t0.3\ni1\t0.4\t0.6\ni2\t0.2\t0.8\ni3\t0.9\t0.1\n' >probs.tsv
run 0 "$CS" fit --method crowdlab --model-probs probs.tsv -o items2.csv hand.csv && same items2.csv expected_items.csv

run 0 "$CS" fit --method mv --scores scores.csv --label-scores labels.csv -o items.csv hand.csv
cat >expected_scores.csv <<'CSV'
item,label,confidence,label_next
i0,x,0.6666666667,0.1666666667
i1,y,1,0
i2,x,1,0
i3,y,1,0
CSV
same scores.csv expected_scores.csv
cat >expected_labels.csv <<'CSV'
item,worker,label,p_wrong
i0,w2,y,0.6666666667
i0,w0,x,0.3333333333
i0,w1,x,0.3333333333
i1,w0,y,0
i1,w1,y,0
i2,w0,x,0
i2,w2,x,0
i3,w1,y,0
CSV
same labels.csv expected_labels.csv
# JSON records by extension.
run 0 "$CS" fit --method mv --scores scores.json -o items.csv hand.csv &&
    contains scores.json '{"item":"i0","label":"x","confidence":0.6666666667,"label_next":0.1666666667},'

# The default method takes the model as a worker: a model that agrees with the crowd
# keeps every label.
run 0 "$CS" fit --model-probs probs.csv -o items.csv hand.csv
CHECKS=$((CHECKS + 1))
[ "$(cut -d, -f2 items.csv | tr '\n' ' ')" = "label x y x y " ] || fail "auto with the model: $(cat items.csv)"

# Errors: a method that takes no model; a class without a column; a class the labels
# lack; a negative probability; a scores file that is also the output.
run 3 "$CS" fit --method mv --model-probs probs.csv hand.csv && contains err.txt 'does not take model probabilities'
printf 'item,p_x\ni0,1\n' >one.csv
run 2 "$CS" fit --model-probs one.csv hand.csv && contains err.txt 'expected the item column and one column per class'
printf 'item,p_x,p_z\ni0,0.5,0.5\n' >z.csv
run 2 "$CS" fit --model-probs z.csv hand.csv && contains err.txt "column 'z' is not one of the classes"
printf 'item,p_x,p_y\ni0,-0.5,0.5\n' >neg.csv
run 2 "$CS" fit --model-probs neg.csv hand.csv && contains err.txt 'neg.csv:2:'
run 1 "$CS" fit --scores items.csv -o items.csv hand.csv
# crowdlab without a model: a weighted vote, with the note.
run 0 "$CS" fit --method crowdlab -o items.csv hand.csv && contains err.txt 'crowdlab without model probabilities'
no_temporaries
finish
