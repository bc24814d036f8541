#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# crowdspec report in a real browser: headless chromium renders the report; every
# chart must be laid out with a non-zero size and its marks drawn, the wide charts must
# span the text column, the tables (items to relabel, workers to review, accuracy on
# the gold items, agreement per class) must have their rows, and at 1280 px the page
# must not scroll sideways even with very long item and worker ids (measured in the
# page by a probe script added to a copy -- the report itself has no script; a copy
# with a 2000 px element checks that the probe does see an overflow). A screenshot of
# the page must be a non-empty PNG. Skipped (exit 77) without chromium.
. "$(dirname "$0")/lib.sh"

browser=""
for candidate in chromium chromium-browser google-chrome; do
    if command -v "$candidate" >/dev/null 2>&1; then
        browser=$candidate
        break
    fi
done
[ -n "$browser" ] || skip "chromium is not installed (Debian: apt-get install chromium); the report was not rendered"

# A Toloka-shaped export of a simulated crowd with long ids: item paths of ~90
# characters, worker ids of ~60, and worker 1 a 160-character id without a break
# opportunity (every worker is listed in the table of workers on the truth items).
"$CS" simulate --items 300 --workers 25 --labels-per-item 4 --seed 6 --spammers 0.3 --adversaries 0.15 \
    --labels crowd.txt --truth truth.txt --quiet || { fail "simulate"; finish; }
long=$(printf 'x%.0s' $(seq 160))
awk -v long="$long" 'BEGIN { OFS = "\t"; print "INPUT:image", "OUTPUT:result", "ASSIGNMENT:worker_id", "ASSIGNMENT:status" }
     { worker = ($2 == 1 ? long : "worker-" $2 "-0123456789abcdef0123456789abcdef@example.org")
       print "/data/upload/project-2024-05-annotation-campaign/batch-0007/images/photo-" $1 "-of-the-series.jpg", $3,
             worker, "APPROVED" }' crowd.txt >export.tsv
awk 'BEGIN { OFS = "\t"; print "INPUT:image", "GOLDEN:result" }
     { print "/data/upload/project-2024-05-annotation-campaign/batch-0007/images/photo-" $1 "-of-the-series.jpg", $2 }' \
    truth.txt >truth.tsv
run 0 "$CS" report $T1 --quiet --worst 4 --method opt-ds,ds --truth truth.tsv --relabel-count 20 -o report.html export.tsv || finish
check "the report lists the 160-character id" grep -q "$long" report.html

# The probe: one line per chart (id, rendered width, height, shapes, title length), per
# table (id, rows, rendered width), and for the page (viewport width, document scroll
# width, width of the text column), in <pre id="layout">.
probe='<script>
var lines = [];
document.querySelectorAll("svg.chart").forEach(function (s) {
  var r = s.getBoundingClientRect();
  var t = s.querySelector("title");
  lines.push(["chart", s.id, Math.round(r.width), Math.round(r.height),
              s.querySelectorAll("rect,polyline,circle,line").length, t ? t.textContent.length : 0].join(" "));
});
document.querySelectorAll("table.data").forEach(function (t) {
  lines.push(["table", t.id, t.querySelectorAll("tbody tr").length, Math.round(t.getBoundingClientRect().width)].join(" "));
});
var cs = getComputedStyle(document.body);
var column = document.body.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
lines.push(["page", window.innerWidth, document.documentElement.scrollWidth, Math.round(column)].join(" "));
var pre = document.createElement("pre");
pre.id = "layout";
pre.textContent = lines.join("\n");
document.body.appendChild(pre);
</script>'
# (Through the environment: awk -v would turn the "\n" in the script into a newline.)
PROBE=$probe awk '/<\/body>/ { print ENVIRON["PROBE"] } { print }' report.html >probe.html
# The negative control: the same page with an element wider than the window.
awk '/<h1>/ { print "<div style=\"width:2000px;height:4px\"></div>" } { print }' probe.html >probe_wide.html

# A fresh profile and HOME for every run; no network (every host resolves to nothing).
export HOME="$WORK/home"
mkdir -p "$HOME"
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
       --disable-background-networking --disable-component-update --disable-sync
       --hide-scrollbars --host-resolver-rules="MAP * ~NOTFOUND")
