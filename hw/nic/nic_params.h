// The NIC's parameters: the RDMA engines (TNIs) of a node, its memory and its
// registration table, as a platform file sets them under `nic:` (every key
// optional). The engines read this struct directly. The number of TNIs per
// node is router.network_interfaces (one engine per injection/ejection port
// pair), not a nic key. The keys are declared in nic_params.cpp.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/params.h"
#include "sim/time.h"

namespace kairo::nic {

// A bug put into the engine on purpose (nic.fault), to show that the
// operation log's checker catches it (docs/rdma.md, "Fault knobs"); kNone,
// the default, in every real run. Each breaks one promise of the engine:
//   notice_before_write ... a put's notice is raised when its last packet
//                           arrives, before that packet is in memory
//   complete_before_ack ... a put completes when its last packet is injected,
//                           before the target has acknowledged it
//   reorder_writes ........ a put's first two packets are written to memory
//                           in the opposite order from their arrival
//   double_write .......... a put's first packet is written to memory twice
//   write_past_region ..... a put's last packet is written one MTU beyond
//                           where it belongs (past the registered region)
enum class Fault : std::uint8_t {
  kNone,
  kNoticeBeforeWrite,
  kCompleteBeforeAck,
  kReorderWrites,
  kDoubleWrite,
  kWritePastRegion
};

struct NicParams {
  sim::Time node_latency_ps = 700000;  // nic.node_latency (Susukita et al. 2016: 0.6-0.8 us)
  double dma_bytes_per_s = 2.8e9;      // nic.dma_bandwidth (Susukita et al. 2016 Table 1)
  std::uint32_t mtu_bytes = 1920;      // nic.mtu: payload per packet (TofuD)
  std::uint32_t header_bytes = 32;     // nic.header_size: per packet
  std::uint64_t max_descriptor_bytes = (std::uint64_t(16) << 20) - 1;  // nic.max_descriptor_size (TofuD)
  std::uint32_t command_queue_depth = 64;                              // nic.command_queue_depth
  std::uint32_t completion_queue_depth = 256;                          // nic.completion_queue_depth
  std::uint32_t notice_queue_depth = 256;                              // nic.notice_queue_depth
  std::uint32_t registrations = 4096;        // nic.registrations: registration table entries per node
  std::uint64_t memory_bytes = 32ULL << 30;  // nic.memory_size: per node
  sim::Time memory_latency_ps = 0;           // nic.memory_latency
  double memory_bytes_per_s = 0;             // nic.memory_bandwidth; 0 (key absent) = not limited
  Fault fault = Fault::kNone;                // nic.fault

  // Flits of the largest packet (header + MTU) on a router of `flit_bytes`.
  std::uint64_t max_packet_flits(int flit_bytes) const {
    return (std::uint64_t(mtu_bytes) + header_bytes + std::uint64_t(flit_bytes) - 1) /
           std::uint64_t(flit_bytes);
  }
};

// The `nic:` keys, in table order.
const std::vector<sim::ParamDecl>& nic_param_decls();

// Why the NIC's largest packet (nic.header_size + nic.mtu) does not fit a
// router's largest, router.max_packet_flits flits of router.flit_size bytes,
// or nothing.
std::optional<std::string> fit_problem(const NicParams& n, int max_packet_flits, int flit_bytes);
// The checks across nic keys and the router's packet: the packet fits, and
// no latency or transfer time can overflow a time. The first that fails, or
// nothing.
std::optional<sim::ParamProblem> nic_problem(const NicParams& n, int max_packet_flits, int flit_bytes);

}  // namespace kairo::nic
