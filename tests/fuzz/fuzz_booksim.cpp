// libFuzzer target: the input is a BookSim 2 configuration file's text, read
// and mapped to kairo's settings as `kairo traffic --booksim FILE.cfg` does
// (traffic/booksim_config.h). Bad input must end in std::invalid_argument
// (exit 2 at the command line); anything else escapes and is a finding.
// Built by -DKAIRO_FUZZ=ON (clang); run by tools/fuzz.sh.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "traffic/booksim_config.h"

// libsystemc refers to sc_main; libFuzzer has its own main().
extern "C" int sc_main(int, char**) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto entries = kairo::traffic::parse_booksim_text(text, "fuzz.cfg");
    const auto run = kairo::traffic::map_booksim(entries, "fuzz.cfg");
    (void)run.json();
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
