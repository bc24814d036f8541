#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# crowdspec report in a real browser: headless chromium renders the report; every
# chart must be laid out with a non-zero size and its marks drawn (measured in the
# page by a probe script added to a copy — the report itself has no script), and a
# screenshot of the page must be a non-empty PNG. Skipped (exit 77) without chromium.
. "$(dirname "$0")/lib.sh"

browser=""
for candidate in chromium chromium-browser google-chrome; do
    if command -v "$candidate" >/dev/null 2>&1; then
        browser=$candidate
        break
    fi
done
[ -n "$browser" ] || skip "chromium is not installed (Debian: apt-get install chromium); the report was not rendered"

"$CS" simulate --items 300 --workers 25 --labels-per-item 4 --seed 6 --labels crowd.csv --quiet || { fail "simulate"; finish; }
run 0 "$CS" report $T1 --worst 4 -o report.html crowd.csv || finish

# The probe: for each chart, its rendered width and height, the number of drawn
# shapes and the length of its <title>, one line each in <pre id="layout">.
probe='<script>
var lines = [];
document.querySelectorAll("svg.chart").forEach(function (s) {
  var r = s.getBoundingClientRect();
  var t = s.querySelector("title");
  lines.push(["chart", s.id, Math.round(r.width), Math.round(r.height),
              s.querySelectorAll("rect,polyline,circle,line").length, t ? t.textContent.length : 0].join(" "));
});
var pre = document.createElement("pre");
pre.id = "layout";
pre.textContent = lines.join("\n");
document.body.appendChild(pre);
</script>'
# (Through the environment: awk -v would turn the "\n" in the script into a newline.)
PROBE=$probe awk '/<\/body>/ { print ENVIRON["PROBE"] } { print }' report.html >probe.html

# A fresh profile and HOME for every run; no network (every host resolves to nothing).
export HOME="$WORK/home"
mkdir -p "$HOME"
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
       --disable-background-networking --disable-component-update --disable-sync
       --host-resolver-rules="MAP * ~NOTFOUND")
timeout 60 "$browser" "${flags[@]}" --user-data-dir="$WORK/profile1" --dump-dom "file://$WORK/probe.html" \
    >dom.html 2>browser1.log
check "chromium dumped the DOM (see browser1.log)" test -s dom.html
sed -n '/<pre id="layout">/,/<\/pre>/p' dom.html | grep -o 'chart [^<]*' >layout.txt
for id in chart-accuracy chart-agreement chart-worker-1 chart-worker-2 chart-worker-3 chart-worker-4 chart-loglik; do
    contains dom.html "<svg id=\"$id\""
    CHECKS=$((CHECKS + 1))
    # chart ID WIDTH HEIGHT SHAPES TITLE-LENGTH, all positive.
    awk -v id="$id" '$2 == id && $3 > 100 && $4 > 50 && $5 > 3 && $6 > 10 { ok = 1 } END { exit !ok }' layout.txt ||
        fail "$id not rendered with a size, shapes and a title: $(grep " $id " layout.txt)"
done
check "7 charts rendered" test "$(wc -l <layout.txt)" -eq 7
contains dom.html '<title>crowdspec report: crowd.csv</title>'

timeout 60 "$browser" "${flags[@]}" --user-data-dir="$WORK/profile2" --window-size=1200,3200 \
    --screenshot="$WORK/report.png" "file://$WORK/report.html" >/dev/null 2>browser2.log
check "a screenshot was written (see browser2.log)" test -s report.png
check "the screenshot is a PNG" test "$(head -c 8 report.png | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a"
check "the screenshot is not blank (> 20 kB)" test "$(wc -c <report.png)" -gt 20000
if [ "$FAILURES" -gt 0 ]; then
    echo "--- browser log" >&2
    tail -n 20 browser1.log browser2.log >&2
fi
finish
