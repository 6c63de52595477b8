// Programs for `kairo run`: one Workload instance per run, whose program()
// runs on every rank (as its own coroutine). A workload parses its
// parameters, may fill node memories before the run (data mode), and reports
// its outcome: the figures of the run's JSON contract (docs/rdma.md) (completion,
// latency, bandwidth, verified) plus its own details.
//
// Conventions shared by the shipped workloads: every rank registers its
// buffers at time 0 and starts communicating at kStart (registration is
// instantaneous in the model; the gap keeps start-up out of the figures), and
// a message longer than the NIC's per-descriptor limit is cut into several
// puts, each raising its own notice with the message's tag.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "firmware/rank.h"
#include "platforms/network.h"
#include "platforms/platform.h"
#include "platforms/rdma_machine.h"
#include "sw/collectives/algorithms.h"
#include "sw/collectives/executor.h"
#include "sw/workloads/params.h"
#include "sw/workloads/results.h"

namespace kairo::sw {

inline constexpr sim::Time kStart = 1000000;  // 1 us

// When rank `rank` of `p` starts under `--param skew_ns`: kStart plus
// (rank x 7919 mod p) / p x skew, a fixed stagger that spreads the ranks over
// [0, skew) in an order unrelated to their neighbours.
inline sim::Time staggered_start(int rank, int p, sim::Time skew) {
  return kStart + sim::Time(std::uint64_t(rank) * 7919 % std::uint64_t(p)) * skew / sim::Time(p);
}

struct MachineInfo {
  const platforms::Platform* platform = nullptr;
  const hw::Topology* topology = nullptr;
  int nodes = 0;  // ranks; rank r runs on node platform->node_of_rank(r)
  int tnis = 0;
  bool data = true;        // data mode: real bytes travel and are verified
  std::uint64_t seed = 1;  // the run's --seed: the default of a workload's own seed
  int processes = 1;       // a run split over processes under mpirun (docs/parallel.md)
};

// Debug access to ranks' node memories (takes no simulated time): fill send
// buffers before the run, read what arrived after it. Addressed by rank.
class HostMemory {
 public:
  virtual ~HostMemory() = default;
  virtual void write(int rank, std::uint64_t address, const unsigned char* bytes, std::size_t n) = 0;
  virtual void read(int rank, std::uint64_t address, unsigned char* bytes, std::size_t n) = 0;
};

struct Outcome {
  sim::Time start_ps = 0, end_ps = 0;  // the measured interval
  double latency_ns = 0;
  double bandwidth_gbps = 0;                          // GB/s (bytes per ns)
  std::optional<bool> verified;                       // data mode only
  bool ok = true;                                     // every operation completed without error
  std::string failure;                                // what went wrong when !ok or !verified
  nlohmann::json details = nlohmann::json::object();  // workload-specific figures
};

// What a workload's buffers take, from its parameters alone (nothing is
// allocated to find out): check_footprint refuses a run whose buffers do not
// fit before anything is built.
struct Footprint {
  // An upper bound on the bytes of buffers data mode keeps in the host's
  // memory over all ranks: every buffer range that setup() fills or a put or
  // sum writes (send, receive and staging regions). A node memory keeps only
  // what was written (in 4 KiB pages, hw/nic/node_memory.h), so a region no
  // rank ever writes (a bystander's buffer, an unused send region) is not
  // counted.
  double data_bytes = 0;
  // The most node memory one rank allocates: the end of its last Rank::alloc
  // (every allocation's size and alignment padding, from address 0).
  std::uint64_t rank_bytes = 0;
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual nlohmann::json params() const = 0;  // the parameters in effect, echoed in the JSON
  // Computed the way program() and setup() allocate and fill, in both modes.
  virtual Footprint footprint() const = 0;
  virtual void setup(HostMemory&) {}  // data mode, before the run
  // The machine is built and the run not started: a workload may configure
  // it (the hybrid network's optical pathways) and keep it for outcome().
  // Throws std::invalid_argument for a configuration the machine refuses.
  virtual void attach(platforms::Network&) {}
  // The machine with its NICs, before the run: a workload may keep it to
  // read the engines' counters in outcome() (in a run split over processes,
  // process 0's engines hold every engine's final counters by then).
  virtual void attach_nics(platforms::RdmaMachine&) {}
  // Whether outcome() reads the machine's blocks (engines' or switches'
  // counters) at the end: a run split over processes then builds the whole
  // machine in every process, so that process 0 can hold every block's final
  // state; otherwise each builds only its own part (docs/parallel.md).
  virtual bool reads_blocks_at_end() const { return false; }
  // On the hybrid network a rank sees its optical TNI (TNI 1) only if its
  // workload routes over circuits; others see the EPS TNI alone, so they
  // never send into a port without a circuit.
  virtual bool uses_optical() const { return false; }
  // Asks for circuits during the run (Rank::request_pathway): a split run
  // refuses it before the run (platforms/ocs_boundary.h), naming this reason.
  virtual std::string requests_circuits() const { return {}; }
  virtual fw::Task program(fw::Rank& r) = 0;  // every rank's program
  // What program() records, each member with how it merges over the
  // processes of a split run (results.h).
  virtual void results(Results& r) = 0;
  virtual Outcome outcome(HostMemory* memory) = 0;  // after the run; memory is null in size-only mode
  // For a run whose rank `rank` never finished: what its program waits for
  // (empty: nothing more to say than that it never finished).
  virtual std::string waiting(int /*rank*/) const { return {}; }
};

struct WorkloadInfo {
  const char* name;
  const char* summary;
  std::unique_ptr<Workload> (*make)(Params&, const MachineInfo&);
};
// WorkloadInfo::make for a workload class W built from its parameters and the machine.
template <class W>
std::unique_ptr<Workload> workload_of(Params& p, const MachineInfo& m) {
  return std::make_unique<W>(p, m);
}
// The shipped workloads, by name.
const std::vector<WorkloadInfo>& workloads();
std::string workload_names();  // "pingpong, put-bw, random-ring"

// `--param scheme=` of the workloads that route over the hybrid network's
// pathways: sp, cp or eps (default: sp where the platform has an optical
// network, else eps); sp and cp only where it has one.
std::string scheme_param(Params& prm, const platforms::Platform& p);
// The figures every workload reports: the measured interval [start, end],
// the latency it stands for, `bytes` over that latency (0 when it is 0), and
// whether every operation completed without error (else `failure`).
inline constexpr const char* kOperationFailed = "an operation completed with an error";
Outcome measured_outcome(sim::Time start, sim::Time end, double latency_ns, double bytes, bool ok,
                         const char* failure = kOperationFailed);
// What every collective reports: from kStart to the slowest rank's end
// (`end`, per rank), `bytes` per rank over that time, and whether every
// operation completed without error.
Outcome collective_outcome(const std::vector<sim::Time>& end, double bytes, bool ok);
// A collective's two regions (sw/collectives/executor.h): the send region
// at address 0, the receive region at the next 4 KiB boundary after it,
// both registered under the same memids on every rank.
inline std::uint64_t recv_region_address(std::uint64_t send_bytes) {
  return (send_bytes + 4095) / 4096 * 4096;
}
coll::Buffers collective_buffers(fw::Rank& r, std::uint64_t send_bytes, std::uint64_t recv_bytes,
                                 double reduce_bytes_per_s = 1e10);
// The node memory collective_buffers(r, send_bytes, recv_bytes) allocates on
// a rank: the end of its receive region. In double, so that a footprint
// over 2^64 bytes stays over the node memory instead of wrapping around.
inline double collective_rank_bytes(double send_bytes, double recv_bytes) {
  return std::ceil(std::max(send_bytes, 8.0) / 4096.0) * 4096.0 + std::max(recv_bytes, 8.0);
}
// A byte count computed in double, as an integer (2^64 - 1 if it is larger).
inline std::uint64_t whole_bytes(double b) {
  return b >= 18446744073709551615.0 ? ~std::uint64_t(0) : std::uint64_t(std::ceil(b));
}
// The footprint of a collective algorithm's buffers (its table entry's
// memory for the call, sw/collectives/algorithms.h), registered as
// collective_buffers does.
inline Footprint collective_footprint(const coll::Algorithm& a, const coll::Call& c) {
  const coll::Memory m = a.memory(c);
  return {m.written_bytes, whole_bytes(collective_rank_bytes(m.send_bytes, m.recv_bytes))};
}
// The phases' times for the JSON: [{"phase", "end_ns", "ns"}], each phase's
// duration from the previous phase's end (the first from kStart).
nlohmann::json phase_times(const coll::PhaseLog& log);
// Records a data-mode verification.
inline void set_verified(Outcome& o, bool v, const char* failure) {
  o.verified = v;
  if (!v) o.failure = failure;
}

// The one host-memory rule of `kairo run`, applied to every workload's
// footprint() before anything is built or allocated. Throws
// std::invalid_argument naming the workload:
//   in both modes, when one rank would allocate more than its node memory
//   (nic.memory_size), naming the bytes per rank and nic.memory_size;
//   in data mode, when the buffers would keep more than kDataModeLimitBytes
//   (8 GiB) in the host's memory over all ranks, pointing at --mode
//   size-only (the same timing) or a smaller --param size.
inline constexpr std::uint64_t kDataModeLimitBytes = std::uint64_t(8) << 30;
void check_footprint(const Workload& w, const MachineInfo& m, const std::string& workload);

// Byte i of the data rank `rank` sends in the shipped workloads.
inline unsigned char pattern_byte(int rank, std::uint64_t i) {
  return static_cast<unsigned char>(i * 31 + 7 + std::uint64_t(rank) * 101 + (i >> 8) * 13);
}
void fill_pattern(HostMemory& m, int rank, std::uint64_t address, std::uint64_t length);
// The same, in rank `rank`'s memory but with rank `pattern_of`'s bytes.
void fill_pattern(HostMemory& m, int rank, std::uint64_t address, std::uint64_t length, int pattern_of);
// True when `length` bytes at `address` on `node` are rank `rank`'s pattern.
bool check_pattern(HostMemory& m, int node, std::uint64_t address, int rank, std::uint64_t length);

// Put a message of `length` bytes as puts of at most `max_descriptor` bytes
// on one TNI, each raising `tag` at the target; appends their handles.
fw::Task put_message(fw::Rank& r, int tni, int dst, nic::MemKey remote, std::uint64_t remote_offset,
                     nic::MemKey local, std::uint64_t local_offset, std::uint64_t length, std::uint32_t tag,
                     std::uint64_t max_descriptor, std::vector<std::uint64_t>* handles);
// Number of puts put_message uses (the number of notices the target sees).
inline std::uint64_t descriptors(std::uint64_t length, std::uint64_t max_descriptor) {
  return length == 0 ? 1 : (length + max_descriptor - 1) / max_descriptor;
}

}  // namespace kairo::sw
