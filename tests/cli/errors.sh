#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every error path of the input and output handling: each gives its documented exit
# code and exactly one stderr line naming the file, the line and what was expected,
# and no output file is created.
. "$(dirname "$0")/lib.sh"

printf 'task,worker,label\na,w1,x\na,w2,y\nb,w1,x\n' >good.csv

# expect_input_error FILE-CONTENT(printf format) REGEX [fit options]: exit 2, one line.
n=0
expect_input_error() {
    local content=$1 regex=$2
    shift 2
    n=$((n + 1))
    # No extension: the format is recognised from the content, as for stdin.
    printf "$content" >"case$n.dat"
    if run 2 "$CS" fit -o "out$n.csv" "$@" "case$n.dat"; then
        stderr_is "^crowdspec: case$n\\.dat:$regex"
        check "case $n: no output file" test ! -e "out$n.csv"
    fi
}

# Malformed records.
expect_input_error 'task,worker,label\na,w1,x\nb,w2\n' '3: expected 3 fields as in the header on line 1, found 2$'
expect_input_error 'task,worker,label,extra\na,w1,x,1\nb,w2,y,2,3\n' '3: expected 4 fields as in the header on line 1, found 5; a field with a comma must be "quoted"$'
expect_input_error 'a,w1,x\nb,w2,y,z\n' '2: expected 3 fields \(item worker label\), found 4'
expect_input_error 'task,worker,label\na,w1,"x\n' '2: unterminated quoted field'
expect_input_error 'task,worker,label\na,w1,"x"y\n' '2: unexpected text after the closing quote'
expect_input_error 'task,worker,label\na,,x\n' '2: empty worker id \(expected a value in column 2\)$'
expect_input_error 'task,worker,label\n"",w1,x\n' '2: empty item id'
expect_input_error 'task\tworker\tlabel\na\tw1\n' '2: expected 3 fields as in the header'
# Columns.
expect_input_error 'task,worker,label\na,w1,x\n' "1: no column 'nope' in the header \\(columns: 'task', 'worker', 'label'\\); --item-col takes a column name or number$" --item-col nope
expect_input_error 'task,annotator,comment\na,w1,x\n' '1: no label column in the header \(expected one named label, answer, response or output; .*\); name it with --label-col$'
expect_input_error 'task,task_id,worker,label\na,1,w1,x\n' "1: columns 'task' and 'task_id' both look like the item column; choose one with --item-col$"
expect_input_error 'task,worker,label\na,w1,x\n' '1: the item and label columns are the same column \(1\)$' --label-col task
expect_input_error 'task,worker,label\na,w1,x\n' '1: --item-col 9: the header has only 3 columns$' --item-col 9
expect_input_error 'a,w1,x\n' "1: --item-col 'task': this file has no header line" --item-col task
# Empty inputs.
expect_input_error '' ' the file is empty' # no line number: there is no line
expect_input_error '\n   \n\n' ' the file is empty'
expect_input_error 'task,worker,label\n' '1: the file has a header line but no labels after it'
# Labels outside --classes name the line of their first use.
expect_input_error 'task,worker,label\na,w1,x\na,w2,y\nb,w1,z\n' "4: label 'z' is not one of --classes x,y$" --classes x,y
expect_input_error 'a w1 1\na w2 3\n' "2: label '3' is outside 1..2 and 0..1 \\(--classes 2\\)$" --classes 2
expect_input_error 'a w1 1\na w2 q\n' "2: label 'q' is not an integer" --classes 2

# Files that cannot be read, outputs that cannot be written.
run 2 "$CS" fit missing.csv && stderr_is '^crowdspec: missing\.csv: cannot open: No such file or directory$'
mkdir adir
run 2 "$CS" fit adir && stderr_is '^crowdspec: adir: cannot read: it is a directory$'
run 4 "$CS" fit -o nodir/out.csv good.csv && stderr_is '^crowdspec: nodir/out\.csv: cannot create the output file: No such file or directory$'
check "missing directory: nothing created" test ! -e nodir
run 4 "$CS" fit -o out.csv --workers nodir/w.csv good.csv && stderr_is '^crowdspec: nodir/w\.csv: cannot create the output file'
check "no items file when the workers file cannot be created" test ! -e out.csv
run 4 "$CS" simulate --labels nodir/l.txt && stderr_is '^crowdspec: nodir/l\.txt: cannot create'
run 4 "$CS" report -o nodir/r.html good.csv && stderr_is '^crowdspec: nodir/r\.html: cannot create'

