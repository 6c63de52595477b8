// Text in kairo's SVG pictures (plots, views): its width in characters
// (UTF-8 code points, so "µs" counts two) and words wrapped into lines.
#pragma once
#include <algorithm>
#include <string>
#include <vector>

namespace kairo::app {

inline std::size_t text_chars(const std::string& s) {
  return std::size_t(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

// Words into lines of at most n characters (a longer word has a line of its own).
inline std::vector<std::string> wrap_words(const std::string& text, std::size_t n) {
  std::vector<std::string> lines(1);
  std::size_t p = 0;
  while (p < text.size()) {
    std::size_t q = text.find(' ', p);
    if (q == std::string::npos) q = text.size();
    const std::string word = text.substr(p, q - p);
    if (!lines.back().empty() && text_chars(lines.back()) + 1 + text_chars(word) > n) lines.emplace_back();
    lines.back() += (lines.back().empty() ? "" : " ") + word;
    p = q + 1;
  }
  return lines;
}

// Text for an SVG document: & < > " as entities.
inline std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

}  // namespace kairo::app
