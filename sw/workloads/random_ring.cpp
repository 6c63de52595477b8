#include "sw/workloads/random_ring.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "sim/random.h"

namespace kairo::sw {

std::vector<int> random_ring_order(int n, std::uint64_t seed) {
  std::vector<int> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  sim::Rng rng(seed, 0);
  for (int i = n - 1; i > 0; --i) std::swap(order[std::size_t(i)], order[rng.below(std::uint64_t(i) + 1)]);
  return order;
}

namespace {

constexpr std::uint32_t kFromLeft = 1, kFromRight = 2;

class RandomRing final : public Workload {
 public:
  RandomRing(Params& prm, const MachineInfo& m) : m_(m) {
    size_ = prm.bytes("size", 2000000, 1, std::uint64_t(1) << 36);
    seed_ = std::uint64_t(prm.integer("seed", (long long)m.seed, 0, std::numeric_limits<long long>::max()));
    if (m.nodes < 2) throw std::invalid_argument("random-ring: needs at least 2 ranks");
    slot_ = (size_ + 4095) / 4096 * 4096;
    order_ = random_ring_order(m.nodes, seed_);
    left_.resize(std::size_t(m.nodes));
    right_.resize(std::size_t(m.nodes));
    for (std::size_t p = 0, n = order_.size(); p < n; ++p) {
      left_[std::size_t(order_[p])] = order_[(p + n - 1) % n];
      right_[std::size_t(order_[p])] = order_[(p + 1) % n];
    }
    end_.assign(std::size_t(m.nodes), 0);
  }

  nlohmann::json params() const override { return {{"size", size_}, {"seed", seed_}}; }

  // Every rank: `size` to send at 0 and two slots from `slot`; data mode
  // writes the send buffer and both neighbours' data.
  Footprint footprint() const override {
    return {3.0 * double(size_) * m_.nodes, whole_bytes(3.0 * double(slot_))};
  }

  void setup(HostMemory& m) override {
    for (int r = 0; r < m_.nodes; ++r) fill_pattern(m, r, 0, size_);
  }

  fw::Task program(fw::Rank& r) override {
    // The same addresses on every rank: send at 0, receive slots at slot_ and 2 x slot_.
    const nic::MemKey send = r.reg_mem(1, r.alloc(size_, 4096), size_);
    r.reg_mem(2, r.alloc(2 * slot_, 4096), 2 * slot_);
    r.plan_work(2 * size_);  // for the progress lines: the message goes both ways
    co_await r.compute(kStart);
    const int me = r.rank();
    const int left = left_[std::size_t(me)], right = right_[std::size_t(me)];
    const int tni_left = r.tnis() > 1 ? 1 : 0;
    const std::uint64_t maxd = m_.platform->nic.max_descriptor_bytes;
    std::vector<std::uint64_t> to_right, to_left;
    // My data lands in the right neighbour's from-left slot and in the left neighbour's from-right slot.
    fw::Task a =
        put_message(r, 0, right, r.remote_key(right, 2), 0, send, 0, size_, kFromLeft, maxd, &to_right);
    fw::Task b = put_message(r, tni_left, left, r.remote_key(left, 2), slot_, send, 0, size_, kFromRight,
                             maxd, &to_left);
    r.spawn(a);
    r.spawn(b);
    co_await a;
    co_await b;
    bool ok = true;
    nic::Completion c;
    for (std::uint64_t h : to_right) {
      co_await r.complete(0, h, &c);
      ok = ok && c.status == nic::RdmaStatus::kOk;
    }
    for (std::uint64_t h : to_left) {
      co_await r.complete(tni_left, h, &c);
      ok = ok && c.status == nic::RdmaStatus::kOk;
    }
    for (std::uint64_t k = descriptors(size_, maxd); k > 0; --k) {
      co_await r.poll(kFromLeft);
      co_await r.poll(kFromRight);
    }
    ok_ = ok_ && ok;
    end_[std::size_t(me)] = r.now();
  }

  void results(Results& v) override {
    v.latest(end_);
    v.all(ok_);
  }

  Outcome outcome(HostMemory* m) override {
    const sim::Time end = *std::max_element(end_.begin(), end_.end());
    Outcome o = measured_outcome(kStart, end, double(end - kStart) / 1000.0, 2.0 * double(size_), ok_);
    const double fastest = double(*std::min_element(end_.begin(), end_.end()) - kStart) / 1000.0;
    o.details = {{"ranks", m_.nodes}, {"fastest_rank_ns", fastest}, {"ring", order_}};
    if (m) {
      bool v = true;
      for (int r = 0; r < m_.nodes && v; ++r)
        v = check_pattern(*m, r, slot_, left_[std::size_t(r)], size_) &&
            check_pattern(*m, r, 2 * slot_, right_[std::size_t(r)], size_);
      set_verified(o, v, "data mismatch");
    }
    return o;
  }

 private:
  MachineInfo m_;
  std::uint64_t size_ = 0, seed_ = 1, slot_ = 0;
  std::vector<int> order_, left_, right_;
  std::vector<sim::Time> end_;
  bool ok_ = true;
};

}  // namespace

WorkloadInfo random_ring_workload() {
  return {"random-ring",
          "HPCC random ring: every rank puts size to both neighbours of a seeded random ring (size, seed)",
          workload_of<RandomRing>};
}

}  // namespace kairo::sw
