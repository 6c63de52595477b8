// The request table: open addressing on the handle's bits, so that tracking
// and completing a request allocates nothing once the table has grown to the
// largest number of requests in flight.
#include "mpitrace/requests.h"

#include <cstring>
#include <functional>

namespace kairo::mpitrace {
namespace {

std::vector<Pending> g_table(64);
size_t g_used = 0;  // occupied slots
uint64_t g_next_id = 1;
uint64_t g_next_order = 1;

size_t slot_of(MPI_Request handle) {
  uintptr_t bits = 0;
  std::memcpy(&bits, &handle, sizeof(handle) < sizeof(bits) ? sizeof(handle) : sizeof(bits));
  return ((std::hash<uintptr_t>()(bits) * 0x9E3779B97F4A7C15ull) >> 7) & (g_table.size() - 1);
}

Pending* insert(const Pending& p);

void grow() {
  std::vector<Pending> old(g_table.size() * 2);
  old.swap(g_table);
  g_used = 0;
  for (const Pending& p : old)
    if (p.handle != MPI_REQUEST_NULL) insert(p);
}

Pending* insert(const Pending& p) {
  // Equal handles get entries of their own (requests.h): no lookup first.
  if (2 * (g_used + 1) > g_table.size()) grow();
  size_t i = slot_of(p.handle);
  while (g_table[i].handle != MPI_REQUEST_NULL) i = (i + 1) & (g_table.size() - 1);
  g_table[i] = p;
  ++g_used;
  return &g_table[i];
}

Pending started(const MPI_Request* where, bool with_id) {
  Pending p;
  p.handle = *where;
  p.where = where;
  p.id = with_id ? g_next_id++ : 0;
  p.order = g_next_order++;
  return p;
}

}  // namespace

uint64_t track_send(const MPI_Request* where) { return insert(started(where, true))->id; }

uint64_t track_recv(const MPI_Request* where, MPI_Datatype type, uint32_t comm) {
  Pending p = started(where, true);
  p.receive = true;
  p.type = type;
  p.comm = comm;
  return insert(p)->id;
}

void track_null(const MPI_Request* where) {
  if (*where != MPI_REQUEST_NULL) insert(started(where, false));
}

Pending* find_request(MPI_Request handle, const MPI_Request* where) {
  if (handle == MPI_REQUEST_NULL) return nullptr;
  Pending* oldest = nullptr;
  Pending* oldest_here = nullptr;
  for (size_t i = slot_of(handle); g_table[i].handle != MPI_REQUEST_NULL;
       i = (i + 1) & (g_table.size() - 1)) {
    Pending& p = g_table[i];
    if (p.handle != handle) continue;
    if (!oldest || p.order < oldest->order) oldest = &p;
    if (p.where == where && (!oldest_here || p.order < oldest_here->order)) oldest_here = &p;
  }
  return oldest_here ? oldest_here : oldest;
}

void forget_request(Pending* p) {
  // Backward-shift deletion keeps every probe chain unbroken without tombstones.
  const size_t mask = g_table.size() - 1;
  size_t hole = static_cast<size_t>(p - g_table.data());
  g_table[hole] = Pending();
  --g_used;
  for (size_t i = (hole + 1) & mask; g_table[i].handle != MPI_REQUEST_NULL; i = (i + 1) & mask) {
    const size_t home = slot_of(g_table[i].handle);
    // Move the entry into the hole unless its home lies cyclically in (hole, i].
    const bool stays = hole <= i ? (hole < home && home <= i) : (hole < home || home <= i);
    if (stays) continue;
    g_table[hole] = g_table[i];
    g_table[i] = Pending();
    hole = i;
  }
}

void Completion::snapshot(int count, const MPI_Request* requests) {
  if (handles_.size() < static_cast<size_t>(count)) handles_.resize(static_cast<size_t>(count));
  std::copy(requests, requests + count, handles_.begin());
  where_ = requests;
}

MPI_Status* Completion::statuses(int count, MPI_Status* user) {
  if (user != MPI_STATUS_IGNORE && user != MPI_STATUSES_IGNORE) return user;
  if (statuses_.size() < static_cast<size_t>(count)) statuses_.resize(static_cast<size_t>(count));
  return statuses_.data();
}

void Completion::complete(int index, const MPI_Status& status) {
  Pending* p = find_request(handles_[static_cast<size_t>(index)], where_ + index);
  if (!p) return;
  if (p->id == 0) {  // MPI_PROC_NULL as peer: no records
    forget_request(p);
    return;
  }
  // Score-P's rule: a request MPI_Cancel was called on ends in
  // MpiRequestCancelled if the cancel took effect, else completes normally.
  int cancelled = 0;
  if (p->cancel_requested) PMPI_Test_cancelled(&status, &cancelled);
  if (cancelled) {
    check(OTF2_EvtWriter_MpiRequestCancelled(events(), nullptr, now(), p->id), "MpiRequestCancelled");
  } else if (!p->receive) {
    check(OTF2_EvtWriter_MpiIsendComplete(events(), nullptr, now(), p->id), "MpiIsendComplete");
  } else if (status.MPI_SOURCE != MPI_PROC_NULL) {
    check(OTF2_EvtWriter_MpiIrecv(events(), nullptr, now(), static_cast<uint32_t>(status.MPI_SOURCE), p->comm,
                                  static_cast<uint32_t>(status.MPI_TAG), received_bytes(status, p->type),
                                  p->id),
          "MpiIrecv");
  }
  forget_request(p);
}

void Completion::not_complete(int index) {
  const MPI_Request handle = handles_[static_cast<size_t>(index)];
  const Pending* p = find_request(handle, where_ + index);
  if (p && p->id != 0)
    check(OTF2_EvtWriter_MpiRequestTest(events(), nullptr, now(), p->id), "MpiRequestTest");
}

Completion& completion() {
  static Completion c;
  return c;
}

}  // namespace kairo::mpitrace
