// The two kinds of `kairo view` (docs/views.md): a counter log's views, and
// a run directory's report, one page linking what the run wrote.
#pragma once
#include <string>

namespace kairo::app {

// kairo view COUNTERS --out DIR: the views of one counter log (app/cmd_view.cpp).
// `summary` is the run's --json output for the header (empty: LOG.json or
// run.json next to the log, if any). Returns the exit code.
int render_views(const std::string& in, const std::string& dir, const std::string& from,
                 const std::string& to, const std::string& at, const std::string& summary);

// kairo view RUN_DIR [--out DIR2]: OUT/index.html linking RUN_DIR's run
// summaries (key figures inline), plots (.svg, embedded), counter logs (their
// views generated into OUT/view-<log>/) and waveforms (.vcd, .fst, each with
// the gtkwave command that opens it with its .gtkw save file). Returns the
// exit code.
int render_report(const std::string& run_dir, const std::string& out, const std::string& summary);

}  // namespace kairo::app
