#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The parallel reader (tools/parallel_reader.hpp) against the serial one: the same
# files read by one thread in one chunk, and by 2 or 3 threads in chunks of a few
# bytes (CROWDSPEC_PARSE_CHUNK), so that chunk boundaries fall on every byte: inside
# quoted fields holding line breaks and "" escapes, between the CR and LF of CRLF
# lines, in a BOM, on blank lines; a file smaller than a chunk; a pipe read in small
# windows. Outputs, notes, error messages and exit codes must be byte-identical, and
# the ids, lines and errors are also checked against values known by construction.
. "$(dirname "$0")/lib.sh"

# serial NAME ARGS... / parallel NAME THREADS CHUNK ARGS...: run `crowdspec ARGS`,
# keeping stdout, stderr and the exit code in NAME.out/.err/.rc.
serial() {
    local name=$1
    shift
    CROWDSPEC_PARSE_THREADS=1 CROWDSPEC_PARSE_CHUNK=1000000000 "$CS" "$@" >"$name.out" 2>"$name.err"
    echo $? >"$name.rc"
}
parallel() {
    local name=$1 threads=$2 chunk=$3
    shift 3
    CROWDSPEC_PARSE_THREADS=$threads CROWDSPEC_PARSE_CHUNK=$chunk "$CS" "$@" >"$name.out" 2>"$name.err"
    echo $? >"$name.rc"
}
# agree REF NAME: the two runs gave the same stdout, stderr and exit code (evaluate's
# "seconds", the time of the fit, aside).
agree() {
    CHECKS=$((CHECKS + 1))
    sed -i -E 's/"seconds":[0-9][0-9.e+-]*/"seconds":T/' "$1.out" "$2.out"
    if ! cmp -s "$1.out" "$2.out" || ! cmp -s "$1.err" "$2.err" || ! cmp -s "$1.rc" "$2.rc"; then
        fail "$2 differs from the serial read $1"
        diff "$1.err" "$2.err" | head -4 >&2
        diff "$1.out" "$2.out" | head -4 >&2
    fi
}
# sweep NAME MODE ARGS...: the serial read, then 2 and 3 threads with chunks of 1 to 41
# bytes and 64 KB. MODE file: ARGS as they are; MODE pipe: the last argument is piped
# in as "-" (standard input, read in windows of whole records).
sweep() {
    local name=$1 mode=$2
    shift 2
    local args=("$@") file=""
    if [ "$mode" = pipe ]; then
        file=${args[-1]}
        args[-1]=-
        CROWDSPEC_PARSE_THREADS=1 CROWDSPEC_PARSE_CHUNK=1000000000 "$CS" "${args[@]}" <"$file" \
            >"$name.ref.out" 2>"$name.ref.err"
        echo $? >"$name.ref.rc"
    else
        serial "$name.ref" "${args[@]}"
    fi
    local t c
    for t in 2 3; do
        for c in 1 2 3 5 8 13 23 41 65536; do
            if [ "$mode" = pipe ]; then
                cat "$file" | CROWDSPEC_PARSE_THREADS=$t CROWDSPEC_PARSE_CHUNK=$c "$CS" "${args[@]}" \
                    >"$name.$t.$c.out" 2>"$name.$t.$c.err"
                echo $? >"$name.$t.$c.rc"
            else
                parallel "$name.$t.$c" "$t" "$c" "${args[@]}"
            fi
            agree "$name.ref" "$name.$t.$c"
        done
    done
}

# 1. Quoted fields with line breaks and "" escapes, CRLF, a BOM, blank lines.
printf '\357\273\277task,worker,label\r\n' >quoted.csv
printf '"a\r\nb",w1,yes\r\n' >>quoted.csv
printf '"a\r\nb","w""2",no\r\n' >>quoted.csv
printf '\r\n' >>quoted.csv
printf 'c,w1,no\r\n' >>quoted.csv
printf '"line1\nline2\nline3 ""q""",w1,yes\n' >>quoted.csv
printf '"line1\nline2\nline3 ""q""","w""2",yes\n' >>quoted.csv
printf '\n\n' >>quoted.csv
printf 'c,"w""2",no\n' >>quoted.csv
printf '" spaced ",w3,yes\n' >>quoted.csv
printf 'c,w3,"no"\n' >>quoted.csv
run 0 "$CS" fit $T1 --method mv quoted.csv
# Items in order of first appearance, with their line breaks and quotes intact.
check "first-appearance order of string ids" test "$(cut -d, -f1 out.txt | tr -d '\r' | head -2 | tail -1)" = '"a'
contains out.txt '"line1'
contains out.txt 'line3 ""q"""'
contains out.txt '" spaced "'
check "4 items" test "$(grep -c ',' out.txt)" -ge 5
sweep quoted file fit --method mv quoted.csv
sweep quoted_w file fit --method mv -o items.csv --workers /dev/stdout quoted.csv
sweep quoted_pipe pipe fit --method mv --input-format csv quoted.csv

