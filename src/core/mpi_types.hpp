#pragma once
// MPI datatypes of the four scalar types (and int).
#include <mpi.h>

#include <complex>

namespace tseig {

template <class T>
MPI_Datatype mpi_type();
template <>
inline MPI_Datatype mpi_type<float>() {
  return MPI_FLOAT;
}
template <>
inline MPI_Datatype mpi_type<double>() {
  return MPI_DOUBLE;
}
template <>
inline MPI_Datatype mpi_type<std::complex<float>>() {
  return MPI_C_FLOAT_COMPLEX;
}
template <>
inline MPI_Datatype mpi_type<std::complex<double>>() {
  return MPI_C_DOUBLE_COMPLEX;
}
template <>
inline MPI_Datatype mpi_type<int>() {
  return MPI_INT;
}

}  // namespace tseig
