// Per-interval counter logs (`kairo run --counters FILE --interval 10us`):
// every interval, per router port (a link's two directions: what this end
// sent and what it received), packets, flits and bytes each way, busy time
// of the output link, stall time of packets waiting for it, and per VC the
// time the downstream VC had no credits (Tofu's VC-full); per RDMA engine,
// commands, DMA bytes read and written, packets, and the command queue's
// depth at the interval's end. Times are in picoseconds (cycles = ps / the
// clock period in the header). Rows whose counters are all zero are left
// out: a missing row means an idle link.
//
// Two formats, chosen by the file name: `.csv` (one row per link or engine
// and interval, carrying its coordinates, peer, dimension and direction so a
// reader needs no netlist) and `.kcl` (kairo counter log: a JSON header with
// the link and engine tables, then per interval only the active rows as
// varints: at K-computer scale a few bytes per active counter). docs/counters.md
// has both schemas.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hw/ocs/ocs_fabric.h"
#include "platforms/network.h"
#include "platforms/rdma_machine.h"
#include "sim/event_queue.h"

namespace kairo::platforms {

// One link end (router port) or engine, as the log's tables describe it.
struct LinkInfo {
  std::string router, port, coord, peer, peer_port, dim, dir;
};
struct TniInfo {
  std::string node, coord;
  int tni = 0;
};
inline constexpr int kLinkFixedFields = 8;  // then one zero-credit time per VC
// Fields of a link row, in order: packets_sent, flits_sent, bytes_sent,
// packets_received, flits_received, bytes_received, busy_ps, stall_ps,
// zero_credit_ps_vc0 .. vc{V-1}.
inline constexpr int kTniFields = 8;
// commands, dma_bytes_read, dma_bytes_written, tni_packets_sent,
// tni_packets_received, circuit_refusals, circuit_wait_ps (optical TNIs:
// commands refused and time spent waiting for a circuit), cmdq_depth.
inline constexpr int kTniDeltas = kTniFields - 1;  // all but cmdq_depth count over the interval

class CounterLog : public sim::EventTarget {
 public:
  // Throws std::invalid_argument naming --counters or --interval on bad input.
  CounterLog(Network& net, RdmaMachine* machine, sim::EventQueue& q, sim::Time interval_ps,
             const std::string& path);
  ~CounterLog() override;
  void start();                 // schedule the first interval's end
  void finish();                // the run ended: log the last (partial) interval, close the file
  void on_event(std::uint32_t, std::uint32_t, void*) override;
  std::uint64_t intervals() const { return intervals_; }
  std::uint64_t rows() const { return rows_; }

 private:
  void sample(sim::Time now);
  struct Writer;
  Network& net_;
  sim::EventQueue& q_;
  sim::Time interval_, last_ = 0;
  int vcs_ = 1;
  void read_link(std::size_t i, sim::Time now, std::vector<std::uint64_t>& cur);
  // A link row: a connected router port (router index, port) and its peer
  // router's port, or kNoPeer for a network interface. Names are derived
  // from these on output (link_info), never stored.
  struct LinkRef {
    std::uint32_t router;
    std::uint16_t port;
    std::uint32_t peer;
    std::uint16_t peer_port;
  };
  static constexpr std::uint32_t kNoPeer = ~std::uint32_t(0);
  std::size_t links() const { return links_.size() + (ocs_ ? std::size_t(ocs_->ports()) : 0); }
  LinkInfo link_info(std::size_t i) const;
  TniInfo tni_info(std::size_t i) const;
  std::vector<LinkRef> links_;     // every connected router port
  ocs::OcsFabric* ocs_ = nullptr;  // hybrid network: its ports follow the router ports
  std::vector<std::uint64_t> prev_links_;  // [link][field]
  std::vector<nic::Tni*> tnis_;
  int tnis_per_node_ = 1;
  std::vector<std::uint64_t> prev_tnis_;
  std::unique_ptr<Writer> out_;
  std::uint64_t intervals_ = 0, rows_ = 0;
  bool done_ = false, pending_ = false;
};

// Reading a log back (both formats): what `kairo view` and the tests use.
struct CounterLogData {
  sim::Time interval_ps = 0, clock_period_ps = 0;
  int vcs = 1;
  std::vector<LinkInfo> links;
  std::vector<TniInfo> tnis;
  struct Interval {
    sim::Time start = 0, end = 0;
    std::vector<std::pair<std::uint32_t, std::vector<std::uint64_t>>> links, tnis;  // (index, fields)
  };
  std::vector<Interval> intervals;
};
// Throws std::runtime_error naming the file and what is wrong.
CounterLogData read_counter_log(const std::string& path);

}  // namespace kairo::platforms
