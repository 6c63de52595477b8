#include "firmware/rank.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "hw/nic/node_memory.h"

namespace kairo::fw {

namespace {
std::uint64_t dir_key(int rank, int memid) {
  return (std::uint64_t(std::uint32_t(rank)) << 32) | std::uint32_t(memid);
}
}  // namespace

Runtime::Runtime(sim::EventQueue& q, const hw::Topology* torus,
                 std::vector<std::vector<nic::HostInterface*>> tnis_per_node,
                 std::vector<nic::MemoryRegistry*> registries, std::vector<hw::NodeId> nodes)
    : q_(q), topo_(torus), registries_(std::move(registries)), nodes_(std::move(nodes)) {
  if (registries_.size() != tnis_per_node.size())
    throw std::logic_error("Runtime: one registration table (or null) per rank");
  ranks_.resize(tnis_per_node.size());
  for (std::size_t n = 0; n < tnis_per_node.size(); ++n) {
    if (!registries_[n]) continue;  // another process's rank
    auto r = std::make_unique<Rank>();
    r->rt_ = this;
    r->rank_ = int(n);
    r->any_notice_.emplace(q_, resumer_);
    r->tnis_.reserve(tnis_per_node[n].size());
    for (nic::HostInterface* t : tnis_per_node[n]) {
      t->set_listener(r.get(), int(r->tnis_.size()));
      r->tnis_.push_back(Rank::TniSide{t, Signal(q_, resumer_), Signal(q_, resumer_), {}});
    }
    ranks_[n] = std::move(r);
  }
}

Runtime::~Runtime() = default;

// A split run's registrations: this process's, sent to every other process
// at the end of the window they were made in (the first: they are all at
// time 0), and theirs taken into the directory. The sync event at
// kRegistrationsShared ends that first window.
class Runtime::Share final : public sim::Boundary, public sim::EventTarget {
 public:
  explicit Share(Runtime& rt) : sim::EventTarget(sim::EventBlock::kFirmware), rt_(rt) {
    rt.q_.at(kRegistrationsShared, sim::kPrioSync, this, 0);
  }
  void on_event(std::uint32_t, std::uint32_t, void*) override { shared_ = true; }
  // Its one broadcast (to every process) is over once the first window's
  // registrations have gone: nothing registers after time 0.
  bool links_only() const override { return shared_ && fresh_.empty(); }
  void note(std::uint64_t key, nic::MemKey value) { fresh_.emplace_back(key, value); }
  void take_outgoing(std::vector<std::vector<char>>& out) override {
    if (fresh_.empty()) return;
    for (auto& o : out) {
      sim::ByteWriter w(o);
      for (const auto& [k, v] : fresh_) w.put(k), w.put(v);
    }
    fresh_.clear();
  }
  void deliver(int, const std::vector<char>& bytes, sim::Time) override {
    sim::ByteReader r(bytes);
    while (!r.done()) {
      const auto k = r.get<std::uint64_t>();
      rt_.directory_[k] = r.get<nic::MemKey>();
    }
  }

