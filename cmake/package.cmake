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
install(FILES "${PROJECT_BINARY_DIR}/crowdspecConfig.cmake"
              "${PROJECT_BINARY_DIR}/crowdspecConfigVersion.cmake"
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
configure_file("${PROJECT_SOURCE_DIR}/pkgconfig/crowdspec.pc.in"
               "${PROJECT_BINARY_DIR}/crowdspec.pc" @ONLY)
