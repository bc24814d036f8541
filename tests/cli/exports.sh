#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The platforms' own exports read with no column options (issue 17): small files shaped
# like a Toloka assignments TSV, an MTurk batch results CSV (a text answer and radio
# buttons) and a Label Studio CSV export, written here; --preset; the errors that name candidate columns; in-file gold
# and gold files in the same shapes; evaluate against in-file gold and --method lists;
# JSON records and JSON lines loadable by pandas. Expected values are majority votes
# counted by hand (mv: the vote shares; ties go to the first class).
. "$(dirname "$0")/lib.sh"

# --- Toloka: INPUT:image is the item, ASSIGNMENT:worker_id the worker, OUTPUT:result
# the label, GOLDEN:result the gold of control task b.jpg; w3's REJECTED answer on a.jpg
# and its SKIPPED (empty) assignment on b.jpg are skipped.
tab=$'\t'
{
    echo "INPUT:image${tab}OUTPUT:result${tab}GOLDEN:result${tab}HINT:text${tab}ASSIGNMENT:task_id${tab}ASSIGNMENT:assignment_id${tab}ASSIGNMENT:worker_id${tab}ASSIGNMENT:status${tab}ASSIGNMENT:started"
    echo "a.jpg${tab}cat${tab}${tab}${tab}t1${tab}as1${tab}w1${tab}APPROVED${tab}2024-05-01T10:00:00"
    echo "a.jpg${tab}cat${tab}${tab}${tab}t1${tab}as2${tab}w2${tab}APPROVED${tab}2024-05-01T10:00:05"
    echo "a.jpg${tab}dog${tab}${tab}${tab}t1${tab}as3${tab}w3${tab}REJECTED${tab}2024-05-01T10:00:07"
    echo "b.jpg${tab}dog${tab}dog${tab}ears up${tab}t2${tab}as4${tab}w1${tab}APPROVED${tab}2024-05-01T10:01:00"
    echo "b.jpg${tab}cat${tab}dog${tab}ears up${tab}t2${tab}as5${tab}w2${tab}SUBMITTED${tab}2024-05-01T10:01:02"
    echo "b.jpg${tab}${tab}dog${tab}ears up${tab}t2${tab}as6${tab}w3${tab}SKIPPED${tab}2024-05-01T10:01:03"
    echo "c.jpg${tab}dog${tab}${tab}${tab}t3${tab}as7${tab}w1${tab}APPROVED${tab}2024-05-01T10:02:00"
    echo "c.jpg${tab}cat${tab}${tab}${tab}t3${tab}as8${tab}w3${tab}APPROVED${tab}2024-05-01T10:02:09"
} >toloka.tsv
# a: cat, cat -> cat 1. b: dog (w1), cat (w2) is a tie, but the gold pins dog. c: dog,
# cat -> a tie, cat first.
run 0 "$CS" fit --method mv toloka.tsv
cat >expected.csv <<'CSV'
item,label,confidence,p_cat,p_dog
a.jpg,cat,1,1,0
b.jpg,dog,1,0,1
c.jpg,cat,0.5,0.5,0.5
CSV
same out.txt expected.csv
contains err.txt "crowdspec: note: toloka.tsv read by the toloka preset (Toloka): item 'INPUT:image', worker 'ASSIGNMENT:worker_id', label 'OUTPUT:result', gold 'GOLDEN:result'; skipped 1 rejected assignments (--keep-rejected uses them); skipped 1 rows without an answer"
contains err.txt "crowdspec: note: pinned 1 gold items from toloka.tsv column 'GOLDEN:result'"
check "two notes" test "$(wc -l <err.txt)" -eq 2
# --keep-rejected counts w3's dog on a.jpg: 2 cat, 1 dog. --gold-col none: b.jpg is a tie.
run 0 "$CS" fit --method mv --keep-rejected --gold-col none --quiet toloka.tsv
cat >expected.csv <<'CSV'
item,label,confidence,p_cat,p_dog
a.jpg,cat,0.6666666667,0.6666666667,0.3333333333
b.jpg,cat,0.5,0.5,0.5
c.jpg,cat,0.5,0.5,0.5
CSV
same out.txt expected.csv
check "--quiet: no notes" test ! -s err.txt
# --preset toloka forces the same reading; --preset generic does not know OUTPUT:result.
run 0 "$CS" fit --method mv --preset toloka --quiet toloka.tsv && check "forced toloka" grep -q '^b.jpg,dog,1,0,1$' out.txt
run 2 "$CS" fit --method mv --preset generic toloka.tsv &&
    stderr_is "^crowdspec: toloka\\.tsv:1: no label column in the header \\(expected one named label, answer, response or output; the columns are 'INPUT:image', "
