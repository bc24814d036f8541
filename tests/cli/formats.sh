#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every input and output format path of `crowdspec fit`: the same labels as
# whitespace triples, CSV and TSV with headers (default column names, names chosen
# by option, numeric positions, prefixed names, extra columns, BOM, CRLF, quoted
# fields) and standard input give byte-identical outputs; quoting survives the round
# trip; classes are ordered by the documented rule; csv/tsv/json outputs.
. "$(dirname "$0")/lib.sh"

"$CS" simulate --items 300 --workers 30 --labels-per-item 4 --seed 5 --labels plain.txt --quiet ||
    { fail "simulate"; finish; }

# The same data, written in every format the reader accepts.
awk 'BEGIN { print "task,worker,label" } { print $1 "," $2 "," $3 }' plain.txt >header.csv
awk 'BEGIN { printf "\357\273\277Comment,Label,WORKER_ID,Task\r\n" }
     { printf "\"c, \"\"%d\"\"\",\"%s\", %s ,%s\r\n", NR, $3, $2, $1 }' plain.txt >bom_crlf_quoted.csv
awk 'BEGIN { print "item\tannotator\tanswer\textra" } { print $1 "\t" $2 "\t" $3 "\tx y" }' plain.txt >header.tsv
awk 'BEGIN { print "Question User Response" } { print $1, $2, $3 }' plain.txt >header.txt
awk 'BEGIN { print "a,b,c,d" } { print "z," $3 "," $1 "," $2 }' plain.txt >custom.csv
awk '{ print "z", $3, $1, $2 }' plain.txt >positional.txt
awk 'BEGIN { print "INPUT:image\tOUTPUT:result\tASSIGNMENT:worker_id\tASSIGNMENT:task_id" }
     { print "img" $1 ".png\t" $3 "\t" $2 "\t" $1 }' plain.txt >toloka.tsv
awk '{ printf "%s\t%s\t%s\r\n", $1, $2, $3 }' plain.txt >crlf_tabs.dat
awk '{ print $1 "," $2 "," $3 }' plain.txt >noheader.dat

run 0 "$CS" fit $T1 plain.txt && cp out.txt reference.csv
contains reference.csv "item,label,confidence,p_1,p_2,p_3"
check "reference output has 300 items" test "$(wc -l <reference.csv)" -eq 301

fit_same() {  # fit_same NAME FIT-ARGS...: output identical to the reference
    local name=$1
    shift
    if run 0 "$CS" fit $T1 "$@"; then
        CHECKS=$((CHECKS + 1))
        cmp -s out.txt reference.csv || { fail "$name: output differs from the whitespace input's"; diff out.txt reference.csv | head -3 >&2; }
    fi
}
fit_same "CSV with a header" header.csv
fit_same "CSV with BOM, CRLF, quotes, extra column, other order" bom_crlf_quoted.csv
fit_same "TSV with a header and an extra column" header.tsv
fit_same "whitespace with a header" header.txt
fit_same "columns by name" --item-col C --worker-col d --label-col b custom.csv
fit_same "columns by position without a header" --item-col 3 --worker-col 4 --label-col 2 positional.txt
# (A Toloka export: its own rules take INPUT:image as the item, tests/cli/exports.sh.)
fit_same "prefixed names, item by option" --item-col ASSIGNMENT:task_id toloka.tsv
fit_same "prefixed names, generic rules, label by option" --preset generic --label-col OUTPUT:result toloka.tsv
fit_same "headerless tabs with CRLF" crlf_tabs.dat
fit_same "forced CSV on an unknown extension" --input-format csv noheader.dat
fit_same "forced whitespace" --input-format whitespace plain.txt
fit_same "CSV on standard input" - <header.csv
fit_same "TSV on standard input" - <header.tsv
fit_same "whitespace on standard input" - <plain.txt
fit_same "--header yes with unknown names" --header yes --item-col 3 --worker-col 4 --label-col 2 custom.csv

# Fields with commas, quotes and line breaks survive to the output, quoted (RFC 4180).
printf 'task,worker,label\n"it,em 1",w1,"say ""hi""\nthere"\n"it,em 1",w2,plain\n' >special.csv
run 0 "$CS" fit --method mv special.csv
printf 'item,label,confidence,p_plain,"p_say ""hi""\nthere"\n"it,em 1",plain,0.5,0.5,0.5\n' >expected.csv
same out.txt expected.csv
run 0 "$CS" fit --method mv --format json-nested special.csv
printf '{"method":"mv","classes":["plain","say \\"hi\\"\\nthere"],"items":[\n{"item":"it,em 1","label":"plain","confidence":0.5,"posterior":{"plain":0.5,"say \\"hi\\"\\nthere":0.5}}\n]}\n' >expected.json
same out.txt expected.json
# JSON records: the CSV columns as keys, one object per item (jsonl: one per line).
run 0 "$CS" fit --method mv --format json special.csv
printf '[\n{"item":"it,em 1","label":"plain","confidence":0.5,"p_plain":0.5,"p_say \\"hi\\"\\nthere":0.5}\n]\n' >expected_records.json
same out.txt expected_records.json
run 0 "$CS" fit --method mv --format jsonl special.csv
printf '{"item":"it,em 1","label":"plain","confidence":0.5,"p_plain":0.5,"p_say \\"hi\\"\\nthere":0.5}\n' >expected.jsonl
same out.txt expected.jsonl
# A quoted field in the whitespace format, and the multi-line field's line count:
# the error on the last line must name line 5 (the record after the 2-line field).
printf 'item worker label\n"a b" w1 x\n"a b" w2 "y\nz"\nc w1\n' >quoted.txt
run 2 "$CS" fit quoted.txt
stderr_is '^crowdspec: quoted\.txt:5: expected 3 fields'

