# SPDX-License-Identifier: MIT
# ctest script: the shared library exports exactly the public API and carries the
# SONAME of its major version.
#
#   cmake -DLIBRARY=<libcrowdspec.so> -DHEADER=<crowdspec.h> -DSOVERSION=<major>
#         [-DNM=nm] [-DREADELF=readelf] -P check_exports.cmake
#
# Checks, on `nm -D --defined-only`:
#   1. every defined dynamic symbol starts with "cs_" (absolute version-node symbols
#      such as CS_0.1, type 'A', are ignored);
#   2. every function declared CS_API in the header is exported, and nothing else is;
#   3. every exported symbol has a CS_* version node (src/crowdspec.map);
# and on `readelf -d`:
#   4. SONAME == libcrowdspec.so.<SOVERSION>.
cmake_minimum_required(VERSION 3.18)

foreach(var LIBRARY HEADER SOVERSION)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_exports.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT NM)
  find_program(NM nm)
endif()
if(NOT READELF)
  find_program(READELF readelf)
endif()
if(NOT NM OR NOT READELF)
  message(FATAL_ERROR "check_exports.cmake: nm and readelf are required (NM=${NM}, READELF=${READELF})")
endif()
if(NOT EXISTS "${LIBRARY}")
  message(FATAL_ERROR "check_exports.cmake: ${LIBRARY} does not exist")
endif()

set(failures "")

# --- 1-3: dynamic symbols ---------------------------------------------------------
execute_process(COMMAND "${NM}" -D --defined-only "${LIBRARY}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE nm_out ERROR_VARIABLE nm_err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} -D --defined-only ${LIBRARY} failed (${rc}): ${nm_err}")
endif()
string(REPLACE "\n" ";" nm_lines "${nm_out}")
set(exported "")
set(n_symbols 0)
foreach(line IN LISTS nm_lines)
  if(line STREQUAL "")
    continue()
  endif()
  # "<address> <type> <name>[@@version]" (the address may be missing for some types)
  if(NOT line MATCHES "^([0-9a-fA-F]+ +)?([A-Za-z]) +([^ ]+)$")
    list(APPEND failures "unparsable nm line: '${line}'")
    continue()
  endif()
  set(type "${CMAKE_MATCH_2}")
  set(symbol "${CMAKE_MATCH_3}")
  if(type STREQUAL "A")  # version node definitions (CS_0.1 ...)
    continue()
  endif()
  math(EXPR n_symbols "${n_symbols} + 1")
  set(version "")
  if(symbol MATCHES "^([^@]+)@@?(.*)$")
    set(symbol "${CMAKE_MATCH_1}")
    set(version "${CMAKE_MATCH_2}")
  endif()
  if(NOT symbol MATCHES "^cs_")
    list(APPEND failures "exported symbol without the cs_ prefix: ${symbol} (type ${type})")
    continue()
  endif()
  # nm prints the version only when the binutils are recent enough (>= 2.35).
  if(NOT version STREQUAL "" AND NOT version MATCHES "^CS_[0-9]+\\.[0-9]+$")
    list(APPEND failures "${symbol} has version node '${version}', expected CS_<major>.<minor>")
  endif()
  list(APPEND exported "${symbol}")
endforeach()
if(n_symbols EQUAL 0)
  list(APPEND failures "no defined dynamic symbols at all in ${LIBRARY}")
endif()

# The functions of the public header: "CS_API <type> [*]name(".
file(READ "${HEADER}" header_text)
string(REGEX MATCHALL "CS_API[^;(]*[ *]cs_[a-z0-9_]+[ \t]*\\(" declarations "${header_text}")
set(declared "")
foreach(decl IN LISTS declarations)
  string(REGEX MATCH "cs_[a-z0-9_]+[ \t]*\\($" name "${decl}")
  string(REGEX REPLACE "[ \t]*\\($" "" name "${name}")
  list(APPEND declared "${name}")
endforeach()
list(REMOVE_DUPLICATES declared)
list(LENGTH declared n_declared)
if(n_declared LESS 10)
  list(APPEND failures "found only ${n_declared} CS_API functions in ${HEADER}: the parser is broken")
endif()
foreach(name IN LISTS declared)
  if(NOT name IN_LIST exported)
    list(APPEND failures "declared in the header but not exported: ${name}")
  endif()
endforeach()
foreach(name IN LISTS exported)
  if(NOT name IN_LIST declared)
    list(APPEND failures "exported but not declared in the header: ${name}")
  endif()
endforeach()

# --- 4: SONAME ---------------------------------------------------------------------
execute_process(COMMAND "${READELF}" -d "${LIBRARY}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE readelf_out ERROR_VARIABLE readelf_err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${READELF} -d ${LIBRARY} failed (${rc}): ${readelf_err}")
endif()
set(expected_soname "libcrowdspec.so.${SOVERSION}")
if(readelf_out MATCHES "\\(SONAME\\)[^\n]*\\[([^]\n]+)\\]")
  set(soname "${CMAKE_MATCH_1}")
  if(NOT soname STREQUAL expected_soname)
    list(APPEND failures "SONAME is ${soname}, expected ${expected_soname}")
  endif()
else()
  list(APPEND failures "no SONAME in ${LIBRARY}")
endif()

list(LENGTH exported n_exported)
if(failures)
  list(JOIN failures "\n  " text)
  message(FATAL_ERROR "check_exports: ${LIBRARY}:\n  ${text}")
endif()
message(STATUS "check_exports: ${n_exported} cs_ symbols = the ${n_declared} header functions; SONAME ${soname}")
