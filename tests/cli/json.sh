#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Crowd, truth and gold files given as JSON with no flags (issue 39): JSON records
# (pretty-printed or on one line), JSON lines, what `fit --output x.json/x.jsonl` and
# `--format json-nested` write read back as truth, and Label Studio's JSON export
# (tasks with annotations[].result[].value.choices, completed_by as the annotator).
# Each JSON file gives byte-identical results to the same labels as CSV; messages name
# the JSON file's lines, or the record/annotation number when records share a line.
. "$(dirname "$0")/lib.sh"

# --- The same 7 labels as CSV and as JSON: a: x,x,y -> x 2/3; b: y,y -> y; c: x,y tie -> x.
cat >labels.csv <<'CSV'
item,worker,label
a,w1,x
a,w2,x
a,w3,y
b,w1,y
b,w2,y
c,w1,x
c,w3,y
CSV
run 0 "$CS" fit --method mv labels.csv && cp out.txt from_csv.csv
cat >expected.csv <<'CSV'
item,label,confidence,p_x,p_y
a,x,0.6666666667,0.6666666667,0.3333333333
b,y,1,0,1
c,x,0.5,0.5,0.5
CSV
same from_csv.csv expected.csv
# Pretty-printed records, with extra keys of other types (ignored columns).
cat >records.json <<'JSON'
[
  {"item": "a", "worker": "w1", "label": "x", "seconds": 1.5, "ok": true, "meta": {"n": [1, 2]}},
  {"item": "a", "worker": "w2", "label": "x", "seconds": null},
  {"item": "a", "worker": "w3", "label": "y"},
  {"item": "b", "worker": "w1", "label": "y"},
  {"item": "b", "worker": "w2", "label": "y"},
  {"item": "c", "worker": "w1", "label": "x"},
  {"worker": "w3", "label": "y", "item": "c"}
]
JSON
run 0 "$CS" fit --method mv records.json && same out.txt expected.csv
check "no note for plain records" test ! -s err.txt
# The same on one line (pandas' to_json(orient="records")), and as JSON lines.
tr -d '\n' <records.json >minified.json
run 0 "$CS" fit --method mv minified.json && same out.txt expected.csv
sed -n 's/^  \({.*}\),\{0,1\}$/\1/p' records.json >records.jsonl
check "7 JSON lines" test "$(wc -l <records.jsonl)" -eq 7
run 0 "$CS" fit --method mv records.jsonl && same out.txt expected.csv
# Standard input, with a byte order mark and CRLF line ends.
printf '\357\273\277' >bom.json && sed 's/$/\r/' records.json >>bom.json
run 0 "$CS" fit --method mv - <bom.json && same out.txt expected.csv
# Numbers as ids and labels are read as written.
printf '[{"item": 1, "worker": 10, "label": 2}, {"item": 1, "worker": 11, "label": 2},\n {"item": 2, "worker": 10, "label": 1}]\n' >numbers.json
run 0 "$CS" fit --method mv numbers.json
printf 'item,label,confidence,p_1,p_2\n1,2,1,0,1\n2,1,1,1,0\n' >expected_numbers.csv
same out.txt expected_numbers.csv

# --- What fit writes, read back: as the truth of evaluate (error rate 0 against
# itself) and as a gold file; JSON records, JSON lines and json-nested.
for out in items.json items.jsonl; do
    run 0 "$CS" fit --method mv --output "$out" labels.csv
    run 0 "$CS" evaluate --method mv --truth "$out" labels.csv
    contains out.txt '"error_rate":0.000000,'
    contains out.txt '"scored":3,'
done
run 0 "$CS" fit --method mv --format json-nested --output nested.json labels.csv
run 0 "$CS" evaluate --method mv --truth nested.json labels.csv && contains out.txt '"error_rate":0.000000,'
# A gold file in JSON pins c to y (the tie would give x).
printf '[{"item": "c", "label": "y"}]\n' >gold.json
run 0 "$CS" fit --method mv --gold gold.json labels.csv
contains out.txt 'c,y,1,0,1'

