// The global definitions rank 0 writes at MPI_Finalize, from what every rank
// recorded (gathered by tracer.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "mpitrace/comms.h"

namespace kairo::mpitrace {

struct RunSummary {
  int ranks = 0;
  std::vector<uint64_t> events;  // per rank: its location's numberOfEvents
  uint64_t trace_length = 0;     // ns, the latest timestamp of any rank
  bool self_used = false;
  std::vector<CommRecord> comms;
};

OTF2_ErrorCode write_definitions(OTF2_GlobalDefWriter* writer, const RunSummary& run);

}  // namespace kairo::mpitrace
