# SPDX-License-Identifier: MIT
# Doxygen input filter of the Markdown pages (FILTER_PATTERNS in Doxyfile.in):
#
#   cmake -DOUT=<scratch directory> -P doxygen_filter.cmake <file>
#
# prints <file> without a leading SPDX licence comment (Doxygen takes a page's title
# from its first line only when that line is the heading), and with the README's links
# to source files made into links inside the HTML reference, so that none of them is
# dead there (the README itself keeps the relative links that work in a source tree
# and on a forge):
#   [..](docs/examples/NAME)             -> [..](@ref NAME), the example's page
#   [..](include/crowdspec/crowdspec.h)  -> [..](@ref crowdspec.h), the header's page
# Links to other Markdown files are pages of the reference already; LICENSE is copied
# next to the HTML (HTML_EXTRA_FILES). A link to any other file of the source tree (the
# reference does not contain it) becomes its text with the path in code. The docs test
# checks every link of the output.
# Doxygen also reads A::B inside `inline code` as a link request (and warns about
# Julia's `x::Matrix{Float64}`): a % after the :: keeps the text and drops the request.
cmake_minimum_required(VERSION 3.18)
if(NOT OUT OR CMAKE_ARGC LESS 5)
  message(FATAL_ERROR "usage: cmake -DOUT=<scratch directory> -P doxygen_filter.cmake <file>")
endif()
math(EXPR last "${CMAKE_ARGC} - 1")
set(input "${CMAKE_ARGV${last}}")
file(READ "${input}" text)
string(REGEX REPLACE "^<!-- SPDX-License-Identifier: [^>]*-->\n\n?" "" text "${text}")
string(REPLACE "](docs/examples/" "](@ref " text "${text}")
string(REPLACE "](include/crowdspec/crowdspec.h)" "](@ref crowdspec.h)" text "${text}")
string(REGEX MATCHALL "\\[[^]\n]*\\]\\([^):# \n]+\\)" links "${text}")
list(REMOVE_DUPLICATES links)
foreach(link IN LISTS links)
  string(REGEX REPLACE "^\\[([^]]*)\\]\\(([^)]*)\\)$" "\\1;\\2" parts "${link}")
  list(GET parts 0 label)
  list(GET parts 1 target)
  if(target MATCHES "\\.md$" OR target STREQUAL "LICENSE")
    continue()
  endif()
  if(label STREQUAL target OR label STREQUAL "`${target}`")
    set(plain "`${target}`")
  else()
    set(plain "${label} (`${target}`)")
  endif()
  string(REPLACE "${link}" "${plain}" text "${text}")
endforeach()
string(REGEX MATCHALL "`[^`\n]*::[^`\n]*`" spans "${text}")
list(REMOVE_DUPLICATES spans)
foreach(span IN LISTS spans)
  string(REGEX REPLACE "::([A-Za-z_])" "::%\\1" plain "${span}")
  string(REPLACE "${span}" "${plain}" text "${text}")
endforeach()
string(MD5 key "${input}")
file(WRITE "${OUT}/${key}.md" "${text}")
execute_process(COMMAND "${CMAKE_COMMAND}" -E cat "${OUT}/${key}.md")
