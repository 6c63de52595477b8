#include "hw/ocs/ocs_fabric.h"

#include <fmt/format.h>

#include <stdexcept>

namespace kairo::ocs {

using sim::Time;

const char* to_string(PortState s) {
  switch (s) {
    case PortState::kDark:
      return "dark";
    case PortState::kSettingUp:
      return "setting up";
    case PortState::kUp:
      return "up";
    case PortState::kTearingDown:
      return "tearing down";
  }
  return "?";
}

// One port's view for its RDMA engine.
class OcsFabric::Gate final : public hw::CircuitGate {
 public:
  Gate(OcsFabric& f, int port) : f_(f), port_(port) {}
  bool open_to(std::uint32_t node) const override {
    const Port& p = f_.ports_[std::size_t(port_)];
    return p.state == PortState::kUp && f_.ports_[std::size_t(p.out)].node == node;
  }
  void on_change(std::function<void()> wake) override {
    f_.ports_[std::size_t(port_)].wake = std::move(wake);
  }
  hw::CircuitPolicy policy() const override { return f_.cfg_.policy; }

 private:
  OcsFabric& f_;
  int port_;
};

OcsFabric::OcsFabric(sc_core::sc_module_name name, const Config& cfg, sim::EventQueue& queue)
    : sc_core::sc_module(name), cfg_(cfg), queue_(queue), ports_(std::size_t(cfg.ports)) {
  for (int i = 0; i < cfg.ports; ++i) {
    Port& p = ports_[std::size_t(i)];
    p.gate = std::make_unique<Gate>(*this, i);
    p.rx_context = queue.make_context();
    p.tx_context = queue.make_context();
  }
}

void OcsFabric::attach(int port, std::uint32_t node, hw::Endpoint* ep, Time credit_delay_ps) {
  Port& p = ports_.at(std::size_t(port));
  p.node = node;
  p.ep = ep;
  p.credit_delay_ps = credit_delay_ps;
}

OcsFabric::~OcsFabric() = default;

hw::CircuitGate& OcsFabric::gate(int port) { return *ports_.at(std::size_t(port)).gate; }

std::string OcsFabric::port_name(int port) const { return fmt::format("p{}", port); }

// The time since the port's state began, added to the counter it belongs to.
void OcsFabric::add_open_state(const Port& p, Time now, OcsPortCounters& c) {
  if (p.state == PortState::kUp) c.up_ps += now - p.since_ps;
  if (p.state == PortState::kSettingUp || p.state == PortState::kTearingDown)
    c.reconfiguring_ps += now - p.since_ps;
}

void OcsFabric::close_state(Port& p, Time now) {
  add_open_state(p, now, p.c);
  p.since_ps = now;
}

void OcsFabric::set_state(int in, PortState s, int out) {
  Port& p = ports_.at(std::size_t(in));
  const Time now = queue_.now();
  if (s == PortState::kUp) {
    p.up_pending = true;
    p.out = out;
    ports_.at(std::size_t(out)).pending_in = in;
    return try_up(in);
  }
  close_state(p, now);
  if ((s == PortState::kSettingUp || s == PortState::kTearingDown) && p.state != s) ++p.c.reconfigurations;
  p.state = s;
  p.up_pending = false;
  p.out = s == PortState::kDark ? -1 : out;
  record(in);
  if (p.wake) p.wake();
}

// Up once the delay has passed (the caller) and both ends are drained.
void OcsFabric::try_up(int in) {
  Port& p = ports_[std::size_t(in)];
  if (!p.up_pending) return;
  Port& o = ports_[std::size_t(p.out)];
  for (const Port::Owed& e : o.owed)
    if (!owes_nothing(e)) return;  // return_credits() tries again
  if (p.outstanding != 0) return;
  p.up_pending = false;
  o.pending_in = -1;
  close_state(p, queue_.now());
  p.state = PortState::kUp;
  record(in);
  if (on_up) on_up(in, queue_.now());
  if (p.wake) p.wake();
}

void OcsFabric::record(int in) {
  if (!probe_) return;
  const Port& p = ports_[std::size_t(in)];
  const Time now = queue_.now();
  if (probe_->state[std::size_t(in)] != OcsProbe::kOff)
    probe_->trace->set(probe_->state[std::size_t(in)], now, std::uint64_t(p.state));
  if (probe_->peer[std::size_t(in)] != OcsProbe::kOff)
    probe_->trace->set(probe_->peer[std::size_t(in)], now, std::uint64_t(p.out + 1));
}

void OcsFabric::accept(int port, int vc, hw::Packet* p) {
  Port& in = ports_[std::size_t(port)];
  if (in.state != PortState::kUp)
    throw std::logic_error(fmt::format("{}: packet {} sent into port {} whose circuit is {}", name(), p->id,
                                       port, to_string(in.state)));
  in.tx_last_ps = p->tail_ps - p->injected_ps;
  in.tx_end_ps = p->tail_ps;
  in.c.busy_ps += in.tx_last_ps;
  ++in.c.packets_sent;
  in.c.flits_sent += p->flits;
  in.c.bytes_sent += p->bytes;
  in.outstanding += p->flits;
  p->arrive_ps += cfg_.latency_ps;
  p->tail_ps += cfg_.latency_ps;
  if (remote_ && remote_port_[std::size_t(in.out)])
    remote_->packet(port, vc, p);
  else
    receive(port, vc, p);
}

void OcsFabric::receive(int in, int vc, hw::Packet* p) {
  Port& out = ports_[std::size_t(ports_[std::size_t(in)].out)];
  const sim::EventQueue::Scope in_port_context(queue_, out.rx_context);
  ++out.c.packets_received;
  out.c.flits_received += p->flits;
  out.c.bytes_received += p->bytes;
  if (out.owed.empty() || out.owed.back().feeder != in) {
    if (!out.owed.empty() && owes_nothing(out.owed.back()))
      out.owed.back().feeder = in;  // reuse the drained entry: no allocation
    else
      out.owed.push_back({in, std::vector<std::int64_t>(std::size_t(cfg_.vcs), 0)});
  }
  out.owed.back().flits[std::size_t(vc)] += p->flits;
  out.ep->accept(0, vc, p);
}

// The receiving endpoint freed slots: the credits go to the oldest feeder
// still owed on that VC.
void OcsFabric::return_credits(int port, int vc, int flits, Time at) {
  Port& out = ports_[std::size_t(port)];
  for (std::size_t k = 0; k < out.owed.size(); ++k) {
    std::int64_t& owed = out.owed[k].flits[std::size_t(vc)];
    if (owed < flits) continue;
    owed -= flits;
    const int feeder = out.owed[k].feeder;
    // An older feeder's drained entry goes; the latest stays for reuse.
    if (k + 1 < out.owed.size() && owes_nothing(out.owed[k]))
      out.owed.erase(out.owed.begin() + std::ptrdiff_t(k));
    if (remote_ && remote_port_[std::size_t(feeder)])
      remote_->credits(feeder, vc, flits, at);
    else
      credit(feeder, vc, flits, at);
    if (out.pending_in >= 0) try_up(out.pending_in);
    return;
  }
  throw std::logic_error(
      fmt::format("{}: port {} returned {} credits on VC {} it does not owe", name(), port, flits, vc));
}

void OcsFabric::credit(int feeder, int vc, int flits, Time at) {
  Port& in = ports_[std::size_t(feeder)];
  const sim::EventQueue::Scope in_port_context(queue_, in.tx_context);
  in.outstanding -= flits;
  in.ep->return_credits(0, vc, flits, at + cfg_.latency_ps);
  try_up(feeder);
}

void OcsFabric::save_port(int port, sim::ByteWriter& w) const {
  const Port& p = ports_[std::size_t(port)];
  w.put(p.c);
  w.put(p.state);
  w.put(std::int32_t(p.out));
  w.put(p.since_ps);
  w.put(p.tx_end_ps);
  w.put(p.tx_last_ps);
}

void OcsFabric::load_port(int port, sim::ByteReader& r) {
  Port& p = ports_[std::size_t(port)];
  p.c = r.get<OcsPortCounters>();
  p.state = r.get<PortState>();
  p.out = r.get<std::int32_t>();
  p.since_ps = r.get<Time>();
  p.tx_end_ps = r.get<Time>();
  p.tx_last_ps = r.get<Time>();
}

OcsPortCounters OcsFabric::counters(int port, Time now) const {
  if (kept_elsewhere(port)) return {};  // by its node's process
  const Port& p = ports_[std::size_t(port)];
  OcsPortCounters c = p.c;
  add_open_state(p, now, c);
  return c;
}

}  // namespace kairo::ocs
