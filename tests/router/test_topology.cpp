// Geometry of the mesh/torus: node numbering, ports and cables, hop distance
// and the dateline. Expected distances come from a breadth-first search over
// the cabled neighbour graph, not from the distance formula under test.
#include <gtest/gtest.h>

#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

#include "hw/common/topology.h"

namespace kairo::router {
namespace {

struct Shape {
  const char* label;
  std::vector<hw::DimSpec> dims;
};

// Small shapes covering meshes, tori, even and odd rings, size-2 and size-1
// dimensions, and mixed wrap flags.
std::vector<Shape> shapes() {
  return {
      {"4x4 mesh", {{"X", 4, false}, {"Y", 4, false}}},
      {"5x4 torus", {{"X", 5, true}, {"Y", 4, true}}},
      {"3x3x3 torus", {{"X", 3, true}, {"Y", 3, true}, {"Z", 3, true}}},
      {"2x3x3 mixed", {{"X", 2, true}, {"Y", 3, true}, {"Z", 3, false}}},
      {"6 ring x 1", {{"X", 6, true}, {"Y", 1, true}}},
      {"Tofu-like 2x2x2x2x3x2",
       {{"X", 2, true}, {"Y", 2, true}, {"Z", 2, true}, {"A", 2, false}, {"B", 3, true}, {"C", 2, false}}},
      {"Tofu-like 4x3x3x2x3x2",
       {{"X", 4, true}, {"Y", 3, true}, {"Z", 3, false}, {"A", 2, false}, {"B", 3, true}, {"C", 2, false}}},
  };
}

// Hop distance from `src` to every node, following only cabled ports.
std::vector<int> bfs_distances(const hw::Topology& topo, hw::NodeId src) {
  std::vector<int> dist(topo.num_nodes(), -1);
  std::deque<hw::NodeId> frontier{src};
  dist[src] = 0;
  while (!frontier.empty()) {
    const hw::NodeId n = frontier.front();
    frontier.pop_front();
    for (int p = 0; p < topo.num_link_ports(); ++p) {
      const auto next = topo.neighbor_via_port(n, p);
      if (!next || dist[*next] >= 0) continue;
      dist[*next] = dist[n] + 1;
      frontier.push_back(*next);
    }
  }
  return dist;
}

hw::Topology tofu_like() {
  return hw::Topology(
      {{"X", 2, true}, {"Y", 3, true}, {"Z", 2, true}, {"A", 2, false}, {"B", 3, true}, {"C", 2, false}});
}

std::string error_of(std::vector<hw::DimSpec> dims) {
  try {
    hw::Topology topo(std::move(dims));
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(Topology, NodeCountIsProductOfDimensionSizes) {
  for (const Shape& s : shapes()) {
    std::uint64_t product = 1;
    for (const hw::DimSpec& d : s.dims) product *= std::uint64_t(d.size);
    EXPECT_EQ(hw::Topology(s.dims).num_nodes(), product) << s.label;
  }
}

TEST(Topology, NodeIdIsMixedRadixWithFirstDimensionFastest) {
  const hw::Topology topo({{"X", 3, false}, {"Y", 4, true}, {"Z", 5, false}});
  // id = x + 3 * (y + 4 * z)
  EXPECT_EQ(topo.id_of({1, 0, 0}), 1u);
  EXPECT_EQ(topo.id_of({0, 1, 0}), 3u);
  EXPECT_EQ(topo.id_of({0, 0, 1}), 12u);
  EXPECT_EQ(topo.id_of({2, 3, 4}), 2u + 3u * (3u + 4u * 4u));
  EXPECT_EQ(topo.coord_of(59), (hw::Coord{2, 3, 4, 0, 0, 0}));
}

TEST(Topology, EveryNodeIdRoundTripsThroughItsCoordinate) {
  for (const Shape& s : shapes()) {
    const hw::Topology topo(s.dims);
    for (hw::NodeId n = 0; n < topo.num_nodes(); ++n) {
      const hw::Coord c = topo.coord_of(n);
      for (int d = 0; d < topo.num_dims(); ++d) {
        ASSERT_GE(c[d], 0) << s.label;
        ASSERT_LT(c[d], topo.dim(d).size) << s.label;
      }
      for (int d = topo.num_dims(); d < hw::kMaxDims; ++d)
        ASSERT_EQ(c[d], 0) << s.label << ": unused dim not 0";
      ASSERT_EQ(topo.id_of(c), n) << s.label << " node " << n;
    }
  }
}

TEST(Topology, CoordStringNamesEachDimensionInLowerCase) {
  const hw::Topology topo = tofu_like();
  EXPECT_EQ(topo.coord_string({1, 0, 0, 0, 1, 0}), "x1y0z0a0b1c0");
  EXPECT_EQ(topo.coord_string({1, 2, 1, 1, 2, 1}), "x1y2z1a1b2c1");
}

TEST(Topology, DimensionLookupIgnoresCase) {
  const hw::Topology topo = tofu_like();
  EXPECT_EQ(topo.dim_index("X"), 0);
  EXPECT_EQ(topo.dim_index("b"), 4);
  EXPECT_EQ(topo.dim_index("c"), 5);
  EXPECT_EQ(topo.dim_index("W"), -1);
}

TEST(Topology, PortsArePlusThenMinusInDeclarationOrder) {
  // X ring: xp xm; Y size 2: y; Z size 1: none; A mesh: ap am.
  const hw::Topology topo({{"X", 4, true}, {"Y", 2, true}, {"Z", 1, false}, {"A", 3, false}});
  ASSERT_EQ(topo.num_link_ports(), 5);
  const std::vector<std::string> names{"xp", "xm", "y", "ap", "am"};
  const std::vector<int> dims{0, 0, 1, 3, 3};
  const std::vector<int> dirs{+1, -1, 0, +1, -1};
  for (int p = 0; p < 5; ++p) {
    EXPECT_EQ(topo.port_name(p), names[p]);
    EXPECT_EQ(topo.port_dim(p), dims[p]) << names[p];
    EXPECT_EQ(topo.port_dir(p), dirs[p]) << names[p];
    EXPECT_EQ(topo.port_of(dims[p], dirs[p] == 0 ? +1 : dirs[p]), p) << names[p];
  }
}

TEST(Topology, SizeTwoDimensionHasOneLinkPerNode) {
  for (bool wrap : {false, true}) {
    const hw::Topology topo({{"A", 2, wrap}, {"B", 3, true}});
    const int a = topo.port_of(0, +1);
    EXPECT_EQ(topo.port_of(0, -1), a) << "both directions share the one A link";
    EXPECT_EQ(topo.port_dir(a), 0);
    EXPECT_EQ(topo.port_name(a), "a");
    EXPECT_EQ(topo.peer_port(a), a) << "the A link arrives on the A port of the other node";
    EXPECT_FALSE(topo.is_ring(0));
    for (hw::NodeId n = 0; n < topo.num_nodes(); ++n) {
      hw::Coord other = topo.coord_of(n);
      other[0] = 1 - other[0];
      EXPECT_EQ(topo.neighbor(n, 0, +1), topo.id_of(other));
      EXPECT_EQ(topo.neighbor(n, 0, -1), topo.id_of(other));
      EXPECT_EQ(topo.neighbor_via_port(n, a), topo.id_of(other));
    }
  }
}

TEST(Topology, SizeOneDimensionHasNoLink) {
  const hw::Topology topo({{"X", 3, true}, {"A", 1, true}, {"C", 1, false}});
  EXPECT_EQ(topo.num_link_ports(), 2);
  for (int d : {1, 2}) {
    EXPECT_EQ(topo.port_of(d, +1), -1);
    EXPECT_EQ(topo.port_of(d, -1), -1);
    for (hw::NodeId n = 0; n < topo.num_nodes(); ++n) {
      EXPECT_FALSE(topo.neighbor(n, d, +1));
      EXPECT_FALSE(topo.neighbor(n, d, -1));
    }
  }
}

TEST(Topology, MeshBoundaryPortExistsButIsUnconnected) {
  const hw::Topology topo({{"X", 4, false}});
  EXPECT_EQ(topo.num_link_ports(), 2);
  EXPECT_FALSE(topo.neighbor(0, 0, -1));
  EXPECT_FALSE(topo.neighbor_via_port(3, topo.port_of(0, +1)));
  EXPECT_EQ(topo.neighbor(0, 0, +1), hw::NodeId(1));
  EXPECT_EQ(topo.neighbor(3, 0, -1), hw::NodeId(2));
}

TEST(Topology, TorusWrapLinkJoinsTheTwoEnds) {
  const hw::Topology topo({{"X", 5, true}, {"Y", 4, true}});
  EXPECT_EQ(topo.neighbor(topo.id_of({4, 2}), 0, +1), topo.id_of({0, 2}));
  EXPECT_EQ(topo.neighbor(topo.id_of({0, 2}), 0, -1), topo.id_of({4, 2}));
  EXPECT_EQ(topo.neighbor(topo.id_of({1, 0}), 1, -1), topo.id_of({1, 3}));
  EXPECT_EQ(topo.neighbor(topo.id_of({1, 3}), 1, +1), topo.id_of({1, 0}));
}

TEST(Topology, NeighbourChangesOnlyOneCoordinateByOneStep) {
  for (const Shape& s : shapes()) {
    const hw::Topology topo(s.dims);
    for (hw::NodeId n = 0; n < topo.num_nodes(); ++n) {
      const hw::Coord c = topo.coord_of(n);
      for (int d = 0; d < topo.num_dims(); ++d) {
        for (int dir : {+1, -1}) {
          const int size = topo.dim(d).size;
          int want = size == 2 ? 1 - c[d] : c[d] + dir;
          const bool off_edge = want < 0 || want >= size;
          if (off_edge) want = (want + size) % size;
          const bool connected = size > 1 && !(off_edge && !topo.dim(d).wrap);
          const auto got = topo.neighbor(n, d, dir);
          ASSERT_EQ(bool(got), connected) << s.label << " " << topo.coord_string(c) << " dim " << d;
          if (!connected) continue;
          hw::Coord expect = c;
          expect[d] = want;
          ASSERT_EQ(topo.coord_of(*got), expect) << s.label << " " << topo.coord_string(c) << " dim " << d;
        }
      }
    }
  }
}

TEST(Topology, LinkLeavingThroughAPortArrivesOnItsPeerPort) {
  for (const Shape& s : shapes()) {
    const hw::Topology topo(s.dims);
    for (int p = 0; p < topo.num_link_ports(); ++p) {
      EXPECT_EQ(topo.peer_port(topo.peer_port(p)), p) << s.label;
      EXPECT_EQ(topo.port_dim(topo.peer_port(p)), topo.port_dim(p)) << s.label;
      EXPECT_EQ(topo.port_dir(topo.peer_port(p)), -topo.port_dir(p)) << s.label;
    }
    for (hw::NodeId n = 0; n < topo.num_nodes(); ++n) {
      for (int p = 0; p < topo.num_link_ports(); ++p) {
        const auto far = topo.neighbor_via_port(n, p);
        if (!far) continue;
        const auto back = topo.neighbor_via_port(*far, topo.peer_port(p));
        ASSERT_TRUE(back) << s.label << ": cable through " << topo.port_name(p) << " has no return path";
        ASSERT_EQ(*back, n) << s.label << ": cable through " << topo.port_name(p) << " returns elsewhere";
      }
    }
  }
}

TEST(Topology, HopsMatchBreadthFirstSearchOverTheCables) {
  for (const Shape& s : shapes()) {
    const hw::Topology topo(s.dims);
    for (hw::NodeId a = 0; a < topo.num_nodes(); ++a) {
      const std::vector<int> dist = bfs_distances(topo, a);
      for (hw::NodeId b = 0; b < topo.num_nodes(); ++b) {
        ASSERT_EQ(topo.hops(a, b), dist[b]) << s.label << ": " << topo.coord_string(topo.coord_of(a))
                                            << " -> " << topo.coord_string(topo.coord_of(b));
      }
    }
  }
}

TEST(Topology, RingDistanceTakesTheShorterWayRound) {
  const hw::Topology topo({{"X", 6, true}, {"Y", 6, false}, {"Z", 5, true}});
  EXPECT_EQ(topo.dim_hops(0, 0, 5), 1) << "ring: one hop over the wrap link";
  EXPECT_EQ(topo.dim_hops(1, 0, 5), 5) << "mesh: no wrap link";
  EXPECT_EQ(topo.dim_hops(0, 0, 3), 3) << "even ring: exactly half way";
  EXPECT_EQ(topo.dim_hops(0, 4, 1), 3);
  EXPECT_EQ(topo.dim_hops(2, 1, 4), 2);
  EXPECT_EQ(topo.dim_hops(2, 4, 4), 0);
}

TEST(Topology, DatelineIsExactlyTheWrapLinkOfARing) {
  for (const Shape& s : shapes()) {
    const hw::Topology topo(s.dims);
    for (hw::NodeId n = 0; n < topo.num_nodes(); ++n) {
      const hw::Coord c = topo.coord_of(n);
      for (int d = 0; d < topo.num_dims(); ++d) {
        const int size = topo.dim(d).size;
        const bool ring = topo.dim(d).wrap && size >= 3;
        ASSERT_EQ(topo.is_ring(d), ring) << s.label << " dim " << d;
        for (int dir : {+1, -1}) {
          const bool wraps = c[d] + dir < 0 || c[d] + dir >= size;
          ASSERT_EQ(topo.crosses_dateline(c, d, dir), ring && wraps)
              << s.label << " " << topo.coord_string(c) << " dim " << d << " dir " << dir;
        }
      }
    }
  }
}

TEST(Topology, ImpossibleShapesAreRejectedNamingTheDimension) {
  EXPECT_NE(error_of({}).find("no dimensions"), std::string::npos);
  const std::string too_many =
      error_of({{"X", 2}, {"Y", 2}, {"Z", 2}, {"A", 2}, {"B", 2}, {"C", 2}, {"D", 2}});
  EXPECT_NE(too_many.find("'D'"), std::string::npos) << too_many;
  const std::string zero = error_of({{"X", 4}, {"B", 0}});
  EXPECT_NE(zero.find("'B'"), std::string::npos) << zero;
  EXPECT_NE(zero.find("size 0"), std::string::npos) << zero;
  const std::string negative = error_of({{"Y", -3}});
  EXPECT_NE(negative.find("'Y'"), std::string::npos) << negative;
  const std::string duplicate = error_of({{"X", 4}, {"Y", 4}, {"x", 2}});
  EXPECT_NE(duplicate.find("'x'"), std::string::npos) << duplicate;
  EXPECT_NE(duplicate.find("'X'"), std::string::npos) << duplicate;
  const std::string huge = error_of({{"X", 65536}, {"Y", 65536}, {"Z", 2}});
  EXPECT_NE(huge.find("'Z'"), std::string::npos) << huge;
  EXPECT_EQ(error_of({{"X", 65536}, {"Y", 65536}}), "") << "2^32 nodes still fit 32-bit node ids";
}

}  // namespace
}  // namespace kairo::router
