#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The R package's ctest tests (see ../CMakeLists.txt).
#   run.sh test    R CMD build; R CMD INSTALL into $CS_R_WORK/lib; the testthat suite
#   run.sh check   R CMD build; R CMD check --no-manual; "Status: OK" required
# Environment: CS_R (the R program), CS_R_SKIP (a reason to skip, or empty),
# CS_R_SOURCE (the package), CS_R_WORK (a scratch directory, emptied first), and for
# configure and the tests CROWDSPEC_CFLAGS, CROWDSPEC_LIBS, CROWDSPEC_C_REFERENCE,
# CROWDSPEC_DATASETS_DIR. Exit 77 (skipped) with the reason when R or testthat is missing.
set -u
mode=${1:-}
case $mode in
  test|check) ;;
  *) echo "usage: $0 test|check" >&2; exit 2 ;;
esac
skip() { echo "r_package skipped: $1"; exit 77; }

[ -n "${CS_R_SKIP:-}" ] && skip "$CS_R_SKIP"
R=${CS_R:-}
case $R in *-NOTFOUND|"") R=$(command -v R 2>/dev/null || true) ;; esac
[ -n "$R" ] && [ -x "$R" ] ||
  skip "R not found (Debian: apt-get install r-base-dev r-cran-testthat, or tools/scripts/install-deps.sh --test-extras)"
"$R" --vanilla --slave -e 'quit(status = if (requireNamespace("testthat", quietly = TRUE)) 0 else 1)' \
  >/dev/null 2>&1 || skip "the R package testthat is not installed (Debian: apt-get install r-cran-testthat)"

# R CMD INSTALL and R CMD check run make on the package's C code. Started under a
# parallel make (ctest inside `make -j2 test`, as dpkg-buildpackage's dh_auto_test
# does), they inherit MAKEFLAGS with --jobserver-auth=R,W naming the parent's pipe
# descriptors, which were not passed down to this process: R's make then fails with
# "read jobs pipe: Bad file descriptor". R's builds are small and sequential here, so
# they get no jobserver of their own (issue 40).
unset MAKEFLAGS MFLAGS MAKELEVEL MAKE_TERMOUT MAKE_TERMERR

work=$CS_R_WORK
rm -rf "$work"
mkdir -p "$work/lib" "$work/repo/src/contrib" || exit 1
cd "$work" || exit 1

# Nothing of the user's R setup (user profile and environment, user library) takes
# part. The package repository is an empty local one: R CMD check looks up the
# package's dependencies in the repositories, and CRAN is not reachable from CI
# (the dependencies are Debian's r-base and r-cran-testthat, already installed).
: > "$work/repo/src/contrib/PACKAGES"
echo "options(repos = c(CRAN = 'file://$work/repo'))" > "$work/profile.R"
export R_PROFILE_USER="$work/profile.R" R_ENVIRON_USER=/dev/null R_LIBS_USER=/dev/null
# R CMD check can compare file times with a clock on the web; offline that is a NOTE
# about the machine, not about the package. (Off by default outside --as-cran.)
export _R_CHECK_FUTURE_FILE_TIMESTAMPS_=FALSE
export LC_ALL=C.UTF-8

echo "== R CMD build"
"$R" CMD build --no-build-vignettes --no-manual "$CS_R_SOURCE" > build.log 2>&1 || {
  cat build.log; echo "r_package: R CMD build failed" >&2; exit 1; }
tarball=$(ls crowdspec_*.tar.gz 2>/dev/null | head -n 1)
[ -n "$tarball" ] || { cat build.log; echo "r_package: no tarball" >&2; exit 1; }

fail() { cat conf.log 2>/dev/null; echo "r_package: $1" >&2; exit 1; }

