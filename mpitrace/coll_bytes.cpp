// Score-P's byte convention for collectives (see coll_bytes.h). It assumes
// matching type signatures: at the root of a gather, the root's own block is
// recvcount elements of recvtype whatever its sendtype says.
#include "mpitrace/coll_bytes.h"

#include <utility>

namespace kairo::mpitrace {
namespace {

int rank_in(MPI_Comm comm) {
  int r = 0;
  PMPI_Comm_rank(comm, &r);
  return r;
}
int size_of(MPI_Comm comm) {
  int n = 0;
  PMPI_Comm_size(comm, &n);
  return n;
}
uint64_t sum(const int* counts, int n, MPI_Datatype type) {
  uint64_t total = 0;
  for (int i = 0; i < n; ++i) total += bytes_of(counts[i], type);
  return total;
}
CollBytes swapped(CollBytes b) {
  std::swap(b.sent, b.received);
  return b;
}

}  // namespace

CollBytes all_to_one(int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype, int root,
                     bool inplace, MPI_Comm comm) {
  if (rank_in(comm) != root) return {bytes_of(sendcount, sendtype), 0};
  const uint64_t block = bytes_of(recvcount, recvtype);
  const uint64_t n = static_cast<uint64_t>(size_of(comm));
  if (inplace) return {0, (n - 1) * block};
  return {block, n * block};
}

CollBytes one_to_all(int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype, int root,
                     bool inplace, MPI_Comm comm) {
  return swapped(all_to_one(recvcount, recvtype, sendcount, sendtype, root, inplace, comm));
}

CollBytes gatherv(int sendcount, MPI_Datatype sendtype, const int* recvcounts, MPI_Datatype recvtype,
                  int root, bool inplace, MPI_Comm comm) {
  const int me = rank_in(comm);
  if (me != root) return {bytes_of(sendcount, sendtype), 0};
  const uint64_t all = sum(recvcounts, size_of(comm), recvtype);
  const uint64_t own = bytes_of(recvcounts[me], recvtype);
  if (inplace) return {0, all - own};
  return {own, all};
}

CollBytes scatterv(const int* sendcounts, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype,
                   int root, bool inplace, MPI_Comm comm) {
  return swapped(gatherv(recvcount, recvtype, sendcounts, sendtype, root, inplace, comm));
}

CollBytes alltoall(int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype, bool inplace,
                   MPI_Comm comm) {
  const uint64_t n = static_cast<uint64_t>(size_of(comm));
  if (inplace) {
    const uint64_t b = (n - 1) * bytes_of(recvcount, recvtype);
    return {b, b};
  }
  return {n * bytes_of(sendcount, sendtype), n * bytes_of(recvcount, recvtype)};
}

CollBytes alltoallv(const int* sendcounts, MPI_Datatype sendtype, const int* recvcounts,
                    MPI_Datatype recvtype, bool inplace, MPI_Comm comm) {
  const int n = size_of(comm);
  if (inplace) {
    const uint64_t b = sum(recvcounts, n, recvtype) - bytes_of(recvcounts[rank_in(comm)], recvtype);
    return {b, b};
  }
  return {sum(sendcounts, n, sendtype), sum(recvcounts, n, recvtype)};
}

CollBytes alltoallw(const int* sendcounts, const MPI_Datatype* sendtypes, const int* recvcounts,
                    const MPI_Datatype* recvtypes, bool inplace, MPI_Comm comm) {
  const int n = size_of(comm);
  CollBytes b;
  for (int i = 0; i < n; ++i) {
    b.received += bytes_of(recvcounts[i], recvtypes[i]);
    if (!inplace) b.sent += bytes_of(sendcounts[i], sendtypes[i]);
  }
  if (inplace) {
    const int me = rank_in(comm);
    b.received -= bytes_of(recvcounts[me], recvtypes[me]);
    b.sent = b.received;
  }
  return b;
}

CollBytes allgatherv(int sendcount, MPI_Datatype sendtype, const int* recvcounts, MPI_Datatype recvtype,
                     bool inplace, MPI_Comm comm) {
  const int n = size_of(comm);
  const uint64_t all = sum(recvcounts, n, recvtype);
  if (inplace) {
    const uint64_t own = bytes_of(recvcounts[rank_in(comm)], recvtype);
    return {static_cast<uint64_t>(n - 1) * own, all - own};
  }
  return {static_cast<uint64_t>(n) * bytes_of(sendcount, sendtype), all};
}

CollBytes reduce_scatter(const int* recvcounts, MPI_Datatype type, bool inplace, MPI_Comm comm) {
  const int n = size_of(comm);
  const int me = rank_in(comm);
  const uint64_t all = sum(recvcounts, n, type);
  const uint64_t own = bytes_of(recvcounts[me], type);
  if (inplace) return {all - own, static_cast<uint64_t>(n - 1) * own};
  return {all, static_cast<uint64_t>(n) * own};
}

CollBytes reduce_scatter_block(int recvcount, MPI_Datatype type, bool inplace, MPI_Comm comm) {
  const uint64_t n = static_cast<uint64_t>(size_of(comm));
  const uint64_t b = (inplace ? n - 1 : n) * bytes_of(recvcount, type);
  return {b, b};
}

CollBytes scan(int count, MPI_Datatype type, bool inplace, MPI_Comm comm) {
  const uint64_t me = static_cast<uint64_t>(rank_in(comm));
  const uint64_t n = static_cast<uint64_t>(size_of(comm));
  const uint64_t block = bytes_of(count, type);
  if (inplace) return {(n - me - 1) * block, me * block};
  return {(n - me) * block, (me + 1) * block};
}

}  // namespace kairo::mpitrace
