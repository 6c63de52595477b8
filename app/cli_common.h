// Shared pieces of the kairo command line: exit codes and error reporting.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "platforms/partition.h"
#include "sim/mpi_world.h"

namespace kairo::app {

enum ExitCode { kExitOk = 0, kExitSimFailure = 1, kExitBadInput = 2 };

// Prints "kairo: error: <msg>" on stderr and returns kExitBadInput.
int bad_input(const std::string& msg);
// Under mpirun: every process's platform (its resolved configuration) is
// process 0's, else std::invalid_argument naming the processes that differ.
void check_same_platform(const platforms::Platform& plat);
// The message of the last bad_input() (for a split run's failure, sim::MpiWorld::fail).
std::string& last_error();
// Says on stderr each value kairo adjusted in the platform, one line each
// ("kairo: nic.mtu 1920B adjusted to 224B: <why>"), leaving out keys that
// start with `skip_prefix` (what the command does not build). Said also under
// --quiet (it is a warning, not progress); the caller says it once per
// command: on process 0, never in a sweep point's or a variant's child.
void say_adjustments(const platforms::Platform& p, const std::string& skip_prefix = "");
// The same from a run's resolved configuration (platforms/resolved.h).
void say_adjustments(const nlohmann::json& resolved, const std::string& skip_prefix = "");
// A failure of this process during a partitioned run, while the others may be
// waiting for it in a collective: prints "kairo: error: process R of N: msg"
// on stderr (whichever process it is) and ends every process of the run with
// `code` (MPI_Abort): no hang.
[[noreturn]] void fail_in_parallel(const std::string& msg, int code);
// Runs `check` (which throws std::invalid_argument on bad input) on process 0
// only, and lets every process know the verdict: kExitBadInput everywhere
// (process 0 prints the message) or kExitOk. One process: just the check.
// The partition of a run under `mpirun -np N` (--partition METHOD); bad
// input names mpirun -np or --partition.
platforms::Partition make_run_partition(const platforms::Platform& plat, int processes,
                                        const std::string& method);
int on_process_zero(const sim::MpiWorld& world, const std::function<void()>& check);

// A count or seed: CLI11 would turn "-5" into 2^64 - 5 for an unsigned option.
inline CLI::Validator whole_number() {
  return CLI::Validator(
      [](std::string& v) -> std::string {
        if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos)
          return "expected a whole number >= 0, got '" + v + "'";
        return "";
      },
      "N>=0");
}

void add_traffic_command(CLI::App& app, int& exit_code);
void add_platform_commands(CLI::App& app, int& exit_code);
void add_run_command(CLI::App& app, int& exit_code);
void add_view_command(CLI::App& app, int& exit_code);
void add_plot_command(CLI::App& app, int& exit_code);
void add_check_ops_command(CLI::App& app, int& exit_code);
void add_experiment_command(CLI::App& app, int& exit_code);

// Writes text to a file (its directory must exist); throws sim::OutputError
// (a std::runtime_error) naming the option and the file, and leaves no partial file.
void write_text_file(const std::string& path, const std::string& text, const std::string& option = "");

// A run's summary to `path` (stdout when empty). When the file cannot be
// written the summary goes to stdout after the error, so the result is not
// lost, and the exit code is kExitBadInput; else kExitOk.
int write_summary(const std::string& option, const std::string& path, const std::string& text);

}  // namespace kairo::app
