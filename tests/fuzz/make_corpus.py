#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Seed corpora of the libFuzzer targets (tests/fuzz), written instead of committed.

usage: make_corpus.py OUT_DIR   -> OUT_DIR/<target>/<name> for every target

The fit targets read their input as a stream of decisions (fuzz_input.hpp: a value in
[lo, hi] of span <= 256 is lo + byte % span); the seeds encode small meaningful cases
that way (a unanimous crowd, a noisy one, gold and parameters; two clusters; two
cliques), plus a few random byte strings. The readers' seeds are small files in every
format the program reads, behind three option bytes (reader, file name and format,
columns).
"""
import os
import random
import sys


def val(lo, hi, v):
    """The byte that Input::in(lo, hi) decodes as v (spans up to 256)."""
    assert lo <= v <= hi and hi - lo < 256
    return bytes([v - lo])


def crowd_seed(method, n_items, n_workers, k, triples, params=(), gold=(), cancel=None, threads=1):
    out = bytes([method])
    out += val(1, 12, n_items) + val(1, 8, n_workers) + val(2, 6, k) + val(0, 60, len(triples))
    out += bytes([1])  # bad_ids: flip(8) false
    for (j, w, c) in triples:
        out += val(0, n_items - 1, j) + val(0, n_workers - 1, w) + val(0, k - 1, c)
    out += val(0, 3, len(gold))
    for (j, c) in gold:
        out += val(0, n_items, j) + val(0, k - 1, c)
    out += bytes([0]) + val(0, 5, cancel) if cancel is not None else bytes([1])
    out += val(0, 6, len(params))
    for (index, how, value) in params:  # see fuzz_params.hpp
        out += bytes([index, how, value])
    out += val(1, 3, threads)
    return out


def fit_seeds(rng):
    seeds = {}
    unanimous = [(j, w, 1) for j in range(6) for w in range(3)]
    for m in range(10):  # every crowd method (the order of cs_method_at)
        seeds["unanimous_m%d" % m] = crowd_seed(m, 6, 3, 5, unanimous)
        noisy = [(j, w, (j + (w == 2)) % 3) for j in range(8) for w in range(4)]
        seeds["noisy_m%d" % m] = crowd_seed(m, 8, 4, 3, noisy, params=[(11, 7, 0), (13, 0, 1)], gold=[(0, 0)])
    seeds["cancel"] = crowd_seed(2, 4, 3, 2, [(j, w, (j + w) % 2) for j in range(4) for w in range(3)], cancel=2)
    seeds["other_kind"] = crowd_seed(15, 2, 2, 2, [(0, 0, 0), (1, 1, 1)])
    for i in range(8):
        seeds["random%d" % i] = bytes(rng.randrange(256) for _ in range(rng.randrange(8, 200)))
    return seeds


def points_seeds(rng):
    seeds = {}
    for m in range(2):
        out = bytes([m]) + val(1, 40, 6) + val(1, 5, 2) + bytes([1, 1]) + bytes([1])  # ld = d, not special
        for v in (0, 0, 0, 1, 1, 0, 40, 40, 40, 44, 44, 40):
            out += bytes([128 + v])
        out += val(0, 7, 2) + bytes([1]) + val(0, 4, 0) + val(1, 3, 2)
        seeds["two_clusters_m%d" % m] = out
        # issue 12's outlier case: -2 x8, 10.375, 10, 8.625 and 1e15, k = 3 (a special
        # value is a byte b: b < 32 picks special[b % 18]; else (byte - 128) / 8 + (b & 3) * 100)
        out = bytes([m]) + val(1, 40, 12) + val(1, 5, 1) + bytes([1, 1]) + bytes([0])
        out += bytes([48, 112]) * 8 + bytes([48, 211, 48, 208, 48, 197, 4])
        seeds["outlier_m%d" % m] = out + val(0, 9, 3) + bytes([1, 0, 0])
    for i in range(6):
        seeds["random%d" % i] = bytes(rng.randrange(256) for _ in range(rng.randrange(8, 300)))
    return seeds


def graph_seeds(rng):
    seeds = {}
    cliques = [(a, b) for a in range(5) for b in range(a + 1, 5)] + \
              [(a, b) for a in range(5, 10) for b in range(a + 1, 10)] + [(4, 5)]
    for m in range(3):
        out = bytes([m]) + val(1, 40, 10) + val(0, 90, len(cliques))
        for (a, b) in cliques:
            out += val(0, 9, a) + val(0, 9, b) + bytes([1])  # flip(64) false
        seeds["two_cliques_m%d" % m] = out + val(0, 7, 2) + bytes([1, 0, 0])
    seeds["self_loops"] = bytes([0]) + val(1, 40, 3) + val(0, 90, 2) + bytes([1, 1, 1, 2, 2, 1, 2, 1, 0, 0])
    for i in range(6):
        seeds["random%d" % i] = bytes(rng.randrange(256) for _ in range(rng.randrange(8, 300)))
    return seeds


def reader_seeds():
    # option bytes: kind (0 crowd, 1 truth, 2 points, 3 edges); name and format:
    # name = opts % 4 (in.csv, in.tsv, in.txt, in), format = (opts >> 2) % 4, header =
    # (opts >> 4) % 3, classes = opts >> 6; columns byte (0 = by name).
    files = {
        "crowd_csv": (0, 0, "task,worker,label\n1,a,x\n1,b,y\n2,a,x\n"),
        "crowd_quotes": (0, 0, '\ufeffitem,worker,label\r\n"a,1","w ""1""",yes\r\n"line\nbreak",w2,no\r\n'),
        "crowd_tsv": (0, 1, "question\tannotator\tanswer\tother\nq1\tu1\t3\tz\nq2\tu2\t1\tz\n"),
        "crowd_whitespace": (0, 2, "1 1 1\n1 2 2\n2 1 1\n  3   2 2\n"),
        "crowd_classes": (0, 2 + 64, "1 1 1\n1 2 3\n2 1 2\n"),
        "crowd_vt_ff": (0, 0, 'item,worker,label\n"a\x0b","b\x0c",c\n'),
        "crowd_utf8": (0, 0, "item,worker,label\n\xe9t\xe9,w,1\n\xff\xfe,w,2\n"),
        "truth": (1, 2, "1 a\n2 b\n1 a\n"),
        "truth_header": (1, 0, "item,gold\n1,a\n2,b\n"),
        "points": (2, 2, "0 0\n0 1\n10 10\n11 11\n"),
        "points_csv": (2, 0, "x,y\n1.5,2\n-3e5,1e100\n"),
        "edges": (3, 2, "a b\nb c\nc a\nd e\n"),
        "edges_header": (3, 0, "source,target\n1,2\n2,3\n"),
    }
    seeds = {}
    for name, (kind, opts, text) in files.items():
        data = text.encode("latin-1") if "\xff" in text else text.encode("utf-8")
        seeds[name] = bytes([kind, opts, 0]) + data
    return seeds


