! Fortran 2008 interface of tseig (iso_c_binding over include/tseig/tseig.h), in ELPA's style:
!
!   use tseig
!   type(tseig_t) :: e
!   call e%create(error)
!   call e%set("na", na, error);  call e%set("nev", nev, error);  call e%set("nblk", nblk, error)
!   call e%set("local_nrows", nrows, error);  call e%set("local_ncols", ncols, error)
!   call e%set("mpi_comm_parent", MPI_COMM_WORLD, error)   ! a Fortran communicator handle
!   call e%set("process_row", myrow, error);  call e%set("process_col", mycol, error)
!   call e%setup(error)
!   call e%set("solver", "two_stage", error)
!   call e%eigenvectors(a, ev, q, error)                    ! real/complex, single/double
!   call e%destroy(error)
!
! Parameters, collectiveness and error codes are those of tseig.h. The `error` argument is
! optional everywhere: when it is absent and the call fails, the message is printed and
! the program stops (error stop), as in ELPA. Local arrays are the ELPA/ScaLAPACK local
! parts: a(local_nrows, local_ncols), ev(na), q(local_nrows, local_ncols).
! The ScaLAPACK drop-ins (tseig_pdsyevd, ... tseig_pchegvd, and the subset ones tseig_pdsyevr,
! ... tseig_pcheevr) come with this module too (tseig_dropins.f90); codes without it may call
! them as external procedures. Subsets through the handle: set il and iu (an index range)
! or vl and vu (a value range), then get "found" after the solve.
module tseig
  use, intrinsic :: iso_c_binding
  use, intrinsic :: iso_fortran_env, only: error_unit
  use tseig_c_binding
  use tseig_dropins
  implicit none
  private

  integer, parameter, public :: TSEIG_OK = 0
  integer, parameter, public :: TSEIG_ERROR_INVALID_ARGUMENT = 1
  integer, parameter, public :: TSEIG_ERROR_INVALID_DESCRIPTOR = 2
  integer, parameter, public :: TSEIG_ERROR_GRID_MISMATCH = 3
  integer, parameter, public :: TSEIG_ERROR_NOT_HERMITIAN = 4
  integer, parameter, public :: TSEIG_ERROR_NOT_FINITE = 5
  integer, parameter, public :: TSEIG_ERROR_NOT_POSITIVE_DEFINITE = 6
  integer, parameter, public :: TSEIG_ERROR_IO = 7
  integer, parameter, public :: TSEIG_ERROR_NUMERICAL_FAILURE = 8
  integer, parameter, public :: TSEIG_ERROR_MPI = 9
  integer, parameter, public :: TSEIG_ERROR_OUT_OF_MEMORY = 10
  integer, parameter, public :: TSEIG_ERROR_UNSUPPORTED = 11
  integer, parameter, public :: TSEIG_ERROR_ACCURACY = 13
  integer, parameter, public :: TSEIG_ERROR_DEVICE = 14
  integer, parameter, public :: TSEIG_ERROR_UNKNOWN_PARAMETER = 100
  integer, parameter, public :: TSEIG_ERROR_WRONG_TYPE = 101
  integer, parameter, public :: TSEIG_ERROR_PARAMETER_NOT_SET = 102
  integer, parameter, public :: TSEIG_ERROR_SETUP_MISSING = 103
  integer, parameter, public :: TSEIG_ERROR_ALREADY_SETUP = 104
  integer, parameter, public :: TSEIG_ERROR_NULL_HANDLE = 105
  integer, parameter, public :: TSEIG_ERROR_NO_FACTOR = 106
  integer, parameter, public :: TSEIG_ERROR_FACTOR_MISMATCH = 107
  integer, parameter, public :: TSEIG_ERROR_INTERNAL = 199

  ! What an array must hold, for sized(): the local part of an na x na matrix, or na values.
  integer, parameter :: ll = c_long_long
  integer(ll), parameter :: LOCAL_PART = -1, NA_VALUES = -2

  public :: tseig_strerror, tseig_capabilities

  !> A tseig handle (tseig_handle_t* of the C API).
  type, public :: tseig_t
    type(c_ptr) :: handle = c_null_ptr
  contains
    procedure :: create => tseig_create_
    procedure :: destroy => tseig_destroy_
    procedure :: setup => tseig_setup_
    procedure :: last_error_message => tseig_last_error_message_
    procedure :: autotune_setup => tseig_autotune_setup_
    procedure :: autotune_tuning => tseig_autotune_tuning_
    procedure :: autotune_save => tseig_autotune_save_
    procedure :: autotune_load => tseig_autotune_load_
    procedure, private :: set_int, set_string, set_double, get_int, get_string, get_double
    generic :: set => set_int, set_string, set_double
    generic :: get => get_int, get_string, get_double
    procedure, private :: eigenvectors_d, eigenvectors_f, eigenvectors_z, eigenvectors_c
    generic :: eigenvectors => eigenvectors_d, eigenvectors_f, eigenvectors_z, eigenvectors_c
    procedure, private :: eigenvalues_d, eigenvalues_f, eigenvalues_z, eigenvalues_c
    generic :: eigenvalues => eigenvalues_d, eigenvalues_f, eigenvalues_z, eigenvalues_c
    procedure, private :: generalized_eigenvectors_d, generalized_eigenvectors_f, &
        generalized_eigenvectors_z, generalized_eigenvectors_c
    generic :: generalized_eigenvectors => generalized_eigenvectors_d, &
        generalized_eigenvectors_f, generalized_eigenvectors_z, generalized_eigenvectors_c
    procedure, private :: generalized_eigenvalues_d, generalized_eigenvalues_f, &
        generalized_eigenvalues_z, generalized_eigenvalues_c
    generic :: generalized_eigenvalues => generalized_eigenvalues_d, &
        generalized_eigenvalues_f, generalized_eigenvalues_z, generalized_eigenvalues_c
    procedure, private :: cholesky_d, cholesky_f, cholesky_z, cholesky_c
    generic :: cholesky => cholesky_d, cholesky_f, cholesky_z, cholesky_c
    procedure, private :: invert_triangular_d, invert_triangular_f, invert_triangular_z, &
        invert_triangular_c
    generic :: invert_triangular => invert_triangular_d, invert_triangular_f, &
        invert_triangular_z, invert_triangular_c
    procedure, private :: hermitian_multiply_d, hermitian_multiply_f, hermitian_multiply_z, &
        hermitian_multiply_c
    generic :: hermitian_multiply => hermitian_multiply_d, hermitian_multiply_f, &
        hermitian_multiply_z, hermitian_multiply_c
  end type tseig_t

  ! The ScaLAPACK drop-ins (tseig_dropins.f90), handed on to the users of this module.
  public :: tseig_pdsyevd, tseig_pdsygvd
  public :: tseig_pssyevd, tseig_pssygvd
  public :: tseig_pzheevd, tseig_pzhegvd
  public :: tseig_pcheevd, tseig_pchegvd
  public :: tseig_pdsyevr, tseig_pssyevr, tseig_pzheevr, tseig_pcheevr

