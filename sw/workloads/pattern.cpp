#include "sw/workloads/pattern.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "hw/ocs/circuit_controller.h"
#include "hw/ocs/ocs_fabric.h"
#include "platforms/network.h"
#include "sw/hybrid/forwarding.h"
#include "sw/hybrid/partitioning.h"
#include "sw/hybrid/pattern.h"

namespace kairo::sw {
namespace {

using hybrid::Flow;

// The grid must hold exactly the platform's `ranks` (checked before the
// pattern, a ranks x ranks matrix, is built).
hybrid::NeighborGrid grid_param(Params& prm, std::uint64_t ranks) {
  hybrid::NeighborGrid g;
  const std::string t = prm.text("grid", "8x16");
  unsigned long long rows = 0, cols = 0;
  char x = 0, rest = 0;
  if (std::sscanf(t.c_str(), "%llu%c%llu%c", &rows, &x, &cols, &rest) != 3 || x != 'x' || rows < 1 ||
      cols < 1 || t.find('-') != std::string::npos)
    throw std::invalid_argument("--param grid=" + t + ": expected ROWSxCOLS, e.g. 8x16");
  if (rows > ranks || cols > ranks || rows * cols != ranks)
    throw std::invalid_argument(
        fmt::format("--param grid={}: expected ROWS x COLS = {} (the platform's ranks), got {}", t, ranks,
                    rows <= ranks && cols <= ranks ? fmt::format("{}", rows * cols) : std::string("more")));
  g.rows = int(rows);
  g.cols = int(cols);
  g.size = prm.bytes("size", 40000000, 1);
  g.periodic = prm.integer("periodic", 0, 0, 1) == 1;
  return g;
}

// Where one hop of a flow lands: the final slot at the destination, or a
// transit slot (one per iteration) at a relay.
struct Slots {
  std::vector<std::uint64_t> send, in, transit;     // per node: region sizes (transit: per iteration)
  std::vector<std::uint64_t> out_off, final_off;    // per flow
  std::vector<std::vector<std::uint64_t>> hop_off;  // per flow, per hop < last: transit offset at hops[h].to
};

Slots lay_out(const std::vector<Flow>& flows, std::size_t nodes) {
  Slots s;
  s.send.assign(nodes, 0);
  s.in.assign(nodes, 0);
  s.transit.assign(nodes, 0);
  for (const Flow& f : flows) {
    s.out_off.push_back(s.send[f.src]);
    s.send[f.src] += f.bytes;
    s.final_off.push_back(s.in[f.dst]);
    s.in[f.dst] += f.bytes;
    s.hop_off.emplace_back();
    for (std::size_t h = 0; h + 1 < f.hops.size(); ++h) {
      s.hop_off.back().push_back(s.transit[f.hops[h].to]);
      s.transit[f.hops[h].to] += f.bytes;
    }
  }
  return s;
}

class PatternWorkload final : public Workload {
 public:
  PatternWorkload(Params& prm, const MachineInfo& m) : plat_(*m.platform) {
    const platforms::Platform& p = plat_;
    if (p.kind != platforms::FabricKind::kFatTree || p.fabric.levels > 0)
      throw std::invalid_argument("pattern: needs a two-level fat tree (eps-tree-128, hybrid-eps-ocs-128)");
    if (p.ranks() != p.nodes()) throw std::invalid_argument("pattern: needs one rank on every node");
    source_ = prm.text("pattern", "neighbor");
    hybrid::Pattern pat;
    if (source_ == "neighbor") {
      grid_ = grid_param(prm, p.ranks());
      pat = hybrid::neighbor_pattern(grid_);
    } else {
      try {
        pat = hybrid::load_pattern_csv(source_);
      } catch (const hybrid::PatternError& e) {  // names the file and line: bad input
        throw std::invalid_argument(std::string("--param pattern: ") + e.what());
      }
    }
    if (std::uint64_t(pat.ranks) != p.ranks())
      throw std::invalid_argument(fmt::format("--param pattern={}: {} processes, but {} has {} ranks",
                                              source_, pat.ranks, p.name, p.ranks()));
    iterations_ = int(prm.integer("iterations", 5, 1, 1000));
    scheme_ = scheme_param(prm, p);
    requested_ =
        int(prm.integer("pathways", p.ocs.pathways, 0, std::int64_t(p.ocs.optical_nodes.size()) / 2));
    circuits_ = prm.text("circuits", "preset");
    if (circuits_ != "preset" && circuits_ != "request")
      throw std::invalid_argument("--param circuits=" + circuits_ + ": expected preset or request");
    plan(pat);
  }

