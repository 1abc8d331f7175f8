# Finds ScaLAPACK built for the MPI in use (Debian: pkg-config scalapack-openmpi).
# Defines ScaLAPACK::ScaLAPACK.
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(PC_SCALAPACK QUIET scalapack-openmpi)
  if(NOT PC_SCALAPACK_FOUND)
    pkg_check_modules(PC_SCALAPACK QUIET scalapack)
  endif()
endif()
find_library(ScaLAPACK_LIBRARY
  NAMES scalapack-openmpi scalapack
  HINTS ${PC_SCALAPACK_LIBRARY_DIRS})
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(ScaLAPACK REQUIRED_VARS ScaLAPACK_LIBRARY)
if(ScaLAPACK_FOUND AND NOT TARGET ScaLAPACK::ScaLAPACK)
  add_library(ScaLAPACK::ScaLAPACK UNKNOWN IMPORTED)
  set_target_properties(ScaLAPACK::ScaLAPACK PROPERTIES IMPORTED_LOCATION "${ScaLAPACK_LIBRARY}")
  target_link_libraries(ScaLAPACK::ScaLAPACK INTERFACE LAPACK::LAPACK BLAS::BLAS MPI::MPI_C)
endif()
mark_as_advanced(ScaLAPACK_LIBRARY)
