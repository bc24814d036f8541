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

# --- Saved models (issue 34 with 38): fit --save keeps the classifier; predict --model
# --model-probs gives the fit's rows exactly (without the rows it does not); update
# --model-probs refits an item with its row: a new item labelled "2" by a new worker
# (whose matrix starts at the M-step's centre) follows a confident classifier row, "1"
# with it, "2" without or against it.
"$CS" simulate --items 300 --workers 20 --classes 2 --labels-per-item 3 --seed 5 --labels sim.csv --truth truth.csv --quiet
awk -F, 'NR == 1 { print "item,p_1,p_2"; next } { print $1 ($2 == 1 ? ",0.9,0.1" : ",0.1,0.9") }' truth.csv >sim_probs.csv
run 0 "$CS" fit $T1 -q --model-probs sim_probs.csv --save m.csm -o fit.csv sim.csv
run 0 "$CS" predict $T1 --model m.csm --model-probs sim_probs.csv -o pred.csv sim.csv && same pred.csv fit.csv
contains err.txt 'model probabilities for 300 of the 300 items from sim_probs.csv'
run 0 "$CS" predict $T1 -q --model m.csm -o pred0.csv sim.csv
check "predict without the rows differs" bash -c '! cmp -s pred0.csv fit.csv'
printf 'item,worker,label\nnew,w-new,2\n' >batch.csv
printf 'item,p_1,p_2\nnew,0.97,0.03\nnot-there,0.5,0.5\n' >probs_1.csv
printf 'item,p_1,p_2\nnew,0.03,0.97\n' >probs_2.csv
cp m.csm m2.csm
cp m.csm m3.csm
run 0 "$CS" update $T1 --model m.csm --model-probs probs_1.csv -o up_1.csv batch.csv && contains up_1.csv 'new,1,'
contains err.txt 'model probabilities for 1 of the 301 items from probs_1.csv; 1 of its items are not in the model or the batch (ignored)'
run 0 "$CS" update $T1 -q --model m2.csm --model-probs probs_2.csv -o up_2.csv batch.csv && contains up_2.csv 'new,2,'
run 0 "$CS" update $T1 -q --model m3.csm -o up_3.csv batch.csv && contains up_3.csv 'new,2,'
# The updated model kept the row and the classifier: predicting the item with its row
# again labels it "1".
run 0 "$CS" predict $T1 -q --model m.csm --model-probs probs_1.csv -o new_pred.csv batch.csv && contains new_pred.csv 'new,1,'
# Errors: --model-probs with a workers file; a model fitted without a classifier; a
# class the model lacks; a negative value.
run 0 "$CS" fit $T1 -q --method ds --save plain.csm -w workers.csv -o plain.csv hand.csv
run 1 "$CS" predict --workers workers.csv --model-probs probs.csv hand.csv && contains err.txt '--model-probs needs --model'
run 3 "$CS" predict --model plain.csm --model-probs probs.csv hand.csv &&
    contains err.txt "confusion matrix of a fit that had them"
run 2 "$CS" update --model m.csm --model-probs z.csv batch.csv &&
    contains err.txt "column 'x' is not one of the classes of m.csm and batch.csv"
printf 'item,p_1,p_2\nnew,-1,0.5\n' >neg_new.csv
run 2 "$CS" update --model m.csm --model-probs neg_new.csv batch.csv && contains err.txt 'neg_new.csv:2:'
no_temporaries
finish
