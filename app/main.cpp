// kairo: the command line (docs/design.md; README.md lists the commands). Exit codes: 0 success, 1 simulation
// failure (deadlock, lost data), 2 bad input.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iostream>

#include "app/cli_common.h"
#include "platforms/platform.h"
#include "platforms/resolved.h"
#include "sim/interrupt.h"
#include "sim/mpi_world.h"
#include "sim/output_file.h"

namespace kairo::app {

void add_algorithms_command(CLI::App& app, int& exit_code);  // app/cmd_algorithms.cpp

std::string& last_error() {
  static std::string* const e = new std::string;  // never destroyed: read at the very end of main
  return *e;
}

int bad_input(const std::string& msg) {
  std::cerr << "kairo: error: " << msg << "\n";
  last_error() = msg;
  return kExitBadInput;
}

void say_adjustments(const nlohmann::json& resolved, const std::string& skip_prefix) {
  for (const std::string& note : platforms::adjustment_notes(resolved, skip_prefix))
    std::cerr << "kairo: " << note << "\n";
}

void say_adjustments(const platforms::Platform& p, const std::string& skip_prefix) {
  // The resolved configuration only when there is something to say (it costs
  // a start-up's worth of instructions).
  const bool any =
      std::any_of(p.adjustments.begin(), p.adjustments.end(), [&](const platforms::Adjustment& a) {
        return skip_prefix.empty() || a.key.rfind(skip_prefix, 0) != 0;
      });
  if (any) say_adjustments(platforms::resolved_json(p), skip_prefix);
}

void fail_in_parallel(const std::string& msg, int code) {
  const sim::MpiWorld& world = sim::MpiWorld::get();
  std::fprintf(stderr, "kairo: error: process %d of %d: %s\n", world.rank(), world.size(), msg.c_str());
  std::fflush(stderr);
  world.abort(code);
}

void check_same_platform(const platforms::Platform& plat) {
  const sim::MpiWorld& world = sim::MpiWorld::get();
  if (!world.parallel()) return;
  const std::string resolved = platforms::resolved_json(plat).dump();
  const std::uint64_t digest = sim::digest_bytes(resolved.data(), resolved.size());
  const std::string differ = world.compare_digests(
      digest,
      fmt::format("reads platform {} (its resolved configuration's digest {:016x})", plat.name, digest));
  if (differ.empty()) return;
  world.mark_agreed();
  throw std::invalid_argument(differ);
}

platforms::Partition make_run_partition(const platforms::Platform& plat, int processes,
                                        const std::string& method) {
  check_same_platform(plat);
  const platforms::PartitionMethod m = platforms::parse_partition_method(method);
  try {
    return platforms::partition_platform(plat, processes, m);
  } catch (const std::invalid_argument& e) {
    // The partitioner names `kairo check`'s --processes; here the count is mpirun's.
    std::string msg = e.what();
    const std::string check = "--processes: ";
    if (msg.rfind(check, 0) == 0) msg = msg.substr(check.size());
    throw std::invalid_argument(fmt::format("mpirun -np {}: {}", processes, msg));
  }
}

int on_process_zero(const sim::MpiWorld& world, const std::function<void()>& check) {
  if (!world.parallel()) {
    check();
    return kExitOk;
  }
  std::string error;
  if (world.root()) {
    try {
      check();
    } catch (const std::invalid_argument& e) {
      error = e.what();
    }
  }
  if (!world.any(!error.empty())) return kExitOk;
  world.mark_agreed();
  return world.root() ? bad_input(error) : kExitBadInput;
}

void write_text_file(const std::string& path, const std::string& text, const std::string& option) {
  sim::write_output_file(option, path, text);
}

int write_summary(const std::string& option, const std::string& path, const std::string& text) {
  if (path.empty()) {
    std::cout << text;
    return kExitOk;
  }
  try {
    sim::write_output_file(option, path, text);
    return kExitOk;
  } catch (const sim::OutputError& e) {
    // The run's result is not lost: it goes to stdout instead.
    std::cerr << "kairo: error: " << e.what() << "; the summary follows on stdout\n";
    std::cout << text;
    return kExitBadInput;
  }
}

}  // namespace kairo::app

namespace {

// Under mpirun every process parses the same command line and finds the same
// bad input; process 0 alone speaks (stdout and stderr), the others stay
// quiet unless they fail on their own (kairo::app::fail_in_parallel).
int run_main(int argc, char** argv);

class NullBuffer : public std::streambuf {
 protected:
  int overflow(int c) override { return c == EOF ? 0 : c; }
};

}  // namespace

