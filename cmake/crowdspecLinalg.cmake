# SPDX-License-Identifier: MIT
# BLAS, LAPACK, CBLAS and LAPACKE found by interface, not by vendor.
#
# Used twice, with the same code: by the build (the top-level CMakeLists.txt) and,
# installed next to crowdspecConfig.cmake, by consumers of crowdspec::crowdspec_static
# (the shared library hides its dependencies; only a static link needs them).
#
#   cs_find_linalg(<REQUIRED|QUIET> [DEFAULT_VENDOR <vendor>])
#
# BLAS and LAPACK come from CMake's FindBLAS and FindLAPACK, so every vendor they know
# works: BLA_VENDOR=OpenBLAS, Generic (the reference BLAS/LAPACK, or whatever Debian's
# libblas.so.3 / liblapack.so.3 alternatives point to), Intel10_64lp (MKL), FLAME
# (BLIS), ATLAS, Apple, ... When BLA_VENDOR is not set, OpenBLAS is tried first and
# any vendor after that (DEFAULT_VENDOR, used by the installed config, is tried first
# instead). 32-bit integer (LP64) interfaces are required.
#
# The C interfaces are found by symbol, header and library:
#   CBLAS    cblas_dgemm in the BLAS libraries (OpenBLAS, MKL, Debian's libblas.so.3,
#            BLIS), else a separate library (cblas, satlas, tatlas);
#            header cblas.h, or mkl_cblas.h (MKL)
#   LAPACKE  LAPACKE_dsyevd in the LAPACK libraries (OpenBLAS built with it, MKL),
#            else a separate library (lapacke, Debian's liblapacke.so.3);
#            header lapacke.h, or mkl_lapacke.h
#
# Explicit choices (cache variables; each one skips its search):
#   CS_BLAS_LIBRARIES      BLAS libraries (paths or -l flags), e.g. R's libRblas.so
#   CS_LAPACK_LIBRARIES    LAPACK libraries; with CS_BLAS_LIBRARIES set and this
#                          unset, LAPACK is looked for in CS_BLAS_LIBRARIES first
#   CS_CBLAS_LIBRARY, CS_LAPACKE_LIBRARY          the separate C-interface libraries
#   CS_CBLAS_INCLUDE_DIR, CS_LAPACKE_INCLUDE_DIR  where cblas.h / lapacke.h live
# Other ways to steer the search are CMake's own: BLA_VENDOR, BLA_STATIC,
# CMAKE_LIBRARY_PATH (e.g. the directory of another libblas.so), CMAKE_PREFIX_PATH.
#
# Results (in the caller's scope):
#   CS_LINALG_FOUND        TRUE or FALSE
#   CS_LINALG_MISSING      what was not found (text), when not found
#   CS_LINALG_VENDOR       the BLA_VENDOR that found BLAS ("explicit" for
#                          CS_BLAS_LIBRARIES)
#   CS_LINALG_LIBRARIES    link order: LAPACKE, LAPACK, CBLAS, BLAS and their needs
#   CS_LINALG_INCLUDE_DIRS the directories of the two headers
#   CS_LINALG_MKL_HEADERS  TRUE when the headers are MKL's mkl_cblas.h/mkl_lapacke.h
#   target crowdspec::linalg  INTERFACE IMPORTED: the libraries, include dirs and, for
#                             MKL headers, the definition CS_HAVE_MKL_HEADERS
include_guard(GLOBAL)
include(CheckFunctionExists)

# _cs_links(<result> <function> <libraries...>): whether <function> links against the
# libraries. The answer is cached under a name derived from the libraries, so that a
# change of vendor is checked again rather than taken from a stale cache entry.
function(_cs_links result function)
  string(MD5 key "${function};${ARGN}")
  set(var "CS_LINKS_${function}_${key}")
  if(NOT DEFINED ${var})
    set(CMAKE_REQUIRED_LIBRARIES ${ARGN})
    set(CMAKE_REQUIRED_QUIET TRUE)
    check_function_exists(${function} ${var})
  endif()
  if(${var})
    set(${result} TRUE PARENT_SCOPE)
  else()
    set(${result} FALSE PARENT_SCOPE)
  endif()
endfunction()

