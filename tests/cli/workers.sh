#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# --workers values on a case small enough to check by hand, and the accuracy
# definition (sum_l prior_l * pi[l][l]) on a real fit.
#
# Majority vote on three items: q1 = {alice: cat, bob: dog} (a tie, shares 1/2, 1/2),
# q2 = {alice: cat, bob: cat}, q3 = {carol: dog, alice: dog}. Its confusion matrices
# are the Dawid-Skene M-step from the vote shares T_j:
#   alice: row cat = (0.5 + 1, 0) / 1.5 = (1, 0); row dog = (0.5, 1) / 1.5 = (1/3, 2/3)
#   bob:   row cat = (1, 0.5) / 1.5 = (2/3, 1/3); row dog = (0, 0.5) / 0.5 = (0, 1)
#   carol: row cat has no mass: uniform (1/2, 1/2); row dog = (0, 1)
# The estimated prior is the mean share: (0.5, 0.5), in the prior_<class> columns. Accuracy = 0.5 pi_cc + 0.5 pi_dd:
#   alice 0.5 + 1/3 = 0.8333333333, bob 1/3 + 0.5 = 0.8333333333, carol 0.25 + 0.5 = 0.75.
# Diagnostics (issue 34): spammer (a + b - 1)^2 at k = 2: alice (1 + 2/3 - 1)^2 = 4/9,
# bob (2/3 + 1 - 1)^2 = 4/9, carol (1/2 + 1 - 1)^2 = 1/4. Soft hits (the vote share of
# each label): alice 0.5 + 1 + 1 = 2.5 of 3, bob 0.5 + 1 = 1.5 of 2, carol 1 of 1; 95 %
# intervals of Beta(1 + hits, 1 + misses) (scipy.stats.beta.ppf): alice 0.2837516796 ..
# 0.9715291049, bob 0.1767360971 .. 0.9612523822, carol 0.158113883 .. 0.9874208829.
# Worst class (lowest soft hit rate per true class): alice dog (cat 1.5/1.5, dog 1/1.5),
# bob cat (1/1.5; dog 0.5/0.5), carol dog (her only class).
. "$(dirname "$0")/lib.sh"

printf 'task,worker,label\nq1,alice,cat\nq1,bob,dog\nq2,alice,cat\nq2,bob,cat\nq3,carol,dog\nq3,alice,dog\n' >tiny.csv
run 0 "$CS" fit --method mv -o items.csv --workers workers.csv tiny.csv
cat >expected_workers.csv <<'CSV'
worker,labels,accuracy,pi_cat_cat,pi_cat_dog,pi_dog_cat,pi_dog_dog,prior_cat,prior_dog,spammer,worst_class,label_accuracy,label_accuracy_low,label_accuracy_high
alice,3,0.8333333333,1,0,0.3333333333,0.6666666667,0.5,0.5,0.4444444444,dog,0.8333333333,0.2837516796,0.9715291049
bob,2,0.8333333333,0.6666666667,0.3333333333,0,1,0.5,0.5,0.4444444444,cat,0.75,0.1767360971,0.9612523822
carol,1,0.75,0.5,0.5,0,1,0.5,0.5,0.25,dog,1,0.158113883,0.9874208829
CSV
same workers.csv expected_workers.csv
cat >expected_items.csv <<'CSV'
item,label,confidence,p_cat,p_dog
q1,cat,0.5,0.5,0.5
q2,cat,1,1,0
q3,dog,1,0,1
CSV
same items.csv expected_items.csv

