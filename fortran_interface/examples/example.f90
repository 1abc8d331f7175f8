! The 20 lowest eigenpairs of the 1D Laplacian (2 on the diagonal, -1 beside it), whose
! eigenvalues are known: 2 - 2 cos(k pi / (n + 1)). ELPA users will recognise every call:
! the block-cyclic local arrays, the parameter names, setup, eigenvectors.
program tseig_example
  use, intrinsic :: iso_c_binding
  use mpi
  use tseig
  implicit none
  integer, parameter :: n = 200, nev = 20, nblk = 16
  integer :: ierr, myrank, nprocs, nprow, npcol, myrow, mycol, nrows, ncols, error
  integer :: li, lj, gi, gj, k
  real(c_double), allocatable :: a(:, :), q(:, :)
  real(c_double) :: ev(n), exact, worst
  real(c_double), parameter :: pi = acos(-1d0)
  type(tseig_t) :: e

  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, myrank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nprocs, ierr)
  ! A process grid as square as possible, ranks row by row.
  do nprow = int(sqrt(real(nprocs))), 1, -1
    if (mod(nprocs, nprow) == 0) exit
  end do
  npcol = nprocs/nprow
  myrow = myrank/npcol
  mycol = mod(myrank, npcol)
  nrows = max(1, numroc(n, nblk, myrow, 0, nprow))
  ncols = numroc(n, nblk, mycol, 0, npcol)
  allocate (a(nrows, ncols), q(nrows, ncols))
  a = 0
  do lj = 1, ncols
    gj = indxl2g(lj, nblk, mycol, 0, npcol)
    do li = 1, numroc(n, nblk, myrow, 0, nprow)
      gi = indxl2g(li, nblk, myrow, 0, nprow)
      if (gi == gj) a(li, lj) = 2
      if (abs(gi - gj) == 1) a(li, lj) = -1
    end do
  end do

  call e%create()
  call e%set("na", n)
  call e%set("nev", nev)
  call e%set("nblk", nblk)
  call e%set("local_nrows", nrows)
  call e%set("local_ncols", ncols)
  call e%set("mpi_comm_parent", MPI_COMM_WORLD)
  call e%set("process_row", myrow)
  call e%set("process_col", mycol)
  call e%setup()
  call e%set("solver", "auto")
  call e%eigenvectors(a, ev, q, error)
  if (error /= TSEIG_OK) then
    print *, "eigenvectors failed: ", tseig_strerror(error), ": ", e%last_error_message()
    call mpi_abort(MPI_COMM_WORLD, 1, ierr)
  end if
  call e%destroy()

  worst = 0
  do k = 1, nev
    exact = 2 - 2*cos(k*pi/(n + 1))
    worst = max(worst, abs(ev(k) - exact))
  end do
  if (myrank == 0) then
    write (*, '(a,i0,a,i0,a,es9.2)') "tseig Fortran example on ", nprow, "x", npcol, &
      " grid: max eigenvalue error ", worst
    if (worst < 1d-12) then
      print '(a)', "tseig Fortran example: OK"
    else
      print '(a)', "tseig Fortran example: FAILED"
    end if
  end if
  call mpi_finalize(ierr)
  if (worst >= 1d-12) error stop 1

contains

  ! ScaLAPACK's numroc and indxl2g for blocks starting on process 0 (a DFT code linked
  ! with ScaLAPACK calls those).
  integer function numroc(n, nb, iproc, isrcproc, nprocs)
    integer, intent(in) :: n, nb, iproc, isrcproc, nprocs
    integer :: extra
    numroc = (n/nb/nprocs)*nb
    extra = mod(n/nb, nprocs)
    if (iproc - isrcproc < extra) then
      numroc = numroc + nb
    else if (iproc - isrcproc == extra) then
      numroc = numroc + mod(n, nb)
    end if
  end function

  integer function indxl2g(indxloc, nb, iproc, isrcproc, nprocs)
    integer, intent(in) :: indxloc, nb, iproc, isrcproc, nprocs
    indxl2g = nprocs*nb*((indxloc - 1)/nb) + mod(indxloc - 1, nb) + &
              mod(nprocs + iproc - isrcproc, nprocs)*nb + 1
  end function
end program tseig_example
