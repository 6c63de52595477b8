// The per-rank firmware API (docs/design.md §4), modeled after Fujitsu's extended
// RDMA interface (FJMPI_Rdma_reg_mem / get_remote_addr / put / get / poll_cq,
// Morie and Nanri 2013) and MGEN/ACP (put with a tag, poll for the tag, complete a handle,
// Susukita et al. 2016). A rank's program is a coroutine (fw::Task) that calls these;
// waiting suspends it until the hardware raises the matching signal.
//
// Progress: like a polling RDMA library, a rank moves arrived notices and
// completions from its TNIs' hardware queues into its own lists whenever it
// is inside a runtime call (posting, waiting for a completion or a tag), and
// not while it computes: a rank that computes long while puts keep landing
// fills the hardware queues, and the TNI back-pressures (hw/nic/tni.h); a
// rank that posts more than its completion queue holds never deadlocks.
//
// Compiled as C++20 (firmware/ only).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <tlm>
#include <unordered_map>
#include <utility>
#include <vector>

#include "firmware/task.h"
#include "hw/common/topology.h"
#include "hw/nic/host_interface.h"
#include "sim/window_runner.h"

namespace kairo::fw {

class Runtime;

class Rank final : public nic::TniListener {
 public:
  int rank() const { return rank_; }
  hw::NodeId node() const;  // the node it runs on (platform ranks.map)
  int size() const;
  hw::Coord coord() const;  // mesh/torus coordinates; all zero on a switched fabric
  int tnis() const { return int(tnis_.size()); }
  sim::Time now() const;
  // Events the simulation has processed so far: the simulator's own cost,
  // for workloads that report what an operation costs to simulate.
  std::uint64_t events_processed() const;

  // Progress, for the run's progress lines: a rank announces once the bytes
  // its puts will send (the collectives' executor does; the lines compare
  // the sum with what the engines' DMA has read). Only counts.
  void plan_work(std::uint64_t bytes);

  // Memory: `bytes` of this node's memory, aligned to `align` (a power of
  // two), from a per-rank bump allocator starting at address 0; throws
  // std::runtime_error naming the rank when the node memory is exhausted.
  std::uint64_t alloc(std::uint64_t bytes, std::uint64_t align = 256);
  // A region of this node's memory, registered under `memid`
  // (FJMPI_Rdma_reg_mem). Returns the key, or 0 if the table is full or the
  // region passes the end of the node memory (nothing is registered then).
  nic::MemKey reg_mem(int memid, std::uint64_t address, std::uint64_t length);
  // The key another rank registered under `memid` (FJMPI_Rdma_get_remote_addr);
  // 0 (an unregistered key, which the target reports) if it has none.
  nic::MemKey remote_key(int rank, int memid) const;
  // Releases a registration of this node (FJMPI_Rdma_dereg_mem): later uses
  // of the key, here or by other ranks, are stale. kOk, or why not.
  nic::RdmaStatus dereg_mem(nic::MemKey key);

