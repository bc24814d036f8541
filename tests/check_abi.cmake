# SPDX-License-Identifier: MIT
# ctest script (abi_compliance): the ABI of the library just built against the
# baselines of the releases of the same major version kept in abi/ (docs/VERSIONING.md).
#
#   cmake -DABI_DUMPER=<abi-dumper> -DABI_CHECKER=<abi-compliance-checker> -DPERL=<perl>
#         -DLIBRARY=<crowdspec_abi library> -DHEADERS=<include/crowdspec>
#         -DBASELINES=<abi/> -DVERSION=<x.y.z> -DARCH=<x86_64> -DWORK_DIR=<dir>
#         -DTYPES_SCRIPT=<tests/abi_types.pl> -P check_abi.cmake
#
# 1. abi-dumper describes LIBRARY (the library with debug information, src/abi/) as
#    seen through the public headers: exported functions, their parameter and return
#    types, every public enum and typedef.
# 2. abi-compliance-checker compares each baseline abi/crowdspec-<version>-<ARCH>.dump
#    whose major version is VERSION's with it: any binary or source incompatibility
#    of an exported function or of a type it uses fails (added functions are fine).
# 3. abi_types.pl compares the public enums and typedefs that no signature names:
#    a changed, removed or renamed enumerator fails (enums are append-only).
# Prints "ABI check skipped: <reason>" (ctest SKIP_REGULAR_EXPRESSION) when there is no
# baseline for this architecture and major version. Reports: WORK_DIR/*.html.
cmake_minimum_required(VERSION 3.18)
foreach(var ABI_DUMPER ABI_CHECKER PERL LIBRARY HEADERS BASELINES VERSION ARCH WORK_DIR TYPES_SCRIPT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_abi.cmake: -D${var}=... is required")
  endif()
endforeach()
string(REGEX MATCH "^[0-9]+" major "${VERSION}")

file(GLOB all_baselines "${BASELINES}/crowdspec-*-${ARCH}.dump")
set(baselines "")
foreach(file IN LISTS all_baselines)
  get_filename_component(name "${file}" NAME)
  if(name MATCHES "^crowdspec-(${major})\\.[0-9]+\\.[0-9]+-")
    list(APPEND baselines "${file}")
  endif()
endforeach()
if(NOT baselines)
  message("ABI check skipped: no baseline crowdspec-${major}.*-${ARCH}.dump in ${BASELINES} "
          "(a new major version, or another architecture: see docs/VERSIONING.md)")
  return()
endif()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(current "${WORK_DIR}/crowdspec-${VERSION}-${ARCH}.dump")
execute_process(
  COMMAND "${ABI_DUMPER}" "${LIBRARY}" -o "${current}" -lver "${VERSION}"
          -public-headers "${HEADERS}" -all-types -sort -quiet
  WORKING_DIRECTORY "${WORK_DIR}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT EXISTS "${current}")
  message(FATAL_ERROR "abi-dumper ${LIBRARY} failed (${rc}):\n${out}\n${err}")
endif()

set(failures "")
foreach(baseline IN LISTS baselines)
  get_filename_component(name "${baseline}" NAME)
  string(REGEX REPLACE "\\.dump$" "" name "${name}")
  set(report "${WORK_DIR}/compat-${name}.html")
  execute_process(
    COMMAND "${ABI_CHECKER}" -l crowdspec -old "${baseline}" -new "${current}"
            -report-path "${report}"
    WORKING_DIRECTORY "${WORK_DIR}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX MATCHALL "(Binary|Source) compatibility: [^\n]*|Total [^\n]*" summary "${out}")
  list(JOIN summary "\n    " summary)
  if(rc EQUAL 1)
    # The problems as text: the checker again, with its XML report on stdout.
    set(text "")
    foreach(kind binary source)
      execute_process(
        COMMAND "${ABI_CHECKER}" -l crowdspec -old "${baseline}" -new "${current}"
                -${kind} -report-format xml -stdout
        WORKING_DIRECTORY "${WORK_DIR}" OUTPUT_VARIABLE xml ERROR_QUIET)
      string(REGEX REPLACE "\n[ \t]*" "\n" xml "${xml}")
      string(REGEX MATCH "<removed_symbols>.*</removed_symbols>" removed "${xml}")
      string(REGEX MATCHALL "<name>[^<]+</name>" removed "${removed}")
      foreach(item IN LISTS removed)
        string(REGEX REPLACE "</?name>" "" item "${item}")
        string(APPEND text "\n      ${kind}: removed symbol ${item}")
      endforeach()
      string(REGEX MATCHALL "<(symbol|type) name=\"[^\"]*\">|<problem id=\"[^\"]*\">|<change [^>]*>"
             items "${xml}")
      set(where "")
      foreach(item IN LISTS items)
        if(item MATCHES "^<(symbol|type) name=\"([^\"]*)\"")
          set(where "${CMAKE_MATCH_2}")
        elseif(item MATCHES "^<problem id=\"([^\"]*)\"")
          string(APPEND text "\n      ${kind}: ${where}: ${CMAKE_MATCH_1}")
        elseif(item MATCHES "^<change (.*)>$")
          string(APPEND text " (${CMAKE_MATCH_1})")
        endif()
      endforeach()
    endforeach()
    list(APPEND failures "${name}: incompatible (abi-compliance-checker):\n    ${summary}${text}\n    report: ${report}")
  elseif(NOT rc EQUAL 0)
    message(FATAL_ERROR "abi-compliance-checker failed (${rc}) on ${baseline}:\n${out}\n${err}")
  else()
    message(STATUS "${name} -> ${VERSION}: compatible\n    ${summary}")
  endif()

  execute_process(COMMAND "${PERL}" "${TYPES_SCRIPT}" "${baseline}" "${current}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 1)
    list(APPEND failures "${name}: ${out}")
  elseif(NOT rc EQUAL 0)
    message(FATAL_ERROR "abi_types.pl failed (${rc}) on ${baseline}:\n${out}\n${err}")
  else()
    string(STRIP "${out}" out)
    message(STATUS "${name} -> ${VERSION}: ${out}")
  endif()
endforeach()

if(failures)
  list(JOIN failures "\n" text)
  message(FATAL_ERROR "ABI check: incompatible with a release of the same major version "
                      "(docs/VERSIONING.md: such a change needs a new major version and "
                      "SONAME):\n${text}")
endif()
