// The sizeSent and sizeReceived of a collective's MpiCollectiveEnd, computed
// as Score-P computes them (its scorep_mpi_coll_bytes_* convention; the table
// is in mpitrace/README.md): the bytes this rank contributes and receives,
// counting its own block where it both sends and receives it, and not when
// the program passed MPI_IN_PLACE. Intracommunicators only.
#pragma once

#include <cstdint>

#include "mpitrace/tracer.h"

namespace kairo::mpitrace {

struct CollBytes {
  uint64_t sent = 0;
  uint64_t received = 0;
};

// Gather and Reduce: everything flows to root. Scatter and Bcast mirror them.
CollBytes all_to_one(int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype, int root,
                     bool inplace, MPI_Comm comm);
CollBytes one_to_all(int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype, int root,
                     bool inplace, MPI_Comm comm);
CollBytes gatherv(int sendcount, MPI_Datatype sendtype, const int* recvcounts, MPI_Datatype recvtype,
                  int root, bool inplace, MPI_Comm comm);
CollBytes scatterv(const int* sendcounts, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype,
                   int root, bool inplace, MPI_Comm comm);
// Alltoall, and Allgather and Allreduce, which Score-P counts the same way.
CollBytes alltoall(int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype, bool inplace,
                   MPI_Comm comm);
CollBytes alltoallv(const int* sendcounts, MPI_Datatype sendtype, const int* recvcounts,
                    MPI_Datatype recvtype, bool inplace, MPI_Comm comm);
CollBytes alltoallw(const int* sendcounts, const MPI_Datatype* sendtypes, const int* recvcounts,
                    const MPI_Datatype* recvtypes, bool inplace, MPI_Comm comm);
CollBytes allgatherv(int sendcount, MPI_Datatype sendtype, const int* recvcounts, MPI_Datatype recvtype,
                     bool inplace, MPI_Comm comm);
CollBytes reduce_scatter(const int* recvcounts, MPI_Datatype type, bool inplace, MPI_Comm comm);
CollBytes reduce_scatter_block(int recvcount, MPI_Datatype type, bool inplace, MPI_Comm comm);
// Exscan is Scan with inplace set: a rank never sends to itself.
CollBytes scan(int count, MPI_Datatype type, bool inplace, MPI_Comm comm);

}  // namespace kairo::mpitrace
