// Nonblocking point-to-point requests between the call that starts them and
// the Wait or Test that completes them: the completion record
// (MpiIsendComplete, MpiIrecv, MpiRequestCancelled) needs the request id and,
// for a receive, the datatype and communicator.
//
// Handles are not unique: Open MPI returns one shared, already complete
// request (ompi_request_empty) for every send it finishes inside MPI_Isend
// (small messages) and for every request with MPI_PROC_NULL as peer, so
// several tracked requests can have the same handle at once. The table keeps
// each of them, with the address the program's handle was written to; a
// completion takes the entry of that handle started at the same address (the
// program's own request variable), else the oldest entry of that handle.
// Requests with MPI_PROC_NULL as peer are tracked too, without an id, so that
// completing them does not take a tracked send's entry.
//
// Not modeled: persistent requests (MPI_Send_init, MPI_Recv_init, MPI_Start)
// and nonblocking collectives; their requests are not tracked and complete
// without a record.
#pragma once

#include <cstdint>
#include <vector>

#include "mpitrace/tracer.h"

namespace kairo::mpitrace {

struct Pending {
  MPI_Request handle = MPI_REQUEST_NULL;  // MPI_REQUEST_NULL: a free slot
  const MPI_Request* where = nullptr;     // where the starting call wrote the handle
  uint64_t id = 0;                        // 0: a request with MPI_PROC_NULL as peer (no records)
  uint64_t order = 0;                     // start order, to take the oldest of equal handles
  bool receive = false;
  bool cancel_requested = false;  // MPI_Cancel was called on it
  MPI_Datatype type = MPI_DATATYPE_NULL;
  uint32_t comm = 0;
};

// Starts tracking the handle the program's call wrote to *where, under a new
// request id, and returns that id.
uint64_t track_send(const MPI_Request* where);
uint64_t track_recv(const MPI_Request* where, MPI_Datatype type, uint32_t comm);
// A request with MPI_PROC_NULL as peer: tracked without an id or records.
void track_null(const MPI_Request* where);
// The tracked request behind handle (preferring the one started at where),
// or nullptr.
Pending* find_request(MPI_Request handle, const MPI_Request* where);
void forget_request(Pending* p);

// The Wait/Test side. Before the PMPI call, snapshot() copies the handles
// (MPI overwrites completed ones with MPI_REQUEST_NULL); afterwards
// complete(i, status) writes the completion record of the i-th one and
// not_complete(i) an MpiRequestTest. A status array of the right size is
// always at hand, for callers that passed MPI_STATUS(ES)_IGNORE.
class Completion {
 public:
  void snapshot(int count, const MPI_Request* requests);
  MPI_Status* statuses(int count, MPI_Status* user);
  void complete(int index, const MPI_Status& status);
  void not_complete(int index);

 private:
  std::vector<MPI_Request> handles_;
  const MPI_Request* where_ = nullptr;  // the program's array
  std::vector<MPI_Status> statuses_;
};
// One per process (threads are not supported): no allocation per call once
// the vectors have grown to the largest request array.
Completion& completion();

}  // namespace kairo::mpitrace
