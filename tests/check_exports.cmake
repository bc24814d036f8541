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
#   (the private functions of src/api/distributed.h, cs_private_*, which only
#   libcrowdspec_mpi calls, are not declared in the public header: they must be listed
#   under the node CS_PRIVATE of MAP, be exported with that node, and nothing else;)
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

# Appends "TEXT: name" to failures for every name of the list FROM that the list TO lacks.
macro(cs_each_missing from to text)
  foreach(_cs_name IN LISTS ${from})
    if(NOT _cs_name IN_LIST ${to})
      list(APPEND failures "${text}: ${_cs_name}")
    endif()
  endforeach()
endmacro()

set(failures "")

# --- 1-3: dynamic symbols ---------------------------------------------------------
execute_process(COMMAND "${NM}" -D --defined-only "${LIBRARY}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE nm_out ERROR_VARIABLE nm_err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} -D --defined-only ${LIBRARY} failed (${rc}): ${nm_err}")
endif()
string(REPLACE "\n" ";" nm_lines "${nm_out}")
set(exported "")
set(private_symbols "")
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
  if(symbol MATCHES "^cs_private_")
    if(NOT version STREQUAL "" AND NOT version STREQUAL "CS_PRIVATE")
      list(APPEND failures "${symbol} has version node '${version}', expected CS_PRIVATE")
    endif()
    list(APPEND private_symbols "${symbol}")
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
cs_each_missing(declared exported "declared in the header but not exported")
cs_each_missing(exported declared "exported but not declared in the header")

# --- 3: the committed list (the version script) ----------------------------------
get_filename_component(_cs_source_dir "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
include("${_cs_source_dir}/cmake/crowdspecVersionScript.cmake")
cs_read_version_script("${MAP}" map)
# The private node is checked on its own and then left out of the public comparison.
set(map_private "")
foreach(name IN LISTS map_SYMBOLS)
  if(map_NODE_${name} STREQUAL "CS_PRIVATE")
    list(APPEND map_private "${name}")
    if(NOT name MATCHES "^cs_private_")
      list(APPEND failures "${name} is listed under CS_PRIVATE in ${MAP} without the cs_private_ prefix")
    endif()
  elseif(name MATCHES "^cs_private_")
    list(APPEND failures "${name} is listed under ${map_NODE_${name}} in ${MAP}, expected CS_PRIVATE")
  endif()
endforeach()
cs_each_missing(private_symbols map_private "exported private function not listed under CS_PRIVATE in ${MAP}")
cs_each_missing(map_private private_symbols "listed under CS_PRIVATE in ${MAP} but not exported")
if(map_private)
  list(REMOVE_ITEM map_SYMBOLS ${map_private})
  list(REMOVE_ITEM map_NODES CS_PRIVATE)
endif()
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
cs_each_missing(exported map_SYMBOLS "exported but not listed in ${MAP}")
cs_each_missing(declared map_SYMBOLS "declared CS_API in the header but not listed in ${MAP}")
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
list(LENGTH private_symbols n_private)
message(STATUS "check_exports: ${n_exported} cs_ symbols = the ${n_declared} header functions = the ${n_listed} of ${MAP} (nodes ${nodes_text}); + ${n_private} CS_PRIVATE; SONAME ${soname}")
