#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Outputs are atomic: on every failure (bad input, fit error, SIGINT, SIGTERM, Ctrl-C
# while waiting for standard input) existing output files keep their old contents
# and no temporary file is left; on success both files are replaced together.
. "$(dirname "$0")/lib.sh"

"$CS" simulate --items 3000 --workers 60 --seed 2 --labels big.txt --quiet || { fail "simulate"; finish; }
reset_outputs() {
    printf 'old items\n' >items.csv
    printf 'old workers\n' >workers.csv
}
unchanged() {  # unchanged WHAT
    CHECKS=$((CHECKS + 1))
    if [ "$(cat items.csv)" != "old items" ] || [ "$(cat workers.csv)" != "old workers" ]; then
        fail "$1: an existing output file was changed"
    fi
    no_temporaries
}

reset_outputs
printf 'a w1 x\nb w2 y\nc w3\n' >malformed.txt
run 2 "$CS" fit -o items.csv --workers workers.csv malformed.txt
unchanged "malformed input"

printf 'a w1 x\nb w1 y\na w1 y\n' >duplicate.txt
run 3 "$CS" fit -o items.csv --workers workers.csv duplicate.txt
unchanged "fit error"

run 1 "$CS" fit -o items.csv --workers workers.csv --tol -1 big.txt
unchanged "usage error"

# A fit that would run for hours (--tol 0, huge --max-iter), stopped by a signal. The
# signal comes after 3 s, so that even on a loaded machine it arrives during the fit
# (the handlers are installed once the command starts).
long_fit="fit $T1 --method ds --tol 0 --max-iter 10000000 -o items.csv --workers workers.csv big.txt"
run 130 timeout --preserve-status -s INT 3 "$CS" $long_fit &&
    stderr_is '^crowdspec: interrupted by SIGINT; no output file was written or changed$'
unchanged "SIGINT during the fit"
run 143 timeout --preserve-status -s TERM 3 "$CS" $long_fit &&
    stderr_is '^crowdspec: interrupted by SIGTERM; no output file was written or changed$'
unchanged "SIGTERM during the fit"
run 130 timeout --preserve-status -s INT 3 "$CS" report $T1 --method ds --tol 0 --max-iter 10000000 -o items.csv big.txt
unchanged "SIGINT during report"

# Ctrl-C while the program waits for standard input (the read returns EINTR).
sleep 3 | run 130 timeout --preserve-status -s INT 1 "$CS" fit -o items.csv --workers workers.csv -
unchanged "SIGINT while reading standard input"

# Success replaces both files.
run 0 "$CS" fit $T1 -o items.csv --workers workers.csv big.txt
contains items.csv "item,label,confidence,p_1,p_2,p_3"
contains workers.csv "worker,labels,accuracy,pi_1_1"
check "3000 items written" test "$(wc -l <items.csv)" -eq 3001
no_temporaries

# A symbolic link is followed: the file it points to is replaced, the link and the
# file's permissions stay.
printf 'old\n' >real.csv
chmod 640 real.csv
ln -s real.csv link.csv
run 0 "$CS" fit --method mv -o link.csv duplicate.txt --duplicates first
check "the link is still a link" test -L link.csv
contains real.csv "item,label,confidence"
check "permissions kept (640)" test "$(stat -c %a real.csv)" = 640
# Not a regular file (here a FIFO; the same path serves /dev/null and terminals): it
# is written directly, never replaced by a renamed file.
if mkfifo fifo.csv 2>/dev/null; then
    cat fifo.csv >from_fifo.txt &
    reader=$!
    run 0 "$CS" fit --method mv -o fifo.csv duplicate.txt --duplicates first
    wait "$reader"
    check "the FIFO is still a FIFO" test -p fifo.csv
    contains from_fifo.txt "item,label,confidence"
fi
mkdir outdir
run 4 "$CS" fit --method mv -o outdir duplicate.txt --duplicates first &&
    stderr_is '^crowdspec: outdir: cannot write the output: it is a directory$'
# A file made read-only is not replaced, as cp without -f leaves it (issue 40, R6):
# exit 4, one line, the file unchanged -- also for root, who could write it. Through a
# link too, and for the workers file of the same command.
printf 'keep me\n' >protected.csv
chmod 444 protected.csv
run 4 "$CS" fit --method mv -o protected.csv duplicate.txt --duplicates first &&
    stderr_is '^crowdspec: protected.csv: cannot replace the output: the file is write-protected \(make it writable or remove it first\)$'
check "the write-protected file is unchanged" test "$(cat protected.csv)" = "keep me"
check "its permissions are unchanged (444)" test "$(stat -c %a protected.csv)" = 444
ln -s protected.csv protected_link.csv
run 4 "$CS" fit --method mv -o protected_link.csv duplicate.txt --duplicates first
check "the write-protected file behind a link is unchanged" test "$(cat protected.csv)" = "keep me"
reset_outputs
run 4 "$CS" fit --method mv -o items.csv --workers protected.csv duplicate.txt --duplicates first
unchanged "a write-protected workers file"
chmod 644 protected.csv
run 0 "$CS" fit --method mv -o protected.csv duplicate.txt --duplicates first
contains protected.csv "item,label,confidence"
rm -f protected.csv protected_link.csv
no_temporaries

# SIGKILL during a write leaves FILE.tmp.<pid>; the next run writing FILE removes the
# ones whose process is gone (issue 40, F13), and nothing else: not a live process's,
# not another output's, not a name that only looks like ours.
( exec sleep 60 ) &
alive=$!
sh -c 'exit 0' &
dead=$!
wait "$dead"
printf 'partial\n' >"items.csv.tmp.$dead"
printf 'live\n' >"items.csv.tmp.$alive"
printf 'other\n' >"other.csv.tmp.$dead"
printf 'not ours\n' >"items.csv.tmp.${dead}x"
run 0 "$CS" fit --method mv -o items.csv duplicate.txt --duplicates first
check "a dead run's temporary file is removed" test ! -e "items.csv.tmp.$dead"
check "a live process's temporary file is kept" test -e "items.csv.tmp.$alive"
check "another output's temporary file is kept" test -e "other.csv.tmp.$dead"
check "a name that is not ours is kept" test -e "items.csv.tmp.${dead}x"
kill "$alive" 2>/dev/null
wait "$alive" 2>/dev/null
rm -f "items.csv.tmp.$alive" "other.csv.tmp.$dead" "items.csv.tmp.${dead}x"
# SIGKILL cannot be handled: the temporary files must not exist before the command
# writes, so one killed while it waits for its input leaves nothing behind (issue 12,
# item 13). A FIFO nobody writes to keeps it waiting.
if mkfifo never.csv 2>/dev/null; then
    for command in "fit -o items.csv --workers workers.csv" "report -o items.csv"; do
        reset_outputs
        "$CS" $command never.csv >/dev/null 2>&1 &
        pid=$!
        sleep 1
        CHECKS=$((CHECKS + 1))
        left=$(find . -name '*.tmp.*' | head -3)
        [ -z "$left" ] || fail "$command: temporary files exist while it waits for its input: $left"
        kill -KILL "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        unchanged "SIGKILL while '$command' waits for its input"
    done
    rm -f never.csv
fi
no_temporaries
finish
