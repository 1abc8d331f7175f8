#pragma once
// Explicit instantiation for the four scalar types: define a macro X(T) that
// instantiates one type, then write TSEIG_FOR_EACH_SCALAR(X).
#include <complex>

#define TSEIG_FOR_EACH_SCALAR(X) \
  X(float)                       \
  X(double)                      \
  X(std::complex<float>)         \
  X(std::complex<double>)
