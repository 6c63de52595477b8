#include "observe/packet_label.h"

#include <fmt/format.h>

namespace kairo::observe {

std::optional<PacketLabelFields> decode_packet_label(std::uint64_t value) {
  using L = PacketLabel;
  const std::uint64_t k = value >> L::kKindShift & 0xf;
  if (k == 0 || k > std::uint64_t(kPacketKinds)) return std::nullopt;
  PacketLabelFields f;
  f.op.node = std::uint32_t(value >> L::kNodeShift);
  f.op.tni = std::uint16_t(value >> L::kTniShift & 0xf);
  f.op.number = value & L::kOpMask;
  f.packet = value >> L::kPacketShift & L::kPacketMask;
  f.kind = OpKind(std::uint64_t(OpKind::kData) + k - 1);
  return f;
}

std::string packet_label_text(std::uint64_t value) {
  const auto f = decode_packet_label(value);
  if (!f) return fmt::format("{}", value);
  return packet_text(f->op, std::int64_t(f->packet)) + " " + std::string(token(f->kind));
}

}  // namespace kairo::observe
