#include "sw/workloads/results.h"

#include <algorithm>
#include <stdexcept>

#include "sw/workloads/workload.h"

namespace kairo::sw {
namespace {

class Writer final : public Results {
 public:
  explicit Writer(std::vector<char>& out) : w_(out) {}
  void latest(std::uint64_t& v) override { w_.put(v); }
  void latest(std::vector<std::uint64_t>& v) override { put(v); }
  void earliest(std::vector<std::uint64_t>& v) override { put(v); }
  void all(bool& v) override { w_.put(v); }
  void phases(coll::PhaseLog& log) override {
    w_.put(std::uint64_t(log.entries().size()));
    for (const auto& e : log.entries()) {
      w_.put_string(e.name);
      w_.put(e.first);
      w_.put(e.end);
    }
  }

 private:
  void put(const std::vector<std::uint64_t>& v) {
    w_.put(std::uint64_t(v.size()));
    w_.put_bytes(v.data(), v.size() * sizeof(v[0]));
  }
  sim::ByteWriter w_;
};

class Merger final : public Results {
 public:
  explicit Merger(const std::vector<char>& in) : r_(in) {}
  void latest(std::uint64_t& v) override { v = std::max(v, r_.get<std::uint64_t>()); }
  void latest(std::vector<std::uint64_t>& v) override {
    const auto theirs = get(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::max(v[i], theirs[i]);
  }
  void earliest(std::vector<std::uint64_t>& v) override {
    const auto theirs = get(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::min(v[i], theirs[i]);
  }
  void all(bool& v) override { v = r_.get<bool>() && v; }
  void phases(coll::PhaseLog& log) override {
    coll::PhaseLog theirs;
    const auto n = r_.get<std::uint64_t>();
    for (std::uint64_t k = 0; k < n; ++k) {
      std::string name = r_.get_string();
      const auto first = r_.get<sim::Time>();
      theirs.add(std::move(name), first, r_.get<sim::Time>());
    }
    log.merge(theirs);
  }
  bool done() const { return r_.done(); }

 private:
  std::vector<std::uint64_t> get(std::size_t expected) {
    const auto n = r_.get<std::uint64_t>();
    if (n != expected) throw std::logic_error("gather_results: the processes' workloads differ");
    std::vector<std::uint64_t> v(n);
    r_.get_bytes(v.data(), n * sizeof(v[0]));
    return v;
  }
  sim::ByteReader r_;
};

}  // namespace

void gather_results(Workload& w, const sim::MpiWorld& world) {
  if (!world.parallel()) return;
  std::vector<char> mine;
  if (!world.root()) {
    Writer out(mine);
    w.results(out);
  }
  const auto all = world.gather(mine);
  if (!world.root()) return;
  for (std::size_t p = 1; p < all.size(); ++p) {
    Merger in(all[p]);
    w.results(in);
    if (!in.done()) throw std::logic_error("gather_results: the processes' workloads differ");
  }
}

}  // namespace kairo::sw
