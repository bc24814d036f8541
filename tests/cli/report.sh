#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# crowdspec report without a browser: one self-contained HTML file (no scripts, no
# external resources), every chart present as an <svg> with an id and a <title>, the
# summary numbers, text escaping, and the mv and --worst variants.
. "$(dirname "$0")/lib.sh"

"$CS" simulate --items 400 --workers 30 --labels-per-item 4 --seed 8 --labels crowd.csv --quiet || { fail "simulate"; finish; }
run 0 "$CS" report $T1 -o report.html crowd.csv
check "stdout is empty when writing a file" test ! -s out.txt
check "starts as HTML5" test "$(head -n 1 report.html)" = "<!DOCTYPE html>"
check "ends the document" test "$(tail -n 1 report.html)" = "</html>"
for id in chart-agreement chart-worker-1 chart-worker-6; do
    contains report.html "<svg id=\"$id\" class=\"chart\" role=\"img\" aria-labelledby=\"$id-title\""
    contains report.html "<title id=\"$id-title\">"
done
# The histogram and the likelihood span the page (class "wide", drawn 1100 px wide).
for id in chart-accuracy chart-loglik; do
    contains report.html "<svg id=\"$id\" class=\"chart wide\" role=\"img\" aria-labelledby=\"$id-title\" width=\"1100.00\""
    contains report.html "<title id=\"$id-title\">"
done
for id in relabel-table review-table class-agreement-table; do
    contains report.html "<table class=\"data\" id=\"$id\">"
done
contains report.html '<strong id="alpha">'
contains report.html 'give <code>--truth FILE</code> to score the methods'
check "20 items to relabel" test "$(sed -n '/id="relabel-table"/,/<\/table>/p' report.html | grep -c '^<tr>')" -eq 20
lacks report.html 'chart-worker-7'
# Self-contained: nothing fetched, nothing executed.
for word in '<script' 'http:' 'https:' 'src=' 'href=' '@import' 'url(' '<link' '<iframe' '<img'; do
    lacks report.html "$word"
done
# The summary and the marks.
contains report.html '<th scope="row">Items</th><td>400</td>'
contains report.html '<th scope="row">Workers</th><td>30</td>'
contains report.html '<th scope="row">Labels</th><td>1600 '
contains report.html '<th scope="row">Method</th><td>auto</td>'
contains report.html '<th scope="row">Converged</th><td>yes</td>'
contains report.html 'id="share-changed"'
check "20 histogram bars" test "$(grep -c '<rect class="bar"' report.html)" -eq 20
check "3x3 agreement cells + 6 workers x 9 cells" test "$(grep -c '<rect class="cell"' report.html)" -eq 63
check "a log-likelihood polyline" test "$(grep -c '<polyline class="series"' report.html)" -eq 1
# The agreement table counts every item once.
CHECKS=$((CHECKS + 1))
total=$(sed -n '/<svg id="chart-agreement"/,/<\/svg>/p' report.html | grep -o 'final [0-9]*: [0-9]* items' | awk '{ s += $3 } END { print s }')
[ "$total" = 400 ] || fail "agreement cells sum to $total, not 400"

