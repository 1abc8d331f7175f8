! The ScaLAPACK drop-ins of include/tseig/tseig.h (tseig_pdsyevd, ... tseig_pcheevr) with
! their C names, re-exported by the module `tseig`; codes without the module may call them
! as external procedures too.
module tseig_dropins
  use, intrinsic :: iso_c_binding
  implicit none
  public
  ! ScaLAPACK drop-ins: the arguments of p?syevd / p?heevd and (generalized) of p?sygvx
  ! without selection and workspace; see tseig.h.
  interface
    subroutine tseig_pdsyevd(jobz, uplo, n, a, ia, ja, desca, w, z, iz, jz, descz, work, lwork, &
        iwork, liwork, info) bind(C, name="tseig_pdsyevd")
      import
      character(kind=c_char), intent(in) :: jobz, uplo
      integer(c_int), intent(in) :: n, ia, ja, desca(9), iz, jz, descz(9), lwork, liwork
      real(c_double) :: a(*), z(*), work(*)
      real(c_double) :: w(*)
      integer(c_int) :: iwork(*)
      integer(c_int), intent(out) :: info
    end subroutine
    subroutine tseig_pssyevd(jobz, uplo, n, a, ia, ja, desca, w, z, iz, jz, descz, work, lwork, &
        iwork, liwork, info) bind(C, name="tseig_pssyevd")
      import
      character(kind=c_char), intent(in) :: jobz, uplo
      integer(c_int), intent(in) :: n, ia, ja, desca(9), iz, jz, descz(9), lwork, liwork
      real(c_float) :: a(*), z(*), work(*)
      real(c_float) :: w(*)
      integer(c_int) :: iwork(*)
      integer(c_int), intent(out) :: info
    end subroutine
    subroutine tseig_pzheevd(jobz, uplo, n, a, ia, ja, desca, w, z, iz, jz, descz, work, &
        lwork, rwork, lrwork, &
        iwork, liwork, info) bind(C, name="tseig_pzheevd")
      import
      character(kind=c_char), intent(in) :: jobz, uplo
      integer(c_int), intent(in) :: n, ia, ja, desca(9), iz, jz, descz(9), lwork, liwork
      complex(c_double_complex) :: a(*), z(*), work(*)
      real(c_double) :: w(*)
      integer(c_int) :: iwork(*)
      integer(c_int), intent(out) :: info
      real(c_double) :: rwork(*)
      integer(c_int), intent(in) :: lrwork
    end subroutine
    subroutine tseig_pcheevd(jobz, uplo, n, a, ia, ja, desca, w, z, iz, jz, descz, work, &
        lwork, rwork, lrwork, &
        iwork, liwork, info) bind(C, name="tseig_pcheevd")
      import
      character(kind=c_char), intent(in) :: jobz, uplo
      integer(c_int), intent(in) :: n, ia, ja, desca(9), iz, jz, descz(9), lwork, liwork
      complex(c_float_complex) :: a(*), z(*), work(*)
      real(c_float) :: w(*)
      integer(c_int) :: iwork(*)
      integer(c_int), intent(out) :: info
      real(c_float) :: rwork(*)
      integer(c_int), intent(in) :: lrwork
    end subroutine
    subroutine tseig_pdsygvd(ibtype, jobz, uplo, n, a, ia, ja, desca, b, ib, jb, descb, w, z, &
        iz, jz, &
        descz, info) bind(C, name="tseig_pdsygvd")
      import
      character(kind=c_char), intent(in) :: jobz, uplo
      integer(c_int), intent(in) :: ibtype, n, ia, ja, desca(9), ib, jb, descb(9), iz, jz, descz(9)
      real(c_double) :: a(*), z(*)
      real(c_double), intent(in) :: b(*)
      real(c_double) :: w(*)
      integer(c_int), intent(out) :: info
    end subroutine
    subroutine tseig_pssygvd(ibtype, jobz, uplo, n, a, ia, ja, desca, b, ib, jb, descb, w, z, &
        iz, jz, &
        descz, info) bind(C, name="tseig_pssygvd")
      import
      character(kind=c_char), intent(in) :: jobz, uplo
      integer(c_int), intent(in) :: ibtype, n, ia, ja, desca(9), ib, jb, descb(9), iz, jz, descz(9)
      real(c_float) :: a(*), z(*)
      real(c_float), intent(in) :: b(*)
      real(c_float) :: w(*)
      integer(c_int), intent(out) :: info
    end subroutine
    subroutine tseig_pzhegvd(ibtype, jobz, uplo, n, a, ia, ja, desca, b, ib, jb, descb, w, z, &
        iz, jz, &
        descz, info) bind(C, name="tseig_pzhegvd")
      import
      character(kind=c_char), intent(in) :: jobz, uplo
      integer(c_int), intent(in) :: ibtype, n, ia, ja, desca(9), ib, jb, descb(9), iz, jz, descz(9)
      complex(c_double_complex) :: a(*), z(*)
      complex(c_double_complex), intent(in) :: b(*)
      real(c_double) :: w(*)
      integer(c_int), intent(out) :: info
    end subroutine
    subroutine tseig_pchegvd(ibtype, jobz, uplo, n, a, ia, ja, desca, b, ib, jb, descb, w, z, &
        iz, jz, &
        descz, info) bind(C, name="tseig_pchegvd")
      import
      character(kind=c_char), intent(in) :: jobz, uplo
      integer(c_int), intent(in) :: ibtype, n, ia, ja, desca(9), ib, jb, descb(9), iz, jz, descz(9)
      complex(c_float_complex) :: a(*), z(*)
      complex(c_float_complex), intent(in) :: b(*)
      real(c_float) :: w(*)
      integer(c_int), intent(out) :: info
    end subroutine
    ! Subsets: the arguments of ScaLAPACK's p?syevr / p?heevr (RANGE 'A', 'V', 'I').
    subroutine tseig_pdsyevr(jobz, range, uplo, n, a, ia, ja, desca, vl, vu, il, iu, m, nz, w, z, &
        iz, jz, descz, work, lwork, iwork, liwork, info) bind(C, name="tseig_pdsyevr")
      import
      character(kind=c_char), intent(in) :: jobz, range, uplo
      integer(c_int), intent(in) :: n, ia, ja, desca(9), il, iu, iz, jz, descz(9), lwork, liwork
      real(c_double), intent(in) :: vl, vu
      real(c_double) :: a(*), z(*), work(*)
      real(c_double) :: w(*)
      integer(c_int), intent(out) :: m, nz
      integer(c_int) :: iwork(*)
      integer(c_int), intent(out) :: info
    end subroutine
    subroutine tseig_pssyevr(jobz, range, uplo, n, a, ia, ja, desca, vl, vu, il, iu, m, nz, w, z, &
        iz, jz, descz, work, lwork, iwork, liwork, info) bind(C, name="tseig_pssyevr")
      import
      character(kind=c_char), intent(in) :: jobz, range, uplo
      integer(c_int), intent(in) :: n, ia, ja, desca(9), il, iu, iz, jz, descz(9), lwork, liwork
      real(c_float), intent(in) :: vl, vu
      real(c_float) :: a(*), z(*), work(*)
      real(c_float) :: w(*)
      integer(c_int), intent(out) :: m, nz
      integer(c_int) :: iwork(*)
      integer(c_int), intent(out) :: info
    end subroutine
    subroutine tseig_pzheevr(jobz, range, uplo, n, a, ia, ja, desca, vl, vu, il, iu, m, nz, w, z, &
        iz, jz, descz, work, lwork, rwork, lrwork, iwork, liwork, info) &
        bind(C, name="tseig_pzheevr")
      import
      character(kind=c_char), intent(in) :: jobz, range, uplo
      integer(c_int), intent(in) :: n, ia, ja, desca(9), il, iu, iz, jz, descz(9), lwork, liwork
      real(c_double), intent(in) :: vl, vu
      complex(c_double_complex) :: a(*), z(*), work(*)
      real(c_double) :: w(*)
      integer(c_int), intent(out) :: m, nz
      integer(c_int) :: iwork(*)
      integer(c_int), intent(out) :: info
      real(c_double) :: rwork(*)
      integer(c_int), intent(in) :: lrwork
    end subroutine
    subroutine tseig_pcheevr(jobz, range, uplo, n, a, ia, ja, desca, vl, vu, il, iu, m, nz, w, z, &
        iz, jz, descz, work, lwork, rwork, lrwork, iwork, liwork, info) &
        bind(C, name="tseig_pcheevr")
      import
      character(kind=c_char), intent(in) :: jobz, range, uplo
      integer(c_int), intent(in) :: n, ia, ja, desca(9), il, iu, iz, jz, descz(9), lwork, liwork
      real(c_float), intent(in) :: vl, vu
      complex(c_float_complex) :: a(*), z(*), work(*)
      real(c_float) :: w(*)
      integer(c_int), intent(out) :: m, nz
      integer(c_int) :: iwork(*)
      integer(c_int), intent(out) :: info
      real(c_float) :: rwork(*)
      integer(c_int), intent(in) :: lrwork
    end subroutine
  end interface
end module tseig_dropins
