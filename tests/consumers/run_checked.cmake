# SPDX-License-Identifier: MIT
# ctest helper: run a program, require exit status 0 and output matching every regex
# of a list.
#
#   cmake -DPROGRAM=<exe> -DEXPECT=<regex>[;<regex>...] -P run_checked.cmake
cmake_minimum_required(VERSION 3.18)
execute_process(COMMAND "${PROGRAM}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} exited with ${rc}")
endif()
foreach(regex IN LISTS EXPECT)
  if(NOT out MATCHES "${regex}")
    message(FATAL_ERROR "${PROGRAM}: the output does not match '${regex}'")
  endif()
endforeach()