# The report says how the file was read and scores the workers on the in-file gold:
# on b.jpg (gold dog) w1 answered dog, w2 cat.
run 0 "$CS" report --method mv --min-labels 1 --quiet toloka.tsv
contains out.txt "<th scope=\"row\">Read as</th><td>toloka.tsv read by the toloka preset (Toloka): item &#39;INPUT:image&#39;"
contains out.txt '<tr><td class="id">w2</td><td class="num">1</td><td class="num">0</td><td class="num">0.000</td></tr>'
contains out.txt '<tr><td class="id">w1</td><td class="num">1</td><td class="num">1</td><td class="num">1.000</td></tr>'
# Options override a rule: Toloka's task id as the item.
run 0 "$CS" fit --method mv --item-col ASSIGNMENT:task_id --quiet toloka.tsv && check "task id items" grep -q '^t2,dog,1,0,1$' out.txt

# Several candidates: the error names them and the option.
{
    echo "INPUT:image${tab}INPUT:url${tab}OUTPUT:result${tab}ASSIGNMENT:task_id${tab}ASSIGNMENT:worker_id"
    echo "a.jpg${tab}u${tab}cat${tab}t1${tab}w1"
} >two_inputs.tsv
run 2 "$CS" fit two_inputs.tsv &&
    stderr_is "^crowdspec: two_inputs\\.tsv:1: columns 'INPUT:image' and 'INPUT:url' could each be the item key \\(Toloka input columns\\); choose one with --item-col \\(or --item-col ASSIGNMENT:task_id for Toloka's task id\\)$"
run 0 "$CS" fit --method mv --item-col INPUT:url --classes cat,dog --quiet two_inputs.tsv && contains out.txt 'u,cat,1,1'
{
    echo "INPUT:image${tab}OUTPUT:color${tab}OUTPUT:shape${tab}ASSIGNMENT:worker_id"
    echo "a.jpg${tab}red${tab}round${tab}w1"
} >two_outputs.tsv
run 2 "$CS" fit two_outputs.tsv &&
    stderr_is "^crowdspec: two_outputs\\.tsv:1: columns 'OUTPUT:color' and 'OUTPUT:shape' could each be the label \\(Toloka output columns\\); choose one with --label-col$"
run 0 "$CS" fit --method mv --label-col OUTPUT:shape --classes round,square --quiet two_outputs.tsv && contains out.txt 'a.jpg,round,1,1,0'
# A gold label in conflict with itself on the same task.
sed 's/^b\.jpg\tcat\tdog/b.jpg\tcat\tcat/' toloka.tsv >bad_gold.tsv
run 2 "$CS" fit bad_gold.tsv &&
    stderr_is "^crowdspec: bad_gold\\.tsv:6: item 'b\\.jpg' has gold label 'cat' in column 'GOLDEN:result' here but 'dog' on line 5 \\(expected one gold label per item\\)$"
# Every row rejected or skipped.
awk -F'\t' 'BEGIN { OFS = "\t" } NR > 1 { $8 = "REJECTED" } { print }' toloka.tsv >all_rejected.tsv
run 2 "$CS" fit all_rejected.tsv &&
    stderr_is "^crowdspec: all_rejected\\.tsv: no labels left after skipping 8 rows \\(8 rejected, 0 without an answer\\); --keep-rejected uses rejected ones$"

