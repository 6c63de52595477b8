// An optical port's counters as the fabric reports them (hw/ocs/ocs_observe.h).
#include "hw/ocs/ocs_observe.h"

#include <fmt/format.h>

#include <algorithm>

namespace kairo::ocs {

std::vector<observe::Counter> port_counters(int vcs) {
  using observe::Kind;
  std::vector<observe::Counter> c = {
      {"packets_sent", "packets", "packets sent into this port's circuit", Kind::kTotal, observe::kInLog, ""},
      {"flits_sent", "flits", "flits sent into this port's circuit", Kind::kTotal, observe::kInLog, ""},
      {"bytes_sent", "bytes", "bytes sent into this port's circuit", Kind::kTotal, observe::kInLog, ""},
      {"packets_received", "packets", "packets out of the receive fibre", Kind::kTotal, observe::kInLog, ""},
      {"flits_received", "flits", "flits out of the receive fibre", Kind::kTotal, observe::kInLog, ""},
      {"bytes_received", "bytes", "bytes out of the receive fibre", Kind::kTotal, observe::kInLog, ""},
      {"busy_ps", "ps", "time the transmit fibre carried light", Kind::kTotal, observe::kInLog, ""},
      {"stall_ps", "ps", "time the circuit was not up (dark or reconfiguring)", Kind::kTotal, observe::kInLog,
       ""},
  };
  for (int v = 0; v < vcs; ++v)
    c.push_back({fmt::format("zero_credit_ps_vc{}", v), "ps",
                 "always 0: an optical port has no VCs of its own", Kind::kTotal, observe::kInLog, ""});
  return c;
}

void read_port(const OcsFabric& f, int port, sim::Time now, int vcs, std::uint64_t* out) {
  if (f.kept_elsewhere(port)) {  // a split run: the port's node's process logs it
    std::fill(out, out + 8 + vcs, 0);
    return;
  }
  const OcsPortCounters c = f.counters(port, now);
  out[0] = c.packets_sent, out[1] = c.flits_sent, out[2] = c.bytes_sent;
  out[3] = c.packets_received, out[4] = c.flits_received, out[5] = c.bytes_received;
  out[6] = c.busy_ps - f.busy_after(port, now);
  out[7] = now - c.up_ps;  // not up: dark or reconfiguring
  for (int v = 0; v < vcs; ++v) out[8 + v] = 0;
}

namespace {

class FabricRecording final : public observe::Recording {
 public:
  FabricRecording(OcsFabric& f, std::unique_ptr<OcsProbe> probe) : f_(f), probe_(std::move(probe)) {
    f_.set_probe(probe_.get());
  }
  ~FabricRecording() override { f_.set_probe(nullptr); }

 private:
  OcsFabric& f_;
  std::unique_ptr<OcsProbe> probe_;
};

}  // namespace

std::unique_ptr<observe::Recording> record(OcsFabric& f, const observe::TraceFilter& sel, sim::Trace& trace,
                                           const std::function<std::string(int port)>& scope) {
  auto probe = std::make_unique<OcsProbe>();
  probe->trace = &trace;
  probe->state.assign(std::size_t(f.ports()), OcsProbe::kOff);
  probe->peer.assign(std::size_t(f.ports()), OcsProbe::kOff);
  auto selected = [&sel](const char* c) { return sel.selected(c); };
  bool any = false;
  for (int port = 0; port < f.ports(); ++port)
    if (sel.node(f.node_of(port)))
      any |= observe::add_signals_at(trace, scope(port), kPortSignals, *probe, std::size_t(port), selected);
  if (!any) return nullptr;
  return std::make_unique<FabricRecording>(f, std::move(probe));
}

}  // namespace kairo::ocs