function(cs_find_linalg mode)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "DEFAULT_VENDOR" "")
  set(missing "")
  if(NOT CMAKE_C_COMPILER_LOADED AND NOT CMAKE_CXX_COMPILER_LOADED)
    set(CS_LINALG_FOUND FALSE PARENT_SCOPE)
    set(CS_LINALG_MISSING "BLAS/LAPACK (enable the C or CXX language to look for them)"
        PARENT_SCOPE)
    return()
  endif()
  if(NOT DEFINED BLA_SIZEOF_INTEGER)
    set(BLA_SIZEOF_INTEGER 4)  # the C interfaces below are used with 32-bit integers
  endif()

  # --- BLAS ----------------------------------------------------------------------------
  if(CS_BLAS_LIBRARIES)
    set(blas "${CS_BLAS_LIBRARIES}")
    set(vendor "explicit")
  else()
    set(user_vendor "")
    if(NOT "$ENV{BLA_VENDOR}" STREQUAL "")
      set(user_vendor "$ENV{BLA_VENDOR}")
    elseif(BLA_VENDOR)
      set(user_vendor "${BLA_VENDOR}")
    endif()
    if(user_vendor)
      set(candidates "${user_vendor}")
    elseif(arg_DEFAULT_VENDOR)
      set(candidates "${arg_DEFAULT_VENDOR}" All)
    else()
      set(candidates OpenBLAS All)
    endif()
    list(REMOVE_DUPLICATES candidates)
    set(blas "")
    set(vendor "")
    foreach(candidate IN LISTS candidates)
      set(BLA_VENDOR "${candidate}")
      find_package(BLAS QUIET)
      if(BLAS_FOUND)
        set(blas ${BLAS_LINKER_FLAGS} ${BLAS_LIBRARIES})
        set(vendor "${candidate}")
        break()
      endif()
    endforeach()
    if(NOT vendor)
      list(JOIN candidates " or " text)
      list(APPEND missing "BLAS (BLA_VENDOR ${text}; set BLA_VENDOR or CS_BLAS_LIBRARIES)")
    endif()
  endif()

  # --- LAPACK --------------------------------------------------------------------------
  set(lapack "")
  if(CS_LAPACK_LIBRARIES)
    set(lapack ${CS_LAPACK_LIBRARIES} ${blas})
  elseif(CS_BLAS_LIBRARIES)
    _cs_links(in_blas dsyevd_ ${blas})
    if(in_blas)
      set(lapack ${blas})
    else()
      list(APPEND missing "LAPACK (dsyevd_ is not in CS_BLAS_LIBRARIES: set CS_LAPACK_LIBRARIES)")
    endif()
  elseif(vendor)
    set(BLA_VENDOR "${vendor}")
    find_package(LAPACK QUIET)
    if(NOT LAPACK_FOUND AND NOT user_vendor AND NOT vendor STREQUAL "All")
      # e.g. an OpenBLAS built without LAPACK: a separate LAPACK over that BLAS.
      set(BLA_VENDOR All)
      find_package(LAPACK QUIET)
    endif()
    if(LAPACK_FOUND)
      # FindLAPACK's list already ends with the BLAS libraries.
      set(lapack ${LAPACK_LINKER_FLAGS} ${LAPACK_LIBRARIES})
    else()
      list(APPEND missing "LAPACK (BLA_VENDOR ${vendor}; set CS_LAPACK_LIBRARIES)")
    endif()
  endif()

  # --- CBLAS and LAPACKE: symbol, then library ----------------------------------------
  set(cblas "")
  if(blas)
    if(CS_CBLAS_LIBRARY)
      set(cblas "${CS_CBLAS_LIBRARY}")
    else()
      _cs_links(in_blas cblas_dgemm ${blas})
      if(NOT in_blas)
        find_library(CS_CBLAS_LIBRARY NAMES cblas satlas tatlas
                     DOC "The CBLAS library, when the BLAS libraries lack cblas_dgemm")
        if(CS_CBLAS_LIBRARY)
          set(cblas "${CS_CBLAS_LIBRARY}")
        endif()
      endif()
    endif()
    _cs_links(cblas_ok cblas_dgemm ${cblas} ${blas})
    if(NOT cblas_ok)
      list(APPEND missing "CBLAS (cblas_dgemm is in neither the BLAS libraries nor a cblas library: set CS_CBLAS_LIBRARY)")
    endif()
  endif()
  set(lapacke "")
  if(lapack)
    if(CS_LAPACKE_LIBRARY)
      set(lapacke "${CS_LAPACKE_LIBRARY}")
    else()
      _cs_links(in_lapack LAPACKE_dsyevd ${lapack} ${cblas})
      if(NOT in_lapack)
        find_library(CS_LAPACKE_LIBRARY NAMES lapacke
                     DOC "The LAPACKE library, when the LAPACK libraries lack LAPACKE_dsyevd")
        if(CS_LAPACKE_LIBRARY)
          set(lapacke "${CS_LAPACKE_LIBRARY}")
        endif()
      endif()
    endif()
    _cs_links(lapacke_ok LAPACKE_dsyevd ${lapacke} ${lapack} ${cblas})
    if(NOT lapacke_ok)
      list(APPEND missing "LAPACKE (LAPACKE_dsyevd is in neither the LAPACK libraries nor a lapacke library: set CS_LAPACKE_LIBRARY)")
    endif()
  endif()

  # Headers: the standard names, else MKL's.
  set(mkl_hints "")
  if(NOT "$ENV{MKLROOT}" STREQUAL "")
    set(mkl_hints "$ENV{MKLROOT}/include")
  endif()
  find_path(CS_CBLAS_INCLUDE_DIR NAMES cblas.h PATH_SUFFIXES openblas cblas
            DOC "Directory of cblas.h")
  find_path(CS_LAPACKE_INCLUDE_DIR NAMES lapacke.h PATH_SUFFIXES openblas lapacke
            DOC "Directory of lapacke.h")
  set(mkl_headers FALSE)
  if(NOT CS_CBLAS_INCLUDE_DIR OR NOT CS_LAPACKE_INCLUDE_DIR)
    find_path(CS_MKL_INCLUDE_DIR NAMES mkl_cblas.h HINTS ${mkl_hints} PATH_SUFFIXES mkl
              DOC "Directory of MKL's mkl_cblas.h and mkl_lapacke.h")
    if(CS_MKL_INCLUDE_DIR AND EXISTS "${CS_MKL_INCLUDE_DIR}/mkl_lapacke.h")
      set(mkl_headers TRUE)
    endif()
  endif()
  if(mkl_headers)
    set(include_dirs "${CS_MKL_INCLUDE_DIR}")
  else()
    set(include_dirs ${CS_CBLAS_INCLUDE_DIR} ${CS_LAPACKE_INCLUDE_DIR})
    if(NOT CS_CBLAS_INCLUDE_DIR)
      list(APPEND missing "cblas.h (set CS_CBLAS_INCLUDE_DIR)")
    endif()
    if(NOT CS_LAPACKE_INCLUDE_DIR)
      list(APPEND missing "lapacke.h (set CS_LAPACKE_INCLUDE_DIR)")
    endif()
  endif()
  list(REMOVE_DUPLICATES include_dirs)

  set(libraries ${lapacke} ${lapack} ${cblas} ${blas})
  # The same library may come twice (LAPACK's list ends with BLAS's); keep the last.
  list(REVERSE libraries)
  list(REMOVE_DUPLICATES libraries)
  list(REVERSE libraries)

  if(missing)
    list(JOIN missing "; " text)
    if(mode STREQUAL "REQUIRED")
      message(FATAL_ERROR "crowdspec needs BLAS, LAPACK, CBLAS and LAPACKE. Not found: ${text}")
    endif()
    set(CS_LINALG_FOUND FALSE PARENT_SCOPE)
    set(CS_LINALG_MISSING "${text}" PARENT_SCOPE)
    return()
  endif()

  if(NOT TARGET crowdspec::linalg)
    add_library(crowdspec::linalg INTERFACE IMPORTED)
    set_target_properties(crowdspec::linalg PROPERTIES
      INTERFACE_LINK_LIBRARIES "${libraries}"
      INTERFACE_INCLUDE_DIRECTORIES "${include_dirs}")
    if(mkl_headers)
      set_target_properties(crowdspec::linalg PROPERTIES
        INTERFACE_COMPILE_DEFINITIONS CS_HAVE_MKL_HEADERS)
    endif()
  endif()
  if(mode STREQUAL "REQUIRED")
    list(JOIN libraries " " text)
    message(STATUS "crowdspec: BLAS/LAPACK (BLA_VENDOR ${vendor}): ${text}")
  endif()
  set(CS_LINALG_FOUND TRUE PARENT_SCOPE)
  set(CS_LINALG_MISSING "" PARENT_SCOPE)
  set(CS_LINALG_VENDOR "${vendor}" PARENT_SCOPE)
  set(CS_LINALG_LIBRARIES "${libraries}" PARENT_SCOPE)
  set(CS_LINALG_INCLUDE_DIRS "${include_dirs}" PARENT_SCOPE)
  set(CS_LINALG_MKL_HEADERS ${mkl_headers} PARENT_SCOPE)
endfunction()
