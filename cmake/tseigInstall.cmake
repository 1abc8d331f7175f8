# Installation: the library, public headers (C++ and the C API tseig.h), the Fortran module
# library and .mod files, a CMake package (find_package(tseig) → tseig::tseig, and
# tseig::tseig_fortran with the Fortran component) and a pkg-config file (tseig.pc).
# Included at the end of the top level.
include(CMakePackageConfigHelpers)

set(TSEIG_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/tseig"
    CACHE STRING "Where tseigConfig.cmake is installed (relative to the prefix)")
get_target_property(_tseig_type tseig TYPE)
if(_tseig_type STREQUAL "STATIC_LIBRARY")
  set(TSEIG_STATIC ON)
else()
  set(TSEIG_STATIC OFF)
endif()

# tseig_gpu's objects are inside libtseig. A static libtseig still needs its link
# dependencies (the CUDA runtime); the exported tseig::tseig_gpu carries them.
set(_tseig_targets tseig)
if(TARGET tseig_gpu AND TSEIG_STATIC)
  list(APPEND _tseig_targets tseig_gpu)
endif()
# The Fortran module library (tseig::tseig_fortran); its .mod files are installed by
# fortran_interface/CMakeLists.txt into include/tseig/fortran.
if(TARGET tseig_fortran)
  list(APPEND _tseig_targets tseig_fortran)
endif()
install(TARGETS ${_tseig_targets}
  EXPORT tseigTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/tseig
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h")
install(FILES ${PROJECT_BINARY_DIR}/include/tseig/version.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tseig)

# CMake package. FindScaLAPACK.cmake goes along for the dependencies of a static build.
install(EXPORT tseigTargets NAMESPACE tseig:: DESTINATION ${TSEIG_INSTALL_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/tseigConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/tseigConfig.cmake
                              INSTALL_DESTINATION ${TSEIG_INSTALL_CMAKEDIR})
# 0.x: a new minor version may change the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/tseigConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/tseigConfig.cmake
              ${PROJECT_BINARY_DIR}/tseigConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/FindScaLAPACK.cmake
        DESTINATION ${TSEIG_INSTALL_CMAKEDIR})

# pkg-config. Paths are relative to the .pc file, so `cmake --install --prefix` anywhere
# gives a working file. MPI flags are listed so that a plain C++ compiler suffices.
function(_tseig_pc_libs out)
  set(flags)
  foreach(lib IN LISTS ARGN)
    if(lib MATCHES "^-" OR IS_ABSOLUTE "${lib}")
      list(APPEND flags "${lib}")
    elseif(lib)
      list(APPEND flags "-l${lib}")
    endif()
  endforeach()
  list(JOIN flags " " flags)
  set(${out} "${flags}" PARENT_SCOPE)
endfunction()

foreach(dir IN ITEMS LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(TSEIG_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(TSEIG_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(TSEIG_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH _tseig_up "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
  string(REGEX REPLACE "/$" "" _tseig_up "${_tseig_up}")
  set(TSEIG_PC_PREFIX "\${pcfiledir}/${_tseig_up}")
endif()

set(_tseig_cflags)
foreach(dir IN LISTS MPI_CXX_INCLUDE_DIRS)  # system headers, as CMake's MPI targets give them:
  list(APPEND _tseig_cflags "-isystem ${dir}")  # their warnings are not the program's
endforeach()
foreach(def IN LISTS MPI_CXX_COMPILE_DEFINITIONS)
  list(APPEND _tseig_cflags "-D${def}")
endforeach()
list(APPEND _tseig_cflags ${MPI_CXX_COMPILE_OPTIONS} ${TSEIG_WORKAROUND_FLAGS})
list(JOIN _tseig_cflags " " TSEIG_PC_CFLAGS)
_tseig_pc_libs(TSEIG_PC_LIBS ${MPI_CXX_LINK_FLAGS} ${MPI_CXX_LIBRARIES})
set(_tseig_private ${ScaLAPACK_LIBRARY} ${LAPACK_LIBRARIES} ${BLAS_LIBRARIES} ${MPI_C_LIBRARIES})
if(TARGET tseig_gpu)
  # cuBLAS and cuSOLVER are loaded at run time (src/device/cuda/libraries.hpp).
  list(APPEND _tseig_private ${CUDA_cudart_static_LIBRARY} ${CUDAToolkit_rt_LIBRARY}
       ${CMAKE_DL_LIBS} -pthread)
endif()
list(REMOVE_DUPLICATES _tseig_private)
list(REMOVE_ITEM _tseig_private ${MPI_CXX_LIBRARIES})  # in Libs already
_tseig_pc_libs(TSEIG_PC_LIBS_PRIVATE ${_tseig_private})
configure_file(${PROJECT_SOURCE_DIR}/cmake/tseig.pc.in ${PROJECT_BINARY_DIR}/tseig.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/tseig.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
