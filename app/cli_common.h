// Shared pieces of the kairo command line: exit codes and error reporting.
#pragma once
#include <string>

#include <CLI/CLI.hpp>

namespace kairo::app {

enum ExitCode { kExitOk = 0, kExitSimFailure = 1, kExitBadInput = 2 };

// Prints "kairo: error: <msg>" on stderr and returns kExitBadInput.
int bad_input(const std::string& msg);

void add_traffic_command(CLI::App& app, int& exit_code);
void add_platform_commands(CLI::App& app, int& exit_code);
void add_run_command(CLI::App& app, int& exit_code);
void add_view_command(CLI::App& app, int& exit_code);

// Writes text to a file, creating parent directories; throws std::runtime_error naming the file.
void write_text_file(const std::string& path, const std::string& text);

}  // namespace kairo::app
