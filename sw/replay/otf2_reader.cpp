// Reads the OTF2 records Score-P writes for MPI (and kairo's tracer, mpitrace/,
// writes the same way): the global definitions (strings, regions, locations,
// the communicator groups and communicators, clock properties, attributes)
// and, per location, Enter/Leave of MPI regions, MpiSend, MpiIsend,
// MpiIsendComplete, MpiIrecvRequest, MpiIrecv, MpiRecv, MpiRequestCancelled,
// MpiCollectiveEnd. Everything else is skipped. docs/traces.md lists them.
#include <fmt/format.h>
#include <otf2/otf2.h>
#include <sys/stat.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <set>
#include <unordered_map>
#include <vector>

#include "sw/replay/trace.h"

namespace kairo::replay {
namespace {

// The MPI calls the replay knows: those it replays, and those that move
// nothing between ranks (replayed as their compute gap). Any other MPI call
// is an unknown one (Trace::unknown_calls).
const std::set<std::string>& known_calls() {
  static const std::set<std::string> s = {"MPI_Init",
                                          "MPI_Init_thread",
                                          "MPI_Finalize",
                                          "MPI_Comm_rank",
                                          "MPI_Comm_size",
                                          "MPI_Wtime",
                                          "MPI_Wtick",
                                          "MPI_Get_count",
                                          "MPI_Initialized",
                                          "MPI_Finalized",
                                          "MPI_Abort",
                                          "MPI_Get_processor_name",
                                          "MPI_Comm_group",
                                          "MPI_Group_incl",
                                          "MPI_Group_excl",
                                          "MPI_Group_free",
                                          "MPI_Group_rank",
                                          "MPI_Group_size",
                                          "MPI_Group_translate_ranks",
                                          "MPI_Comm_free",
                                          "MPI_Comm_set_name",
                                          "MPI_Comm_get_name",
                                          "MPI_Request_free",
                                          "MPI_Cancel",
                                          "MPI_Query_thread",
                                          "MPI_Get_version",
                                          "MPI_Pcontrol",
                                          "MPI_Op_create",
                                          "MPI_Op_free",
                                          "MPI_Probe",
                                          "MPI_Iprobe",
                                          "MPI_Comm_compare",
                                          "MPI_Errhandler_set",
                                          "MPI_Comm_set_errhandler",
                                          "MPI_Comm_get_attr",
                                          "MPI_Attr_get",
                                          "MPI_Comm_test_inter",
                                          "MPI_Dims_create",
                                          "MPI_Cart_coords",
                                          "MPI_Cart_rank",
                                          "MPI_Cart_shift",
                                          "MPI_Cart_get",
                                          "MPI_Cartdim_get",
                                          "MPI_Topo_test",
                                          "MPI_Status_set_elements",
                                          "MPI_Buffer_attach",
                                          "MPI_Buffer_detach",
                                          "MPI_Address",
                                          "MPI_Get_address",
                                          "MPI_Error_string",
                                          "MPI_Error_class",
                                          "MPI_Waitall",
                                          "MPI_Wait",
                                          "MPI_Waitany",
                                          "MPI_Waitsome",
                                          "MPI_Test",
                                          "MPI_Testall",
                                          "MPI_Testany",
                                          "MPI_Testsome",
                                          "MPI_Send",
                                          "MPI_Ssend",
                                          "MPI_Bsend",
                                          "MPI_Rsend",
                                          "MPI_Isend",
                                          "MPI_Issend",
                                          "MPI_Ibsend",
                                          "MPI_Irsend",
                                          "MPI_Recv",
                                          "MPI_Irecv",
                                          "MPI_Sendrecv",
                                          "MPI_Sendrecv_replace",
                                          "MPI_Barrier",
                                          "MPI_Bcast",
                                          "MPI_Reduce",
                                          "MPI_Allreduce",
                                          "MPI_Gather",
                                          "MPI_Gatherv",
                                          "MPI_Scatter",
                                          "MPI_Scatterv",
                                          "MPI_Allgather",
                                          "MPI_Allgatherv",
                                          "MPI_Alltoall",
                                          "MPI_Alltoallv",
                                          "MPI_Alltoallw",
                                          "MPI_Reduce_scatter",
                                          "MPI_Reduce_scatter_block",
                                          "MPI_Scan",
                                          "MPI_Exscan",
                                          "MPI_Comm_split",
                                          "MPI_Comm_dup",
                                          "MPI_Comm_create",
                                          "MPI_Comm_split_type",
                                          "MPI_Cart_create",
                                          "MPI_Cart_sub",
                                          "MPI_Comm_dup_with_info",
                                          "MPI_Comm_idup"};
  return s;
}

struct Region {
  std::string name;
  bool mpi = false;
};
struct Group {
  OTF2_GroupType type = OTF2_GROUP_TYPE_UNKNOWN;
  OTF2_Paradigm paradigm = OTF2_PARADIGM_UNKNOWN;
  std::vector<std::uint64_t> members;
};
struct CommDef {
  std::string name;
  OTF2_GroupRef group = 0;
};

// One location's events as they are read.
struct Loc {
  int rank = 0;
  int depth = 0;          // nesting of MPI regions (only the outermost is a call)
  bool sendrecv = false;  // the call is MPI_Sendrecv(_replace): its records are buffered
  bool has_call = false;
  bool unknown = false;  // the call is not one the replay knows
  std::string unknown_name;
  std::uint64_t last_leave = 0, first_leave = 0, last_enter = 0;
  std::vector<Action> buffered;  // a sendrecv's send and receive
  struct OpenReceive {
    std::size_t action = 0;  // its kRecv action
    bool posted = false;     // the envelope as posted is known (kairo's tracer's attributes)
  };
  std::unordered_map<std::uint64_t, OpenReceive> irecvs;  // by request id
};

struct Reader {
  Trace t;
  std::string error;    // libotf2's last complaint
  std::string problem;  // what a callback found wrong (the first)
  std::unordered_map<std::uint64_t, std::string> strings;
  std::unordered_map<std::uint32_t, Region> regions;
  std::unordered_map<std::uint32_t, std::uint16_t> region_call;  // region -> call_names index
  std::unordered_map<std::uint32_t, Group> groups;
  std::map<std::uint32_t, CommDef> comm_defs;
  std::unordered_map<std::uint32_t, std::uint32_t> comm_index;  // OTF2 comm -> Trace::comms index
  std::vector<std::uint64_t> locations;
  std::unordered_map<std::uint64_t, int> rank_of_location;
  std::uint64_t resolution = 1000000000;
  OTF2_AttributeRef posted_source = OTF2_UNDEFINED_ATTRIBUTE, posted_tag = OTF2_UNDEFINED_ATTRIBUTE,
                    posted_comm = OTF2_UNDEFINED_ATTRIBUTE;
  std::vector<Loc> locs;
  std::uint64_t synthetic = 0;

