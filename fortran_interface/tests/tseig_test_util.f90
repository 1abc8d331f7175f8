! Helpers of the Fortran tests: process grid, test matrices defined entry by entry (so every
! rank fills its own part), gathering to full complex(8) copies, and accuracy checks against
! LAPACK. Indices are 1-based.
module tseig_test_util
  use mpi
  implicit none
  private
  public :: init_grid, h_entry, s_entry, local_matrix, check_solution, report, failures, &
            myrank, nprocs, nprow, npcol, myrow, mycol, nrows, ncols, n, nblk, nev, check

  integer, parameter :: dp = kind(1d0)
  integer, parameter :: n = 53, nblk = 4, nev = 17
  integer :: failures = 0, myrank, nprocs, nprow, npcol, myrow, mycol, nrows, ncols

  interface
    integer function numroc(n, nb, iproc, isrcproc, nprocs)
      integer, intent(in) :: n, nb, iproc, isrcproc, nprocs
    end function
    integer function indxl2g(indxloc, nb, iproc, isrcproc, nprocs)
      integer, intent(in) :: indxloc, nb, iproc, isrcproc, nprocs
    end function
  end interface

contains

  !> The most square row-major grid over MPI_COMM_WORLD and the local sizes of an n x n
  !> matrix in nblk blocks (local_nrows is at least 1, as ELPA and ScaLAPACK want).
  subroutine init_grid()
    integer :: ierr
    call mpi_comm_rank(MPI_COMM_WORLD, myrank, ierr)
    call mpi_comm_size(MPI_COMM_WORLD, nprocs, ierr)
    nprow = int(sqrt(real(nprocs)))
    do while (mod(nprocs, nprow) /= 0)
      nprow = nprow - 1
    end do
    npcol = nprocs/nprow
    myrow = myrank/npcol
    mycol = mod(myrank, npcol)
    nrows = max(1, numroc(n, nblk, myrow, 0, nprow))
    ncols = numroc(n, nblk, mycol, 0, npcol)
  end subroutine

  !> Counts and reports a failed check.
  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      failures = failures + 1
      write (*, '(a,i0,2a)') "rank ", myrank, ": check failed: ", what
    end if
  end subroutine

  !> Hermitian H with spread eigenvalues (real symmetric for cplx = .false.).
  complex(dp) function h_entry(i, j, cplx)
    integer, intent(in) :: i, j
    logical, intent(in) :: cplx
    real(dp) :: re, im
    re = 1d0/(1 + abs(i - j))
    if (i == j) re = re + 0.25d0*(i - 1)
    im = 0
    if (cplx .and. i /= j) im = sign(0.3d0, real(i - j, dp))/(1 + abs(i - j))
    h_entry = cmplx(re, im, dp)
  end function

  !> Hermitian positive definite S (diagonally dominant).
  complex(dp) function s_entry(i, j, cplx)
    integer, intent(in) :: i, j
    logical, intent(in) :: cplx
    real(dp) :: d, im
    d = (1d0 + abs(i - j))**2
    im = 0
    if (cplx .and. i /= j) im = sign(0.1d0, real(i - j, dp))/d
    s_entry = cmplx(0.2d0/d, im, dp)
    if (i == j) s_entry = 2
  end function

  !> The local part of f (+ shift on the diagonal), as complex(8).
  function local_matrix(f, cplx, shift) result(a)
    interface
      complex(kind(1d0)) function f(i, j, cplx)
        integer, intent(in) :: i, j
        logical, intent(in) :: cplx
      end function
    end interface
    logical, intent(in) :: cplx
    real(dp), intent(in) :: shift
    complex(dp) :: a(nrows, ncols)
    integer :: li, lj, gi, gj
    a = 0
    do lj = 1, ncols
      gj = indxl2g(lj, nblk, mycol, 0, npcol)
      do li = 1, numroc(n, nblk, myrow, 0, nprow)
        gi = indxl2g(li, nblk, myrow, 0, nprow)
        a(li, lj) = f(gi, gj, cplx)
        if (gi == gj) a(li, lj) = a(li, lj) + shift
      end do
    end do
  end function

  !> Checks the first nev eigenvalues w against LAPACK and, if z is given, the residual and
  !> (S-)orthogonality of the local eigenvectors z. A subset: w(1..count) and z's first count
  !> columns are eigenpairs first..first+count-1 of the spectrum (defaults 1 and nev).
  subroutine check_solution(what, cplx, generalized, shift, w, eps, z, first, count)
    character(len=*), intent(in) :: what
    logical, intent(in) :: cplx, generalized
    real(dp), intent(in) :: shift, w(:), eps
    complex(dp), intent(in), optional :: z(:, :)
    integer, intent(in), optional :: first, count
    complex(dp) :: h(n, n), s(n, n), zf(n, n), hz(n), sz(n), work(4*n)
    real(dp) :: ref(n), rwork(3*n), tol, res, orth
    integer :: i, j, k, li, lj, info, ierr, k0, nk
    k0 = 0
    nk = nev
    if (present(first)) k0 = first - 1
    if (present(count)) nk = count
    tol = 100*sqrt(real(n, dp))*eps
    do j = 1, n
      do i = 1, n
        h(i, j) = h_entry(i, j, cplx)
        s(i, j) = s_entry(i, j, cplx)
      end do
      h(j, j) = h(j, j) + shift
    end do
    if (.not. generalized) then
      s = 0
      do i = 1, n
        s(i, i) = 1
      end do
    end if
    block
      complex(dp) :: a(n, n), b(n, n)
      a = h
      b = s
      call zhegv(1, "N", "U", n, a, n, b, n, ref, work, size(work), rwork, info)
    end block
    call check(info == 0, what//": LAPACK reference failed")
    do k = 1, nk
      call check(abs(w(k) - ref(k0 + k)) <= tol*maxval(abs(ref)), what//": eigenvalue")
    end do
    if (.not. present(z)) return
    zf = 0
    do lj = 1, ncols
      do li = 1, numroc(n, nblk, myrow, 0, nprow)
        zf(indxl2g(li, nblk, myrow, 0, nprow), indxl2g(lj, nblk, mycol, 0, npcol)) = z(li, lj)
      end do
    end do
    call mpi_allreduce(MPI_IN_PLACE, zf, n*n, MPI_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD, ierr)
    res = 0
    orth = 0
    do k = 1, nk
      hz = matmul(h, zf(:, k))
      sz = matmul(s, zf(:, k))
      res = max(res, norm2(abs(hz - w(k)*sz))/norm2(abs(h)))
      do j = 1, nk
        orth = max(orth, abs(dot_product(zf(:, j), sz) - merge(1, 0, j == k)))
      end do
    end do
    call check(res <= tol, what//": residual")
    call check(orth <= tol, what//": orthogonality")
  end subroutine

  !> Sums the failures of all ranks; returns the exit status.
  integer function report(name)
    character(len=*), intent(in) :: name
    integer :: total, ierr
    call mpi_allreduce(failures, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (myrank == 0) write (*, '(3a,i0,a,i0,a)') name, ": ", merge("OK    ", "FAILED", total == 0), &
      total, " failed checks on ", nprocs, " ranks"
    report = merge(0, 1, total == 0)
  end function

end module tseig_test_util
