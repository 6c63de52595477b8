// An RDMA engine's counters as it reports them (hw/nic/tni_observe.h).
#include "hw/nic/tni_observe.h"

namespace kairo::nic {

namespace {

using observe::Kind;
constexpr std::uint8_t kAll = observe::kInLog | observe::kInTable | observe::kInSummary;
constexpr std::uint8_t kTableAndSummary = observe::kInTable | observe::kInSummary;

}  // namespace

const std::vector<observe::Counter>& tni_counters() {
  static const std::vector<observe::Counter> counters = {
      {"commands", "commands", "commands taken from the command queue", Kind::kTotal, kAll, ""},
      {"dma_bytes_read", "bytes", "bytes the tx DMA read from node memory", Kind::kTotal, kAll, ""},
      {"dma_bytes_written", "bytes", "bytes the rx DMA wrote to node memory", Kind::kTotal, kAll, ""},
      {"packets_sent", "packets", "packets injected", Kind::kTotal, kAll, "tni_packets_sent"},
      {"packets_received", "packets", "packets taken from the ejection port", Kind::kTotal, kAll,
       "tni_packets_received"},
      {"error_completions", "completions", "completions with an error status", Kind::kTotal, kTableAndSummary,
       ""},
      {"command_queue_high", "entries", "most commands queued at once", Kind::kHigh, kTableAndSummary, ""},
      {"completion_queue_high", "entries", "most completions queued at once", Kind::kHigh, kTableAndSummary,
       ""},
      {"notice_queue_high", "entries", "most notices queued at once", Kind::kHigh, kTableAndSummary, ""},
      {"completion_queue_stalls", "stalls", "times command processing waited for completion-queue room",
       Kind::kTotal, kTableAndSummary, ""},
      {"notice_queue_stalls", "stalls", "times the receive side waited for notice-queue room", Kind::kTotal,
       kTableAndSummary, ""},
      {"held_packets_high", "packets", "most received packets held unconsumed at once", Kind::kHigh,
       kTableAndSummary, ""},
      {"circuit_refusals", "commands", "commands refused because their circuit was not up", Kind::kTotal,
       observe::kInLog | observe::kInSummary, ""},
      {"circuit_waits", "waits", "times the engine waited for a circuit", Kind::kTotal, observe::kInSummary,
       ""},
      {"circuit_wait_ps", "ps", "time spent waiting for a circuit", Kind::kTotal,
       observe::kInLog | observe::kInSummary, ""},
      {"cmdq_depth", "commands", "commands in the command queue now", Kind::kLevel, observe::kInLog, ""},
  };
  return counters;
}

void read_counters(const Tni& t, sim::Time now, std::uint64_t* out) {
  const TniCounters& c = t.counters();
  out[0] = c.commands, out[1] = c.dma_bytes_read, out[2] = c.dma_bytes_written;
  out[3] = c.packets_sent, out[4] = c.packets_received, out[5] = c.error_completions;
  out[6] = c.command_queue_high, out[7] = c.completion_queue_high, out[8] = c.notice_queue_high;
  out[9] = c.completion_queue_stalls, out[10] = c.notice_queue_stalls, out[11] = c.held_packets_high;
  out[12] = c.circuit_refusals, out[13] = c.circuit_waits, out[14] = t.circuit_wait_ps(now);
  out[15] = t.command_queue_depth();
}

namespace {

class TniRecording final : public observe::Recording {
 public:
  TniRecording(Tni& t, std::unique_ptr<TniProbe> probe) : t_(t), probe_(std::move(probe)) {
    t_.set_probe(probe_.get());
  }
  ~TniRecording() override { t_.set_probe(nullptr); }

 private:
  Tni& t_;
  std::unique_ptr<TniProbe> probe_;
};

}  // namespace

std::unique_ptr<observe::Recording> record(Tni& t, const std::string& scope, const observe::TraceFilter& f,
                                           sim::Trace& trace) {
  if (!f.selected(kTniClass)) return nullptr;
  auto probe = std::make_unique<TniProbe>();
  probe->trace = &trace;
  observe::add_signals(trace, scope, kTniSignals, *probe, [&f](const char* c) { return f.selected(c); });
  return std::make_unique<TniRecording>(t, std::move(probe));
}

bool active(const Tni& t) {
  const TniCounters& c = t.counters();
  return c.commands || c.packets_received || c.error_completions;
}

void save(const Tni& t, sim::ByteWriter& w) { w.put(t.counters()); }

void load(Tni& t, sim::ByteReader& in) { t.set_counters(in.get<TniCounters>()); }

}  // namespace kairo::nic
