// The `nic:` keys, declared once (sim/params.h), and the checks across them
// and the router's packet.
#include "hw/nic/nic_params.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <utility>

#include "sim/units.h"

namespace kairo::nic {

const std::vector<sim::ParamDecl>& nic_param_decls() {
  using K = sim::ParamKind;
  using P = NicParams;
  static const std::vector<sim::ParamDecl> decls = [] {
    constexpr std::uint64_t kU32 = UINT32_MAX, kU64 = UINT64_MAX;
    const char* size = "a size such as 1920B or 32GiB";
    sim::ParamBlock<P> b("nic");
    b.duration(
        "node_latency", &P::node_latency_ps, "a duration such as 700ns",
        "time from posting an RDMA command to the engine starting it (doorbell, descriptor fetch, memory "
        "latency, library overhead)");
    b.rate("dma_bandwidth", &P::dma_bytes_per_s, "DMA rate of a TNI",
           "DMA rate of each TNI's reads and writes of node memory");
    b.bytes("mtu", &P::mtu_bytes, 1, kU32, size, "largest payload per packet",
            "largest payload per packet; nic.mtu + nic.header_size must fit router.max_packet_flits flits");
    b.bytes("header_size", &P::header_bytes, 1, kU32, size, "header bytes per packet",
            "header bytes added to every packet");
    b.bytes("max_descriptor_size", &P::max_descriptor_bytes, 1, kU64, size, "largest transfer of one command",
            "largest transfer one RDMA command may ask for (16MiB - 1)");
    b.integer("command_queue_depth", &P::command_queue_depth, K::kCount, 1, INT_MAX,
              "command queue entries per TNI", "command queue entries per TNI");
    b.integer("completion_queue_depth", &P::completion_queue_depth, K::kCount, 1, INT_MAX,
              "completion queue entries per TNI", "completion queue entries per TNI (initiator side)");
    b.integer("notice_queue_depth", &P::notice_queue_depth, K::kCount, 1, INT_MAX,
              "notice queue entries per TNI", "notice queue entries per TNI (target side: arrival notices)");
    b.integer("registrations", &P::registrations, K::kCount, 1, INT_MAX,
              "registration table entries per node", "memory registration table entries per node");
    b.bytes("memory_size", &P::memory_bytes, 1, kU64, size, "node memory", "node memory size");
    b.duration("memory_latency", &P::memory_latency_ps, "a duration such as 700ns",
               "added to every node memory access");
    b.rate("memory_bandwidth", &P::memory_bytes_per_s, "node memory; leave it out for no limit",
           "node memory bandwidth per access; absent = not limited (the DMA rate paces transfers)")
        .deflt = "unlimited";
    b.name("fault", &P::fault,
           {{"none", Fault::kNone},
            {"notice_before_write", Fault::kNoticeBeforeWrite},
            {"complete_before_ack", Fault::kCompleteBeforeAck},
            {"reorder_writes", Fault::kReorderWrites},
            {"double_write", Fault::kDoubleWrite},
            {"write_past_region", Fault::kWritePastRegion}},
           "a deliberate engine bug for testing the ordering checker",
           "a bug put into every engine on purpose, to show the operation log's checker catches it "
           "(docs/rdma.md, Fault knobs): none, notice_before_write, complete_before_ack, reorder_writes, "
           "double_write, write_past_region");
    return b.decls();
  }();
  return decls;
}

std::optional<std::string> fit_problem(const NicParams& n, int max_packet_flits, int flit_bytes) {
  const std::uint64_t flits = n.max_packet_flits(flit_bytes);
  if (flits <= std::uint64_t(max_packet_flits)) return std::nullopt;
  const std::uint64_t room = std::uint64_t(max_packet_flits) * std::uint64_t(flit_bytes);
  const std::string fits = fmt::format(
      "a packet (nic.header_size + nic.mtu) fits router.max_packet_flits ({} flits "
      "of {}B)",
      max_packet_flits, flit_bytes);
  const std::string got =
      fmt::format("{}B ({}B header + {}B = {} flits)", n.mtu_bytes, n.header_bytes, n.mtu_bytes, flits);
  if (room > n.header_bytes)
    return fmt::format(
        "expected at most {0}B so that {1}, got {2}: lower nic.mtu to at most {0}B or raise "
        "router.max_packet_flits to at least {3}",
        room - n.header_bytes, fits, got, flits);
  return fmt::format(
      "expected a size such that {}, got {}: the header alone fills the packet; raise "
      "router.max_packet_flits to at least {} or lower nic.header_size",
      fits, got, flits);
}

std::optional<sim::ParamProblem> nic_problem(const NicParams& p, int max_packet_flits, int flit_bytes) {
  if (auto fit = fit_problem(p, max_packet_flits, flit_bytes))
    return sim::ParamProblem{"nic.mtu",
                             *fit,
                             {"nic.mtu", "nic.header_size", "router.max_packet_flits", "router.flit_size"},
                             "nic"};
  // Times are 64-bit picoseconds: the model adds a node's latencies to the
  // time a DMA moves the largest transfer. Each must stay below 1e17 ps (28
  // hours) so that no sum of them can wrap (2^64 ps is 213 days).
  constexpr double kMaxPs = 1e17;
  for (const auto& [key, ps] : {std::pair<const char*, sim::Time>{"nic.node_latency", p.node_latency_ps},
                                {"nic.memory_latency", p.memory_latency_ps}})
    if (double(ps) > kMaxPs)
      return sim::ParamProblem{
          key,
          fmt::format("expected a duration of at most 1e17ps (28 hours), got {}", units::format_duration(ps)),
          {key},
          "nic"};
  const double largest = double(std::min(p.max_descriptor_bytes, p.memory_bytes));
  for (const auto& [key, rate] : {std::pair<const char*, double>{"nic.dma_bandwidth", p.dma_bytes_per_s},
                                  {"nic.memory_bandwidth", p.memory_bytes_per_s}})
    if (rate > 0 && !(largest * 1e12 / rate <= kMaxPs))
      return sim::ParamProblem{
          key,
          fmt::format(
              "expected a bandwidth that moves the largest transfer ({} bytes: nic.max_descriptor_size "
              "or nic.memory_size) within 1e17ps (28 hours), i.e. at least {:.3g}B/s, got {}",
              largest, largest * 1e12 / kMaxPs, units::format_bandwidth(rate)),
          {key},
          "nic"};
  return std::nullopt;
}

}  // namespace kairo::nic
