# SPDX-License-Identifier: MIT
# ctest script: Doxygen must not warn about the public header (every declaration,
# parameter and return value documented; no broken references).
#
#   cmake -DDOXYGEN=<doxygen> -DDOXYFILE=<configured Doxyfile> -DLOGFILE=<WARN_LOGFILE>
#         -DOUTPUT_DIR=<OUTPUT_DIRECTORY> -DWORKING_DIRECTORY=<dir> [-DHEADER=<header>]
#         -P check_doxygen.cmake
#
# Doxygen (1.9) does not warn about undocumented values of a documented enum, so with
# HEADER the script also requires a doc comment on or just above every enumerator.
cmake_minimum_required(VERSION 3.18)
foreach(var DOXYGEN DOXYFILE LOGFILE OUTPUT_DIR WORKING_DIRECTORY)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_doxygen.cmake: -D${var}=... is required")
  endif()
endforeach()
file(REMOVE_RECURSE "${OUTPUT_DIR}")
file(MAKE_DIRECTORY "${OUTPUT_DIR}")
file(REMOVE "${LOGFILE}")
execute_process(COMMAND "${DOXYGEN}" "${DOXYFILE}"
                WORKING_DIRECTORY "${WORKING_DIRECTORY}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "doxygen failed (${rc}):\n${out}\n${err}")
endif()
set(warnings "")
if(EXISTS "${LOGFILE}")
  file(READ "${LOGFILE}" warnings)
  string(STRIP "${warnings}" warnings)
endif()
# Anything doxygen printed on stderr despite WARN_LOGFILE counts too.
string(STRIP "${err}" err)
if(NOT warnings STREQUAL "" OR NOT err STREQUAL "")
  message(FATAL_ERROR "Doxygen warnings about the public header:\n${warnings}\n${err}")
endif()

if(HEADER)
  file(STRINGS "${HEADER}" lines)
  set(previous "")
  set(undocumented "")
  foreach(line IN LISTS lines)
    if(line MATCHES "^[ \t]*(CS_[A-Z0-9_]+)[ \t]*=[^=]")
      set(name "${CMAKE_MATCH_1}")
      if(NOT line MATCHES "/\\*\\*<" AND NOT previous MATCHES "\\*/[ \t]*$")
        list(APPEND undocumented "${name}")
      endif()
    endif()
    if(NOT line MATCHES "^[ \t]*$")
      set(previous "${line}")
    endif()
  endforeach()
  if(undocumented)
    list(JOIN undocumented ", " text)
    message(FATAL_ERROR "${HEADER}: enumerators without a doc comment: ${text}")
  endif()
endif()
message(STATUS "doxygen: no warnings")
