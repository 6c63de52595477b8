// What a packet's `user` field carries (the NIC's RDMA header and payload),
// made bytes for a partitioned run (docs/parallel.md): a packet
// that crosses to another process is packed where it leaves, rebuilt where it
// arrives, and the sender's copy is released. The network never reads it.
#pragma once
#include "sim/byte_codec.h"

namespace kairo::hw {

class PayloadCodec {
 public:
  virtual ~PayloadCodec() = default;
  virtual void pack(const void* user, sim::ByteWriter& w) const = 0;
  // A descriptor of the receiving side's own, equal to the one packed.
  virtual void* unpack(sim::ByteReader& r) = 0;
  // The sender's descriptor, once packed: it left with its packet.
  virtual void release(void* user) = 0;
};

}  // namespace kairo::hw
