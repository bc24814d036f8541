# SPDX-License-Identifier: MIT
# ctest consumer_mpi_pkgconfig: docs/examples/mpi.c compiled against the installed
# prefix with `pkg-config --cflags --libs crowdspec-mpi` (only PKG_CONFIG_PATH points
# there: the .pc file is relocatable) and run on 2 processes.
#
#   cmake -DPREFIX=<prefix> -DLIBDIR=<lib dir relative to prefix> -DSOURCE=<mpi.c>
#         -DWORK_DIR=<dir> -DCC=<C compiler> -DPKG_CONFIG=<pkg-config> -DVERSION=<x.y.z>
#         -DMPIEXEC=<mpiexec> [-DMPIEXEC_FLAGS=<flags;...>] -P consumer_pkgconfig.cmake
cmake_minimum_required(VERSION 3.18)
foreach(var PREFIX LIBDIR SOURCE WORK_DIR CC PKG_CONFIG VERSION MPIEXEC)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "consumer_pkgconfig.cmake: -D${var}=... is required")
  endif()
endforeach()
set(libdir "${PREFIX}/${LIBDIR}")
set(ENV{PKG_CONFIG_PATH} "${libdir}/pkgconfig")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    list(JOIN ARGN " " cmd)
    message(FATAL_ERROR "${what} failed (${rc}):\n${cmd}\n${out}\n${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

run("pkg-config --modversion" "${PKG_CONFIG}" --modversion crowdspec-mpi)
if(NOT run_output STREQUAL VERSION)
  message(FATAL_ERROR "pkg-config --modversion crowdspec-mpi = ${run_output}, expected ${VERSION}")
endif()
run("pkg-config --cflags --libs" "${PKG_CONFIG}" --cflags --libs crowdspec-mpi)
message(STATUS "pkg-config --cflags --libs crowdspec-mpi: ${run_output}")
separate_arguments(flags UNIX_COMMAND "${run_output}")
set(exe "${WORK_DIR}/mpi_example")
run("compiling ${SOURCE}" "${CC}" -std=c99 -Wall -Wextra -Werror "${SOURCE}" ${flags} "-Wl,-rpath,${libdir}" -o "${exe}")
run("running ${exe} on 2 processes" "${MPIEXEC}" -n 2 ${MPIEXEC_FLAGS} "${exe}")
if(NOT run_output MATCHES "5 items over 2 processes")
  message(FATAL_ERROR "unexpected output:\n${run_output}")
endif()
foreach(j 0 1 2 3 4)
  # The processes' lines come in any order (mpiexec forwards each process's output).
  if(NOT run_output MATCHES "(^|\n) *[01] +${j} +[0-2] ")
    message(FATAL_ERROR "item ${j} is missing from the output:\n${run_output}")
  endif()
endforeach()
message(STATUS "mpi.c via pkg-config:\n${run_output}")
