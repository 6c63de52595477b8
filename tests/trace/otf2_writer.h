// Writes small OTF2 archives for the replay's tests, with libotf2's writer:
// the records and definitions Score-P writes for MPI (one location per rank,
// an MPI COMM_LOCATIONS group, MPI_COMM_WORLD as communicator 0), so a test
// states exactly what each rank did and when. With `posted_envelopes` false
// the receives carry no kairo::posted_* attributes, as in a Score-P trace.
#pragma once
#include <otf2/otf2.h>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace kairo::test {

class Otf2Writer {
 public:
  static constexpr OTF2_CommRef kWorld = 0;

  Otf2Writer(const std::string& dir, int ranks, bool posted_envelopes = true)
      : ranks_(ranks), posted_envelopes_(posted_envelopes) {
    archive_ = OTF2_Archive_Open(dir.c_str(), "traces", OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20,
                                 OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!archive_) throw std::runtime_error("cannot open an OTF2 archive in " + dir);
    OTF2_Archive_SetFlushCallbacks(archive_, &kFlush, nullptr);
    OTF2_Archive_SetSerialCollectiveCallbacks(archive_);
    OTF2_Archive_OpenEvtFiles(archive_);
    for (int r = 0; r < ranks; ++r)
      writers_.push_back(OTF2_Archive_GetEvtWriter(archive_, OTF2_LocationRef(r)));
    attrs_ = OTF2_AttributeList_New();
  }
  ~Otf2Writer() {
    if (archive_) close();
  }

  void enter(int rank, std::uint64_t t, const std::string& region) {
    OTF2_EvtWriter_Enter(w(rank), nullptr, t, region_ref(region));
  }
  void leave(int rank, std::uint64_t t, const std::string& region) {
    OTF2_EvtWriter_Leave(w(rank), nullptr, t, region_ref(region));
  }
  // A whole blocking call: Enter at t, the record, Leave at t + 1.
  void send(int rank, std::uint64_t t, int to, int tag, std::uint64_t bytes) {
    enter(rank, t, "MPI_Send");
    OTF2_EvtWriter_MpiSend(w(rank), nullptr, t, std::uint32_t(to), kWorld, std::uint32_t(tag), bytes);
    leave(rank, t + 1, "MPI_Send");
  }
  // MPI_Recv as posted (posted_source / posted_tag -1: a wildcard) that
  // matched `from` / `tag`.
  void recv(int rank, std::uint64_t t, int from, int tag, std::uint64_t bytes, int posted_source,
            int posted_tag) {
    enter(rank, t, "MPI_Recv");
    if (posted_envelopes_) {
      OTF2_AttributeList_AddInt32(attrs_, attribute("kairo::posted_source"), posted_source);
      OTF2_AttributeList_AddInt32(attrs_, attribute("kairo::posted_tag"), posted_tag);
    }
    OTF2_EvtWriter_MpiRecv(w(rank), attrs_, t, std::uint32_t(from), kWorld, std::uint32_t(tag), bytes);
    leave(rank, t + 1, "MPI_Recv");
  }
  // MPI_Isend: the call, then (inside a wait) its completion.
  void isend(int rank, std::uint64_t t, int to, int tag, std::uint64_t bytes, std::uint64_t request) {
    enter(rank, t, "MPI_Isend");
    OTF2_EvtWriter_MpiIsend(w(rank), nullptr, t, std::uint32_t(to), kWorld, std::uint32_t(tag), bytes,
                            request);
    leave(rank, t, "MPI_Isend");
  }
  void isend_done(int rank, std::uint64_t t, std::uint64_t request) {
    OTF2_EvtWriter_MpiIsendComplete(w(rank), nullptr, t, request);
  }
  // MPI_Irecv as posted, then (inside a wait) the envelope it matched.
  void irecv_post(int rank, std::uint64_t t, std::uint64_t request, int posted_source, int posted_tag) {
    enter(rank, t, "MPI_Irecv");
    if (posted_envelopes_) {
      OTF2_AttributeList_AddInt32(attrs_, attribute("kairo::posted_source"), posted_source);
      OTF2_AttributeList_AddInt32(attrs_, attribute("kairo::posted_tag"), posted_tag);
      OTF2_AttributeList_AddCommRef(attrs_, attribute("kairo::posted_comm"), kWorld);
    }
    OTF2_EvtWriter_MpiIrecvRequest(w(rank), attrs_, t, request);
    leave(rank, t, "MPI_Irecv");
  }
  void irecv_done(int rank, std::uint64_t t, int from, int tag, std::uint64_t bytes, std::uint64_t request) {
    OTF2_EvtWriter_MpiIrecv(w(rank), nullptr, t, std::uint32_t(from), kWorld, std::uint32_t(tag), bytes,
                            request);
  }
  void collective(int rank, std::uint64_t t, const std::string& region, OTF2_CollectiveOp op,
                  std::uint64_t sent, std::uint64_t received, std::uint32_t root = OTF2_UNDEFINED_UINT32) {
    enter(rank, t, region);
    OTF2_EvtWriter_MpiCollectiveBegin(w(rank), nullptr, t);
    OTF2_EvtWriter_MpiCollectiveEnd(w(rank), nullptr, t, op, kWorld, root, sent, received);
    leave(rank, t + 1, region);
  }
  // An MPI call without communication records (MPI_Init, MPI_Put, ...).
  void call(int rank, std::uint64_t t, const std::string& region) {
    enter(rank, t, region);
    leave(rank, t + 1, region);
  }

