// Point-to-point calls: the records of the call that starts a message. A
// blocking send writes MpiSend, a blocking receive MpiRecv with the posted
// source and tag as attributes; a nonblocking call writes MpiIsend or
// MpiIrecvRequest and leaves the completion to Wait/Test (wrap_wait.cpp);
// one with MPI_PROC_NULL as peer writes nothing but is tracked (requests.h).
// Every byte count is count * MPI_Type_size: the payload, not the envelope.
#include "mpitrace/comms.h"
#include "mpitrace/requests.h"
#include "mpitrace/tracer.h"

using namespace kairo::mpitrace;

namespace {

MPI_Status* status_or(MPI_Status* user, MPI_Status* local) {
  return user == MPI_STATUS_IGNORE ? local : user;
}

int blocking_send(Region region, int (*pmpi)(const void*, int, MPI_Datatype, int, int, MPI_Comm),
                  const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  if (!recording()) return pmpi(buf, count, type, dest, tag, comm);
  Call call(region);
  record_send(dest, tag, count, type, comm);
  return pmpi(buf, count, type, dest, tag, comm);
}

int nonblocking_send(Region region,
                     int (*pmpi)(const void*, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request*),
                     const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                     MPI_Request* request) {
  if (!recording()) return pmpi(buf, count, type, dest, tag, comm, request);
  Call call(region);
  const int rc = pmpi(buf, count, type, dest, tag, comm, request);
  if (rc != MPI_SUCCESS) return rc;
  if (dest == MPI_PROC_NULL) {
    track_null(request);
    return rc;
  }
  const uint64_t id = track_send(request);
  check(OTF2_EvtWriter_MpiIsend(events(), nullptr, now(), static_cast<uint32_t>(dest), comm_id(comm),
                                static_cast<uint32_t>(tag), bytes_of(count, type), id),
        "MpiIsend");
  return rc;
}

}  // namespace

extern "C" {

int MPI_Comm_rank(MPI_Comm comm, int* rank) {
  if (!recording()) return PMPI_Comm_rank(comm, rank);
  Call call(Region::MPI_Comm_rank);
  return PMPI_Comm_rank(comm, rank);
}

int MPI_Comm_size(MPI_Comm comm, int* size) {
  if (!recording()) return PMPI_Comm_size(comm, size);
  Call call(Region::MPI_Comm_size);
  return PMPI_Comm_size(comm, size);
}

#define KAIRO_BLOCKING_SEND(name)                                                                   \
  int MPI_##name(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) { \
    return blocking_send(Region::MPI_##name, PMPI_##name, buf, count, type, dest, tag, comm);       \
  }
KAIRO_BLOCKING_SEND(Send)
KAIRO_BLOCKING_SEND(Ssend)
KAIRO_BLOCKING_SEND(Bsend)
KAIRO_BLOCKING_SEND(Rsend)
#undef KAIRO_BLOCKING_SEND

#define KAIRO_NONBLOCKING_SEND(name)                                                                      \
  int MPI_##name(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,         \
                 MPI_Request* request) {                                                                  \
    return nonblocking_send(Region::MPI_##name, PMPI_##name, buf, count, type, dest, tag, comm, request); \
  }
KAIRO_NONBLOCKING_SEND(Isend)
KAIRO_NONBLOCKING_SEND(Issend)
KAIRO_NONBLOCKING_SEND(Ibsend)
KAIRO_NONBLOCKING_SEND(Irsend)
#undef KAIRO_NONBLOCKING_SEND

int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status* status) {
  if (!recording()) return PMPI_Recv(buf, count, type, source, tag, comm, status);
  Call call(Region::MPI_Recv);
  MPI_Status local;
  status = status_or(status, &local);
  const int rc = PMPI_Recv(buf, count, type, source, tag, comm, status);
  if (rc == MPI_SUCCESS) record_recv(*status, source, tag, type, comm);
  return rc;
}

int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request* request) {
  if (!recording()) return PMPI_Irecv(buf, count, type, source, tag, comm, request);
  Call call(Region::MPI_Irecv);
  const int rc = PMPI_Irecv(buf, count, type, source, tag, comm, request);
  if (rc != MPI_SUCCESS) return rc;
  if (source == MPI_PROC_NULL) {
    track_null(request);
    return rc;
  }
  const uint32_t cid = comm_id(comm);
  const uint64_t id = track_recv(request, type, cid);
  add_posted(source, tag);
  OTF2_AttributeList_AddCommRef(attributes(), kPostedComm, cid);
  check(OTF2_EvtWriter_MpiIrecvRequest(events(), attributes(), now(), id), "MpiIrecvRequest");
  return rc;
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                 MPI_Status* status) {
  if (!recording())
    return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                         recvtag, comm, status);
  Call call(Region::MPI_Sendrecv);
  MPI_Status local;
  status = status_or(status, &local);
  record_send(dest, sendtag, sendcount, sendtype, comm);
  const int rc = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                               source, recvtag, comm, status);
  if (rc == MPI_SUCCESS) record_recv(*status, source, recvtag, recvtype, comm);
  return rc;
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag, int source,
                         int recvtag, MPI_Comm comm, MPI_Status* status) {
  if (!recording())
    return PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, status);
  Call call(Region::MPI_Sendrecv_replace);
  MPI_Status local;
  status = status_or(status, &local);
  record_send(dest, sendtag, count, type, comm);
  const int rc = PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, status);
  if (rc == MPI_SUCCESS) record_recv(*status, source, recvtag, type, comm);
  return rc;
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  if (!recording()) return PMPI_Probe(source, tag, comm, status);
  Call call(Region::MPI_Probe);
  return PMPI_Probe(source, tag, comm, status);
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  if (!recording()) return PMPI_Iprobe(source, tag, comm, flag, status);
  Call call(Region::MPI_Iprobe);
  return PMPI_Iprobe(source, tag, comm, flag, status);
}

}  // extern "C"