# Standard output, majority vote (no likelihood: the chart says so), --worst.
run 0 "$CS" report $T1 --method mv --worst 2 crowd.csv
contains out.txt 'chart-worker-2'
lacks out.txt 'chart-worker-3'
contains out.txt 'no iterations: mv has no likelihood trace'
contains out.txt '<svg id="chart-loglik"'
# Ids and labels are escaped.
printf 'task,worker,label\n1,"<b>&""x",yes\n1,w2,no\n2,"<b>&""x",no\n2,w2,no\n' >odd.csv
run 0 "$CS" report --method ds --min-labels 1 odd.csv
contains out.txt '&lt;b&gt;&amp;&quot;x'
lacks out.txt '<b>&'
# With gold, and with a fit that stops early (not converged).
printf '1 yes\n' >gold.txt
run 0 "$CS" report --method ds --gold gold.txt odd.csv && contains out.txt '<th scope="row">Gold</th><td>pinned 1 gold items from gold.txt</td>'
run 0 "$CS" report $T1 --method ds --max-iter 2 --quiet crowd.csv && contains out.txt '<th scope="row">Converged</th><td><strong>no</strong></td>'
contains out.txt 'max_iter_reached'
# A crowd worked out by hand with mv (vote shares as posteriors): 12 items, 6 cat
# (i01-i06) and 6 dog (i07-i12). h1, h2, h3 always answer the truth, s always cat, v
# always the other class. Vote shares: cat items cat 4/5 = 0.8, dog items dog 3/5 = 0.6;
# prior cat = (6 * 0.8 + 6 * 0.4) / 12 = 0.6.
# - s: answers cat for every item -> pi rows (1, 0) and (1, 0), 12 of 12 labels cat:
#   spammer; accuracy 0.6 * 1 + 0.4 * 0 = 0.6 >= 1/2.
# - v: pi[cat][dog] = 6*0.8 / (6*0.8 + 6*0.4) = 2/3, pi[dog][cat] = 6*0.6 / (6*0.2 + 6*0.6)
#   = 3/4; accuracy 0.6 * 1/3 + 0.4 * 1/4 = 0.3 < 1/2: below-chance. Its 6 cat
#   and 6 dog labels tie: top answer cat (the first), share 0.5. Not an adversary (issue
#   34): its soft hits are 6 * 0.2 + 6 * 0.4 = 3.6 of 12, and the 95 % interval of
#   Beta(4.6, 9.4) is 0.1187501531 .. 0.5846048675 (scipy.stats.beta.ppf), not wholly
#   below 1/2; spammer score (1/3 + 1/4 - 1)^2 = 25/144 = 0.1736111111; worst class dog
#   (hits on true dog 1.2 of 4.8, on true cat 2.4 of 7.2).
# - s: hits 7.2 of 12: Beta(8.2, 5.8) 0.3293141607 .. 0.8189457225; spammer score 0 (both
#   rows (1, 0)); worst class dog (no dog hit).
# Label next: 0 for every item (under mv's matrices no single label overturns a vote of
# 4/5 or 3/5), so the relabel order is by confidence as before.
# - h: pi = ((2/3, 1/3), (1/4, 3/4)), accuracy 0.7: no tag.
# Relabel first: the dog items (confidence 0.6 < 0.8), all with 5 labels, in item order,
# votes dog 3, cat 2.
# Krippendorff's alpha: per cat item o_cc += 4*3/4 = 3, o_cd = o_dc += 4*1/4 = 1; per dog
# item o_dd += 3*2/4 = 1.5, o_cc += 2*1/4 = 0.5, o_cd = o_dc += 3*2/4 = 1.5. Over the 12:
# o_cc = 21, o_cd = o_dc = 15, o_dd = 9; n_cat = 36, n_dog = 24, n = 60. D_o = 30/60,
# D_e = 2*36*24 / (60*59) = 1728/3540, alpha = 1 - (1/2)(3540/1728) = -42/1728 = -0.0243;
# per class: cat 21/36 = 0.583, dog 9/24 = 0.375.
{
    echo "item,worker,label"
    for i in 01 02 03 04 05 06 07 08 09 10 11 12; do
        if [ "${i#0}" -le 6 ]; then t=cat o=dog; else t=dog o=cat; fi
        printf 'i%s,h1,%s\ni%s,h2,%s\ni%s,h3,%s\ni%s,s,cat\ni%s,v,%s\n' $i $t $i $t $i $t $i $i $o
        echo "i$i $t" >>hand_truth.txt
    done
} >hand.csv
run 0 "$CS" report --method mv --relabel-count 3 -o hand.html --relabel relabel.csv --review-workers review.csv hand.csv
cat >expected_review.csv <<'CSV'
worker,labels,accuracy,tags,top_answer,top_share,gold_labels,gold_accuracy,reason,accuracy_low,accuracy_high,spammer,worst_class
v,12,0.3,below-chance,cat,0.5,0,,Estimated accuracy 0.300 is below 1/2 (guessing).,0.1187501531,0.5846048675,0.1736111111,dog
s,12,0.6,spammer,cat,1,0,,"100% of its labels are cat, whatever the true class.",0.3293141607,0.8189457225,0,dog
CSV
same review.csv expected_review.csv
cat >expected_relabel.csv <<'CSV'
rank,item,label,confidence,label_next,labels,votes_cat,votes_dog
1,i07,dog,0.6,0,5,2,3
2,i08,dog,0.6,0,5,2,3
3,i09,dog,0.6,0,5,2,3
CSV
same relabel.csv expected_relabel.csv
contains hand.html '<tr><td class="num">1</td><td class="id">i07</td><td class="id">dog</td><td class="num">0.600</td><td class="num">0.000</td><td class="num">5</td><td class="text">dog 3, cat 2</td></tr>'
contains hand.html '<strong id="alpha">-0.0243</strong>'
contains hand.html '<tr><td class="id">cat</td><td class="num">36</td><td class="num">36</td><td class="num">0.583</td>'
contains hand.html '<tr><td class="id">dog</td><td class="num">24</td><td class="num">24</td><td class="num">0.375</td>'
contains hand.html '<strong id="review-count">2</strong> of 5 workers'
contains hand.html '<td class="num">0.119&ndash;0.585</td><td class="num">0.174</td><td class="id">dog</td><td><span class="tag tag-below-chance">below-chance</span></td>'
# --min-labels above 12: nobody is tagged.
run 0 "$CS" report --method mv --min-labels 13 hand.csv && contains out.txt '<p id="review-none">No worker matches a rule.</p>'
# JSON records of the same lists by extension.
run 0 "$CS" report --method mv --relabel-count 3 -o /dev/null --relabel relabel.json --review-workers review.jsonl hand.csv
contains relabel.json '{"rank":1,"item":"i07","label":"dog","confidence":0.6,"label_next":0,"labels":5,"votes_cat":2,"votes_dog":3},'
contains review.jsonl '{"worker":"s","labels":12,"accuracy":0.6,"tags":"spammer","top_answer":"cat","top_share":1,"gold_labels":0,"gold_accuracy":null,'
# With --truth: per method and per worker. mv and ds label all 12 right; on the truth
# items h1-h3 are 12/12 right, s 6/12, v 0/12.
run 0 "$CS" report $T1 --method mv,ds --truth hand_truth.txt --review-workers review.csv -o hand.html hand.csv
for m in mv ds; do contains hand.html "<tr><td>$m</td><td class=\"num\">12</td><td class=\"num\">12</td><td class=\"num\">1.0000</td></tr>"; done
check "mv is scored once" test "$(grep -c '<tr><td>mv</td>' hand.html)" -eq 1
contains hand.html '<tr><td class="id">v</td><td class="num">12</td><td class="num">0</td><td class="num">0.000</td></tr>'
contains hand.html '<tr><td class="id">s</td><td class="num">12</td><td class="num">6</td><td class="num">0.500</td></tr>'
contains review.csv 'v,12,0.3,below-chance,cat,0.5,12,0,'
# Pinned gold items are not scored for the methods.
printf 'i01 cat\ni07 dog\n' >hand_gold.txt
run 0 "$CS" report --method mv --gold hand_gold.txt --truth hand_truth.txt hand.csv &&
    contains out.txt '<tr><td>mv</td><td class="num">10</td><td class="num">10</td><td class="num">1.0000</td></tr>'
