// What a workload's programs record while they run (end times, phase logs,
// error flags), merged over the processes of a run split under mpirun
// (docs/parallel.md) so that process 0's outcome() sees what one
// process would have. A workload names each recorded member and how it
// merges in Workload::results(); every process's values start equal (the
// workload is built the same everywhere), and each process's ranks change
// only their own share.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/mpi_world.h"
#include "sw/collectives/executor.h"

namespace kairo::sw {

class Results {
 public:
  virtual ~Results() = default;
  // Times and counts that ranks only raise (max), element-wise; a slot no
  // rank of a process touched keeps its start, which is below any raise.
  virtual void latest(std::uint64_t& v) = 0;
  virtual void latest(std::vector<std::uint64_t>& v) = 0;
  // Times that ranks only lower (min), element-wise.
  virtual void earliest(std::vector<std::uint64_t>& v) = 0;
  // A flag every rank may clear (and).
  virtual void all(bool& v) = 0;
  // Phase ends (coll::PhaseLog::merge).
  virtual void phases(coll::PhaseLog& log) = 0;
  void phases(std::vector<coll::PhaseLog>& logs) {
    for (auto& l : logs) phases(l);
  }
};

class Workload;

// Process 0 merges every other process's results into its workload `w`;
// the others send theirs. A no-op in one process.
void gather_results(Workload& w, const sim::MpiWorld& world);

}  // namespace kairo::sw
