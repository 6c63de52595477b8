// Reading an operation log back (docs/rdma.md, "The operation log"): the CSV
// or JSON Lines that append_csv / append_jsonl wrote (op_log.h), into the
// records the checker works on (op_check.h).
//
// The reader is strict: a row of the wrong shape, a token the vocabulary does
// not know, a `seq` out of place (0, 1, 2, ...) or a time that goes back is
// an error naming `FILE:LINE`; so is a line longer than kMaxOpLogLine (a log
// line is under 300 bytes: a longer one is not a log). Errors are
// std::invalid_argument (the command line's bad input, exit code 2).
#pragma once
#include <cstddef>
#include <istream>
#include <string>
#include <vector>

#include "observe/op_log.h"

namespace kairo::observe {

enum class OpLogFormat { kCsv, kJsonLines };

inline constexpr std::size_t kMaxOpLogLine = 64 * 1024;

// The format a file name asks for: `.csv` or `.jsonl`; anything else is an
// error naming the file.
OpLogFormat op_log_format_of(const std::string& path);

// Every record of `in`, named `name` in errors; record i has seq i.
std::vector<OpRecord> read_op_log(std::istream& in, const std::string& name, OpLogFormat format);
// The file at `path`, its format from its name.
std::vector<OpRecord> read_op_log_file(const std::string& path);

}  // namespace kairo::observe
