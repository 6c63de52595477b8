#include "sw/workloads/put_bw.h"

#include <fmt/format.h>

#include <algorithm>

namespace kairo::sw {

namespace {

class PutBw final : public Workload {
 public:
  PutBw(Params& prm, const MachineInfo& m) : m_(m) {
    size_ = prm.bytes("size", std::uint64_t(16) << 20, 1, std::uint64_t(1) << 40);
    tnis_ = int(prm.integer("tnis", m.tnis, 1, m.tnis));
    src_ = int(prm.integer("src", 0, 0, m.nodes - 1));
    count_ = int(prm.integer("count", 1, 1, 1 << 20));
    if (m.topology) {  // mesh/torus: one neighbour per TNI, so each has its own link
      const hw::Topology& t = *m.topology;
      std::vector<int> rank_on(t.num_nodes(), -1);  // node -> rank (ranks.map)
      for (int r = 0; r < m.nodes; ++r) rank_on[m.platform->node_of_rank(std::uint64_t(r))] = r;
      const hw::NodeId here = m.platform->node_of_rank(std::uint64_t(src_));
      for (int d = 0; d < t.num_dims(); ++d)
        for (int dir : {+1, -1})
          if (auto n = t.neighbor(here, d, dir); n && rank_on[*n] >= 0)
            if (std::find(dsts_.begin(), dsts_.end(), rank_on[*n]) == dsts_.end())
              dsts_.push_back(rank_on[*n]);
    } else {  // switched fabric: the next ranks (a host's TNIs share its switch)
      for (int k = 1; k < m.nodes && int(dsts_.size()) < tnis_; ++k) dsts_.push_back((src_ + k) % m.nodes);
    }
    if (int(dsts_.size()) < tnis_)
      throw std::invalid_argument(
          fmt::format("--param tnis={}: rank {} has only {} distinct neighbours", tnis_, src_, dsts_.size()));
    dsts_.resize(std::size_t(tnis_));
    end_.assign(std::size_t(tnis_), 0);
  }

  nlohmann::json params() const override {
    return {{"size", size_}, {"tnis", tnis_}, {"src", src_}, {"count", count_}, {"destinations", dsts_}};
  }

  // Every rank allocates one buffer of `size`; data mode writes the source's
  // and its destinations' (`count` messages land in the same place).
  Footprint footprint() const override { return {double(size_) * (1 + tnis_), size_}; }

  void setup(HostMemory& m) override { fill_pattern(m, src_, 0, size_); }

  fw::Task program(fw::Rank& r) override {
    // The source at src, the landing zone elsewhere; at address 0 on every rank.
    const nic::MemKey buf = r.reg_mem(1, r.alloc(size_), size_);
    // For the progress lines: the source's puts, count_ messages on each of its TNIs.
    r.plan_work(r.rank() == src_ ? size_ * std::uint64_t(count_) * std::uint64_t(tnis_) : 0);
    co_await r.compute(kStart);
    if (r.rank() != src_) co_return;
    start_ = r.now();
    // All TNIs start at once: each engine's posts go in one sub-task, and
    // the rank waits for them in turn.
    std::vector<fw::Task> streams;
    for (int i = 0; i < tnis_; ++i) streams.push_back(stream(r, i, buf));
    for (auto& s : streams) r.spawn(s);
    for (auto& s : streams) co_await s;
  }

  void results(Results& v) override {
    v.latest(start_);
    v.latest(end_);
    v.all(ok_);
  }

  Outcome outcome(HostMemory* m) override {
    const sim::Time end = *std::max_element(end_.begin(), end_.end());
    const double bytes = double(size_) * count_;
    Outcome o = measured_outcome(start_, end, double(end - start_) / 1000.0, bytes * tnis_, ok_);
    const platforms::Platform& p = *m_.platform;
    const double flits = double(p.nic.max_packet_flits(p.router.flit_bytes));
    const bool torus = p.kind == platforms::FabricKind::kTorus;
    const double link = torus ? p.router.link_bytes_per_s : p.fabric.host.bytes_per_s;
    const double link_payload = link * p.nic.mtu_bytes / (flits * p.router.flit_bytes);
    const double host = torus && p.router.host_bytes_per_s > 0 ? p.router.host_bytes_per_s : link;
    const double injection_payload = host * p.nic.mtu_bytes / (flits * p.router.flit_bytes);
    const double dma = p.nic.dma_bytes_per_s;
    const double per_tni = std::min({dma, link_payload, injection_payload});
    // The injection channel is named only when it is slower than the network links.
    const char* bound = per_tni == dma ? "dma" : per_tni == link_payload ? "link" : "injection";
    nlohmann::json per = nlohmann::json::array();
    for (double t : end_) per.push_back(bytes / (t - double(start_)) * 1000.0);
    o.details = {{"bound", bound},
                 {"bound_gbps", per_tni * tnis_ / 1e9},
                 {"dma_gbps_per_tni", dma / 1e9},
                 {"link_payload_gbps", link_payload / 1e9},
                 {"injection_payload_gbps", injection_payload / 1e9},
                 {"per_tni_gbps", per},
                 {"bytes", bytes * tnis_}};
    if (m) {
      bool v = true;
      for (int d : dsts_) v = v && check_pattern(*m, d, 0, src_, size_);
      set_verified(o, v, "data mismatch");
    }
    return o;
  }

 private:
  fw::Task stream(fw::Rank& r, int tni, nic::MemKey buf) {
    const int dst = dsts_[std::size_t(tni)];
    std::vector<std::uint64_t> handles;
    for (int k = 0; k < count_; ++k)
      co_await put_message(r, tni, dst, r.remote_key(dst, 1), 0, buf, 0, size_, std::uint32_t(tni + 1),
                           m_.platform->nic.max_descriptor_bytes, &handles);
    for (std::uint64_t h : handles) {
      nic::Completion c;
      co_await r.complete(tni, h, &c);
      ok_ = ok_ && c.status == nic::RdmaStatus::kOk;
      end_[std::size_t(tni)] = std::max(end_[std::size_t(tni)], c.time_ps);
    }
  }

  MachineInfo m_;
  std::uint64_t size_ = 0;
  int tnis_ = 1, src_ = 0, count_ = 1;
  std::vector<int> dsts_;
  sim::Time start_ = 0;
  std::vector<sim::Time> end_;
  bool ok_ = true;
};

}  // namespace

WorkloadInfo put_bw_workload() {
  return {"put-bw",
          "bandwidth of large puts from one rank on 1..n TNIs, each to its own neighbour (size, tnis, src, "
          "count)",
          workload_of<PutBw>};
}

}  // namespace kairo::sw
