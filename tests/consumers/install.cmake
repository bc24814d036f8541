# SPDX-License-Identifier: MIT
# ctest fixture: install the build tree into a fresh prefix for the consumer tests.
#
#   cmake -DBUILD_DIR=<build> -DPREFIX=<prefix> [-DCONFIG=<config>] -P install.cmake
cmake_minimum_required(VERSION 3.18)
foreach(var BUILD_DIR PREFIX)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "install.cmake: -D${var}=... is required")
  endif()
endforeach()
file(REMOVE_RECURSE "${PREFIX}")
set(config_args "")
if(CONFIG)
  set(config_args --config "${CONFIG}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}"
                        ${config_args}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install ${BUILD_DIR} --prefix ${PREFIX} failed (${rc}):\n${out}\n${err}")
endif()
message(STATUS "installed into ${PREFIX}:\n${out}")
