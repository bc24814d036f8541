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
for id in chart-accuracy chart-agreement chart-worker-1 chart-worker-6 chart-loglik; do
    contains report.html "<svg id=\"$id\" class=\"chart\" role=\"img\" aria-labelledby=\"$id-title\""
    contains report.html "<title id=\"$id-title\">"
done
lacks report.html 'chart-worker-7'
# Self-contained: nothing fetched, nothing executed.
for word in '<script' 'http:' 'https:' 'src=' 'href=' '@import' 'url(' '<link' '<iframe' '<img'; do
    lacks report.html "$word"
done
# The summary and the marks.
contains report.html '<th scope="row">Items</th><td>400</td>'
contains report.html '<th scope="row">Workers</th><td>30</td>'
contains report.html '<th scope="row">Labels</th><td>1600 '
contains report.html '<th scope="row">Method</th><td>opt-ds</td>'
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
# Errors are those of fit.
run 2 "$CS" report missing.csv && stderr_is '^crowdspec: missing\.csv: cannot open'
run 1 "$CS" report && stderr_is 'report: missing the input FILE'
run 1 "$CS" report --method all crowd.csv && stderr_is 'only for'
no_temporaries
finish
