! The C functions of include/tseig/tseig.h that the module `tseig` wraps, bound by
! iso_c_binding, and the string conversions both Fortran modules use. Internal: programs
! use the modules `tseig` and `tseig_sparse`.
module tseig_c_binding
  use, intrinsic :: iso_c_binding
  implicit none
  public
  interface
    integer(c_int) function c_create(h) bind(C, name="tseig_create")
      import :: c_int, c_ptr
      type(c_ptr), intent(out) :: h
    end function
    integer(c_int) function c_destroy(h) bind(C, name="tseig_destroy")
      import :: c_int, c_ptr
      type(c_ptr), value :: h
    end function
    integer(c_int) function c_setup(h) bind(C, name="tseig_setup")
      import :: c_int, c_ptr
      type(c_ptr), value :: h
    end function
    ! Not in tseig.h: the module's check of its arrays' sizes (src/capi/fortran_sizes.cpp).
    integer(c_int) function c_check_sizes(h, count, names, have, need) &
        bind(C, name="tseig_fortran_check_sizes")
      import :: c_int, c_ptr, c_char, c_long_long
      type(c_ptr), value :: h
      integer(c_int), value :: count
      character(kind=c_char), intent(in) :: names(*)
      integer(c_long_long), intent(in) :: have(*), need(*)
    end function
    integer(c_int) function c_autotune_setup(h) bind(C, name="tseig_autotune_setup")
      import :: c_int, c_ptr
      type(c_ptr), value :: h
    end function
    integer(c_int) function c_autotune_tuning(h, tuning) bind(C, name="tseig_autotune_tuning")
      import :: c_int, c_ptr
      type(c_ptr), value :: h
      integer(c_int), intent(out) :: tuning
    end function
    integer(c_int) function c_autotune_save(h, path) bind(C, name="tseig_autotune_save")
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: h
      character(kind=c_char), intent(in) :: path(*)
    end function
    integer(c_int) function c_autotune_load(h, path) bind(C, name="tseig_autotune_load")
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: h
      character(kind=c_char), intent(in) :: path(*)
    end function
    integer(c_int) function c_set_int(h, name, value) bind(C, name="tseig_set_int")
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: h
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), value :: value
    end function
    integer(c_int) function c_get_int(h, name, value) bind(C, name="tseig_get_int")
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: h
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), intent(out) :: value
    end function
    integer(c_int) function c_set_double(h, name, value) bind(C, name="tseig_set_double")
      import :: c_int, c_ptr, c_char, c_double
      type(c_ptr), value :: h
      character(kind=c_char), intent(in) :: name(*)
      real(c_double), value :: value
    end function
    integer(c_int) function c_get_double(h, name, value) bind(C, name="tseig_get_double")
      import :: c_int, c_ptr, c_char, c_double
      type(c_ptr), value :: h
      character(kind=c_char), intent(in) :: name(*)
      real(c_double), intent(out) :: value
    end function
    integer(c_int) function c_set_string(h, name, value) bind(C, name="tseig_set_string")
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: h
      character(kind=c_char), intent(in) :: name(*), value(*)
    end function
    integer(c_int) function c_get_string(h, name, value, length) bind(C, name="tseig_get_string")
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: h
      character(kind=c_char), intent(in) :: name(*)
      character(kind=c_char), intent(out) :: value(*)
      integer(c_int), value :: length
    end function
    type(c_ptr) function c_capabilities() bind(C, name="tseig_capabilities")
      import :: c_ptr
    end function
    type(c_ptr) function c_strerror(code) bind(C, name="tseig_strerror")
      import :: c_int, c_ptr
      integer(c_int), value :: code
    end function
    type(c_ptr) function c_last_error_message(h) bind(C, name="tseig_last_error_message")
      import :: c_ptr
      type(c_ptr), value :: h
    end function
    integer(c_size_t) function c_strlen(s) bind(C, name="strlen")
      import :: c_size_t, c_ptr
      type(c_ptr), value :: s
    end function
    integer(c_int) function c_eigenvectors_d(h, a, ev, q) bind(C, name="tseig_eigenvectors_d")
      import
      type(c_ptr), value :: h
      real(c_double) :: a(*), q(*)
      real(c_double) :: ev(*)
    end function
    integer(c_int) function c_eigenvalues_d(h, a, ev) bind(C, name="tseig_eigenvalues_d")
      import
      type(c_ptr), value :: h
      real(c_double) :: a(*)
      real(c_double) :: ev(*)
    end function
    integer(c_int) function c_generalized_eigenvectors_d(h, a, b, ev, q, is_already_decomposed) &
        bind(C, name="tseig_generalized_eigenvectors_d")
      import
      type(c_ptr), value :: h
      real(c_double) :: a(*), q(*)
      real(c_double), intent(in) :: b(*)
      real(c_double) :: ev(*)
      integer(c_int), value :: is_already_decomposed
    end function
    integer(c_int) function c_generalized_eigenvalues_d(h, a, b, ev, is_already_decomposed) &
        bind(C, name="tseig_generalized_eigenvalues_d")
      import
      type(c_ptr), value :: h
      real(c_double) :: a(*)
      real(c_double), intent(in) :: b(*)
      real(c_double) :: ev(*)
      integer(c_int), value :: is_already_decomposed
    end function
    integer(c_int) function c_cholesky_d(h, a) bind(C, name="tseig_cholesky_d")
      import
      type(c_ptr), value :: h
      real(c_double) :: a(*)
    end function
    integer(c_int) function c_invert_triangular_d(h, a) bind(C, name="tseig_invert_triangular_d")
      import
      type(c_ptr), value :: h
      real(c_double) :: a(*)
    end function
    integer(c_int) function c_hermitian_multiply_d(h, uplo_a, uplo_c, ncb, a, b, nrows_b, ncols_b, &
        c, nrows_c, ncols_c) bind(C, name="tseig_hermitian_multiply_d")
      import
      type(c_ptr), value :: h
      character(kind=c_char), value :: uplo_a, uplo_c
      integer(c_int), value :: ncb, nrows_b, ncols_b, nrows_c, ncols_c
      real(c_double), intent(in) :: a(*), b(*)
      real(c_double) :: c(*)
    end function
    integer(c_int) function c_eigenvectors_f(h, a, ev, q) bind(C, name="tseig_eigenvectors_f")
      import
      type(c_ptr), value :: h
      real(c_float) :: a(*), q(*)
      real(c_float) :: ev(*)
    end function
    integer(c_int) function c_eigenvalues_f(h, a, ev) bind(C, name="tseig_eigenvalues_f")
      import
      type(c_ptr), value :: h
      real(c_float) :: a(*)
      real(c_float) :: ev(*)
    end function
    integer(c_int) function c_generalized_eigenvectors_f(h, a, b, ev, q, is_already_decomposed) &
        bind(C, name="tseig_generalized_eigenvectors_f")
      import
      type(c_ptr), value :: h
      real(c_float) :: a(*), q(*)
      real(c_float), intent(in) :: b(*)
      real(c_float) :: ev(*)
      integer(c_int), value :: is_already_decomposed
    end function
    integer(c_int) function c_generalized_eigenvalues_f(h, a, b, ev, is_already_decomposed) &
        bind(C, name="tseig_generalized_eigenvalues_f")
      import
      type(c_ptr), value :: h
      real(c_float) :: a(*)
      real(c_float), intent(in) :: b(*)
      real(c_float) :: ev(*)
      integer(c_int), value :: is_already_decomposed
    end function
    integer(c_int) function c_cholesky_f(h, a) bind(C, name="tseig_cholesky_f")
      import
      type(c_ptr), value :: h
      real(c_float) :: a(*)
    end function
    integer(c_int) function c_invert_triangular_f(h, a) bind(C, name="tseig_invert_triangular_f")
      import
      type(c_ptr), value :: h
      real(c_float) :: a(*)
    end function
    integer(c_int) function c_hermitian_multiply_f(h, uplo_a, uplo_c, ncb, a, b, nrows_b, ncols_b, &
        c, nrows_c, ncols_c) bind(C, name="tseig_hermitian_multiply_f")
      import
      type(c_ptr), value :: h
      character(kind=c_char), value :: uplo_a, uplo_c
      integer(c_int), value :: ncb, nrows_b, ncols_b, nrows_c, ncols_c
      real(c_float), intent(in) :: a(*), b(*)
      real(c_float) :: c(*)
    end function
    integer(c_int) function c_eigenvectors_z(h, a, ev, q) bind(C, name="tseig_eigenvectors_z")
      import
      type(c_ptr), value :: h
      complex(c_double_complex) :: a(*), q(*)
      real(c_double) :: ev(*)
    end function
    integer(c_int) function c_eigenvalues_z(h, a, ev) bind(C, name="tseig_eigenvalues_z")
      import
      type(c_ptr), value :: h
      complex(c_double_complex) :: a(*)
      real(c_double) :: ev(*)
    end function
    integer(c_int) function c_generalized_eigenvectors_z(h, a, b, ev, q, is_already_decomposed) &
        bind(C, name="tseig_generalized_eigenvectors_z")
      import
      type(c_ptr), value :: h
      complex(c_double_complex) :: a(*), q(*)
      complex(c_double_complex), intent(in) :: b(*)
      real(c_double) :: ev(*)
      integer(c_int), value :: is_already_decomposed
    end function
    integer(c_int) function c_generalized_eigenvalues_z(h, a, b, ev, is_already_decomposed) &
        bind(C, name="tseig_generalized_eigenvalues_z")
      import
      type(c_ptr), value :: h
      complex(c_double_complex) :: a(*)
      complex(c_double_complex), intent(in) :: b(*)
      real(c_double) :: ev(*)
      integer(c_int), value :: is_already_decomposed
    end function
    integer(c_int) function c_cholesky_z(h, a) bind(C, name="tseig_cholesky_z")
      import
      type(c_ptr), value :: h
      complex(c_double_complex) :: a(*)
    end function
    integer(c_int) function c_invert_triangular_z(h, a) bind(C, name="tseig_invert_triangular_z")
      import
      type(c_ptr), value :: h
      complex(c_double_complex) :: a(*)
    end function
    integer(c_int) function c_hermitian_multiply_z(h, uplo_a, uplo_c, ncb, a, b, nrows_b, ncols_b, &
        c, nrows_c, ncols_c) bind(C, name="tseig_hermitian_multiply_z")
      import
      type(c_ptr), value :: h
      character(kind=c_char), value :: uplo_a, uplo_c
      integer(c_int), value :: ncb, nrows_b, ncols_b, nrows_c, ncols_c
      complex(c_double_complex), intent(in) :: a(*), b(*)
      complex(c_double_complex) :: c(*)
    end function
    integer(c_int) function c_eigenvectors_c(h, a, ev, q) bind(C, name="tseig_eigenvectors_c")
      import
      type(c_ptr), value :: h
      complex(c_float_complex) :: a(*), q(*)
      real(c_float) :: ev(*)
    end function
    integer(c_int) function c_eigenvalues_c(h, a, ev) bind(C, name="tseig_eigenvalues_c")
      import
      type(c_ptr), value :: h
      complex(c_float_complex) :: a(*)
      real(c_float) :: ev(*)
    end function
    integer(c_int) function c_generalized_eigenvectors_c(h, a, b, ev, q, is_already_decomposed) &
        bind(C, name="tseig_generalized_eigenvectors_c")
      import
      type(c_ptr), value :: h
      complex(c_float_complex) :: a(*), q(*)
      complex(c_float_complex), intent(in) :: b(*)
      real(c_float) :: ev(*)
      integer(c_int), value :: is_already_decomposed
    end function
    integer(c_int) function c_generalized_eigenvalues_c(h, a, b, ev, is_already_decomposed) &
        bind(C, name="tseig_generalized_eigenvalues_c")
      import
      type(c_ptr), value :: h
      complex(c_float_complex) :: a(*)
      complex(c_float_complex), intent(in) :: b(*)
      real(c_float) :: ev(*)
      integer(c_int), value :: is_already_decomposed
    end function
    integer(c_int) function c_cholesky_c(h, a) bind(C, name="tseig_cholesky_c")
      import
      type(c_ptr), value :: h
      complex(c_float_complex) :: a(*)
    end function
    integer(c_int) function c_invert_triangular_c(h, a) bind(C, name="tseig_invert_triangular_c")
      import
      type(c_ptr), value :: h
      complex(c_float_complex) :: a(*)
    end function
    integer(c_int) function c_hermitian_multiply_c(h, uplo_a, uplo_c, ncb, a, b, nrows_b, ncols_b, &
        c, nrows_c, ncols_c) bind(C, name="tseig_hermitian_multiply_c")
      import
      type(c_ptr), value :: h
      character(kind=c_char), value :: uplo_a, uplo_c
      integer(c_int), value :: ncb, nrows_b, ncols_b, nrows_c, ncols_c
      complex(c_float_complex), intent(in) :: a(*), b(*)
      complex(c_float_complex) :: c(*)
    end function
  end interface

contains

  ! NUL-terminated copy of a Fortran string (trailing blanks removed).
  pure function c_string(s) result(c)
    character(len=*), intent(in) :: s
    character(kind=c_char, len=len_trim(s) + 1) :: c
    c = trim(s)//c_null_char
  end function

  ! Fortran copy of a NUL-terminated C string.
  function f_string(p) result(s)
    type(c_ptr), intent(in) :: p
    character(len=:), allocatable :: s
    character(kind=c_char), pointer :: chars(:)
    integer :: i, n
    n = int(c_strlen(p))
    call c_f_pointer(p, chars, [n])
    allocate (character(len=n) :: s)
    do i = 1, n
      s(i:i) = chars(i)
    end do
  end function
end module tseig_c_binding