contains

  !> Text of an error code ("TSEIG_ERROR_WRONG_TYPE: ...").
  function tseig_strerror(code) result(text)
    integer, intent(in) :: code
    character(len=:), allocatable :: text
    text = f_string(c_strerror(int(code, c_int)))
  end function

  !> What this build can do on this machine, as JSON (see tseig.h). Local.
  function tseig_capabilities() result(text)
    character(len=:), allocatable :: text
    text = f_string(c_capabilities())
  end function

  ! Hands the code to the caller, or (no error argument) stops on failure.
  subroutine finish(self, code, what, error)
    class(tseig_t), intent(in) :: self
    integer(c_int), intent(in) :: code
    character(len=*), intent(in) :: what
    integer, intent(out), optional :: error
    if (present(error)) then
      error = int(code)
    else if (code /= TSEIG_OK) then
      write (error_unit, '(5a)') "tseig: ", what, " failed: ", tseig_strerror(int(code)), &
        ": "//self%last_error_message()
      error stop 1
    end if
  end subroutine

  ! Collective: whether the arrays (names separated by blanks) hold what the call needs
  ! (LOCAL_PART, NA_VALUES or a count). C pointers carry no sizes, so this is the one place
  ! where an array too small is seen; if one is, the error is handed on as the call's own.
  logical function sized(self, what, error, names, have, need)
    class(tseig_t), intent(in) :: self
    character(len=*), intent(in) :: what, names
    integer, intent(out), optional :: error
    integer(c_long_long), intent(in) :: have(:), need(:)
    integer(c_int) :: code
    code = c_check_sizes(self%handle, int(size(have), c_int), c_string(names), have, need)
    sized = code == TSEIG_OK
    if (.not. sized) call finish(self, code, what, error)
  end function

  !> Detailed message of the last call on this handle ("" after success). On a handle not
  !> created (a null one), the message of this thread's last failed drop-in call, which a
  !> drop-in call that succeeds leaves as it was (tseig.h).
  function tseig_last_error_message_(self) result(text)
    class(tseig_t), intent(in) :: self
    character(len=:), allocatable :: text
    text = f_string(c_last_error_message(self%handle))
  end function

  !> Local. A new handle with no parameter set.
  subroutine tseig_create_(self, error)
    class(tseig_t), intent(inout) :: self
    integer, intent(out), optional :: error
    call finish(self, c_create(self%handle), "create", error)
  end subroutine

  !> Collective after setup. Frees the handle (a no-op on a handle never created).
  subroutine tseig_destroy_(self, error)
    class(tseig_t), intent(inout) :: self
    integer, intent(out), optional :: error
    call finish(self, c_destroy(self%handle), "destroy", error)
    self%handle = c_null_ptr
  end subroutine

  !> Collective. Builds the process grid; layout parameters are fixed from then on.
  subroutine tseig_setup_(self, error)
    class(tseig_t), intent(inout) :: self
    integer, intent(out), optional :: error
    call finish(self, c_setup(self%handle), "setup", error)
  end subroutine

  !> SCF-mode autotuning (ELPA's autotune_setup): each following solve runs the next
  !> candidate of the search; see tseig.h.
  subroutine tseig_autotune_setup_(self, error)
    class(tseig_t), intent(inout) :: self
    integer, intent(out), optional :: error
    call finish(self, c_autotune_setup(self%handle), "autotune_setup", error)
  end subroutine

  !> .true. while the SCF-mode search still has candidates to try.
  subroutine tseig_autotune_tuning_(self, tuning, error)
    class(tseig_t), intent(in) :: self
    logical, intent(out) :: tuning
    integer, intent(out), optional :: error
    integer(c_int) :: t
    t = 0
    call finish(self, c_autotune_tuning(self%handle, t), "autotune_tuning", error)
    tuning = t /= 0
  end subroutine

  !> Collective: the search so far to a file (rank 0 writes).
  subroutine tseig_autotune_save_(self, path, error)
    class(tseig_t), intent(inout) :: self
    character(len=*), intent(in) :: path
    integer, intent(out), optional :: error
    call finish(self, c_autotune_save(self%handle, c_string(path)), "autotune_save", error)
  end subroutine

  !> Collective: continues a search saved by autotune_save.
  subroutine tseig_autotune_load_(self, path, error)
    class(tseig_t), intent(inout) :: self
    character(len=*), intent(in) :: path
    integer, intent(out), optional :: error
    call finish(self, c_autotune_load(self%handle, c_string(path)), "autotune_load", error)
  end subroutine

  subroutine set_int(self, name, value, error)
    class(tseig_t), intent(inout) :: self
    character(len=*), intent(in) :: name
    integer, intent(in) :: value
    integer, intent(out), optional :: error
    call finish(self, c_set_int(self%handle, c_string(name), int(value, c_int)), "set "//name, &
        error)
  end subroutine

  subroutine set_string(self, name, value, error)
    class(tseig_t), intent(inout) :: self
    character(len=*), intent(in) :: name, value
    integer, intent(out), optional :: error
    call finish(self, c_set_string(self%handle, c_string(name), c_string(value)), &
        "set "//name, error)
  end subroutine

  subroutine get_int(self, name, value, error)
    class(tseig_t), intent(in) :: self
    character(len=*), intent(in) :: name
    integer, intent(out) :: value
    integer, intent(out), optional :: error
    integer(c_int) :: v
    v = 0
    call finish(self, c_get_int(self%handle, c_string(name), v), "get "//name, error)
    value = int(v)
  end subroutine

  !> validation_tolerance (see tseig.h).
  subroutine set_double(self, name, value, error)
    class(tseig_t), intent(inout) :: self
    character(len=*), intent(in) :: name
    real(c_double), intent(in) :: value
    integer, intent(out), optional :: error
    call finish(self, c_set_double(self%handle, c_string(name), value), "set "//name, error)
  end subroutine

  !> validation_tolerance and the validation_* results of the last solve (see tseig.h).
  subroutine get_double(self, name, value, error)
    class(tseig_t), intent(in) :: self
    character(len=*), intent(in) :: name
    real(c_double), intent(out) :: value
    integer, intent(out), optional :: error
    value = 0
    call finish(self, c_get_double(self%handle, c_string(name), value), "get "//name, error)
  end subroutine

  !> value receives the string, blank-padded (an error if it does not fit).
  subroutine get_string(self, name, value, error)
    class(tseig_t), intent(in) :: self
    character(len=*), intent(in) :: name
    character(len=*), intent(out) :: value
    integer, intent(out), optional :: error
    character(kind=c_char) :: buffer(len(value) + 1)
    integer(c_int) :: code
    integer :: i
    value = ""
    code = c_get_string(self%handle, c_string(name), buffer, int(size(buffer), c_int))
    if (code == TSEIG_OK) then
      do i = 1, len(value)
        if (buffer(i) == c_null_char) exit
        value(i:i) = buffer(i)
      end do
    end if
    call finish(self, code, "get "//name, error)
  end subroutine

#define SFX d
#define T_DATA real(c_double)
#define T_REAL real(c_double)
#include "tseig_solves.inc"
#undef SFX
#undef T_DATA
#undef T_REAL

#define SFX f
#define T_DATA real(c_float)
#define T_REAL real(c_float)
#include "tseig_solves.inc"
#undef SFX
#undef T_DATA
#undef T_REAL

#define SFX z
#define T_DATA complex(c_double_complex)
#define T_REAL real(c_double)
#include "tseig_solves.inc"
#undef SFX
#undef T_DATA
#undef T_REAL

#define SFX c
#define T_DATA complex(c_float_complex)
#define T_REAL real(c_float)
#include "tseig_solves.inc"
#undef SFX
#undef T_DATA
#undef T_REAL

end module tseig
