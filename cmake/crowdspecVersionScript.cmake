# SPDX-License-Identifier: MIT
# Reads the linker version script src/crowdspec.map, the committed list of exported
# symbols. Included by tests/check_exports.cmake (the ABI test) and by
# tools/scripts/debian-symbols.cmake (the Debian symbols file).
#
#   cs_read_version_script(<map file> <prefix>)
#
# sets, in the caller's scope:
#   <prefix>_NODES           the version nodes in file order, e.g. CS_0.1;CS_0.2
#   <prefix>_SYMBOLS         every global symbol, in file order
#   <prefix>_NODE_<symbol>   the node that exports <symbol>
# and stops with an error for anything it does not understand (a wildcard in a
# global: list, a symbol listed twice, a node without symbols, text outside a node).
function(cs_read_version_script file prefix)
  file(READ "${file}" text)
  # Comments (/* ... */, possibly over several lines) go first.
  string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" " " text "${text}")
  string(REGEX REPLACE "[ \t\r\n]+" " " text "${text}")
  set(nodes "")
  set(symbols "")
  while(NOT text MATCHES "^ *$")
    # NODE { global: a; b; local: *; } [PARENT] ;
    if(NOT text MATCHES "^ *([A-Za-z_][A-Za-z0-9_.]*) *\\{([^}]*)\\} *([A-Za-z0-9_.]*) *; *(.*)$")
      message(FATAL_ERROR "${file}: cannot parse near '${text}'")
    endif()
    set(node "${CMAKE_MATCH_1}")
    set(body "${CMAKE_MATCH_2}")
    set(parent "${CMAKE_MATCH_3}")
    set(text "${CMAKE_MATCH_4}")
    if(node IN_LIST nodes)
      message(FATAL_ERROR "${file}: version node ${node} appears twice")
    endif()
    if(parent AND NOT parent IN_LIST nodes)
      message(FATAL_ERROR "${file}: ${node} inherits ${parent}, which is not defined before it")
    endif()
    list(APPEND nodes "${node}")
    # The global: part ends at local: (or at the end of the node).
    set(global "${body}")
    if(body MATCHES "^ *global *:(.*)$")
      set(global "${CMAKE_MATCH_1}")
    endif()
    if(global MATCHES "^(.*) local *:(.*)$")
      set(global "${CMAKE_MATCH_1}")
    endif()
    string(REPLACE ";" "\n" global "${global}")
    string(REGEX REPLACE "[ \n]+" ";" entries "${global}")
    set(n 0)
    foreach(entry IN LISTS entries)
      if(entry STREQUAL "")
        continue()
      endif()
      if(NOT entry MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
        message(FATAL_ERROR "${file}: '${entry}' in ${node}: list every exported symbol by its exact name")
      endif()
      if(entry IN_LIST symbols)
        message(FATAL_ERROR "${file}: ${entry} is listed twice")
      endif()
      list(APPEND symbols "${entry}")
      set(${prefix}_NODE_${entry} "${node}" PARENT_SCOPE)
      math(EXPR n "${n} + 1")
    endforeach()
    if(n EQUAL 0)
      message(FATAL_ERROR "${file}: version node ${node} exports nothing")
    endif()
  endwhile()
  if(NOT nodes)
    message(FATAL_ERROR "${file}: no version node")
  endif()
  set(${prefix}_NODES "${nodes}" PARENT_SCOPE)
  set(${prefix}_SYMBOLS "${symbols}" PARENT_SCOPE)
endfunction()
