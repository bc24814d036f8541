#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The parallel reader (tools/io/parallel_reader.hpp) against the serial one: the same
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

# 7. The fast path for plain lines (RecordReader::next_plain) against what the mapping
# rules say, and lines it hands to the general parser. items FILE: the item column of
# `fit --method mv` (the ids in index order), one line.
items() { "$CS" fit $T1 --method mv "$@" 2>err.txt | tail -n +2 | cut -d, -f1 | tr '\n' ' '; }
# "07", "7" and "+7" are three ids, all the integer 7: ranked by value, then by bytes.
printf '07 w1 a\n7 w1 b\n+7 w2 a\n7 w2 a\n' >signs.txt
check "leading zero and + are other ids" test "$(items signs.txt)" = "+7 07 7 "
# 2^24 and beyond are no longer looked up by value, but still integers (ranked).
printf '16777216 w1 a\n99999999 w1 a\n16777215 w1 b\n5 w1 a\n16777216 w2 b\n' >big.txt
check "ids around 2^24 ranked by value" test "$(items big.txt)" = "5 16777215 16777216 99999999 "
# An id beyond int64 is no integer: order of first appearance for every item.
printf '3 w1 a\n99999999999999999999 w1 a\n1 w1 b\n3 w2 b\n' >overflow.txt
check "an int64 overflow is a string id" test "$(items overflow.txt)" = "3 99999999999999999999 1 "
# BOM, CRLF, blanks around CSV fields (trimmed), a last line without a line break.
printf '\357\273\277task,worker,label\r\n b , w1 ,x\r\n\r\na,w1,y\r\nb,w2, y \r\nc,w2,x' >crlf.csv
check "BOM, CRLF, trimmed fields, no final line break" test "$(items crlf.csv)" = "b a c "
run 0 "$CS" fit $T1 --method mv crlf.csv && check "crlf: classes x and y" grep -q '^item,label,confidence,p_x,p_y$' out.txt
printf 'b\tw1\tx\r\nc\tw1\ty\r\n' >crlf.tsv
check "TSV with CRLF" test "$(items --input-format tsv crlf.tsv)" = "b c "
# Blanks of every kind between whitespace fields; a control character inside a field.
printf 'p\tw1 \v a\f\nq\001r  w1\ta \r\np w2 b' >blanks.txt
run 0 "$CS" fit $T1 --method mv blanks.txt
check "blanks: items p and q<01>r" test "$(tail -n +2 out.txt | cut -d, -f1 | od -An -c | tr -s ' ' | tr -d '\n')" \
    = " p \n q 001 r \n"
check "blanks: classes a and b" grep -q '^item,label,confidence,p_a,p_b$' out.txt
# Quoted fields (the general parser), a quote inside an unquoted field (literal), and
# plain lines around them.
printf 'task,worker,label\nx,w1,a\n"y,z",w1,b\nd"e,w2,a\nx,w2,"b"\n' >quotes.csv
run 0 "$CS" fit $T1 --method mv quotes.csv
check "quotes: item ids" test "$(tail -n +2 out.txt | cut -c1-5 | tr '\n' '|')" = 'x,a,0|"y,z"|"d""e|'
printf 'i1 w1 a\n"i 2" w1 b\ni1 w2 "a"\n' >quotes.txt
check "whitespace quotes" test "$(items quotes.txt)" = 'i1 i 2 '
# Field counts and empty fields: the general parser's messages and lines.
printf 'a w1 x\nb w1 y\nc w1 x extra\n' >count.txt
run 2 "$CS" fit $T1 count.txt &&
    stderr_is '^crowdspec: count\.txt:3: expected 3 fields \(item worker label\), found 4; a field with blanks must be "quoted"$'
printf 'task,worker,label\na,w1,x\nb,,y\n' >empty.csv
run 2 "$CS" fit $T1 empty.csv && stderr_is '^crowdspec: empty\.csv:3: empty worker id \(expected a value in column 2\)$'
# A line longer than the fast path's 64 KB block.
awk 'BEGIN { s = "L"; while (length(s) < 70000) s = s s; print "short w1 a"; print s " w1 b"; print "short w2 b" }' \
    >long_line.txt
check "a 128 KB id" test "$("$CS" fit $T1 --method mv long_line.txt | tail -n +2 | cut -d, -f1 | awk '{ print length($0) }' | tr '\n' ' ')" = "5 131072 "
for f in signs.txt big.txt overflow.txt crlf.csv blanks.txt quotes.csv quotes.txt count.txt empty.csv long_line.txt; do
    sweep "plain_$f" file fit --method mv "$f"
done
sweep plain_pipe pipe fit --method mv --input-format csv crlf.csv

