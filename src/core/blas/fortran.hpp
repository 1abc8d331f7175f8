#pragma once
// What every Fortran binding in core/blas shares: the complex scalar names and the
// hidden length gfortran passes after the arguments for each character argument.
#include <complex>
#include <cstddef>

namespace tseig::fortran {

using cf = std::complex<float>;
using cd = std::complex<double>;
using flen = std::size_t;

}  // namespace tseig::fortran
