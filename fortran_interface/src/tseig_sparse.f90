! Fortran 2008 interface of tseig's sparse layer (iso_c_binding over tseig/tseig_sparse.h):
!
!   use tseig_sparse
!   type(tseig_sparse_t) :: a
!   call a%create_csr(MPI_COMM_WORLD, n, ia, ja, values, error)  ! this rank's rows, 1-based
!   call a%kpm_count(512, 32, lower, upper, count, count_error, error)
!   call a%lobpcg(nev, tol, found, w, residuals, error)
!   call a%chebfd(lower, upper, tol, found, w, residuals, error)
!   call a%set("block_width", 4, error)   ! also chebfd_degree, chebfd_max_degree, chebfd_subspace,
!                                         ! chebfd_pipeline_blocks
!   call a%use_tuning(TSEIG_KERNEL_SPMMV, "tseig-tune.json", found, error)  ! cached tuning
!   call a%autotune(TSEIG_KERNEL_SPMMV, 16, "tseig-tune.json", error)   ! measure, store, use
!   call a%destroy(error)
!   if (error /= 0) print *, tseig_sparse_error_message()   ! what the last failure was
!
! ia(local_rows + 1) and ja are 1-based CSR arrays (global column indices) as in Fortran
! codes; values real(c_double) or complex(c_double_complex). All calls are collective
! and return the same code on every rank; without `error` a failure stops the program.
module tseig_sparse
  use, intrinsic :: iso_c_binding
  use, intrinsic :: iso_fortran_env, only: error_unit
  use tseig_c_binding, only: c_string, f_string
  implicit none
  private

  public :: tseig_sparse_error_message

  integer, parameter, public :: TSEIG_ERROR_NOT_CONVERGED = 12
  ! The solver a tuning is for, by its kernel (tseig_sparse_autotune): LOBPCG, KPM, ChebFD.
  integer, parameter, public :: TSEIG_KERNEL_SPMMV = 0, TSEIG_KERNEL_AUG_SPMMV = 1, &
    TSEIG_KERNEL_CHEBFD_OP = 2

  type, public :: tseig_sparse_t
    type(c_ptr) :: handle = c_null_ptr
  contains
    procedure, private :: create_csr_d, create_csr_z
    generic :: create_csr => create_csr_d, create_csr_z
    procedure :: destroy => sparse_destroy
    procedure :: kpm_count => sparse_kpm_count
    procedure :: lobpcg => sparse_lobpcg
    procedure :: chebfd => sparse_chebfd
    procedure :: set => sparse_set_int
    procedure :: autotune => sparse_autotune
    procedure :: use_tuning => sparse_use_tuning
  end type

  interface
    integer(c_int) function c_from_csr_d(comm, n, rows, ptr, cols, values, a) &
        bind(C, name="tseig_sparse_from_csr_d_f")
      import :: c_int, c_int64_t, c_double, c_ptr
      integer(c_int), value :: comm, rows
      integer(c_int64_t), value :: n
      integer(c_int64_t), intent(in) :: ptr(*), cols(*)
      real(c_double), intent(in) :: values(*)
      type(c_ptr), intent(out) :: a
    end function
    integer(c_int) function c_from_csr_z(comm, n, rows, ptr, cols, values, a) &
        bind(C, name="tseig_sparse_from_csr_z_f")
      import :: c_int, c_int64_t, c_double_complex, c_ptr
      integer(c_int), value :: comm, rows
      integer(c_int64_t), value :: n
      integer(c_int64_t), intent(in) :: ptr(*), cols(*)
      complex(c_double_complex), intent(in) :: values(*)
      type(c_ptr), intent(out) :: a
    end function
    integer(c_int) function c_destroy(a) bind(C, name="tseig_sparse_destroy")
      import :: c_int, c_ptr
      type(c_ptr), value :: a
    end function
    integer(c_int) function c_kpm(a, moments, vectors, lower, upper, count, error, points, &
        energy, density) bind(C, name="tseig_sparse_kpm")
      import :: c_int, c_double, c_ptr
      type(c_ptr), value :: a, energy, density
      integer(c_int), value :: moments, vectors, points
      real(c_double), value :: lower, upper
      real(c_double), intent(out) :: count, error
    end function
    integer(c_int) function c_lobpcg(a, nev, tol, max_iterations, largest, capacity, found, &
        values, vectors, ldv, residuals, iterations) bind(C, name="tseig_sparse_lobpcg")
      import :: c_int, c_double, c_ptr
      type(c_ptr), value :: a, vectors, iterations
      integer(c_int), value :: nev, max_iterations, largest, capacity, ldv
      real(c_double), value :: tol
      integer(c_int), intent(out) :: found
      real(c_double), intent(out) :: values(*), residuals(*)
    end function
    integer(c_int) function c_chebfd(a, lower, upper, tol, capacity, found, values, vectors, &
        ldv, residuals, iterations) bind(C, name="tseig_sparse_chebfd")
      import :: c_int, c_double, c_ptr
      type(c_ptr), value :: a, vectors, iterations
      real(c_double), value :: lower, upper, tol
      integer(c_int), value :: capacity, ldv
      integer(c_int), intent(out) :: found
      real(c_double), intent(out) :: values(*), residuals(*)
    end function
    integer(c_int) function c_set_int(a, name, value) bind(C, name="tseig_sparse_set_int")
      import :: c_ptr, c_char, c_int
      type(c_ptr), value :: a
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), value :: value
    end function
    integer(c_int) function c_autotune(a, kernel, block_width, file) &
        bind(C, name="tseig_sparse_autotune")
      import :: c_ptr, c_char, c_int
      type(c_ptr), value :: a
      integer(c_int), value :: kernel, block_width
      character(kind=c_char), intent(in) :: file(*)
    end function
    integer(c_int) function c_use_tuning(a, kernel, file, found) &
        bind(C, name="tseig_sparse_use_tuning")
      import :: c_ptr, c_char, c_int
      type(c_ptr), value :: a
      integer(c_int), value :: kernel
      character(kind=c_char), intent(in) :: file(*)
      integer(c_int), intent(out) :: found
    end function
    type(c_ptr) function c_error_message() bind(C, name="tseig_sparse_error_message")
      import :: c_ptr
    end function
  end interface