# 8. fit reads a file whose items come in index order as labels grouped by item and
# fits them through cs_fit_csr; any other file as triples through cs_fit. The two
# give the same CrowdData when each item's labels keep their order, so a crowd in item
# order and the same crowd with its items' blocks in reverse order (each block as it
# was) must give byte-identical items and workers files, one by each path
# (CROWDSPEC_PHASES names the path taken).
"$CS" simulate --items 3000 --workers 60 --labels-per-item 4 --classes 3 --seed 5 --labels grouped.txt 2>/dev/null
awk '{ if ($1 != last) { n++; last = $1 } block[n] = block[n] $0 "\n" } END { for (i = n; i >= 1; i--) printf "%s", block[i] }' \
    grouped.txt >blocks_reversed.txt
check "reversed blocks: same lines" test "$(sort grouped.txt | md5sum)" = "$(sort blocks_reversed.txt | md5sum)"
for m in ds opt-ds mv; do
    CROWDSPEC_PHASES=1 "$CS" fit $T1 -m $m grouped.txt -o g_items.csv -w g_workers.csv 2>g.err
    CROWDSPEC_PHASES=1 "$CS" fit $T1 -m $m blocks_reversed.txt -o r_items.csv -w r_workers.csv 2>r.err
    check "$m: the item-order file is read grouped" grep -q 'phase fit read .*labels grouped by item' g.err
    check "$m: the grouped table goes to cs_fit_csr" grep -q 'phase fit setup .*cs_fit_csr' g.err
    check "$m: the reversed file is read as triples" grep -q 'phase fit read .*triples' r.err
    check "$m: grouped and triples give the same items" cmp -s g_items.csv r_items.csv
    check "$m: grouped and triples give the same workers" cmp -s g_workers.csv r_workers.csv
done
check "3000 items written" test "$(wc -l <g_items.csv)" = 3001
# Labels per worker from the codes: the counts of the file itself.
check "labels per worker" test "$(tail -n +2 g_workers.csv | cut -d, -f1,2 | sort -t, -k1,1n | md5sum)" = \
    "$(awk '{ c[$2]++ } END { for (w in c) print w "," c[w] }' grouped.txt | sort -t, -k1,1n | md5sum)"
# Integer ids not in ascending order of first appearance are ranked by value: items
# 3, 1, 2 in this order are not in index order (triples); 1, 2, 3 are (grouped).
printf '3 w1 a\n3 w2 b\n1 w1 a\n1 w2 a\n2 w1 b\n2 w2 b\n' >ranked.txt
CROWDSPEC_PHASES=1 "$CS" fit $T1 -m mv ranked.txt -o ranked.csv 2>ranked.err
check "ids 3, 1, 2: triples" grep -q 'phase fit read .*triples' ranked.err
check "ids 3, 1, 2: items by value" test "$(tail -n +2 ranked.csv | cut -d, -f1 | tr '\n' ' ')" = "1 2 3 "
# Canonical integer ids far apart within one chunk: the parse threads look the ones
# near the chunk's first id up by value, the others by hash; the ids and votes are
# the file's whatever the chunks.
printf '5 1 a\n900000 1 b\n5 2 a\n900000 2 b\n300000 1 a\n7000000 2 b\n5 3 b\n' >spread.txt
run 0 "$CS" fit $T1 -m mv spread.txt
check "spread ids: by value, with their votes" test "$(tail -n +2 out.txt | cut -d, -f1,2 | tr '\n' ' ')" = \
    "5,a 300000,a 900000,b 7000000,b "
sweep spread file fit $T1 --method mv spread.txt
# An item whose labels come in two runs is not in index order.
printf 'a w1 x\na w2 y\nb w1 x\na w3 x\n' >two_runs.txt
CROWDSPEC_PHASES=1 "$CS" fit $T1 -m mv two_runs.txt -o two_runs.csv 2>two_runs.err
check "two runs of one item: triples" grep -q 'phase fit read .*triples' two_runs.err
# A duplicate in a grouped file: the lines of both labels (a blank line and quoted
# fields with a line break before them), whatever the chunks; --duplicates first and
# last fit it, equal to the triples path on its reversed blocks (integer ids: the same
# indices either way).
printf '1 1 a\n\n2 1 "b\nc"\n2 2 a\n3 2 "b\nc"\n3 1 a\n3 2 a\n' >dup_grouped.txt  # repeat on line 9, first on 6
CROWDSPEC_PHASES=1 "$CS" fit $T1 -m ds dup_grouped.txt -o dup.csv 2>dup.err
check "duplicate file read grouped" grep -q 'phase fit read .*labels grouped by item' dup.err
run 3 "$CS" fit $T1 -m ds dup_grouped.txt &&
    stderr_is "^crowdspec: dup_grouped\.txt:9: worker '2' labels item '3' again \(first on line 6\); use --duplicates first or --duplicates last to keep one$"
