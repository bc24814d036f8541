#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# crowdspec rank: the two-item maximum-likelihood case by hand (3 wins to 1, no prior:
# scores +- log(3)/2, standard error sqrt(1/3)), crowd-kit's column layout with the
# winner given as an item id, words and ties, a Toloka side-by-side export (rejected
# assignment skipped), --workers, --truth's JSON line, --report, and usage and input
# errors with their exit codes.
. "$(dirname "$0")/lib.sh"

printf 'worker,left,right,label\nw1,a,b,a\nw2,a,b,a\nw1,b,a,b\nw3,b,a,a\n' >two.csv
run 0 "$CS" rank $T1 --prior 0 two.csv
contains out.txt "item,score,se,rank"
CHECKS=$((CHECKS + 1))
awk -F, 'NR == 2 && $1 == "a" && ($2 - 0.5493061443)^2 < 1e-12 && ($3 - 0.5773502692)^2 < 1e-8 && $4 == 1 { ok++ }
         NR == 3 && $1 == "b" && ($2 + 0.5493061443)^2 < 1e-12 && $4 == 2 { ok++ }
         END { exit ok == 2 ? 0 : 1 }' out.txt || fail "two items: $(cat out.txt)"

# Words, ties and a worker column named annotator; the same ranking from ids.
printf 'annotator,item_a,item_b,winner\nu1,x,y,left\nu2,y,z,first\nu1,z,x,right\nu2,x,z,tie\nu3,x,y,LEFT\n' >words.csv
run 0 "$CS" rank $T1 --method crowd-bt -o ranking.csv -w workers.csv words.csv
CHECKS=$((CHECKS + 1))
[ "$(cut -d, -f1 ranking.csv | tr '\n' ' ')" = "item x y z " ] || fail "words: $(cat ranking.csv)"
contains workers.csv "worker,reliability,agreement,answers"
contains workers.csv "u3,"
contains err.txt "tie answers were ignored"

# Toloka's side-by-side export: the REJECTED assignment (p2 over p3) is skipped.
printf 'INPUT:image_left\tINPUT:image_right\tOUTPUT:result\tGOLDEN:result\tASSIGNMENT:worker_id\tASSIGNMENT:status\n' >sbs.tsv
printf 'p1\tp2\tleft\t\tw1\tAPPROVED\np2\tp3\tright\t\tw2\tREJECTED\np3\tp1\tleft\t\tw2\tSUBMITTED\n' >>sbs.tsv
run 0 "$CS" rank $T1 sbs.tsv
CHECKS=$((CHECKS + 1))
[ "$(cut -d, -f1 out.txt | tr '\n' ' ')" = "item p3 p1 p2 " ] || fail "Toloka: $(cat out.txt)"

# --truth: one JSON line per method; a consistent order scores 1.
printf 'item score\na 2\nb 1\n' >truth.txt
run 0 "$CS" rank $T1 --method all --truth truth.txt two.csv
CHECKS=$((CHECKS + 1))
[ "$(grep -c '"spearman":1.000000,"kendall":1.000000,"pair_accuracy":1.000000' out.txt)" = 3 ] ||
    fail "truth: $(cat out.txt)"
printf 'item,rank\na,2\nb,1\n' >ranks.csv
run 0 "$CS" rank $T1 --truth ranks.csv two.csv
contains out.txt '"kendall":-1.000000'

# --report: a self-contained page with the interval chart and the worker table.
run 0 "$CS" rank $T1 --method noisy-bt --report page.html words.csv
contains page.html 'id="ranking-intervals"'
contains page.html 'id="worker-table"'
lacks page.html '<script'

# rank starts without OpenBLAS's thread pool (each idle pool thread spins for about
# 0.1 CPU s, a third of a 10^6-comparison bt): while rank waits to open its input (a
# FIFO nobody writes yet), OpenBLAS has been initialised and the process must have one
# thread. Linux only (/proc); the user's own OPENBLAS_NUM_THREADS is removed.
if [ -d /proc/self/task ] && command -v mkfifo >/dev/null; then
    rm -f wait.fifo && mkfifo wait.fifo
    env -u OPENBLAS_NUM_THREADS -u GOTO_NUM_THREADS "$CS" rank $T1 -o fifo_out.csv wait.fifo 2>fifo_err.txt &
    pid=$!
    sleep 1
    threads=$(ls "/proc/$pid/task" 2>/dev/null | wc -l)
    cat two.csv >wait.fifo
    wait "$pid"
    check "rank waits for its input with one thread, found $threads" test "$threads" -eq 1
    contains fifo_out.csv "item,score,se,rank"
fi

# Errors: usage (1), input (2), fit (3).
run 1 "$CS" rank --method all two.csv && stderr_is 'needs --truth'
run 1 "$CS" rank --method ds two.csv && stderr_is 'rank: method .ds. does not apply here'
run 1 "$CS" rank --prior -1 two.csv
printf 'worker,left,right,winner\nw,a,b,maybe\n' >bad.csv
run 2 "$CS" rank bad.csv && stderr_is "bad\.csv:2: the winner 'maybe' is neither item"
printf 'judge,first,winner\nj,a,a\n' >nocol.csv
run 2 "$CS" rank nocol.csv && stderr_is 'no right item column'
printf 'worker,left,right,label\nw,a,b,a\nw,c,d,c\n' >split.csv
run 3 "$CS" rank --prior 0 split.csv && stderr_is 'CS_ERR_NOT_CONNECTED'
finish
