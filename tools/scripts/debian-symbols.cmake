# SPDX-License-Identifier: MIT
# The Debian symbols file of the shared library, generated from the linker version
# script (the committed list of exported functions), by debian/rules before
# dh_makeshlibs:
#
#   cmake -DMAP=src/crowdspec.map -DSONAME=libcrowdspec.so.0 -DPACKAGE=libcrowdspec0
#         -DDEV_PACKAGE=libcrowdspec-dev -DOUT=<symbols file> -P tools/scripts/debian-symbols.cmake
#
# A symbol of version node CS_X.Y first appeared in release X.Y.0, so it gets that
# minimum version; the node's own definition symbol (CS_X.Y@CS_X.Y) is listed too, as
# dpkg-gensymbols sees it. dh_makeshlibs -- -c4 then fails the package build when the
# library exports anything this file does not list, or lacks anything it lists.
cmake_minimum_required(VERSION 3.18)
foreach(var MAP SONAME PACKAGE DEV_PACKAGE OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "debian-symbols.cmake: -D${var}=... is required")
  endif()
endforeach()
include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/crowdspecVersionScript.cmake")
cs_read_version_script("${MAP}" map)

set(lines "")
foreach(node IN LISTS map_NODES)
  # CS_PRIVATE (src/api/distributed.h): exported for libcrowdspec_mpi only, which is
  # built from the same tree and is not among these packages; its symbols are listed
  # with the first release's version so that dpkg-gensymbols -c4 sees every export.
  if(node STREQUAL "CS_PRIVATE")
    set(since_${node} "0.1.0")
    list(APPEND lines " ${node}@${node} ${since_${node}}")
    continue()
  endif()
  if(NOT node MATCHES "^CS_([0-9]+)\\.([0-9]+)$")
    message(FATAL_ERROR "${MAP}: version node ${node} is not CS_<major>.<minor>")
  endif()
  set(since_${node} "${CMAKE_MATCH_1}.${CMAKE_MATCH_2}.0")
  list(APPEND lines " ${node}@${node} ${since_${node}}")
endforeach()
foreach(symbol IN LISTS map_SYMBOLS)
  set(node "${map_NODE_${symbol}}")
  list(APPEND lines " ${symbol}@${node} ${since_${node}}")
endforeach()
list(SORT lines)
list(JOIN lines "\n" body)
file(WRITE "${OUT}" "${SONAME} ${PACKAGE} #MINVER#\n* Build-Depends-Package: ${DEV_PACKAGE}\n${body}\n")
list(LENGTH map_SYMBOLS n)
message(STATUS "${OUT}: ${n} symbols of ${SONAME} from ${MAP}")
