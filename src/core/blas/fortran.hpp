#pragma once
// What every Fortran binding in core/blas shares: the complex scalar names and the
// hidden length gfortran passes after the arguments for each character argument.
#include <complex>
#include <cstddef>

// On the binding layer's templates: GCC exports explicit specializations (template <>)
// despite -fvisibility=hidden unless the primary template says otherwise.
#define TSEIG_HIDDEN __attribute__((visibility("hidden")))

namespace tseig::fortran {

using cf = std::complex<float>;
using cd = std::complex<double>;
using flen = std::size_t;

}  // namespace tseig::fortran
