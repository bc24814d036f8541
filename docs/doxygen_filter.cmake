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
# next to the HTML (HTML_EXTRA_FILES). The docs test checks every link of the output.
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
string(MD5 key "${input}")
file(WRITE "${OUT}/${key}.md" "${text}")
execute_process(COMMAND "${CMAKE_COMMAND}" -E cat "${OUT}/${key}.md")