 private:
  Runtime& rt_;
  std::vector<std::pair<std::uint64_t, nic::MemKey>> fresh_;
  bool shared_ = false;
};

void Runtime::split(std::vector<bool> owned) {
  if (owned.size() != ranks_.size()) throw std::logic_error("Runtime::split: one flag per rank");
  if (!tasks_.empty()) throw std::logic_error("Runtime::split: before launch");
  owned_ = std::move(owned);
  share_ = std::make_unique<Share>(*this);
}

sim::Boundary& Runtime::registrations() {
  if (!share_) throw std::logic_error("Runtime::registrations: not a split run");
  return *share_;
}

Task Runtime::finish(Task program) {
  co_await program;
  finished_at_ = std::max(finished_at_, q_.now());
  ++finished_;
}

std::vector<int> Runtime::unfinished(std::size_t limit) const {
  std::vector<int> out;
  for (std::size_t r = 0; r < tasks_.size() && out.size() < limit; ++r)
    if (!tasks_[r].done()) out.push_back(launched_[r]);
  return out;
}

std::pair<int, std::string> Runtime::first_failure() const {
  for (std::size_t i = 0; i < tasks_.size(); ++i) {
    try {
      tasks_[i].rethrow_if_failed();
    } catch (const std::exception& e) {
      return {launched_[i], e.what()};
    } catch (...) {
      return {launched_[i], "an unknown error"};
    }
  }
  return {-1, ""};
}

bool Runtime::all_done() const {
  for (const auto& t : tasks_) t.rethrow_if_failed();
  for (const auto& t : tasks_)
    if (!t.done()) return false;
  return true;
}

std::size_t Runtime::footprint_bytes() const {
  // An unordered_map node: the value, the next pointer and the cached hash.
  constexpr std::size_t kDirNode = sizeof(std::pair<const std::uint64_t, nic::MemKey>) + 2 * sizeof(void*);
  auto signal = [](const Signal& s) { return s.heap_bytes(); };  // the Signal itself is in its owner
  std::size_t b = sizeof(*this) + ranks_.capacity() * sizeof(ranks_[0]) + tasks_.capacity() * sizeof(Task) +
                  registries_.capacity() * sizeof(void*) + directory_.size() * kDirNode +
                  directory_.bucket_count() * sizeof(void*);
  for (const auto& r : ranks_) {
    if (!r) continue;
    b += sizeof(Rank) + r->tnis_.capacity() * sizeof(Rank::TniSide) +
         r->notices_.capacity() * sizeof(nic::Notice) + signal(*r->any_notice_) +
         (r->activity_ ? signal(*r->activity_) : 0);
    for (const auto& side : r->tnis_)
      b += signal(side.completed) + signal(side.space) + side.early.capacity() * sizeof(nic::Completion);
  }
  return b;
}

void Rank::tni_completion(int slot) {
  if (in_library_ > 0) drain_completions(std::size_t(slot));
  tnis_[std::size_t(slot)].completed.raise();
  if (activity_) activity_->raise();
}

void Rank::tni_notice(int /*slot*/) {
  if (in_library_ > 0) drain_notices();
  any_notice_->raise();
  if (activity_) activity_->raise();
}

void Rank::tni_command_space(int slot) { tnis_[std::size_t(slot)].space.raise(); }

struct Rank::InLibrary {
  explicit InLibrary(Rank& r) : r_(r) {
    ++r_.in_library_;
    r_.drain_notices();
    for (std::size_t t = 0; t < r_.tnis_.size(); ++t) r_.drain_completions(t);
  }
  ~InLibrary() { --r_.in_library_; }
  InLibrary(const InLibrary&) = delete;
  InLibrary& operator=(const InLibrary&) = delete;
  Rank& r_;
};

int Rank::size() const { return rt_->size(); }
hw::NodeId Rank::node() const { return rt_->node_of(rank_); }

hw::Coord Rank::coord() const { return rt_->torus() ? rt_->torus()->coord_of(node()) : hw::Coord{}; }
sim::Time Rank::now() const { return rt_->queue().now(); }
std::uint64_t Rank::events_processed() const { return rt_->queue().events_processed(); }

void Rank::plan_work(std::uint64_t bytes) {
  ++rt_->work_.planned_ranks;
  rt_->work_.total += bytes;
}

std::string Rank::request_pathway(int peer) { return pathway(peer, true); }
std::string Rank::release_pathway(int peer) { return pathway(peer, false); }

std::string Rank::pathway(int peer, bool up) {
  if (!rt_->circuits_) return "this platform has no optical circuit switch";
  if (peer < 0 || peer >= size()) return "no rank " + std::to_string(peer);
  return rt_->circuits_(node(), rt_->node_of(peer), up);
}

std::uint64_t Rank::alloc(std::uint64_t bytes, std::uint64_t align) {
  if (align == 0 || (align & (align - 1)))
    throw std::invalid_argument("alloc: alignment " + std::to_string(align) + " is not a power of two");
  const std::uint64_t at = (next_free_ + align - 1) & ~(align - 1);
  if (at > rt_->memory_bytes() || bytes > rt_->memory_bytes() - at)
    throw std::runtime_error("rank " + std::to_string(rank_) + ": alloc of " + std::to_string(bytes) +
                             " B does not fit the node memory (" + std::to_string(rt_->memory_bytes()) +
                             " B, " + std::to_string(at) + " B in use)");
  next_free_ = at + bytes;
  return at;
}

namespace {
Task local_access(Rank& r, tlm::tlm_fw_transport_if<>* mem, tlm::tlm_command cmd, std::uint64_t address,
                  unsigned char* data, std::uint64_t bytes) {
  if (!mem) throw std::runtime_error("rank " + std::to_string(r.rank()) + ": no node memory attached");
  tlm::tlm_generic_payload t;
  nic::set_payload(t, cmd, address, data, bytes);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  mem->b_transport(t, delay);
  if (t.get_response_status() != tlm::TLM_OK_RESPONSE)
    throw std::runtime_error("rank " + std::to_string(r.rank()) + ": local memory access at " +
                             std::to_string(address) + " (+" + std::to_string(bytes) + " B) refused");
  if (delay.value() > 0) co_await r.compute(sim::Time(delay.value()));
}
}  // namespace

Task Rank::read_local(std::uint64_t address, void* dst, std::uint64_t bytes) {
  co_await local_access(*this, rt_->memories_.empty() ? nullptr : rt_->memories_[std::size_t(rank_)],
                        tlm::TLM_READ_COMMAND, address, static_cast<unsigned char*>(dst), bytes);
}

Task Rank::write_local(std::uint64_t address, const void* src, std::uint64_t bytes) {
  co_await local_access(*this, rt_->memories_.empty() ? nullptr : rt_->memories_[std::size_t(rank_)],
                        tlm::TLM_WRITE_COMMAND, address,
                        const_cast<unsigned char*>(static_cast<const unsigned char*>(src)), bytes);
}

nic::MemKey Rank::reg_mem(int memid, std::uint64_t address, std::uint64_t length) {
  if (rt_->share_ && now() > 0)
    throw std::runtime_error("rank " + std::to_string(rank_) + " registers memory at " +
                             std::to_string(now()) +
                             " ps: a run split over processes shares registrations made at time 0 only "
                             "(docs/parallel.md)");
  nic::Registration r = rt_->registries_[std::size_t(rank_)]->add(address, length);
  if (r.status != nic::RdmaStatus::kOk) return 0;
  rt_->directory_[dir_key(rank_, memid)] = r.key;
  if (rt_->share_) rt_->share_->note(dir_key(rank_, memid), r.key);
  return r.key;
}

nic::MemKey Rank::remote_key(int rank, int memid) const {
  if (rt_->share_ && now() < Runtime::kRegistrationsShared && rank >= 0 && rank < size() && !rt_->owns(rank))
    throw std::runtime_error("rank " + std::to_string(rank_) + " looks up rank " + std::to_string(rank) +
                             "'s registration at time 0: a run split over processes shares registrations "
                             "from " +
                             std::to_string(Runtime::kRegistrationsShared) + " ps on (docs/parallel.md)");
  auto it = rt_->directory_.find(dir_key(rank, memid));
  return it == rt_->directory_.end() ? 0 : it->second;
}

nic::RdmaStatus Rank::dereg_mem(nic::MemKey key) { return rt_->registries_[std::size_t(rank_)]->remove(key); }

Delay Rank::compute(sim::Time duration) { return Delay{rt_->queue(), rt_->resumer(), duration}; }

void Rank::spawn(Task& t) { t.start(rt_->queue(), rt_->resumer()); }

// Posted at once (the usual case), the put or get needs no coroutine of its
// own: the caller's co_await finds an empty Task ready. Only a full command
// queue makes one, which waits for space.
Task Rank::submit(int tni, const nic::Command& c) {
  // An out-of-range TNI is the engine's error to report; use TNI 0 to carry it.
  const std::size_t slot = std::size_t(tni >= 0 && tni < tnis() ? tni : 0);
  nic::Command cmd = c;
  if (tni < 0 || tni >= tnis()) cmd.dst_tni = 0xffff;  // reported as a bad TNI
  {
    InLibrary in(*this);
    if (tnis_[slot].tni->post(cmd)) return Task();
  }
  return wait_to_submit(slot, cmd);
}

Task Rank::wait_to_submit(std::size_t slot, nic::Command cmd) {
  TniSide& side = tnis_[slot];
  InLibrary in(*this);  // waiting for space is time in the library: queues drain meanwhile
  while (!side.tni->post(cmd)) co_await side.space.wait();  // a full queue back-pressures
}

nic::Command Rank::command(nic::Op op, int tni, int peer, nic::MemKey remote, std::uint64_t remote_offset,
                           nic::MemKey local, std::uint64_t local_offset, std::uint64_t length,
                           std::uint32_t tag, bool notify, std::uint64_t* handle) {
  nic::Command c;
  c.op = op;
  c.dst_node = rt_->node_of(peer);
  c.dst_tni = std::uint16_t(tni);
  c.remote_key = remote;
  c.remote_offset = remote_offset;
  c.local_key = local;
  c.local_offset = local_offset;
  c.length = length;
  c.tag = tag;
  c.notify = notify;
  c.handle = next_handle_++;
  if (handle) *handle = c.handle;
  return c;
}

Task Rank::put(int tni, int dst, nic::MemKey remote, std::uint64_t remote_offset, nic::MemKey local,
               std::uint64_t local_offset, std::uint64_t length, std::uint32_t tag, std::uint64_t* handle,
               bool notify) {
  return submit(tni, command(nic::Op::kPut, tni, dst, remote, remote_offset, local, local_offset, length, tag,
                             notify, handle));
}

Task Rank::get(int tni, int src, nic::MemKey remote, std::uint64_t remote_offset, nic::MemKey local,
               std::uint64_t local_offset, std::uint64_t length, std::uint64_t* handle) {
  return submit(tni, command(nic::Op::kGet, tni, src, remote, remote_offset, local, local_offset, length, 0,
                             false, handle));
}

Task Rank::post(int tni, int peer, nic::Command c, std::uint64_t* handle) {
  c.dst_node = rt_->node_of(peer);
  c.dst_tni = std::uint16_t(tni);
  c.handle = next_handle_++;
  if (handle) *handle = c.handle;
  return submit(tni, c);
}

Task Rank::atomic(nic::Op op, int tni, int dst, nic::MemKey remote, std::uint64_t remote_offset,
                  nic::MemKey local, std::uint64_t local_offset, std::uint64_t operand, std::uint64_t compare,
                  std::uint64_t* handle) {
  nic::Command c =
      command(op, tni, dst, remote, remote_offset, local, local_offset, nic::kAtomicBytes, 0, false, handle);
  c.operand = operand;
  c.compare = compare;
  return submit(tni, c);
}

Task Rank::fetch_add(int tni, int dst, nic::MemKey remote, std::uint64_t remote_offset, nic::MemKey local,
                     std::uint64_t local_offset, std::uint64_t addend, std::uint64_t* handle) {
  return atomic(nic::Op::kFetchAdd, tni, dst, remote, remote_offset, local, local_offset, addend, 0, handle);
}

Task Rank::compare_swap(int tni, int dst, nic::MemKey remote, std::uint64_t remote_offset, nic::MemKey local,
                        std::uint64_t local_offset, std::uint64_t compare, std::uint64_t swap,
                        std::uint64_t* handle) {
  return atomic(nic::Op::kCompareSwap, tni, dst, remote, remote_offset, local, local_offset, swap, compare,
                handle);
}

Task Rank::fetch_or(int tni, int dst, nic::MemKey remote, std::uint64_t remote_offset, nic::MemKey local,
                    std::uint64_t local_offset, std::uint64_t bits, std::uint64_t* handle) {
  return atomic(nic::Op::kFetchOr, tni, dst, remote, remote_offset, local, local_offset, bits, 0, handle);
}

std::optional<nic::Completion> Rank::try_poll_cq(int tni) {
  TniSide& side = tnis_[std::size_t(tni)];
  if (!side.early.empty()) {
    const nic::Completion c = side.early.front();
    side.early.erase(side.early.begin());
    return c;
  }
  return side.tni->poll_completion();
}

Task Rank::poll_notice(nic::Notice* out) {
  InLibrary in(*this);
  for (;;) {
    drain_notices();
    if (!notices_.empty()) {
      if (out) *out = notices_.front();
      notices_.erase(notices_.begin());
      co_return;
    }
    co_await any_notice_->wait();
  }
}

Task Rank::poll_cq(int tni, nic::Completion* out) {
  TniSide& side = tnis_[std::size_t(tni)];
  InLibrary in(*this);
  for (;;) {
    if (!side.early.empty()) {
      *out = side.early.front();
      side.early.erase(side.early.begin());
      co_return;
    }
    if (auto c = side.tni->poll_completion()) {
      *out = *c;
      co_return;
    }
    co_await side.completed.wait();
  }
}

Task Rank::complete(int tni, std::uint64_t handle, nic::Completion* out) {
  TniSide& side = tnis_[std::size_t(tni)];
  InLibrary in(*this);
  for (;;) {
    for (std::size_t i = 0; i < side.early.size(); ++i)
      if (side.early[i].handle == handle) {
        if (out) *out = side.early[i];
        side.early.erase(side.early.begin() + std::ptrdiff_t(i));
        co_return;
      }
    while (auto c = side.tni->poll_completion()) {
      if (c->handle == handle) {
        if (out) *out = *c;
        co_return;
      }
      side.early.push_back(*c);  // another operation's: kept for its own wait
    }
    co_await side.completed.wait();
  }
}

std::optional<nic::Completion> Rank::try_complete(int tni, std::uint64_t handle) {
  drain_completions(std::size_t(tni));
  auto& early = tnis_[std::size_t(tni)].early;
  for (std::size_t i = 0; i < early.size(); ++i)
    if (early[i].handle == handle) {
      const nic::Completion c = early[i];
      early.erase(early.begin() + std::ptrdiff_t(i));
      return c;
    }
  return std::nullopt;
}

void Rank::drain_completions(std::size_t tni) {
  TniSide& side = tnis_[tni];
  while (auto c = side.tni->poll_completion()) side.early.push_back(*c);
}

void Rank::drain_notices() {
  for (auto& side : tnis_)
    while (auto n = side.tni->poll_notice()) notices_.push_back(*n);
}

Task Rank::poll_any(const std::uint32_t* tags, std::size_t n, std::size_t* which, nic::Notice* out) {
  InLibrary in(*this);
  for (;;) {
    drain_notices();
    for (std::size_t i = 0; i < notices_.size(); ++i)
      for (std::size_t k = 0; k < n; ++k)
        if (notices_[i].tag == tags[k]) {
          if (out) *out = notices_[i];
          *which = k;
          notices_.erase(notices_.begin() + std::ptrdiff_t(i));
          co_return;
        }
    co_await any_notice_->wait();
  }
}

std::optional<nic::Notice> Rank::try_poll_range(std::uint32_t first, std::uint32_t last) {
  drain_notices();
  for (std::size_t i = 0; i < notices_.size(); ++i)
    if (notices_[i].tag >= first && notices_[i].tag <= last) {
      const nic::Notice n = notices_[i];
      notices_.erase(notices_.begin() + std::ptrdiff_t(i));
      return n;
    }
  return std::nullopt;
}

Task Rank::poll_range(std::uint32_t first, std::uint32_t last, nic::Notice* out) {
  InLibrary in(*this);
  for (;;) {
    if (auto n = try_poll_range(first, last)) {
      if (out) *out = *n;
      co_return;
    }
    co_await any_notice_->wait();
  }
}

Task Rank::wait_activity() {
  // The caller has just taken what it wanted from the queues (in this
  // instant nothing more can arrive): wait for the next arrival.
  InLibrary in(*this);
  if (!activity_) activity_.emplace(rt_->queue(), rt_->resumer());
  co_await activity_->wait();
}

Task Rank::poll(std::uint32_t tag, nic::Notice* out) {
  InLibrary in(*this);
  for (;;) {
    drain_notices();
    for (std::size_t i = 0; i < notices_.size(); ++i)
      if (notices_[i].tag == tag) {
        if (out) *out = notices_[i];
        notices_.erase(notices_.begin() + std::ptrdiff_t(i));
        co_return;
      }
    co_await any_notice_->wait();  // any TNI may deliver it
  }
}

}  // namespace kairo::fw
