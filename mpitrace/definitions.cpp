// Global definitions laid out as Score-P lays them out, so that readers of
// Score-P traces read these too: one location per rank (location id = world
// rank), a COMM_LOCATIONS group of all ranks' locations, and a COMM_GROUP per
// distinct membership whose members are indices into that group (world
// ranks). Region ids are the Region enumerators, Comm ids those of comms.cpp.
#include "mpitrace/definitions.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

namespace kairo::mpitrace {
namespace {

struct RegionInfo {
  const char* name;
  OTF2_RegionRole role;
};
constexpr RegionInfo kRegions[] = {
#define REGION(name, role) {#name, OTF2_REGION_ROLE_##role},
#include "mpitrace/regions.def"
#undef REGION
};

// Writes each string once, the first time a definition refers to it.
class Strings {
 public:
  explicit Strings(OTF2_GlobalDefWriter* w) : writer_(w) {}
  OTF2_StringRef operator()(const std::string& s) {
    auto it = refs_.find(s);
    if (it != refs_.end()) return it->second;
    const OTF2_StringRef ref = static_cast<OTF2_StringRef>(refs_.size());
    refs_.emplace(s, ref);
    status = std::max(status, OTF2_GlobalDefWriter_WriteString(writer_, ref, s.c_str()));
    return ref;
  }
  OTF2_ErrorCode status = OTF2_SUCCESS;