def load_seeds(rng):
    """fuzz_load: recipes (mode byte 2: a crowd fitted, saved, edited, checksum made
    right), headers of every kind of wrong (mode 0) and random payloads behind a right
    checksum (mode 1)."""
    def recipe(method, n_items, n_workers, k, triples, gold=None, edits=(), cut=None):
        out = bytes([2, method]) + val(1, 10, n_items) + val(1, 6, n_workers) + val(2, 4, k)
        out += val(1, 40, len(triples))
        for (j, w, c) in triples:
            out += val(0, n_items - 1, j) + val(0, n_workers - 1, w) + val(0, k - 1, c)
        out += bytes([1]) if gold is None else bytes([0]) + val(0, n_items - 1, gold[0]) + val(0, k - 1, gold[1])
        out += val(0, 8, len(edits))
        for (at, b) in edits:
            out += at.to_bytes(4, "big") + bytes([b])
        out += bytes([0]) + cut.to_bytes(4, "big") if cut is not None else bytes([1])
        return out

    seeds = {}
    noisy = [(j, w, (j + (w == 2)) % 3) for j in range(8) for w in range(4)]
    for m in range(5):  # ds, opt-ds, one-coin-ds, class-one-coin-ds, auto
        seeds["recipe_m%d" % m] = recipe(m, 8, 4, 3, noisy)
    seeds["recipe_gold"] = recipe(0, 8, 4, 3, noisy, gold=(1, 2))
    seeds["recipe_edits"] = recipe(4, 8, 4, 3, noisy, edits=[(40, 255), (300, 0), (700, 7)])
    seeds["recipe_cut"] = recipe(0, 8, 4, 3, noisy, cut=200)
    magic = bytes([0x89]) + b"CSM\r\n\x1a\n"
    head = magic + (1).to_bytes(4, "little") + bytes(4)
    seeds["short"] = bytes([0]) + magic[:5]
    seeds["wrong_magic"] = bytes([0]) + b"PK\x03\x04" + bytes(40)
    seeds["future_version"] = bytes([0]) + magic + (9).to_bytes(4, "little") + bytes(20)
    seeds["empty_payload"] = bytes([1]) + head + bytes(16)
    seeds["size_only"] = bytes([1]) + head + bytes(16) + b"SIZE" + bytes(4) + (17).to_bytes(8, "little") + bytes(17)
    for i in range(4):
        seeds["random%d" % i] = bytes([1]) + head + bytes(16) + bytes(rng.randrange(256) for _ in range(rng.randrange(8, 200)))
    return seeds