int main(int argc, char** argv) {
  const kairo::sim::MpiWorld& world = kairo::sim::MpiWorld::get();
  if (!world.root()) {
    // Never destroyed: std::cout and std::cerr are flushed at exit, after
    // every static object made here is gone (a static NullBuffer left them
    // pointing at a destroyed buffer, which the sanitizers caught).
    static NullBuffer* const null = new NullBuffer;
    std::cout.rdbuf(null);
    std::cerr.rdbuf(null);
  }
  if (world.parallel()) {
    // Every process runs the same build and command, or none runs.
    std::string command = "runs `kairo";
    for (int i = 1; i < argc; ++i) command += std::string(" ") + argv[i];
    command += "`";
    const std::uint64_t digest =
        kairo::sim::digest_bytes(command.data(), command.size(), kairo::sim::build_digest());
    if (const std::string differ = world.compare_digests(digest, command); !differ.empty()) {
      if (world.root()) std::fprintf(stderr, "kairo: error: %s\n", differ.c_str());
      kairo::sim::MpiWorld::finalize();
      return kairo::app::kExitBadInput;
    }
  }
  const int code = run_main(argc, argv);
  std::cout.flush();
  if (world.parallel() && code == kairo::app::kExitBadInput && !world.agreed()) {
    // Refused here alone, or without the others knowing: they wait in a
    // collective, so every process ends now, the message said once.
    const std::string& e = kairo::app::last_error();
    world.fail(code, e.empty() ? "refused its input (exit 2)" : e, world.root() && !e.empty());
  }
  kairo::sim::MpiWorld::finalize();
  return code;
}

namespace {

int run_main(int argc, char** argv) {
  using namespace kairo::app;
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  CLI::App app{"kairo: a cycle-approximate SystemC/TLM-2.0 model of HPC interconnects"};
  app.require_subcommand(0, 1);
  bool list_params = false, markdown = false;
  app.add_flag("--list-params", list_params,
               "print every platform parameter with its unit, default and meaning");
  app.add_flag("--markdown", markdown, "with --list-params: as the Markdown table of docs/parameters.md")
      ->needs("--list-params");
  int exit_code = kExitOk;
  // Each subcommand's options, in the order `kairo --help` lists them. When
  // the first argument names a subcommand only that one is built (declaring
  // every command's options is a tenth of an empty run's start-up); otherwise
  // (help, a top-level option, an unknown name) all are, as CLI11 then needs.
  using Adder = void (*)(CLI::App&, int&);
  struct Command {
    std::initializer_list<const char*> names;
    Adder add;
  };
  static const Command commands[] = {
      {{"traffic"}, add_traffic_command},
      {{"platforms", "check"}, add_platform_commands},
      {{"run"}, add_run_command},
      {{"view"}, add_view_command},
      {{"plot"}, add_plot_command},
      {{"check-ops"}, add_check_ops_command},
      {{"experiment"}, add_experiment_command},
      {{"algorithms"}, add_algorithms_command},
  };
  const Command* named = nullptr;
  for (const Command& c : commands)
    for (const char* n : c.names)
      if (argc > 1 && std::strcmp(argv[1], n) == 0) named = &c;
  if (named) {
    named->add(app, exit_code);
  } else {
    for (const Command& c : commands) c.add(app, exit_code);
  }
  kairo::sim::install_interrupt_handlers();
  try {
    app.parse(argc, argv);
  } catch (const kairo::sim::Interrupted& i) {
    // The part files went with the unwinding; outputs already whole stay.
    std::cerr << "kairo: " << kairo::sim::interruption_summary(i.signal) << "\n";
    return 128 + i.signal;
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return bad_input(e.what());
  } catch (const std::bad_alloc&) {
    // The last line of defence: workloads and platforms estimate their memory
    // before they allocate (docs/reliability.md), so this is a limit missed.
    return bad_input("the host ran out of memory; give a smaller platform, size or --batch");
  } catch (const std::exception& e) {
    return bad_input(e.what());
  }
  if (list_params) {
    std::cout << (markdown ? kairo::platforms::param_table_markdown() : kairo::platforms::param_table_text());
    return kExitOk;
  }
  if (app.get_subcommands().empty()) {
    std::cout << app.help();
    return kExitOk;
  }
  return exit_code;
}

}  // namespace

// libsystemc refers to sc_main (its own main() would call it). kairo keeps its
// own main() so that the command line is parsed before any SystemC object
// exists; this definition only satisfies the library's reference.
extern "C" int sc_main(int, char**) { return 0; }
