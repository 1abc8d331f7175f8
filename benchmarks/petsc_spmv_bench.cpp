// petsc_spmv_bench: PETSc's sparse products on the matrices of sparse_bench, reported
// with the same roofline model (sparse_bench_common.hpp): MatMatMult of an MPIAIJ
// matrix by a dense block of nb columns, and nb MatMult calls (one vector at a time).
// Built against a real PETSc (3D Laplacian 100³) or a complex one (TI 64³).
//
// Usage: petsc_spmv_bench_{real,complex} [--lap N] [--ti N|X,Y,Z] [--widths ...] [--seconds S]
#include <mpi.h>
#include <petscmat.h>

#include <complex>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "petsc_matrix.hpp"
#include "sparse_bench_common.hpp"
#include "tseig/sparse/generators.hpp"

namespace {

using namespace tseig::sparse;
using namespace tseig::bench;

void check(PetscErrorCode code, const char* what) {
  petsc_check(code, what);
}

template <class T>
void measure(const Matrix<T>& a, const char* name, const SparseBenchOptions& o,
             const MachineRates& rates) {
  MPI_Comm comm = a.comm();
  Mat m = to_petsc(a);
  const PetscInt rows = a.local_rows(), n = static_cast<PetscInt>(a.rows());
  Vec x, y;
  check(MatCreateVecs(m, &x, &y), "MatCreateVecs");
  check(VecSetRandom(x, nullptr), "VecSetRandom");
  for (int nb : o.widths) {
    const double t_mult = best_time(comm, o.seconds, [&] {
      for (int k = 0; k < nb; ++k) check(MatMult(m, x, y), "MatMult");
    });
    report_sparse(comm, shape_of(a), name, "petsc_matmult", "aij", nb, t_mult, spmmv_traffic,
                  rates);
    Mat xb, yb = nullptr;
    check(MatCreateDense(comm, rows, PETSC_DECIDE, n, nb, nullptr, &xb), "MatCreateDense");
    check(MatSetRandom(xb, nullptr), "MatSetRandom");
    check(MatMatMult(m, xb, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &yb), "MatMatMult");
    const double t_block = best_time(comm, o.seconds, [&] {
      check(MatMatMult(m, xb, MAT_REUSE_MATRIX, PETSC_DEFAULT, &yb), "MatMatMult");
    });
    report_sparse(comm, shape_of(a), name, "petsc_matmatmult", "aij", nb, t_block, spmmv_traffic,
                  rates);
    MatDestroy(&xb);
    MatDestroy(&yb);
  }
  VecDestroy(&x);
  VecDestroy(&y);
  MatDestroy(&m);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  try {
    const SparseBenchOptions o = parse_sparse_bench_options(argc, argv);
    int petsc_argc = 1;
    check(PetscInitialize(&petsc_argc, &argv, nullptr, nullptr), "PetscInitialize");
    const MachineRates rates = measure_machine(MPI_COMM_WORLD, o);
#if defined(PETSC_USE_COMPLEX)
    TopologicalInsulator model;
    model.nx = o.ti[0];
    model.ny = o.ti[1];
    model.nz = o.ti[2];
    measure(topological_insulator<std::complex<double>>(MPI_COMM_WORLD, model),
            "topological_insulator", o, rates);
#else
    measure(laplacian_3d<double>(MPI_COMM_WORLD, o.lap, o.lap, o.lap), "laplacian_3d", o, rates);
#endif
    PetscFinalize();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "petsc_spmv_bench: %s\n", e.what());
    status = 1;
  }
  MPI_Finalize();
  return status;
}
