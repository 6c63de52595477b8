// kairo: the command line (DESIGN.md §8). Exit codes: 0 success, 1 simulation
// failure (deadlock, lost data), 2 bad input.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "app/cli_common.h"
#include "platforms/platform.h"

namespace kairo::app {

int bad_input(const std::string& msg) {
  std::cerr << "kairo: error: " << msg << "\n";
  return kExitBadInput;
}

void write_text_file(const std::string& path, const std::string& text) {
  std::filesystem::path p(path);
  std::error_code ec;
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec);
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write '" + path + "'");
  f << text;
  if (!f) throw std::runtime_error("cannot write '" + path + "'");
}

}  // namespace kairo::app

int main(int argc, char** argv) {
  using namespace kairo::app;
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  CLI::App app{"kairo: a cycle-approximate SystemC/TLM-2.0 model of HPC interconnects"};
  app.require_subcommand(0, 1);
  bool list_params = false;
  app.add_flag("--list-params", list_params, "print every platform parameter with its unit, default and meaning");
  int exit_code = kExitOk;
  add_traffic_command(app, exit_code);
  add_platform_commands(app, exit_code);
  add_run_command(app, exit_code);
  add_view_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return bad_input(e.what());
  }
  if (list_params) {
    for (const auto& p : kairo::platforms::param_table())
      std::cout << fmt::format("{:<32} {:<8} {:<14} {}\n", p.key, p.unit, p.deflt, p.meaning);
    return kExitOk;
  }
  if (app.get_subcommands().empty()) {
    std::cout << app.help();
    return kExitOk;
  }
  return exit_code;
}

// libsystemc refers to sc_main (its own main() would call it). kairo keeps its
// own main() so that the command line is parsed before any SystemC object
// exists; this definition only satisfies the library's reference.
extern "C" int sc_main(int, char**) { return 0; }
