// The parameter declarations (sim/params.h) and what is generated from them:
// every declared parameter is complete, docs/parameters.md's table is the
// one the declarations give, names come from their owners, and the one
// RouterConfig translation keeps the mesh/torus and switched-fabric rules.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "hw/common/topology.h"
#include "hw/router/allocator.h"
#include "hw/router/router_config.h"
#include "hw/router/router_params.h"
#include "platforms/platform.h"
#include "platforms/resolved.h"
#include "sim/units.h"
#include "tests/test_support.h"

namespace kairo::platforms {
namespace {

TEST(Params, EveryParameterHasAUnitADefaultAndADocLine) {
  std::set<std::string> keys;
  for (const ParamInfo& p : param_table()) {
    SCOPED_TRACE(p.key);
    EXPECT_TRUE(keys.insert(p.key).second) << "declared twice";
    EXPECT_FALSE(p.unit.empty()) << "no unit";
    EXPECT_FALSE(p.deflt.empty()) << "no default";
    EXPECT_FALSE(p.doc.empty()) << "no doc line";
    EXPECT_EQ(p.doc.find('\n'), std::string::npos) << "the doc is one line";
    if (p.kind == sim::ParamKind::kShape) continue;
    EXPECT_TRUE(p.generic()) << "a declared value has a member to fill";
    if (p.kind == sim::ParamKind::kName) EXPECT_GE(p.choices.size(), 2u) << "a name lists its values";
    EXPECT_LE(p.min, p.max);
    EXPECT_LE(p.min_bytes, p.max_bytes);
  }
}

TEST(Params, DocsTableIsTheGeneratedOne) {
  const std::string doc = test::read_file(std::string(KAIRO_SOURCE_DIR) + "/docs/parameters.md");
  const std::string begin = "<!-- BEGIN parameters", end = "<!-- END parameters";
  const auto b = doc.find(begin), e = doc.find(end);
  ASSERT_NE(b, std::string::npos) << "docs/parameters.md lacks the BEGIN parameters marker";
  ASSERT_NE(e, std::string::npos) << "docs/parameters.md lacks the END parameters marker";
  const auto first = doc.find('\n', b) + 1;
  EXPECT_EQ(doc.substr(first, e - first), param_table_markdown())
      << "docs/parameters.md's table is out of date: run tools/gen_params.sh";
}

TEST(Params, AllocatorNamesComeFromTheAllocatorFactory) {
  for (const ParamInfo& p : param_table())
    if (p.key == "router.allocator") EXPECT_EQ(p.choices, router::allocator_choices());
  for (const std::string& n : router::allocator_choices())
    EXPECT_NE(router::make_allocator(n, 2, 2, 2), nullptr) << n;
}

TEST(Params, SetKeysAreTheDeclaredOnes) {
  // Every declared router/nic key is accepted by --set with the default the
  // table shows, which is within its bounds and reads back as the struct's.
  const std::string mini = "name: t\ntopology:\n  dims:\n    - {name: X, size: 4}\n";
  for (const ParamInfo& p : param_table()) {
    const std::string s = p.section();
    if (!p.generic() || (s != "router" && s != "nic") || p.deflt[0] == '=' || p.deflt == "unlimited")
      continue;
    SCOPED_TRACE(p.key);
    Platform q = parse_platform(mini, "mini.yaml", {p.key + "=" + p.deflt});
    const RouterParams r;
    if (p.key == "router.flit_size") EXPECT_EQ(q.router.flit_bytes, r.flit_bytes);
    if (p.key == "router.clock") EXPECT_EQ(q.router.clock_hz, r.clock_hz);
    if (p.key == "router.link_bandwidth") EXPECT_EQ(q.router.link_bytes_per_s, r.link_bytes_per_s);
    if (p.key == "nic.memory_size") EXPECT_EQ(q.nic.memory_bytes, NicParams{}.memory_bytes);
    if (p.key == "nic.node_latency") EXPECT_EQ(q.nic.node_latency_ps, NicParams{}.node_latency_ps);
  }
}

bool same(const sim::ParamValue& a, const sim::ParamValue& b) {
  return a.count == b.count && a.bytes == b.bytes && a.number == b.number && a.time == b.time &&
         a.choice == b.choice && a.flag == b.flag;
}

TEST(Params, PlatformKeysSetToTheirTableDefaultReadBackAsTheStructDefaults) {
  // The links and ranks keys are declared like the blocks': the default the
  // table shows is the struct's own initializer, so setting it with --set
  // (through the generic setter) reads back the same value.
  const LinkClass link;
  const WanFlow wan;
  const Platform platform;
  int checked = 0;
  for (const ParamInfo* p : declared_keys()) {
    const std::string s = p->section();
    if (!p->generic() || (s != "links" && s != "ranks") || p->deflt[0] == '(' || p->deflt[0] == '=') continue;
    const std::string cls = s == "links" ? p->key.substr(6, p->key.find('.', 6) - 6) : "";
    if (cls == "local" || cls == "global") continue;  // not on a clusters platform
    SCOPED_TRACE(p->key);
    const Platform q = load_platform("grid-2x32", {p->key + "=" + p->deflt});
    const bool flow = *p->owner == typeid(WanFlow);
    const void* got = s == "ranks"    ? static_cast<const void*>(&q)
                      : flow          ? static_cast<const void*>(&q.fabric.wan_flow)
                      : cls == "host" ? &q.fabric.host
                      : cls == "up"   ? &q.fabric.up
                                      : &q.fabric.wan;
    const void* deflt = s == "ranks" ? static_cast<const void*>(&platform)
                        : flow       ? static_cast<const void*>(&wan)
                                     : &link;
    EXPECT_TRUE(same(p->get(got), p->get(deflt)));
    EXPECT_EQ(q.sources.at(p->key), ParamSource::kSet);
    ++checked;
  }
  EXPECT_GE(checked, 8) << "links.<host|up|wan>.latency, links.wan.<flow_control|queue|rto|initial_window>, "
                           "ranks.seed";
}

TEST(Params, TheWideAreaDefaultsAreTheDeclaredOnes) {
  // One place holds them (platforms/link_params.h); the table shows them.
  const WanFlow w;
  std::map<std::string, std::string> deflt;
  for (const ParamInfo& p : param_table()) deflt[p.key] = p.deflt;
  EXPECT_EQ(deflt["links.wan.rto"], units::format_duration(w.rto_ps));
  EXPECT_EQ(deflt["links.wan.queue"], units::format_bytes(w.queue_bytes));
  EXPECT_EQ(deflt["links.wan.initial_window"], std::to_string(w.initial_window));
  EXPECT_EQ(deflt["links.wan.flow_control"], w.loss ? "loss" : "credit");
}

// Every key `kairo check --resolved` shows on `p`, per-dimension keys as
// topology.dims.<DIM>.<field>, and each field of a map or list value as
// <key>.<field> (topology.fat_tree.levels).
std::set<std::string> shown_keys(const Platform& p) {
  std::set<std::string> shown;
  for (const auto& [key, e] : resolved_entries(p)) {
    std::string k = key;
    for (const auto& d : p.dims)
      if (k.rfind("topology.dims." + d.name + ".", 0) == 0)
        k = "topology.dims.<DIM>." + k.substr(15 + d.name.size());
    shown.insert(k);
    const nlohmann::json& v = e.at("value");
    for (const nlohmann::json& m : v.is_array() ? v : nlohmann::json::array({v}))
      if (m.is_object())
        for (const auto& [field, x] : m.items()) shown.insert(k + "." + field);
  }
  return shown;
}

TEST(Params, EveryDeclaredKeyIsShownInTheResolvedConfigurationOfAPlatformItAppliesTo) {
  // The shipped platforms and a k-ary n-tree (no shipped platform is one)
  // between them take every key; a key no platform shows is one the
  // resolved view cannot read back.
  std::vector<Platform> platforms;
  for (const ShippedPlatform& s : shipped_platforms()) platforms.push_back(load_platform(s.name));
  platforms.push_back(
      parse_platform("name: kary\ntopology:\n  fat_tree: {levels: 2, radix: 8}\nlinks:\n  host: {bandwidth: "
                     "1GB/s, latency: 1ns}\n"
                     "  up: {bandwidth: 1GB/s, latency: 1ns}\n",
                     "kary.yaml"));
  std::map<std::string, std::set<std::string>> shown;  // platform -> keys
  for (const Platform& p : platforms) shown[p.name] = shown_keys(p);
  for (const ParamInfo* d : declared_keys()) {
    bool somewhere = false;
    for (const auto& [name, keys] : shown) somewhere = somewhere || keys.count(d->key);
    EXPECT_TRUE(somewhere) << d->key << " is declared but no platform's resolved configuration shows it";
  }
  // And only where the file could give it.
  const auto& tree = shown.at("eps-tree-128");
  for (const char* absent :
       {"router.cable_latency", "router.dateline", "router.routing", "links.wan.rto", "links.local.bandwidth",
        "topology.fat_tree.levels", "topology.dims", "ocs.banks"})
    EXPECT_EQ(tree.count(absent), 0u) << absent << " shown on a two-level fat tree without an OCS";
  for (const char* present : {"topology.fat_tree.spines", "links.up.multiplier", "router.switching_delay"})
    EXPECT_EQ(tree.count(present), 1u) << present << " not shown on a two-level fat tree";
  EXPECT_EQ(shown.at("kary").count("topology.fat_tree.spines"), 0u);
  EXPECT_EQ(shown.at("dragonfly-342").count("router.routing"), 1u);
  EXPECT_EQ(shown.at("dragonfly-342").count("router.dateline"), 0u);
}

TEST(Params, ALinkClassBandwidthIsMultipliedByItsMultiplier) {
  // eps-tree-128: up links of 64Gbps (8e9 B/s); U = 0.25 gives a quarter.
  const Platform q = load_platform("eps-tree-128", {"links.up.multiplier=0.25"});
  EXPECT_DOUBLE_EQ(q.fabric.up.bytes_per_s, 64e9 / 8 * 0.25);
  EXPECT_DOUBLE_EQ(q.fabric.up.multiplier, 0.25);
  EXPECT_DOUBLE_EQ(q.fabric.host.bytes_per_s, 10e9 / 8);
  for (const char* bad : {"0", "-1", "abc"})
    EXPECT_THROW(load_platform("eps-tree-128", {std::string("links.up.multiplier=") + bad}), ConfigError)
        << bad;
}

TEST(Params, RoutingNamesAndBuildersComeFromTheRoutingTable) {
  std::vector<std::string> names;
  for (const router::RoutingKind& k : router::routing_kinds()) names.push_back(k.name);
  for (const ParamInfo& p : param_table())
    if (p.key == "router.routing") EXPECT_EQ(p.choices, names);
  const hw::Topology torus({{"X", 4, true}, {"Y", 3, false}});
  for (const router::RoutingKind& k : router::routing_kinds()) {
    SCOPED_TRACE(k.name);
    EXPECT_TRUE(k.torus || k.dragonfly) << "routes no network";
    if (k.torus)
      EXPECT_NE(router::make_routing(k.algorithm, torus, {0, 1}, router::TieBreak::kBalanced), nullptr);
    else
      EXPECT_THROW(router::make_routing(k.algorithm, torus, {0, 1}, router::TieBreak::kBalanced),
                   std::invalid_argument);
    // Each is accepted where it routes and refused, naming router.routing, where it does not.
    const std::string set = std::string("router.routing=") + k.name;
    for (const char* platform : {"torus-8x8", "dragonfly-342"}) {
      const bool routes = std::string(platform) == "torus-8x8" ? bool(k.torus) : bool(k.dragonfly);
      if (routes) {
        EXPECT_EQ(load_platform(platform, {set}).router.routing, k.algorithm) << platform;
      } else {
        try {
          load_platform(platform, {set});
          ADD_FAILURE() << platform << " accepted it";
        } catch (const ConfigError& e) {
          EXPECT_NE(std::string(e.what()).find("router.routing: expected"), std::string::npos) << e.what();
        }
      }
    }
  }
}

// router.switching_delay: on a switched fabric it is the whole time in the
// switch (traversal 0); on a mesh/torus the crossbar traversal still counts.
TEST(Params, SwitchingDelayRuleDiffersBetweenTorusAndSwitchedFabric) {
  RouterParams p;
  p.switching_delay_ps = 100000;
  router::RouterConfig torus, fabric;
  torus.clock = fabric.clock = sim::Clock(p.clock_period_ps());
  router::apply_router_params(p, router::RouterSite::kTorus, torus);
  router::apply_router_params(p, router::RouterSite::kSwitchedFabric, fabric);
  EXPECT_EQ(torus.pipeline_ps, fabric.pipeline_ps);
  EXPECT_EQ(torus.pipeline_ps, torus.clock.ceil(100000));
  EXPECT_EQ(torus.traversal_ps, torus.clock.cycles(1));
  EXPECT_EQ(fabric.traversal_ps, 0u);
  p.switching_delay_ps = 0;  // without it, both count the cycles
  router::apply_router_params(p, router::RouterSite::kSwitchedFabric, fabric);
  EXPECT_EQ(fabric.traversal_ps, fabric.clock.cycles(1));
  EXPECT_EQ(fabric.pipeline_ps, fabric.clock.cycles(3));
  EXPECT_EQ(fabric.vcs, p.vcs);
  EXPECT_EQ(fabric.allocator, p.allocator);
  EXPECT_EQ(fabric.islip_iterations, 2);
  p.islip_iterations = 5;
  router::apply_router_params(p, router::RouterSite::kTorus, torus);
  EXPECT_EQ(torus.islip_iterations, 5);
}

}  // namespace
}  // namespace kairo::platforms