 private:
  OTF2_GlobalDefWriter* writer_;
  std::map<std::string, OTF2_StringRef> refs_;
};

// Collects the first error of a sequence of writes.
struct Status {
  OTF2_ErrorCode code = OTF2_SUCCESS;
  void operator+=(OTF2_ErrorCode c) {
    if (code == OTF2_SUCCESS) code = c;
  }
};

void write_locations(OTF2_GlobalDefWriter* w, Strings& str, Status& st, const RunSummary& run) {
  const OTF2_SystemTreeNodeRef node = 0;
  st += OTF2_GlobalDefWriter_WriteSystemTreeNode(w, node, str("machine"), str("machine"),
                                                 OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  for (int r = 0; r < run.ranks; ++r) {
    const std::string name = "MPI Rank " + std::to_string(r);
    st += OTF2_GlobalDefWriter_WriteLocationGroup(w, static_cast<OTF2_LocationGroupRef>(r), str(name),
                                                  OTF2_LOCATION_GROUP_TYPE_PROCESS, node,
                                                  OTF2_UNDEFINED_LOCATION_GROUP);
    st += OTF2_GlobalDefWriter_WriteLocation(
        w, static_cast<OTF2_LocationRef>(r), str(name), OTF2_LOCATION_TYPE_CPU_THREAD,
        run.events[static_cast<size_t>(r)], static_cast<OTF2_LocationGroupRef>(r));
  }
}

void write_regions(OTF2_GlobalDefWriter* w, Strings& str, Status& st) {
  // Every region, in id order: dense ids read without otf2-print's "out of
  // order Region definition" warnings, and a region nobody entered costs one
  // definition.
  for (uint32_t r = 0; r < kRegionCount; ++r) {
    const OTF2_StringRef name = str(kRegions[r].name);
    st += OTF2_GlobalDefWriter_WriteRegion(w, r, name, name, str(""), kRegions[r].role, OTF2_PARADIGM_MPI,
                                           OTF2_REGION_FLAG_NONE, str(""), 0, 0);
  }
}

// Groups, then communicators. Group 0 holds the locations; then one group
// per membership, shared by every communicator with those members.
void write_comms(OTF2_GlobalDefWriter* w, Strings& str, Status& st, const RunSummary& run) {
  std::vector<uint64_t> world(static_cast<size_t>(run.ranks));
  for (int r = 0; r < run.ranks; ++r) world[static_cast<size_t>(r)] = static_cast<uint64_t>(r);
  st += OTF2_GlobalDefWriter_WriteGroup(w, 0, str(""), OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                        OTF2_GROUP_FLAG_NONE, static_cast<uint32_t>(world.size()),
                                        world.data());
  std::map<std::vector<uint64_t>, OTF2_GroupRef> groups;
  auto group_of = [&](const std::vector<uint64_t>& members) {
    auto it = groups.find(members);
    if (it != groups.end()) return it->second;
    const OTF2_GroupRef ref = static_cast<OTF2_GroupRef>(groups.size() + 1);
    groups.emplace(members, ref);
    st += OTF2_GlobalDefWriter_WriteGroup(w, ref, str(""), OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                          OTF2_GROUP_FLAG_NONE, static_cast<uint32_t>(members.size()),
                                          members.data());
    return ref;
  };
  const OTF2_GroupRef world_group = group_of(world);
  st += OTF2_GlobalDefWriter_WriteComm(w, kWorldComm, str("MPI_COMM_WORLD"), world_group, OTF2_UNDEFINED_COMM,
                                       OTF2_COMM_FLAG_NONE);
  if (run.self_used) {
    // As Score-P: MPI_COMM_SELF is one definition over a COMM_SELF group.
    const OTF2_GroupRef self = static_cast<OTF2_GroupRef>(groups.size() + 1);
    groups.emplace(std::vector<uint64_t>{UINT64_MAX}, self);  // a key no membership has
    st += OTF2_GlobalDefWriter_WriteGroup(w, self, str(""), OTF2_GROUP_TYPE_COMM_SELF, OTF2_PARADIGM_MPI,
                                          OTF2_GROUP_FLAG_NONE, 0, nullptr);
    st += OTF2_GlobalDefWriter_WriteComm(w, kSelfComm, str("MPI_COMM_SELF"), self, OTF2_UNDEFINED_COMM,
                                         OTF2_COMM_FLAG_NONE);
  }
  // Parents before children: a child's id can be smaller than its parent's
  // (another leader's counter), so order by depth, not by id.
  std::vector<CommRecord> comms = run.comms;
  std::map<uint32_t, const CommRecord*> by_id;
  for (const CommRecord& c : comms) by_id[c.id] = &c;
  auto depth = [&](const CommRecord& c) {
    int d = 0;
    for (auto it = by_id.find(c.parent); it != by_id.end(); it = by_id.find(it->second->parent)) ++d;
    return d;
  };
  std::vector<std::pair<int, const CommRecord*>> order;
  for (const CommRecord& c : comms) order.emplace_back(depth(c), &c);
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    return std::tie(a.first, a.second->id) < std::tie(b.first, b.second->id);
  });
  for (const auto& entry : order) {
    const CommRecord& c = *entry.second;
    const std::vector<uint64_t> members(c.members.begin(), c.members.end());
    const std::string name = std::string(c.creator < kRegionCount ? kRegions[c.creator].name : "comm") +
                             " #" + std::to_string(c.id);
    st += OTF2_GlobalDefWriter_WriteComm(w, c.id, str(name), group_of(members), c.parent,
                                         OTF2_COMM_FLAG_CREATE_DESTROY_EVENTS);
  }
}

}  // namespace

OTF2_ErrorCode write_definitions(OTF2_GlobalDefWriter* w, const RunSummary& run) {
  Status st;
  Strings str(w);
  st += OTF2_GlobalDefWriter_WriteClockProperties(w, 1000000000ull, 0, run.trace_length,
                                                  OTF2_UNDEFINED_TIMESTAMP);
  st += OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_MPI, str("MPI"), OTF2_PARADIGM_CLASS_PROCESS);
  write_locations(w, str, st, run);
  write_regions(w, str, st);
  write_comms(w, str, st, run);
  st += OTF2_GlobalDefWriter_WriteAttribute(w, kPostedSource, str("kairo::posted_source"),
                                            str("source rank of the receive as posted (-1: MPI_ANY_SOURCE)"),
                                            OTF2_TYPE_INT32);
  st += OTF2_GlobalDefWriter_WriteAttribute(w, kPostedTag, str("kairo::posted_tag"),
                                            str("tag of the receive as posted (-1: MPI_ANY_TAG)"),
                                            OTF2_TYPE_INT32);
  st += OTF2_GlobalDefWriter_WriteAttribute(w, kPostedComm, str("kairo::posted_comm"),
                                            str("communicator of the receive as posted"), OTF2_TYPE_COMM);
  st += str.status;
  return st.code;
}

}  // namespace kairo::mpitrace
