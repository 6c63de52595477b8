// libFuzzer target: the input is an experiment file's text (`kairo
// experiment FILE.yaml`, docs/experiments.md), read and checked as the command
// does before anything runs: every configuration's platform loaded and its
// traffic options validated (app/experiment_file.cpp). Bad input must end in
// std::invalid_argument (exit 2 at the command line); anything else escapes
// and is a finding. Nothing is run. Built by -DKAIRO_FUZZ=ON (clang); run by tools/fuzz.sh.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>

#include "app/experiment.h"

// libsystemc refers to sc_main; libFuzzer has its own main().
extern "C" int sc_main(int, char**) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/kairo-fuzz-experiment-" + std::to_string(::getpid()) + ".yaml";
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(data), std::streamsize(size));
  }
  try {
    (void)kairo::app::experiment::read_spec(path);
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
