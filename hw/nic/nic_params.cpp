// The `nic:` keys, declared once (sim/params.h).
#include "hw/nic/nic_params.h"

#include <climits>
#include <cstdint>

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

}  // namespace kairo::nic
