// The VC class a hop may use, carried in the packet header.
// Dimension-order routing: on a ring dimension the VCs are split in two
// halves, class kLow (low half) before the dateline, kHigh (high half) after
// crossing it. Mesh dimensions, size-2 dimensions, switched fabrics and
// ejection may use any VC (kAny).
// Minimal adaptive routing (Duato): the escape network is dimension-order
// routing on its own VCs (kEscLow: VC 0; kEscHigh: VC 1, after the dateline,
// when the topology has a ring), and the other VCs are adaptive (kAdaptive).
// Dragonfly (hw/router/dragonfly_routing.h): one class per phase of a
// packet's way, kPhase0 .. kPhase2, in the order a packet takes them.
// Bubble flow control (router.flow_control: bubble): no dateline classes;
// every VC serves every packet, and the hop that enters a ring is marked
// kRingEntry (any VC, but it needs room for a second packet there too);
// minimal adaptive routing's escape network then has one VC (kEscLow), and a
// hop entering one of its rings, from a new dimension or from an adaptive VC,
// is kEscRingEntry (the escape VC, with room for a second packet).
// Which VCs a class means on a router is RouterConfig's table (vc_first /
// vc_last), filled once from the routing strategy.
#pragma once
#include <cstdint>

namespace kairo::hw {

enum class VcClass : std::uint8_t {
  kLow = 0,
  kHigh = 1,
  kAny = 2,
  kEscLow = 3,
  kEscHigh = 4,
  kAdaptive = 5,
  kPhase0 = 6,
  kPhase1 = 7,
  kPhase2 = 8,
  kRingEntry = 9,
  kEscRingEntry = 10
};
inline constexpr int kNumVcClasses = 11;

inline bool is_escape(VcClass c) {
  return c == VcClass::kEscLow || c == VcClass::kEscHigh || c == VcClass::kEscRingEntry;
}
// Under bubble flow control: a hop that enters a ring (of the network, or of
// minimal adaptive routing's escape network) needs a second free slot.
inline bool enters_ring(VcClass c) { return c == VcClass::kRingEntry || c == VcClass::kEscRingEntry; }

}  // namespace kairo::hw
