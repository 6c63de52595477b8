#include "sw/workloads/pingpong.h"

#include <fmt/format.h>

namespace kairo::sw {

namespace {

class Pingpong final : public Workload {
 public:
  Pingpong(Params& prm, const MachineInfo& m) : split_(m.processes > 1) {
    const std::string op = prm.text("op", "put");
    if (op != "put" && op != "get") throw std::invalid_argument("--param op=" + op + ": expected put or get");
    get_ = op == "get";
    size_ = prm.bytes("size", 8, 0, m.platform->nic.max_descriptor_bytes);
    src_ = int(prm.integer("src", 0, 0, m.nodes - 1));
    dst_ = int(prm.integer("dst", 1, 0, m.nodes - 1));
    tni_ = int(prm.integer("tni", 0, 0, m.tnis - 1));
    if (src_ == dst_) throw std::invalid_argument("--param src and dst: expected two different ranks");
  }

  nlohmann::json params() const override {
    return {{"op", get_ ? "get" : "put"}, {"size", size_}, {"src", src_}, {"dst", dst_}, {"tni", tni_}};
  }

  // Every rank allocates two buffers of `len` bytes (the second at the next
  // 256 B); data mode writes A's send buffer (put) or B's (get), the buffer
  // the put lands in on B, and A's landing zone.
  Footprint footprint() const override {
    const double len = double(size_ ? size_ : 1);
    return {double(size_) * (get_ ? 2 : 3), whole_bytes(std::ceil(len / 256) * 256 + len)};
  }

  void setup(HostMemory& m) override { fill_pattern(m, get_ ? dst_ : src_, 0, size_); }

  fw::Task program(fw::Rank& r) override {
    const std::uint64_t len = size_ ? size_ : 1;
    const std::uint64_t send_at = r.alloc(len), answer_at = r.alloc(len);  // the same on every rank
    if (r.rank() == src_) answer_at_ = answer_at;
    const nic::MemKey send = r.reg_mem(1, send_at, len);
    const nic::MemKey answer = r.reg_mem(2, answer_at, len);
    if (r.rank() != src_ && r.rank() != dst_) co_return;  // idle from the start: nothing of theirs is counted
    co_await r.compute(kStart);
    std::uint64_t h = 0;
    nic::Completion c;
    if (r.rank() == src_) {
      start_ = r.now();
      events_start_ = r.events_processed() - 1;  // this resumption, which posts, is the first
      if (get_) {
        co_await r.get(tni_, dst_, r.remote_key(dst_, 1), 0, answer, 0, size_, &h);
        co_await r.complete(tni_, h, &c);
      } else {
        co_await r.put(tni_, dst_, r.remote_key(dst_, 1), 0, send, 0, size_, /*tag=*/1, &h);
        co_await r.poll(2);
        end_ = r.now();
        co_await r.complete(tni_, h, &c);
      }
      ok_ = ok_ && c.status == nic::RdmaStatus::kOk;
      if (get_) end_ = c.time_ps;
    } else if (!get_) {  // B answers the put
      co_await r.poll(1);
      co_await r.put(tni_, src_, r.remote_key(src_, 2), 0, send, 0, size_, /*tag=*/2, &h);
      co_await r.complete(tni_, h, &c);
      ok_ = ok_ && c.status == nic::RdmaStatus::kOk;
    }
    events_end_ = std::max(events_end_, r.events_processed());
  }

  void results(Results& v) override {
    v.latest(start_);
    v.latest(end_);
    v.latest(answer_at_);
    v.all(ok_);
  }

  Outcome outcome(HostMemory* m) override {
    // A put's latency is half the round trip.
    Outcome o = measured_outcome(start_, end_, double(end_ - start_) / 1000.0 / (get_ ? 1.0 : 2.0),
                                 double(size_), ok_);
    // What one operation costs to simulate: the events from A's first post
    // until both ranks hold their last completion (every other rank is idle
    // by then), per operation (two puts, or one get). Not counted in a run
    // split over processes: each counts only its own events.
    o.details[get_ ? "events_per_get" : "events_per_put"] =
        split_ ? nlohmann::json(nullptr)
               : nlohmann::json(double(events_end_ - events_start_) / (get_ ? 1.0 : 2.0));
    if (m) {
      // put: B's receive buffer holds A's bytes, and A's landing zone B's
      // answer (B sent its own buffer, which now holds A's bytes); get: A's landing zone.
      bool v = check_pattern(*m, src_, answer_at_, get_ ? dst_ : src_, size_);
      if (!get_) v = v && check_pattern(*m, dst_, 0, src_, size_);
      set_verified(o, v, "data mismatch");
    }
    return o;
  }

 private:
  bool split_;
  bool get_ = false;
  std::uint64_t size_ = 8;
  int src_ = 0, dst_ = 1, tni_ = 0;
  sim::Time start_ = 0, end_ = 0;
  std::uint64_t answer_at_ = 0;
  std::uint64_t events_start_ = 0, events_end_ = 0;
  bool ok_ = true;
};

}  // namespace

WorkloadInfo pingpong_workload() {
  return {"pingpong", "put or get latency between two ranks (op, size, src, dst, tni)",
          workload_of<Pingpong>};
}

}  // namespace kairo::sw
