# PETSc and SLEPc, the peers of the sparse benchmarks (never needed by the library).
# Debian installs each scalar type as its own build, PETSc under
# /usr/lib/petscdir/petsc<ver>/<arch>-<type> and SLEPc under /usr/lib/slepcdir/slepc<ver>/...;
# PETSC_<TYPE>_DIR / SLEPC_<TYPE>_DIR override. Components: real, complex. Defines the
# imported targets PETSc::<type> and, where SLEPc of that type exists, SLEPc::<type>.
include(FindPackageHandleStandardArgs)
find_package(MPI QUIET COMPONENTS C)
foreach(type IN ITEMS real complex)
  string(TOUPPER ${type} TYPE)
  file(GLOB _petsc_dirs /usr/lib/petscdir/petsc*/*-${type})
  file(GLOB _slepc_dirs /usr/lib/slepcdir/slepc*/*-${type})
  find_path(PETSC_${TYPE}_DIR include/petsc.h HINTS ${_petsc_dirs} NO_DEFAULT_PATH)
  find_path(SLEPC_${TYPE}_DIR include/slepc.h HINTS ${_slepc_dirs} NO_DEFAULT_PATH)
  find_library(PETSC_${TYPE}_LIBRARY petsc_${type} HINTS ${PETSC_${TYPE}_DIR}/lib NO_DEFAULT_PATH)
  find_library(SLEPC_${TYPE}_LIBRARY slepc_${type} HINTS ${SLEPC_${TYPE}_DIR}/lib NO_DEFAULT_PATH)
  if(PETSC_${TYPE}_DIR AND PETSC_${TYPE}_LIBRARY AND NOT TARGET PETSc::${type})
    set(PETSc_${type}_FOUND TRUE)
    add_library(PETSc::${type} UNKNOWN IMPORTED)
    set_target_properties(PETSc::${type} PROPERTIES
      IMPORTED_LOCATION ${PETSC_${TYPE}_LIBRARY}
      INTERFACE_INCLUDE_DIRECTORIES ${PETSC_${TYPE}_DIR}/include
      INTERFACE_LINK_LIBRARIES MPI::MPI_C)
    if(SLEPC_${TYPE}_DIR AND SLEPC_${TYPE}_LIBRARY)
      add_library(SLEPc::${type} UNKNOWN IMPORTED)
      set_target_properties(SLEPc::${type} PROPERTIES
        IMPORTED_LOCATION ${SLEPC_${TYPE}_LIBRARY}
        INTERFACE_INCLUDE_DIRECTORIES ${SLEPC_${TYPE}_DIR}/include
        INTERFACE_LINK_LIBRARIES PETSc::${type})
    endif()
  endif()
endforeach()
find_package_handle_standard_args(PETSc HANDLE_COMPONENTS REQUIRED_VARS MPI_C_FOUND)
