// The operation log (docs/rdma.md, "The operation log"): one record per step
// of every RDMA operation, as the NIC's blocks execute them. The engines
// append records to an OpLog when one is attached (a null pointer otherwise:
// nothing is recorded or formatted); the run writes them, in the log's order,
// as CSV or JSON Lines; `kairo check-ops` reads them back (op_log_read.h).
//
// A record is plain data: its text (the event, kind and status tokens) comes
// from the tables here, so that the writer, the reader and the checker share
// one vocabulary. Status codes are the NIC's (hw/nic/rdma_status.h, in that
// order; a test checks that the tokens follow it).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/event_queue.h"
#include "sim/rdma_operations.h"
#include "sim/time.h"

namespace kairo::observe {

enum class OpEvent : std::uint8_t {
  kRegister,
  kDeregister,
  kDoorbell,
  kStart,
  kDmaRead,
  kInject,
  kArrive,
  kDmaWrite,
  kDrop,
  kNotice,
  kComplete,
  kPoll,
  kNoticePoll,
};
inline constexpr int kOpEvents = 13;

// Operation kinds, packet kinds and the registration table's records. The
// operation kinds come first, one per RDMA operation in the order of
// sim/rdma_operations.h's table (op_kind()), which also gives their tokens;
// the packet kinds are those of the families' packets.
enum class OpKind : std::uint8_t {
  kData = sim::kRdmaOpCount,
  kAck,
  kGetRequest,
  kGetResponse,
  kAtomicRequest,
  kAtomicResponse,
  kRegion,
};
inline constexpr int kOpKinds = int(OpKind::kRegion) + 1;
inline constexpr int kPacketKinds = int(OpKind::kRegion) - int(OpKind::kData);
constexpr OpKind op_kind(sim::RdmaOp op) { return OpKind(op); }
// The operation a kind names, if it names one (not a packet or a region).
constexpr const sim::RdmaOpKind* operation_of(OpKind k) {
  return std::size_t(k) < sim::kRdmaOpCount ? &sim::kRdmaOps[std::size_t(k)] : nullptr;
}

// Doorbell flags.
enum OpFlag : std::uint8_t { kFlagNotify = 1, kFlagFence = 2, kFlagLocalCompletion = 4 };

// The token of each value, as the log writes it ("dma_read", "get_response", "stale_key").
std::string_view token(OpEvent e);
std::string_view token(OpKind k);
// Status codes in hw/nic/rdma_status.h's order: 0 "ok", 1 "unregistered_key", ...
std::string_view status_token(std::uint8_t status);
inline constexpr int kOpStatuses = 9;
// The value a token names, or nothing.
std::optional<OpEvent> event_of(std::string_view token);
std::optional<OpKind> kind_of(std::string_view token);
std::optional<std::uint8_t> status_of(std::string_view token);

// An operation: the K-th command (from 1) posted on TNI `tni` of node `node`,
// written "N.T.K". number 0: none (a registration record).
struct OpId {
  std::uint32_t node = 0;
  std::uint16_t tni = 0;
  std::uint64_t number = 0;
  explicit operator bool() const { return number != 0; }
  bool operator==(const OpId& o) const { return node == o.node && tni == o.tni && number == o.number; }
  bool operator<(const OpId& o) const {
    return node != o.node ? node < o.node : tni != o.tni ? tni < o.tni : number < o.number;
  }
};

struct OpRecord {
  static constexpr std::uint64_t kNone = ~std::uint64_t(0);
  sim::Time time_ps = 0;
  std::uint32_t node = 0;
  std::int32_t tni = -1;     // -1: the node's registration table
  OpId op;                   // none on registration records
  std::int64_t packet = -1;  // j of "N.T.K/j"; -1 on operation records
  OpKind kind = op_kind(sim::RdmaOp::kPut);
  OpEvent event = OpEvent::kDoorbell;
  std::uint8_t status = 0;  // 0: ok
  std::uint8_t flags = 0;   // OpFlag, on a doorbell
  std::uint64_t addr = kNone, bytes = kNone, peer = kNone, key = kNone, tag = kNone;
  sim::Time start_ps = kNone;
};

// "N.T.K" and "N.T.K/j".
std::string op_text(const OpId& op);
std::string packet_text(const OpId& op, std::int64_t packet);

// The header of the CSV form, the columns in order.
inline constexpr std::string_view kOpLogColumns =
    "seq,time_ps,node,tni,op,packet,kind,event,addr,bytes,status,peer,key,tag,start_ps,flags";

// One record as a CSV row or a JSON Lines object (with its `seq`), with the
// line's newline, appended to `out`.
void append_csv(std::string& out, std::uint64_t seq, const OpRecord& r);
void append_jsonl(std::string& out, std::uint64_t seq, const OpRecord& r);

// The records of a run, as the engines and registration tables append them
// (in the order the model executes them), kept for the nodes and the time
// window asked for. Every record is stamped with the queue's time when it is
// added: a step is recorded when it happens (a DMA transfer when it ends).
class OpLog {
 public:
  struct Filter {
    std::vector<bool> nodes;  // empty: every node
    sim::Time from = 0, to = sim::kNever;
  };
  OpLog(const sim::EventQueue& queue, Filter filter) : queue_(queue), filter_(std::move(filter)) {}

  // Whether a step on `node` now is kept: asked before a record is built.
  bool wants(std::uint32_t node) const {
    const sim::Time t = queue_.now();
    return t >= filter_.from && t <= filter_.to &&
           (filter_.nodes.empty() || (node < filter_.nodes.size() && filter_.nodes[node]));
  }
  void add(OpRecord r) {
    r.time_ps = queue_.now();
    records_.push_back(r);
  }
  const std::vector<OpRecord>& records() const { return records_; }
  std::vector<OpRecord>& records() { return records_; }

 private:
  const sim::EventQueue& queue_;
  Filter filter_;
  std::vector<OpRecord> records_;
};

// Puts records appended in execution order (by one process or several, each
// node's by one) in the log's order: by time, then node, then as executed.
void sort_records(std::vector<OpRecord>& records);

}  // namespace kairo::observe
