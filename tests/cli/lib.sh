# SPDX-License-Identifier: MIT
# Shared helpers of the command-line tests (sourced by tests/cli/*.sh).
# Usage of every test: bash tests/cli/NAME.sh PATH/TO/crowdspec [extra arguments]
# Each test runs in a fresh temporary directory (removed at exit), counts its checks
# and exits 0 (all passed), 1 (a check failed, each failure printed) or 77 (skipped:
# ctest's SKIP_RETURN_CODE, with the reason printed).
set -u

CS=${1:?usage: $0 PATH/TO/crowdspec}
case $CS in /*) ;; *) CS=$PWD/$CS ;; esac
shift
# Where the test was started: relative arguments are resolved against it (abspath).
ORIG_PWD=$PWD
WORK=$(mktemp -d "${TMPDIR:-/tmp}/crowdspec-cli.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
FAILURES=0
CHECKS=0
# Fits in the tests use one thread: results do not depend on it, and on a busy
# shared machine OpenMP's spinning threads would make the timing erratic.
T1="--threads 1"

abspath() {
    case $1 in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$ORIG_PWD/$1" ;; esac
}

fail() {
    FAILURES=$((FAILURES + 1))
    printf 'FAIL: %s\n' "$*" >&2
}

# check DESCRIPTION COMMAND...: the command must succeed.
check() {
    local what=$1
    shift
    CHECKS=$((CHECKS + 1))
    "$@" || fail "$what"
}

# run CODE COMMAND...: runs the command with stdout in out.txt and stderr in err.txt
# and checks its exit code. Returns 1 (after reporting) when the code differs.
run() {
    local want=$1
    shift
    "$@" >out.txt 2>err.txt
    local got=$?
    CHECKS=$((CHECKS + 1))
    if [ "$got" != "$want" ]; then
        fail "exit $got, expected $want: $*"
        sed 's/^/    stderr: /' err.txt >&2
        return 1
    fi
    return 0
}

# stderr_is REGEX: err.txt is exactly one line and matches the extended regex.
stderr_is() {
    CHECKS=$((CHECKS + 1))
    local lines
    lines=$(wc -l <err.txt)
    if [ "$lines" -ne 1 ] || ! grep -Eq -- "$1" err.txt; then
        fail "stderr should be one line matching /$1/, was: $(cat err.txt)"
    fi
}

# contains FILE FIXED-STRING / lacks FILE FIXED-STRING
contains() {
    CHECKS=$((CHECKS + 1))
    grep -qF -- "$2" "$1" || fail "$1 should contain '$2'"
}
lacks() {
    CHECKS=$((CHECKS + 1))
    if grep -qF -- "$2" "$1"; then fail "$1 should not contain '$2'"; fi
}

# same FILE1 FILE2: byte-identical.
same() {
    CHECKS=$((CHECKS + 1))
    cmp -s "$1" "$2" || { fail "$1 and $2 differ"; diff "$1" "$2" | head -5 >&2; }
}

# no_temporaries: no FILE.tmp.<pid> left behind in the working directory.
no_temporaries() {
    CHECKS=$((CHECKS + 1))
    local left
    left=$(find . -name '*.tmp.*' | head -3)
    [ -z "$left" ] || fail "temporary files left behind: $left"
}

skip() {
    echo "SKIPPED: $*"
    exit 77
}

finish() {
    if [ "$FAILURES" -gt 0 ]; then
        echo "$FAILURES of $CHECKS checks failed" >&2
        exit 1
    fi
    echo "all $CHECKS checks passed"
    exit 0
}
