! Fortran interface test: standard and generalized problems in real/complex, single/double
! precision through the generic type-bound procedures (nev < N, a reused factor), error
! codes through the optional error argument, arrays too small for the layout, SCF-mode
! autotuning, a grid given as a BLACS context, and the ScaLAPACK drop-ins called from Fortran. Exit status 0 iff all checks pass.
program test_fortran_api
  use, intrinsic :: iso_c_binding
  use mpi
  use tseig
  use tseig_test_util
  implicit none
  integer, parameter :: dp = kind(1d0)
  integer :: ierr, status

  call mpi_init(ierr)
  call init_grid()

  call test_d()
  call test_f()
  call test_z()
  call test_c()
  call test_errors()
  call test_validate()
  call test_faults()
  call test_array_sizes()
  call test_autotune()
  call test_blacs_and_dropins()
  status = report("test_fortran_api")
  call mpi_finalize(ierr)
  if (status /= 0) error stop 1

contains

  !> A handle on the row-major grid of tseig_test_util, ELPA style.
  subroutine make_handle(e)
    type(tseig_t), intent(inout) :: e
    integer :: error
    call e%create(error)
    call check(error == TSEIG_OK, "create")
    call e%set("na", n, error)
    call e%set("nev", nev, error)
    call e%set("nblk", nblk, error)
    call e%set("local_nrows", nrows, error)
    call e%set("local_ncols", ncols, error)
    call e%set("mpi_comm_parent", MPI_COMM_WORLD, error)
    call e%set("process_row", myrow, error)
    call e%set("process_col", mycol, error)
    call check(error == TSEIG_OK, "set")
    call e%setup(error)
    call check(error == TSEIG_OK, "setup: "//e%last_error_message())
  end subroutine

  subroutine test_d()
    type(tseig_t) :: e
    real(c_double), allocatable :: a(:, :), b(:, :), c(:, :), q(:, :)
    real(c_double) :: ev(n)
    complex(dp), allocatable :: m(:, :)
    integer :: error
    logical, parameter :: cplx = .false.
    real(dp), parameter :: eps = epsilon(1d0)
    call make_handle(e)
    m = local_matrix(h_entry, cplx, 0d0)
    a = real(m, c_double)
    q = a
    call e%eigenvectors(a, ev, q, error)
    call check(error == TSEIG_OK, "eigenvectors d: "//e%last_error_message())
    call check_solution("eigenvectors d", cplx, .false., 0d0, real(ev, dp), eps, &
                        cmplx(q, kind=dp))
    a = real(m, c_double)
    call e%eigenvalues(a, ev, error)
    call check(error == TSEIG_OK, "eigenvalues d")
    call check_solution("eigenvalues d", cplx, .false., 0d0, real(ev, dp), eps)

    ! The solve on the caller's grid gives the same answer as the automatic working grid.
    call e%set("grid_choice", "as_given", error)
    call check(error == TSEIG_OK, "grid_choice as_given")
    a = real(m, c_double)
    call e%eigenvectors(a, ev, q, error)
    call check(error == TSEIG_OK, "eigenvectors d, as_given: "//e%last_error_message())
    call check_solution("eigenvectors d, as_given", cplx, .false., 0d0, real(ev, dp), eps, &
                        cmplx(q, kind=dp))
    call e%set("grid_choice", "square", error)
    call check(error == TSEIG_ERROR_INVALID_ARGUMENT, "grid_choice square")

    call e%set("solver", "one_stage", error)
    a = real(m, c_double)
    m = local_matrix(s_entry, cplx, 0d0)
    b = real(m, c_double)
    call e%generalized_eigenvectors(a, b, ev, q, .false., error)
    call check(error == TSEIG_OK, "generalized d: "//e%last_error_message())
    call check_solution("generalized d", cplx, .true., 0d0, real(ev, dp), eps, cmplx(q, kind=dp))
    ! SCF step: new H, same S, kept factor.
    m = local_matrix(h_entry, cplx, 1d0)
    a = real(m, c_double)
    call e%generalized_eigenvectors(a, b, ev, q, .true., error)
    call check(error == TSEIG_OK, "generalized d, reused factor: "//e%last_error_message())
    call check_solution("generalized reuse d", cplx, .true., 1d0, real(ev, dp), eps, &
                        cmplx(q, kind=dp))
    a = real(m, c_double)
    call e%generalized_eigenvalues(a, b, ev, .true., error)
    call check(error == TSEIG_OK, "generalized values d")
    call check_solution("generalized values d", cplx, .true., 1d0, real(ev, dp), eps)
    ! ELPA's utilities: S = U^H U (cholesky), U^-1 (invert_triangular), then
    ! hermitian_multiply of the upper triangular U^-1 with S gives U^-H S = U.
    call e%cholesky(b, error)
    call check(error == TSEIG_OK, "cholesky d")
    a = b
    call e%invert_triangular(a, error)
    call check(error == TSEIG_OK, "invert_triangular d")
    m = local_matrix(s_entry, cplx, 0d0)
    q = real(m, c_double)
    c = b
    call e%hermitian_multiply("U", "F", n, a, q, nrows, ncols, c, nrows, ncols, error)
    call check(error == TSEIG_OK, "hermitian_multiply d: "//e%last_error_message())
    call check(maxval(abs(c - b)) <= 100*sqrt(real(n, dp))*eps*n, &
               "hermitian_multiply d: U^-H S /= U")
    call e%destroy(error)
    call check(error == TSEIG_OK, "destroy")
  end subroutine

  subroutine test_f()
    type(tseig_t) :: e
    real(c_float), allocatable :: a(:, :), b(:, :), c(:, :), q(:, :)
    real(c_float) :: ev(n)
    complex(dp), allocatable :: m(:, :)
    integer :: error
    logical, parameter :: cplx = .false.
    real(dp), parameter :: eps = real(epsilon(1.0), dp)
    call make_handle(e)
    m = local_matrix(h_entry, cplx, 0d0)
    a = real(m, c_float)
    q = a
    call e%eigenvectors(a, ev, q, error)
    call check(error == TSEIG_OK, "eigenvectors f: "//e%last_error_message())
    call check_solution("eigenvectors f", cplx, .false., 0d0, real(ev, dp), eps, &
                        cmplx(q, kind=dp))
    a = real(m, c_float)
    call e%eigenvalues(a, ev, error)
    call check(error == TSEIG_OK, "eigenvalues f")
    call check_solution("eigenvalues f", cplx, .false., 0d0, real(ev, dp), eps)

    call e%set("solver", "one_stage", error)
    a = real(m, c_float)
    m = local_matrix(s_entry, cplx, 0d0)
    b = real(m, c_float)
    call e%generalized_eigenvectors(a, b, ev, q, .false., error)
    call check(error == TSEIG_OK, "generalized f: "//e%last_error_message())
    call check_solution("generalized f", cplx, .true., 0d0, real(ev, dp), eps, cmplx(q, kind=dp))
    ! SCF step: new H, same S, kept factor.
    m = local_matrix(h_entry, cplx, 1d0)
    a = real(m, c_float)
    call e%generalized_eigenvectors(a, b, ev, q, .true., error)
    call check(error == TSEIG_OK, "generalized f, reused factor: "//e%last_error_message())
    call check_solution("generalized reuse f", cplx, .true., 1d0, real(ev, dp), eps, &
                        cmplx(q, kind=dp))
    a = real(m, c_float)
    call e%generalized_eigenvalues(a, b, ev, .true., error)
    call check(error == TSEIG_OK, "generalized values f")
    call check_solution("generalized values f", cplx, .true., 1d0, real(ev, dp), eps)
    ! ELPA's utilities: S = U^H U (cholesky), U^-1 (invert_triangular), then
    ! hermitian_multiply of the upper triangular U^-1 with S gives U^-H S = U.
    call e%cholesky(b, error)
    call check(error == TSEIG_OK, "cholesky f")
    a = b
    call e%invert_triangular(a, error)
    call check(error == TSEIG_OK, "invert_triangular f")
    m = local_matrix(s_entry, cplx, 0d0)
    q = real(m, c_float)
    c = b
    call e%hermitian_multiply("U", "F", n, a, q, nrows, ncols, c, nrows, ncols, error)
    call check(error == TSEIG_OK, "hermitian_multiply f: "//e%last_error_message())
    call check(maxval(abs(c - b)) <= 100*sqrt(real(n, dp))*eps*n, &
               "hermitian_multiply f: U^-H S /= U")
    call e%destroy(error)
    call check(error == TSEIG_OK, "destroy")
  end subroutine

  subroutine test_z()
    type(tseig_t) :: e
    complex(c_double_complex), allocatable :: a(:, :), b(:, :), c(:, :), q(:, :)
    real(c_double) :: ev(n)
    complex(dp), allocatable :: m(:, :)
    integer :: error
    logical, parameter :: cplx = .true.
    real(dp), parameter :: eps = epsilon(1d0)
    call make_handle(e)
    m = local_matrix(h_entry, cplx, 0d0)
    a = cmplx(m, kind=c_double_complex)
    q = a
    call e%eigenvectors(a, ev, q, error)
    call check(error == TSEIG_OK, "eigenvectors z: "//e%last_error_message())
    call check_solution("eigenvectors z", cplx, .false., 0d0, real(ev, dp), eps, &
                        cmplx(q, kind=dp))
    a = cmplx(m, kind=c_double_complex)
    call e%eigenvalues(a, ev, error)
    call check(error == TSEIG_OK, "eigenvalues z")
    call check_solution("eigenvalues z", cplx, .false., 0d0, real(ev, dp), eps)

    call e%set("solver", "one_stage", error)
    a = cmplx(m, kind=c_double_complex)
    m = local_matrix(s_entry, cplx, 0d0)
    b = cmplx(m, kind=c_double_complex)
    call e%generalized_eigenvectors(a, b, ev, q, .false., error)
    call check(error == TSEIG_OK, "generalized z: "//e%last_error_message())
    call check_solution("generalized z", cplx, .true., 0d0, real(ev, dp), eps, cmplx(q, kind=dp))
    ! SCF step: new H, same S, kept factor.
    m = local_matrix(h_entry, cplx, 1d0)
    a = cmplx(m, kind=c_double_complex)
    call e%generalized_eigenvectors(a, b, ev, q, .true., error)
    call check(error == TSEIG_OK, "generalized z, reused factor: "//e%last_error_message())
    call check_solution("generalized reuse z", cplx, .true., 1d0, real(ev, dp), eps, &
                        cmplx(q, kind=dp))
    a = cmplx(m, kind=c_double_complex)
    call e%generalized_eigenvalues(a, b, ev, .true., error)
    call check(error == TSEIG_OK, "generalized values z")
    call check_solution("generalized values z", cplx, .true., 1d0, real(ev, dp), eps)
    ! ELPA's utilities: S = U^H U (cholesky), U^-1 (invert_triangular), then
    ! hermitian_multiply of the upper triangular U^-1 with S gives U^-H S = U.
    call e%cholesky(b, error)
    call check(error == TSEIG_OK, "cholesky z")
    a = b
    call e%invert_triangular(a, error)
    call check(error == TSEIG_OK, "invert_triangular z")
    m = local_matrix(s_entry, cplx, 0d0)
    q = cmplx(m, kind=c_double_complex)
    c = b
    call e%hermitian_multiply("U", "F", n, a, q, nrows, ncols, c, nrows, ncols, error)
    call check(error == TSEIG_OK, "hermitian_multiply z: "//e%last_error_message())
    call check(maxval(abs(c - b)) <= 100*sqrt(real(n, dp))*eps*n, &
               "hermitian_multiply z: U^-H S /= U")
    call e%destroy(error)
    call check(error == TSEIG_OK, "destroy")
  end subroutine

  subroutine test_c()
    type(tseig_t) :: e
    complex(c_float_complex), allocatable :: a(:, :), b(:, :), c(:, :), q(:, :)
    real(c_float) :: ev(n)
    complex(dp), allocatable :: m(:, :)
    integer :: error
    logical, parameter :: cplx = .true.
    real(dp), parameter :: eps = real(epsilon(1.0), dp)
    call make_handle(e)
    m = local_matrix(h_entry, cplx, 0d0)
    a = cmplx(m, kind=c_float_complex)
    q = a
    call e%eigenvectors(a, ev, q, error)
    call check(error == TSEIG_OK, "eigenvectors c: "//e%last_error_message())
    call check_solution("eigenvectors c", cplx, .false., 0d0, real(ev, dp), eps, &
                        cmplx(q, kind=dp))
    a = cmplx(m, kind=c_float_complex)
    call e%eigenvalues(a, ev, error)
    call check(error == TSEIG_OK, "eigenvalues c")
    call check_solution("eigenvalues c", cplx, .false., 0d0, real(ev, dp), eps)

    call e%set("solver", "one_stage", error)
    a = cmplx(m, kind=c_float_complex)
    m = local_matrix(s_entry, cplx, 0d0)
    b = cmplx(m, kind=c_float_complex)
    call e%generalized_eigenvectors(a, b, ev, q, .false., error)
    call check(error == TSEIG_OK, "generalized c: "//e%last_error_message())
    call check_solution("generalized c", cplx, .true., 0d0, real(ev, dp), eps, cmplx(q, kind=dp))
    ! SCF step: new H, same S, kept factor.
    m = local_matrix(h_entry, cplx, 1d0)
    a = cmplx(m, kind=c_float_complex)
    call e%generalized_eigenvectors(a, b, ev, q, .true., error)
    call check(error == TSEIG_OK, "generalized c, reused factor: "//e%last_error_message())
    call check_solution("generalized reuse c", cplx, .true., 1d0, real(ev, dp), eps, &
                        cmplx(q, kind=dp))
    a = cmplx(m, kind=c_float_complex)
    call e%generalized_eigenvalues(a, b, ev, .true., error)
    call check(error == TSEIG_OK, "generalized values c")
    call check_solution("generalized values c", cplx, .true., 1d0, real(ev, dp), eps)
    ! ELPA's utilities: S = U^H U (cholesky), U^-1 (invert_triangular), then
    ! hermitian_multiply of the upper triangular U^-1 with S gives U^-H S = U.
    call e%cholesky(b, error)
    call check(error == TSEIG_OK, "cholesky c")
    a = b
    call e%invert_triangular(a, error)
    call check(error == TSEIG_OK, "invert_triangular c")
    m = local_matrix(s_entry, cplx, 0d0)
    q = cmplx(m, kind=c_float_complex)
    c = b
    call e%hermitian_multiply("U", "F", n, a, q, nrows, ncols, c, nrows, ncols, error)
    call check(error == TSEIG_OK, "hermitian_multiply c: "//e%last_error_message())
    call check(maxval(abs(c - b)) <= 100*sqrt(real(n, dp))*eps*n, &
               "hermitian_multiply c: U^-H S /= U")
    call e%destroy(error)
    call check(error == TSEIG_OK, "destroy")
  end subroutine

  subroutine test_errors()
    type(tseig_t) :: e
    real(c_double), allocatable :: a(:, :), b(:, :), q(:, :)
    real(c_double) :: ev(n)
    character(len=16) :: solver
    integer :: error, value
    call e%create(error)
    call e%set("no_such_parameter", 1, error)
    call check(error == TSEIG_ERROR_UNKNOWN_PARAMETER, "unknown parameter")
    call check(len(e%last_error_message()) > 0, "unknown parameter: message")
    call e%set("solver", 1, error)
    call check(error == TSEIG_ERROR_WRONG_TYPE, "int for a string parameter")
    call e%set("nblk", "4", error)
    call check(error == TSEIG_ERROR_WRONG_TYPE, "string for an int parameter")
    call e%get("process_row", value, error)
    call check(error == TSEIG_ERROR_PARAMETER_NOT_SET, "get of an unset parameter")
    call e%get("solver", solver, error)
    call check(error == TSEIG_OK .and. solver == "auto", "default solver")
    call e%set("solver", "no_such_solver", error)
    call check(error == TSEIG_ERROR_INVALID_ARGUMENT, "unknown solver")
    call e%set("gpu", 3, error)
    call check(error == TSEIG_ERROR_INVALID_ARGUMENT, "gpu = 3")
    call e%set("gpu", 1, error)
    call check(error == TSEIG_OK, "gpu = 1")
    call e%set("gpu", 0, error)
    call check(error == TSEIG_OK, "gpu = 0")
    a = real(local_matrix(h_entry, .false., 0d0), c_double)
    q = a
    call e%eigenvectors(a, ev, q, error)
    call check(error == TSEIG_ERROR_SETUP_MISSING, "eigenvectors before setup")
    call check(index(tseig_strerror(TSEIG_ERROR_WRONG_TYPE), "WRONG_TYPE") > 0, "strerror")
    call e%destroy(error)

    call make_handle(e)
    call e%setup(error)
    call check(error == TSEIG_ERROR_ALREADY_SETUP, "setup twice")
    call e%set("nev", n + 1, error)
    call e%eigenvectors(a, ev, q, error)
    call check(error == TSEIG_ERROR_INVALID_ARGUMENT, "nev > na")
    call e%set("nev", nev, error)
    a = real(local_matrix(h_entry, .false., 0d0), c_double)
    b = -real(local_matrix(s_entry, .false., 0d0), c_double)
    call e%generalized_eigenvectors(a, b, ev, q, .false., error)
    call check(error == TSEIG_ERROR_NOT_POSITIVE_DEFINITE, "S not positive definite")
    b = -b
    call e%generalized_eigenvectors(a, b, ev, q, .false., error)
    call check(error == TSEIG_OK, "generalized")
    b = real(local_matrix(s_entry, .false., 1d0), c_double)
    a = real(local_matrix(h_entry, .false., 0d0), c_double)
    call e%generalized_eigenvectors(a, b, ev, q, .true., error)
    call check(error == TSEIG_ERROR_FACTOR_MISMATCH, "reuse of the factor with another S")
    call e%destroy(error)
  end subroutine

  !> validate = 1 through the generic set/get: a correct solve passes with its figures, an
  !> unreachable tolerance gives TSEIG_ERROR_ACCURACY.
  subroutine test_validate()
    type(tseig_t) :: e
    complex(c_double_complex), allocatable :: a(:, :), q(:, :)
    real(c_double) :: ev(n), residual, tolerance
    integer :: error, passed
    call make_handle(e)
    call e%set("validate", 1, error)
    call check(error == TSEIG_OK, "set validate")
    a = local_matrix(h_entry, .true., 0d0)
    q = a
    call e%eigenvectors(a, ev, q, error)
    call check(error == TSEIG_OK, "validated eigenvectors: "//e%last_error_message())
    call e%get("validation_passed", passed, error)
    call e%get("validation_residual", residual, error)
    call e%get("validation_tolerance_used", tolerance, error)
    call check(error == TSEIG_OK .and. passed == 1 .and. residual <= tolerance, &
        "validation figures")
    call e%set("validation_tolerance", 1d-300, error)
    a = local_matrix(h_entry, .true., 0d0)
    call e%eigenvectors(a, ev, q, error)
    call check(error == TSEIG_ERROR_ACCURACY, "unreachable tolerance")
    call e%get("validation_passed", passed, error)
    call check(error == TSEIG_OK .and. passed == 0, "figures after TSEIG_ERROR_ACCURACY")
    call e%destroy(error)
  end subroutine

  !> Faults seen from Fortran: a NaN on one rank, and one rank asking for another nev, give
  !> the same error code on every rank (never a hang); the handle solves normally after.
  subroutine test_faults()
    use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan
    type(tseig_t) :: e
    real(c_double), allocatable :: a(:, :), q(:, :)
    real(c_double) :: ev(n)
    integer :: error
    call make_handle(e)
    a = real(local_matrix(h_entry, .false., 0d0), c_double)
    q = a
    if (myrank == nprocs - 1 .and. nrows > 0 .and. ncols > 0) a(1, 1) = ieee_value(1d0, ieee_quiet_nan)
    call e%eigenvectors(a, ev, q, error)
    call check(same_on_every_rank(error) .and. error == TSEIG_ERROR_NOT_FINITE, &
        "NaN on one rank: "//e%last_error_message())
    if (myrank == nprocs - 1) call e%set("nev", nev - 1, error)
    a = real(local_matrix(h_entry, .false., 0d0), c_double)
    call e%eigenvectors(a, ev, q, error)
    call check(same_on_every_rank(error) .and. (nprocs == 1 .or. &
        error == TSEIG_ERROR_INVALID_ARGUMENT), "nev differs on one rank: "//e%last_error_message())
    call e%set("nev", nev, error)
    a = real(local_matrix(h_entry, .false., 0d0), c_double)
    call e%eigenvectors(a, ev, q, error)
    call check(error == TSEIG_OK, "solve after the faults: "//e%last_error_message())
    call e%destroy(error)
  end subroutine

  !> Arrays smaller than the layout needs (the module sees their sizes; C pointers carry
  !> none): the same error on every rank, naming the array and the rank, before anything
  !> is written; the handle solves normally after.
  subroutine test_array_sizes()
    type(tseig_t) :: e
    real(c_double), allocatable :: a(:, :), b(:, :), q(:, :), q0(:, :)
    real(c_double) :: ev(n)
    integer :: error
    call make_handle(e)
    a = real(local_matrix(h_entry, .false., 0d0), c_double)
    b = real(local_matrix(s_entry, .false., 0d0), c_double)
    q = a
    q0 = q
    if (myrank == 0) then  ! rank 0 holds the first block: it needs all its columns
      call e%eigenvectors(a, ev, q(:, 1:ncols - 1), error)
    else
      call e%eigenvectors(a, ev, q, error)
    end if
    call check(same_on_every_rank(error) .and. error == TSEIG_ERROR_INVALID_ARGUMENT .and. &
        index(e%last_error_message(), "q has") > 0 .and. &
        index(e%last_error_message(), "rank 0") > 0, "q too small: "//e%last_error_message())
    call check(all(q == q0), "q too small: nothing written")
    if (myrank == nprocs - 1) then
      call e%eigenvalues(a, ev(1:n - 1), error)
    else
      call e%eigenvalues(a, ev, error)
    end if
    call check(same_on_every_rank(error) .and. error == TSEIG_ERROR_INVALID_ARGUMENT .and. &
        index(e%last_error_message(), "ev has") > 0, "ev too small: "//e%last_error_message())
    if (myrank == 0) then
      call e%generalized_eigenvectors(a, b(:, 1:ncols - 1), ev, q, .false., error)
    else
      call e%generalized_eigenvectors(a, b, ev, q, .false., error)
    end if
    call check(same_on_every_rank(error) .and. error == TSEIG_ERROR_INVALID_ARGUMENT .and. &
        index(e%last_error_message(), "b has") > 0, "b too small: "//e%last_error_message())
    call e%eigenvectors(a, ev, q, error)
    call check(error == TSEIG_OK, "solve after too small arrays: "//e%last_error_message())
    call check_solution("solve after too small arrays", .false., .false., 0d0, real(ev, dp), &
        epsilon(1d0), cmplx(q, kind=dp))
    call e%destroy(error)
  end subroutine

  logical function same_on_every_rank(code)
    integer, intent(in) :: code
    integer :: lo, hi, ierr
    call mpi_allreduce(code, lo, 1, MPI_INTEGER, MPI_MIN, MPI_COMM_WORLD, ierr)
    call mpi_allreduce(code, hi, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
    same_on_every_rank = lo == hi
  end function

  !> SCF-mode autotuning: every call of the search is a correct solve, the search ends.
  subroutine test_autotune()
    type(tseig_t) :: e
    complex(c_double_complex), allocatable :: a(:, :), q(:, :)
    real(c_double) :: ev(n), first(n)
    integer :: error, calls
    logical :: tuning
    call make_handle(e)
    call e%autotune_setup(error)
    call check(error == TSEIG_OK, "autotune_setup: "//e%last_error_message())
    calls = 0
    do
      call e%autotune_tuning(tuning, error)
      call check(error == TSEIG_OK, "autotune_tuning")
      if (.not. tuning .or. calls > 14) exit
      a = local_matrix(h_entry, .true., 0d0)
      q = a
      call e%eigenvectors(a, ev, q, error)
      call check(error == TSEIG_OK, "eigenvectors while tuning: "//e%last_error_message())
      if (calls == 0) first = ev
      call check(maxval(abs(ev(1:nev) - first(1:nev))) <= 1d-10 * maxval(abs(first(1:nev))), &
          "eigenvalues change while tuning")
      calls = calls + 1
    end do
    call check(calls >= 3 .and. calls <= 12, "autotune search length")
    call e%destroy(error)
  end subroutine

  !> A grid given as a Fortran BLACS context, and the drop-ins with ScaLAPACK descriptors.
  subroutine test_blacs_and_dropins()
    external :: blacs_get, blacs_gridinit, blacs_gridexit, descinit
    type(tseig_t) :: e
    real(c_double), allocatable :: a(:, :), z(:, :)
    complex(c_double_complex), allocatable :: ac(:, :), bc(:, :), zc(:, :)
    real(c_double) :: w(n), work(1)
    complex(c_double_complex) :: cwork(1)
    integer(c_int) :: iwork(1), desc(9), info
    integer :: ctxt, error
    call blacs_get(-1, 0, ctxt)
    call blacs_gridinit(ctxt, "R", nprow, npcol)

    call e%create(error)
    call e%set("na", n, error)
    call e%set("nev", nev, error)
    call e%set("nblk", nblk, error)
    call e%set("local_nrows", nrows, error)
    call e%set("local_ncols", ncols, error)
    call e%set("blacs_context", ctxt, error)
    call e%setup(error)
    call check(error == TSEIG_OK, "setup with a BLACS context: "//e%last_error_message())
    a = real(local_matrix(h_entry, .false., 0d0), c_double)
    z = a
    call e%eigenvectors(a, w, z, error)
    call check(error == TSEIG_OK, "eigenvectors on a BLACS grid")
    call check_solution("BLACS grid", .false., .false., 0d0, real(w, dp), epsilon(1d0), &
                        cmplx(z, kind=dp))
    call e%destroy(error)

    call descinit(desc, n, n, nblk, nblk, 0, 0, ctxt, nrows, info)
    call tseig_pdsyevd("V", "U", n, a, 1, 1, desc, w, z, 1, 1, desc, work, -1, iwork, -1, info)
    call check(info == 0 .and. work(1) == 1 .and. iwork(1) == 1, "tseig_pdsyevd workspace query")
    a = real(local_matrix(h_entry, .false., 0d0), c_double)
    call tseig_pdsyevd("V", "U", n, a, 1, 1, desc, w, z, 1, 1, desc, work, 1, iwork, 1, info)
    call check(info == 0, "tseig_pdsyevd from Fortran")
    call check_solution("tseig_pdsyevd", .false., .false., 0d0, real(w, dp), epsilon(1d0), &
                        cmplx(z, kind=dp))
    call tseig_pdsyevd("V", "U", n, a, 2, 1, desc, w, z, 1, 1, desc, work, 1, iwork, 1, info)
    call check(info == -5, "tseig_pdsyevd with IA = 2: INFO = -5")

    ac = local_matrix(h_entry, .true., 0d0)
    bc = local_matrix(s_entry, .true., 0d0)
    zc = ac
    call tseig_pzhegvd(1, "V", "L", n, ac, 1, 1, desc, bc, 1, 1, desc, w, zc, 1, 1, desc, info)
    call check(info == 0, "tseig_pzhegvd from Fortran")
    call check_solution("tseig_pzhegvd", .true., .true., 0d0, real(w, dp), epsilon(1d0), zc)
    ac = local_matrix(h_entry, .true., 0d0)
    call tseig_pzheevd("N", "U", n, ac, 1, 1, desc, w, zc, 1, 1, desc, cwork, 1, work, 1, &
                       iwork, 1, info)
    call check(info == 0, "tseig_pzheevd JOBZ = N from Fortran")
    call check_solution("tseig_pzheevd", .true., .false., 0d0, real(w, dp), epsilon(1d0))
    call blacs_gridexit(ctxt)
  end subroutine

end program test_fortran_api
