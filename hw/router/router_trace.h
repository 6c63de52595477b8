// The router's probe hooks (hw/router/router_probe.h): what a traced router
// records into its waveform as a packet arrives, waits and leaves, as
// credits move and as VCs are held. The units call a hook at the end of the
// step it observes, and only when on(): tracing costs a test of one pointer
// when off. The hooks themselves are out of line (router_trace.cpp).
#pragma once
#include <cstdint>

#include "hw/common/packet.h"
#include "hw/router/crossbar.h"
#include "hw/router/port.h"
#include "hw/router/router_config.h"
#include "hw/router/router_probe.h"
#include "sim/time.h"

namespace kairo::router {

class RouterTrace {
 public:
  explicit RouterTrace(const RouterConfig& cfg) : cfg_(cfg) {}
  void set_probe(RouterProbe* p) { probe_ = p; }
  bool on() const { return probe_ != nullptr; }

  void arrival(int port, int vc, const hw::Packet& p) const;
  // `out`: the packet's output port after it took its times there.
  void departure(int in_port, int in_vc, int out_vc, const hw::Packet& p, sim::Time t, const Crossing& x,
                 int charge, const Port& out) const;
  // An allocation round at t found the head of input VC (in, vc), ready
  // for free output `out`, short of credits (credit_stall on), or with them.
  void short_of_credits(int in, int vc, int out, sim::Time t) const;
  void has_credits(int in, int vc, int out) const;
  void credits(int port, int vc, sim::Time t, int delta) const;
  // The output VCs of `port` held by packets: `held`, a bit per VC.
  void held(int port, sim::Time t, std::uint32_t held) const;
  void spec(int port, sim::Time t, bool hit) const;

 private:
  const RouterConfig& cfg_;
  RouterProbe* probe_ = nullptr;
};

}  // namespace kairo::router
