#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fit --gold pins known items (semi-supervised EM through cs_set_gold): a gold item
# gets its gold label with probability 1 whatever the crowd says, and the gold
# labels inform the workers' confusion matrices (hand-checked with majority vote).
. "$(dirname "$0")/lib.sh"

printf 'task,worker,label\nq1,alice,cat\nq1,bob,dog\nq2,alice,cat\nq2,bob,cat\nq3,carol,dog\nq3,alice,dog\n' >tiny.csv
printf 'q1 dog\n' >gold.txt
# With q1 pinned to dog the vote shares are q1 (0, 1), q2 (1, 0), q3 (0, 1); prior
# (1/3, 2/3). alice: row cat = q2 -> (1, 0); row dog = q1 cat + q3 dog -> (1/2, 1/2);
# accuracy 1/3 + 2/3 * 1/2 = 2/3. bob: rows (1, 0) and (0, 1): accuracy 1. carol: row
# cat uniform, row dog (0, 1): 1/3 * 1/2 + 2/3 = 5/6. Every row ends with the prior.
run 0 "$CS" fit --method mv --gold gold.txt -o items.csv --workers workers.csv tiny.csv
stderr_is '^crowdspec: note: pinned 1 gold items from gold\.txt$'
cat >expected_items.csv <<'CSV'
item,label,confidence,p_cat,p_dog
q1,dog,1,0,1
q2,cat,1,1,0
q3,dog,1,0,1
CSV
same items.csv expected_items.csv
# The diagnostics (issue 34) from the pinned posteriors q1 (0, 1), q2 (1, 0), q3 (0, 1):
# alice right on q2, q3 (2 of 3; Beta(3, 2): 0.1941204497 .. 0.9324140135 by
# scipy.stats.beta.ppf), worst class dog (1 of 2), spammer (1 + 1/2 - 1)^2 = 1/4; bob 2
# of 2 (Beta(3, 1): 0.025^(1/3) = 0.2924017738 .. 0.975^(1/3) = 0.9915962413), both
# classes right (worst: the first), spammer 1; carol 1 of 1 (Beta(2, 1): sqrt(0.025) ..
# sqrt(0.975)), spammer 1/4.
cat >expected_workers.csv <<'CSV'
worker,labels,accuracy,pi_cat_cat,pi_cat_dog,pi_dog_cat,pi_dog_dog,prior_cat,prior_dog,spammer,worst_class,label_accuracy,label_accuracy_low,label_accuracy_high
alice,3,0.6666666667,1,0,0.5,0.5,0.3333333333,0.6666666667,0.25,dog,0.6666666667,0.1941204497,0.9324140135
bob,2,1,1,0,0,1,0.3333333333,0.6666666667,1,cat,1,0.2924017738,0.9915962413
carol,1,0.8333333333,0.5,0.5,0,1,0.3333333333,0.6666666667,0.25,dog,1,0.158113883,0.9874208829
CSV
same workers.csv expected_workers.csv

# EM keeps a gold item pinned even against the crowd: three workers say cat, gold dog.
printf 'i1 w1 cat\ni1 w2 cat\ni1 w3 cat\ni2 w1 dog\ni2 w2 dog\ni2 w3 dog\ni3 w1 cat\ni3 w2 cat\ni3 w3 dog\n' >crowd.txt
printf 'item,gold,comment\ni1,dog,"a known, hard case"\n' >gold.csv
for method in ds opt-ds crowd-lloyd; do
    run 0 "$CS" fit $T1 --method "$method" --gold gold.csv --quiet crowd.txt &&
        { CHECKS=$((CHECKS + 1)); grep -q '^i1,dog,1,0,1$' out.txt || fail "$method: gold item not pinned: $(grep '^i1' out.txt)"; }
done
run 0 "$CS" fit $T1 --method ds --quiet crowd.txt &&
    { CHECKS=$((CHECKS + 1)); grep -q '^i1,cat,' out.txt || fail "without gold the crowd's cat should win"; }

# Gold on simulated data: every gold item carries its gold label; the gold changes the
# estimate of other items' posteriors (it informs the confusion matrices).
"$CS" simulate --items 400 --workers 20 --labels-per-item 3 --spammers 0.5 --seed 4 --labels sim.txt --truth truth.txt --quiet
head -n 100 truth.txt >gold100.txt
run 0 "$CS" fit $T1 --method ds -o with.csv --gold gold100.txt sim.txt
run 0 "$CS" fit $T1 --method ds -o without.csv sim.txt
CHECKS=$((CHECKS + 1))
awk 'NR == FNR { gold[$1] = $2; next } FNR > 1 { split($0, f, ","); if ((f[1] in gold) && (f[2] != gold[f[1]] || f[3] != 1)) { print; bad = 1 } } END { exit bad }' \
    gold100.txt with.csv >bad.txt || fail "gold items not pinned: $(head -2 bad.txt)"
CHECKS=$((CHECKS + 1))
tail -n +102 with.csv >with_rest.csv
tail -n +102 without.csv >without_rest.csv
cmp -s with_rest.csv without_rest.csv && fail "gold did not change any other item's posterior"

# Gold items missing from the crowd are noted and skipped; --quiet hides the note.
printf 'i1 dog\nnot-there cat\n' >partial.txt
run 0 "$CS" fit --method mv --gold partial.txt crowd.txt &&
    stderr_is '^crowdspec: note: pinned 1 gold items from partial\.txt; 1 gold items do not appear in crowd\.txt and are ignored$'
run 0 "$CS" fit --method mv --gold partial.txt --quiet crowd.txt && check "--quiet: no note" test ! -s err.txt
finish
