! The tracer's Fortran test (tests/trace/check_trace.py --fortran): an mpif.h
! program, as the NAS Parallel Benchmarks are, whose calls reach MPI through
! Open MPI's Fortran bindings. It counts what it sends and rank 0 writes the
! same JSON as mpi_small.c to the file named by the first argument. It also
! passes the Fortran sentinels MPI_STATUS_IGNORE and MPI_IN_PLACE.
program mpi_small_f
  implicit none
  include 'mpif.h'
  integer, parameter :: big = 2500, small = 500
  integer :: rank, nranks, ierr, right, left, req, i, s, d, u, nbar, nbcast, nallred, ngather
  integer :: status(MPI_STATUS_SIZE)
  integer(kind=8) :: msgs(64), bytes(64), mine(128), all(128 * 64)
  double precision :: a(big), b(big), x
  character(len=256) :: path
  character(len=4) :: sep

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)
  msgs = 0
  bytes = 0
  a = rank
  right = mod(rank + 1, nranks)
  left = mod(rank + nranks - 1, nranks)

  ! A ring of nonblocking receives and blocking sends.
  call MPI_IRECV(b, big, MPI_DOUBLE_PRECISION, left, 1, MPI_COMM_WORLD, req, ierr)
  call MPI_SEND(a, small, MPI_DOUBLE_PRECISION, right, 1, MPI_COMM_WORLD, ierr)
  msgs(right + 1) = msgs(right + 1) + 1
  bytes(right + 1) = bytes(right + 1) + 8 * small
  call MPI_WAIT(req, status, ierr)

  ! Pairs: even ranks send a large message, odd ranks receive it.
  if (mod(rank, 2) == 0) then
    call MPI_SEND(a, big, MPI_DOUBLE_PRECISION, rank + 1, 2, MPI_COMM_WORLD, ierr)
    msgs(rank + 2) = msgs(rank + 2) + 1
    bytes(rank + 2) = bytes(rank + 2) + 8 * big
  else
    call MPI_IRECV(b, big, MPI_DOUBLE_PRECISION, rank - 1, 2, MPI_COMM_WORLD, req, ierr)
    call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  end if

  x = 0
  do i = 1, 200000
    x = x * 1.0000001d0 + 1d-9
  end do
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call MPI_BCAST(a, 100, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
  call MPI_ALLREDUCE(a, b, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_ALLREDUCE(MPI_IN_PLACE, a, 4, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  nbar = 1
  nbcast = 1
  nallred = 2
  ngather = 1

  mine(1:nranks) = msgs(1:nranks)
  mine(nranks + 1:2 * nranks) = bytes(1:nranks)
  call MPI_GATHER(mine, 2 * nranks, MPI_INTEGER8, all, 2 * nranks, MPI_INTEGER8, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    call get_command_argument(1, path)
    open (newunit=u, file=trim(path), status='replace', action='write')
    write (u, '(a,i0,a)', advance='no') '{"ranks": ', nranks, ', "pairs": ['
    sep = ''
    do s = 0, nranks - 1
      do d = 0, nranks - 1
        if (all(2 * nranks * s + d + 1) > 0) then
          write (u, '(a,a,i0,a,i0,a,i0,a,i0,a)', advance='no') trim(sep), '[', s, ', ', d, ', ', &
            all(2 * nranks * s + d + 1), ', ', all(2 * nranks * s + nranks + d + 1), ']'
          sep = ', '
        end if
      end do
    end do
    write (u, '(a,i0,a,i0,a,i0,a,i0,a)') '], "collectives": {"MPI_Barrier": ', nbar, ', "MPI_Bcast": ', nbcast, &
      ', "MPI_Allreduce": ', nallred, ', "MPI_Gather": ', ngather, '}}'
    close (u)
  end if
  call MPI_FINALIZE(ierr)
end program mpi_small_f
