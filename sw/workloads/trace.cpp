#include "sw/workloads/trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "hw/ocs/circuit_controller.h"
#include "platforms/network.h"
#include "sw/hybrid/forwarding.h"
#include "sw/hybrid/partitioning.h"
#include "sw/replay/mpi.h"

namespace kairo::sw {
namespace {

using replay::Act;

std::uint64_t pages(std::uint64_t b) { return (std::max<std::uint64_t>(b, 8) + 4095) / 4096 * 4096; }

class TraceWorkload final : public Workload {
 public:
  TraceWorkload(Params& prm, const MachineInfo& m) : plat_(*m.platform) {
    path_ = prm.text("trace", "");
    if (path_.empty())
      throw std::invalid_argument(
          "--workload trace: needs --param trace=DIR/traces.otf2 (an OTF2 archive's anchor file)");
    rp_.compute_scale = prm.real("compute_scale", 1.0, 0.0, 1e6);
    rp_.options.eager_limit = prm.bytes("eager_limit", 12288, 0, std::uint64_t(1) << 40);
    rp_.copy_bytes_per_s = prm.real("copy_gbps", 10.0, 1e-3, 1e6) * 1e9;
    const std::string strict = prm.text("strict", "false");
    if (strict != "true" && strict != "false")
      throw std::invalid_argument("--param strict=" + strict + ": expected true or false");
    for (int k = 0; k <= int(replay::CollOp::kScan); ++k) {
      const std::string name = replay::coll_name(replay::CollOp(k));
      if (std::string a = prm.text("algo." + name, ""); !a.empty()) rp_.options.algorithms[name] = a;
    }
    scheme_ = scheme_param(prm, plat_);
    if (plat_.ocs.present)
      requested_ = int(
          prm.integer("pathways", plat_.ocs.pathways, 0, std::int64_t(plat_.ocs.optical_nodes.size()) / 2));
    replay::check_options(rp_.options);
    prm.check_all_used("trace");  // every parameter taken: a misspelt one is named before the trace is read
    try {
      trace_ = replay::read_otf2(path_);
      if (strict == "true" && !trace_.unknown_calls.empty()) {
        std::string list;
        for (const auto& [name, n] : trace_.unknown_calls)
          list += fmt::format("{}{} ({})", list.empty() ? "" : ", ", name, n);
        throw std::invalid_argument("--param trace=" + path_ +
                                    ": MPI calls the replay does not know: " + list +
                                    " (without --param strict=true they are replayed as their compute gaps)");
      }
      if (std::uint64_t(trace_.ranks) > std::uint64_t(m.nodes))
        throw std::invalid_argument(fmt::format("--param trace={}: the trace has {} ranks, but {} has {}",
                                                path_, trace_.ranks, plat_.name, m.nodes));
      plan_ = replay::make_plan(trace_, rp_.options);
    } catch (const replay::TraceError& e) {
      throw std::invalid_argument(std::string("--param trace: ") + e.what());
    }
    for (const auto& [name, n] : trace_.unknown_calls)
      std::cerr << fmt::format(
          "kairo: trace: {} {} call(s) not replayed (not point to point or a collective); "
          "their time counts as compute\n",
          n, name);
    place(m);
    lay_out();
  }

  nlohmann::json params() const override {
    nlohmann::json j = {{"trace", path_},
                        {"compute_scale", rp_.compute_scale},
                        {"eager_limit", rp_.options.eager_limit},
                        {"copy_gbps", rp_.copy_bytes_per_s / 1e9}};
    for (const auto& [k, v] : rp_.options.algorithms) j["algo." + k] = v;
    if (plat_.ocs.present) j.update({{"scheme", scheme_}, {"pathways", requested_}});
    return j;
  }

  Footprint footprint() const override { return footprint_; }

