#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The progress line: shown on stderr when it is a terminal and the fit runs longer
# than a second (iteration, log-likelihood, elapsed); never in a pipe or file; not
# with --quiet; not for short fits. A pseudo-terminal comes from util-linux script(1).
. "$(dirname "$0")/lib.sh"

command -v script >/dev/null 2>&1 || skip "script (util-linux) is not installed: no pseudo-terminal"
script -qec true /dev/null >/dev/null 2>&1 || skip "script cannot allocate a pseudo-terminal here"

"$CS" simulate --items 3000 --workers 60 --seed 2 --labels big.txt --quiet || { fail "simulate"; finish; }
long_fit="$CS fit $T1 --method ds --tol 0 --max-iter 10000000 -o items.csv big.txt"

# In a terminal: the line appears, redrawn with \r, and the run stops cleanly on Ctrl-C
# (sent after 4 s: the line appears after a second of fitting, even on a loaded machine).
script -qec "timeout --preserve-status -s INT 4 $long_fit" /dev/null >tty.txt 2>&1
rc=$?
check "interrupted fit under a terminal exits 130 (got $rc)" test "$rc" -eq 130
CHECKS=$((CHECKS + 1))
grep -Eq 'crowdspec: ds: iteration [0-9]+, log-likelihood -[0-9]+\.[0-9]+, [0-9]+\.[0-9] s' tty.txt ||
    fail "no progress line on a terminal: $(head -c 300 tty.txt)"
CHECKS=$((CHECKS + 1))
grep -q "$(printf '\r')crowdspec: ds: iteration" tty.txt || fail "the progress line is not redrawn in place (\\r)"
contains tty.txt "interrupted by SIGINT"

# With --quiet: nothing but the error.
script -qec "timeout --preserve-status -s INT 3 $long_fit --quiet" /dev/null >quiet.txt 2>&1
lacks quiet.txt "iteration"

# In a pipe: nothing but the error line.
run 130 timeout --preserve-status -s INT 3 $long_fit
stderr_is '^crowdspec: interrupted by SIGINT'
lacks err.txt "iteration"

# A short fit under a terminal: no line (it would only flicker).
script -qec "$CS fit --method mv -o short.csv big.txt" /dev/null >short.txt 2>&1
lacks short.txt "iteration"
check "short fit wrote its output" test -s short.csv
finish