  [[noreturn]] void fail(const std::string& what) const { throw TraceError(t.path + ": " + what); }
  std::uint64_t ns(std::uint64_t ticks) const {
    return resolution == 1000000000 ? ticks : std::uint64_t(double(ticks) * 1e9 / double(resolution) + 0.5);
  }
  std::uint32_t comm(std::uint32_t ref, const Loc& l) const {
    auto it = comm_index.find(ref);
    if (it == comm_index.end())
      fail("rank " + std::to_string(l.rank) + ": a record names communicator " + std::to_string(ref) +
           ", which the definitions lack");
    return it->second;
  }
  int world(std::uint32_t comm, std::uint32_t rank_in_comm, const Loc& l) const {
    const Comm& c = t.comms[comm];
    if (c.self) return l.rank;
    if (rank_in_comm >= c.members.size())
      fail("rank " + std::to_string(l.rank) + ": a record names rank " + std::to_string(rank_in_comm) +
           " of communicator " + c.name + ", which has " + std::to_string(c.members.size()));
    return c.members[rank_in_comm];
  }
  void emit(Loc& l, const Action& a) {
    if (l.sendrecv && (a.act == Act::kSend || a.act == Act::kRecv))
      l.buffered.push_back(a);
    else
      t.actions[std::size_t(l.rank)].push_back(a);
  }
  static bool posted(const OTF2_AttributeList* list, OTF2_AttributeRef ref, std::int32_t* v) {
    OTF2_Type type;
    OTF2_AttributeValue value;
    if (!list || ref == OTF2_UNDEFINED_ATTRIBUTE ||
        OTF2_AttributeList_GetAttributeByID(list, ref, &type, &value) != OTF2_SUCCESS)
      return false;
    if (type == OTF2_TYPE_INT32)
      *v = value.int32;
    else if (type == OTF2_TYPE_COMM)
      *v = std::int32_t(value.commRef);
    else
      return false;
    return true;
  }
};

Reader* self(void* p) { return static_cast<Reader*>(p); }
Loc& loc(void* p, OTF2_LocationRef l) {
  Reader& r = *self(p);
  auto it = r.rank_of_location.find(l);
  if (it == r.rank_of_location.end()) r.fail("events of an undefined location " + std::to_string(l));
  return r.locs[std::size_t(it->second)];
}
// A callback's failure goes back through libotf2 (C, which an exception must
// not cross) as an interruption; read_otf2 then throws it.
template <class F>
OTF2_CallbackCode guarded(void* u, F body) {
  try {
    body();
    return OTF2_CALLBACK_SUCCESS;
  } catch (const std::exception& e) {
    if (self(u)->problem.empty()) self(u)->problem = e.what();
    return OTF2_CALLBACK_INTERRUPT;
  }
}

OTF2_ErrorCode on_error(void* user, const char*, uint64_t, const char*, OTF2_ErrorCode code, const char* fmt,
                        va_list va) {
  char buf[512];
  std::vsnprintf(buf, sizeof buf, fmt, va);
  *static_cast<std::string*>(user) =
      std::string(OTF2_Error_GetDescription(code)) + (buf[0] ? ": " : "") + buf;
  return code;
}

// ---- global definitions ----
OTF2_CallbackCode def_string(void* u, OTF2_StringRef ref, const char* s) {
  return guarded(u, [&] { self(u)->strings[ref] = s ? s : ""; });
}
OTF2_CallbackCode def_clock(void* u, uint64_t resolution, uint64_t, uint64_t, uint64_t) {
  return guarded(u, [&] {
    if (resolution == 0) self(u)->fail("clock properties give a timer resolution of 0");
    self(u)->resolution = resolution;
  });
}
OTF2_CallbackCode def_location(void* u, OTF2_LocationRef ref, OTF2_StringRef, OTF2_LocationType, uint64_t,
                               OTF2_LocationGroupRef) {
  return guarded(u, [&] { self(u)->locations.push_back(ref); });
}
OTF2_CallbackCode def_region(void* u, OTF2_RegionRef ref, OTF2_StringRef name, OTF2_StringRef, OTF2_StringRef,
                             OTF2_RegionRole, OTF2_Paradigm paradigm, OTF2_RegionFlag, OTF2_StringRef,
                             uint32_t, uint32_t) {
  return guarded(u, [&] {
    Region& g = self(u)->regions[ref];
    g.name = self(u)->strings[name];
    g.mpi = paradigm == OTF2_PARADIGM_MPI || g.name.rfind("MPI_", 0) == 0;
  });
}
OTF2_CallbackCode def_group(void* u, OTF2_GroupRef ref, OTF2_StringRef, OTF2_GroupType type,
                            OTF2_Paradigm paradigm, OTF2_GroupFlag, uint32_t n, const uint64_t* members) {
  return guarded(u, [&] {
    self(u)->groups[ref] = Group{type, paradigm, std::vector<std::uint64_t>(members, members + n)};
  });
}
OTF2_CallbackCode def_comm(void* u, OTF2_CommRef ref, OTF2_StringRef name, OTF2_GroupRef group, OTF2_CommRef,
                           OTF2_CommFlag) {
  return guarded(u, [&] { self(u)->comm_defs[ref] = CommDef{self(u)->strings[name], group}; });
}
OTF2_CallbackCode def_attribute(void* u, OTF2_AttributeRef ref, OTF2_StringRef name, OTF2_StringRef,
                                OTF2_Type) {
  return guarded(u, [&] {
    const std::string& n = self(u)->strings[name];
    if (n == "kairo::posted_source") self(u)->posted_source = ref;
    if (n == "kairo::posted_tag") self(u)->posted_tag = ref;
    if (n == "kairo::posted_comm") self(u)->posted_comm = ref;
  });
}

// ---- events ----
OTF2_CallbackCode ev_enter(OTF2_LocationRef l, OTF2_TimeStamp time, uint64_t, void* u, OTF2_AttributeList*,
                           OTF2_RegionRef region) {
  return guarded(u, [&] {
    Reader& r = *self(u);
    auto it = r.regions.find(region);
    if (it == r.regions.end()) r.fail("an Enter names an undefined region " + std::to_string(region));
    if (!it->second.mpi) return;
    Loc& s = loc(u, l);
    if (s.depth++ > 0) return;
    auto c = r.region_call.find(region);
    if (c == r.region_call.end()) {
      if (r.t.call_names.size() >= 65535) r.fail("more than 65,535 distinct MPI regions");
      c = r.region_call.emplace(region, std::uint16_t(r.t.call_names.size())).first;
      r.t.call_names.push_back(it->second.name);
    }
    const std::string& name = it->second.name;
    s.sendrecv = name == "MPI_Sendrecv" || name == "MPI_Sendrecv_replace";
    s.unknown = !known_calls().count(name);
    if (s.unknown) s.unknown_name = name;
    const std::uint64_t now = r.ns(time);
    Action a;
    a.act = Act::kCall;
    a.call = c->second;
    a.bytes = s.has_call && now > s.last_leave ? now - s.last_leave : 0;
    r.t.actions[std::size_t(s.rank)].push_back(a);
    s.last_enter = now;
  });
}

OTF2_CallbackCode ev_leave(OTF2_LocationRef l, OTF2_TimeStamp time, uint64_t, void* u, OTF2_AttributeList*,
                           OTF2_RegionRef region) {
  return guarded(u, [&] {
    Reader& r = *self(u);
    auto it = r.regions.find(region);
    if (it == r.regions.end() || !it->second.mpi) return;
    Loc& s = loc(u, l);
    if (s.depth == 0)
      r.fail("rank " + std::to_string(s.rank) + ": a Leave of " + it->second.name + " without its Enter");
    if (--s.depth > 0) return;
    std::vector<Action>& out = r.t.actions[std::size_t(s.rank)];
    if (s.sendrecv) {  // as MPI does it: post the receive, start the send, then wait for both
      s.sendrecv = false;
      std::vector<std::uint64_t> ids;
      for (int pass = 0; pass < 2; ++pass)
        for (Action a : s.buffered)
          if ((pass == 0) == (a.act == Act::kRecv)) {
            a.request = (std::uint64_t(1) << 63) | ++r.synthetic;
            ids.push_back(a.request);
            out.push_back(a);
          }
      for (std::uint64_t id : ids) out.push_back(Action{Act::kComplete, 0, 0, 0, 0, 0, id});
      s.buffered.clear();
    }
    if (s.unknown) ++r.t.unknown_calls[s.unknown_name];
    out.push_back(Action{Act::kEnd});
    const std::uint64_t now = r.ns(time);
    if (!s.has_call) s.first_leave = now;
    s.has_call = true;
    s.last_leave = now;
  });
}

OTF2_CallbackCode ev_send(OTF2_LocationRef l, OTF2_TimeStamp, uint64_t, void* u, OTF2_AttributeList*,
                          uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t length) {
  return guarded(u, [&] {
    Reader& r = *self(u);
    Loc& s = loc(u, l);
    const std::uint32_t c = r.comm(comm, s);
    r.emit(s, Action{Act::kSend, 0, r.world(c, receiver, s), std::int32_t(tag), c, length, 0});
  });
}

OTF2_CallbackCode ev_isend(OTF2_LocationRef l, OTF2_TimeStamp, uint64_t, void* u, OTF2_AttributeList*,
                           uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t length,
                           uint64_t request) {
  return guarded(u, [&] {
    Reader& r = *self(u);
    Loc& s = loc(u, l);
    const std::uint32_t c = r.comm(comm, s);
    r.emit(s, Action{Act::kSend, 0, r.world(c, receiver, s), std::int32_t(tag), c, length, request});
  });
}

OTF2_CallbackCode ev_complete(OTF2_LocationRef l, OTF2_TimeStamp, uint64_t, void* u, OTF2_AttributeList*,
                              uint64_t request) {
  return guarded(u, [&] {
    Loc& s = loc(u, l);
    self(u)->emit(s, Action{Act::kComplete, 0, 0, 0, 0, 0, request});
  });
}

// A receive as posted: the kairo tracer's attributes give the source, tag
// and communicator as the program passed them (wildcards included). False
// without them (a Score-P trace): the receive then matches the envelope it
// matched when traced, from its completion record.
bool posted_envelope(Reader& r, Loc& s, const OTF2_AttributeList* list, Action& a) {
  std::int32_t src = 0, tag = 0, comm = 0;
  if (!Reader::posted(list, r.posted_source, &src) || !Reader::posted(list, r.posted_tag, &tag)) return false;
  if (Reader::posted(list, r.posted_comm, &comm)) a.comm = r.comm(std::uint32_t(comm), s);
  a.peer = src < 0 ? kAnySource : r.world(a.comm, std::uint32_t(src), s);
  a.tag = tag < 0 ? kAnyTag : tag;
  return true;
}

void post_receive(Reader& r, Loc& s, const OTF2_AttributeList* list, Action a) {
  const bool posted = posted_envelope(r, s, list, a);
  if (a.request) s.irecvs[a.request] = Loc::OpenReceive{r.t.actions[std::size_t(s.rank)].size(), posted};
  r.emit(s, a);
}

OTF2_CallbackCode ev_irecv_request(OTF2_LocationRef l, OTF2_TimeStamp, uint64_t, void* u,
                                   OTF2_AttributeList* list, uint64_t request) {
  return guarded(u, [&] {
    Reader& r = *self(u);
    Loc& s = loc(u, l);
    if (s.sendrecv) r.fail("rank " + std::to_string(s.rank) + ": an MpiIrecvRequest inside MPI_Sendrecv");
    post_receive(r, s, list, Action{Act::kRecv, 0, 0, 0, 0, 0, request});
  });
}

OTF2_CallbackCode ev_irecv(OTF2_LocationRef l, OTF2_TimeStamp, uint64_t, void* u, OTF2_AttributeList*,
                           uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t, uint64_t request) {
  return guarded(u, [&] {
    Reader& r = *self(u);
    Loc& s = loc(u, l);
    auto it = s.irecvs.find(request);
    if (it == s.irecvs.end())
      r.fail("rank " + std::to_string(s.rank) + ": an MpiIrecv completes request " + std::to_string(request) +
             ", which no MpiIrecvRequest started");
    if (!it->second.posted) {  // the envelope it matched
      Action& a = r.t.actions[std::size_t(s.rank)][it->second.action];
      a.comm = r.comm(comm, s);
      a.peer = r.world(a.comm, sender, s);
      a.tag = std::int32_t(tag);
    }
    s.irecvs.erase(it);
    r.emit(s, Action{Act::kComplete, 0, 0, 0, 0, 0, request});
  });
}

OTF2_CallbackCode ev_recv(OTF2_LocationRef l, OTF2_TimeStamp, uint64_t, void* u, OTF2_AttributeList* list,
                          uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t) {
  return guarded(u, [&] {
    Reader& r = *self(u);
    Loc& s = loc(u, l);
    Action a{Act::kRecv, 0, 0, 0, r.comm(comm, s), 0, 0};
    if (!posted_envelope(r, s, list, a)) {  // the envelope it matched
      a.peer = r.world(a.comm, sender, s);
      a.tag = std::int32_t(tag);
    }
    r.emit(s, a);
  });
}

OTF2_CallbackCode ev_cancelled(OTF2_LocationRef l, OTF2_TimeStamp, uint64_t, void* u, OTF2_AttributeList*,
                               uint64_t request) {
  return guarded(u, [&] {
    Reader& r = *self(u);
    Loc& s = loc(u, l);
    auto it = s.irecvs.find(request);
    if (it != s.irecvs.end()) {
      r.t.actions[std::size_t(s.rank)][it->second.action].act = Act::kSkip;
      s.irecvs.erase(it);
    }
  });
}

CollOp coll_op(OTF2_CollectiveOp op, bool* vector) {
  *vector = false;
  switch (op) {
    case OTF2_COLLECTIVE_OP_BARRIER:
      return CollOp::kBarrier;
    case OTF2_COLLECTIVE_OP_BCAST:
      return CollOp::kBcast;
    case OTF2_COLLECTIVE_OP_GATHERV:
      *vector = true;
      return CollOp::kGather;
    case OTF2_COLLECTIVE_OP_GATHER:
      return CollOp::kGather;
    case OTF2_COLLECTIVE_OP_SCATTERV:
      *vector = true;
      return CollOp::kScatter;
    case OTF2_COLLECTIVE_OP_SCATTER:
      return CollOp::kScatter;
    case OTF2_COLLECTIVE_OP_ALLGATHERV:
      *vector = true;
      return CollOp::kAllgather;
    case OTF2_COLLECTIVE_OP_ALLGATHER:
      return CollOp::kAllgather;
    case OTF2_COLLECTIVE_OP_ALLTOALLV:
    case OTF2_COLLECTIVE_OP_ALLTOALLW:
      *vector = true;
      return CollOp::kAlltoall;
    case OTF2_COLLECTIVE_OP_ALLTOALL:
      return CollOp::kAlltoall;
    case OTF2_COLLECTIVE_OP_ALLREDUCE:
      return CollOp::kAllreduce;
    case OTF2_COLLECTIVE_OP_REDUCE:
      return CollOp::kReduce;
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER:
      *vector = true;
      return CollOp::kReduceScatter;
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK:
      return CollOp::kReduceScatter;
    case OTF2_COLLECTIVE_OP_SCAN:
    case OTF2_COLLECTIVE_OP_EXSCAN:
      return CollOp::kScan;
    case OTF2_COLLECTIVE_OP_CREATE_HANDLE:
    case OTF2_COLLECTIVE_OP_CREATE_HANDLE_AND_ALLOCATE:
      return CollOp::kCreateHandle;
    default:
      return CollOp::kOther;
  }
}

OTF2_CallbackCode ev_coll_end(OTF2_LocationRef l, OTF2_TimeStamp, uint64_t, void* u, OTF2_AttributeList*,
                              OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root, uint64_t sent,
                              uint64_t received) {
  return guarded(u, [&] {
    Reader& r = *self(u);
    Loc& s = loc(u, l);
    Collective c;
    c.op = coll_op(op, &c.vector);
    c.comm = r.comm(comm, s);
    c.root = root >= OTF2_UNDEFINED_UINT32 - 2 ? -1 : std::int32_t(root);
    c.sent = sent;
    c.received = received;
    auto& list = r.t.collectives[std::size_t(s.rank)];
    r.emit(s, Action{Act::kCollective, 0, 0, 0, c.comm, list.size(), 0});
    list.push_back(c);
  });
}

struct ReaderHandle {
  OTF2_Reader* p = nullptr;
  ~ReaderHandle() {
    if (p) OTF2_Reader_Close(p);
  }
};

void check(const Reader& r, OTF2_ErrorCode code, const char* doing) {
  if (!r.problem.empty()) throw TraceError(r.problem);
  if (code != OTF2_SUCCESS)
    r.fail(std::string(doing) + ": " + (r.error.empty() ? OTF2_Error_GetDescription(code) : r.error) +
           " (a truncated or corrupt archive?)");
}

void read_definitions(Reader& r, OTF2_Reader* rd) {
  OTF2_GlobalDefReader* gdr = OTF2_Reader_GetGlobalDefReader(rd);
  if (!gdr) r.fail("cannot read the global definitions: " + r.error + " (a truncated or corrupt archive?)");
  OTF2_GlobalDefReaderCallbacks* cb = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, def_string);
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, def_clock);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, def_location);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, def_region);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, def_group);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, def_comm);
  OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(cb, def_attribute);
  OTF2_Reader_RegisterGlobalDefCallbacks(rd, gdr, cb, &r);
  OTF2_GlobalDefReaderCallbacks_Delete(cb);
  std::uint64_t n = 0;
  check(r, OTF2_Reader_ReadAllGlobalDefinitions(rd, gdr, &n), "reading the global definitions");
  OTF2_Reader_CloseGlobalDefReader(rd, gdr);

  // Rank i is member i of the MPI COMM_LOCATIONS group (Score-P's layout);
  // without one, the locations in the order they are defined.
  std::vector<std::uint64_t> order = r.locations;
  for (const auto& [ref, g] : r.groups)
    if (g.type == OTF2_GROUP_TYPE_COMM_LOCATIONS && g.paradigm == OTF2_PARADIGM_MPI) order = g.members;
  if (order.empty()) r.fail("no locations: not an MPI trace");
  r.t.ranks = int(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) r.rank_of_location[order[i]] = int(i);
  for (const auto& [ref, d] : r.comm_defs) {
    auto g = r.groups.find(d.group);
    if (g == r.groups.end()) r.fail("communicator " + d.name + " names an undefined group");
    Comm c;
    c.name = d.name.empty() ? "comm " + std::to_string(ref) : d.name;
    c.self = g->second.type == OTF2_GROUP_TYPE_COMM_SELF;
    for (std::uint64_t m : g->second.members) {
      if (m >= std::uint64_t(r.t.ranks)) r.fail("communicator " + c.name + " has a member outside the ranks");
      c.members.push_back(int(m));
    }
    r.comm_index[ref] = std::uint32_t(r.t.comms.size());
    r.t.comms.push_back(std::move(c));
  }
}