# --- Gold files in a platform's shape: the header is recognised (INPUT:image is the
# item, GOLDEN:result the label), and it adds to the in-file gold.
printf 'INPUT:image,GOLDEN:result\nc.jpg,dog\n' >gold.csv
run 0 "$CS" fit --method mv --gold gold.csv toloka.tsv && check "c.jpg pinned by the gold file" grep -q '^c.jpg,dog,1,0,1$' out.txt
contains err.txt "crowdspec: note: pinned 2 gold items from toloka.tsv column 'GOLDEN:result' and gold.csv"
printf 'INPUT:image,GOLDEN:result\nb.jpg,cat\n' >conflict.csv
run 2 "$CS" fit --method mv --quiet --gold conflict.csv toloka.tsv &&
    stderr_is "^crowdspec: conflict\\.csv:2: item 'b\\.jpg' has gold label 'cat' here but 'dog' in toloka\\.tsv column 'GOLDEN:result' \\(toloka\\.tsv line 5\\)$"
# Own column names: --gold-item-col and --gold-label-col.
printf 'picture,verdict,note\nc.jpg,dog,"checked, twice"\n' >named_gold.csv
run 0 "$CS" fit --method mv --quiet --gold-col none --gold named_gold.csv --gold-item-col picture --gold-label-col verdict toloka.tsv &&
    check "named gold columns" grep -q '^c.jpg,dog,1,0,1$' out.txt
run 2 "$CS" fit --method mv --quiet --gold named_gold.csv --gold-item-col image --gold-label-col verdict toloka.tsv &&
    stderr_is "^crowdspec: named_gold\\.csv:1: no column 'image' in the header \\(columns: 'picture', 'verdict', 'note'\\); --gold-item-col takes a column name or number$"

# --- evaluate: the in-file gold is the truth when there is no --truth (not pinned:
# mv's tie on b.jpg goes to cat, wrong, and counts 1/2 tie-fractionally).
run 0 "$CS" evaluate --method mv --quiet toloka.tsv &&
    contains out.txt '{"method":"mv","error_rate":1.000000,"error_rate_tie_fractional":0.500000,"scored":1,'
# A truth file in Toloka's shape: a cat (right), b and c ties lost to cat (wrong):
# error 2/3; tie-fractional: 1 + 1/2 + 1/2 correct of 3, error 1/3.
printf 'INPUT:image\tGOLDEN:result\na.jpg\tcat\nb.jpg\tdog\nc.jpg\tdog\n' >truth.tsv
run 0 "$CS" evaluate --method mv --truth truth.tsv toloka.tsv &&
    contains out.txt '{"method":"mv","error_rate":0.666667,"error_rate_tie_fractional":0.333333,"scored":3,'
contains err.txt "crowdspec: note: scoring against truth.tsv, not the gold column of toloka.tsv"
printf 'task,worker,label\n1,a,x\n1,b,y\n' >plain.csv
run 1 "$CS" evaluate plain.csv &&
    stderr_is "^crowdspec: evaluate: --truth TRUTHFILE is required \\(plain\\.csv has no gold column; --gold-col names one\\)$"
# A generic file with a gold column named by option.
printf 'task,worker,label,expert\n1,a,x,y\n1,b,y,y\n2,a,x,\n2,b,x,\n' >with_gold.csv
run 0 "$CS" evaluate --method mv --gold-col expert --quiet with_gold.csv &&
    contains out.txt '{"method":"mv","error_rate":1.000000,"error_rate_tie_fractional":0.500000,"scored":1,'

