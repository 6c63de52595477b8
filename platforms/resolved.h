// A platform's resolved configuration: every parameter of `kairo
// --list-params` that applies to the platform, in that order, with the value
// the model uses (after defaults, the file and --set) and where it came from.
// Every JSON kairo writes holds it ("resolved"); `kairo check PLATFORM
// --resolved` prints it (docs/parameters.md, "Resolved configuration").
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "platforms/platform.h"

namespace kairo::platforms {

// An object keyed by parameter name ("router.vcs"; per-dimension keys with
// the dimension's name, "topology.dims.X.size"), each
//   {"value": V, "source": "default" | "file" | "set" | "adjusted"}
// and, for "adjusted", also "requested" (the value before kairo changed it)
// and "reason". V is typed in the unit --list-params gives the key: counts,
// flits, cycles and bytes as integers, GB/s, ns, MHz and plain numbers as numbers, names as
// strings, bools, lists and maps as JSON; null where the table's default is a
// rule rather than a value (nic.memory_bandwidth: unlimited).
nlohmann::json resolved_json(const Platform& p);
// The same entries in --list-params order (a JSON object keeps none).
std::vector<std::pair<std::string, nlohmann::json>> resolved_entries(const Platform& p);

// The unit column of `key` in --list-params ("B", "GB/s", "ns", "count", ...),
// per-dimension keys included; "" for an unknown key.
std::string resolved_unit(const std::string& key);

// A value of the resolved configuration as a person reads it, with its unit:
// "islip", "4", "32B", "5GB/s", "10ns", "312.5MHz", "[X, Y]"; a null value is
// the table's default rule ("unlimited").
std::string resolved_text(const std::string& key, const nlohmann::json& value);

// One line per adjusted parameter, "nic.mtu 1920B adjusted to 224B: <reason>",
// from a resolved configuration; `skip_prefix` leaves out keys starting with it.
std::vector<std::string> adjustment_notes(const nlohmann::json& resolved,
                                          const std::string& skip_prefix = "");

}  // namespace kairo::platforms
