#pragma once
// Explicit instantiation for the four scalar types: define a macro X(T) that
// instantiates one type, then write TSEIG_FOR_EACH_SCALAR(X).
#include <complex>

#define TSEIG_FOR_EACH_SCALAR(X) \
  X(float)                       \
  X(double)                      \
  X(std::complex<float>)         \
  X(std::complex<double>)

// The same for the stages that run on real types only (the tridiagonal divide & conquer),
// once per Device: X(D, R).
#define TSEIG_FOR_EACH_DEVICE_AND_REAL(X) \
  X(Device::host, float)                  \
  X(Device::host, double)                 \
  X(Device::cuda, float)                  \
  X(Device::cuda, double)
