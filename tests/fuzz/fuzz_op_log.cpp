// libFuzzer target: the inputs `kairo check-ops` reads, an operation log
// (CSV or JSON Lines, docs/rdma.md) and a rules file (YAML). The first byte
// picks what the rest is: 0 a CSV log, 1 a JSON Lines log, 2 a rules file. A
// log that reads is then checked (the checker must cope with any log the
// reader accepts: operations without their doorbell, records out of any
// sensible order, ranges that wrap).
//
// Bad input must end in the documented error, exactly std::invalid_argument
// naming the file; anything else -- a crash, a sanitizer report, another
// exception type -- escapes and libFuzzer reports it as a finding.
// Built by -DKAIRO_FUZZ=ON (clang); run by tools/fuzz.sh.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <typeinfo>

#include "observe/op_check.h"
#include "observe/op_log_read.h"
#include "observe/op_rules.h"

// libsystemc refers to sc_main; libFuzzer has its own main().
extern "C" int sc_main(int, char**) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    if (data[0] % 3 == 2) {
      (void)kairo::observe::parse_op_rules(text, "fuzz.yaml");
      return 0;
    }
    std::istringstream in(text);
    const auto format =
        data[0] % 3 == 0 ? kairo::observe::OpLogFormat::kCsv : kairo::observe::OpLogFormat::kJsonLines;
    const auto log = kairo::observe::read_op_log(in, "fuzz", format);
    (void)kairo::observe::check_op_log(log, {}, 20);
  } catch (const std::invalid_argument& e) {
    if (typeid(e) != typeid(std::invalid_argument)) throw;  // a subclass is not the documented error
  }
  return 0;
}
