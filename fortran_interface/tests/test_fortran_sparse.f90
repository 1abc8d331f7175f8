! The sparse Fortran interface on the 1D Laplacian tridiag(-1, 2, -1) of order n, whose
! eigenvalues 2 - 2cos(pi k / (n + 1)) are known: 1-based CSR rows per rank, KPM count,
! LOBPCG, ChebFD, and an out-of-range column on one rank failing every rank alike.
program test_fortran_sparse
  use mpi
  use, intrinsic :: iso_c_binding
  use tseig_sparse
  use tseig, only: tseig_capabilities
  implicit none
  integer, parameter :: n = 120
  real(c_double), parameter :: pi = acos(-1.0_c_double)
  type(tseig_sparse_t) :: a, bad
  integer :: rank, size_, first, rows, i, k, found, err, lo, hi, failures, want, ierr
  integer, allocatable :: ia(:), ja(:)
  real(c_double), allocatable :: val(:)
  real(c_double) :: count, count_error, w(16), res(16)
  character(len=64) :: tune_file
  logical :: tuned
  integer :: unit, pid

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size_, ierr)
  failures = 0
  pid = 0
  if (rank == 0) pid = getpid()
  call MPI_Bcast(pid, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  write (tune_file, '(a,i0,a)') "/tmp/tseig_fortran_tune_", pid, ".json"
  first = n * rank / size_ + 1
  rows = n * (rank + 1) / size_ - first + 1
  call laplacian(.false.)
  call a%create_csr(MPI_COMM_WORLD, n, ia, ja, val, err)
  call check(err == 0, "create_csr")

  want = 0
  do k = 1, n
    if (exact(k) <= 1.0_c_double) want = want + 1
  end do
  call a%kpm_count(512, 32, 0.0_c_double, 1.0_c_double, count, count_error, err)
  call check(err == 0 .and. abs(count - want) <= 4 * count_error + 0.5, "kpm_count")

  call a%lobpcg(3, 1.0e-9_c_double, found, w, res, err)
  call check(err == 0 .and. found >= 3, "lobpcg")
  do k = 1, min(found, 3)
    call check(abs(w(k) - exact(k)) < 1.0e-8, "lobpcg eigenvalue")
  end do

  call a%chebfd(0.2_c_double, 0.6_c_double, 1.0e-9_c_double, found, w, res, err)
  want = 0
  do k = 1, n
    if (exact(k) >= 0.2_c_double .and. exact(k) <= 0.6_c_double) want = want + 1
  end do
  call check(err == 0 .and. found == want, "chebfd count")
  call a%set("block_width", 4, err)
  call check(err == 0, "set block_width")
  call a%set("chebfd_subspace", 1, err)
  call check(err == 0, "set chebfd_subspace")
  call a%chebfd(0.2_c_double, 0.6_c_double, 1.0e-9_c_double, found, w, res, err)
  call check(err == 0 .and. found == want, "chebfd count, subspace iteration in blocks of 4")
  ! Tuning: measured, stored, read back; the solves after it stay right.
  call a%autotune(TSEIG_KERNEL_CHEBFD_OP, 4, tune_file, err)
  call check(err == 0, "autotune")
  call a%use_tuning(TSEIG_KERNEL_CHEBFD_OP, tune_file, tuned, err)
  call check(err == 0 .and. tuned, "use_tuning finds the entry autotune stored")
  call a%use_tuning(TSEIG_KERNEL_SPMMV, tune_file, tuned, err)
  call check(err == 0 .and. .not. tuned, "no entry for LOBPCG's kernel")
  call a%chebfd(0.2_c_double, 0.6_c_double, 1.0e-9_c_double, found, w, res, err)
  call check(err == 0 .and. found == want, "chebfd count after tuning")
  call a%autotune(7, 4, tune_file, err)
  call check(err == 1, "unknown kernel refused with invalid_argument")
  ! After an error the counts say nothing came (found was garbage: the wrappers' zero
  ! before the call was dropped by gfortran, and the C side left found as it was).
  call a%chebfd(0.6_c_double, 0.2_c_double, 1.0e-9_c_double, found, w, res, err)
  call check(err == 1 .and. found == 0, "chebfd with lower > upper: error and found = 0")
  call a%lobpcg(0, 1.0e-9_c_double, found, w, res, err)
  call check(err == 1 .and. found == 0, "lobpcg with nev = 0: error and found = 0")
  call check(index(tseig_sparse_error_message(), "nev") > 0, &
             "the message of a failure taken through error: "//tseig_sparse_error_message())
  tuned = .true.
  call a%use_tuning(7, tune_file, tuned, err)
  call check(err == 1 .and. .not. tuned, "use_tuning with an unknown kernel: found false")
  if (rank == 0) then
    open (newunit=unit, file=tune_file, status="old")
    close (unit, status="delete")
  end if
  call a%set("no_such_setting", 1, err)
  call check(err == 1, "unknown setting refused with invalid_argument")

  call laplacian(rank == size_ - 1)
  call bad%create_csr(MPI_COMM_WORLD, n, ia, ja, val, err)
  call MPI_Allreduce(err, lo, 1, MPI_INTEGER, MPI_MIN, MPI_COMM_WORLD, ierr)
  call MPI_Allreduce(err, hi, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
  call check(lo == hi .and. err == 1, "bad column fails every rank with invalid_argument")
  call a%destroy(err)
  call check(err == 0, "destroy")
  call check(index(tseig_capabilities(), '"version"') > 0, "capabilities")
  deallocate (ia, ja, val)

  call MPI_Allreduce(MPI_IN_PLACE, failures, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a,i0,a)', "test_fortran_sparse: ", failures, " failed checks"
  call MPI_Finalize(ierr)
  if (failures /= 0) error stop 1

contains

  real(c_double) function exact(k)
    integer, intent(in) :: k
    exact = 2 - 2 * cos(pi * k / (n + 1))
  end function

  ! This rank's rows, 1-based; bad_column puts column n + 3 into the first row.
  subroutine laplacian(bad_column)
    logical, intent(in) :: bad_column
    integer :: row
    if (allocated(ia)) deallocate (ia, ja, val)
    allocate (ia(rows + 1), ja(3 * rows), val(3 * rows))
    ia(1) = 1
    k = 0
    do i = 1, rows
      row = first + i - 1
      if (row > 1) call entry(row - 1, -1.0_c_double)
      call entry(row, 2.0_c_double)
      if (row < n) call entry(row + 1, -1.0_c_double)
      ia(i + 1) = k + 1
    end do
    if (bad_column .and. rows > 0) ja(1) = n + 3
    ja = ja(1:k)
    val = val(1:k)
  end subroutine

  subroutine entry(col, v)
    integer, intent(in) :: col
    real(c_double), intent(in) :: v
    k = k + 1
    ja(k) = col
    val(k) = v
  end subroutine

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      failures = failures + 1
      print '(a,i0,2a)', "rank ", rank, ": check failed: ", what
    end if
  end subroutine

end program
