#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fit and evaluate with --answers tags|numbers (issue 37): every tags form of one crowd
# (one row per tag, a delimited list, a JSON list, Label Studio's choices, Toloka's
# OUTPUT:<tag> columns, headerless rows, empty sets) gives the same output; the
# thresholds; the workers files; evaluate's Hamming loss, per-tag F1, exact-set
# accuracy, MAE and RMSE on hand-checked cases; the errors.
. "$(dirname "$0")/lib.sh"

# crowd-kit's BinaryRelevance example; majority vote per tag gives the vote shares.
cat >list.csv <<'CSV'
item,worker,tags
t1,w1,house|tree
t1,w2,house
t1,w3,house|tree|grass
t2,w1,car
t2,w2,car|human
t2,w3,train
CSV
cat >expected.csv <<'CSV'
item,tags,p_car,p_grass,p_house,p_human,p_train,p_tree
t1,house|tree,0,0.333333,1,0,0,0.666667
t2,car,0.666667,0,0,0.333333,0.333333,0
CSV
run 0 "$CS" fit $T1 -q --answers tags --method mv -o out_list.csv list.csv && same out_list.csv expected.csv
# One row per tag, in any order, with an answer's rows apart.
cat >rows.csv <<'CSV'
task,annotator,tag
t1,w1,tree
t2,w3,train
t1,w2,house
t2,w1,car
t1,w3,grass
t2,w2,human
t1,w3,house
t1,w1,house
t2,w2,car
t1,w3,tree
CSV
run 0 "$CS" fit $T1 -q --answers tags --method mv -o out_rows.csv rows.csv && same out_rows.csv expected.csv
# A JSON list per cell (Toloka's checkbox-group value) and another delimiter.
cat >json.csv <<'CSV'
item,worker,tags
t1,w1,"[""house"", ""tree""]"
t1,w2,"[""house""]"
t1,w3,"[""house"",""tree"",""grass""]"
t2,w1,"[""car""]"
t2,w2,"[""car"", ""human""]"
t2,w3,"[""train""]"
CSV
run 0 "$CS" fit $T1 -q --answers tags --method mv -o out_json.csv json.csv && same out_json.csv expected.csv
sed 's/|/;/g' list.csv >semicolon.csv
sed 's/|/;/g' expected.csv >expected_semicolon.csv
run 0 "$CS" fit $T1 -q --answers tags --method mv --tag-delimiter ';' -o out_semi.csv semicolon.csv &&
    same out_semi.csv expected_semicolon.csv
# Label Studio's CSV export of a multiple choice.
cat >labelstudio.csv <<'CSV'
id,text,annotator,annotation_id,objects
t1,a,w1,1,"{""choices"": [""house"", ""tree""]}"
t1,a,w2,2,"{""choices"": [""house""]}"
t1,a,w3,3,"{""choices"": [""house"", ""tree"", ""grass""]}"
t2,b,w1,4,"{""choices"": [""car""]}"
t2,b,w2,5,"{""choices"": [""car"", ""human""]}"
t2,b,w3,6,"{""choices"": [""train""]}"
CSV
run 0 "$CS" fit $T1 -q --answers tags --method mv --label-col objects -o out_ls.csv labelstudio.csv &&
    same out_ls.csv expected.csv
# Toloka: one OUTPUT:<tag> column of true/false per tag; a rejected assignment is skipped.
printf 'INPUT:image\tOUTPUT:car\tOUTPUT:grass\tOUTPUT:house\tOUTPUT:human\tOUTPUT:train\tOUTPUT:tree\tASSIGNMENT:worker_id\tASSIGNMENT:status\n' >toloka.tsv
printf 't1\tfalse\tfalse\ttrue\tfalse\tfalse\ttrue\tw1\tAPPROVED\n' >>toloka.tsv
printf 't1\tfalse\tfalse\ttrue\tfalse\tfalse\tfalse\tw2\tAPPROVED\n' >>toloka.tsv
printf 't1\tfalse\ttrue\ttrue\tfalse\tfalse\ttrue\tw3\tSUBMITTED\n' >>toloka.tsv
printf 't1\ttrue\ttrue\ttrue\ttrue\ttrue\ttrue\tw4\tREJECTED\n' >>toloka.tsv
printf 't2\ttrue\tfalse\tfalse\tfalse\tfalse\tfalse\tw1\tAPPROVED\n' >>toloka.tsv
printf 't2\ttrue\tfalse\tfalse\ttrue\tfalse\tfalse\tw2\tAPPROVED\n' >>toloka.tsv
printf 't2\tfalse\tfalse\tfalse\tfalse\ttrue\tfalse\tw3\tAPPROVED\n' >>toloka.tsv
run 0 "$CS" fit $T1 --answers tags --method mv -o out_toloka.csv toloka.tsv && same out_toloka.csv expected.csv
contains err.txt "1 rows skipped by their assignment status"
# Headerless whitespace rows: item worker tags, or item worker alone (no tag).
printf 't1 w1 house|tree\nt1 w2 house\nt1 w3 house|tree|grass\nt2 w1 car\nt2 w2 car|human\nt2 w3 train\nt3 w1\n' >plain.txt
run 0 "$CS" fit $T1 -q --answers tags --method mv -o out_plain.csv plain.txt &&
    { head -3 out_plain.csv >head.csv; same head.csv expected.csv; contains out_plain.csv "t3,,0,0,0,0,0,0"; }