void read_properties(Reader& r, OTF2_Reader* rd) {
  auto prop = [&](const char* name) -> std::string {
    char* v = nullptr;
    if (OTF2_Reader_GetProperty(rd, name, &v) != OTF2_SUCCESS || !v) return {};
    std::string s(v);
    free(v);
    return s;
  };
  if (std::string c = prop("KAIRO::CLOCK"); !c.empty()) r.t.clock = c;
  if (std::string w = prop("KAIRO::WALL_NS"); !w.empty()) r.t.wall_ns = std::strtoull(w.c_str(), nullptr, 10);
}

}  // namespace

const char* coll_name(CollOp op) {
  static const char* const names[] = {"barrier",        "bcast",    "gather",      "scatter",
                                      "allgather",      "alltoall", "allreduce",   "reduce",
                                      "reduce_scatter", "scan",     "comm_create", "other"};
  return names[int(op)];
}

namespace {

// The anchor file's counts, checked before libotf2 reads it: libotf2 takes
// them as they are (a corrupt property count makes it allocate 2 x count
// pointers, wrapping at 2^32: 17 GB from a 144-byte file). The layout is
// OTF2's anchor format 3 (OTF2_AnchorFile.c): a chunk header byte (3), the
// endianness (0x42 little, 0x23 big), "OTF2\0", the format, the trace
// format and version (4 bytes), the event and definition chunk sizes (8 each),
// substrate and compression (1 each), locations and global definitions (8
// each), three NUL-terminated strings, and the number of properties (4), each
// property two strings. A file that does not follow it is left to libotf2,
// which refuses it; only counts that parse are checked here.
std::string anchor_problem(const std::string& path, std::uint64_t file_bytes) {
  constexpr std::uint64_t kMaxAnchorBytes = 1 << 20;  // anchors are a few hundred bytes
  if (file_bytes > kMaxAnchorBytes)
    return fmt::format("an OTF2 anchor file is a few hundred bytes; this one is {} (at most {} read)",
                       file_bytes, kMaxAnchorBytes);
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return {};  // libotf2 says why
  std::vector<unsigned char> b(file_bytes);
  const std::size_t got = std::fread(b.data(), 1, b.size(), f);
  std::fclose(f);
  b.resize(got);
  std::size_t at = 0;
  if (b.size() < 7 || b[0] != 3 || (b[1] != 0x42 && b[1] != 0x23) || std::memcmp(&b[2], "OTF2", 5) != 0)
    return {};
  const bool little = b[1] == 0x42;
  at = 7;
  auto number = [&](int bytes, std::uint64_t& v) {
    if (at + std::size_t(bytes) > b.size()) return false;
    v = 0;
    for (int k = 0; k < bytes; ++k)
      v |= std::uint64_t(b[at + std::size_t(little ? k : bytes - 1 - k)]) << (8 * k);
    at += std::size_t(bytes);
    return true;
  };
  std::uint64_t format = 0, skip = 0, chunk_events = 0, chunk_defs = 0, locations = 0, properties = 0;
  if (!number(1, format) || !number(4, skip) || !number(8, chunk_events) || !number(8, chunk_defs) ||
      !number(2, skip) || !number(8, locations) || !number(8, skip))
    return {};
  for (std::uint64_t c : {chunk_events, chunk_defs})
    if (c < OTF2_CHUNK_SIZE_MIN || c > OTF2_CHUNK_SIZE_MAX)
      return fmt::format("malformed anchor file: a chunk size of {} bytes (OTF2 writes {} to {})", c,
                         OTF2_CHUNK_SIZE_MIN, OTF2_CHUNK_SIZE_MAX);
  constexpr std::uint64_t kMaxLocations = 1 << 24;
  if (locations > kMaxLocations)
    return fmt::format("malformed anchor file: {} locations (kairo replays at most {})", locations,
                       kMaxLocations);
  if (format < 2) return {};     // no properties before anchor format 2
  for (int s = 0; s < 3; ++s) {  // machine, creator, description
    while (at < b.size() && b[at] != 0) ++at;
    if (at++ >= b.size()) return {};
  }
  if (!number(4, properties)) return {};
  const std::uint64_t left = b.size() - at;
  if (properties > left / 2)
    return fmt::format("malformed anchor file: {} properties cannot fit in its last {} bytes", properties,
                       left);
  return {};
}

}  // namespace