  void close() {
    for (OTF2_EvtWriter* e : writers_) OTF2_Archive_CloseEvtWriter(archive_, e);
    OTF2_Archive_CloseEvtFiles(archive_);
    OTF2_Archive_OpenDefFiles(archive_);
    for (int r = 0; r < ranks_; ++r)
      OTF2_Archive_CloseDefWriter(archive_, OTF2_Archive_GetDefWriter(archive_, OTF2_LocationRef(r)));
    OTF2_Archive_CloseDefFiles(archive_);
    OTF2_GlobalDefWriter* g = OTF2_Archive_GetGlobalDefWriter(archive_);
    OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 0, 1, 0);
    std::map<std::string, OTF2_StringRef> strings;
    auto str = [&](const std::string& s) {
      auto it = strings.find(s);
      if (it != strings.end()) return it->second;
      const OTF2_StringRef ref = OTF2_StringRef(strings.size());
      OTF2_GlobalDefWriter_WriteString(g, ref, s.c_str());
      return strings[s] = ref;
    };
    for (const auto& [name, ref] : regions_)
      OTF2_GlobalDefWriter_WriteRegion(g, ref, str(name), str(name), str(""), OTF2_REGION_ROLE_FUNCTION,
                                       OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, str(""), 0, 0);
    for (const auto& [name, ref] : attributes_)
      OTF2_GlobalDefWriter_WriteAttribute(g, ref, str(name), str(""),
                                          name == "kairo::posted_comm" ? OTF2_TYPE_COMM : OTF2_TYPE_INT32);
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, str("machine"), str("machine"),
                                             OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    std::vector<std::uint64_t> members;
    for (int r = 0; r < ranks_; ++r) {
      const std::string name = "MPI Rank " + std::to_string(r);
      OTF2_GlobalDefWriter_WriteLocationGroup(g, OTF2_LocationGroupRef(r), str(name),
                                              OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                              OTF2_UNDEFINED_LOCATION_GROUP);
      OTF2_GlobalDefWriter_WriteLocation(g, OTF2_LocationRef(r), str(name), OTF2_LOCATION_TYPE_CPU_THREAD, 0,
                                         OTF2_LocationGroupRef(r));
      members.push_back(std::uint64_t(r));
    }
    OTF2_GlobalDefWriter_WriteGroup(g, 0, str("locations"), OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, std::uint32_t(ranks_), members.data());
    OTF2_GlobalDefWriter_WriteGroup(g, 1, str("world"), OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, std::uint32_t(ranks_), members.data());
    OTF2_GlobalDefWriter_WriteComm(g, kWorld, str("MPI_COMM_WORLD"), 1, OTF2_UNDEFINED_COMM,
                                   OTF2_COMM_FLAG_NONE);
    OTF2_Archive_Close(archive_);
    OTF2_AttributeList_Delete(attrs_);
    archive_ = nullptr;
  }

 private:
  static OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }
  static OTF2_TimeStamp post_flush(void*, OTF2_FileType, OTF2_LocationRef) { return 0; }
  static constexpr OTF2_FlushCallbacks kFlush = {pre_flush, post_flush};

  OTF2_EvtWriter* w(int rank) { return writers_.at(std::size_t(rank)); }
  OTF2_RegionRef region_ref(const std::string& name) {
    auto it = regions_.find(name);
    if (it != regions_.end()) return it->second;
    return regions_[name] = OTF2_RegionRef(regions_.size());
  }
  OTF2_AttributeRef attribute(const std::string& name) {
    auto it = attributes_.find(name);
    if (it != attributes_.end()) return it->second;
    return attributes_[name] = OTF2_AttributeRef(attributes_.size());
  }

  int ranks_;
  bool posted_envelopes_;
  OTF2_Archive* archive_ = nullptr;
  std::vector<OTF2_EvtWriter*> writers_;
  std::map<std::string, OTF2_RegionRef> regions_;
  std::map<std::string, OTF2_AttributeRef> attributes_;
  OTF2_AttributeList* attrs_ = nullptr;
};

}  // namespace kairo::test
