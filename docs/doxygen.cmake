# SPDX-License-Identifier: MIT
# The one Doxygen configuration of the reference, shared by the `docs` target
# (docs/CMakeLists.txt) and the doxygen_docs test (tests/CMakeLists.txt), so that the
# test checks exactly what is built and installed.
#
#   cs_configure_doxyfile(<Doxyfile to write> <output directory> <warning log>)
#
# Inputs, in the order of the reference's pages: docs/getting-started.md (the main
# page), the public headers (crowdspec.h, crowdspec_mpi.h), the example pages (docs/examples.dox, programs in
# docs/examples/), docs/algorithms.md, docs/defaults.md, docs/VERSIONING.md,
# docs/packaging.md, docs/scaling.md, docs/reliability.md, docs/binary-format.md,
# docs/saved-models.md, docs/incremental.md, docs/ARCHITECTURE.md, README.md,
# bench/README.md and
# the READMEs of the bindings.
set(CS_DOXYGEN_PAGES
  docs/getting-started.md
  include/crowdspec/crowdspec.h
  include/crowdspec/crowdspec_mpi.h
  docs/examples.dox
  docs/algorithms.md
  docs/defaults.md
  docs/VERSIONING.md
  docs/packaging.md
  docs/scaling.md
  docs/reliability.md
  docs/binary-format.md
  docs/saved-models.md
  docs/incremental.md
  docs/ARCHITECTURE.md
  docs/accuracy.md
  README.md
  bench/README.md
  bindings/python/README.md
  bindings/rust/README.md
  bindings/julia/README.md
  bindings/r/README.md)
set(CS_DOXYGEN_EXAMPLES docs/examples/basic.c docs/examples/points.c docs/examples/graph.c docs/examples/rank.c
    docs/examples/mpi.c)

# The Markdown pages go through docs/doxygen_filter.cmake (FILTER_PATTERNS; Doxygen runs the
# command through the shell, so the build and source paths must not contain spaces).
function(cs_configure_doxyfile doxyfile output_dir warn_log)
  set(inputs "")
  set(CS_DOXYGEN_DEPENDS "")
  foreach(page IN LISTS CS_DOXYGEN_PAGES CS_DOXYGEN_EXAMPLES)
    list(APPEND CS_DOXYGEN_DEPENDS "${PROJECT_SOURCE_DIR}/${page}")
  endforeach()
  foreach(page IN LISTS CS_DOXYGEN_PAGES)
    string(APPEND inputs " \"${PROJECT_SOURCE_DIR}/${page}\"")
  endforeach()
  set(CS_DOXYGEN_OUTPUT_DIR "${output_dir}")
  set(CS_DOXYGEN_INPUT "${inputs}")
  set(CS_DOXYGEN_MAINPAGE "\"${PROJECT_SOURCE_DIR}/docs/getting-started.md\"")
  set(CS_DOXYGEN_WARN_LOGFILE "\"${warn_log}\"")
  set(CS_DOXYGEN_FILTER
      "\"*.md=${CMAKE_COMMAND} -DOUT=${output_dir}/filtered -P ${PROJECT_SOURCE_DIR}/docs/doxygen_filter.cmake\"")
  configure_file("${PROJECT_SOURCE_DIR}/docs/Doxyfile.in" "${doxyfile}" @ONLY)
  set(CS_DOXYGEN_DEPENDS "${CS_DOXYGEN_DEPENDS}" PARENT_SCOPE)
endfunction()