def json_seeds():
    # one option byte: 0 crowd file, 1 truth file, 2 the bare conversion to a table.
    files = {
        "records": (0, '[\n{"item": "a", "worker": "w1", "label": "x"},\n{"item": "a", "worker": "w2", "label": "y"}\n]\n'),
        "records_min": (0, '[{"item":1,"worker":2,"label":true,"x":null,"y":{"z":[1,2.5e3]}},{"item":"b","worker":"\\u00e9\\ud83d\\ude00","label":"x\\n"}]'),
        "lines": (0, '\ufeff{"task": "t", "user": "u", "answer": 1}\r\n{"task": "t", "user": "v", "answer": 2}\n'),
        "nested": (1, '{"method":"mv","classes":["x","y"],"items":[\n{"item":"a","label":"x","confidence":1,"posterior":{"x":1,"y":0}}\n]}\n'),
        "truth": (1, '[{"item": "a", "label": "x"}, {"item": "a", "label": "x"}]'),
        "labelstudio": (0, '[{"id": 1, "annotations": [{"id": 11, "completed_by": {"id": 2, "email": "b@x.org"}, '
                           '"result": [{"value": {"choices": ["Pos"]}, "from_name": "sentiment", "type": "choices"}]}, '
                           '{"id": 12, "completed_by": 3, "was_cancelled": true, "result": []}, '
                           '{"id": 13, "completed_by": 4, "result": [{"value": {"rating": 3}, "from_name": "r"}]}]}]'),
        "labelstudio_lines": (2, '{"id": 1, "annotations": [{"completed_by": 1, "result": [{"value": {"choices": ["a", "b"]}}]}]}\n'),
        "broken": (2, '[{"a": "\\x", "b": [1, {]}'),
    }
    return {name: bytes([kind]) + text.encode("utf-8") for name, (kind, text) in files.items()}


def comparison_seeds():
    # option bytes (fuzz_comparisons.cpp): format, header, four column flips (1 = the
    # default names), keep-rejected, file name (0 .csv, 1 .tsv, 2 .txt), method (0 bt,
    # 1 noisy-bt, 2 crowd-bt), ties (0 auto .. 3 ignore), prior flip (0 = prior 0) and
    # value (x / 8), max_iter, se_items; then the file.
    files = {
        "crowdkit": (0, 0, 0, "worker,left,right,label\nw1,a,b,a\nw2,b,c,c\nw1,c,a,c\nw3,a,b,b\n"),
        "words_ties": (1, 0, 3, "annotator,item_a,item_b,winner\nu1,1,2,left\nu2,2,3,tie\nu1,3,1,right\n"),
        "crowd_bt": (2, 2, 2, "judge\tfirst\tsecond\tresult\nj1\tx\ty\tfirst\nj2\ty\tz\tsecond\n"),
        "no_header": (2, 1, 0, "w1 i1 i2 i1\nw2 i2 i3 i3\nw2 i3 i1 tie\nw1 i1 i1 i1\n"),
        "three_fields": (2, 0, 2, "a b a\nb c b\nc a a\n"),
        "toloka": (1, 1, 0, "INPUT:image_left\tINPUT:image_right\tOUTPUT:result\tGOLDEN:result\t"
                   "ASSIGNMENT:worker_id\tASSIGNMENT:status\n"
                   "p1\tp2\tleft\t\tw1\tAPPROVED\np2\tp3\tright\t\tw2\tREJECTED\n"
                   "p3\tp1\tleft\t\tw2\tSUBMITTED\n"),
    }
    seeds = {}
    for name, (path, method, ties, text) in files.items():
        seeds[name] = bytes([0, 0, 1, 1, 1, 1, 1, path, method, ties, 1, 8, 40, 20]) + text.encode("utf-8")
    seeds["prior0"] = bytes([0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 30, 64]) + b"left,right,winner\n1,2,1\n2,1,1\n"
    return seeds