layout_of() {  # PAGE N: renders PAGE at 1280 px and writes its probe lines to layout.txt
    timeout 60 "$browser" "${flags[@]}" --user-data-dir="$WORK/profile$2" --window-size=1280,2000 --dump-dom \
        "file://$WORK/$1" >dom$2.html 2>browser$2.log
    check "chromium dumped the DOM of $1 (see browser$2.log)" test -s dom$2.html
    sed -n '/<pre id="layout">/,/<\/pre>/p' dom$2.html | grep -oE '(chart|table|page) [^<]*' >layout$2.txt
}
layout_of probe.html 1
for id in chart-accuracy chart-agreement chart-worker-1 chart-worker-2 chart-worker-3 chart-worker-4 chart-loglik chart-reliability; do
    contains dom1.html "<svg id=\"$id\""
    CHECKS=$((CHECKS + 1))
    # chart ID WIDTH HEIGHT SHAPES TITLE-LENGTH, all positive.
    awk -v id="$id" '$1 == "chart" && $2 == id && $3 > 100 && $4 > 50 && $5 > 3 && $6 > 10 { ok = 1 } END { exit !ok }' layout1.txt ||
        fail "$id not rendered with a size, shapes and a title: $(grep " $id " layout1.txt)"
done
check "8 charts rendered" test "$(grep -c '^chart ' layout1.txt)" -eq 8
contains dom1.html '<title>crowdspec report: export.tsv</title>'
# The wide charts span the text column (at least 98% of it).
read -r _ viewport scroll column < <(grep '^page ' layout1.txt)
for id in chart-accuracy chart-loglik; do
    CHECKS=$((CHECKS + 1))
    awk -v id="$id" -v col="$column" '$1 == "chart" && $2 == id && $3 >= 0.98 * col && $3 <= col + 1 { ok = 1 } END { exit !ok }' layout1.txt ||
        fail "$id is not as wide as the text column ($column px): $(grep " $id " layout1.txt)"
done
check "the text column is most of the window ($column of $viewport px)" test "${column:-0}" -gt 1000
# The tables and their rows: 20 items to relabel; tagged workers; 3 methods (opt-ds, ds,
# mv); every worker on the truth items (25); 3 classes.
for expect in "relabel-table 20" "method-accuracy-table 3" "worker-gold-table 25" "class-agreement-table 3"; do
    set -- $expect
    CHECKS=$((CHECKS + 1))
    awk -v id="$1" -v n="$2" -v col="$column" '$1 == "table" && $2 == id && $3 == n && $4 > 0 && $4 <= col + 1 { ok = 1 } END { exit !ok }' layout1.txt ||
        fail "table $1 should have $2 rows within the column: $(grep " $1 " layout1.txt)"
done
CHECKS=$((CHECKS + 1))
awk -v col="$column" '$1 == "table" && $2 == "review-table" && $3 >= 3 && $4 <= col + 1 { ok = 1 } END { exit !ok }' layout1.txt ||
    fail "review-table should list the tagged workers within the column: $(grep ' review-table ' layout1.txt)"
check "no horizontal overflow at 1280 px (document ${scroll} px wide, window ${viewport} px)" test "${scroll:-99999}" -le "${viewport:-0}"
check "the window is 1280 px wide" test "${viewport:-0}" -eq 1280
# The probe sees an overflow when there is one.
layout_of probe_wide.html 2
read -r _ viewport2 scroll2 _ < <(grep '^page ' layout2.txt)
check "the control page overflows (${scroll2} px > ${viewport2} px)" test "${scroll2:-0}" -gt "${viewport2:-99999}"

timeout 60 "$browser" "${flags[@]}" --user-data-dir="$WORK/profile3" --window-size=1280,4000 \
    --screenshot="$WORK/report.png" "file://$WORK/report.html" >/dev/null 2>browser3.log
check "a screenshot was written (see browser3.log)" test -s report.png
check "the screenshot is a PNG" test "$(head -c 8 report.png | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a"
check "the screenshot is not blank (> 20 kB)" test "$(wc -c <report.png)" -gt 20000
if [ "$FAILURES" -gt 0 ]; then
    echo "--- layout" >&2
    cat layout1.txt >&2
    echo "--- browser log" >&2
    tail -n 20 browser1.log browser2.log browser3.log >&2
fi
finish