# --- MTurk: HITId, WorkerId, Answer.category; A3's Rejected assignment is skipped.
cat >batch.csv <<'CSV'
"HITId","HITTypeId","Title","CreationTime","MaxAssignments","AssignmentId","WorkerId","AssignmentStatus","WorkTimeInSeconds","Input.image_url","Answer.category","Approve","Reject"
"3AXQ","3T7Y","Classify the animal","Tue Jun 04 10:00:00 PDT 2024","3","3A1","A1","Approved","12","a.jpg","cat","",""
"3AXQ","3T7Y","Classify the animal","Tue Jun 04 10:00:00 PDT 2024","3","3A2","A2","Submitted","10","a.jpg","cat","",""
"3AXQ","3T7Y","Classify the animal","Tue Jun 04 10:00:00 PDT 2024","3","3A3","A3","Rejected","2","a.jpg","dog","",""
"3BZR","3T7Y","Classify the animal","Tue Jun 04 10:00:00 PDT 2024","3","3B1","A1","Approved","9","b.jpg","dog","",""
"3BZR","3T7Y","Classify the animal","Tue Jun 04 10:00:00 PDT 2024","3","3B2","A2","Approved","8","b.jpg","cat","",""
"3BZR","3T7Y","Classify the animal","Tue Jun 04 10:00:00 PDT 2024","3","3B3","A3","Approved","7","b.jpg","dog","",""
CSV
run 0 "$CS" fit --method mv batch.csv
cat >expected.csv <<'CSV'
item,label,confidence,p_cat,p_dog
3AXQ,cat,1,1,0
3BZR,dog,0.6666666667,0.3333333333,0.6666666667
CSV
same out.txt expected.csv
stderr_is "^crowdspec: note: batch\\.csv read by the mturk preset \\(Amazon Mechanical Turk\\): item 'HITId', worker 'WorkerId', label 'Answer\\.category'; skipped 1 rejected assignments \\(--keep-rejected uses them\\)$"
run 0 "$CS" fit --method mv --keep-rejected --quiet batch.csv && contains out.txt '3AXQ,cat,0.6666666667,0.6666666667,0.3333333333'
sed '1s/"Answer.category"/"Answer.category","Answer.comment"/; 2,$s/,"",""$/,"ok","",""/' batch.csv >two_answers.csv
run 2 "$CS" fit two_answers.csv &&
    stderr_is "^crowdspec: two_answers\\.csv:1: columns 'Answer\\.category' and 'Answer\\.comment' could each be the label \\(MTurk answer columns\\); choose one with --label-col$"
run 0 "$CS" fit --method mv --label-col Answer.category --quiet two_answers.csv && same out.txt expected.csv

# --- MTurk radio buttons (issue 39): one boolean Answer.<option>.on column per option;
# the label is the option that is true. A1's row with no option true (3BZR) is
# skipped; A3's Rejected one too. 3AXQ: cat, cat -> cat; 3BZR: dog (A2), bird (A3).
cat >radio.csv <<'CSV'
"HITId","AssignmentId","WorkerId","AssignmentStatus","Input.image_url","Answer.bird.on","Answer.cat.on","Answer.dog.on","Answer.comment"
"3AXQ","3A1","A1","Approved","a.jpg","false","true","false",""
"3AXQ","3A2","A2","Approved","a.jpg","false","TRUE","false","sure"
"3AXQ","3A3","A3","Rejected","a.jpg","false","false","true",""
"3BZR","3B1","A1","Approved","b.jpg","false","false","false",""
"3BZR","3B2","A2","Approved","b.jpg","false","false","true",""
"3BZR","3B3","A3","Approved","b.jpg","true","false","false",""
CSV
run 0 "$CS" fit --method mv radio.csv
cat >expected_radio.csv <<'CSV'
item,label,confidence,p_bird,p_cat,p_dog
3AXQ,cat,1,0,1,0
3BZR,bird,0.5,0.5,0,0.5
CSV
same out.txt expected_radio.csv
stderr_is "^crowdspec: note: radio\.csv read by the mturk preset \(Amazon Mechanical Turk\): item 'HITId', worker 'WorkerId', label the true one of 3 Answer\.<option>\.on columns; skipped 1 rejected assignments \(--keep-rejected uses them\); skipped 1 rows without an answer$"
# Never a true/false fit: the classes are the options.
lacks out.txt 'p_true'
# Two options true on one row, or a value that is not a boolean: one line naming the line.
sed '6s/"false","false","true"/"false","true","true"/' radio.csv >radio_two.csv
run 2 "$CS" fit radio_two.csv &&
    stderr_is "^crowdspec: radio_two\.csv:6: two options are true, 'Answer\.cat\.on' and 'Answer\.dog\.on' \(a radio-button answer has one"
