// Communicator ids. An id has to mean the same communicator on every rank
// that uses it, yet disjoint groups of ranks make communicators at the same
// time (the colours of one MPI_Comm_split) with no rank that sees them all.
// So the new communicator's own rank 0, its leader, names it from a counter
// of its own and broadcasts the id inside the new communicator:
//
//   id = 2 + leader's world rank + world size * (communicators it led before)
//
// Two leaders never produce the same id and one leader never repeats one, so
// no coordination beyond the new communicator is needed. Ids 0 and 1 are
// MPI_COMM_WORLD and MPI_COMM_SELF. Ids are therefore not dense: readers map
// them, as OTF2 allows. Only the leader keeps the member list; rank 0 gathers
// the lists at MPI_Finalize for the definitions.
#include "mpitrace/comms.h"

#include <utility>

namespace kairo::mpitrace {
namespace {

struct Known {
  MPI_Comm handle;
  uint32_t id;
};

int g_world_rank = 0;
int g_world_size = 1;
uint32_t g_led = 0;  // communicators this rank has led
bool g_self_used = false;
uint64_t g_unknown = 0;
std::vector<Known> g_known;         // few entries: a linear search is enough
std::vector<CommRecord> g_records;  // the communicators this rank leads

std::vector<uint32_t> world_ranks_of(MPI_Comm comm) {
  int size = 0;
  PMPI_Comm_size(comm, &size);
  MPI_Group group, world;
  PMPI_Comm_group(comm, &group);
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  std::vector<int> local(size), global(size);
  for (int i = 0; i < size; ++i) local[i] = i;
  PMPI_Group_translate_ranks(group, size, local.data(), world, global.data());
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
  return std::vector<uint32_t>(global.begin(), global.end());
}

}  // namespace

void comms_start(int world_rank, int world_size) {
  g_world_rank = world_rank;
  g_world_size = world_size;
}

uint32_t comm_id(MPI_Comm comm) {
  if (comm == MPI_COMM_WORLD) return kWorldComm;
  if (comm == MPI_COMM_SELF) {
    g_self_used = true;
    return kSelfComm;
  }
  for (const Known& k : g_known)
    if (k.handle == comm) return k.id;
  ++g_unknown;
  return OTF2_UNDEFINED_COMM;
}

uint32_t comm_register(MPI_Comm parent, MPI_Comm newcomm, Region creator) {
  int rank = 0;
  PMPI_Comm_rank(newcomm, &rank);
  uint32_t id = 0;
  if (rank == 0) {
    id = 2 + static_cast<uint32_t>(g_world_rank) + static_cast<uint32_t>(g_world_size) * g_led++;
    CommRecord record;
    record.id = id;
    record.parent = comm_id(parent);
    record.creator = static_cast<uint32_t>(creator);
    record.members = world_ranks_of(newcomm);
    g_records.push_back(std::move(record));
  }
  PMPI_Bcast(&id, 1, MPI_UINT32_T, 0, newcomm);
  g_known.push_back({newcomm, id});
  return id;
}

void comm_forget(MPI_Comm comm) {
  for (size_t i = 0; i < g_known.size(); ++i) {
    if (g_known[i].handle == comm) {
      g_known.erase(g_known.begin() + static_cast<long>(i));
      return;
    }
  }
}

bool comm_self_used() { return g_self_used; }
uint64_t comm_unknown_uses() { return g_unknown; }

std::vector<CommRecord> comms_gather() {
  // Flattened as (id, parent, creator, n, n members) per record.
  std::vector<uint32_t> mine;
  for (const CommRecord& r : g_records) {
    mine.insert(mine.end(), {r.id, r.parent, r.creator, static_cast<uint32_t>(r.members.size())});
    mine.insert(mine.end(), r.members.begin(), r.members.end());
  }
  int count = static_cast<int>(mine.size());
  std::vector<int> counts(g_world_rank == 0 ? g_world_size : 0), offsets(counts.size());
  PMPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    offsets[i] = total;
    total += counts[i];
  }
  std::vector<uint32_t> all(static_cast<size_t>(total));
  PMPI_Gatherv(mine.data(), count, MPI_UINT32_T, all.data(), counts.data(), offsets.data(), MPI_UINT32_T, 0,
               MPI_COMM_WORLD);
  std::vector<CommRecord> records;
  for (size_t at = 0; at + 4 <= all.size();) {
    CommRecord r;
    r.id = all[at];
    r.parent = all[at + 1];
    r.creator = all[at + 2];
    const uint32_t n = all[at + 3];
    r.members.assign(all.begin() + static_cast<long>(at) + 4, all.begin() + static_cast<long>(at + 4 + n));
    at += 4 + n;
    records.push_back(std::move(r));
  }
  return records;
}

}  // namespace kairo::mpitrace
