// kairo's PMPI tracer: what the MPI wrappers share. The wrappers (wrap_*.cpp,
// fortran.c) call PMPI_* for the real work and write OTF2 events through the
// helpers here; tracer.cpp owns the archive, the clock and the run's start and
// end (MPI_Init, MPI_Finalize). mpitrace/README.md lists the records written.
//
// Not modeled: threads. The tracer keeps one event writer per process and no
// locks, so it supports MPI_THREAD_SINGLE and MPI_THREAD_FUNNELED only.
#pragma once

#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#include <otf2/otf2.h>

#include <cstdint>

namespace kairo::mpitrace {

enum class Region : uint32_t {
#define REGION(name, role) name,
#include "mpitrace/regions.def"
#undef REGION
  Count
};
constexpr uint32_t kRegionCount = static_cast<uint32_t>(Region::Count);

// The global attributes the replay reads next to Score-P's records.
enum Attribute : OTF2_AttributeRef { kPostedSource = 0, kPostedTag = 1, kPostedComm = 2 };

// True while events are recorded: from a traced MPI_Init's return to
// MPI_Finalize's start, and only while libotf2 has reported no error.
extern bool g_recording;
inline bool recording() { return g_recording; }

// Nanoseconds since the ranks' common start (MPI_Init), on the clock
// KAIRO_TRACE_CLOCK chose; never smaller than the previous call's value, so
// the events of a location are ordered.
uint64_t now();
OTF2_EvtWriter* events();
// The one attribute list of the process: filled just before an event and
// emptied by libotf2 when the event is written.
OTF2_AttributeList* attributes();
// Remembers the first libotf2 error and stops recording on this rank; the
// ranks agree on the outcome at MPI_Finalize.
void check(OTF2_ErrorCode code, const char* what);

inline void enter(Region r) {
  check(OTF2_EvtWriter_Enter(events(), nullptr, now(), static_cast<OTF2_RegionRef>(r)), "Enter");
}
inline void leave(Region r) {
  check(OTF2_EvtWriter_Leave(events(), nullptr, now(), static_cast<OTF2_RegionRef>(r)), "Leave");
}

// Enter on construction, Leave on destruction: a wrapper's records between.
class Call {
 public:
  explicit Call(Region r) : region_(r) { enter(r); }
  ~Call() {
    if (recording()) leave(region_);
  }
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;

 private:
  Region region_;
};

// The receive as the program posted it (MPI_ANY_SOURCE and MPI_ANY_TAG are
// -1): a wildcard receive's match is not the only one the replay may choose.
void add_posted(int source, int tag);

// Bytes of count elements of type (MPI_Type_size); 0 for MPI_DATATYPE_NULL.
uint64_t bytes_of(int count, MPI_Datatype type);
// Bytes a receive delivered, from its status.
uint64_t received_bytes(const MPI_Status& status, MPI_Datatype type);

// Point-to-point records written in the calls that start them.
void record_send(int dest, int tag, int count, MPI_Datatype type, MPI_Comm comm);
void record_recv(const MPI_Status& status, int source, int tag, MPI_Datatype type, MPI_Comm comm);

}  // namespace kairo::mpitrace
