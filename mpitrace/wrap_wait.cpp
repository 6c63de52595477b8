// Wait and Test calls: one completion record per request they complete
// (MpiIsendComplete, MpiIrecv with the matched source, tag and size from the
// status, or MpiRequestCancelled), and an MpiRequestTest for each tracked
// request a Test finds still running. MPI_Cancel and MPI_Request_free follow
// Score-P: a cancel shows only when the request completes (or is freed) and
// MPI_Test_cancelled confirms it.
#include "mpitrace/requests.h"
#include "mpitrace/tracer.h"

using namespace kairo::mpitrace;

namespace {

// MPI_Waitsome and MPI_Testsome: the requests MPI finished are complete.
// After a test, the ones it left are recorded as still running: MPI set the
// completed ones to MPI_REQUEST_NULL, so what remains is (their handles
// cannot tell: a completed one can share its handle with a request
// elsewhere, requests.h).
using SomeFn = int (*)(int, MPI_Request[], int*, int[], MPI_Status[]);
int some(Region region, SomeFn pmpi, bool test, int incount, MPI_Request requests[], int* outcount,
         int indices[], MPI_Status statuses[]) {
  Call call(region);
  Completion& c = completion();
  c.snapshot(incount, requests);
  MPI_Status* st = c.statuses(incount, statuses);
  const int rc = pmpi(incount, requests, outcount, indices, st);
  if (*outcount == MPI_UNDEFINED) return rc;
  for (int k = 0; k < *outcount; ++k) c.complete(indices[k], st[k]);
  if (test)
    for (int i = 0; i < incount; ++i)
      if (requests[i] != MPI_REQUEST_NULL) c.not_complete(i);
  return rc;
}

// PMPI_Wait on one request, recording its completion.
int wait_one(MPI_Request* request, MPI_Status* status) {
  Completion& c = completion();
  c.snapshot(1, request);
  MPI_Status* st = c.statuses(1, status);
  const int rc = PMPI_Wait(request, st);
  c.complete(0, *st);
  return rc;
}

}  // namespace

extern "C" {

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  if (!recording()) return PMPI_Wait(request, status);
  Call call(Region::MPI_Wait);
  return wait_one(request, status);
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  if (!recording()) return PMPI_Waitall(count, requests, statuses);
  Call call(Region::MPI_Waitall);
  Completion& c = completion();
  c.snapshot(count, requests);
  MPI_Status* st = c.statuses(count, statuses);
  const int rc = PMPI_Waitall(count, requests, st);
  for (int i = 0; i < count; ++i) c.complete(i, st[i]);
  return rc;
}

int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  if (!recording()) return PMPI_Waitany(count, requests, index, status);
  Call call(Region::MPI_Waitany);
  Completion& c = completion();
  c.snapshot(count, requests);
  MPI_Status* st = c.statuses(1, status);
  const int rc = PMPI_Waitany(count, requests, index, st);
  if (rc == MPI_SUCCESS && *index != MPI_UNDEFINED) c.complete(*index, *st);
  return rc;
}

int MPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  if (!recording()) return PMPI_Waitsome(incount, requests, outcount, indices, statuses);
  return some(Region::MPI_Waitsome, PMPI_Waitsome, false, incount, requests, outcount, indices, statuses);
}

int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  if (!recording()) return PMPI_Test(request, flag, status);
  Call call(Region::MPI_Test);
  Completion& c = completion();
  c.snapshot(1, request);
  MPI_Status* st = c.statuses(1, status);
  const int rc = PMPI_Test(request, flag, st);
  if (*flag)
    c.complete(0, *st);
  else
    c.not_complete(0);
  return rc;
}

int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  if (!recording()) return PMPI_Testall(count, requests, flag, statuses);
  Call call(Region::MPI_Testall);
  Completion& c = completion();
  c.snapshot(count, requests);
  MPI_Status* st = c.statuses(count, statuses);
  const int rc = PMPI_Testall(count, requests, flag, st);
  for (int i = 0; i < count; ++i) {
    if (*flag)
      c.complete(i, st[i]);
    else
      c.not_complete(i);
  }
  return rc;
}

int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  if (!recording()) return PMPI_Testany(count, requests, index, flag, status);
  Call call(Region::MPI_Testany);
  Completion& c = completion();
  c.snapshot(count, requests);
  MPI_Status* st = c.statuses(1, status);
  const int rc = PMPI_Testany(count, requests, index, flag, st);
  if (*flag && *index != MPI_UNDEFINED) {
    c.complete(*index, *st);
  } else if (!*flag) {
    for (int i = 0; i < count; ++i) c.not_complete(i);
  }
  return rc;
}

int MPI_Testsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  if (!recording()) return PMPI_Testsome(incount, requests, outcount, indices, statuses);
  return some(Region::MPI_Testsome, PMPI_Testsome, true, incount, requests, outcount, indices, statuses);
}

int MPI_Cancel(MPI_Request* request) {
  if (!recording()) return PMPI_Cancel(request);
  Call call(Region::MPI_Cancel);
  if (Pending* p = find_request(*request, request)) p->cancel_requested = true;
  return PMPI_Cancel(request);
}

int MPI_Request_free(MPI_Request* request) {
  if (!recording()) return PMPI_Request_free(request);
  Call call(Region::MPI_Request_free);
  Pending* p = find_request(*request, request);
  if (!p) return PMPI_Request_free(request);
  if (!p->cancel_requested) {
    // Freed while active: MPI completes it out of sight, so does the trace.
    forget_request(p);
    return PMPI_Request_free(request);
  }
  // A cancelled request: wait for the cancel to settle to know whether it
  // took effect (Wait frees the request, as MPI_Request_free would have).
  return wait_one(request, MPI_STATUS_IGNORE);
}

}  // extern "C"