contains out.txt '(2 truth items are pinned as gold and not scored)'
# Without --truth the workers are scored on the pinned gold: v wrong on both.
run 0 "$CS" report --method mv --gold hand_gold.txt hand.csv &&
    contains out.txt '<tr><td class="id">v</td><td class="num">2</td><td class="num">0</td><td class="num">0.000</td></tr>'
lacks out.txt 'method-accuracy-table'
# Several methods need the truth; outputs must differ.
run 1 "$CS" report --method mv,ds hand.csv && stderr_is 'only scored on --truth FILE'
run 1 "$CS" report --relabel x.csv --review-workers x.csv -o r.html hand.csv && stderr_is 'name the same file'
run 1 "$CS" report --relabel - hand.csv && stderr_is 'only one of the page, --relabel and --review-workers can go to standard output'

# A declared k far above the observed classes (issue 40, R11): the k x k charts draw
# the observed classes only, so 5 labels with --classes 1000 give a page of a few
# kilobytes, not 441 MB (6 heatmaps of 1000 x 1000 cells).
printf 'a,u,1\na,v,2\nb,u,2\nb,v,2\nc,u,3\n' >few.csv
run 0 "$CS" report $T1 --method mv --classes 1000 --header no -o few.html few.csv
check "a small page for k = 1000 ($(wc -c <few.html) bytes)" test "$(wc -c <few.html)" -lt 200000
contains few.html 'The chart draws 3 of the 1000 classes: those with labels or items'
check "the agreement chart has 3 x 3 cells" \
    test "$(sed -n '/<svg id="chart-agreement"/,/<\/svg>/p' few.html | grep -c '<rect class="cell"')" -eq 9

# Errors are those of fit.
run 2 "$CS" report missing.csv && stderr_is '^crowdspec: missing\.csv: cannot open'
run 1 "$CS" report && stderr_is 'report: missing the input FILE'
run 1 "$CS" report --method all crowd.csv && stderr_is 'only for'
no_temporaries
finish
