#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Binary label files (`crowdspec convert`, docs/binary-format.md): the layout of a small
# file checked byte by byte against the document; fit, evaluate and predict of the five
# shared datasets giving the same bytes from the binary file as from the text; every
# kind of damage (truncation, a flipped byte in each section, another version, trailing
# bytes) refused with a one-line error; duplicates and --classes.
# Usage: binary.sh PATH/TO/crowdspec DATASETS_DIR
. "$(dirname "$0")/lib.sh"
DATA=${1:-}
[ -n "$DATA" ] && DATA=$(abspath "$DATA")

# u32 FILE OFFSET / u64 FILE OFFSET: a little-endian integer of the file.
u32() { od -An -tu4 -j "$2" -N4 --endian=little "$1" | tr -d ' '; }
u64() { od -An -tu8 -j "$2" -N8 --endian=little "$1" | tr -d ' '; }
is() {  # is WHAT GOT EXPECTED
    CHECKS=$((CHECKS + 1))
    [ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"
}

# --- The layout of a small file, computed by hand from docs/binary-format.md ------
# Ids that are not all integers are numbered by first appearance: items i1 = 0, i0 = 1;
# workers w2 = 0, w0 = 1, w1 = 2; classes by byte order: a = 0, b = 1.
printf 'item,worker,label\ni1,w2,b\ni0,w0,a\ni1,w0,a\ni0,w1,b\ni0,w2,b\n' >tiny.csv
run 0 "$CS" convert tiny.csv tiny.cslab
stderr_is '^crowdspec: wrote tiny.cslab: 5 labels, 2 items, 3 workers, 2 classes, 472 bytes \(94.40 bytes per label\)$'
# header 192; classes at 192: 16 + 3 x 8 + 2 = 42 bytes (to 234, padded to 256);
# items at 256: 16 + 24 + 4 = 44 (to 300 -> 320); workers at 320: 16 + 32 + 6 = 54
# (to 374 -> 384); codes at 384: 5 x 4 = 20 (to 404 -> 448); item offsets at 448: 24.
is "file size" "$(wc -c <tiny.cslab | tr -d ' ')" 472
is "magic" "$(od -An -tx1 -N8 tiny.cslab | tr -d ' ')" 8943534c41420d0a
is "version" "$(u32 tiny.cslab 8)" 1
is "byte order mark" "$(od -An -tx1 -j12 -N4 tiny.cslab | tr -d ' ')" 04030201
is "header size" "$(u32 tiny.cslab 16)" 192
is "labels" "$(u64 tiny.cslab 24)" 5
is "items" "$(u64 tiny.cslab 32)" 2
is "workers" "$(u64 tiny.cslab 40)" 3
is "k" "$(u64 tiny.cslab 48)" 2
is "file size field" "$(u64 tiny.cslab 56)" 472
for s in "0 192 42" "1 256 44" "2 320 54" "3 448 24" "4 384 20"; do
    set -- $s
    is "section $1 offset" "$(u64 tiny.cslab $((64 + 24 * $1)))" "$2"
    is "section $1 size" "$(u64 tiny.cslab $((72 + 24 * $1)))" "$3"
done
is "class names" "$(dd if=tiny.cslab bs=1 skip=232 count=2 2>/dev/null)" ab
is "item names" "$(dd if=tiny.cslab bs=1 skip=296 count=4 2>/dev/null)" i1i0
is "worker names" "$(dd if=tiny.cslab bs=1 skip=368 count=6 2>/dev/null)" w2w0w1
# Codes worker * 2 + label, item by item, each item's labels by worker index:
# i1: (w2 = 0, b) 1, (w0 = 1, a) 2; i0: (w2 = 0, b) 1, (w0 = 1, a) 2, (w1 = 2, b) 5
# (in the file i0's labels come w0, w1, w2). Offsets 0, 2, 5.
words() { od -An "$@" --endian=little tiny.cslab | tr -s ' \n' '  ' | sed -e 's/^ //' -e 's/ $//'; }
is "codes" "$(words -tu4 -j384 -N20)" "1 2 1 2 5"
is "item offsets" "$(words -tu8 -j448 -N24)" "0 2 5"
# A file of integer ids 1..n stores them as a range (24 bytes, no names).
printf '1 1 1\n1 2 2\n2 1 2\n2 2 2\n3 2 1\n' >ints.txt
run 0 "$CS" convert -q ints.txt ints.cslab
is "range dictionary kind" "$(u64 ints.cslab $(( $(u64 ints.cslab 88) + 8 )))" 1
is "range dictionary first" "$(u64 ints.cslab $(( $(u64 ints.cslab 88) + 16 )))" 1
is "range dictionary size" "$(u64 ints.cslab 96)" 24

# --- The same results as the text, bit for bit --------------------------------------
run 0 "$CS" fit $T1 -q -m mv tiny.csv -o a.csv && run 0 "$CS" fit $T1 -q -m mv tiny.cslab -o b.csv && same a.csv b.csv
contains b.csv 'i0,b,0.6666666667,0.3333333333,0.6666666667'
if [ -n "$DATA" ] && [ -f "$DATA/web_crowd.txt" ]; then
    for s in bluebird dog rte trec web; do
        run 0 "$CS" convert -q "$DATA/${s}_crowd.txt" $s.cslab || continue
        for m in ds opt-ds; do
            run 0 "$CS" fit $T1 -q -m $m "$DATA/${s}_crowd.txt" -o t.csv -w tw.csv
            run 0 "$CS" fit $T1 -q -m $m $s.cslab -o b.csv -w bw.csv
            same t.csv b.csv
            same tw.csv bw.csv
        done
    done
    run 0 "$CS" evaluate $T1 -q -m mv,ds,glad "$DATA/dog_crowd.txt" -t "$DATA/dog_truth.txt"
    sed 's/"seconds":[0-9.e-]*//' out.txt >ev_text.txt
    run 0 "$CS" evaluate $T1 -q -m mv,ds,glad dog.cslab -t "$DATA/dog_truth.txt"
    sed 's/"seconds":[0-9.e-]*//' out.txt >ev_bin.txt
    same ev_text.txt ev_bin.txt
    run 0 "$CS" fit $T1 -q -m ds "$DATA/web_crowd.txt" -o /dev/null -w web_w.csv
    run 0 "$CS" predict $T1 -q -w web_w.csv "$DATA/web_crowd.txt" -o t.csv
    run 0 "$CS" predict $T1 -q -w web_w.csv web.cslab -o b.csv
    same t.csv b.csv
    # binary -> binary is the same file.
    run 0 "$CS" convert -q web.cslab again.cslab && same web.cslab again.cslab
else
    echo "note: no datasets directory given: the shared-dataset comparisons are skipped" >&2
fi

# --- Damage -------------------------------------------------------------------------
# flip FILE OFFSET: xor one byte with 0x01 in place.
flip() {
    local b
    b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
    printf "$(printf '\\%03o' $((b ^ 1)))" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
damaged() {  # damaged FILE REGEX: fit refuses FILE with exit 2 and one line
    run 2 "$CS" fit -q "$1" && stderr_is "^crowdspec: $1: $2"
}
head -c 300 tiny.cslab >cut.cslab
damaged cut.cslab 'truncated binary label file: 300 of its 472 bytes'
head -c 100 tiny.cslab >short.cslab
damaged short.cslab 'truncated binary label file: 100 bytes, less than its 192-byte header'
for s in "0 class dictionary" "1 item dictionary" "2 worker dictionary" "3 item offsets" "4 codes"; do
    set -- $s
    cp tiny.cslab bad.cslab
    flip bad.cslab $(( $(u64 tiny.cslab $((64 + 24 * $1))) + 1 ))
    damaged bad.cslab "the checksum of the ${s#* } does not match: the file is corrupt"
done
cp tiny.cslab bad.cslab && flip bad.cslab 40
damaged bad.cslab "the header's checksum does not match: the file is corrupt"
cp tiny.cslab bad.cslab && flip bad.cslab 8   # version 1 -> 0
damaged bad.cslab 'binary label format version 0; this crowdspec reads version 1'
cp tiny.cslab bad.cslab && flip bad.cslab 15  # byte order mark
damaged bad.cslab 'unknown byte order mark'
cp tiny.cslab bad.cslab && printf 'x' >>bad.cslab
damaged bad.cslab '1 bytes after the end of the binary label file \(472 bytes\)'
run 2 "$CS" evaluate -q cut.cslab -t tiny.csv && stderr_is 'truncated binary label file'
# Only the magic decides: a text file stays a text file.
printf 'CSLAB x y\n' >notbinary.txt
run 3 "$CS" fit -q notbinary.txt && stderr_is "the input's only label is 'y'"

# A dictionary with a name twice, its checksums made right again (the algorithm of
# docs/binary-format.md, written out here): refused as malformed, not fitted.
# rename FILE SECTION OFFSET BYTES: overwrite the bytes at OFFSET of section SECTION.
rename() {
    python3 - "$@" <<'PY'
import sys
path, section, offset, new = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4].encode()
M, K = 2**64 - 1, 0x9E3779B97F4A7C15
rotl = lambda x, r: ((x << r) | (x >> (64 - r))) & M
def check(b):
    h = [0x243F6A8885A308D3, 0x13198A2E03707344, 0xA4093822299F31D0, 0x082EFA98EC4E6C89]
    padded = b + bytes(-len(b) % 8)
    for n in range(len(padded) // 8):
        h[n % 4] = ((rotl(h[n % 4], 29) ^ int.from_bytes(padded[8 * n:8 * n + 8], "little")) * K) & M
    r = len(b)
    for lane in h:
        r = ((rotl(r, 29) ^ lane) * K) & M
    return r ^ (r >> 32)
f = bytearray(open(path, "rb").read())
u64 = lambda at: int.from_bytes(f[at:at + 8], "little")
start, size, entry = u64(64 + 24 * section), u64(72 + 24 * section), 80 + 24 * section
assert check(bytes(f[start:start + size])) == u64(entry), "the checksum as documented"
assert check(bytes(f[:184])) == u64(184), "the header checksum as documented"
f[offset:offset + len(new)] = new
f[entry:entry + 8] = check(bytes(f[start:start + size])).to_bytes(8, "little")
f[184:192] = check(bytes(f[:184])).to_bytes(8, "little")
open(path, "wb").write(f)
PY
}
if command -v python3 >/dev/null 2>&1; then
    for s in "0 232 aa class a" "1 296 i1i1 item i1" "2 368 w2w0w2 worker w2"; do
        set -- $s
        cp tiny.cslab twice.cslab && rename twice.cslab $1 $2 $3
        damaged twice.cslab "malformed $4 dictionary \\(the name '$5' is there twice\\)"
    done
    # Names that differ are kept: the same file with other distinct names still fits.
    cp tiny.cslab other.cslab && rename other.cslab 0 232 ba
    run 0 "$CS" fit -q -m mv other.cslab -o other.csv && contains other.csv 'item,label,confidence,p_b,p_a'
else
    echo "note: no python3: the repeated-name checks are skipped" >&2
fi

# --- Duplicates, classes, usage -----------------------------------------------------
printf 'i0 w0 a\ni0 w1 b\ni0 w0 b\ni1 w1 a\n' >dup.txt
run 0 "$CS" convert -q dup.txt dup.cslab
run 3 "$CS" fit -q dup.cslab && stderr_is "^crowdspec: dup.cslab: worker 'w0' labels item 'i0' twice; use --duplicates first"
for d in first last; do
    run 0 "$CS" fit -q -m mv --duplicates $d dup.txt -o t.csv
    run 0 "$CS" fit -q -m mv --duplicates $d dup.cslab -o b.csv
    same t.csv b.csv
done
run 0 "$CS" fit -q -m mv --classes 2 tiny.cslab -o /dev/null
run 1 "$CS" fit -q --classes 3 tiny.cslab && stderr_is 'binary label file with 2 classes \(a,b\)'
run 2 "$CS" fit -q --classes b,a tiny.cslab && stderr_is 'whose classes are a,b \(in this order\)'
run 1 "$CS" convert tiny.csv - && stderr_is 'OUT must be a file'
# A binary file through a pipe cannot be mapped: said so, not parsed as text.
for c in "fit -q -" "convert -q - piped.cslab" "evaluate -q - -t tiny.csv"; do
    run 2 sh -c "cat tiny.cslab | \"\$0\" $c" "$CS" &&
        stderr_is '^crowdspec: <stdin>: a crowdspec binary label file, which is read mapped from a regular file'
done
run 2 "$CS" fit -q - <tiny.cslab && stderr_is 'give its file name instead of a pipe or standard input$'
run 1 "$CS" convert tiny.csv && stderr_is 'expected IN and OUT'
run 4 "$CS" convert tiny.csv no/such/dir/x.cslab && stderr_is 'no/such/dir/x.cslab: cannot create the file'

[ "$FAILURES" -eq 0 ] || { echo "$FAILURES of $CHECKS checks failed" >&2; exit 1; }
echo "binary: $CHECKS checks passed"
