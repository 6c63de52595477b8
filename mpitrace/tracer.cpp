// The tracing session: MPI_Init opens the OTF2 archive DIR/traces.otf2 when
// KAIRO_TRACE=DIR is set, MPI_Finalize closes it after rank 0 has written the
// global definitions. Without KAIRO_TRACE nothing here runs and every wrapper
// is a call of its PMPI_ function.
//
// A tracing problem never stops the program: it prints one line naming DIR
// and the cause, and the program runs on untraced. Ranks agree before each
// collective step of libotf2 so that one rank's failure cannot leave the
// others waiting in a collective.
#include "mpitrace/tracer.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>

#include "mpitrace/comms.h"
#include "mpitrace/definitions.h"
#include "mpitrace/requests.h"
#define OTF2_MPI_USE_PMPI  // libotf2's collectives must not come back into the wrappers
#include <otf2/OTF2_MPI_Collectives.h>

namespace kairo::mpitrace {

bool g_recording = false;

namespace {

bool g_session = false;  // the archive is open (on every rank, or on none)
int g_rank = 0;
int g_size = 1;
std::string g_dir;
OTF2_Archive* g_archive = nullptr;
OTF2_EvtWriter* g_writer = nullptr;
OTF2_AttributeList* g_attrs = nullptr;
bool g_cpu_clock = false;
uint64_t g_t0 = 0;           // the chosen clock at the ranks' common start
uint64_t g_last = 0;         // the latest timestamp handed out
uint64_t g_wall_t0 = 0;      // CLOCK_MONOTONIC at MPI_Init's return
std::string g_error;         // the first libotf2 error of this rank
std::string g_otf2_message;  // libotf2's own words for its latest error

uint64_t read_clock(clockid_t id) {
  timespec ts{};
  clock_gettime(id, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}
uint64_t raw_now() { return read_clock(g_cpu_clock ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC); }

OTF2_ErrorCode on_otf2_error(void*, const char*, uint64_t, const char*, OTF2_ErrorCode code,
                             const char* format, va_list args) {
  char text[512];
  vsnprintf(text, sizeof text, format, args);
  g_otf2_message = std::string(OTF2_Error_GetName(code)) + ": " + text;
  return code;
}

OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }
OTF2_FlushCallbacks g_flush = {pre_flush, nullptr};  // no BufferFlush records

// Rank 0 makes DIR (and its parents) and checks it can write there.
std::string prepare_dir(const std::string& dir) {
  std::string path;
  for (size_t at = 0; at != std::string::npos;) {
    const size_t next = dir.find('/', at + 1);
    path = dir.substr(0, next);
    if (!path.empty() && mkdir(path.c_str(), 0777) != 0 && errno != EEXIST)
      return "cannot create " + path + " (" + std::strerror(errno) + ")";
    at = next;
  }
  if (access(dir.c_str(), W_OK | X_OK) != 0)
    return std::string("not writable (") + std::strerror(errno) + ")";
  struct stat st {};
  if (stat((dir + "/traces.otf2").c_str(), &st) == 0)
    return dir + "/traces.otf2 exists already (remove it or choose another directory)";
  return "";
}

// True on every rank when no rank failed; else the lowest failing rank prints
// its reason and every rank gets false.
bool agree(bool ok, const std::string& reason, const char* consequence) {
  int first = ok ? g_size : g_rank;
  PMPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == g_rank)
    std::fprintf(stderr, "kairo mpitrace: cannot trace into %s: %s; %s\n", g_dir.c_str(), reason.c_str(),
                 consequence);
  return first == g_size;
}

std::string otf2_reason(const char* step) {
  return std::string("libotf2 failed in ") + step +
         (g_otf2_message.empty() ? "" : " (" + g_otf2_message + ")");
}

bool open_archive() {
  OTF2_Error_RegisterCallback(on_otf2_error, nullptr);
  g_archive = OTF2_Archive_Open(g_dir.c_str(), "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                                OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!agree(g_archive != nullptr, otf2_reason("OTF2_Archive_Open"), "the program runs untraced"))
    return false;
  const char* step = "OTF2_Archive_SetFlushCallbacks";
  bool ok = OTF2_Archive_SetFlushCallbacks(g_archive, &g_flush, nullptr) == OTF2_SUCCESS;
  if (ok) step = "OTF2_MPI_Archive_SetCollectiveCallbacks";
  ok =
      ok && OTF2_MPI_Archive_SetCollectiveCallbacks(g_archive, MPI_COMM_WORLD, MPI_COMM_NULL) == OTF2_SUCCESS;
  if (ok) step = "OTF2_Archive_OpenEvtFiles";
  ok = ok && OTF2_Archive_SetCreator(g_archive, "kairo mpitrace") == OTF2_SUCCESS &&
       OTF2_Archive_OpenEvtFiles(g_archive) == OTF2_SUCCESS;
  if (ok) step = "OTF2_Archive_GetEvtWriter";
  ok = ok &&
       (g_writer = OTF2_Archive_GetEvtWriter(g_archive, static_cast<OTF2_LocationRef>(g_rank))) != nullptr;
  g_attrs = OTF2_AttributeList_New();
  return agree(ok && g_attrs, otf2_reason(step), "the program runs untraced");
}

void start(Region init) {
  const char* dir = std::getenv("KAIRO_TRACE");
  if (!dir || !*dir) return;
  g_dir = dir;
  PMPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &g_size);
  std::string problem;
  const char* clock = std::getenv("KAIRO_TRACE_CLOCK");
  if (clock && *clock && std::strcmp(clock, "wall") != 0 && std::strcmp(clock, "cpu") != 0)
    problem = std::string("KAIRO_TRACE_CLOCK is '") + clock + "', neither wall nor cpu";
  g_cpu_clock = clock && std::strcmp(clock, "cpu") == 0;
  if (problem.empty() && g_rank == 0) problem = prepare_dir(g_dir);
  if (!agree(problem.empty(), problem, "the program runs untraced") || !open_archive()) return;
  comms_start(g_rank, g_size);
  // The common start: every rank leaves the barrier within a message latency
  // of the others, and counts its timestamps from there.
  PMPI_Barrier(MPI_COMM_WORLD);
  g_t0 = raw_now();
  g_wall_t0 = read_clock(CLOCK_MONOTONIC);
  g_session = g_recording = true;
  check(OTF2_EvtWriter_Enter(g_writer, nullptr, 0, static_cast<OTF2_RegionRef>(init)), "Enter");
  leave(init);
}

// Everything rank 0 needs for the definitions, gathered from all ranks.
RunSummary summarize(uint64_t events) {
  RunSummary run;
  run.ranks = g_size;
  run.events.resize(g_rank == 0 ? static_cast<size_t>(g_size) : 0);
  PMPI_Gather(&events, 1, MPI_UINT64_T, run.events.data(), 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  PMPI_Reduce(&g_last, &run.trace_length, 1, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
  int self = comm_self_used() ? 1 : 0;
  int any_self = 0;
  PMPI_Reduce(&self, &any_self, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
  run.self_used = any_self != 0;
  run.comms = comms_gather();
  return run;
}

void set_properties(uint64_t wall_ns) {
  const std::string values[][2] = {{"KAIRO::CLOCK", g_cpu_clock ? "cpu" : "wall"},
                                   {"KAIRO::WALL_NS", std::to_string(wall_ns)},
                                   {"KAIRO::RANKS", std::to_string(g_size)}};
  for (const auto& v : values)
    check(OTF2_Archive_SetProperty(g_archive, v[0].c_str(), v[1].c_str(), true), "OTF2_Archive_SetProperty");
}

void finish(Region fin) {
  uint64_t wall_ns = read_clock(CLOCK_MONOTONIC) - g_wall_t0;
  if (g_recording) {
    enter(fin);
    leave(fin);
  }
  g_recording = false;
  g_session = false;
  if (!agree(g_error.empty(), g_error, "no trace is written")) return;
  uint64_t events = 0;
  check(OTF2_EvtWriter_GetNumberOfEvents(g_writer, &events), "OTF2_EvtWriter_GetNumberOfEvents");
  check(OTF2_Archive_CloseEvtWriter(g_archive, g_writer), "OTF2_Archive_CloseEvtWriter");
  check(OTF2_Archive_CloseEvtFiles(g_archive), "OTF2_Archive_CloseEvtFiles");
  // Local definition files stay empty (every id is global already) but
  // readers expect one per location.
  check(OTF2_Archive_OpenDefFiles(g_archive), "OTF2_Archive_OpenDefFiles");
  OTF2_DefWriter* local = OTF2_Archive_GetDefWriter(g_archive, static_cast<OTF2_LocationRef>(g_rank));
  if (!local) check(OTF2_ERROR_INVALID, "OTF2_Archive_GetDefWriter");
  if (local) check(OTF2_Archive_CloseDefWriter(g_archive, local), "OTF2_Archive_CloseDefWriter");
  check(OTF2_Archive_CloseDefFiles(g_archive), "OTF2_Archive_CloseDefFiles");
  PMPI_Allreduce(MPI_IN_PLACE, &wall_ns, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  const RunSummary run = summarize(events);
  set_properties(wall_ns);
  if (g_rank == 0) {
    OTF2_GlobalDefWriter* global = OTF2_Archive_GetGlobalDefWriter(g_archive);
    if (!global) check(OTF2_ERROR_INVALID, "OTF2_Archive_GetGlobalDefWriter");
    if (global) check(write_definitions(global, run), "the global definitions");
  }
  check(OTF2_Archive_Close(g_archive), "OTF2_Archive_Close");
  OTF2_AttributeList_Delete(g_attrs);
  uint64_t unknown = comm_unknown_uses();
  PMPI_Reduce(g_rank == 0 ? MPI_IN_PLACE : &unknown, &unknown, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  if (g_rank == 0 && unknown > 0)
    std::fprintf(
        stderr,
        "kairo mpitrace: %llu call(s) named a communicator the tracer does not know (made by a call it "
        "does not wrap); their records name OTF2_UNDEFINED_COMM\n",
        static_cast<unsigned long long>(unknown));
  agree(g_error.empty(), g_error, "the trace may be incomplete");
}

}  // namespace

uint64_t now() {
  const uint64_t t = raw_now() - g_t0;
  if (t > g_last) g_last = t;
  return g_last;
}
OTF2_EvtWriter* events() { return g_writer; }
OTF2_AttributeList* attributes() { return g_attrs; }

void check(OTF2_ErrorCode code, const char* what) {
  if (code == OTF2_SUCCESS || !g_error.empty()) return;
  g_error = otf2_reason(what);
  g_recording = false;
}

void add_posted(int source, int tag) {
  OTF2_AttributeList_AddInt32(g_attrs, kPostedSource, source == MPI_ANY_SOURCE ? -1 : source);
  OTF2_AttributeList_AddInt32(g_attrs, kPostedTag, tag == MPI_ANY_TAG ? -1 : tag);
}

uint64_t bytes_of(int count, MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL || count <= 0) return 0;
  int size = 0;
  PMPI_Type_size(type, &size);
  return static_cast<uint64_t>(count) * static_cast<uint64_t>(size);
}

uint64_t received_bytes(const MPI_Status& status, MPI_Datatype type) {
  int count = 0;
  PMPI_Get_count(&status, type, &count);
  return count == MPI_UNDEFINED ? 0 : bytes_of(count, type);
}

void record_send(int dest, int tag, int count, MPI_Datatype type, MPI_Comm comm) {
  if (dest == MPI_PROC_NULL) return;
  check(OTF2_EvtWriter_MpiSend(g_writer, nullptr, now(), static_cast<uint32_t>(dest), comm_id(comm),
                               static_cast<uint32_t>(tag), bytes_of(count, type)),
        "MpiSend");
}

void record_recv(const MPI_Status& status, int source, int tag, MPI_Datatype type, MPI_Comm comm) {
  if (status.MPI_SOURCE == MPI_PROC_NULL) return;
  add_posted(source, tag);
  check(OTF2_EvtWriter_MpiRecv(g_writer, g_attrs, now(), static_cast<uint32_t>(status.MPI_SOURCE),
                               comm_id(comm), static_cast<uint32_t>(status.MPI_TAG),
                               received_bytes(status, type)),
        "MpiRecv");
}

}  // namespace kairo::mpitrace

using namespace kairo::mpitrace;

extern "C" {

int MPI_Init(int* argc, char*** argv) {
  const int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) start(Region::MPI_Init);
  return rc;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc != MPI_SUCCESS) return rc;
  start(Region::MPI_Init_thread);
  if (g_session && g_rank == 0 && *provided > MPI_THREAD_FUNNELED)
    std::fprintf(stderr,
                 "kairo mpitrace: only the thread that called MPI_Init_thread may call MPI while tracing\n");
  return rc;
}

int MPI_Finalize() {
  if (g_session) finish(Region::MPI_Finalize);
  return PMPI_Finalize();
}

}  // extern "C"
