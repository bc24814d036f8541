#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The program under an address-space limit (ulimit -v; issue 40). OpenBLAS starts a
# thread pool as it loads, and under the limit its threads cannot get their 128 MB
# buffers and retry forever; exit() then waited for them, so `crowdspec --version`
# and a finished fit never returned (R1). And a declared k far above the labels asks
# for more memory than the limit allows: refused at once with the figure (R3), not
# after minutes of allocation. Every command runs under `timeout`, so a hang is a
# failure (exit 124 or 137), never a stuck test.
. "$(dirname "$0")/lib.sh"

# Sanitizer builds reserve terabytes of shadow memory: no address-space limit fits.
if ldd "$CS" 2>/dev/null | grep -qE 'lib(a|t|ub)san'; then skip "a sanitizer build cannot run under ulimit -v"; fi

printf 'a,u,x\na,v,y\nb,u,y\nb,v,y\n' >tiny.csv
limited() {  # limited KB COMMAND...: the command under ulimit -v KB, killed after 60 s
    local kb=$1
    shift
    (ulimit -v "$kb" && exec timeout -s KILL 60 "$@")
}

run 0 limited 150000 "$CS" --version && contains out.txt "crowdspec "
run 0 limited 150000 "$CS" fit --method mv -o o.csv tiny.csv &&
    contains o.csv "b,y,1,0,1"
# The issue's exact form: the result on standard output, redirected.
limited 150000 "$CS" fit --method mv tiny.csv >stdout.csv 2>err.txt
check "fit --method mv to stdout exits 0 under ulimit -v 150000 (got $?)" test "$?" -eq 0
contains stdout.csv "a,x,0.5,0.5,0.5"
run 0 limited 150000 "$CS" fit --method ds tiny.csv
# A thread count the user chose is kept: the pool starts and cannot get its buffers,
# and the program still ends once its output is written.
run 0 env OPENBLAS_NUM_THREADS=2 bash -c "ulimit -v 150000 && exec timeout -s KILL 60 '$CS' fit --method mv tiny.csv" &&
    contains out.txt "b,y,1,0,1"
no_temporaries

# 50 workers, 10^4 classes: ds would keep 5 tables of 50 x 10^8 doubles (200 GB).
# Refused before anything is allocated, with the figure and the fit's exit code.
: >big_k.csv
for w in $(seq 1 50); do printf 'i%d,w%d,%d\n' "$w" "$w" "$w" >>big_k.csv; done
run 3 limited 2000000 "$CS" fit $T1 --method ds --classes 10000 big_k.csv &&
    stderr_is '^crowdspec: ds: out of memory: ds needs about 200 GB: 50 workers x 10000\^2 confusion entries x 5 tables .*\[CS_ERR_OUT_OF_MEMORY\]$'
contains err.txt "this process can allocate about"
# mv keeps three such tables (120 GB): refused the same way.
run 3 limited 2000000 "$CS" fit $T1 --method mv --classes 10000 big_k.csv &&
    contains err.txt "mv needs about 120 GB: 50 workers x 10000^2 confusion entries x 3 tables"
# An out-of-memory after the library's fit -- copying its 540 MB of confusion
# matrices into the program -- is the fit's out-of-memory: exit 3 with the status, not
# an input error (exit 2, "crowdspec: out of memory" before; issue 40, R4). Under 1 GB
# either the library refuses first or the copy fails: both are exit 3.
: >copy.csv
for w in $(seq 1 30); do printf 'i%d,w%d,%d\n' "$w" "$w" "$(( (w % 3) + 1 ))" >>copy.csv; done
run 3 limited 1000000 "$CS" fit $T1 --method wawa --classes 1500 copy.csv &&
    stderr_is '^crowdspec: .*out of memory.*\[CS_ERR_OUT_OF_MEMORY\]$'
no_temporaries
finish
