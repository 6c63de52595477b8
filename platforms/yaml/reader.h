// The platform YAML reader, shared by its per-section files in this folder:
// the Reader applies `--set` overrides to the YAML tree (set_overrides.cpp),
// then walks it once, converting and validating every value (topology.cpp,
// router.cpp, links.cpp, ranks.cpp, ocs.cpp, nic.cpp). Declared parameters
// (sim/params.h) are read generically by read_declared; only the special
// shapes are read by hand. Every failure is a ConfigError located by file
// and line (or by the --set that supplied the value), then the key path and
// what was expected.
#pragma once
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <climits>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <typeinfo>
#include <vector>

#include "platforms/platform.h"
#include "sim/params.h"
#include "sim/units.h"

namespace kairo::platforms::yaml {

std::string join(const std::vector<std::string>& v, const char* sep = ", ");
std::string lower(std::string s);
// Index of `name` in `names` (case-insensitive, like Topology::dim_index), or -1.
int find_name(const std::vector<std::string>& names, const std::string& name);
// A node as a message shows it: its text, "a list", "a mapping", "nothing".
std::string describe(const YAML::Node& n);
std::optional<YAML::Node> child(const YAML::Node& map, const std::string& key);
// The leaves of the declared keys right under `parent` ("router" gives vcs,
// ...; "links.wan" bandwidth, ..., rto, ...; "topology.dims.<DIM>" name,
// size, wrap), in table order.
const std::vector<std::string>& section_keys(const std::string& parent);
// The declaration of `key` (a key of declared_keys()).
const sim::ParamDecl& declared(const std::string& key);
// The declarations of `parent`.<leaf> for each of `leaves`, in that order.
std::vector<const sim::ParamDecl*> declared_under(const std::string& parent,
                                                  std::initializer_list<const char*> leaves);
std::vector<const sim::ParamDecl*> declared_under(const std::string& parent);
// The declared values (not shapes) right under `parent` that fill struct
// `type`, in table order; with `keep`, those it keeps.
std::vector<const sim::ParamDecl*> declared_fields(
    const std::string& parent, const std::type_info& type,
    const std::function<bool(const sim::ParamDecl&)>& keep = {});
// Whether `d` applies to `form` (sim::ParamDecl::only).
bool of_form(const sim::ParamDecl& d, const std::string& form);

class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  void apply_set(YAML::Node& root, const std::string& set);  // set_overrides.cpp
  Platform read(const YAML::Node& root);

 private:
  // "file:line" or "file: --set k=v" for the value at `path`.
  std::string locate(const std::string& path) const;
  [[noreturn]] void fail_at(const std::string& loc, const std::string& key, const std::string& msg) const;
  [[noreturn]] void fail(const std::string& path, const std::string& msg) const { fail_at(path, path, msg); }

  const YAML::Node& note(const std::string& path, const YAML::Node& n) {
    // An empty value's mark points past it; keep the key's line instead.
    if (n.IsDefined() && !(n.IsNull() && marks_.count(path))) marks_[path] = n.Mark();
    return n;
  }
  void check_keys(const YAML::Node& map, const std::string& path, const std::vector<std::string>& allowed);
  long long read_int(const YAML::Node& n, const std::string& path, long long min, const std::string& what,
                     long long max = INT_MAX);
  bool read_bool(const YAML::Node& n, const std::string& path, const std::string& what);
  std::string read_text(const YAML::Node& n, const std::string& path, const std::string& what);
  template <typename F>
  auto read_unit(const YAML::Node& n, const std::string& path, const std::string& expect, F parse)
      -> decltype(parse(std::string_view{})) {
    note(path, n);
    if (!n.IsScalar()) fail(path, fmt::format("expected {}, got {}", expect, describe(n)));
    try {
      return parse(n.Scalar());
    } catch (const units::UnitError& e) {
      fail(path, e.what());
    }
  }
  double read_rate(const YAML::Node& n, const std::string& path, const std::string& what);
  // Every declared key of `decls` present in `section`, into `target` (the
  // struct the declarations name); kShape keys are left to the caller.
  template <typename S>
  void read_declared(const YAML::Node& section, const std::vector<sim::ParamDecl>& decls, S& target) {
    read_declared(section, decls, &target, typeid(S));
  }
  void read_declared(const YAML::Node& section, const std::vector<sim::ParamDecl>& decls, void* target,
                     const std::type_info& type);
  // The value at `path` (default: the declaration's key), checked against
  // the declaration's kind and bounds.
  sim::ParamValue read_value(const YAML::Node& n, const sim::ParamDecl& d, const std::string& path = {});
  // Each of `decls` given in `map`, read at `at`.<leaf> into `target`. The
  // keys `need` names must be there (kDeclared: those whose default is
  // "(required)"; all of them are integers); an absence is reported at `loc`.
  enum class Need { kDeclared, kAll, kNone };
  template <typename S>
  void read_fields(const YAML::Node& map, const std::string& loc, const std::string& at,
                   const std::vector<const sim::ParamDecl*>& decls, S& target, Need need = Need::kDeclared) {
    read_fields(map, loc, at, decls, &target, typeid(S), need);
  }
  void read_fields(const YAML::Node& map, const std::string& loc, const std::string& at,
                   const std::vector<const sim::ParamDecl*>& decls, void* target, const std::type_info& type,
                   Need need);
  // Fails with `p`'s message, placed as sim::ParamProblem says; nothing without one.
  void report(const std::optional<sim::ParamProblem>& p) const;

  void read_topology(const YAML::Node& root, Platform& pl);
  void read_switched(const YAML::Node& n, const std::string& path, Platform& pl);
  void read_dragonfly(const YAML::Node& n, Platform& pl);
  hw::DimSpec read_dim(const YAML::Node& e, std::size_t i, const std::vector<hw::DimSpec>& before);
  void read_links(const YAML::Node& root, Platform& pl);
  void read_link_class(const YAML::Node& links, const std::string& name, LinkClass& c, bool required,
                       Platform& pl);
  void read_link_ports(const YAML::Node& ports, Platform& pl);
  void read_ranks(const YAML::Node& root, Platform& pl);
  void read_router(const YAML::Node& r, const Platform& pl, RouterParams& p);
  void read_cables(const std::optional<YAML::Node>& n, const std::vector<std::string>& names,
                   RouterParams& p);
  void read_order(const YAML::Node& n, const std::vector<std::string>& names, RouterParams& p);
  void read_nic(const YAML::Node& n, NicParams& p);
  void read_energy(const YAML::Node& n, hw::EnergyParams& p);
  void fit_default_mtu(Platform& pl);
  void record_sources(Platform& pl) const;
  void read_ocs(const YAML::Node& n, Platform& pl);
  std::vector<std::uint32_t> read_node_list(const YAML::Node& n, const std::string& path,
                                            std::uint64_t nodes);

  std::string source_;
  std::map<std::string, std::string> set_origin_;  // key path -> "key=value" of the --set that wrote it
  std::map<std::string, YAML::Mark> marks_;        // key path -> where its value was read
};

}  // namespace kairo::platforms::yaml