# JSON records: the CSV columns as keys (pandas.read_json reads them as a table).
run 0 "$CS" fit --method mv -o items.csv --workers workers.json tiny.csv
cat >expected_records.json <<'JSON'
[
{"worker":"alice","labels":3,"accuracy":0.8333333333,"pi_cat_cat":1,"pi_cat_dog":0,"pi_dog_cat":0.3333333333,"pi_dog_dog":0.6666666667,"prior_cat":0.5,"prior_dog":0.5,"spammer":0.4444444444,"worst_class":"dog","label_accuracy":0.8333333333,"label_accuracy_low":0.2837516796,"label_accuracy_high":0.9715291049},
{"worker":"bob","labels":2,"accuracy":0.8333333333,"pi_cat_cat":0.6666666667,"pi_cat_dog":0.3333333333,"pi_dog_cat":0,"pi_dog_dog":1,"prior_cat":0.5,"prior_dog":0.5,"spammer":0.4444444444,"worst_class":"cat","label_accuracy":0.75,"label_accuracy_low":0.1767360971,"label_accuracy_high":0.9612523822},
{"worker":"carol","labels":1,"accuracy":0.75,"pi_cat_cat":0.5,"pi_cat_dog":0.5,"pi_dog_cat":0,"pi_dog_dog":1,"prior_cat":0.5,"prior_dog":0.5,"spammer":0.25,"worst_class":"dog","label_accuracy":1,"label_accuracy_low":0.158113883,"label_accuracy_high":0.9874208829}
]
JSON
same workers.json expected_records.json
run 0 "$CS" fit --method mv -o items.csv --workers workers.jsonl tiny.csv
sed -e '1d' -e '$d' -e 's/},$/}/' expected_records.json >expected_records.jsonl
same workers.jsonl expected_records.jsonl
# The nested document on request.
run 0 "$CS" fit --method mv -o items.csv --workers workers.json --workers-format json-nested tiny.csv
cat >expected_workers.json <<'JSON'
{"method":"mv","classes":["cat","dog"],"class_prior":[0.5,0.5],"accuracy_definition":"sum over true classes l of class_prior[l] * confusion[l][l]","confusion_definition":"confusion[l][c] = P(the worker answers classes[c] | true class classes[l])","workers":[
{"worker":"alice","labels":3,"accuracy":0.8333333333,"confusion":[[1,0],[0.3333333333,0.6666666667]],"spammer":0.4444444444,"worst_class":"dog","label_accuracy":0.8333333333,"label_accuracy_low":0.2837516796,"label_accuracy_high":0.9715291049},
{"worker":"bob","labels":2,"accuracy":0.8333333333,"confusion":[[0.6666666667,0.3333333333],[0,1]],"spammer":0.4444444444,"worst_class":"cat","label_accuracy":0.75,"label_accuracy_low":0.1767360971,"label_accuracy_high":0.9612523822},
{"worker":"carol","labels":1,"accuracy":0.75,"confusion":[[0.5,0.5],[0,1]],"spammer":0.25,"worst_class":"dog","label_accuracy":1,"label_accuracy_low":0.158113883,"label_accuracy_high":0.9874208829}
]}
JSON
same workers.json expected_workers.json
run 0 "$CS" fit --method mv -o items.csv --workers workers.tsv tiny.csv
tr ',' '\t' <expected_workers.csv >expected_workers.tsv
same workers.tsv expected_workers.tsv

# On a real fit with a uniform prior, accuracy is the mean of the diagonal, and every
# confusion row sums to 1; label counts add up to the number of labels.
"$CS" simulate --items 500 --workers 40 --seed 9 --labels crowd.txt --quiet
run 0 "$CS" fit $T1 --prior uniform -o items.csv --workers workers.csv crowd.txt
CHECKS=$((CHECKS + 1))
awk -F, 'NR == 1 { next }
    { diag = ($4 + $8 + $12) / 3; if (diag - $3 > 1e-9 || $3 - diag > 1e-9) { print "accuracy " $3 " != " diag; bad = 1 }
      for (r = 0; r < 3; r++) { s = $(4 + 3*r) + $(5 + 3*r) + $(6 + 3*r); if (s < 1 - 1e-8 || s > 1 + 1e-8) { print "row sum " s; bad = 1 } }
      total += $2 }
    END { if (total != 2500) { print "labels " total; bad = 1 } exit bad }' workers.csv >check.txt ||
    fail "workers.csv inconsistent: $(head -3 check.txt)"
check "40 workers" test "$(wc -l <workers.csv)" -eq 41
finish