  void attach(platforms::Network& net) override {
    if (pathways_.empty()) return;
    platforms::OpticalNetwork* h = net.optical();
    for (const hybrid::Pathway& pw : pathways_)
      if (std::string why = h->preset_pathway(pw.a, pw.b); !why.empty())
        throw std::invalid_argument(fmt::format("trace: pathway {} - {}: {}", pw.a, pw.b, why));
  }
  bool uses_optical() const override { return rp_.hybrid; }

  fw::Task program(fw::Rank& r) override {
    const int t = trace_of_fw_[std::size_t(r.rank())];
    if (t < 0) co_return;  // a node the trace has no rank for
    co_await replay::replay_rank(r, rp_, t);
  }

  void results(Results& v) override {
    v.latest(rp_.end_ps);
    v.latest(rp_.compute_ps);
    v.latest(rp_.call_ps);
    v.latest(rp_.at_action);
    v.latest(rp_.errors);
    v.all(rp_.ok);
  }

  std::string waiting(int fw_rank) const override {
    const int t = trace_of_fw_[std::size_t(fw_rank)];
    return t < 0 ? "" : fmt::format("trace rank {} is {}", t, replay::waiting_for(rp_, t));
  }

  Outcome outcome(HostMemory*) override;

 private:
  void place(const MachineInfo& m);
  void lay_out();