# Thresholds: one for every tag, or per tag (the others 0.5).
run 0 "$CS" fit $T1 -q --answers tags --method mv --threshold 0.3 list.csv &&
    { contains out.txt "t1,grass|house|tree,"; contains out.txt "t2,car|human|train,"; }
run 0 "$CS" fit $T1 -q --answers tags --method mv --threshold car=0.9,grass=0.2 list.csv &&
    { contains out.txt "t1,grass|house|tree,"; contains out.txt "t2,,"; }
# Workers: per tag sensitivity and specificity (mv: one M-step from the vote shares;
# w2 on house: ticked it on t1, whose share is 1, so sensitivity 1).
run 0 "$CS" fit $T1 -q --answers tags --method mv -o items.csv -w workers.csv list.csv &&
    { contains workers.csv "worker,answers,sensitivity_car,sensitivity_grass,sensitivity_house"; contains workers.csv "w2,2,"; }
# The default (auto) is tag-pooled; tags and crowd methods both run.
for method in auto tag-pooled ds wawa; do
    run 0 "$CS" fit $T1 -q --answers tags --method "$method" list.csv &&
        { contains out.txt "t1,house|tree,"; contains out.txt "t2,car,"; }
done

# evaluate, tags: truth t1 {house, tree}, t2 {car, human}; mv predicts t1 {house, tree},
# t2 {car}: one wrong entry of 12 (Hamming 1/12), one exact set of 2, F1 car 1, house
# 1, human 0, tree 1 (grass, train: neither true nor predicted: null), macro 3/4, micro
# 2 x 3 / (2 x 3 + 0 + 1) = 6/7.
printf 'item,tags\nt1,house|tree\nt2,car|human\n' >truth_tags.csv
run 0 "$CS" evaluate $T1 -q --answers tags --method mv --truth truth_tags.csv list.csv &&
    contains out.txt '{"method":"mv","hamming_loss":0.0833333,"exact_set_accuracy":0.5,"macro_f1":0.75,"micro_f1":0.857143,"f1":{"car":1,"grass":null,"house":1,"human":0,"train":null,"tree":1},"scored":2,'
run 0 "$CS" evaluate $T1 -q --answers tags --method all --truth truth_tags.csv list.csv &&
    { contains out.txt '"method":"tag-pooled"'; contains out.txt '"method":"ds"'; contains out.txt '"method":"bwa"'; }

# Numbers: the mean per item with s / sqrt(n) (item 2 has one answer: the pooled
# within-item deviation sqrt(16/3)); residual bias and noise per worker.
cat >numbers.csv <<'CSV'
question,worker,answer
1,a,1
1,b,2
1,c,6
2,a,4
3,b,3
3,c,5
CSV
cat >expected_numbers.csv <<'CSV'
item,value,se
1,3,1.52753
2,4,2.3094
3,4,1
CSV
run 0 "$CS" fit $T1 -q --answers numbers --method mean -o out_numbers.csv -w workers_numbers.csv numbers.csv &&
    { same out_numbers.csv expected_numbers.csv; contains workers_numbers.csv "worker,answers,bias,noise"; contains workers_numbers.csv "a,2,-1,1"; }
# Headerless whitespace and TSV give the same.
tail -n +2 numbers.csv | tr ',' ' ' >numbers.txt
run 0 "$CS" fit $T1 -q --answers numbers --method mean -o out_plain_numbers.csv numbers.txt &&
    same out_plain_numbers.csv expected_numbers.csv
run 0 "$CS" fit $T1 -q --answers numbers --method mean --format json numbers.csv &&
    contains out.txt '{"item":"1","value":3,"se":1.52753}'
# evaluate, numbers: truth 2, 4, 5 against the means 3, 4, 4: MAE 2/3, RMSE sqrt(2/3).
printf '1 2\n2 4\n3 5\n' >truth_numbers.txt
run 0 "$CS" evaluate $T1 -q --answers numbers --method mean --truth truth_numbers.txt numbers.csv &&
    contains out.txt '{"method":"mean","mae":0.666667,"rmse":0.816497,"scored":3,'
run 0 "$CS" evaluate $T1 -q --answers numbers --truth truth_numbers.txt numbers.csv &&
    contains out.txt '"method":"auto (student-t)"'
run 0 "$CS" evaluate $T1 -q --answers numbers --method all --truth truth_numbers.txt numbers.csv &&
    { contains out.txt '"method":"catd"'; contains out.txt '"method":"crh"'; contains out.txt '"method":"trimmed-mean"'; }

# report: the page's sections, the scores of every method asked for, self-contained.
run 0 "$CS" report $T1 -q --answers numbers --truth truth_numbers.txt --method mean,median -o numbers.html numbers.csv &&
    { contains numbers.html '<section id="truth">'; contains numbers.html '<section id="workers">';
      contains numbers.html '<section id="items">'; contains numbers.html '<td class="id">median</td>';
      contains numbers.html '<td class="num">0.6667</td>'; lacks numbers.html '<script'; }
