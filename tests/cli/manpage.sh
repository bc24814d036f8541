#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# docs/crowdspec.1 renders without warnings (man -l, or groff), and stays in step
# with the program: every option in every command's --help, every command and every
# exit code of `crowdspec --help` appear in it, and --method lists exactly the
# registry's methods with their doc lines.
. "$(dirname "$0")/lib.sh"
PAGE=$(abspath "${1:?usage: manpage.sh PATH/TO/crowdspec PATH/TO/crowdspec.1}")

export LC_ALL=C.UTF-8
if command -v man >/dev/null 2>&1; then
    MANWIDTH=80 man --warnings -l "$PAGE" >rendered.txt 2>warnings.txt
    check "man -l renders the page" test -s rendered.txt
elif command -v groff >/dev/null 2>&1; then
    groff -man -Tutf8 -ww "$PAGE" >rendered.txt 2>warnings.txt
    check "groff renders the page" test -s rendered.txt
else
    skip "neither man nor groff is installed: the manual page was not rendered"
fi
check "no formatter warnings: $(head -3 warnings.txt)" test ! -s warnings.txt
contains rendered.txt "EXIT STATUS"

# The page's text with roff escapes removed, for plain searches.
sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\(en/-/g' "$PAGE" >plain.txt
for command in fit predict evaluate simulate report demo convert rank update; do
    contains plain.txt ".B $command"
    "$CS" "$command" --help >help.txt 2>&1
    for option in $(grep -oE -- '--[a-z][a-z-]*[a-z]' help.txt | sort -u); do
        contains plain.txt "$option"
    done
done
# --method: the page lists every method of the library's registry (the Methods block of
# `crowdspec fit --help`, which the registry generates) with the registry's own doc
# line, and no method the registry lacks: both lists, as "name<TAB>doc line", sorted.
"$CS" fit --help >fit_help.txt 2>&1
sed -n '/^Methods (--method NAME):/,/^$/p' fit_help.txt | sed '1d;/^$/d' |
    sed -E 's/^ +([^ ]+) +/\1\t/' | sort >registry_methods.txt
awk '/^\.B[R]? *-m.*--method/ { on = 1 } on && /^\.RE/ { exit }
     on && /^\.TP 20/ { getline; name = substr($0, 4); getline; printf "%s\t%s\n", name, $0 }' plain.txt |
    sort >page_methods.txt
check "the registry lists methods" test "$(wc -l <registry_methods.txt)" -ge 17
same registry_methods.txt page_methods.txt
# PLATFORM EXPORTS: every preset with a 3-line example, and the CSV examples are read
# by the program as documented (the Toloka one is shown with its tabs as blanks).
sed -n '/^\.SH PLATFORM EXPORTS/,/^\.SH ID MAPPING/p' plain.txt >presets.txt
for preset in toloka mturk labelstudio generic; do
    contains presets.txt ".B $preset"
done
check "every preset has a 3-line example" \
    test "$(awk '/^\.nf/ { n = 0; block = 1; next } /^\.fi/ { printf "%d ", n; block = 0 } block { n++ }' presets.txt)" = "3 3 3 3 3 "
awk '/^\.B (mturk|labelstudio|generic)$/ { name = $2 } /^\.nf/ && name { file = name ".csv"; next }
     /^\.fi/ { file = ""; name = "" } file { print > file }' presets.txt
# mturk: the Rejected dog is skipped; the others: one cat and one dog vote, a tie.
for expect in "mturk 3AXQ,cat,1,1,0" "labelstudio 1,cat,0.5,0.5,0.5" "generic q1,cat,0.5,0.5,0.5"; do
    set -- $expect
    run 0 "$CS" fit --method mv --classes cat,dog --quiet "$1.csv" && contains out.txt "$2"
done
# The radio-button example (mturk's second): one cat, one dog, no true/false classes.
awk '/^\.nf/ { b++; on = (b == 3); next } /^\.fi/ { on = 0 } on' presets.txt >radio.csv
run 0 "$CS" fit --method mv --quiet radio.csv && contains out.txt "3AXQ,cat,0.5,0.5,0.5"
"$CS" --help >main_help.txt
for code in 0 1 2 3 4 130 143; do
    contains main_help.txt " $code "
done
sed -n '/^\.SH EXIT STATUS/,/^\.SH EXAMPLES/p' plain.txt >exit_status.txt
for code in 0 1 2 3 4; do
    contains exit_status.txt ".B $code"
done
contains exit_status.txt ".BR 130 \", \" 143"
finish