  const platforms::Platform& plat_;
  std::string path_, scheme_ = "eps";
  int requested_ = 0;
  replay::Trace trace_;
  replay::Plan plan_;
  replay::Replay rp_;
  std::vector<int> trace_of_fw_;
  std::vector<hybrid::Pathway> pathways_;
  Footprint footprint_;
  std::uint64_t routed_ = 0, relayed_hops_ = 0;
};

// Trace rank i runs as the machine's rank i (ranks.map places it); under
// CP the partitioner places the ranks, and SP or CP route over pathways.
void TraceWorkload::place(const MachineInfo& m) {
  const int n = trace_.ranks;
  rp_.trace = &trace_;
  rp_.plan = &plan_;
  rp_.start = kStart;
  std::vector<int> fw_of_trace(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) fw_of_trace[std::size_t(i)] = i;
  std::vector<int> fw_of_node(std::size_t(plat_.nodes()), -1);
  for (std::uint64_t r = 0; r < plat_.ranks(); ++r) fw_of_node[plat_.node_of_rank(r)] = int(r);
  if (plat_.ocs.present && scheme_ != "eps") {
    if (std::uint64_t(n) != plat_.nodes() || plat_.ranks() != plat_.nodes())
      throw std::invalid_argument(
          fmt::format("--param scheme={}: needs a trace with one rank per node ({} has {} "
                      "nodes, the trace {} ranks); use scheme=eps",
                      scheme_, plat_.name, plat_.nodes(), n));
    hybrid::EpsShape shape;
    shape.edges = plat_.fabric.edges;
    shape.hosts_per_edge = plat_.fabric.hosts_per_edge;
    shape.host_bytes_per_s = plat_.fabric.host.bytes_per_s;
    shape.up_bytes_per_s = plat_.fabric.up.bytes_per_s;
    shape.ocs_bytes_per_s = plat_.ocs.bytes_per_s;
    hybrid::Pattern pat = hybrid::Pattern::zeros(n);
    for (const auto& [pair, v] : plan_.pairs) pat.at(pair.first, pair.second) += v.second;
    std::vector<bool> optical(std::size_t(plat_.nodes()), false);
    for (std::uint32_t node : plat_.ocs.optical_nodes) optical[node] = true;
    std::vector<std::uint32_t> node_of = hybrid::sequential_placement(n);
    if (scheme_ == "sp") {
      pathways_ = hybrid::assign_sp(shape, pat, node_of, requested_, plat_.ocs.threshold_bytes, optical);
    } else {
      hybrid::Placement pl = hybrid::assign_cp(shape, pat, requested_, plat_.ocs.threshold_bytes, optical);
      node_of = std::move(pl.node_of_rank);
      pathways_ = std::move(pl.pathways);
    }
    for (int i = 0; i < n; ++i) fw_of_trace[std::size_t(i)] = fw_of_node[node_of[std::size_t(i)]];
    const hybrid::ForwardingTables tables(shape, pathways_, optical, plat_.ocs.threshold_bytes);
    rp_.hybrid = true;
    rp_.ocs_threshold = plat_.ocs.threshold_bytes;
    for (hybrid::Flow& f : tables.plan(pat, node_of))
      if (f.hops.size() > 1 || (f.hops.size() == 1 && f.hops[0].optical))
        rp_.routes[(std::uint64_t(f.src_rank) << 32) | std::uint32_t(f.dst_rank)] = std::move(f.hops);
    if (plan_.messages.size() > replay::kNumberMask)
      throw std::invalid_argument(
          fmt::format("--param trace={}: {} messages; routing over pathways numbers them "
                      "in 29 bits; use scheme=eps",
                      path_, plan_.messages.size()));
  }
  rp_.fw_rank = fw_of_trace;
  trace_of_fw_.assign(std::size_t(m.nodes), -1);
  rp_.trace_of_node.assign(std::size_t(plat_.nodes()), -1);
  rp_.node.assign(std::size_t(n), 0);
  for (int i = 0; i < n; ++i) {
    const int fw = fw_of_trace[std::size_t(i)];
    trace_of_fw_[std::size_t(fw)] = i;
    rp_.node[std::size_t(i)] = plat_.node_of_rank(std::uint64_t(fw));
    rp_.trace_of_node[rp_.node[std::size_t(i)]] = i;
  }
  rp_.relays.assign(std::size_t(n), 0);
  for (const replay::Message& msg : plan_.messages) {
    const std::vector<hybrid::Hop>* hops = msg.src == msg.dst ? nullptr : rp_.route(msg);
    if (!hops) continue;
    ++routed_;
    for (std::size_t h = 0; h + 1 < hops->size(); ++h)
      ++rp_.relays[std::size_t(rp_.trace_of_node[(*hops)[h].to])];
    relayed_hops_ += hops->size() - 1;
    rp_.transit_bytes = std::max(rp_.transit_bytes, msg.bytes);
  }
  const std::size_t ranks = std::size_t(n);
  rp_.end_ps.assign(ranks, 0);
  rp_.compute_ps.assign(ranks, 0);
  rp_.call_ps.assign(ranks * trace_.call_names.size(), 0);
  rp_.at_action.assign(ranks, 0);
  rp_.errors.assign(ranks, 0);
}

// The regions replay_rank allocates (4 KiB aligned): the footprint check
// refuses what does not fit before anything is built.
void TraceWorkload::lay_out() {
  const std::uint64_t h = rp_.options.header_bytes;
  double rank = 0;
  for (int i = 0; i < trace_.ranks; ++i) {
    const std::size_t r = std::size_t(i);
    double b = double(pages(plan_.max_send[r] + h)) + double(pages(plan_.max_recv[r])) +
               double(pages(rp_.options.eager_limit + h)) + double(pages(plan_.coll_send[r])) +
               double(pages(plan_.coll_recv[r]));
    if (rp_.hybrid) b += double(pages(rp_.transit_bytes + h));
    footprint_.data_bytes += b;
    rank = std::max(rank, b);
  }
  footprint_.rank_bytes = whole_bytes(rank);
}

Outcome TraceWorkload::outcome(HostMemory*) {
  Outcome o = collective_outcome(rp_.end_ps, 0, rp_.ok);
  if (!rp_.ok) o.failure = "an operation completed with an error";
  std::uint64_t p2p_bytes = 0, eager = 0, rendezvous = 0;
  for (const replay::Message& m : plan_.messages) {
    p2p_bytes += m.bytes;
    (m.bytes <= rp_.options.eager_limit ? eager : rendezvous) += m.src != m.dst;
  }
  const double span_ns = o.latency_ns;
  o.bandwidth_gbps = span_ns > 0 ? double(p2p_bytes) / trace_.ranks / span_ns : 0;
  nlohmann::json& d = o.details;
  std::uint64_t recorded = 0;
  for (std::uint64_t v : trace_.recorded_ns) recorded = std::max(recorded, v);
  d["ranks"] = trace_.ranks;
  d["predicted_ns"] = span_ns;
  d["recorded_ns"] = double(recorded);
  d["recorded_clock"] = trace_.clock;
  if (trace_.wall_ns) d["recorded_wall_ns"] = double(trace_.wall_ns);
  d["p2p_messages"] = plan_.messages.size();
  d["p2p_bytes"] = p2p_bytes;
  d["eager_messages"] = eager;
  d["rendezvous_messages"] = rendezvous;
  if (rp_.hybrid) {
    d["routed_messages"] = routed_;
    d["relayed_hops"] = relayed_hops_;
    d["pathways_assigned"] = pathways_.size();
  }
  nlohmann::json pairs = nlohmann::json::array();
  for (const auto& [pair, v] : plan_.pairs) pairs.push_back({pair.first, pair.second, v.first, v.second});
  d["p2p_pairs"] = std::move(pairs);
  // Per call kind: how often the trace makes it, the bytes it moves (sends'
  // bytes, or sizeSent for a collective) and the predicted time in it, summed
  // over the ranks.
  const std::size_t kinds = trace_.call_names.size();
  std::vector<std::uint64_t> count(kinds, 0), bytes(kinds, 0), ps(kinds, 0);
  for (int r = 0; r < trace_.ranks; ++r) {
    std::uint16_t call = 0;
    for (const replay::Action& a : trace_.actions[std::size_t(r)]) {
      if (a.act == Act::kCall) ++count[call = a.call];
      if (a.act == Act::kSend) bytes[call] += a.bytes;
      if (a.act == Act::kCollective) bytes[call] += trace_.collectives[std::size_t(r)][a.bytes].sent;
    }
    for (std::size_t k = 0; k < kinds; ++k) ps[k] += rp_.call_ps[std::size_t(r) * kinds + k];
  }
  nlohmann::json calls = nlohmann::json::object();
  for (std::size_t k = 0; k < kinds; ++k)
    calls[trace_.call_names[k]] = {
        {"count", count[k]}, {"bytes", bytes[k]}, {"time_ns", double(ps[k]) / 1000.0}};
  d["calls"] = std::move(calls);
  nlohmann::json colls = nlohmann::json::object();
  for (const replay::Instance& in : plan_.instances) {
    nlohmann::json& c = colls[replay::coll_name(in.op)];
    if (c.is_null()) c = {{"count", 0}, {"bytes", 0}, {"algorithms", nlohmann::json::object()}};
    c["count"] = c["count"].get<std::uint64_t>() + 1;
    c["bytes"] = c["bytes"].get<std::uint64_t>() + in.traced_bytes;
    if (!in.algo.empty()) {
      nlohmann::json& a = c["algorithms"][in.algo];
      a = a.is_null() ? 1 : a.get<std::uint64_t>() + 1;
    }
  }
  d["collectives"] = std::move(colls);
  nlohmann::json per_rank = nlohmann::json::array();
  for (int r = 0; r < trace_.ranks; ++r) {
    const double end =
        double(rp_.end_ps[std::size_t(r)] - std::min(rp_.end_ps[std::size_t(r)], kStart)) / 1000.0;
    const double compute = double(rp_.compute_ps[std::size_t(r)]) / 1000.0;
    per_rank.push_back({{"rank", r},
                        {"end_ns", end},
                        {"compute_ns", compute},
                        {"communication_ns", std::max(0.0, end - compute)}});
  }
  d["per_rank"] = std::move(per_rank);
  if (!trace_.unknown_calls.empty()) d["unknown_calls"] = trace_.unknown_calls;
  if (trace_.dropped_receives) d["dropped_receives"] = trace_.dropped_receives;
  return o;
}

}  // namespace

std::unique_ptr<Workload> make_trace(Params& p, const MachineInfo& m) {
  return std::make_unique<TraceWorkload>(p, m);
}

}  // namespace kairo::sw