run 0 "$CS" report $T1 -q --answers tags --method mv,ds --truth truth_tags.csv -o tags.html list.csv &&
    { contains tags.html '<section id="tags">'; contains tags.html '<td class="num">0.0833</td>';
      contains tags.html 'id="least-ticking"'; lacks tags.html '<script'; }
run 1 "$CS" report --answers tags --method mv,ds list.csv && stderr_is "only scored on --truth FILE"

# Errors: one line each, with the file and line where there is one.
printf 'item,worker,value\n1,a,1\n1,b,many\n' >bad_numbers.csv
run 2 "$CS" fit --answers numbers bad_numbers.csv && stderr_is "^crowdspec: bad_numbers\.csv:3: the value 'many' is not a finite number"
printf 'item,worker,tags\n1,a,"[""x"", 3"\n' >bad_json.csv
run 2 "$CS" fit --answers tags bad_json.csv && stderr_is "^crowdspec: bad_json\.csv:2: the tags .*JSON"
run 1 "$CS" fit --answers shapes list.csv && stderr_is "^crowdspec: --answers 'shapes': expected classes, tags or numbers$"
run 1 "$CS" fit --answers tags --method gaussian list.csv && stderr_is "^crowdspec: --method gaussian: does not take tags"
run 1 "$CS" fit --answers numbers --method ds numbers.csv && stderr_is "^crowdspec: --method ds: does not take numbers"
run 1 "$CS" fit -q --answers tags --threshold bike=0.2 list.csv && stderr_is "^crowdspec: --threshold: no tag 'bike' in the answers$"
run 1 "$CS" fit --answers numbers --classes 3 numbers.csv && stderr_is "--classes is for class labels"
run 1 "$CS" fit --answers numbers --format json-nested numbers.csv && stderr_is "json-nested is the layout of class labels"
run 1 "$CS" evaluate --answers numbers numbers.csv && stderr_is "give the true values or tag sets with --truth FILE"
printf 'item,worker,value\n1,a,1\n1,a,2\n' >dup.csv
run 3 "$CS" fit -q --answers numbers dup.csv &&
    stderr_is "^crowdspec: dup\.csv:3: worker 'a' labels item '1' again \(first on line 2\); use --duplicates first"
run 0 "$CS" fit -q --answers numbers --duplicates last --method mean dup.csv && contains out.txt "1,2,"
printf 'item,worker,tags\n1,a,\n' >empty_tags.csv
run 2 "$CS" fit -q --answers tags empty_tags.csv && stderr_is "no answer has a tag"
# JSON records (issue 39): a JSON list of tags per record, numbers as written; messages
# name the JSON line, or the record of a one-line array. a: x in 2 of 2 answers, y in 1.
printf '[\n{"item": "a", "worker": "w1", "tags": ["x", "y"]},\n{"item": "a", "worker": "w2", "tags": ["x"]},\n{"item": "b", "worker": "w1", "tags": []}\n]\n' >tags.json
run 0 "$CS" fit -q --answers tags --method mv tags.json && contains out.txt "a,x|y,1,0.5"
printf '[{"item": "a", "worker": "w1", "value": 1.5},\n {"item": "a", "worker": "w2", "value": 2.5}]\n' >numbers.json
run 0 "$CS" fit -q --answers numbers --method mean numbers.json && contains out.txt "a,2,0.5"
printf '[{"item": "a", "worker": "w1", "value": 1.5}, {"item": "a", "worker": "w2", "value": "x"}]' >bad_number.json
run 2 "$CS" fit --answers numbers bad_number.json && stderr_is "^crowdspec: bad_number\.json: record 2: the value 'x' is not a finite number"
# Label Studio's JSON export of a multiple choice: each answer's choices are its tags.
# Item 1: cat in 2 of 2 answers, dog in 1; item 2: none (an empty choice), dog.
cat >ls_tags.json <<'JSON'
[
  {"id": 1, "annotations": [
    {"id": 11, "completed_by": 1, "result": [{"value": {"choices": ["cat", "dog"]}, "from_name": "animals", "type": "choices"}]},
    {"id": 12, "completed_by": 2, "result": [{"value": {"choices": ["cat"]}, "from_name": "animals", "type": "choices"}]}]},
  {"id": 2, "annotations": [
    {"id": 21, "completed_by": 1, "result": [{"value": {"choices": []}, "from_name": "animals", "type": "choices"}]},
    {"id": 22, "completed_by": 2, "result": [{"value": {"choices": ["dog"]}, "from_name": "animals", "type": "choices"}]}]}
]
JSON
run 0 "$CS" fit -q --answers tags --method mv ls_tags.json
printf 'item,tags,p_cat,p_dog\n1,cat|dog,1,0.5\n2,dog,0,0.5\n' >expected_ls_tags.csv
same out.txt expected_ls_tags.csv
run 2 "$CS" fit --method mv ls_tags.json && stderr_is "^crowdspec: ls_tags\.json:3: 2 choices in one answer .*--answers tags"
finish