if [ "$mode" = test ]; then
  # Only pkg-config (PKG_CONFIG_PATH: the installed copy) is to find the library here.
  unset CROWDSPEC_CFLAGS CROWDSPEC_LIBS
  echo "== configure: the ways of finding libcrowdspec"
  mkdir conf && tar -xzf "$tarball" -C conf || exit 1
  pkgdir=$work/conf/crowdspec
  R_HOME=$("$R" RHOME) && export R_HOME
  run_configure() { (cd "$pkgdir" && rm -f src/Makevars && "$@") > conf.log 2>&1; }
  build_libs="-L$CS_R_LIB_DIR -lcrowdspec -Wl,-rpath,$CS_R_LIB_DIR"
  run_configure ./configure --with-crowdspec-include="$CS_R_INCLUDE_DIR" \
    --with-crowdspec-lib="$CS_R_LIB_DIR" || fail "configure --with-crowdspec-* failed"
  grep -qF -- "PKG_LIBS = $build_libs" "$pkgdir/src/Makevars" ||
    fail "configure --with-crowdspec-lib: src/Makevars lacks $build_libs"
  echo "ok: --with-crowdspec-include/--with-crowdspec-lib (the build tree)"
  run_configure env CROWDSPEC_CFLAGS="-I$CS_R_INCLUDE_DIR" CROWDSPEC_LIBS="$build_libs" \
    ./configure || fail "configure with CROWDSPEC_CFLAGS/LIBS failed"
  grep -qF "from CROWDSPEC_CFLAGS / CROWDSPEC_LIBS" conf.log || fail "CROWDSPEC_* not used"
  echo "ok: CROWDSPEC_CFLAGS / CROWDSPEC_LIBS (the build tree)"
  # A lib directory whose libcrowdspec.so is not a library: the linker takes it before
  # any copy on the system's paths, so the refusal does not depend on what is installed.
  mkdir -p "$work/bogus-lib" && echo "not a library" > "$work/bogus-lib/libcrowdspec.so"
  if run_configure ./configure --with-crowdspec-include="$CS_R_INCLUDE_DIR" \
       --with-crowdspec-lib="$work/bogus-lib"; then
    fail "configure accepted a lib directory without a usable libcrowdspec"
  fi
  grep -qF "cannot link libcrowdspec" conf.log || fail "no clear message for a wrong lib dir"
  [ ! -f "$pkgdir/src/Makevars" ] || fail "src/Makevars written although configure failed"
  echo "ok: a directory without a usable library is refused"
  run_configure ./configure || fail "configure with pkg-config failed"
  grep -qF "from pkg-config" conf.log || fail "pkg-config (PKG_CONFIG_PATH=$PKG_CONFIG_PATH) not used"
  echo "ok: pkg-config ($(grep 'LIBS:' conf.log | sed 's/.*LIBS: *//'))"
  rm -f conf.log

  echo "== R CMD INSTALL $tarball into $work/lib (library found by pkg-config)"
  "$R" CMD INSTALL --library="$work/lib" "$tarball" > install.log 2>&1 || {
    cat install.log; echo "r_package: R CMD INSTALL failed" >&2; exit 1; }
  grep '^configure:' install.log
  echo "== testthat"
  R_LIBS="$work/lib" "$R" --vanilla --slave -e '
    library(testthat)
    library(crowdspec)
    cat("crowdspec", format(packageVersion("crowdspec")), "on libcrowdspec",
        crowdspec_version(), "\n")
    res <- test_dir(file.path(Sys.getenv("CS_R_SOURCE"), "tests", "testthat"),
                    package = "crowdspec", load_package = "installed",
                    reporter = SummaryReporter$new(show_praise = FALSE, max_reports = Inf),
                    stop_on_failure = FALSE)
    df <- as.data.frame(res)
    cat(sprintf("\n[ FAIL %d | ERROR %d | WARN %d | SKIP %d | PASS %d ] in %d tests\n",
                sum(df$failed), sum(df$error), sum(df$warning), sum(df$skipped),
                sum(df$passed), nrow(df)))
    skipped <- df[df$skipped, c("file", "test")]
    if (nrow(skipped)) {
      cat("\nSkipped tests:\n")
      print(skipped, row.names = FALSE)
    }
    quit(status = if (sum(df$failed) + sum(df$error) == 0) 0 else 1)'
  exit $?
fi

echo "== R CMD check --no-manual $tarball"
"$R" CMD check --no-manual "$tarball" > check.out 2>&1
rc=$?
cat check.out
log=crowdspec.Rcheck/00check.log
for f in crowdspec.Rcheck/tests/*.Rout.fail; do
  [ -f "$f" ] && { echo "== $f"; cat "$f"; }
done
if [ $rc -ne 0 ]; then
  echo "r_package_check: R CMD check failed (exit $rc)" >&2
  exit 1
fi
if ! grep -q '^Status: OK' "$log"; then
  echo "r_package_check: R CMD check did not end with Status: OK" >&2
  exit 1
fi
# The test output: the skipped tests, with their reasons, are listed there.
[ -f crowdspec.Rcheck/tests/testthat.Rout ] && tail -n 25 crowdspec.Rcheck/tests/testthat.Rout
exit 0