def answer_seeds(kind):
    # option bytes: opts (name, format, header, keep-rejected as in fuzz_answers.hpp),
    # columns (0 = by name), method (and, for tags, the delimiter: method >> 4).
    if kind == "numbers":
        files = {
            "numbers_csv": "item,worker,value\n1,a,1.5\n1,b,2\n2,a,-3e2\n2,b,7\n",
            "numbers_whitespace": "1 1 10\n1 2 12\n2 1 3\n2 3 4.25\n3 2 8\n",
            "numbers_emotion": "question,worker,answer\n1,A1,25\n1,A2,80\n2,A1,-40\n2,A3,-35\n",
            "numbers_toloka": "INPUT:image\tOUTPUT:size\tASSIGNMENT:worker_id\tASSIGNMENT:status\n"
                              "a.png\t3.5\tw1\tAPPROVED\na.png\t4\tw2\tREJECTED\nb.png\t1\tw1\tSUBMITTED\n",
            "numbers_bad": "item,worker,value\n1,a,nan\n",
        }
    else:
        files = {
            "tags_list": "item,worker,tags\nt1,w1,house|tree\nt1,w2,house\nt1,w3,house|tree|grass\n"
                         "t2,w1,car\nt2,w2,car|human\nt2,w3,train\n",
            "tags_rows": "item,worker,tag\nt1,w1,a\nt1,w1,b\nt2,w2,\nt1,w2,a\n",
            "tags_json": 'item,worker,tags\n1,a,"[""x"", ""y""]"\n1,b,[]\n2,a,"[""\\u00e9""]"\n',
            "tags_labelstudio": 'id,annotator,annotation_id,sentiment\n1,u1,7,"{""choices"": [""Pos"", ""Neu""]}"\n'
                                '1,u2,8,"{""choices"": [""Neg""]}"\n',
            "tags_toloka": "INPUT:text\tOUTPUT:spam\tOUTPUT:abuse\tASSIGNMENT:worker_id\n"
                           "hello\ttrue\tfalse\tw1\nhello\tfalse\tfalse\tw2\nbye\t1\t0\tw1\n",
            "tags_headerless": "1 1 a|b\n1 2\n2 1 b\n",
        }
    return {name: bytes([0, 0, 1]) + text.encode("utf-8") for name, text in files.items()}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    rng = random.Random(12)
    targets = {"fuzz_fit": fit_seeds(rng), "fuzz_points": points_seeds(rng), "fuzz_graph": graph_seeds(rng),
               "fuzz_cli_readers": reader_seeds(), "fuzz_json_readers": json_seeds(),
               "fuzz_comparisons": comparison_seeds(), "fuzz_numbers": answer_seeds("numbers"),
               "fuzz_tags": answer_seeds("tags"), "fuzz_load": load_seeds(rng)}
    for target, seeds in targets.items():
        d = os.path.join(sys.argv[1], target)
        os.makedirs(d, exist_ok=True)
        for name, data in seeds.items():
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
    print("seed corpora in %s: %s" % (sys.argv[1], ", ".join("%s %d" % (t, len(s)) for t, s in targets.items())))


if __name__ == "__main__":
    main()