# Truth and gold files.
printf 'a x\na y\n' >conflict.txt
run 2 "$CS" evaluate --truth conflict.txt good.csv && stderr_is "^crowdspec: conflict\\.txt:2: item 'a' has label 'y' here but 'x' on line 1 \\(expected one label per item\\)$"
printf 'a x extra\n' >wide.txt
run 2 "$CS" evaluate --truth wide.txt good.csv && stderr_is '^crowdspec: wide\.txt:1: expected 2 fields \(item label\), found 3; a field with blanks must be "quoted"$'
printf 'nobody x\n' >foreign.txt
run 2 "$CS" evaluate --truth foreign.txt good.csv && stderr_is "^crowdspec: foreign\\.txt: none of its 1 items appears in good\\.csv$"
printf 'task,gold\na,x\nb,q\n' >gold.csv
run 2 "$CS" fit -o out.csv --gold gold.csv good.csv && stderr_is "^crowdspec: gold\\.csv:3: gold label 'q' is not one of the classes \\(x, y\\); declare every class with --classes A,B,...$"
check "gold error: no output" test ! -e out.csv
run 2 "$CS" fit --gold missing-gold.csv good.csv && stderr_is '^crowdspec: missing-gold\.csv: cannot open'

# Fit errors (exit 3) name both lines of a duplicate.
printf 'task,worker,label\na,w1,x\nb,w1,y\na,w1,y\n' >dup.csv
run 3 "$CS" fit -o out.csv dup.csv && stderr_is "^crowdspec: dup\\.csv:4: worker 'w1' labels item 'a' again \\(first on line 2\\); use --duplicates first or --duplicates last to keep one$"
check "fit error: no output" test ! -e out.csv
printf 'a w1 x\nb w2 x\n' >oneclass.txt
run 3 "$CS" fit oneclass.txt && stderr_is "the input's only label is 'x' \\(declare the classes with --classes\\)"

# Usage errors (exit 1).
run 1 "$CS" fit --input-format xml good.csv && stderr_is "^crowdspec: --input-format 'xml': expected auto, csv, tsv or whitespace$"
run 1 "$CS" fit --header maybe good.csv && stderr_is "^crowdspec: --header 'maybe': expected auto, yes or no$"
run 1 "$CS" fit --format xml good.csv && stderr_is "^crowdspec: --format 'xml': expected csv, tsv, json, jsonl or json-nested$"
run 1 "$CS" fit --item-col= good.csv && stderr_is '^crowdspec: --item-col: expected a column name or number$'
run 1 "$CS" fit --workers - good.csv && stderr_is 'cannot both go to standard output'
run 1 "$CS" fit -o same.csv --workers same.csv good.csv && stderr_is "name the same file 'same\\.csv'"
run 1 "$CS" fit --gold - - <good.csv && stderr_is 'FILE and --gold cannot both be standard input'
run 1 "$CS" report --worst -1 good.csv && stderr_is "^crowdspec: --worst '-1': expected an integer in 0\\.\\.1000$"
# A message quoting a field with a line break or another control character stays on
# one line: the characters are escaped (issue 12, item 9).
printf 'item,worker,label\na,w1,"x\ny"\nb,w1,"t\tu\001"\n' >ctrl.csv
run 2 "$CS" fit --classes a,b ctrl.csv && stderr_is "^crowdspec: ctrl\\.csv:2: label 'x\\\\ny' is not one of --classes a,b$"
run 2 "$CS" fit --classes 'x
y,c' ctrl.csv && stderr_is "^crowdspec: ctrl\\.csv:4: label 't\\\\tu\\\\x01' is not one of --classes"
printf 'item,worker,label\n"i\r\n1","w\n1",x\n"i\r\n1","w\n1",y\n' >ctrl_dup.csv
run 3 "$CS" fit ctrl_dup.csv && stderr_is "^crowdspec: ctrl_dup\\.csv:5: worker 'w\\\\n1' labels item 'i\\\\r\\\\n1' again"
run 2 "$CS" fit "$(printf 'no\nsuch.csv')" && stderr_is '^crowdspec: no\\nsuch\.csv: cannot open'
printf 'x,y\n1,2\n"a\tb",3\n' >ctrl_points.csv
run 2 "$CS" cluster -k 2 ctrl_points.csv && stderr_is "^crowdspec: ctrl_points\\.csv:3: field 1 'a\\\\tb' is not a number$"
no_temporaries
finish