contains

  !> Text of the calling thread's last failed sparse call (tseig_sparse.h), for callers
  !> that take the code through `error`.
  function tseig_sparse_error_message() result(text)
    character(len=:), allocatable :: text
    text = f_string(c_error_message())
  end function

  ! Hands the code to the caller, or (no error argument) stops with the message.
  subroutine finish(code, what, error)
    integer(c_int), intent(in) :: code
    character(len=*), intent(in) :: what
    integer, intent(out), optional :: error
    if (present(error)) then
      error = int(code)
    else if (code /= 0) then
      write (error_unit, '(3a,i0,2a)') "tseig_sparse: ", what, " failed with code ", code, &
        ": ", f_string(c_error_message())
      error stop 1
    end if
  end subroutine

  ! 1-based Fortran CSR → 0-based 64-bit arrays of the C API.
  subroutine zero_based(ia, ja, ptr, cols)
    integer, intent(in) :: ia(:), ja(:)
    integer(c_int64_t), allocatable, intent(out) :: ptr(:), cols(:)
    ptr = int(ia, c_int64_t) - 1
    cols = int(ja, c_int64_t) - 1
  end subroutine

  !> This rank's size(ia) - 1 consecutive rows of the n × n matrix, 1-based CSR.
  subroutine create_csr_d(self, comm, n, ia, ja, values, error)
    class(tseig_sparse_t), intent(inout) :: self
    integer, intent(in) :: comm, n, ia(:), ja(:)
    real(c_double), intent(in) :: values(:)
    integer, intent(out), optional :: error
    integer(c_int64_t), allocatable :: ptr(:), cols(:)
    call zero_based(ia, ja, ptr, cols)
    call finish(c_from_csr_d(int(comm, c_int), int(n, c_int64_t), int(size(ia) - 1, c_int), &
        ptr, [cols, 0_c_int64_t], [values, 0.0_c_double], self%handle), "create_csr", error)
  end subroutine

  subroutine create_csr_z(self, comm, n, ia, ja, values, error)
    class(tseig_sparse_t), intent(inout) :: self
    integer, intent(in) :: comm, n, ia(:), ja(:)
    complex(c_double_complex), intent(in) :: values(:)
    integer, intent(out), optional :: error
    integer(c_int64_t), allocatable :: ptr(:), cols(:)
    call zero_based(ia, ja, ptr, cols)
    call finish(c_from_csr_z(int(comm, c_int), int(n, c_int64_t), int(size(ia) - 1, c_int), &
        ptr, [cols, 0_c_int64_t], [values, (0.0_c_double, 0.0_c_double)], self%handle), &
        "create_csr", error)
  end subroutine

  subroutine sparse_destroy(self, error)
    class(tseig_sparse_t), intent(inout) :: self
    integer, intent(out), optional :: error
    call finish(c_destroy(self%handle), "destroy", error)
    self%handle = c_null_ptr
  end subroutine

  !> KPM estimate of the number of eigenvalues in [lower, upper] and its standard error.
  subroutine sparse_kpm_count(self, moments, vectors, lower, upper, count, count_error, error)
    class(tseig_sparse_t), intent(inout) :: self
    integer, intent(in) :: moments, vectors
    real(c_double), intent(in) :: lower, upper
    real(c_double), intent(out) :: count, count_error
    integer, intent(out), optional :: error
    call finish(c_kpm(self%handle, int(moments, c_int), int(vectors, c_int), lower, upper, &
        count, count_error, 0_c_int, c_null_ptr, c_null_ptr), "kpm_count", error)
  end subroutine

  !> The nev smallest eigenvalues by LOBPCG (a level cut at nev comes back whole: up to
  !> size(values) pairs, found of them valid). Eigenvectors stay inside (C API for them).
  subroutine sparse_lobpcg(self, nev, tol, found, values, residuals, error)
    class(tseig_sparse_t), intent(inout) :: self
    integer, intent(in) :: nev
    real(c_double), intent(in) :: tol
    integer, intent(out) :: found
    real(c_double), intent(out) :: values(:), residuals(:)
    integer, intent(out), optional :: error
    integer(c_int) :: k
    call finish(c_lobpcg(self%handle, int(nev, c_int), tol, 0_c_int, 0_c_int, &
        int(min(size(values), size(residuals)), c_int), k, values, c_null_ptr, 1_c_int, &
        residuals, c_null_ptr), "lobpcg", error)
    found = int(k)
  end subroutine

  !> Every eigenvalue in [lower, upper] by Chebyshev filter diagonalization.
  subroutine sparse_chebfd(self, lower, upper, tol, found, values, residuals, error)
    class(tseig_sparse_t), intent(inout) :: self
    real(c_double), intent(in) :: lower, upper, tol
    integer, intent(out) :: found
    real(c_double), intent(out) :: values(:), residuals(:)
    integer, intent(out), optional :: error
    integer(c_int) :: k
    call finish(c_chebfd(self%handle, lower, upper, tol, &
        int(min(size(values), size(residuals)), c_int), k, values, c_null_ptr, 1_c_int, &
        residuals, c_null_ptr), "chebfd", error)
    found = int(k)
  end subroutine

  !> A setting for later lobpcg/chebfd calls (tseig_sparse_set_int): "block_width",
  !> "chebfd_degree", "chebfd_max_degree", "chebfd_subspace"; every rank must set the same.
  subroutine sparse_set_int(self, name, value, error)
    class(tseig_sparse_t), intent(inout) :: self
    character(len=*), intent(in) :: name
    integer, intent(in) :: value
    integer, intent(out), optional :: error
    call finish(c_set_int(self%handle, c_string(name), int(value, c_int)), &
        "set "//name, error)
  end subroutine

  !> Times the storage formats with `kernel` (TSEIG_KERNEL_*) on blocks of block_width
  !> columns and the Rayleigh-Ritz threshold, stores them in tune_file ("" :
  !> $TSEIG_TUNE_FILE) and uses them for this matrix (tseig_sparse_autotune).
  subroutine sparse_autotune(self, kernel, block_width, tune_file, error)
    class(tseig_sparse_t), intent(inout) :: self
    integer, intent(in) :: kernel, block_width
    character(len=*), intent(in) :: tune_file
    integer, intent(out), optional :: error
    call finish(c_autotune(self%handle, int(kernel, c_int), int(block_width, c_int), &
        c_string(tune_file)), "autotune", error)
  end subroutine

  !> Uses the tuning cache's measurement for `kernel` (TSEIG_KERNEL_*) on a matrix like
  !> this one, if tune_file ("" : $TSEIG_TUNE_FILE) has one (found = .true.).
  subroutine sparse_use_tuning(self, kernel, tune_file, found, error)
    class(tseig_sparse_t), intent(inout) :: self
    integer, intent(in) :: kernel
    character(len=*), intent(in) :: tune_file
    logical, intent(out) :: found
    integer, intent(out), optional :: error
    integer(c_int) :: f
    call finish(c_use_tuning(self%handle, int(kernel, c_int), c_string(tune_file), f), &
        "use_tuning", error)
    found = f /= 0
  end subroutine

end module tseig_sparse
