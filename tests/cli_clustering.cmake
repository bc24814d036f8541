# SPDX-License-Identifier: MIT
# ctest script: `crowdspec cluster` and `crowdspec communities` end to end on small
# files written here (two obvious clusters; two 4-cliques joined by one edge, string
# node ids, a repeated edge and a self-loop): labels out, --truth JSON with error rate
# 0, and the exit codes of bad input (3: the library refuses a NaN; 2: a malformed line).
#
#   cmake -DCROWDSPEC=<program> -DWORK_DIR=<dir> -P cli_clustering.cmake
cmake_minimum_required(VERSION 3.18)
foreach(var CROWDSPEC WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "cli_clustering.cmake: -D${var}=... is required")
  endif()
endforeach()
file(MAKE_DIRECTORY "${WORK_DIR}")

function(run expected_rc out_var)
  execute_process(COMMAND "${CROWDSPEC}" ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL expected_rc)
    message(FATAL_ERROR "crowdspec ${ARGN}: exit ${rc}, expected ${expected_rc}\nstdout: ${out}\nstderr: ${err}")
  endif()
  set(${out_var} "${out}${err}" PARENT_SCOPE)
endfunction()

# expect: a literal substring; expect_regex: a regular expression.
function(expect text literal)
  string(FIND "${text}" "${literal}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "expected output containing '${literal}', got:\n${text}")
  endif()
endfunction()

function(expect_regex text pattern)
  if(NOT text MATCHES "${pattern}")
    message(FATAL_ERROR "expected output matching '${pattern}', got:\n${text}")
  endif()
endfunction()

# Points: a header, commas and blanks, a comment.
file(WRITE "${WORK_DIR}/points.csv" "x,y\n0,0\n0 1\n# a comment\n1,0\n10,10\n10,11\n11 10\n")
file(WRITE "${WORK_DIR}/points_truth.txt" "1 a\n2 a\n3 a\n4 b\n5 b\n6 b\n")
run(0 out cluster --k 2 "${WORK_DIR}/points.csv")
# (CMake regexes have no back-references: both labellings are spelled out.)
expect_regex("${out}" "^(0\n0\n0\n1\n1\n1\n|1\n1\n1\n0\n0\n0\n)$")
foreach(method lloyd kmeans++)
  run(0 out cluster --k 2 --method ${method} --truth "${WORK_DIR}/points_truth.txt" "${WORK_DIR}/points.csv")
  expect("${out}" "\"method\":\"${method}\",\"error_rate\":0.000000,\"scored\":6,")
endforeach()
# A first row with a typo ("0.5,0,x1") is taken as a header, silently before; now a
# note says that 2 of its 3 fields are numbers and which field to fix (issue 40, R10).
# A real header ("x,y") gets no note.
string(FIND "${out}" "crowdspec: note" at)
if(NOT at EQUAL -1)
  message(FATAL_ERROR "a header of names should give no note, got:\n${out}")
endif()
file(WRITE "${WORK_DIR}/typo.csv" "0.5,0,x1\n0,0,1\n0,1,1\n1,0,1\n10,10,1\n10,11,1\n")
run(0 out cluster --k 2 "${WORK_DIR}/typo.csv")
expect("${out}" "typo.csv:1: the first row is read as a header, but 2 of its 3 fields are numbers; if it is a point, fix field 3 'x1'")
file(WRITE "${WORK_DIR}/nan.txt" "1 2\n3 nan\n4 5\n")
run(3 out cluster --k 2 "${WORK_DIR}/nan.txt")
expect("${out}" "nan.txt:2: field 2 is NaN")
file(WRITE "${WORK_DIR}/ragged.txt" "1 2\n3\n")
run(2 out cluster --k 2 "${WORK_DIR}/ragged.txt")
run(1 out cluster --k 2 --method opt-ds "${WORK_DIR}/points.csv")

# Graph: two 4-cliques {a1..a4}, {b1..b4} joined by a1-b1, plus a repeat and a loop.
set(edges "source target\n")
foreach(c a b)
  foreach(i 1 2 3 4)
    foreach(j 1 2 3 4)
      if(i LESS j)
        string(APPEND edges "${c}${i} ${c}${j}\n")
      endif()
    endforeach()
  endforeach()
endforeach()
string(APPEND edges "a1 b1\nb1 a1\na2 a2\n")
file(WRITE "${WORK_DIR}/edges.txt" "${edges}")
file(WRITE "${WORK_DIR}/edges_truth.txt" "a1 A\na2 A\na3 A\na4 A\nb1 B\nb2 B\nb3 B\nb4 B\n")
run(0 out communities --k 2 "${WORK_DIR}/edges.txt")
expect_regex("${out}" "(a1 0\na2 0\na3 0\na4 0\nb1 1\nb2 1\nb3 1\nb4 1\n|a1 1\na2 1\na3 1\na4 1\nb1 0\nb2 0\nb3 0\nb4 0\n)")
expect("${out}" "ignored 1 self-loops and 1 repeated edges")
foreach(method commu-lloyd spec spec-mle)
  run(0 out communities --k 2 --method ${method} --truth "${WORK_DIR}/edges_truth.txt" "${WORK_DIR}/edges.txt")
  expect("${out}" "\"method\":\"${method}\",\"error_rate\":0.000000,\"scored\":8,")
  expect("${out}" "\"within\":1,\"between\":0.0625")
endforeach()
file(WRITE "${WORK_DIR}/weighted.txt" "a b 0.5\n")
run(2 out communities --k 2 "${WORK_DIR}/weighted.txt")
expect("${out}" "weights are not supported")
message(STATUS "cli_clustering: all checks passed")
