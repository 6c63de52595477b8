// kairo view RUN_DIR: the run report (app/view_report.h).
#include "app/view_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "app/cli_common.h"
#include "app/view_header.h"
#include "sim/input_file.h"

namespace kairo::app {
namespace {

namespace fs = std::filesystem;

std::string esc(const std::string& s) {
  std::string o;
  for (char c : s)
    o += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : c == '"' ? "&quot;" : std::string(1, c);
  return o;
}

// A path the report found, as a relative URL: every byte but letters, digits,
// - . _ ~ and / percent-encoded, and "./" in front unless it starts with
// "../", so that no file name ("javascript:alert(1)", "http://x") becomes
// a scheme or another host.
std::string relative_url(const std::string& path) {
  static const char* const hex = "0123456789ABCDEF";
  std::string o = path.rfind("../", 0) == 0 ? "" : "./";
  for (const unsigned char c : path) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/')
      o += char(c);
    else
      o += {'%', hex[c >> 4], hex[c & 15]};
  }
  return o;
}

// A path as a shell word (quoted when it holds anything but plain characters).
std::string shell(const std::string& s) {
  if (!s.empty() &&
      s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/+=") ==
          std::string::npos)
    return s;
  std::string o = "'";
  for (char c : s) o += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return o + "'";
}

std::string first_line(const fs::path& p) {
  std::ifstream in(p);
  std::string l;
  std::getline(in, l);
  return l;
}

// A file of the run directory, whole; one over the result bound is not
// read (the report lists it among the other files).
std::string slurp(const fs::path& p) {
  try {
    return sim::read_bounded(p.string(), sim::kResultFileLimitBytes, "file", "");
  } catch (const std::invalid_argument&) {
    return "";
  }
}

// What a run directory holds, by kind; paths relative to the directory.
// `views`: the pages of views `kairo view LOG --out DIR` wrote into it.
struct RunFiles {
  std::vector<fs::path> summaries, logs, waves, saves, plots, views, other;
};

// A directory `kairo view LOG --out DIR` wrote: its page and its pictures.
bool is_view_dir(const fs::path& d) {
  std::error_code ec;
  return fs::is_regular_file(d / "index.html", ec) && fs::is_regular_file(d / "timeseries_util.svg", ec) &&
         fs::is_regular_file(d / "topology_util.svg", ec);
}

RunFiles scan(const fs::path& dir, const fs::path& out) {
  RunFiles f;
  std::vector<fs::path> all;
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator(); ++it) {
    const fs::path& p = it->path();
    const std::string name = p.filename().string();
    if (it->is_directory()) {  // views a report generated, and hidden directories, are not run outputs
      if (name.rfind("view-", 0) == 0 || name[0] == '.' || it.depth() >= 2) it.disable_recursion_pending();
      // A view kairo view wrote here: one page, linked, not a dozen pictures taken for plots.
      else if (is_view_dir(p))
        f.views.push_back(p / "index.html"), it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && !(fs::equivalent(p.parent_path(), out) && name == "index.html"))
      all.push_back(p);
  }
  std::sort(all.begin(), all.end());
  std::sort(f.views.begin(), f.views.end());
  for (const fs::path& p : all) {
    const std::string ext = p.extension().string();
    if (ext == ".json") {
      nlohmann::json j = nlohmann::json::parse(slurp(p), nullptr, false);
      (view::is_summary(j) ? f.summaries : f.other).push_back(p);
    } else if (ext == ".kcl" || (ext == ".csv" && first_line(p).rfind("# kairo counter log", 0) == 0)) {
      f.logs.push_back(p);
    } else if (ext == ".vcd" || ext == ".fst") {
      f.waves.push_back(p);
    } else if (ext == ".gtkw") {
      f.saves.push_back(p);
    } else if (ext == ".svg") {
      f.plots.push_back(p);
    } else {
      f.other.push_back(p);
    }
  }
  return f;
}

// The save file for a waveform: FILE.gtkw beside it, else one that names it.
std::string save_for(const fs::path& wave, const std::vector<fs::path>& saves) {
  for (const fs::path& s : saves)
    if (s.parent_path() == wave.parent_path() && s.stem() == wave.stem()) return s.string();
  for (const fs::path& s : saves)
    if (slurp(s).find(wave.filename().string()) != std::string::npos) return s.string();
  return {};
}

}  // namespace

