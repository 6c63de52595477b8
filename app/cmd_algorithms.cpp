// `kairo algorithms [COLLECTIVE] [--json | --markdown]`: every collective
// algorithm as its descriptor states it (sw/collectives/algorithms.h): its
// doc line, the rank counts its rule allows, its knobs with their defaults,
// whether it needs one rank on every node of a mesh/torus and whether the
// trace replay may choose it. --markdown prints the table of
// docs/collectives.md (tools/gen_params.sh writes it there).
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/cli_common.h"
#include "sw/collectives/algorithms.h"

namespace kairo::app {
namespace {

using coll::Algorithm;
using coll::Collective;

std::string collective_names() {
  std::string s;
  for (int c = 0; c < coll::kCollectives; ++c)
    s += (c ? ", " : "") + std::string(coll::collective_name(Collective(c)));
  return s;
}

// The collectives to list: all, or the one named (std::invalid_argument otherwise).
std::vector<Collective> chosen(const std::string& name) {
  std::vector<Collective> out;
  for (int c = 0; c < coll::kCollectives; ++c)
    if (name.empty() || name == coll::collective_name(Collective(c))) out.push_back(Collective(c));
  if (out.empty())
    throw std::invalid_argument(fmt::format(
        "algorithms COLLECTIVE '{}': not a collective; expected one of: {}", name, collective_names()));
  return out;
}

bool is_default(const Algorithm& a) { return coll::algorithm_names(a.collective).front() == a.name; }

std::string knob_text(const Algorithm& a, const char* none) {
  std::string s;
  for (const coll::Knob& k : a.knobs) s += fmt::format("{}{} ({})", s.empty() ? "" : "; ", k.name, k.doc);
  return s.empty() ? none : s;
}

std::string text(const std::vector<Collective>& cs) {
  std::string out;
  for (Collective c : cs) {
    out += fmt::format("{} (--workload {} --param algo=NAME)\n", coll::collective_name(c),
                       coll::collective_name(c));
    for (const Algorithm& a : coll::algorithms()) {
      if (a.collective != c) continue;
      out += fmt::format("  {:<20} {}{}\n", a.name, a.doc, is_default(a) ? " (the default)" : "");
      out += fmt::format("  {:<20} ranks: {} | knobs: {} | mesh/torus: {} | trace replay: {}\n", "",
                         coll::rank_rule(a), knob_text(a, "none"),
                         a.needs_torus ? "one rank on every node" : "not needed",
                         a.traced ? "may choose it" : "no");
    }
  }
  return out;
}

nlohmann::json json(const std::vector<Collective>& cs) {
  nlohmann::json list = nlohmann::json::array();
  for (Collective c : cs) {
    nlohmann::json algos = nlohmann::json::array();
    for (const Algorithm& a : coll::algorithms()) {
      if (a.collective != c) continue;
      nlohmann::json knobs = nlohmann::json::array();
      for (const coll::Knob& k : a.knobs) knobs.push_back({{"name", k.name}, {"doc", k.doc}, {"min", k.lo}});
      algos.push_back({{"name", a.name},
                       {"doc", a.doc},
                       {"default", is_default(a)},
                       {"ranks", coll::rank_rule(a)},
                       {"knobs", std::move(knobs)},
                       {"needs_torus", a.needs_torus},
                       {"traced", a.traced}});
    }
    list.push_back({{"collective", coll::collective_name(c)}, {"algorithms", std::move(algos)}});
  }
  return {{"collectives", std::move(list)}};
}

std::string cell(std::string s) {
  for (std::size_t at = s.find('|'); at != std::string::npos; at = s.find('|', at + 2))
    s.replace(at, 1, "\\|");
  return s;
}

// docs/collectives.md's table: one row per algorithm.
std::string markdown(const std::vector<Collective>& cs) {
  std::string out =
      "| collective | algorithm | what it does | ranks | knobs (`--param`) | mesh/torus | trace replay |\n"
      "| --- | --- | --- | --- | --- | --- | --- |\n";
  for (Collective c : cs)
    for (const Algorithm& a : coll::algorithms())
      if (a.collective == c)
        out += fmt::format("| {} | `{}`{} | {} | {} | {} | {} | {} |\n", coll::collective_name(c), a.name,
                           is_default(a) ? " (default)" : "", cell(a.doc), cell(coll::rank_rule(a)),
                           cell(knob_text(a, "-")), a.needs_torus ? "needed" : "-", a.traced ? "yes" : "-");
  return out;
}

}  // namespace

void add_algorithms_command(CLI::App& app, int& exit_code) {
  auto name = std::make_shared<std::string>();
  auto as_json = std::make_shared<bool>(false);
  auto as_markdown = std::make_shared<bool>(false);
  CLI::App* c = app.add_subcommand(
      "algorithms",
      "list the collective algorithms: doc line, rank counts, knobs, mesh/torus need, trace replay");
  c->add_option("COLLECTIVE", *name, "one collective (" + collective_names() + "); default all");
  c->add_flag("--json", *as_json, "as JSON");
  c->add_flag("--markdown", *as_markdown, "as the Markdown table of docs/collectives.md")->excludes("--json");
  c->callback([name, as_json, as_markdown, &exit_code] {
    std::vector<Collective> cs;
    try {
      cs = chosen(*name);
    } catch (const std::invalid_argument& e) {
      exit_code = bad_input(e.what());
      return;
    }
    std::cout << (*as_json ? json(cs).dump(2) + "\n" : *as_markdown ? markdown(cs) : text(cs));
  });
}

}  // namespace kairo::app
