// Reading packed values back (sim/byte_codec.h).
#include "sim/byte_codec.h"

#include <cstring>
#include <stdexcept>

namespace kairo::sim {

void ByteReader::get_bytes(void* out, std::size_t n) {
  if (std::size_t(end_ - p_) < n) throw std::runtime_error("a message between processes ended early");
  if (n > 0) std::memcpy(out, p_, n);  // an empty field may have no buffer (memcpy wants one even then)
  p_ += n;
}

}  // namespace kairo::sim