# Class order: numeric when every label is a number, else bytes; --classes fixes it.
printf '1 a 10\n1 b 9\n2 a 2\n2 b 2.5\n' >numeric.txt
run 0 "$CS" fit --method mv numeric.txt && contains out.txt "item,label,confidence,p_2,p_2.5,p_9,p_10"
printf '1 a b\n1 b B\n2 a a\n' >strings.txt
run 0 "$CS" fit --method mv strings.txt && contains out.txt "item,label,confidence,p_B,p_a,p_b"
run 0 "$CS" fit --method mv --classes b,a,B strings.txt && contains out.txt "item,label,confidence,p_b,p_a,p_B"
printf '1 a 1\n1 b 2\n' >two.txt
run 0 "$CS" fit --method mv --classes 3 two.txt && contains out.txt "item,label,confidence,p_1,p_2,p_3"
run 0 "$CS" fit --method mv --classes 0,1,2 two.txt && contains out.txt "p_0,p_1,p_2"

# UTF-8 ids and labels pass through unchanged (classes in byte order).
printf 'tâche,annotateur,réponse\nç1,José,café\nç1,Zoë,日本\nç2,José,café\n' >utf8.csv
run 0 "$CS" fit --method mv --header yes --item-col 1 --worker-col 2 --label-col 3 utf8.csv
printf 'item,label,confidence,p_café,p_日本\nç1,café,0.5,0.5,0.5\nç2,café,1,1,0\n' >expected_utf8.csv
same out.txt expected_utf8.csv

# Output formats: --format, by extension, TSV, JSON; to stdout and to files.
run 0 "$CS" fit --method mv --format tsv two.txt
printf 'item\tlabel\tconfidence\tp_1\tp_2\n1\t1\t0.5\t0.5\t0.5\n' >expected.tsv
same out.txt expected.tsv
run 0 "$CS" fit --method mv --output items.tsv two.txt && same items.tsv expected.tsv
run 0 "$CS" fit --method mv --output items.json two.txt && same items.json - <<'JSON'
[
{"item":"1","label":"1","confidence":0.5,"p_1":0.5,"p_2":0.5}
]
JSON
run 0 "$CS" fit --method mv --output items.jsonl two.txt && same items.jsonl - <<'JSON'
{"item":"1","label":"1","confidence":0.5,"p_1":0.5,"p_2":0.5}
JSON
run 0 "$CS" fit --method mv --output items.ndjson --format json-nested two.txt && contains items.ndjson '"items":['
run 0 "$CS" fit --method mv --output items.json --format csv two.txt && contains items.json "item,label,confidence"
run 0 "$CS" fit --method mv -o items.csv two.txt && contains items.csv "1,1,0.5,0.5,0.5"
check "nothing on stdout when --output is a file" test ! -s out.txt
if command -v python3 >/dev/null 2>&1; then
    run 0 "$CS" fit $T1 --format json-nested header.csv && check "JSON items parse" python3 -c 'import json,sys; d=json.load(open("out.txt")); assert len(d["items"])==300 and d["classes"]==["1","2","3"]'
    run 0 "$CS" fit $T1 -o x.csv --workers w.json --workers-format json-nested header.csv && check "JSON workers parse" python3 -c 'import json; d=json.load(open("w.json")); assert len(d["workers"])==30 and len(d["workers"][0]["confusion"])==3'
fi
# Ids and labels that end in \v or \f (blanks the reader trims around unquoted fields)
# are quoted on output, so the output reads back as the same ids (issue 12, item 7).
printf 'item,worker,label\n"a\v",w1,"x\f"\n"a\v",w2,"x\f"\n"\fb",w1,y\n' >vf.csv
run 0 "$CS" fit --method mv -o vf_out.csv vf.csv
printf 'item,label,confidence,"p_x\f",p_y\n"a\v","x\f",1,1,0\n"\fb",y,1,0,1\n' >expected_vf.csv
same vf_out.csv expected_vf.csv
run 0 "$CS" fit --method mv --format tsv vf.csv
printf 'item\tlabel\tconfidence\t"p_x\f"\tp_y\n"a\v"\t"x\f"\t1\t1\t0\n"\fb"\ty\t1\t0\t1\n' >expected_vf.tsv
same out.txt expected_vf.tsv
run 0 "$CS" evaluate --method mv --truth vf_out.csv vf.csv && contains out.txt '"error_rate":0.000000,' &&
    contains out.txt '"scored":2,'