# --- Label Studio's JSON export: task 1 has Positive (user 1), Negative (bob, a user
# object), Positive (user 3); task 2 Negative (user 1), a cancelled annotation (user 3,
# skipped) and a rating-free text area (ignored); task 3 has no annotations yet.
cat >project.json <<'JSON'
[
  {
    "id": 1,
    "annotations": [
      {"id": 11, "completed_by": 1, "result": [{"value": {"choices": ["Positive"]}, "id": "r1", "from_name": "sentiment", "to_name": "text", "type": "choices"}], "was_cancelled": false, "lead_time": 3.2},
      {"id": 12, "completed_by": {"id": 2, "email": "bob@example.org"}, "result": [{"value": {"choices": ["Negative"]}, "from_name": "sentiment", "to_name": "text", "type": "choices"}], "was_cancelled": false},
      {"id": 13, "completed_by": 3, "result": [{"value": {"choices": ["Positive"]}, "from_name": "sentiment", "to_name": "text", "type": "choices"}, {"value": {"text": ["nice"]}, "from_name": "why", "to_name": "text", "type": "textarea"}]}
    ],
    "data": {"text": "good"},
    "predictions": [{"result": [{"value": {"choices": ["Negative"]}, "from_name": "sentiment"}]}]
  },
  {
    "id": 2,
    "annotations": [
      {"id": 21, "completed_by": 1, "result": [{"value": {"choices": ["Negative"]}, "from_name": "sentiment", "to_name": "text", "type": "choices"}]},
      {"id": 22, "completed_by": 3, "result": [], "was_cancelled": true}
    ],
    "data": {"text": "bad"}
  },
  {"id": 3, "annotations": [], "data": {"text": "not yet"}}
]
JSON
run 0 "$CS" fit --method mv --workers ls_workers.csv project.json
printf 'item,label,confidence,p_Negative,p_Positive\n1,Positive,0.6666666667,0.3333333333,0.6666666667\n2,Negative,1,1,0\n' >expected_ls.csv
same out.txt expected_ls.csv
stderr_is "^crowdspec: note: project\\.json read by the labelstudio preset \\(Label Studio\\): item 'id', worker 'annotator', label 'sentiment'; skipped 1 rows without an answer$"
contains ls_workers.csv 'bob@example.org,'
# The same export minified, and as the truth of evaluate (one annotation a task).
tr -d '\n' <project.json >project_min.json
run 0 "$CS" fit --method mv --quiet project_min.json && same out.txt expected_ls.csv
printf '[{"id": 1, "annotations": [{"id": 5, "completed_by": 9, "result": [{"value": {"choices": ["Positive"]}, "from_name": "sentiment"}]}]},\n {"id": 2, "annotations": [{"id": 6, "completed_by": 9, "result": [{"value": {"choices": ["Positive"]}, "from_name": "sentiment"}]}]}]\n' >ls_truth.json
run 0 "$CS" evaluate --method mv --truth ls_truth.json project.json
contains out.txt '"error_rate":0.500000,'
# A rating control: the value is the label.
printf '[{"id": 7, "annotations": [{"id": 1, "completed_by": 1, "result": [{"value": {"rating": 4}, "from_name": "stars"}]},\n {"id": 2, "completed_by": 2, "result": [{"value": {"rating": 4}, "from_name": "stars"}]}]},\n {"id": 8, "annotations": [{"id": 3, "completed_by": 1, "result": [{"value": {"rating": 2}, "from_name": "stars"}]}]}]\n' >stars.json
run 0 "$CS" fit --method mv --quiet stars.json
printf 'item,label,confidence,p_2,p_4\n7,4,1,0,1\n8,2,1,1,0\n' >expected_stars.csv
same out.txt expected_stars.csv

# --- Errors: one line naming the JSON file's line, or the record when records share one.
printf '[\n{"item": "a", "worker": "w1", "label": "x"},\n{"item": "a", "worker": "w2"}\n]\n' >missing.json
run 2 "$CS" fit missing.json && stderr_is '^crowdspec: missing\.json:3: empty label'
tr -d '\n' <missing.json >missing_min.json
run 2 "$CS" fit missing_min.json && stderr_is '^crowdspec: missing_min\.json: record 2: empty label'
printf '[{"task": "a", "user": "w1"}]' >nolabel.json
run 2 "$CS" fit nolabel.json && stderr_is "^crowdspec: nolabel\\.json: the JSON keys as columns: no label column in the header .*'task', 'user'"
printf '[\n{"item": "a", "worker": "w1", "label": "x"},\n"oops"\n]\n' >scalar.json
run 2 "$CS" fit scalar.json && stderr_is '^crowdspec: scalar\.json:3: record 2 is not a JSON object'
printf '[\n{"item": "a", "worker": "w1", "label": "x"}\n' >open.json
run 2 "$CS" fit open.json && stderr_is '^crowdspec: open\.json:3: unexpected end of the JSON text$'
printf '[{"item": "a",\n "worker": "w1" "label": "x"}]' >comma.json
run 2 "$CS" fit comma.json && stderr_is "^crowdspec: comma\\.json:2: expected ',' or '}' in a JSON object$"
printf '[]\n' >empty.json
run 2 "$CS" fit empty.json && stderr_is '^crowdspec: empty\.json: JSON without records'
printf '[{"item": "a"}] [1]' >after.json
run 2 "$CS" fit after.json && stderr_is "^crowdspec: after\\.json:1: text after the closing '\\]' of the JSON array$"
sed 's/\["Negative"\]/["Negative", "Positive"]/' project.json >multi.json
run 2 "$CS" fit multi.json && stderr_is '^crowdspec: multi\.json:[0-9]+: 2 choices in one answer \(a multi-choice control\)'
printf '[{"id": 1, "annotations": []}]' >unannotated.json
run 2 "$CS" fit unannotated.json && stderr_is '^crowdspec: unannotated\.json: a Label Studio export without annotations'

# --- pandas' own JSON, when /usr/bin/python3 has pandas.
if /usr/bin/python3 -c 'import pandas' 2>/dev/null; then
    /usr/bin/python3 -c '
import pandas as pd
frame = pd.read_csv("labels.csv")
frame.to_json("pandas.json", orient="records")
frame.to_json("pandas.jsonl", orient="records", lines=True)'
    run 0 "$CS" fit --method mv pandas.json && same out.txt expected.csv
    run 0 "$CS" fit --method mv pandas.jsonl && same out.txt expected.csv
else
    echo "note: /usr/bin/python3 has no pandas: the pandas.to_json checks were not run"
fi
no_temporaries
finish
