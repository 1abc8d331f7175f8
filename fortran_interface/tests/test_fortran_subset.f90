! Fortran subset test: an index range (il, iu) and a value range (vl, vu) through the
! generic set/get of the handle, the result "found", a mixed selection's error, and the
! tseig_pdsyevr / tseig_pzheevr drop-ins with RANGE = 'I' from Fortran. Exit status 0 iff
! all checks pass.
program test_fortran_subset
  use, intrinsic :: iso_c_binding
  use mpi
  use tseig
  use tseig_test_util
  implicit none
  integer, parameter :: dp = kind(1d0)
  integer, parameter :: il = 5, iu = 21
  integer :: ierr, status

  call mpi_init(ierr)
  call init_grid()
  call test_handle()
  call test_dropins()
  status = report("test_fortran_subset")
  call mpi_finalize(ierr)
  if (status /= 0) error stop 1

contains

  !> LAPACK's eigenvalues of the test matrix (real or complex), ascending.
  function spectrum(cplx) result(ref)
    logical, intent(in) :: cplx
    real(dp) :: ref(n), rwork(3*n)
    complex(dp) :: h(n, n), work(4*n)
    integer :: i, j, info
    do j = 1, n
      do i = 1, n
        h(i, j) = h_entry(i, j, cplx)
      end do
    end do
    call zheev("N", "U", n, h, n, ref, work, size(work), rwork, info)
    call check(info == 0, "LAPACK reference")
  end function

  subroutine test_handle()
    type(tseig_t) :: e
    real(c_double), allocatable :: a(:, :), q(:, :)
    real(c_double) :: ev(n), x
    real(dp) :: ref(n)
    integer :: error, found
    ref = spectrum(.false.)
    call e%create(error)
    call e%set("na", n, error)
    call e%set("nblk", nblk, error)
    call e%set("local_nrows", nrows, error)
    call e%set("local_ncols", ncols, error)
    call e%set("mpi_comm_parent", MPI_COMM_WORLD, error)
    call e%set("process_row", myrow, error)
    call e%set("process_col", mycol, error)
    call e%setup(error)
    call check(error == TSEIG_OK, "setup: "//e%last_error_message())

    call e%set("il", il, error)
    call check(error == TSEIG_OK, "set il")
    call e%set("iu", iu, error)
    call check(error == TSEIG_OK, "set iu")
    a = real(local_matrix(h_entry, .false., 0d0), c_double)
    q = a
    call e%eigenvectors(a, ev, q, error)
    call check(error == TSEIG_OK, "index range: "//e%last_error_message())
    call e%get("found", found, error)
    call check(error == TSEIG_OK .and. found == iu - il + 1, "found after il..iu")
    call check_solution("index range", .false., .false., 0d0, real(ev, dp), epsilon(1d0), &
                        cmplx(q, kind=dp), first=il, count=iu - il + 1)

    ! A value range on the same handle: drop the index range, bounds between eigenvalues.
    call e%set("il", 0, error)
    call e%set("iu", 0, error)
    call e%set("vl", real(0.5d0*(ref(2) + ref(3)), c_double), error)
    call e%set("vu", real(0.5d0*(ref(9) + ref(10)), c_double), error)
    call check(error == TSEIG_OK, "set vl, vu")
    call e%get("vu", x, error)
    call check(error == TSEIG_OK .and. x == real(0.5d0*(ref(9) + ref(10)), c_double), "get vu")
    a = real(local_matrix(h_entry, .false., 0d0), c_double)
    call e%eigenvalues(a, ev, error)
    call check(error == TSEIG_OK, "value range: "//e%last_error_message())
    call e%get("found", found, error)
    call check(error == TSEIG_OK .and. found == 7, "found after (vl, vu]")
    call check_solution("value range", .false., .false., 0d0, real(ev, dp), epsilon(1d0), &
                        first=3, count=7)

    ! nev together with a range: an error at the solve, and found is unset.
    call e%set("nev", 4, error)
    a = real(local_matrix(h_entry, .false., 0d0), c_double)
    call e%eigenvalues(a, ev, error)
    call check(error == TSEIG_ERROR_INVALID_ARGUMENT, "nev with vl, vu")
    call e%get("found", found, error)
    call check(error == TSEIG_ERROR_PARAMETER_NOT_SET, "found after a failed solve")
    call e%destroy(error)
  end subroutine

  subroutine test_dropins()
    external :: blacs_get, blacs_gridinit, blacs_gridexit, descinit
    real(c_double), allocatable :: a(:, :), z(:, :)
    complex(c_double_complex), allocatable :: ac(:, :), zc(:, :)
    real(c_double) :: w(n), work(1), rwork(1)
    complex(c_double_complex) :: cwork(1)
    integer(c_int) :: iwork(1), desc(9), info, m, nz
    integer :: ctxt
    call blacs_get(-1, 0, ctxt)
    call blacs_gridinit(ctxt, "R", nprow, npcol)
    call descinit(desc, n, n, nblk, nblk, 0, 0, ctxt, nrows, info)

    a = real(local_matrix(h_entry, .false., 0d0), c_double)
    z = a
    call tseig_pdsyevr("V", "I", "U", n, a, 1, 1, desc, 0d0, 0d0, il, iu, m, nz, w, z, 1, 1, &
                       desc, work, -1, iwork, -1, info)
    call check(info == 0 .and. work(1) == 1 .and. iwork(1) == 1, "tseig_pdsyevr query")
    call tseig_pdsyevr("V", "I", "U", n, a, 1, 1, desc, 0d0, 0d0, il, iu, m, nz, w, z, 1, 1, &
                       desc, work, 1, iwork, 1, info)
    call check(info == 0 .and. m == iu - il + 1 .and. nz == m, "tseig_pdsyevr RANGE = I")
    call check_solution("tseig_pdsyevr", .false., .false., 0d0, real(w, dp), epsilon(1d0), &
                        cmplx(z, kind=dp), first=il, count=iu - il + 1)
    call tseig_pdsyevr("V", "I", "U", n, a, 1, 1, desc, 0d0, 0d0, iu, il, m, nz, w, z, 1, 1, &
                       desc, work, 1, iwork, 1, info)
    call check(info == -12, "tseig_pdsyevr IL > IU: INFO = -12")

    ac = local_matrix(h_entry, .true., 0d0)
    zc = ac
    call tseig_pzheevr("V", "I", "L", n, ac, 1, 1, desc, 0d0, 0d0, 1, 1, m, nz, w, zc, 1, 1, &
                       desc, cwork, 1, rwork, 1, iwork, 1, info)
    call check(info == 0 .and. m == 1 .and. nz == 1, "tseig_pzheevr IL = IU = 1")
    call check_solution("tseig_pzheevr", .true., .false., 0d0, real(w, dp), epsilon(1d0), zc, &
                        first=1, count=1)
    call blacs_gridexit(ctxt)
  end subroutine

end program test_fortran_subset
