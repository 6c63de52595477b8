// Dragonfly routing (hw/router/dragonfly_routing.h): the minimal way between
// two routers, and the VC classes of the phases. Called per packet per hop:
// integer arithmetic only.
#include "hw/router/dragonfly_routing.h"

namespace kairo::router {

void DragonflyRouting::vc_classes(int vcs, std::uint8_t* first, std::uint8_t* last) const {
  const int per = vcs / phases();
  for (int k = 0; k < 3; ++k) {
    const int c = int(hw::VcClass::kPhase0) + k;
    first[c] = std::uint8_t(k < phases() ? k * per : 0);
    last[c] = std::uint8_t(k < phases() ? (k + 1) * per : 0);
  }
}

void DragonflyRouting::next_hop(const RouterPlace& at, hw::Packet& p, OutputLoad& load) const {
  const Hop hop = route(int(at.id), p, packet_coin(p), [&](int out) { return load.used_credits(out); });
  p.out_port = std::int16_t(hop.port);
  p.out_class = hop.cls;
  p.out_dim = std::int8_t(hop.link);
}

int DragonflyRouting::toward_router(int r, int to) const {
  const int G = r / s_.a, T = to / s_.a;
  if (T == G) return DragonflyShape::local_port(r % s_.a, to % s_.a);
  return toward_group(r, T);
}

int DragonflyRouting::toward_group(int r, int to_group) const {
  const int G = r / s_.a, i = r % s_.a;
  const int j = DragonflyShape::global_link(G, to_group), exit = j / s_.h;
  if (exit == i) return s_.a - 1 + j % s_.h;
  return DragonflyShape::local_port(i, exit);
}

}  // namespace kairo::router
