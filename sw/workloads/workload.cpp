#include "sw/workloads/workload.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <initializer_list>

#include "sim/units.h"
#include "sw/workloads/collective.h"
#include "sw/workloads/pattern.h"
#include "sw/workloads/pingpong.h"
#include "sw/workloads/put_bw.h"
#include "sw/workloads/random_ring.h"
#include "sw/workloads/trace.h"

namespace kairo::sw {

const std::vector<WorkloadInfo>& workloads() {
  using coll::Collective;
  static const std::vector<WorkloadInfo> list = [] {
    std::vector<WorkloadInfo> l = {pingpong_workload(), put_bw_workload(), random_ring_workload()};
    const auto collectives = [&l](std::initializer_list<Collective> cs) {
      for (Collective c : cs) l.push_back(collective_workload(c));
    };
    collectives({Collective::kBarrier, Collective::kBcast, Collective::kScatter, Collective::kGather,
                 Collective::kAllgather});
    l.push_back({"pattern",
                 "a communication pattern (Takizawa et al. 2008's Neighbor or a CSV matrix) on a fat tree or "
                 "the hybrid EPS+OCS network, SP or CP pathways (pattern, grid, size, iterations, scheme, "
                 "pathways)",
                 make_pattern});
    collectives({Collective::kNeighbor, Collective::kAllreduce, Collective::kReduceScatter,
                 Collective::kReduce, Collective::kAlltoall});
    l.push_back({"trace",
                 "an MPI application's OTF2 trace replayed: point to point over the NIC (eager, rendezvous), "
                 "collectives by kairo's algorithms (trace, compute_scale, eager_limit, copy_gbps, strict, "
                 "algo.COLLECTIVE, scheme, pathways)",
                 make_trace});
    return l;
  }();
  return list;
}

std::string workload_names() {
  std::string s;
  for (const auto& w : workloads()) s += (s.empty() ? "" : ", ") + std::string(w.name);
  return s;
}

std::string scheme_param(Params& prm, const platforms::Platform& p) {
  const std::string s = prm.text("scheme", p.ocs.present ? "sp" : "eps");
  if (s != "sp" && s != "cp" && s != "eps")
    throw std::invalid_argument("--param scheme=" + s + ": expected sp, cp or eps");
  if (s != "eps" && !p.ocs.present)
    throw std::invalid_argument("--param scheme=" + s + ": " + p.name +
                                " has no optical network (an ocs: section); use scheme=eps");
  return s;
}

Outcome measured_outcome(sim::Time start, sim::Time end, double latency_ns, double bytes, bool ok,
                         const char* failure) {
  Outcome o;
  o.start_ps = start;
  o.end_ps = end;
  o.latency_ns = latency_ns;
  o.bandwidth_gbps = latency_ns > 0 ? bytes / latency_ns : 0.0;
  o.ok = ok;
  if (!ok) o.failure = failure;
  return o;
}

Outcome collective_outcome(const std::vector<sim::Time>& end, double bytes, bool ok) {
  const sim::Time last = *std::max_element(end.begin(), end.end());
  return measured_outcome(kStart, last, double(last - kStart) / 1000.0, bytes, ok,
                          "a put completed with an error");
}

void check_footprint(const Workload& w, const MachineInfo& m, const std::string& workload) {
  const Footprint f = w.footprint();
  const std::uint64_t memory = m.platform->nic.memory_bytes;
  // The node memory first: size-only mode allocates the same and would not help.
  if (f.rank_bytes > memory) {
    const double b = double(f.rank_bytes);
    const std::string approx = b >= double(1ULL << 30) ? fmt::format(" ({:.1f} GiB)", b / double(1ULL << 30))
                               : b >= double(1ULL << 20)
                                   ? fmt::format(" ({:.1f} MiB)", b / double(1ULL << 20))
                                   : "";
    throw std::invalid_argument(
        fmt::format("{}: a rank would allocate {} B{} of node memory, more than nic.memory_size={} ({} B) in "
                    "either --mode; use a smaller --param size or a larger --set nic.memory_size",
                    workload, f.rank_bytes, approx, units::format_bytes(memory), memory));
  }
  if (m.data && f.data_bytes > double(kDataModeLimitBytes))
    throw std::invalid_argument(fmt::format(
        "{}: --mode data would keep {:.1f} GiB of buffers in the node memories (limit {} GiB); use --mode "
        "size-only (the same timing) or a smaller --param size",
        workload, f.data_bytes / double(1ULL << 30), kDataModeLimitBytes >> 30));
}

coll::Buffers collective_buffers(fw::Rank& r, std::uint64_t send_bytes, std::uint64_t recv_bytes,
                                 double reduce_bytes_per_s) {
  constexpr int kRecvMemid = 1, kSendMemid = 2;
  coll::Buffers b;
  b.send_memid = kSendMemid;
  b.recv_memid = kRecvMemid;
  b.reduce_bytes_per_s = reduce_bytes_per_s;
  send_bytes = std::max<std::uint64_t>(send_bytes, 8);
  recv_bytes = std::max<std::uint64_t>(recv_bytes, 8);
  b.send_address = r.alloc(send_bytes, 4096);
  b.recv_address = r.alloc(recv_bytes, 4096);
  if (!r.reg_mem(kSendMemid, b.send_address, send_bytes) ||
      !r.reg_mem(kRecvMemid, b.recv_address, recv_bytes))
    throw std::runtime_error("rank " + std::to_string(r.rank()) + ": the memory registration table is full");
  return b;
}

nlohmann::json phase_times(const coll::PhaseLog& log) {
  nlohmann::json j = nlohmann::json::array();
  sim::Time prev = kStart;
  for (const auto& e : log.entries()) {
    j.push_back({{"phase", e.name},
                 {"end_ns", double(e.end - kStart) / 1000.0},
                 {"ns", double(e.end - std::min(prev, e.end)) / 1000.0}});
    prev = std::max(prev, e.end);
  }
  return j;
}

namespace {
constexpr std::uint64_t kChunk = 1 << 16;  // host-side copies go through a bounded buffer
}  // namespace

void fill_pattern(HostMemory& m, int rank, std::uint64_t address, std::uint64_t length) {
  fill_pattern(m, rank, address, length, rank);
}

void fill_pattern(HostMemory& m, int rank, std::uint64_t address, std::uint64_t length, int pattern_of) {
  std::vector<unsigned char> buf(std::min(length, kChunk));
  for (std::uint64_t at = 0; at < length; at += kChunk) {
    const std::uint64_t n = std::min(kChunk, length - at);
    for (std::uint64_t i = 0; i < n; ++i) buf[i] = pattern_byte(pattern_of, at + i);
    m.write(rank, address + at, buf.data(), n);
  }
}

bool check_pattern(HostMemory& m, int node, std::uint64_t address, int rank, std::uint64_t length) {
  std::vector<unsigned char> buf(std::min(length, kChunk));
  for (std::uint64_t at = 0; at < length; at += kChunk) {
    const std::uint64_t n = std::min(kChunk, length - at);
    m.read(node, address + at, buf.data(), n);
    for (std::uint64_t i = 0; i < n; ++i)
      if (buf[i] != pattern_byte(rank, at + i)) return false;
  }
  return true;
}

fw::Task put_message(fw::Rank& r, int tni, int dst, nic::MemKey remote, std::uint64_t remote_offset,
                     nic::MemKey local, std::uint64_t local_offset, std::uint64_t length, std::uint32_t tag,
                     std::uint64_t max_descriptor, std::vector<std::uint64_t>* handles) {
  std::uint64_t at = 0;
  do {
    const std::uint64_t n = std::min(max_descriptor, length - at);
    std::uint64_t h = 0;
    co_await r.put(tni, dst, remote, remote_offset + at, local, local_offset + at, n, tag, &h);
    handles->push_back(h);
    at += n;
  } while (at < length);
}

}  // namespace kairo::sw
