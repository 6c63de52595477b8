#include "hw/nic/wire.h"

namespace kairo::nic {

void WireCodec::pack(const void* user, sim::ByteWriter& out) const {
  const Wire& w = *static_cast<const Wire*>(user);
  out.put(w.type);
  out.put(w.status);
  out.put(w.op_kind);
  out.put(w.src_node);
  out.put(w.src_tni);
  out.put(w.dst_node);
  out.put(w.dst_tni);
  out.put(w.op);
  out.put(w.packet);
  out.put(w.key);
  out.put(w.offset);
  out.put(w.op_length);
  out.put(w.piece_offset);
  out.put(w.piece_bytes);
  out.put(w.tag);
  out.put(w.notify);
  out.put(w.operand);
  out.put(w.compare);
  out.put(w.read_address);
  // Only data packets' payloads: an acknowledgement or a get request may be
  // a recycled Wire still holding an old payload no engine reads.
  const bool payload = Wire::is_written(w.type);
  out.put(std::uint64_t(payload ? w.data.size() : 0));
  if (payload) out.put_bytes(w.data.data(), w.data.size());
}

void* WireCodec::unpack(sim::ByteReader& in) {
  Wire& w = *pool_.get();
  w.type = in.get<Wire::Type>();
  w.status = in.get<RdmaStatus>();
  w.op_kind = in.get<Op>();
  w.src_node = in.get<std::uint32_t>();
  w.src_tni = in.get<std::uint16_t>();
  w.dst_node = in.get<std::uint32_t>();
  w.dst_tni = in.get<std::uint16_t>();
  w.op = in.get<std::uint64_t>();
  w.packet = in.get<std::uint32_t>();
  w.key = in.get<MemKey>();
  w.offset = in.get<std::uint64_t>();
  w.op_length = in.get<std::uint64_t>();
  w.piece_offset = in.get<std::uint64_t>();
  w.piece_bytes = in.get<std::uint32_t>();
  w.tag = in.get<std::uint32_t>();
  w.notify = in.get<bool>();
  w.operand = in.get<std::uint64_t>();
  w.compare = in.get<std::uint64_t>();
  w.read_address = in.get<std::uint64_t>();
  w.data.resize(in.get<std::uint64_t>());
  in.get_bytes(w.data.data(), w.data.size());
  w.rx_packet = nullptr;
  w.ends_command = w.completes_when_read = false;  // sender-side marks
  return &w;
}

}  // namespace kairo::nic