  // Start a put or get on TNI `tni`; waits while that TNI's command queue is
  // full. The handle identifies the completion. The command is posted when
  // put/get is called (co_await it at once): posted, the returned Task is
  // empty and awaiting it does not suspend.
  Task put(int tni, int dst, nic::MemKey remote, std::uint64_t remote_offset, nic::MemKey local,
           std::uint64_t local_offset, std::uint64_t length, std::uint32_t tag, std::uint64_t* handle,
           bool notify = true);
  Task get(int tni, int src, nic::MemKey remote, std::uint64_t remote_offset, nic::MemKey local,
           std::uint64_t local_offset, std::uint64_t length, std::uint64_t* handle);
  // Any command (docs/rdma.md): `c` posted on TNI `tni` to rank `peer`, its
  // dst_node, dst_tni (= tni) and handle filled in here; waits while the
  // command queue is full.
  Task post(int tni, int peer, nic::Command c, std::uint64_t* handle);
  // Atomics on the 8 bytes at `remote` + `remote_offset` of rank `dst` (an
  // unsigned little-endian integer): the old value is written at `local` +
  // `local_offset` here. fetch_add adds `addend`; compare_swap writes `swap`
  // if the old value equals `compare`; fetch_or sets the bits of `bits`.
  Task fetch_add(int tni, int dst, nic::MemKey remote, std::uint64_t remote_offset, nic::MemKey local,
                 std::uint64_t local_offset, std::uint64_t addend, std::uint64_t* handle);
  Task compare_swap(int tni, int dst, nic::MemKey remote, std::uint64_t remote_offset, nic::MemKey local,
                    std::uint64_t local_offset, std::uint64_t compare, std::uint64_t swap,
                    std::uint64_t* handle);
  Task fetch_or(int tni, int dst, nic::MemKey remote, std::uint64_t remote_offset, nic::MemKey local,
                std::uint64_t local_offset, std::uint64_t bits, std::uint64_t* handle);
  // The next completion on `tni` (FJMPI_Rdma_poll_cq, waiting).
  Task poll_cq(int tni, nic::Completion* out);
  // The oldest completion on `tni`, if one is there, without waiting.
  std::optional<nic::Completion> try_poll_cq(int tni);
  // Wait for the completion of one operation (acp_complete).
  Task complete(int tni, std::uint64_t handle, nic::Completion* out = nullptr);
  // That operation's completion if it has arrived, without waiting (others
  // stay queued for their own waits).
  std::optional<nic::Completion> try_complete(int tni, std::uint64_t handle);
  // Wait until a put with `tag` has landed here (MGEN_rdma_poll), on any TNI.
  Task poll(std::uint32_t tag, nic::Notice* out = nullptr);
  // Wait until a put with any of the `n` tags has landed; `*which` is the
  // index of the tag it carried (the first that arrived; an MPI_Waitany).
  Task poll_any(const std::uint32_t* tags, std::size_t n, std::size_t* which, nic::Notice* out = nullptr);
  // Wait for the next put with a notice to land here, whatever its tag (the oldest first).
  Task poll_notice(nic::Notice* out = nullptr);
  // The oldest arrived notice whose tag is in [first, last], if one is
  // there, without waiting; and the same, waiting. A library that gives its
  // protocol messages a tag range of their own (the trace replay's MPI,
  // sw/replay) takes them apart from the collectives' tags this way.
  std::optional<nic::Notice> try_poll_range(std::uint32_t first, std::uint32_t last);
  Task poll_range(std::uint32_t first, std::uint32_t last, nic::Notice* out = nullptr);
  // Wait until a notice lands or a completion arrives on any TNI (the idle
  // wait of a progress loop that has just polled both without waiting).
  Task wait_activity();
  // Spend `duration` computing.
  Delay compute(sim::Time duration);
  // Local memory: read or write `bytes` of this node's memory through its
  // TLM target (b_transport), taking the memory's annotated time. In
  // size-only runs nothing is stored: reads give zeros, timing is the same.
  // Throws std::runtime_error naming the rank if the access is refused.
  Task read_local(std::uint64_t address, void* dst, std::uint64_t bytes);
  Task write_local(std::uint64_t address, const void* src, std::uint64_t bytes);

  // The hybrid network's circuit controller (hw/ocs): ask for a pathway
  // between this node's optical NIC and rank `peer`'s (both directions),
  // which is up after the reconfiguration delay, or tear it down. Returns
  // empty, or why the controller refused (a busy port, a blocked Clos
  // fabric, no optical NIC, no OCS on this platform). Takes no time here.
  std::string request_pathway(int peer);
  std::string release_pathway(int peer);

  // Run `t` alongside the caller (e.g. one sub-program per TNI) from now on;
  // `co_await t` later waits for it to finish. `t` must outlive its run.
  void spawn(Task& t);

 private:
  friend class Runtime;
  // The engines' news: drain into the rank's lists if it is inside a runtime
  // call (see Progress above), then wake whoever waits.
  void tni_completion(int slot) override;
  void tni_notice(int slot) override;
  void tni_command_space(int slot) override;
  struct TniSide {
    nic::HostInterface* tni;
    Signal completed, space;             // a completion entry appended; a command left a full queue
    std::vector<nic::Completion> early;  // completions taken while waiting for another handle
  };
  Task submit(int tni, const nic::Command& c);
  Task wait_to_submit(std::size_t slot, nic::Command cmd);
  std::string pathway(int peer, bool up);
  nic::Command command(nic::Op op, int tni, int peer, nic::MemKey remote, std::uint64_t remote_offset,
                       nic::MemKey local, std::uint64_t local_offset, std::uint64_t length, std::uint32_t tag,
                       bool notify, std::uint64_t* handle);
  // An atomic `op` on the 8 bytes at `remote` + `remote_offset` of `dst`, with its operands.
  Task atomic(nic::Op op, int tni, int dst, nic::MemKey remote, std::uint64_t remote_offset,
              nic::MemKey local, std::uint64_t local_offset, std::uint64_t operand, std::uint64_t compare,
              std::uint64_t* handle);
  void drain_notices();
  void drain_completions(std::size_t tni);  // into that TNI's `early` list
  struct InLibrary;                         // marks a runtime call in progress (see Progress above)
  int in_library_ = 0;

