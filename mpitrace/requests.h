// Nonblocking point-to-point requests between the call that starts them and
// the Wait or Test that completes them: the completion record
// (MpiIsendComplete, MpiIrecv, MpiRequestCancelled) needs the request id and,
// for a receive, the datatype and communicator.
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
  uint64_t id = 0;
  bool receive = false;
  bool cancel_requested = false;  // MPI_Cancel was called on it
  MPI_Datatype type = MPI_DATATYPE_NULL;
  uint32_t comm = 0;
};

// Starts tracking handle under a new request id and returns that id.
uint64_t track_send(MPI_Request handle);
uint64_t track_recv(MPI_Request handle, MPI_Datatype type, uint32_t comm);
// The tracked request behind handle, or nullptr.
Pending* find_request(MPI_Request handle);
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
  std::vector<MPI_Status> statuses_;
};
// One per process (threads are not supported): no allocation per call once
// the vectors have grown to the largest request array.
Completion& completion();

}  // namespace kairo::mpitrace