# JSON output is UTF-8 (RFC 8259) whatever the ids: each ill-formed sequence (a
# Latin-1 byte, a truncated or overlong sequence, a surrogate) becomes one U+FFFD per
# maximal subpart, as Unicode recommends (issue 12, item 8).
printf 'item,worker,label\n"a\377b",w\300,x\n"\303\251\342\202",w\355\240\200,y\n' >bad_utf8.csv
run 0 "$CS" fit --method mv --format json-nested -o bad_utf8.json --workers bad_utf8_w.json --workers-format json-nested bad_utf8.csv
contains bad_utf8.json "$(printf '"item":"a\357\277\275b"')"
contains bad_utf8.json "$(printf '"item":"\303\251\357\277\275"')"
lacks bad_utf8.json "$(printf '\377')"
contains bad_utf8_w.json "$(printf '"worker":"w\357\277\275\357\277\275\357\277\275"')"
# The replacement is lossy, so the program says so (issue 40, R5): how many ids are
# ill-formed, and how many distinct ones become the same JSON text.
contains err.txt "crowdspec: note: 2 item ids are not well-formed UTF-8: JSON shows their ill-formed bytes as U+FFFD (CSV and TSV keep the bytes)"
contains err.txt "crowdspec: note: 2 worker ids are not well-formed UTF-8"
printf 'a\351,w1,x\na\350,w1,y\nb,w2,x\n' >merged.csv
run 0 "$CS" fit --method mv --format json merged.csv &&
    contains err.txt "2 item ids are not well-formed UTF-8: JSON shows their ill-formed bytes as U+FFFD, which makes 2 distinct ones the same text there"
run 0 "$CS" fit --method mv merged.csv && lacks err.txt "UTF-8"
run 0 "$CS" fit --method mv --quiet --format json merged.csv && lacks err.txt "UTF-8"
if command -v python3 >/dev/null 2>&1; then
    check "JSON with ill-formed ids is UTF-8 and parses" python3 -c '
import json
items = json.loads(open("bad_utf8.json", "rb").read().decode("utf-8"))["items"]
assert [i["item"] for i in items] == ["a\ufffdb", "\u00e9\ufffd"], items
workers = json.loads(open("bad_utf8_w.json", "rb").read().decode("utf-8"))["workers"]
raw = open("bad_utf8.csv", "rb").read().split(b"\n")
want = sorted(line.split(b",")[1].decode("utf-8", "replace") for line in raw[1:3])
assert sorted(w["worker"] for w in workers) == want, (workers, want)'
fi
# Formats no reader takes (issue 39): one line naming the format and what to do.
printf 'PK\003\004\024\000\006\000rest of a workbook' >book.xlsx
run 2 "$CS" fit book.xlsx && stderr_is '^crowdspec: book\.xlsx: an Excel workbook \(\.xlsx\).*save the sheet as CSV'
cp book.xlsx labels.zip
run 2 "$CS" fit labels.zip && stderr_is '^crowdspec: labels\.zip: a zip archive.*unzip it'
printf 'PAR1\025\000\025\034rest' >labels.parquet
run 2 "$CS" fit labels.parquet && stderr_is '^crowdspec: labels\.parquet: an Apache Parquet file.*read_parquet'
printf '\037\213\010\000\000\000\000\000' | run 2 "$CS" fit - && stderr_is 'gzip-compressed data.*gunzip -c FILE'
# The library's notes number items from 0; the CLI names them as the file does (a note
# that said "item 0" named an item this file does not have).
printf 'item,worker,label\n5000000,1,0\n5000000,2,1\n9000000,1,1\n9000000,2,1\n' >sparse_ids.csv
run 0 "$CS" fit sparse_ids.csv &&
    stderr_is "^crowdspec: note: auto: EM ended at a degenerate maximum: 2 items \\(the first is item '5000000'\\) had a label"
printf 'task,worker,label\nalpha,1,0\nalpha,2,1\n"be ta",1,1\n"be ta",2,1\n' >named_ids.csv
printf 'task,label\nalpha,0\n"be ta",1\n' >named_truth.csv
run 0 "$CS" evaluate named_ids.csv --truth named_truth.csv --method auto && contains err.txt "(the first is item 'alpha')"
run 0 "$CS" fit named_ids.csv --save named.csm -q
printf 'task,worker,label\ngamma,1,0\ngamma,2,1\n' >named_more.csv
run 0 "$CS" update --model named.csm named_more.csv && contains err.txt "(the first is item '"
no_temporaries
finish