  Runtime* rt_ = nullptr;
  int rank_ = 0;
  std::vector<TniSide> tnis_;
  std::vector<nic::Notice> notices_;  // arrived, not yet polled
  std::optional<Signal> any_notice_;  // raised by every TNI's notices
  std::optional<Signal> activity_;    // raised by notices and completions, once wait_activity was used
  std::uint64_t next_handle_ = 1;
  std::uint64_t next_free_ = 0;  // alloc's bump pointer
};

// All ranks of a run (rank r runs on node r): registration directory and
// program launch.
class Runtime {
 public:
  // Rank r runs on node nodes[r] (empty: on node r) with tnis_per_rank[r]
  // and registries[r], that node's TNIs and registration table. A null
  // registry: rank r runs in another process (a split run's partial build,
  // docs/parallel.md), and this one keeps no record of it.
  Runtime(sim::EventQueue& q, const hw::Topology* torus,
          std::vector<std::vector<nic::HostInterface*>> tnis_per_rank,
          std::vector<nic::MemoryRegistry*> registries, std::vector<hw::NodeId> nodes = {});
  ~Runtime();
  // The node a rank runs on; an id no node has for a rank out of range (the
  // TNI then reports a bad rank).
  hw::NodeId node_of(int rank) const {
    if (rank < 0 || rank >= size()) return ~hw::NodeId(0);
    return nodes_.empty() ? hw::NodeId(rank) : nodes_[std::size_t(rank)];
  }
  int size() const { return int(ranks_.size()); }
  Rank& rank(int r) { return *ranks_[std::size_t(r)]; }  // a rank with a record here
  sim::EventQueue& queue() { return q_; }
  Resumer& resumer() { return resumer_; }
  // The mesh/torus shape, or null on a switched fabric.
  const hw::Topology* torus() const { return topo_; }
  // What Rank::request_pathway / release_pathway reach: (this node, peer
  // node, set up?) -> empty or why not. Unset: no OCS.
  using CircuitControl = std::function<std::string(hw::NodeId, hw::NodeId, bool)>;
  void set_circuit_control(CircuitControl c) { circuits_ = std::move(c); }
  // Each rank's node memory, for Rank::read_local / write_local.
  void set_memories(std::vector<tlm::tlm_fw_transport_if<>*> m) { memories_ = std::move(m); }
  // The node memory's size, which Rank::alloc stays within (default: 2^40 B).
  void set_memory_bytes(std::uint64_t b) { memory_bytes_ = b; }
  std::uint64_t memory_bytes() const { return memory_bytes_; }

  // A partitioned run (mpirun, docs/parallel.md): only the ranks with
  // owned[r] run in this process; the others run in theirs. Registrations
  // (reg_mem) travel between the processes once, through registrations(),
  // at the end of a first window that ends at kRegistrationsShared: in a
  // split run a registration after time 0, or a lookup (remote_key) of
  // another process's rank before kRegistrationsShared, fails the program
  // with a message (one process would have answered it on the spot). The
  // shipped workloads register at time 0 and look keys up from kStart on.
  static constexpr sim::Time kRegistrationsShared = 1;
  void split(std::vector<bool> owned);
  bool owns(int rank) const { return owned_.empty() || owned_[std::size_t(rank)]; }
  sim::Boundary& registrations();

  // Run `program(rank)` on every rank this process owns (each as its own coroutine).
  template <class Program>
  void launch(Program program) {
    for (auto& r : ranks_) {
      if (!r || !owns(r->rank())) continue;
      launched_.push_back(r->rank());
      tasks_.push_back(finish(program(*r)));
      tasks_.back().start(q_, resumer_);
    }
  }
  // True when every launched program has finished; rethrows a program's error.
  bool all_done() const;
  // The first launched rank (in rank order) whose program ended with an
  // error, with the error's message; rank -1 if none did.
  std::pair<int, std::string> first_failure() const;
  // When the last launched program finished (0 if none did).
  sim::Time finished_at() const { return finished_at_; }
  // Put bytes announced (Rank::plan_work) by this process's ranks, and how
  // many ranks announced theirs.
  struct Work {
    std::uint64_t planned_ranks = 0, total = 0;
  };
  const Work& work() const { return work_; }
  // How many programs this process launched.
  int launched() const { return int(launched_.size()); }
  // How many launched programs have finished; the first `limit` launched ranks that have not.
  int finished() const { return finished_; }
  std::vector<int> unfinished(std::size_t limit) const;
  // Bytes the runtime holds for its ranks: the rank records, their signals,
  // queues and directory entries (capacities, not sizes), without coroutine
  // frames (fw::FrameBytes counts those).
  std::size_t footprint_bytes() const;

 private:
  friend class Rank;
  sim::EventQueue& q_;
  const hw::Topology* topo_;
  Resumer resumer_;
  std::vector<std::unique_ptr<Rank>> ranks_;  // null: another process's rank, without a record here
  std::vector<nic::MemoryRegistry*> registries_;
  std::vector<hw::NodeId> nodes_;
  std::vector<tlm::tlm_fw_transport_if<>*> memories_;         // per rank
  std::unordered_map<std::uint64_t, nic::MemKey> directory_;  // (rank, memid) -> key
  std::vector<Task> tasks_;
  std::vector<int> launched_;  // the rank of each task
  std::vector<bool> owned_;    // a split run's own ranks (empty: all)
  class Share;
  std::unique_ptr<Share> share_;
  sim::Time finished_at_ = 0;
  std::uint64_t memory_bytes_ = std::uint64_t(1) << 40;
  CircuitControl circuits_;
  int finished_ = 0;
  Work work_;

  Task finish(Task program);  // runs the program, then notes the time
  friend class Rank;
};

}  // namespace kairo::fw