sed '3s/"TRUE"/"maybe"/' radio.csv >radio_odd.csv
run 2 "$CS" fit radio_odd.csv &&
    stderr_is "^crowdspec: radio_odd\.csv:3: column 'Answer\.cat\.on' is 'maybe', expected true or false"
# --label-col still chooses one column as it is (a check box fitted as true/false).
run 0 "$CS" fit --method mv --quiet --label-col Answer.cat.on radio.csv && contains out.txt 'p_false,p_true'

# --- Label Studio: id (task id), annotator, the choice column; bob's empty choice on
# task 2 (no annotation) is skipped. Columns come in no fixed order.
cat >project.csv <<'CSV'
image,id,choice,annotator,annotation_id,created_at,updated_at,lead_time
"/data/upload/1/a.jpg",1,"cat","ann@example.org",11,"2024-05-01T10:00:00.000000Z","2024-05-01T10:00:00.000000Z",4.2
"/data/upload/1/a.jpg",1,"cat","bob@example.org",12,"2024-05-01T10:01:00.000000Z","2024-05-01T10:01:00.000000Z",3.9
"/data/upload/1/a.jpg",1,"dog","eve@example.org",13,"2024-05-01T10:02:00.000000Z","2024-05-01T10:02:00.000000Z",2.0
"/data/upload/1/b.jpg",2,"dog","ann@example.org",14,"2024-05-01T10:03:00.000000Z","2024-05-01T10:03:00.000000Z",5.1
"/data/upload/1/b.jpg",2,"","bob@example.org",15,"2024-05-01T10:04:00.000000Z","2024-05-01T10:04:00.000000Z",0.4
"/data/upload/1/b.jpg",2,"dog","eve@example.org",16,"2024-05-01T10:05:00.000000Z","2024-05-01T10:05:00.000000Z",1.7
CSV
run 0 "$CS" fit --method mv project.csv
cat >expected.csv <<'CSV'
item,label,confidence,p_cat,p_dog
1,cat,0.6666666667,0.6666666667,0.3333333333
2,dog,1,0,1
CSV
same out.txt expected.csv
stderr_is "^crowdspec: note: project\\.csv read by the labelstudio preset \\(Label Studio\\): item 'id', worker 'annotator', label 'choice'; skipped 1 rows without an answer$"
# A control tag with its own name is found as the one column without a data-like name.
sed '1s/choice/mood/' project.csv >named_tag.csv
run 0 "$CS" fit --method mv --quiet named_tag.csv && same out.txt expected.csv
# The data column as the item key.
run 0 "$CS" fit --method mv --item-col image --quiet project.csv && contains out.txt '/data/upload/1/b.jpg,dog,1,0,1'
sed '1s/image/photo/; 1s/choice/mood/' project.csv >ambiguous.csv
run 2 "$CS" fit ambiguous.csv &&
    stderr_is "^crowdspec: ambiguous\\.csv:1: columns 'photo' and 'mood' could each be the label \\(Label Studio writes a column per data field and per control tag\\); choose one with --label-col$"
run 0 "$CS" fit --method mv --label-col mood --quiet ambiguous.csv && same out.txt expected.csv
printf 'task,who,answer\n1,a,x\n' >no_worker.csv
run 2 "$CS" fit --preset labelstudio no_worker.csv &&
    stderr_is "^crowdspec: no_worker\\.csv:1: no worker column in the header \\(expected annotator for the labelstudio preset, or one named worker, annotator, user or performer; "
run 1 "$CS" fit --preset qualtrics plain.csv &&
    stderr_is "^crowdspec: --preset 'qualtrics': expected auto, generic, toloka, mturk or labelstudio$"
