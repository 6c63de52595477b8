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

size_t slot_of(MPI_Request handle) {
  uintptr_t bits = 0;
  std::memcpy(&bits, &handle, sizeof(handle) < sizeof(bits) ? sizeof(handle) : sizeof(bits));
  return ((std::hash<uintptr_t>()(bits) * 0x9E3779B97F4A7C15ull) >> 7) & (g_table.size() - 1);
}

Pending* insert(const Pending& p);
Pending* find(MPI_Request handle);

void grow() {
  std::vector<Pending> old(g_table.size() * 2);
  old.swap(g_table);
  g_used = 0;
  for (const Pending& p : old)
    if (p.handle != MPI_REQUEST_NULL) insert(p);
}

Pending* insert(const Pending& p) {
  // A handle MPI reused after a completion the tracer did not see replaces
  // the stale entry.
  if (Pending* stale = find(p.handle)) {
    *stale = p;
    return stale;
  }
  if (2 * (g_used + 1) > g_table.size()) grow();
  size_t i = slot_of(p.handle);
  while (g_table[i].handle != MPI_REQUEST_NULL) i = (i + 1) & (g_table.size() - 1);
  g_table[i] = p;
  ++g_used;
  return &g_table[i];
}

}  // namespace

uint64_t track_send(MPI_Request handle) {
  Pending p;
  p.handle = handle;
  p.id = g_next_id++;
  return insert(p)->id;
}

uint64_t track_recv(MPI_Request handle, MPI_Datatype type, uint32_t comm) {
  Pending p;
  p.handle = handle;
  p.id = g_next_id++;
  p.receive = true;
  p.type = type;
  p.comm = comm;
  return insert(p)->id;
}

Pending* find_request(MPI_Request handle) { return find(handle); }

namespace {
Pending* find(MPI_Request handle) {
  if (handle == MPI_REQUEST_NULL) return nullptr;
  for (size_t i = slot_of(handle); g_table[i].handle != MPI_REQUEST_NULL; i = (i + 1) & (g_table.size() - 1))
    if (g_table[i].handle == handle) return &g_table[i];
  return nullptr;
}
}  // namespace

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
}

MPI_Status* Completion::statuses(int count, MPI_Status* user) {
  if (user != MPI_STATUS_IGNORE && user != MPI_STATUSES_IGNORE) return user;
  if (statuses_.size() < static_cast<size_t>(count)) statuses_.resize(static_cast<size_t>(count));
  return statuses_.data();
}

void Completion::complete(int index, const MPI_Status& status) {
  Pending* p = find_request(handles_[static_cast<size_t>(index)]);
  if (!p) return;
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
  if (const Pending* p = find_request(handle))
    check(OTF2_EvtWriter_MpiRequestTest(events(), nullptr, now(), p->id), "MpiRequestTest");
}

Completion& completion() {
  static Completion c;
  return c;
}

}  // namespace kairo::mpitrace