int render_report(const std::string& run_dir, const std::string& out_s, const std::string& summary_s) {
  std::error_code ec;
  fs::create_directories(out_s, ec);
  if (ec || !fs::is_directory(out_s)) return bad_input("--out " + out_s + ": cannot create the directory");
  const fs::path out = fs::canonical(out_s);
  RunFiles f;
  try {
    f = scan(run_dir, out);
  } catch (const fs::filesystem_error& e) {
    return bad_input("counters " + run_dir + ": " + e.what());
  }
  if (!summary_s.empty()) {
    try {
      view::read_summary(summary_s);
    } catch (const std::exception& e) {
      return bad_input(std::string("--summary: ") + e.what());
    }
    f.summaries.insert(f.summaries.begin(), summary_s);
  }
  if (f.summaries.empty() && f.logs.empty() && f.waves.empty() && f.plots.empty() && f.views.empty())
    return bad_input("counters " + run_dir +
                     ": a directory, but it holds no run output (summary .json, counter log .kcl/.csv, "
                     "waveform .vcd/.fst, plot .svg)");
  auto rel = [&](const fs::path& p) { return fs::proximate(p, out).generic_string(); };
  auto link = [&](const fs::path& p, const std::string& kind) {
    return fmt::format("<a class=\"file\" data-kind=\"{}\" href=\"{}\">{}</a>", kind,
                       esc(relative_url(rel(p))), esc(rel(p)));
  };
  const fs::path shown = fs::proximate(run_dir);
  std::string body;
  std::string title = "kairo run report: " + shown.generic_string();
  for (const fs::path& p : f.summaries) {
    const nlohmann::json j = view::read_summary(p.string());
    if (p == f.summaries.front())
      title = fmt::format("kairo run report: {}", view::summary_fields(j).front().second);
    body += "<section class=\"summary\"><h2>Summary " + link(p, "summary") + "</h2><dl>";
    for (const auto& [k, v] : view::summary_fields(j))
      body += fmt::format("<div><dt>{}</dt><dd{}>{}</dd></div>", esc(k),
                          k == "platform" ? " class=\"platform\"" : "", esc(v));
    body += "</dl></section>\n";
  }
  if (!f.plots.empty()) {
    body += "<section><h2>Plots</h2>\n";
    for (const fs::path& p : f.plots)
      body += fmt::format("<figure><img src=\"{}\" alt=\"{}\"><figcaption>{}</figcaption></figure>\n",
                          esc(relative_url(rel(p))), esc(p.filename().string()), link(p, "plot"));
    body += "</section>\n";
  }
  if (!f.logs.empty() || !f.views.empty()) {
    body += "<section><h2>Counter views</h2><ul>\n";
    for (const fs::path& p : f.views)
      body += "<li>" + link(p, "view") + ": written by kairo view (time series and topology)</li>\n";
    std::map<std::string, int> taken;
    for (const fs::path& p : f.logs) {
      std::string name = "view-" + p.stem().string();
      if (taken[name]++) name = "view-" + p.filename().string();
      const std::string summary = f.summaries.size() == 1 && view::summary_beside(p.string()).empty()
                                      ? f.summaries.front().string()
                                      : summary_s;
      const int rc = render_views(p.string(), (out / name).string(), "", "", "", summary);
      body += "<li>" + link(p, "log") + ": " +
              (rc == kExitOk ? link(out / name / "index.html", "view") + " (time series and topology)"
                             : std::string("not readable as a counter log (see the command's error)")) +
              "</li>\n";
    }
    body += "</ul></section>\n";
  }
  if (!f.waves.empty()) {
    body += "<section><h2>Waveforms</h2><p>Each opens in GTKWave with the command beside it, run in " +
            esc(out.string()) + ":</p><ul>\n";
    for (const fs::path& p : f.waves) {
      const std::string save = save_for(p, f.saves);
      std::string cmd = "gtkwave " + shell(rel(p));
      if (!save.empty()) cmd += " " + shell(rel(save));
      body += "<li>" + link(p, "wave") + (save.empty() ? "" : " with " + link(save, "save")) +
              ": <code class=\"cmd\">" + esc(cmd) + "</code></li>\n";
    }
    body += "</ul></section>\n";
  }
  if (!f.other.empty()) {
    body += "<section><h2>Other files</h2><ul>\n";
    for (const fs::path& p : f.other) body += "<li>" + link(p, "other") + "</li>\n";
    body += "</ul></section>\n";
  }
  const std::string page = fmt::format(
      "<!doctype html>\n<html><head><meta "
      "charset=\"utf-8\"><title>{0}</title>\n<style>body{{font-family:sans-"
      "serif;margin:14px;max-width:1560px}} h1{{font-size:20px}} h2{{font-size:16px;margin:14px 0 4px}} "
      "dl{{display:flex;flex-wrap:wrap;gap:2px 18px;margin:0}} dt{{display:inline;color:#555}} "
      "dt::after{{content:\": \"}} dd{{display:inline;margin:0;font-weight:600}} img{{max-width:100%}} "
      "figure{{margin:6px 0}} code{{background:#eee;padding:1px 4px}}</style>\n</head><body>\n<h1>{0}</h1>\n"
      "<p>What the run wrote in {1}.</p>\n{2}</body></html>\n",
      esc(title), esc(fs::absolute(run_dir).lexically_normal().string()), body);
  try {
    write_text_file((out / "index.html").string(), page);
  } catch (const std::exception& e) {
    return bad_input(std::string("--out ") + out_s + ": " + e.what());
  }
  std::cout << fmt::format(
      "kairo view: report of {} ({} summaries, {} counter logs, {} waveforms, {} plots) in {}\n", run_dir,
      f.summaries.size(), f.logs.size(), f.waves.size(), f.plots.size(), (out / "index.html").string());
  return kExitOk;
}

}  // namespace kairo::app