printf 'a w x\nb w y\n' >headerless.txt
run 2 "$CS" fit --preset toloka headerless.txt &&
    stderr_is "^crowdspec: headerless\\.txt:1: --preset toloka: the first line is not a header"

# --- evaluate --method a,b,c runs the list in its order; bad lists are usage errors.
"$CS" simulate --items 200 --workers 15 --labels-per-item 3 --seed 3 --labels sim.csv --truth sim_truth.csv --quiet
run 0 "$CS" evaluate $T1 --method ds,mv,opt-ds --truth sim_truth.csv sim.csv
check "three lines in the listed order" test "$(grep -o '"method":"[a-z-]*"' out.txt | tr '\n' ' ')" = '"method":"ds" "method":"mv" "method":"opt-ds" '
for m in ds mv opt-ds; do
    "$CS" evaluate $T1 --method "$m" --truth sim_truth.csv sim.csv | sed 's/"seconds":[0-9.]*/S/' >one.txt
    CHECKS=$((CHECKS + 1))
    grep "\"method\":\"$m\"" out.txt | sed 's/"seconds":[0-9.]*/S/' | cmp -s - one.txt || fail "$m in a list differs from $m alone"
done
run 1 "$CS" evaluate --method mv,nope --truth sim_truth.csv sim.csv && stderr_is "^crowdspec: unknown method 'nope'; known methods: mv, ds, opt-ds"
run 1 "$CS" evaluate --method mv,ds,mv --truth sim_truth.csv sim.csv && stderr_is "^crowdspec: --method 'mv,ds,mv': mv is listed twice$"
run 1 "$CS" evaluate --method mv, --truth sim_truth.csv sim.csv && stderr_is "^crowdspec: --method 'mv,': empty method name in the list$"
run 1 "$CS" evaluate --method all,mv --truth sim_truth.csv sim.csv && stderr_is "cannot be part of a list$"
run 1 "$CS" fit --method mv,ds sim.csv && stderr_is "^crowdspec: fit: one method at a time"
# --method all is whatever the library lists (cs_method_count/cs_method_at): one line each.
run 0 "$CS" evaluate $T1 --method all --truth sim_truth.csv sim.csv
check "all: one line per method of the --help list" test "$(wc -l <out.txt)" -eq \
    "$("$CS" evaluate --help | sed -n '/^Methods (--method NAME):$/,/^$/p' | grep -c '^  [a-z]')"

# --- JSON records and JSON lines, loadable by pandas.
run 0 "$CS" fit $T1 -o items.json --workers workers.jsonl sim.csv
run 0 "$CS" fit $T1 -o items.jsonl --workers workers.json sim.csv
run 0 "$CS" fit $T1 -o items.csv --workers workers.csv sim.csv
if /usr/bin/python3 -c 'import pandas' 2>/dev/null; then
    check "pandas.read_json loads the records like the CSV" /usr/bin/python3 -c '
import pandas as pd
csv = pd.read_csv("items.csv", dtype={"item": str, "label": str})
for frame in (pd.read_json("items.json", dtype={"item": str, "label": str}),
              pd.read_json("items.jsonl", lines=True, dtype={"item": str, "label": str})):
    assert list(frame.columns) == ["item", "label", "confidence", "p_1", "p_2", "p_3"], frame.columns
    assert len(frame) == 200 and (frame["item"] == csv["item"]).all() and (frame["label"] == csv["label"]).all()
    assert (abs(frame["p_2"] - csv["p_2"]) < 1e-12).all()
wcsv = pd.read_csv("workers.csv", dtype={"worker": str})
for frame in (pd.read_json("workers.json", dtype={"worker": str}), pd.read_json("workers.jsonl", lines=True, dtype={"worker": str})):
    assert list(frame.columns) == list(wcsv.columns), frame.columns
    assert len(frame) == 15 and (abs(frame["accuracy"] - wcsv["accuracy"]) < 1e-12).all()
'
else
    echo "note: /usr/bin/python3 has no pandas: the pandas.read_json checks were not run"
fi
no_temporaries
finish
