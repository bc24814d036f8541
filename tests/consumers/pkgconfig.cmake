# SPDX-License-Identifier: MIT
# ctest: compile and run docs/examples/basic.c against the installed prefix with
# the flags from pkg-config, linked to the shared library and then statically.
#
#   cmake -DPREFIX=<prefix> -DLIBDIR=<lib dir relative to prefix> -DSOURCE=<basic.c>
#         -DWORK_DIR=<dir> -DCC=<C compiler> -DPKG_CONFIG=<pkg-config>
#         -DSOVERSION=<major> -DVERSION=<x.y.z> [-DEXTRA_FLAGS="<flags>"]
#         [-DREADELF=readelf] -P pkgconfig.cmake
#
# pkg-config searches the prefix's pkgconfig directory only (PKG_CONFIG_LIBDIR, not
# the system's): crowdspec.pc must work with no other package's .pc file, also for
# --static (it has no Requires.private; BLAS/LAPACK are -l flags in Libs.private).
# The .pc file is relocatable (its prefix is derived from ${pcfiledir}), so it must
# work although the build was configured with another CMAKE_INSTALL_PREFIX.
cmake_minimum_required(VERSION 3.18)
foreach(var PREFIX LIBDIR SOURCE WORK_DIR CC PKG_CONFIG SOVERSION VERSION)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "pkgconfig.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT READELF)
  find_program(READELF readelf)
endif()
separate_arguments(EXTRA_FLAGS UNIX_COMMAND "${EXTRA_FLAGS}")

set(libdir "${PREFIX}/${LIBDIR}")
set(ENV{PKG_CONFIG_LIBDIR} "${libdir}/pkgconfig")
unset(ENV{PKG_CONFIG_PATH})
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

function(pkg_config out)
  execute_process(COMMAND "${PKG_CONFIG}" ${ARGN} crowdspec
                  RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE err
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pkg-config ${ARGN} crowdspec failed (${rc}): ${err}\n"
                        "PKG_CONFIG_LIBDIR=$ENV{PKG_CONFIG_LIBDIR}")
  endif()
  separate_arguments(list UNIX_COMMAND "${text}")
  set(${out} "${list}" PARENT_SCOPE)
  message(STATUS "pkg-config ${ARGN} crowdspec: ${text}")
endfunction()

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    list(JOIN ARGN " " cmd)
    message(FATAL_ERROR "${what} failed (${rc}):\n${cmd}\n${out}\n${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

# The result of docs/examples/basic.c: a table with every item.
function(check_example exe)
  run("running ${exe}" "${exe}")
  if(NOT run_output MATCHES "item +label +posterior" OR NOT run_output MATCHES "\n +4 +[0-9]+ ")
    message(FATAL_ERROR "${exe}: unexpected output:\n${run_output}")
  endif()
endfunction()

function(needed_libraries exe out)
  run("readelf -d ${exe}" "${READELF}" -d "${exe}")
  string(REGEX MATCHALL "\\(NEEDED\\)[^\n]*\\[[^]\n]+\\]" lines "${run_output}")
  set(${out} "${lines}" PARENT_SCOPE)
endfunction()

pkg_config(version --modversion)
if(NOT version STREQUAL VERSION)
  message(FATAL_ERROR "pkg-config --modversion crowdspec = ${version}, expected ${VERSION}")
endif()
foreach(dir includedir libdir)
  pkg_config(value --variable=${dir})
  file(REAL_PATH "${value}" value)
  file(REAL_PATH "${PREFIX}" real_prefix)
  string(FIND "${value}" "${real_prefix}/" at)
  if(NOT at EQUAL 0)
    message(FATAL_ERROR "pkg-config --variable=${dir} crowdspec = ${value}: not under ${PREFIX}")
  endif()
endforeach()
pkg_config(requires --print-requires)
pkg_config(requires_private --print-requires-private)
if(NOT requires STREQUAL "" OR NOT requires_private STREQUAL "")
  message(FATAL_ERROR "crowdspec.pc requires other .pc files: '${requires}' / '${requires_private}'")
endif()
pkg_config(cflags --cflags)
pkg_config(libs --libs)
pkg_config(static_libs --static --libs)

# 1. Shared: cc basic.c $(pkg-config --cflags --libs crowdspec)
set(exe "${WORK_DIR}/basic_shared")
run("compiling basic.c against the shared library"
    "${CC}" ${EXTRA_FLAGS} "${SOURCE}" ${cflags} ${libs} "-Wl,-rpath,${libdir}" -o "${exe}")
check_example("${exe}")
if(READELF)
  needed_libraries("${exe}" needed)
  if(NOT needed MATCHES "libcrowdspec\\.so\\.${SOVERSION}\\]")
    message(FATAL_ERROR "${exe} does not need libcrowdspec.so.${SOVERSION}: ${needed}")
  endif()
endif()

# 2. Static: the same with --static, libcrowdspec.a instead of -lcrowdspec. Everything
#    the archive needs (C++ runtime, libm, OpenMP, BLAS, LAPACK, LAPACKE) must come
#    from Libs.private.
if(NOT EXISTS "${libdir}/libcrowdspec.a")
  message(FATAL_ERROR "${libdir}/libcrowdspec.a was not installed")
endif()
list(TRANSFORM static_libs REPLACE "^-lcrowdspec$" "${libdir}/libcrowdspec.a")
if(NOT "${libdir}/libcrowdspec.a" IN_LIST static_libs)
  message(FATAL_ERROR "pkg-config --static --libs crowdspec has no -lcrowdspec: ${static_libs}")
endif()
set(exe "${WORK_DIR}/basic_static")
run("compiling basic.c statically"
    "${CC}" ${EXTRA_FLAGS} "${SOURCE}" ${cflags} ${static_libs} -o "${exe}")
check_example("${exe}")
if(READELF)
  needed_libraries("${exe}" needed)
  if(needed MATCHES "libcrowdspec")
    message(FATAL_ERROR "${exe} is linked statically but needs the shared library: ${needed}")
  endif()
endif()
message(STATUS "pkg-config consumer: shared and static builds of basic.c run")
