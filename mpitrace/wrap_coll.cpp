// Collectives and communicator management. A collective writes
// MpiCollectiveBegin before the PMPI call and MpiCollectiveEnd after it, with
// Score-P's byte counts (coll_bytes.h) and the root's rank in the
// communicator. Making or freeing a communicator is a collective too
// (CREATE_HANDLE, DESTROY_HANDLE) with a CommCreate or CommDestroy inside.
#include "mpitrace/coll_bytes.h"
#include "mpitrace/comms.h"
#include "mpitrace/tracer.h"

using namespace kairo::mpitrace;

namespace {

constexpr uint32_t kNoRoot = OTF2_UNDEFINED_UINT32;

template <typename F>
int collective(Region region, OTF2_CollectiveOp op, MPI_Comm comm, uint32_t root, CollBytes bytes, F pmpi) {
  Call call(region);
  check(OTF2_EvtWriter_MpiCollectiveBegin(events(), nullptr, now()), "MpiCollectiveBegin");
  const int rc = pmpi();
  check(OTF2_EvtWriter_MpiCollectiveEnd(events(), nullptr, now(), op, comm_id(comm), root, bytes.sent,
                                        bytes.received),
        "MpiCollectiveEnd");
  return rc;
}

uint32_t root_of(int root) { return static_cast<uint32_t>(root); }

template <typename F>
int create(Region region, MPI_Comm parent, MPI_Comm* newcomm, F pmpi) {
  Call call(region);
  check(OTF2_EvtWriter_MpiCollectiveBegin(events(), nullptr, now()), "MpiCollectiveBegin");
  const int rc = pmpi();
  if (rc == MPI_SUCCESS && *newcomm != MPI_COMM_NULL) {
    const uint32_t id = comm_register(parent, *newcomm, region);
    check(OTF2_EvtWriter_CommCreate(events(), nullptr, now(), id), "CommCreate");
  }
  check(OTF2_EvtWriter_MpiCollectiveEnd(events(), nullptr, now(), OTF2_COLLECTIVE_OP_CREATE_HANDLE,
                                        comm_id(parent), kNoRoot, 0, 0),
        "MpiCollectiveEnd");
  return rc;
}

}  // namespace

#define KAIRO_PASS_THROUGH(call) \
  if (!recording()) return call

extern "C" {

int MPI_Barrier(MPI_Comm comm) {
  KAIRO_PASS_THROUGH(PMPI_Barrier(comm));
  return collective(Region::MPI_Barrier, OTF2_COLLECTIVE_OP_BARRIER, comm, kNoRoot, {},
                    [&] { return PMPI_Barrier(comm); });
}

int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  KAIRO_PASS_THROUGH(PMPI_Bcast(buf, count, type, root, comm));
  return collective(Region::MPI_Bcast, OTF2_COLLECTIVE_OP_BCAST, comm, root_of(root),
                    one_to_all(count, type, count, type, root, false, comm),
                    [&] { return PMPI_Bcast(buf, count, type, root, comm); });
}

int MPI_Reduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, int root,
               MPI_Comm comm) {
  KAIRO_PASS_THROUGH(PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm));
  return collective(Region::MPI_Reduce, OTF2_COLLECTIVE_OP_REDUCE, comm, root_of(root),
                    all_to_one(count, type, count, type, root, sbuf == MPI_IN_PLACE, comm),
                    [&] { return PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm); });
}

int MPI_Allreduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  KAIRO_PASS_THROUGH(PMPI_Allreduce(sbuf, rbuf, count, type, op, comm));
  return collective(Region::MPI_Allreduce, OTF2_COLLECTIVE_OP_ALLREDUCE, comm, kNoRoot,
                    alltoall(count, type, count, type, sbuf == MPI_IN_PLACE, comm),
                    [&] { return PMPI_Allreduce(sbuf, rbuf, count, type, op, comm); });
}

int MPI_Gather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
               int root, MPI_Comm comm) {
  KAIRO_PASS_THROUGH(PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm));
  return collective(Region::MPI_Gather, OTF2_COLLECTIVE_OP_GATHER, comm, root_of(root),
                    all_to_one(scount, stype, rcount, rtype, root, sbuf == MPI_IN_PLACE, comm),
                    [&] { return PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm); });
}