  // Every node: its messages to send, its final slots and a transit slot per
  // iteration for what it relays; data mode writes every byte of them. Summed
  // in double from the flows (the slots' own sums may wrap around for a huge size).
  Footprint footprint() const override {
    const std::size_t nodes = slots_.send.size();
    std::vector<double> send(nodes, 0.0), in(nodes, 0.0), transit(nodes, 0.0);
    for (const Flow& f : flows_) {
      send[f.src] += double(f.bytes);
      in[f.dst] += double(f.bytes);
      for (std::size_t h = 0; h + 1 < f.hops.size(); ++h) transit[f.hops[h].to] += double(f.bytes);
    }
    Footprint fp;
    double rank = 0;
    for (std::size_t n = 0; n < nodes; ++n) {
      const double recv = in[n] + iterations_ * transit[n];
      fp.data_bytes += send[n] + recv;
      rank = std::max(rank, collective_rank_bytes(send[n], recv));
    }
    fp.rank_bytes = whole_bytes(rank);
    return fp;
  }

  nlohmann::json params() const override {
    nlohmann::json j = {{"pattern", source_},
                        {"iterations", iterations_},
                        {"scheme", scheme_},
                        {"pathways", requested_},
                        {"circuits", circuits_}};
    if (source_ == "neighbor")
      j.update({{"grid", fmt::format("{}x{}", grid_.rows, grid_.cols)},
                {"size", grid_.size},
                {"periodic", grid_.periodic}});
    return j;
  }

  void setup(HostMemory& m) override {
    for (std::size_t n = 0; n < slots_.send.size(); ++n)
      fill_pattern(m, rank_of_node(n), 0, slots_.send[n], proc_of_node_[n]);
  }

  void attach(platforms::Network& net) override {
    net_ = &net;
    if (pathways_.empty()) return;
    platforms::OpticalNetwork* h = net.optical();
    if (circuits_ == "preset")
      for (const hybrid::Pathway& pw : pathways_)
        if (std::string why = h->preset_pathway(pw.a, pw.b); !why.empty())
          throw std::invalid_argument(fmt::format("pattern: pathway {} - {}: {}", pw.a, pw.b, why));
  }

  bool uses_optical() const override { return true; }
  bool reads_blocks_at_end() const override { return true; }  // measured(): the switches' counters
  std::string requests_circuits() const override {
    return circuits_ == "request" && !pathways_.empty() ? "--param circuits=request" : "";
  }

  fw::Task program(fw::Rank& r) override {
    const std::size_t n = r.node();
    const coll::Buffers b =
        collective_buffers(r, slots_.send[n], slots_.in[n] + std::uint64_t(iterations_) * slots_.transit[n]);
    co_await r.compute(kStart);
    if (circuits_ == "request")  // the pathway's first node asks the controller
      for (const hybrid::Pathway& pw : pathways_)
        if (pw.a == n)
          if (std::string why = r.request_pathway(rank_of_node(pw.b)); !why.empty())
            throw std::runtime_error(
                fmt::format("rank {}: pathway to node {} refused: {}", r.rank(), pw.b, why));
    co_await coll::run_schedule(r, schedule(n), b, &ok_, &log_);
    end_[std::size_t(r.rank())] = r.now();
  }

  void results(Results& v) override {
    v.latest(end_);
    v.phases(log_);
    v.all(ok_);
  }

  Outcome outcome(HostMemory* memory) override;

 private:
  int rank_of_node(std::size_t n) const { return rank_of_node_[n]; }
  void plan(const hybrid::Pattern& pat);
  coll::Schedule schedule(std::size_t node) const;
  std::uint32_t tag(int it, std::size_t f, std::size_t h) const {
    return std::uint32_t(1 + (std::uint64_t(it) * flows_.size() + f) * max_hops_ + h);
  }
  nlohmann::json measured() const;

