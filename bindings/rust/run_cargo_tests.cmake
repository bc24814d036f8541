# SPDX-License-Identifier: MIT
#
# Driver of the ctest test rust_bindings (see CMakeLists.txt beside it):
#   cmake -DCARGO=... -DMANIFEST=.../Cargo.toml -DRUST_ENV="RUSTC=...|RUSTDOC=..."
#         -DCROWDSPEC_LIB_DIR=... -DCROWDSPEC_INCLUDE_DIR=... -DCARGO_TARGET_DIR=...
#         -DCC=... -DDATASETS=... -P run_cargo_tests.cmake
# Runs `cargo test --offline --locked --workspace`, `cargo doc` (broken intra-doc
# links fail), then the example `basic`, whose output must hold the labels of its
# built-in answers.

foreach(var CARGO MANIFEST CROWDSPEC_LIB_DIR CROWDSPEC_INCLUDE_DIR CARGO_TARGET_DIR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_cargo_tests.cmake: -D${var}= is required")
  endif()
endforeach()

set(ENV{CROWDSPEC_LIB_DIR} "${CROWDSPEC_LIB_DIR}")
set(ENV{CROWDSPEC_INCLUDE_DIR} "${CROWDSPEC_INCLUDE_DIR}")
set(ENV{CARGO_TARGET_DIR} "${CARGO_TARGET_DIR}")
# A missing C compiler or header must fail the comparison with the C API, not skip it.
set(ENV{CROWDSPEC_REQUIRE_REFERENCE} 1)
unset(ENV{CROWDSPEC_STATIC})
if(CC)
  set(ENV{CC} "${CC}")
endif()
if(DATASETS)
  set(ENV{CROWDSPEC_DATASETS_DIR} "${DATASETS}")
endif()
string(REPLACE "|" ";" RUST_ENV "${RUST_ENV}")
foreach(assignment IN LISTS RUST_ENV)
  string(FIND "${assignment}" "=" eq)
  string(SUBSTRING "${assignment}" 0 ${eq} name)
  math(EXPR start "${eq} + 1")
  string(SUBSTRING "${assignment}" ${start} -1 value)
  set(ENV{${name}} "${value}")
endforeach()

execute_process(COMMAND "${CARGO}" --version)
execute_process(
  COMMAND "${CARGO}" test --offline --locked --workspace --manifest-path "${MANIFEST}"
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cargo test failed (${rc})")
endif()

# The documentation builds, and its links resolve.
set(ENV{RUSTDOCFLAGS} "-D rustdoc::broken_intra_doc_links -D rustdoc::private_intra_doc_links")
execute_process(
  COMMAND "${CARGO}" doc --offline --locked --no-deps --workspace --manifest-path "${MANIFEST}"
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cargo doc failed (${rc})")
endif()

execute_process(
  COMMAND "${CARGO}" run --offline --locked --quiet --manifest-path "${MANIFEST}"
          -p crowdspec --example basic
  RESULT_VARIABLE rc OUTPUT_VARIABLE out)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the example failed (${rc})")
endif()
foreach(line "q1,yes," "q2,no," "q4,yes,")
  string(FIND "${out}" "${line}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the example's output lacks \"${line}\"")
  endif()
endforeach()
message("rust_bindings: cargo test, cargo doc and the example passed")