int MPI_Gatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int rcounts[],
                const int displs[], MPI_Datatype rtype, int root, MPI_Comm comm) {
  KAIRO_PASS_THROUGH(PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm));
  return collective(Region::MPI_Gatherv, OTF2_COLLECTIVE_OP_GATHERV, comm, root_of(root),
                    gatherv(scount, stype, rcounts, rtype, root, sbuf == MPI_IN_PLACE, comm), [&] {
                      return PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm);
                    });
}

int MPI_Scatter(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                int root, MPI_Comm comm) {
  KAIRO_PASS_THROUGH(PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm));
  return collective(Region::MPI_Scatter, OTF2_COLLECTIVE_OP_SCATTER, comm, root_of(root),
                    one_to_all(scount, stype, rcount, rtype, root, rbuf == MPI_IN_PLACE, comm),
                    [&] { return PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm); });
}

int MPI_Scatterv(const void* sbuf, const int scounts[], const int displs[], MPI_Datatype stype, void* rbuf,
                 int rcount, MPI_Datatype rtype, int root, MPI_Comm comm) {
  KAIRO_PASS_THROUGH(PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm));
  return collective(Region::MPI_Scatterv, OTF2_COLLECTIVE_OP_SCATTERV, comm, root_of(root),
                    scatterv(scounts, stype, rcount, rtype, root, rbuf == MPI_IN_PLACE, comm), [&] {
                      return PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm);
                    });
}

int MPI_Allgather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                  MPI_Datatype rtype, MPI_Comm comm) {
  KAIRO_PASS_THROUGH(PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm));
  return collective(Region::MPI_Allgather, OTF2_COLLECTIVE_OP_ALLGATHER, comm, kNoRoot,
                    alltoall(scount, stype, rcount, rtype, sbuf == MPI_IN_PLACE, comm),
                    [&] { return PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm); });
}

int MPI_Allgatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int rcounts[],
                   const int displs[], MPI_Datatype rtype, MPI_Comm comm) {
  KAIRO_PASS_THROUGH(PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm));
  return collective(Region::MPI_Allgatherv, OTF2_COLLECTIVE_OP_ALLGATHERV, comm, kNoRoot,
                    allgatherv(scount, stype, rcounts, rtype, sbuf == MPI_IN_PLACE, comm),
                    [&] { return PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm); });
}

int MPI_Alltoall(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                 MPI_Comm comm) {
  KAIRO_PASS_THROUGH(PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm));
  return collective(Region::MPI_Alltoall, OTF2_COLLECTIVE_OP_ALLTOALL, comm, kNoRoot,
                    alltoall(scount, stype, rcount, rtype, sbuf == MPI_IN_PLACE, comm),
                    [&] { return PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm); });
}

int MPI_Alltoallv(const void* sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype, void* rbuf,
                  const int rcounts[], const int rdispls[], MPI_Datatype rtype, MPI_Comm comm) {
  KAIRO_PASS_THROUGH(PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm));
  return collective(
      Region::MPI_Alltoallv, OTF2_COLLECTIVE_OP_ALLTOALLV, comm, kNoRoot,
      alltoallv(scounts, stype, rcounts, rtype, sbuf == MPI_IN_PLACE, comm),
      [&] { return PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm); });
}

int MPI_Alltoallw(const void* sbuf, const int scounts[], const int sdispls[], const MPI_Datatype stypes[],
                  void* rbuf, const int rcounts[], const int rdispls[], const MPI_Datatype rtypes[],
                  MPI_Comm comm) {
  KAIRO_PASS_THROUGH(PMPI_Alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm));
  return collective(
      Region::MPI_Alltoallw, OTF2_COLLECTIVE_OP_ALLTOALLW, comm, kNoRoot,
      alltoallw(scounts, stypes, rcounts, rtypes, sbuf == MPI_IN_PLACE, comm),
      [&] { return PMPI_Alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm); });
}