sweep dup_grouped file fit $T1 --method ds dup_grouped.txt
printf '3 2 "b\nc"\n3 1 a\n3 2 a\n2 1 "b\nc"\n2 2 a\n1 1 a\n' >dup_reversed.txt
CROWDSPEC_PHASES=1 "$CS" fit $T1 -m ds --duplicates first dup_reversed.txt -o dr.csv 2>dup.err
check "reversed duplicate file read as triples" grep -q 'phase fit read .*triples' dup.err
for d in first last; do
    "$CS" fit $T1 -q -m ds --duplicates $d dup_grouped.txt -o dg.csv -w dgw.csv
    "$CS" fit $T1 -q -m ds --duplicates $d dup_reversed.txt -o dr.csv -w drw.csv
    check "--duplicates $d: grouped = triples" cmp -s dg.csv dr.csv
    check "--duplicates $d: grouped = triples (workers)" cmp -s dgw.csv drw.csv
done
# One class only: the library's message for k = 1 (cs_fit's, the file read as triples).
printf 'i1 w1 a\ni2 w1 a\n' >one_class.txt
run 3 "$CS" fit $T1 -m ds one_class.txt && stderr_is "the input's only label is 'a'"

# 9. Result files are formatted by a few threads ahead of the one writing them, in
# blocks of 8,192 rows: 40,000 items (5 blocks, more than are in flight at once) come
# out complete and in index order in every format.
"$CS" simulate --items 40000 --workers 30 --labels-per-item 2 --classes 2 --seed 3 --labels many.txt 2>/dev/null
"$CS" fit $T1 -q -m mv many.txt -o many.csv -w many_workers.csv
check "40000 rows in order" test "$(tail -n +2 many.csv | cut -d, -f1 | md5sum)" = "$(seq 1 40000 | md5sum)"
"$CS" fit $T1 -q -m mv many.txt -o many.jsonl
check "40000 JSON lines in order" test "$(cut -d, -f1 many.jsonl | md5sum)" = "$(seq 1 40000 | sed 's/.*/{"item":"&"/' | md5sum)"
"$CS" fit $T1 -q -m mv many.txt -o many.tsv
check "TSV = CSV" test "$(tr '\t' , <many.tsv | md5sum)" = "$(md5sum <many.csv)"

# 10. A grouped read keeps the items as runs and the labels as bytes while it can:
# a file far from item order gives way to the item array part way (runs of 1 label,
# 64 KB chunks), 300 classes to the label array; the majority vote (which does not
# depend on the order of the labels) must match the file in order.
awk '{ print (NR * 7919) % 80000, $0 }' many.txt | sort -n | cut -d' ' -f2- >shuffled.txt
check "shuffled: same lines" test "$(sort many.txt | md5sum)" = "$(sort shuffled.txt | md5sum)"
CROWDSPEC_PHASES=1 CROWDSPEC_PARSE_CHUNK=65536 "$CS" fit $T1 -m mv shuffled.txt -o shuffled.csv -w shuffled_workers.csv 2>shuffled.err
check "shuffled: triples" grep -q 'phase fit read .*triples' shuffled.err
check "shuffled: the items of the file in order" cmp -s shuffled.csv many.csv
check "shuffled: the workers of the file in order" cmp -s shuffled_workers.csv many_workers.csv
"$CS" simulate --items 2000 --workers 50 --labels-per-item 3 --classes 300 --seed 9 --labels wide.txt 2>/dev/null
awk '{ if ($1 != last) { n++; last = $1 } block[n] = block[n] $0 "\n" } END { for (i = n; i >= 1; i--) printf "%s", block[i] }' \
    wide.txt >wide_reversed.txt
for m in mv ds; do
    CROWDSPEC_PHASES=1 CROWDSPEC_PARSE_CHUNK=4096 "$CS" fit $T1 -m $m --max-iter 3 wide.txt -o wide.csv -w wide_w.csv 2>wide.err
    "$CS" fit $T1 -q -m $m --max-iter 3 wide_reversed.txt -o wide_r.csv -w wide_rw.csv
    check "300 classes ($m): grouped" grep -q 'phase fit read .*labels grouped by item' wide.err
    check "300 classes ($m): grouped = triples" cmp -s wide.csv wide_r.csv
    check "300 classes ($m): grouped = triples (workers)" cmp -s wide_w.csv wide_rw.csv
done

finish
