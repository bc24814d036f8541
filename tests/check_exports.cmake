# SPDX-License-Identifier: MIT
# ctest script: the shared library exports exactly the public API, each symbol under
# the version node the committed version script gives it, and carries the SONAME of
# its major version.
#
#   cmake -DLIBRARY=<libcrowdspec.so> -DHEADER=<crowdspec.h> -DMAP=<crowdspec.map>
#         -DSOVERSION=<major> [-DNM=nm] [-DREADELF=readelf] -P check_exports.cmake
#
# Checks, on `nm -D --defined-only`:
#   1. every defined dynamic symbol starts with "cs_" (absolute version-node symbols
#      such as CS_0.1, type 'A', are ignored);
#   2. every function declared CS_API in the header is exported, and nothing else is;
#   3. the exported symbols are exactly those listed in the version script MAP (the
#      committed list: src/crowdspec.map), each with the version node it is listed
#      under (nm >= 2.35 prints it), and every node of MAP is defined in the library;
# and on `readelf -d`:
#   4. SONAME == libcrowdspec.so.<SOVERSION>.
# So a function added to the header and the code but not to the list, or removed from
# one of them, fails here (the linker alone would only hide a missing one).
cmake_minimum_required(VERSION 3.18)

foreach(var LIBRARY HEADER MAP SOVERSION)
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
  set(version_of_${symbol} "${version}")
endforeach()
# The version nodes the library defines ("00000000 A CS_0.1").
string(REGEX MATCHALL "[0-9a-fA-F]* *A +CS_[0-9]+\\.[0-9]+" node_lines "${nm_out}")
set(defined_nodes "")
foreach(line IN LISTS node_lines)
  string(REGEX MATCH "CS_[0-9]+\\.[0-9]+$" node "${line}")
  list(APPEND defined_nodes "${node}")
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

# --- 3: the committed list (the version script) ----------------------------------
get_filename_component(_cs_source_dir "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
include("${_cs_source_dir}/cmake/crowdspecVersionScript.cmake")
cs_read_version_script("${MAP}" map)
list(LENGTH map_SYMBOLS n_listed)
foreach(name IN LISTS map_SYMBOLS)
  if(NOT name IN_LIST exported)
    list(APPEND failures "listed in ${MAP} (${map_NODE_${name}}) but not exported: ${name}")
  elseif(NOT version_of_${name} STREQUAL "" AND NOT version_of_${name} STREQUAL map_NODE_${name})
    list(APPEND failures "${name} is exported as version ${version_of_${name}}, listed under ${map_NODE_${name}}")
  endif()
  if(NOT name IN_LIST declared)
    list(APPEND failures "listed in ${MAP} but not declared CS_API in the header: ${name}")
  endif()
endforeach()
foreach(name IN LISTS exported)
  if(NOT name IN_LIST map_SYMBOLS)
    list(APPEND failures "exported but not listed in ${MAP}: ${name}")
  endif()
endforeach()
foreach(name IN LISTS declared)
  if(NOT name IN_LIST map_SYMBOLS)
    list(APPEND failures "declared CS_API in the header but not listed in ${MAP}: ${name}")
  endif()
endforeach()
foreach(node IN LISTS map_NODES)
  if(NOT node IN_LIST defined_nodes)
    list(APPEND failures "version node ${node} of ${MAP} is not defined in the library")
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
list(JOIN map_NODES ", " nodes_text)
message(STATUS "check_exports: ${n_exported} cs_ symbols = the ${n_declared} header functions = the ${n_listed} of ${MAP} (nodes ${nodes_text}); SONAME ${soname}")
