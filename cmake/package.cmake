# SPDX-License-Identifier: MIT
# Packaging: the CMake package (find_package(crowdspec CONFIG), from an install tree
# or from the build tree with crowdspec_DIR=<build dir>) and the variables of the
# relocatable pkg-config file. Included by the top-level CMakeLists.txt right after
# add_subdirectory(src), whose install(TARGETS crowdspec crowdspec_static ...) fills
# the export set crowdspecTargets.
#
# Installs, under <libdir>/cmake/crowdspec/:
#   crowdspecTargets.cmake (+ per-configuration files)  imported targets crowdspec::*
#   crowdspecConfig.cmake                               dependencies, components
#   crowdspecLinalg.cmake                               BLAS/LAPACK search (static use)
#   crowdspecConfigVersion.cmake                        SameMajorVersion
include(CMakePackageConfigHelpers)

set(CS_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/crowdspec" CACHE STRING
    "Where to install the CMake package files of crowdspec (relative to the prefix)")
mark_as_advanced(CS_INSTALL_CMAKEDIR)

# Whether crowdspec_static links OpenMP (see src/CMakeLists.txt); substituted into
# the config file so consumers look for it only when needed.
if(OpenMP_CXX_FOUND AND CS_OPENMP)
  set(CS_CONFIG_OPENMP TRUE)
else()
  set(CS_CONFIG_OPENMP FALSE)
endif()

install(EXPORT crowdspecTargets
        NAMESPACE crowdspec::
        FILE crowdspecTargets.cmake
        DESTINATION "${CS_INSTALL_CMAKEDIR}")

configure_package_config_file(
  "${CMAKE_CURRENT_LIST_DIR}/crowdspecConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/crowdspecConfig.cmake"
  INSTALL_DESTINATION "${CS_INSTALL_CMAKEDIR}"
  NO_SET_AND_CHECK_MACRO)
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/crowdspecConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}"
  COMPATIBILITY SameMajorVersion)
# crowdspecLinalg.cmake: the BLAS/LAPACK search of the build, reused by the config
# for crowdspec::crowdspec_static (copied beside the build tree's config too).
configure_file("${CMAKE_CURRENT_LIST_DIR}/crowdspecLinalg.cmake"
               "${PROJECT_BINARY_DIR}/crowdspecLinalg.cmake" COPYONLY)
install(FILES "${PROJECT_BINARY_DIR}/crowdspecConfig.cmake"
              "${PROJECT_BINARY_DIR}/crowdspecConfigVersion.cmake"
              "${PROJECT_BINARY_DIR}/crowdspecLinalg.cmake"
        DESTINATION "${CS_INSTALL_CMAKEDIR}")

# Build tree: the same config next to a targets file pointing into the build.
export(EXPORT crowdspecTargets
       NAMESPACE crowdspec::
       FILE "${PROJECT_BINARY_DIR}/crowdspecTargets.cmake")

# pkg-config (pkgconfig/crowdspec.pc.in): prefix, libdir and includedir relative to
# the .pc file's own directory, ${pcfiledir} = <prefix>/<libdir>/pkgconfig, so that
# an install moved with `cmake --install --prefix` (or a relocated package) is
# still found correctly. Absolute install dirs are used as they are.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(CS_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(CS_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  file(RELATIVE_PATH _cs_up "/_/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/_")
  string(REGEX REPLACE "/$" "" _cs_up "${_cs_up}")
  set(CS_PC_PREFIX "\${pcfiledir}/${_cs_up}")
  set(CS_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
  unset(_cs_up)
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(CS_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(CS_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()

# Libs.private: the BLAS/LAPACK libraries that were found (CS_LINALG_LIBRARIES, full
# paths) as linker flags: -lNAME, with -LDIR when DIR is not one the compiler searches
# anyway (e.g. Debian's /usr/lib/<triplet>/blas of the reference BLAS). Flags pass
# through; other files (static archives) are given by path.
set(CS_PC_LINALG "")
set(_cs_implicit_dirs "")
foreach(_cs_dir IN LISTS CMAKE_C_IMPLICIT_LINK_DIRECTORIES CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES)
  file(REAL_PATH "${_cs_dir}" _cs_real)
  list(APPEND _cs_implicit_dirs "${_cs_dir}" "${_cs_real}")
endforeach()
set(_cs_seen_dirs "")
foreach(_cs_lib IN LISTS CS_LINALG_LIBRARIES)
  if(_cs_lib MATCHES "^-")
    list(APPEND CS_PC_LINALG "${_cs_lib}")
  elseif(IS_ABSOLUTE "${_cs_lib}")
    get_filename_component(_cs_dir "${_cs_lib}" DIRECTORY)
    get_filename_component(_cs_name "${_cs_lib}" NAME)
    if(_cs_name MATCHES "^lib(.+)\\.(so|dylib)$")
      set(_cs_flag "-l${CMAKE_MATCH_1}")
    elseif(_cs_name MATCHES "\\.so\\.")
      set(_cs_flag "-l:${_cs_name}")
    else()
      list(APPEND CS_PC_LINALG "${_cs_lib}")
      continue()
    endif()
    file(REAL_PATH "${_cs_dir}" _cs_real)
    if(NOT _cs_dir IN_LIST _cs_implicit_dirs AND NOT _cs_real IN_LIST _cs_implicit_dirs
       AND NOT _cs_dir IN_LIST _cs_seen_dirs)
      list(APPEND CS_PC_LINALG "-L${_cs_dir}")
      list(APPEND _cs_seen_dirs "${_cs_dir}")
    endif()
    list(APPEND CS_PC_LINALG "${_cs_flag}")
  elseif(TARGET "${_cs_lib}")
    message(WARNING "crowdspec.pc: the BLAS/LAPACK dependency ${_cs_lib} is a target; "
                    "it is left out of Libs.private")
  else()
    list(APPEND CS_PC_LINALG "-l${_cs_lib}")
  endif()
endforeach()
list(JOIN CS_PC_LINALG " " CS_PC_LINALG)
unset(_cs_implicit_dirs)
unset(_cs_seen_dirs)

configure_file("${PROJECT_SOURCE_DIR}/pkgconfig/crowdspec.pc.in"
               "${PROJECT_BINARY_DIR}/crowdspec.pc" @ONLY)
