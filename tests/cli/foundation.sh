#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The foundation's command-line behaviour keeps working: fit/evaluate/demo/help
# usage errors and exit codes, evaluate's JSON keys, its tie-fractional majority-vote
# score on a hand-computed case, --tol 0 --max-iter N, and demo's determinism.
. "$(dirname "$0")/lib.sh"

printf '1 1 1\n1 2 2\n2 1 1\n2 2 1\n3 1 2\n3 2 2\n' >crowd.txt
printf '1 1\n2 1\n3 2\n' >truth.txt

# Top level.
run 1 "$CS" && stderr_is '^Usage: crowdspec COMMAND'
run 0 "$CS" --version && check "version line" grep -Eq '^crowdspec [0-9]+\.[0-9]+\.[0-9]+$' out.txt
run 0 "$CS" --help && for c in fit evaluate simulate report demo; do contains out.txt "  $c "; done
run 0 "$CS" help fit && cp out.txt help1.txt
run 0 "$CS" fit --help && same out.txt help1.txt
# The help names the library's default method (it said opt-ds after the default became auto).
check "fit --help names the default method" grep -q "inference method (default auto)" help1.txt
run 1 "$CS" help nope && stderr_is "^crowdspec: help: unknown command 'nope'"
run 1 "$CS" nope && stderr_is "^crowdspec: unknown command 'nope' \\(commands: fit, predict, update, evaluate, simulate, report, demo"
run 1 "$CS" --nope && stderr_is "^crowdspec: unknown option '--nope'"

# fit usage errors.
run 1 "$CS" fit && stderr_is '^crowdspec: fit: missing the input FILE'
run 1 "$CS" fit crowd.txt truth.txt && stderr_is '^crowdspec: fit: expected one input FILE, got 2$'
run 1 "$CS" fit --bogus crowd.txt && stderr_is "^crowdspec: fit: unknown option '--bogus'"
# The crowd methods in the library's order, as `fit --help` lists them (from the method
# registry); these fifteen come first, methods appended later follow them.
KNOWN="mv ds opt-ds crowd-lloyd kos kos-mp ghosh-svd eigen-ratio one-coin-ds class-one-coin-ds wawa zbs glad mace m-msr"
METHODS=$("$CS" fit --help | sed -n '/^Methods (--method NAME):$/,/^$/p' | awk 'NR > 1 && NF { printf "%s ", $1 }')
check "fit --help lists the known methods first" test "${METHODS#"$KNOWN "}" != "$METHODS"
run 1 "$CS" fit --method nope crowd.txt && stderr_is "^crowdspec: unknown method 'nope'; known methods: $(echo $METHODS | sed 's/ /, /g')$"
run 1 "$CS" fit --method all crowd.txt && stderr_is 'only for'
run 1 "$CS" fit --tol -1 crowd.txt && stderr_is "^crowdspec: --tol -1: "
run 1 "$CS" fit --classes 1 crowd.txt && stderr_is 'at least 2 classes'
run 1 "$CS" fit --classes a,a crowd.txt && stderr_is "class 'a' is listed twice"
run 1 "$CS" fit --param items=3 crowd.txt && stderr_is 'counted from the input file'
run 1 "$CS" fit --param oops crowd.txt && stderr_is "expected NAME=VALUE"
run 1 "$CS" fit crowd.txt --max-iter && stderr_is "^crowdspec: fit: option '--max-iter' needs a value"
run 0 "$CS" fit --duplicates first --method mv crowd.txt

# evaluate: JSON lines with the documented keys, one per method, in the library's order.
run 1 "$CS" evaluate crowd.txt && stderr_is '^crowdspec: evaluate: --truth TRUTHFILE is required \(crowd\.txt has no gold column'
run 1 "$CS" evaluate --truth - - <crowd.txt && stderr_is 'cannot both be standard input'
run 0 "$CS" evaluate $T1 --method all --truth truth.txt crowd.txt
check "one JSON line per method" test "$(wc -l <out.txt)" -eq "$(echo $METHODS | wc -w)"
check "methods in order" test "$(grep -o '"method":"[a-z-]*"' out.txt | sed 's/"method":"//; s/"$//' | tr '\n' ' ')" = "$METHODS"
CHECKS=$((CHECKS + 1))
while IFS= read -r line; do
    for key in method error_rate scored iterations converged seconds log_likelihood notes; do
        case $line in *"\"$key\":"*) ;; *) fail "key $key missing in: $line" ;; esac
    done
    case $line in '{'*'}') ;; *) fail "not one JSON object: $line" ;; esac
done <out.txt
check "only mv has error_rate_tie_fractional" test "$(grep -c error_rate_tie_fractional out.txt)" -eq 1
# Item 1 is a tie (1 vs 2) with truth 1: lowest-index ties score it right, the papers'
# fractional rule half right. Items 2 and 3 are clear. So 0 and (1 - 2.5/3) = 0.166667.
run 0 "$CS" evaluate --method mv --truth truth.txt crowd.txt
contains out.txt '"method":"mv","error_rate":0.000000,"error_rate_tie_fractional":0.166667,"scored":3,"iterations":0,"converged":true,'
run 0 "$CS" evaluate $T1 --method ds --tol 0 --max-iter 5 --truth truth.txt crowd.txt
contains out.txt '"iterations":5,"converged":false'
printf '1 1\n2 7\n9 1\n' >partial.txt
run 0 "$CS" evaluate --method mv --truth partial.txt crowd.txt
contains out.txt '"scored":2'
contains err.txt '1 of 3 truth items do not appear in crowd.txt'
contains err.txt "1 truth labels (e.g. '7') are not among the 2 classes"
run 0 "$CS" evaluate --quiet --method mv --truth partial.txt crowd.txt && check "--quiet: no notes" test ! -s err.txt

# demo: deterministic by seed (all but the seconds column), its options checked.
demo="demo --items 300 --workers 30 --threads 1 --seed 3"
run 0 "$CS" $demo && awk '{ $5 = "" } 1' out.txt >demo1.txt
run 0 "$CS" $demo && awk '{ $5 = "" } 1' out.txt >demo2.txt
same demo1.txt demo2.txt
contains out.txt "Simulated crowd (seed 3): 300 items, 3 classes, 30 workers"
for m in mv ds opt-ds; do check "demo row $m" grep -q "^$m " out.txt; done
run 1 "$CS" demo --items 0 && stderr_is "^crowdspec: --items '0': expected an integer in 1\\.\\."
run 1 "$CS" demo extra && stderr_is "unexpected argument 'extra'"
run 1 "$CS" demo --bogus && stderr_is "unknown option '--bogus'"
finish
