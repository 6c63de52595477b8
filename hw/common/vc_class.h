// The VC class a hop may use, carried in the packet header. On a ring
// dimension the VCs are split in two halves: class 0 (low half) before the
// dateline, class 1 (high half) after crossing it. Mesh dimensions, size-2
// dimensions, switched fabrics and ejection may use any VC.
#pragma once
#include <cstdint>

namespace kairo::router {

enum class VcClass : std::uint8_t { kLow = 0, kHigh = 1, kAny = 2 };

}  // namespace kairo::router
