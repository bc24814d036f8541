# SPDX-License-Identifier: MIT
# ctest `licence_headers`: every source file of the tree names its licence in its
# header comment (SPDX-License-Identifier: MIT within its first 5 lines), so that a
# file copied out of the project still says under which terms. Source files are the
# code and scripts: C/C++, CMake, shell, Python, R, Rust, Julia, the man page and the
# CI script; data, Markdown and formats without comments (R's DESCRIPTION) are not.
# Usage: cmake -DSOURCE_DIR=<tree> -P check_licence.cmake
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "check_licence.cmake: SOURCE_DIR is required")
endif()
set(patterns)
foreach(dir include src tools tests bindings bench cmake docs pkgconfig .ci)
  foreach(ext c cpp h hpp cmake sh py R r rs jl 1 in)
    list(APPEND patterns "${SOURCE_DIR}/${dir}/*.${ext}")
  endforeach()
  list(APPEND patterns "${SOURCE_DIR}/${dir}/CMakeLists.txt")
endforeach()
file(GLOB_RECURSE files LIST_DIRECTORIES false ${patterns})
list(APPEND files "${SOURCE_DIR}/CMakeLists.txt" "${SOURCE_DIR}/.ci/run")
set(missing)
set(checked 0)
foreach(f IN LISTS files)
  file(RELATIVE_PATH rel "${SOURCE_DIR}" "${f}")
  # Build trees, caches and fetched dependencies are not the project's sources.
  if(rel MATCHES "(^|/)(build[^/]*|target|__pycache__|\\.pytest_cache|[^/]*\\.egg-info|\\.git)/")
    continue()
  endif()
  file(STRINGS "${f}" head LIMIT_COUNT 5)
  math(EXPR checked "${checked} + 1")
  if(NOT head MATCHES "SPDX-License-Identifier: MIT")
    list(APPEND missing "${rel}")
  endif()
endforeach()
if(missing)
  list(JOIN missing "\n  " text)
  message(FATAL_ERROR "no SPDX-License-Identifier: MIT in the first 5 lines of:\n  ${text}")
endif()
message(STATUS "licence_headers: ${checked} source files name their licence")