# 2. Whitespace and TSV files, integer ids (ranked by value) and mixed ids.
"$CS" simulate --items 400 --workers 25 --labels-per-item 3 --seed 3 --labels sim.txt --truth truth.txt --quiet ||
    fail "simulate"
sweep ws file fit --method mv sim.txt
sweep ws_pipe pipe fit --method mv sim.txt
awk 'BEGIN { print "item\tworker\tlabel" } { print "i" ($1 % 7 == 0 ? "0" $1 : $1) "\t" $2 "\t" $3 }' sim.txt >mixed.tsv
sweep tsv file fit --method mv mixed.tsv
awk '{ print ($1 % 5 == 0 ? "0" $1 : $1), $2, $3 }' sim.txt >leading_zero.txt
sweep zeros file fit --method mv leading_zero.txt
sweep evaluate file evaluate --method mv --truth truth.txt sim.txt
CROWDSPEC_PARSE_THREADS=1 "$CS" evaluate --method mv --truth - sim.txt <truth.txt >tp.ref.out 2>tp.ref.err
echo $? >tp.ref.rc
CROWDSPEC_PARSE_THREADS=2 CROWDSPEC_PARSE_CHUNK=5 "$CS" evaluate --method mv --truth - sim.txt <truth.txt \
    >tp.2.out 2>tp.2.err
echo $? >tp.2.rc
agree tp.ref tp.2
contains tp.ref.out '"scored":400'

# 3. A file much smaller than a chunk: the default chunk, any thread count.
printf 'x y 1\nx z 2\nq y 2\n' >tiny.txt
serial tiny.ref fit --method mv tiny.txt
for t in 1 2 4; do
    CROWDSPEC_PARSE_THREADS=$t "$CS" fit --method mv tiny.txt >tiny.$t.out 2>tiny.$t.err
    echo $? >tiny.$t.rc
    agree tiny.ref tiny.$t
done
contains tiny.ref.out "x,"
check "tiny: x is the first item" test "$(sed -n 2p tiny.ref.out | cut -d, -f1)" = x

# 4. Errors: the line of the first problem, after multi-line records, whatever the chunks.
{
    printf 'task,worker,label\n'
    for i in 1 2 3; do printf '"multi\nline %d",w%d,a\n' "$i" "$i"; done  # lines 2-7
    printf 'ok,w1,b\n'                                                     # line 8
    printf 'bad,w2\n'                                                      # line 9
    printf 'also,bad\n'                                                    # line 10
} >error.csv
run 2 "$CS" fit $T1 error.csv && stderr_is '^crowdspec: error\.csv:9: expected 3 fields'
sweep error file fit error.csv
printf 'i1 w1 a\ni2 w1 b\n\n"i\n3" w2 a\ni1 w1 b\n' >dup.txt  # the repeat is on line 6, the first on 1
run 3 "$CS" fit $T1 --method ds dup.txt && stderr_is "dup\.txt:6: worker 'w1' labels item 'i1' again \(first on line 1\)"
sweep dup file fit --method ds dup.txt
printf 'a,w,"unterminated\nb,w,1\n' >unterminated.csv
sweep unterminated file fit unterminated.csv
sweep unterminated_pipe pipe fit --input-format csv unterminated.csv
printf 'a,w,1\nb,w,"x"y\n' >after_quote.csv
run 2 "$CS" fit $T1 after_quote.csv && stderr_is '^crowdspec: after_quote\.csv:2: unexpected text after the closing quote'
sweep after_quote file fit after_quote.csv

# 5. A longer pipe, read in windows of about a kilobyte: records with quoted line
# breaks straddle the window ends; the answer equals reading the file.
awk 'BEGIN { print "task,worker,label" }
     { if (NR % 9 == 0) printf "\"t%s\n(part 2) \"\"x\"\"\",%s,%s\n", $1, $2, $3; else print "t" $1 "," $2 "," $3 }' \
    sim.txt >long.csv
serial long.ref fit --method mv long.csv
for c in 3 50 200; do
    CROWDSPEC_PARSE_THREADS=2 CROWDSPEC_PARSE_CHUNK=$c "$CS" fit --method mv - <long.csv >long.$c.out 2>long.$c.err
    echo $? >long.$c.rc
    agree long.ref long.$c
done

# 6. An in-file gold column (read serially) and a rejected-status column.
{
    printf 'INPUT:image\tOUTPUT:result\tGOLDEN:result\tASSIGNMENT:worker_id\tASSIGNMENT:status\n'
    awk '{ printf "img%s\t%s\t%s\tw%s\t%s\n", $1, $3, ($1 % 4 == 0 ? $3 : ""), $2, (NR % 11 == 0 ? "REJECTED" : "APPROVED") }' sim.txt
} >toloka.tsv
sweep toloka file fit --method mv toloka.tsv

finish