  const platforms::Platform& plat_;
  std::string source_, scheme_, circuits_;
  hybrid::NeighborGrid grid_;
  int iterations_ = 5, requested_ = 0;
  hybrid::EpsShape shape_;
  std::vector<hybrid::Pathway> pathways_;
  std::vector<std::uint32_t> node_of_proc_;
  std::vector<int> proc_of_node_, rank_of_node_;
  std::vector<Flow> flows_;
  std::size_t max_hops_ = 1;
  Slots slots_;
  std::vector<sim::Time> end_;
  coll::PhaseLog log_;
  bool ok_ = true;
  platforms::Network* net_ = nullptr;
};

void PatternWorkload::plan(const hybrid::Pattern& pat) {
  const platforms::Platform& p = plat_;
  const std::size_t nodes = std::size_t(p.nodes());
  shape_.edges = p.fabric.edges;
  shape_.hosts_per_edge = p.fabric.hosts_per_edge;
  shape_.host_bytes_per_s = p.fabric.host.bytes_per_s;
  shape_.up_bytes_per_s = p.fabric.up.bytes_per_s;
  shape_.ocs_bytes_per_s = p.ocs.present ? p.ocs.bytes_per_s : p.fabric.host.bytes_per_s;
  std::vector<bool> optical(nodes, false);
  for (std::uint32_t n : p.ocs.optical_nodes) optical[n] = true;
  const std::uint64_t threshold = p.ocs.threshold_bytes;
  node_of_proc_ = hybrid::sequential_placement(pat.ranks);
  if (scheme_ == "sp") {
    pathways_ = hybrid::assign_sp(shape_, pat, node_of_proc_, requested_, threshold, optical);
  } else if (scheme_ == "cp") {
    hybrid::Placement pl = hybrid::assign_cp(shape_, pat, requested_, threshold, optical);
    node_of_proc_ = std::move(pl.node_of_rank);
    pathways_ = std::move(pl.pathways);
  }
  const hybrid::ForwardingTables tables(shape_, pathways_, optical, threshold);
  for (Flow& f : tables.plan(pat, node_of_proc_))
    if (f.bytes > 0 && f.src != f.dst) flows_.push_back(std::move(f));
  for (const Flow& f : flows_) max_hops_ = std::max(max_hops_, f.hops.size());
  proc_of_node_.assign(nodes, -1);
  for (std::size_t q = 0; q < node_of_proc_.size(); ++q) proc_of_node_[node_of_proc_[q]] = int(q);
  rank_of_node_.assign(nodes, -1);
  for (std::uint64_t r = 0; r < p.ranks(); ++r) rank_of_node_[p.node_of_rank(r)] = int(r);
  slots_ = lay_out(flows_, nodes);
  end_.assign(std::size_t(p.ranks()), kStart);
}

// One step per iteration: this node's own messages and its relays (each
// posted once its incoming copy is complete), then every arrival here.
coll::Schedule PatternWorkload::schedule(std::size_t node) const {
  coll::Schedule s;
  for (int it = 0; it < iterations_; ++it) {
    coll::Step st;
    st.phase = "iteration";
    std::map<std::pair<std::size_t, std::size_t>, int> wait_of;  // (flow, hop) -> wait index
    auto lands_at = [&](std::size_t f, std::size_t h) {
      const std::vector<hybrid::Hop>& hops = flows_[f].hops;
      const std::uint32_t to = hops[h].to;
      return h + 1 == hops.size()
                 ? slots_.final_off[f]
                 : slots_.in[to] + std::uint64_t(it) * slots_.transit[to] + slots_.hop_off[f][h];
    };
    for (std::size_t f = 0; f < flows_.size(); ++f)
      for (std::size_t h = 0; h < flows_[f].hops.size(); ++h)
        if (flows_[f].hops[h].to == node) {
          wait_of[{f, h}] = int(st.waits.size());
          st.waits.push_back(coll::Wait{rank_of_node(flows_[f].hops[h].from), tag(it, f, h)});
        }
    for (std::size_t f = 0; f < flows_.size(); ++f)
      for (std::size_t h = 0; h < flows_[f].hops.size(); ++h) {
        const hybrid::Hop& hop = flows_[f].hops[h];
        if (hop.from != node) continue;
        coll::Put put{rank_of_node(hop.to), 0, lands_at(f, h), flows_[f].bytes, tag(it, f, h),
                      hop.optical ? 1 : 0};
        if (h == 0) {
          put.src_offset = slots_.out_off[f];
        } else {  // EO-OE relay: forward the copy that landed here once it is complete
          put.from_recv = true;
          put.src_offset = lands_at(f, h - 1);
          put.after = wait_of.at({f, h - 1});
        }
        st.puts.push_back(put);
      }
    s.push_back(std::move(st));
  }
  return s;
}

Outcome PatternWorkload::outcome(HostMemory* memory) {
  double sent = 0;
  for (const Flow& f : flows_) sent += double(f.bytes);
  Outcome o = collective_outcome(end_, sent / double(plat_.ranks()) * iterations_, ok_);
  if (memory) {
    bool good = true;
    std::vector<unsigned char> got;
    for (std::size_t f = 0; f < flows_.size() && good; ++f) {
      got.resize(flows_[f].bytes);
      const int dst = rank_of_node(flows_[f].dst);
      memory->read(
          dst,
          recv_region_address(std::max<std::uint64_t>(slots_.send[flows_[f].dst], 8)) + slots_.final_off[f],
          got.data(), got.size());
      for (std::uint64_t i = 0; i < got.size() && good; ++i)
        good = got[i] == pattern_byte(flows_[f].src_rank, slots_.out_off[f] + i);
    }
    set_verified(o, good, "a message did not arrive byte-exact after its relays");
  }
  const hybrid::Tally model = hybrid::tally(shape_, pathways_, flows_);
  o.details = measured();
  o.details["pathways_assigned"] = pathways_.size();
  o.details["model_top_switch_bytes"] = double(model.top_switch_bytes) * iterations_;
  o.details["model_max_node_eps_bytes"] = double(model.max_node_eps_bytes()) * iterations_;
  o.details["model_pathways_used"] = model.pathways_used();
  int relayed = 0, optical = 0;
  for (const Flow& f : flows_) {
    relayed += f.hops.size() > 1;
    for (const hybrid::Hop& h : f.hops) optical += h.optical;
  }
  o.details["messages_per_iteration"] = flows_.size();
  o.details["relayed_messages_per_iteration"] = relayed;
  o.details["optical_hops_per_iteration"] = optical;
  o.details["iterations"] = phase_times(log_);
  return o;
}

// What the network counted: bytes into the top switch (every port), each
// node's EPS link both ways (at its edge switch's host port), the pathways
// that carried bytes, and the circuit controller's reconfigurations.
nlohmann::json PatternWorkload::measured() const {
  nlohmann::json j;
  const sim::Time now = end_.empty() ? 0 : *std::max_element(end_.begin(), end_.end());
  const platforms::SwitchedFabric& f = plat_.fabric;
  std::uint64_t top = 0, node_max = 0;
  for (std::size_t s = std::size_t(f.edges); s < net_->num_routers(); ++s) {
    router::Router& sw = net_->router_at(s);
    for (int port = 0; port < sw.num_ports(); ++port) top += sw.counters(port, now).bytes_received;
  }
  for (int e = 0; e < f.edges; ++e) {
    router::Router& sw = net_->router_at(std::size_t(e));
    for (int h = 0; h < f.hosts_per_edge; ++h) {
      const auto c = sw.counters(sw.num_ports() - f.hosts_per_edge + h, now);
      node_max = std::max(node_max, c.bytes_sent + c.bytes_received);
    }
  }
  j["top_switch_bytes"] = top;
  j["max_node_eps_bytes"] = node_max;
  if (platforms::OpticalNetwork* h = net_->optical()) {
    int used = 0;
    for (const hybrid::Pathway& pw : pathways_) {
      const auto a = h->ocs().counters(h->port_of(pw.a), now), b = h->ocs().counters(h->port_of(pw.b), now);
      used += a.bytes_sent + b.bytes_sent > 0;
    }
    sim::Time reconf = 0;
    for (int port = 0; port < h->ocs().ports(); ++port)
      reconf += h->ocs().counters(port, now).reconfiguring_ps;
    j["pathways_used"] = used;
    j["circuit_reconfigurations"] = h->controller().reconfigurations();
    j["circuit_reconfiguration_ns"] = double(reconf) / 1000.0;
  }
  return j;
}

}  // namespace

std::unique_ptr<Workload> make_pattern(Params& p, const MachineInfo& m) {
  return std::make_unique<PatternWorkload>(p, m);
}

}  // namespace kairo::sw
