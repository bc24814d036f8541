# SPDX-License-Identifier: MIT
# crowdspec-mpi fit against crowdspec fit on the same file (issue 18).
#   bash tests/mpi/cli.sh CROWDSPEC CROWDSPEC_MPI MPIEXEC NP DATASETS_DIR [MPIEXEC_FLAGS...]
# With NP processes: the same items, labels and workers file as crowdspec fit, posteriors
# within 1e-9 (printed to 10 digits); the same error messages and exit codes; no output
# file on an error. A CSV with a header, quoted ids, CRLF line ends and string ids; the
# shared trec set when DATASETS_DIR has it (said when not).
set -u
CS=$1 CSMPI=$2 MPIEXEC=$3 NP=$4 DATASETS=$5
shift 5
WORK=$(mktemp -d "${TMPDIR:-/tmp}/crowdspec-mpi-cli.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
FAILURES=0
CHECKS=0
export LC_ALL=C

fail() {
    FAILURES=$((FAILURES + 1))
    printf 'FAIL: %s\n' "$*" >&2
}

run_mpi() { "$MPIEXEC" -n "$NP" "${MPIFLAGS[@]}" "$CSMPI" "$@"; }
MPIFLAGS=("$@")

# same_rows A B: the same rows in any order (the header first in both); text fields equal,
# numbers within 1e-9.
same_rows() {
    CHECKS=$((CHECKS + 1))
    if [ "$(head -1 "$1")" != "$(head -1 "$2")" ]; then
        fail "$2: header '$(head -1 "$2")' differs from '$(head -1 "$1")'"
        return
    fi
    tail -n +2 "$1" | sort >a.sorted
    tail -n +2 "$2" | sort >b.sorted
    if [ "$(wc -l <a.sorted)" != "$(wc -l <b.sorted)" ]; then
        fail "$2: $(wc -l <b.sorted) rows, expected $(wc -l <a.sorted)"
        return
    fi
    local bad
    bad=$(paste -d '\n' a.sorted b.sorted | awk -F"$3" '
        NR % 2 == 1 { n = split($0, a); next }
        {
            m = split($0, b)
            if (m != n) { print "row " NR/2 ": field count"; exit }
            for (i = 1; i <= n; i++) {
                if (a[i] == b[i]) continue
                if (a[i] ~ /^[-+0-9.eE]+$/ && b[i] ~ /^[-+0-9.eE]+$/) {
                    d = a[i] - b[i]; if (d < 0) d = -d
                    if (d <= 1e-9) continue
                }
                print "row " NR/2 " field " i ": " a[i] " vs " b[i]; exit
            }
        }')
    [ -z "$bad" ] || fail "$2: $bad"
}

# A crowd: 400 items with string ids (one quoted with a comma), 12 workers, 3 classes,
# CRLF line ends, a header with extra columns.
awk 'BEGIN {
    srand(7); printf "id,task,annotator,answer,comment\r\n"
    for (j = 1; j <= 400; j++) {
        y = j % 3
        for (r = 0; r < 4; r++) {
            w = (j * 7 + r * 5) % 12
            c = (rand() < (w < 8 ? 0.8 : 0.4)) ? y : int(rand() * 3)
            item = (j == 17) ? "\"item, 17\"" : "item-" j
            printf "%d,%s,ann%d,%s,x\r\n", j * 4 + r, item, w, (c == 0 ? "cat" : c == 1 ? "dog" : "bird")
        }
    }
}' >crowd.csv

for method in opt-ds ds mv; do
    "$CS" fit --quiet --method "$method" --threads 1 -o ref.csv -w ref_workers.csv crowd.csv ||
        fail "crowdspec fit --method $method"
    if run_mpi fit --quiet --method "$method" --threads 1 -o got.csv -w got_workers.csv crowd.csv; then
        same_rows ref.csv got.csv ,
        CHECKS=$((CHECKS + 1))
        # The workers file keeps crowdspec fit's order (the same numbering rule).
        [ "$(cut -d, -f1-2 ref_workers.csv)" = "$(cut -d, -f1-2 got_workers.csv)" ] ||
            fail "$method: workers file order or label counts differ"
        # crowdspec fit appends the worker diagnostics (spammer, worst_class,
        # label_accuracy and its interval, issue 34), which crowdspec-mpi does not write
        # yet: the columns both write must agree.
        shared=$(head -1 got_workers.csv | tr ',' '\n' | wc -l)
        cut -d, -f1-"$shared" ref_workers.csv >ref_workers_shared.csv
        same_rows ref_workers_shared.csv got_workers.csv ,
    else
        fail "crowdspec-mpi fit --method $method failed"
    fi
done

# TSV and JSON outputs.
"$CS" fit --quiet --threads 1 --format tsv crowd.csv >ref.tsv
run_mpi fit --quiet --threads 1 --format tsv crowd.csv >got.tsv || fail "tsv output"
same_rows ref.tsv got.tsv "$(printf '\t')"
run_mpi fit --quiet --threads 1 -o got.json crowd.csv || fail "json output"
CHECKS=$((CHECKS + 1))
[ "$(head -c 48 got.json)" = '{"method":"auto","classes":["bird","cat","dog"],' ] &&
    [ "$(grep -c '"item":' got.json)" = 400 ] && [ "$(tail -1 got.json)" = ']}' ] ||
    fail "json output: $(head -c 80 got.json) ... $(tail -c 20 got.json)"

# Errors: the same message (after the program's name) and exit code as crowdspec fit,
# and no output file.
expect_same_error() {
    local what=$1 file=$2
    shift 2
    "$CS" fit --quiet "$@" "$file" >/dev/null 2>ref.err
    local want=$?
    rm -f never.csv
    run_mpi fit --quiet "$@" -o never.csv "$file" >/dev/null 2>got.err
    local got=$?
    CHECKS=$((CHECKS + 1))
    local ref_line got_line
    ref_line=$(sed -n 's/^crowdspec: //p' ref.err | head -1)
    got_line=$(sed -n 's/^crowdspec-mpi: //p' got.err | head -1)
    if [ "$got" != "$want" ] || [ "$ref_line" != "$got_line" ] || [ -z "$got_line" ]; then
        fail "$what: exit $got '$got_line', crowdspec fit: exit $want '$ref_line'"
    fi
    [ ! -e never.csv ] || fail "$what: the output file was created"
}
awk 'NR == 1500 { print "item-9,ann1,cat,oops,too,many"; next } { print }' crowd.csv >bad_fields.csv
expect_same_error "a bad line near the end" bad_fields.csv
awk '{ print } END { printf "9999,item-300,ann5,dog,x\r\n" }' crowd.csv >dup.csv
expect_same_error "a duplicate label" dup.csv
expect_same_error "a label outside --classes" crowd.csv --classes cat,dog
printf 'task,worker,label\n' >header_only.csv
expect_same_error "a header and no labels" header_only.csv

CHECKS=$((CHECKS + 1))
run_mpi fit --method kos crowd.csv >/dev/null 2>err.txt
[ $? = 1 ] && grep -q "cannot be fitted across processes" err.txt || fail "--method kos: $(head -1 err.txt)"

# A platform export (Toloka preset): rejected assignments skipped as crowdspec fit skips
# them (the same note); its gold column is refused (crowdspec-mpi pins no gold) unless
# --gold-col none, and then the fit is crowdspec fit's without gold.
awk 'BEGIN {
    t = "\t"; srand(3)
    print "INPUT:image" t "OUTPUT:result" t "GOLDEN:result" t "ASSIGNMENT:task_id" t "ASSIGNMENT:worker_id" t "ASSIGNMENT:status"
    for (i = 1; i <= 300; i++) for (w = 1; w <= 5; w++) {
        y = i % 2; c = rand() < (w < 4 ? 0.85 : 0.55) ? y : 1 - y
        print "img" i ".jpg" t (c ? "dog" : "cat") t (i % 60 == 0 ? "cat" : "") t "t" i t "w" w t \
              ((i * w) % 41 == 0 ? "REJECTED" : "APPROVED")
    }
}' >toloka.tsv
"$CS" fit --gold-col none --threads 1 -o ref.csv toloka.tsv 2>ref.err || fail "crowdspec fit toloka.tsv"
if run_mpi fit --gold-col none --threads 1 -o got.csv toloka.tsv 2>got.err; then
    same_rows ref.csv got.csv ,
    CHECKS=$((CHECKS + 1))
    [ "$(grep 'preset' ref.err | sed 's/^crowdspec: //')" = "$(grep 'preset' got.err | sed 's/^crowdspec-mpi: //')" ] ||
        fail "toloka.tsv: read note '$(grep preset got.err)', crowdspec fit: '$(grep preset ref.err)'"
else
    fail "crowdspec-mpi fit --gold-col none toloka.tsv: $(head -1 got.err)"
fi
CHECKS=$((CHECKS + 1))
run_mpi fit --quiet -o never.csv toloka.tsv >/dev/null 2>err.txt
[ $? = 2 ] && grep -q "does not pin gold items: give --gold-col none" err.txt && [ ! -e never.csv ] ||
    fail "in-file gold: $(head -1 err.txt)"

# The shared trec set (whitespace format, integer ids).
if [ -f "$DATASETS/trec_crowd.txt" ]; then
    "$CS" fit --quiet --threads 1 -o ref.csv "$DATASETS/trec_crowd.txt" || fail "crowdspec fit trec"
    run_mpi fit --quiet --threads 1 -o got.csv "$DATASETS/trec_crowd.txt" || fail "crowdspec-mpi fit trec"
    same_rows ref.csv got.csv ,
else
    echo "trec: $DATASETS/trec_crowd.txt not found, that comparison is skipped"
fi

if [ "$FAILURES" -gt 0 ]; then
    echo "$FAILURES of $CHECKS checks failed ($NP processes)"
    exit 1
fi
echo "all $CHECKS checks passed ($NP processes)"
