// A packet's waveform value (docs/waveforms.md, "Packet values"): the
// operation log's packet id `N.T.K/j` and the packet's kind, packed into 64
// bits, so that a packet reads the same on every row that shows it (the
// sender's tx_pkt, each link's pkt, the DMA rows of both ends) and differs
// from every other packet of the run. It depends only on the operation (its
// initiator's node, TNI and command number) and the packet's place in it, so
// it is identical for the same inputs, also under mpirun (a node is always
// simulated by one process).
//
//   bits 63..44  N     the initiator's node (20 bits)
//        43..40  T     its TNI (4 bits)
//        39..36  kind  1 data, 2 ack, 3 get_request, 4 get_response,
//                      5 atomic_request, 6 atomic_response (never 0: a
//                      packet's value is never the idle 0)
//        35..20  j     the packet's place among its operation's packets (16 bits)
//        19..0   K     the operation: the K-th command of that TNI (20 bits)
//
// Each field starts on a hex digit, so a row shown in hex reads too:
// 0000001000200001 is N 0, T 0, kind 1 (data), j 2, K 1. Not modeled: a run
// past 2^20 commands on one TNI or an operation past 2^16 packets repeats
// values (the field keeps the number's low bits); nodes and TNIs beyond their
// fields are refused where tracing is set up.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "observe/op_log.h"

namespace kairo::observe {

struct PacketLabel {
  static constexpr int kNodeShift = 44, kTniShift = 40, kKindShift = 36, kPacketShift = 20;
  static constexpr std::uint64_t kMaxNodes = std::uint64_t(1) << 20, kMaxTnis = 16;
  static constexpr std::uint64_t kPacketMask = 0xffff, kOpMask = 0xfffff;
};

// The value of packet `packet` (j) of operation `op`, of kind `kind` (a packet kind: one of the kPacketKinds
// from kData).
inline std::uint64_t packet_label(const OpId& op, std::uint64_t packet, OpKind kind) {
  using L = PacketLabel;
  const std::uint64_t k = std::uint64_t(kind) - std::uint64_t(OpKind::kData) + 1;
  return std::uint64_t(op.node) << L::kNodeShift | std::uint64_t(op.tni & 0xf) << L::kTniShift |
         k << L::kKindShift | (packet & L::kPacketMask) << L::kPacketShift | (op.number & L::kOpMask);
}

// What a value says: the operation, the packet's place and its kind; nothing
// for a value no packet_label() gives (0, or a kind field out of range).
struct PacketLabelFields {
  OpId op;
  std::uint64_t packet = 0;
  OpKind kind = OpKind::kData;
};
std::optional<PacketLabelFields> decode_packet_label(std::uint64_t value);

// "0.0.1/2 data": the operation log's packet id and kind; the value in
// decimal when it is no packet's.
std::string packet_label_text(std::uint64_t value);

}  // namespace kairo::observe
