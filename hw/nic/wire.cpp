#include "hw/nic/wire.h"

#include <type_traits>

namespace kairo::nic {

namespace {

// The header's fields in their order on the wire, for the packing and the
// unpacking alike (W: Wire or const Wire).
template <class W, class F>
void header_fields(W& w, F&& field) {
  field(w.type), field(w.status), field(w.op_kind);
  field(w.src_node), field(w.src_tni), field(w.dst_node), field(w.dst_tni);
  field(w.op), field(w.packet), field(w.key), field(w.offset), field(w.op_length);
  field(w.piece_offset), field(w.piece_bytes), field(w.tag), field(w.notify);
  field(w.operand), field(w.compare), field(w.read_address);
}

}  // namespace

void WireCodec::pack(const void* user, sim::ByteWriter& out) const {
  const Wire& w = *static_cast<const Wire*>(user);
  header_fields(w, [&](const auto& v) { out.put(v); });
  // Only data packets' payloads: an acknowledgement or a get request may be
  // a recycled Wire still holding an old payload no engine reads.
  const bool payload = Wire::is_written(w.type);
  out.put(std::uint64_t(payload ? w.data.size() : 0));
  if (payload) out.put_bytes(w.data.data(), w.data.size());
}

void* WireCodec::unpack(sim::ByteReader& in) {
  Wire& w = *pool_.get();
  header_fields(w, [&](auto& v) { v = in.get<std::remove_reference_t<decltype(v)>>(); });
  w.data.resize(in.get<std::uint64_t>());
  in.get_bytes(w.data.data(), w.data.size());
  w.rx_packet = nullptr;
  w.ends_command = w.completes_when_read = false;  // sender-side marks
  return &w;
}

}  // namespace kairo::nic
