#include "sw/workloads/allreduce.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "sw/collectives/executor.h"

namespace kairo::sw {

namespace {


double initial(int rank, std::uint64_t i) { return double((std::uint64_t(rank) * 7 + i * 3) % 1000); }

class Allreduce final : public Workload {
 public:
  Allreduce(Params& prm, const MachineInfo& m) {
    algo_ = algorithm_param(prm, {"recursive-doubling"});
    size_ = prm.bytes("size", 64 * 1024, 8, m.platform->nic.max_descriptor_bytes);
    if (size_ % 8) throw std::invalid_argument("--param size: expected a multiple of 8 bytes (doubles)");
    rate_ = double(prm.integer("reduce_rate_mbps", 10000, 1, 1000000000)) * 1e6;
    p_ = m.nodes;
    if (p_ < 2) throw std::invalid_argument("allreduce: needs at least 2 ranks");
    pow2_ = 1;
    while (pow2_ * 2 <= p_) pow2_ *= 2, ++rounds_;
    end_.assign(std::size_t(p_), 0);
    vec_at_ = 0;
    slots_at_ = (size_ + 4095) / 4096 * 4096;
  }

  nlohmann::json params() const override {
    return {{"algo", algo_}, {"size", size_}, {"reduce_rate_mbps", rate_ / 1e6}};
  }

  void setup(HostMemory& m) override {
    std::vector<double> v(size_ / 8);
    for (int r = 0; r < p_; ++r) {
      for (std::uint64_t i = 0; i < v.size(); ++i) v[i] = initial(r, i);
      m.write(r, vec_at_, reinterpret_cast<const unsigned char*>(v.data()), size_);
    }
  }

  // One exchange: put my vector to `to` (slot `slot` there), wait for tag from `from`.
  fw::Task exchange(fw::Rank& r, const coll::Buffers& send, int to, int from, int slot) {
    coll::Step st;
    const std::uint32_t tag = 1 + std::uint32_t(slot);
    if (to >= 0) st.puts.push_back(coll::Put{to, 0, std::uint64_t(slot) * size_, size_, tag, slot});
    if (from >= 0) st.waits.push_back(coll::Wait{from, tag});
    coll::Schedule one;  // a named schedule: GCC 12 mishandles a braced temporary in co_await
    one.push_back(st);
    co_await coll::run_schedule(r, one, send, &ok_);
  }

  // vec = (lower rank's vector) + (higher rank's vector), the received one from slot `slot`.
  fw::Task reduce(fw::Rank& r, int slot, bool mine_first) {
    std::vector<double> a(size_ / 8), b(size_ / 8);
    co_await r.read_local(vec_at_, a.data(), size_);
    co_await r.read_local(slots_at_ + std::uint64_t(slot) * size_, b.data(), size_);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = mine_first ? a[i] + b[i] : b[i] + a[i];
    co_await r.compute(sim::Time(std::ceil(2.0 * double(size_) * 1e12 / rate_)));
    co_await r.write_local(vec_at_, a.data(), size_);
  }

  fw::Task copy_in(fw::Rank& r, int slot) {
    std::vector<double> b(size_ / 8);
    co_await r.read_local(slots_at_ + std::uint64_t(slot) * size_, b.data(), size_);
    co_await r.write_local(vec_at_, b.data(), size_);
  }

  fw::Task program(fw::Rank& r) override {
    const int slots = rounds_ + 2;
    const coll::Buffers send = collective_buffers(r, size_, std::uint64_t(slots) * size_);
    co_await r.compute(kStart);
    const int me = r.rank(), extra = p_ - pow2_;
    if (me >= pow2_) {  // hand my vector over, get the result back
      co_await exchange(r, send, me - pow2_, -1, 0);
      co_await exchange(r, send, -1, me - pow2_, rounds_ + 1);
      co_await copy_in(r, rounds_ + 1);
    } else {
      if (me < extra) {
        co_await exchange(r, send, -1, me + pow2_, 0);
        co_await reduce(r, 0, /*mine_first=*/true);  // my rank is the lower
      }
      for (int i = 0; i < rounds_; ++i) {
        const int partner = me ^ (1 << i);
        co_await exchange(r, send, partner, partner, 1 + i);
        co_await reduce(r, 1 + i, me < partner);
      }
      if (me < extra) co_await exchange(r, send, me + pow2_, -1, rounds_ + 1);
    }
    end_[std::size_t(me)] = r.now();
  }

  Outcome outcome(HostMemory* m) override {
    Outcome o = collective_outcome(end_, double(size_), ok_);
    o.details = {{"ranks", p_}, {"rounds", rounds_ + (p_ > pow2_ ? 2 : 0)}};
    if (m) {
      std::vector<double> want(size_ / 8, 0.0), got(size_ / 8);
      for (int r = 0; r < p_; ++r)
        for (std::uint64_t i = 0; i < want.size(); ++i) want[i] += initial(r, i);
      bool v = true;
      for (int r = 0; r < p_ && v; ++r) {
        m->read(r, vec_at_, reinterpret_cast<unsigned char*>(got.data()), size_);
        v = got == want;
      }
      set_verified(o, v, "a rank's vector is not the sum of every rank's vector");
    }
    return o;
  }

 private:
  std::string algo_;
  std::uint64_t size_ = 0, vec_at_ = 0, slots_at_ = 0;
  double rate_ = 1e10;
  int p_ = 0, pow2_ = 1, rounds_ = 0;
  std::vector<sim::Time> end_;
  bool ok_ = true;
};

}  // namespace

std::unique_ptr<Workload> make_allreduce(Params& p, const MachineInfo& m) {
  return std::make_unique<Allreduce>(p, m);
}

}  // namespace kairo::sw
