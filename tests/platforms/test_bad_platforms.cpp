// Every bad platform file in tests/bad_platforms/ (its first line says what
// the message must contain: "# expect: fragment | fragment") gets exit code
// 2 from `kairo check` and `kairo run`, a message naming the file and saying
// what was expected, and nothing on stdout.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "tests/test_support.h"

namespace kairo {
namespace {

std::vector<std::string> expected_fragments(const std::string& text) {
  const std::string tag = "# expect: ";
  std::vector<std::string> out;
  if (text.rfind(tag, 0) != 0) return out;
  std::string line = text.substr(tag.size(), text.find('\n') - tag.size());
  std::stringstream ss(line);
  for (std::string part; std::getline(ss, part, '|');) {
    part.erase(0, part.find_first_not_of(' '));
    part.erase(part.find_last_not_of(' ') + 1);
    if (!part.empty()) out.push_back(part);
  }
  return out;
}

TEST(BadPlatforms, EachGetsExitCodeTwoAndAMessageSayingWhatWasExpected) {
  const std::filesystem::path dir = std::filesystem::path(KAIRO_SOURCE_DIR) / "tests" / "bad_platforms";
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".yaml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  EXPECT_GE(files.size(), 15u) << "at least 15 kinds of bad platform";
  for (const auto& f : files) {
    SCOPED_TRACE(f.filename().string());
    const auto want = expected_fragments(test::read_file(f.string()));
    ASSERT_FALSE(want.empty()) << "the first line must be '# expect: ...'";
    for (const std::vector<std::string>& cmd :
         {std::vector<std::string>{"check", f.string()},
          std::vector<std::string>{"run", f.string(), "--workload", "pingpong", "--quiet"}}) {
      auto r = test::run_kairo(cmd);
      EXPECT_EQ(r.exit_code, 2) << cmd[0] << ": " << r.err;
      EXPECT_TRUE(r.out.empty()) << cmd[0] << " printed: " << r.out;
      EXPECT_NE(r.err.find(f.filename().string()), std::string::npos) << "names the file: " << r.err;
      for (const auto& w : want)
        EXPECT_NE(r.err.find(w), std::string::npos) << "missing '" << w << "' in: " << r.err;
    }
  }
}

}  // namespace
}  // namespace kairo