Trace read_otf2(const std::string& anchor) {
  Reader r;
  r.t.path = anchor;
  struct stat st {};
  if (stat(anchor.c_str(), &st) != 0) r.fail("no such file (expected an OTF2 anchor file, DIR/traces.otf2)");
  if (!S_ISREG(st.st_mode)) r.fail("not a file (expected an OTF2 anchor file, DIR/traces.otf2)");
  if (std::string why = anchor_problem(anchor, std::uint64_t(st.st_size)); !why.empty()) r.fail(why);
  OTF2_ErrorCallback before = OTF2_Error_RegisterCallback(on_error, &r.error);
  struct Restore {
    OTF2_ErrorCallback cb;
    ~Restore() { OTF2_Error_RegisterCallback(cb, nullptr); }
  } restore{before};
  ReaderHandle rd;
  rd.p = OTF2_Reader_Open(anchor.c_str());
  if (!rd.p) r.fail("not an OTF2 archive: " + r.error);
  check(r, OTF2_Reader_SetSerialCollectiveCallbacks(rd.p), "opening");
  read_definitions(r, rd.p);
  read_properties(r, rd.p);
  r.t.actions.resize(std::size_t(r.t.ranks));
  r.t.collectives.resize(std::size_t(r.t.ranks));
  r.t.recorded_ns.assign(std::size_t(r.t.ranks), 0);
  r.locs.resize(std::size_t(r.t.ranks));
  for (int i = 0; i < r.t.ranks; ++i) r.locs[std::size_t(i)].rank = i;

  std::vector<std::uint64_t> locs(std::size_t(r.t.ranks));
  for (const auto& [l, rank] : r.rank_of_location) {
    locs[std::size_t(rank)] = l;
    check(r, OTF2_Reader_SelectLocation(rd.p, l), "selecting the locations");
  }
  check(r, OTF2_Reader_OpenDefFiles(rd.p), "opening the local definitions");
  for (std::uint64_t l : locs) {  // the mapping tables (local to global ids), if any
    if (OTF2_DefReader* d = OTF2_Reader_GetDefReader(rd.p, l)) {
      std::uint64_t n = 0;
      OTF2_Reader_ReadAllLocalDefinitions(rd.p, d, &n);
      OTF2_Reader_CloseDefReader(rd.p, d);
    }
  }
  OTF2_Reader_CloseDefFiles(rd.p);
  check(r, OTF2_Reader_OpenEvtFiles(rd.p), "opening the event files");
  OTF2_EvtReaderCallbacks* cb = OTF2_EvtReaderCallbacks_New();
  OTF2_EvtReaderCallbacks_SetEnterCallback(cb, ev_enter);
  OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, ev_leave);
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, ev_send);
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, ev_isend);
  OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, ev_complete);
  OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, ev_irecv_request);
  OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, ev_irecv);
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, ev_recv);
  OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, ev_cancelled);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, ev_coll_end);
  for (std::size_t i = 0; i < locs.size(); ++i) {
    OTF2_EvtReader* ev = OTF2_Reader_GetEvtReader(rd.p, locs[i]);
    if (!ev) r.fail("no events for rank " + std::to_string(i) + ": " + r.error);
    OTF2_Reader_RegisterEvtCallbacks(rd.p, ev, cb, &r);
    std::uint64_t n = 0;
    const OTF2_ErrorCode code = OTF2_Reader_ReadAllLocalEvents(rd.p, ev, &n);
    if (code != OTF2_SUCCESS) {
      OTF2_EvtReaderCallbacks_Delete(cb);
      check(r, code, ("reading the events of rank " + std::to_string(i)).c_str());
    }
    OTF2_Reader_CloseEvtReader(rd.p, ev);
    Loc& s = r.locs[i];
    if (s.depth != 0)
      r.fail("rank " + std::to_string(i) + "'s events end inside an MPI call (a truncated trace?)");
    for (const auto& [req, open] : s.irecvs) {  // never completed: left out
      r.t.actions[i][open.action].act = Act::kSkip;
      ++r.t.dropped_receives;
    }
    r.t.recorded_ns[i] = s.last_enter > s.first_leave ? s.last_enter - s.first_leave : 0;
  }
  OTF2_EvtReaderCallbacks_Delete(cb);
  OTF2_Reader_CloseEvtFiles(rd.p);
  return std::move(r.t);
}

}  // namespace kairo::replay
