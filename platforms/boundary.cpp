#include "platforms/boundary.h"

#include <fmt/format.h>

#include <cstring>
#include <optional>
#include <stdexcept>
#include <type_traits>

#include "platforms/ocs_boundary.h"

namespace kairo::platforms {

static_assert(std::is_trivially_copyable_v<hw::Packet>, "packets cross between processes as bytes");

// Stands in for a router of another process, on both directions of the links
// to it: packets it would accept and credits it would get back.
class RouterBoundary::StandIn final : public hw::PacketSink, public hw::CreditSink {
 public:
  StandIn(RouterBoundary& b, int peer, std::uint32_t router) : b_(b), peer_(peer), router_(router) {}
  void accept(int port, int vc, hw::Packet* p) override { b_.send_packet(peer_, router_, port, vc, p); }
  void return_credits(int port, int vc, int flits, sim::Time at) override {
    b_.send_credits(peer_, router_, port, vc, flits, at);
  }

 private:
  RouterBoundary& b_;
  int peer_;
  std::uint32_t router_;
};

RouterBoundary::RouterBoundary(Network& net, const Partition& part, int rank, hw::PacketPool& pool,
                               hw::PayloadCodec* codec)
    : net_(net), outbox_(part.processes, pool, codec) {
  if (part.owner.size() != net.num_routers())
    throw std::logic_error("RouterBoundary: the partition is not of this network");
  // A router's sinks -> its index: the routers built here, and in a partial
  // build (OwnedPart) the placeholders at the cut cables' far ends.
  std::unordered_map<const void*, std::uint32_t> index;
  for (std::uint32_t i = 0; i < net.num_routers(); ++i) {
    if (!net.has_router(i)) continue;
    ++built_routers_;
    router::Router& r = net.router_at(i);
    index[static_cast<const hw::PacketSink*>(&r)] = i;
    index[static_cast<const hw::CreditSink*>(&r)] = i;
  }
  auto remote_of = [&index](const auto* sink) -> std::optional<std::uint32_t> {
    if (auto it = index.find(sink); it != index.end()) return it->second;
    if (auto* far = dynamic_cast<const RemoteRouter*>(sink)) return far->index();
    return std::nullopt;
  };
  auto stand_in = [&](std::uint32_t remote) {
    auto& s = stand_ins_[remote];
    if (!s) s = std::make_unique<StandIn>(*this, part.owner[remote], remote);
    return s.get();
  };
  for (std::uint32_t i = 0; i < net.num_routers(); ++i) {
    if (part.owner[i] != rank) continue;
    router::Router& r = net.router_at(i);
    for (int port = 0; port < r.num_ports(); ++port) {
      bool cut = false;
      if (auto far = remote_of(r.output_sink(port)); far && part.owner[*far] != rank) {
        r.set_output_sink(port, stand_in(*far));
        cut = true;
      }
      if (auto far = remote_of(r.upstream_sink(port)); far && part.owner[*far] != rank) {
        r.set_upstream_sink(port, stand_in(*far));
        cut = true;
      }
      cut_ports_ += cut;
    }
  }
}

RouterBoundary::~RouterBoundary() = default;

void Outbox::pack(sim::ByteWriter& w, hw::Packet* p) {
  if (p->user && !codec_)
    throw std::logic_error("a packet with a payload descriptor crossed processes without a codec");
  w.put_bytes(p, sizeof(hw::Packet));
  if (p->user) codec_->pack(p->user, w);
  sent_.push_back(p);
}

hw::Packet* Outbox::unpack(sim::ByteReader& r) {
  hw::Packet* p = pool_.get();
  r.get_bytes(p, sizeof(hw::Packet));
  p->next = nullptr;
  if (p->user) {
    if (!codec_) throw std::runtime_error("a boundary packet carries a payload and there is no codec");
    p->user = codec_->unpack(r);
  }
  return p;
}

void Outbox::take(std::vector<std::vector<char>>& out) {
  for (std::size_t p = 0; p < out_.size(); ++p) out[p].swap(out_[p]);
  for (hw::Packet* p : sent_) {
    if (p->user) codec_->release(p->user);
    pool_.put(p);
  }
  sent_.clear();
}

void RouterBoundary::send_packet(int peer, std::uint32_t router, int port, int vc, hw::Packet* p) {
  sim::ByteWriter w = outbox_.to(peer);
  w.put(kPacket);
  w.put(router);
  w.put(std::uint16_t(port));
  w.put(std::uint16_t(vc));
  outbox_.pack(w, p);  // the router reads it on after handing it over
  ++packets_sent_;
}

void RouterBoundary::send_credits(int peer, std::uint32_t router, int port, int vc, int flits, sim::Time at) {
  sim::ByteWriter w = outbox_.to(peer);
  w.put(kCredits);
  w.put(router);
  w.put(std::uint16_t(port));
  w.put(std::uint16_t(vc));
  w.put(std::uint16_t(flits));
  w.put(at);
  ++credits_sent_;
}

void RouterBoundary::take_outgoing(std::vector<std::vector<char>>& out) { outbox_.take(out); }

void RouterBoundary::deliver(int from, const std::vector<char>& bytes, sim::Time window_end) {
  sim::ByteReader r(bytes);
  while (!r.done()) {
    const auto kind = r.get<std::uint8_t>();
    const auto router = r.get<std::uint32_t>();
    const int port = r.get<std::uint16_t>();
    const int vc = r.get<std::uint16_t>();
    if (router >= net_.num_routers() || !net_.has_router(router))
      throw std::runtime_error("a boundary message names no router of this process");
    router::Router& dst = net_.router_at(router);
    if (kind == kPacket) {
      hw::Packet* p = outbox_.unpack(r);
      if (p->arrive_ps < window_end)
        throw std::logic_error(fmt::format(
            "partitioned run: a packet from process {} arrives at {} ps, before the window's end at {} ps "
            "(the lookahead is too long for this link)",
            from, p->arrive_ps, window_end));
      dst.accept(port, vc, p);
    } else if (kind == kCredits) {
      const int flits = r.get<std::uint16_t>();
      const auto at = r.get<sim::Time>();
      if (at < window_end)
        throw std::logic_error(fmt::format(
            "partitioned run: credits from process {} return at {} ps, before the window's end at {} ps "
            "(the lookahead is too long for this link)",
            from, at, window_end));
      dst.return_credits(port, vc, flits, at);
    } else {
      throw std::runtime_error("a boundary message of an unknown kind");
    }
  }
}

sim::StillnessWatch parallel_watch(Network& net, const sim::MpiWorld& world) {
  hw::Watchdog& wd = net.watchdog();
  wd.set_external();
  sim::StillnessWatch w;
  w.timeout = wd.timeout_ps();
  w.last_progress = [&net] { return net.activity().last_progress_ps; };
  w.check = [&net, &world, &wd](sim::Time, bool) {
    const hw::NetworkActivity& act = net.activity();
    // Each process counts what it injected minus what it delivered; the sum
    // (modulo 2^64, as the counters wrap) is the network's.
    std::vector<std::uint64_t> sums = {act.in_network, act.held};
    world.sum(sums);
    if (sums[0] == 0 || sums[1] > 0) return false;  // empty, or back-pressured by a receiver
    std::vector<char> mine;
    sim::ByteWriter out(mine);
    for (const std::string& line : wd.report()) out.put_string(line);
    std::vector<std::string> blocked;
    for (const auto& bytes : world.gather(mine)) {
      sim::ByteReader in(bytes);
      while (!in.done() && blocked.size() < 64) blocked.push_back(in.get_string());
    }
    wd.fire(std::move(blocked));
    return true;
  };
  return w;
}

nlohmann::json split_report(const sim::MpiWorld& world, const Partition& part, const sim::WindowStats& w,
                            const RouterBoundary& b, const OcsBoundary* optical) {
  std::vector<std::uint64_t> sums = {w.bytes_sent, b.packets_sent(), b.credits_sent(), 0, 0};
  if (optical) sums[3] = optical->packets_sent(), sums[4] = optical->credits_sent();
  world.sum(sums);
  const double wait = double(world.max(std::uint64_t(w.sync_s * 1e6))) / 1e6;
  nlohmann::json j = {{"processes", part.processes},
                      {"partition", partition_method_name(part.method)},
                      {"lookahead_ps", part.lookahead_ps},
                      {"imbalance", part.imbalance},
                      {"cut_links", part.cut.size()},
                      {"windows", w.windows},
                      {"agreements", w.agreements},
                      {"exchanges_with_all", w.global_exchanges},
                      {"bytes_exchanged", sums[0]},
                      {"bytes_per_window", w.windows ? double(sums[0]) / double(w.windows) : 0.0},
                      {"packets_exchanged", sums[1]},
                      {"credit_messages", sums[2]},
                      {"sync_s_max", wait},
                      {"routers_built_max", world.max(b.built_routers())}};
  if (optical) {
    j["optical_packets_exchanged"] = sums[3];
    j["optical_credit_messages"] = sums[4];
  }
  return j;
}

}  // namespace kairo::platforms
