#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Ordered grades (issue 36): fit --ordinal writes median_grade and mean_grade,
# evaluate --ordinal adds the mean absolute errors, the ordinal methods do both without
# the option; values hand-checked with mv, whose posteriors are the vote shares.
. "$(dirname "$0")/lib.sh"

# item a: grades 1, 2, 2 -> shares (1/3, 2/3, 0): median 2, mean 1/3 + 4/3 = 5/3
# item b: grades 3, 1    -> shares (1/2, 0, 1/2): the cumulative posterior reaches 1/2
#                           at grade 1, so median 1; mean (1 + 3) / 2 = 2
printf 'item,worker,label\na,w1,1\na,w2,2\na,w3,2\nb,w1,3\nb,w2,1\n' >grades.csv
printf 'a 2\nb 3\n' >truth.txt

run 0 "$CS" fit $T1 --method mv --ordinal grades.csv &&
    cat >expected.csv <<'CSV'
item,label,confidence,p_1,p_2,p_3,median_grade,mean_grade
a,2,0.6666666667,0.3333333333,0.6666666667,0,2,1.666666667
b,1,0.5,0.5,0,0.5,1,2
CSV
same out.txt expected.csv
run 0 "$CS" fit $T1 --method mv grades.csv && lacks out.txt median_grade
# Names that are not numbers: the mean is the 0-based class position.
sed -e 's/,1$/,low/' -e 's/,2$/,mid/' -e 's/,3$/,high/' grades.csv >words.csv
run 0 "$CS" fit $T1 --method mv --ordinal --classes low,mid,high words.csv &&
    contains out.txt "a,mid,0.6666666667,0.3333333333,0.6666666667,0,mid,0.6666666667"
contains out.txt "b,low,0.5,0.5,0,0.5,low,1"
run 0 "$CS" fit $T1 --method mv --ordinal --format json-nested grades.csv &&
    contains out.txt '"median_grade":"2","mean_grade":1.666666667}'

# evaluate: labels (2, 1) and medians (2, 1) against the truth (2, 3): error 1/2, mean
# absolute error (0 + 2) / 2 = 1 for both.
run 0 "$CS" evaluate $T1 -q --method mv --ordinal --truth truth.txt grades.csv &&
    contains out.txt '"error_rate":0.500000,"error_rate_tie_fractional":0.250000,"mean_absolute_error":1.000000,"mean_absolute_error_median":1.000000,'
run 0 "$CS" evaluate $T1 -q --method mv --truth truth.txt grades.csv && lacks out.txt mean_absolute_error
# The ordinal methods give grades without --ordinal; minimax-entropy does not.
run 0 "$CS" evaluate $T1 -q --method ordinal-ds,ordinal-minimax,minimax-entropy --truth truth.txt grades.csv &&
    check "two of the three methods report absolute errors" test "$(grep -c mean_absolute_error_median out.txt)" = 2
run 0 "$CS" fit $T1 --method ordinal-ds grades.csv && contains out.txt ",median_grade,mean_grade"
# --param gamma and cv_folds reach the library; a bad value is a usage error.
run 0 "$CS" fit $T1 --method minimax-entropy --param gamma=0 --param cv_folds=2 grades.csv
run 1 "$CS" fit $T1 --method minimax-entropy --param cv_folds=1 grades.csv
stderr_is "cv_folds"
finish