int MPI_Reduce_scatter(const void* sbuf, void* rbuf, const int rcounts[], MPI_Datatype type, MPI_Op op,
                       MPI_Comm comm) {
  KAIRO_PASS_THROUGH(PMPI_Reduce_scatter(sbuf, rbuf, rcounts, type, op, comm));
  return collective(Region::MPI_Reduce_scatter, OTF2_COLLECTIVE_OP_REDUCE_SCATTER, comm, kNoRoot,
                    reduce_scatter(rcounts, type, sbuf == MPI_IN_PLACE, comm),
                    [&] { return PMPI_Reduce_scatter(sbuf, rbuf, rcounts, type, op, comm); });
}

int MPI_Reduce_scatter_block(const void* sbuf, void* rbuf, int rcount, MPI_Datatype type, MPI_Op op,
                             MPI_Comm comm) {
  KAIRO_PASS_THROUGH(PMPI_Reduce_scatter_block(sbuf, rbuf, rcount, type, op, comm));
  return collective(Region::MPI_Reduce_scatter_block, OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK, comm, kNoRoot,
                    reduce_scatter_block(rcount, type, sbuf == MPI_IN_PLACE, comm),
                    [&] { return PMPI_Reduce_scatter_block(sbuf, rbuf, rcount, type, op, comm); });
}

int MPI_Scan(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  KAIRO_PASS_THROUGH(PMPI_Scan(sbuf, rbuf, count, type, op, comm));
  return collective(Region::MPI_Scan, OTF2_COLLECTIVE_OP_SCAN, comm, kNoRoot,
                    scan(count, type, sbuf == MPI_IN_PLACE, comm),
                    [&] { return PMPI_Scan(sbuf, rbuf, count, type, op, comm); });
}

int MPI_Exscan(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  KAIRO_PASS_THROUGH(PMPI_Exscan(sbuf, rbuf, count, type, op, comm));
  return collective(Region::MPI_Exscan, OTF2_COLLECTIVE_OP_EXSCAN, comm, kNoRoot,
                    scan(count, type, true, comm),
                    [&] { return PMPI_Exscan(sbuf, rbuf, count, type, op, comm); });
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  KAIRO_PASS_THROUGH(PMPI_Comm_split(comm, color, key, newcomm));
  return create(Region::MPI_Comm_split, comm, newcomm,
                [&] { return PMPI_Comm_split(comm, color, key, newcomm); });
}

int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm* newcomm) {
  KAIRO_PASS_THROUGH(PMPI_Comm_split_type(comm, type, key, info, newcomm));
  return create(Region::MPI_Comm_split_type, comm, newcomm,
                [&] { return PMPI_Comm_split_type(comm, type, key, info, newcomm); });
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  KAIRO_PASS_THROUGH(PMPI_Comm_dup(comm, newcomm));
  return create(Region::MPI_Comm_dup, comm, newcomm, [&] { return PMPI_Comm_dup(comm, newcomm); });
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  KAIRO_PASS_THROUGH(PMPI_Comm_create(comm, group, newcomm));
  return create(Region::MPI_Comm_create, comm, newcomm,
                [&] { return PMPI_Comm_create(comm, group, newcomm); });
}

int MPI_Comm_free(MPI_Comm* comm) {
  KAIRO_PASS_THROUGH(PMPI_Comm_free(comm));
  Call call(Region::MPI_Comm_free);
  const uint32_t id = comm_id(*comm);
  check(OTF2_EvtWriter_MpiCollectiveBegin(events(), nullptr, now()), "MpiCollectiveBegin");
  check(OTF2_EvtWriter_CommDestroy(events(), nullptr, now(), id), "CommDestroy");
  comm_forget(*comm);
  const int rc = PMPI_Comm_free(comm);
  check(OTF2_EvtWriter_MpiCollectiveEnd(events(), nullptr, now(), OTF2_COLLECTIVE_OP_DESTROY_HANDLE, id,
                                        kNoRoot, 0, 0),
        "MpiCollectiveEnd");
  return rc;
}

}  // extern "C"
