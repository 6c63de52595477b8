// kairo plot's layout (docs/plots.md, "Layout"), read back from the SVG: for
// 1 to 12 inputs the legend lies inside the drawing's viewBox and clear of
// the plot area and the x axis below it, each entry's text inside the
// legend's box, and the y axis's title whole inside the drawing, left of
// its tick labels. Text widths are bounded by 0.6 em a character (the
// average advance of Helvetica, Arial and DejaVu Sans text is 0.5 to 0.6 em).
#include <gtest/gtest.h>

#include <regex>

#include "tests/test_support.h"

namespace kairo {
namespace {

constexpr double kEm = 0.6;

struct Box {
  double x0, y0, x1, y1;
  bool inside(const Box& o) const { return x0 >= o.x0 && y0 >= o.y0 && x1 <= o.x1 && y1 <= o.y1; }
  bool overlaps(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};
std::ostream& operator<<(std::ostream& os, const Box& b) {
  return os << "[" << b.x0 << "," << b.y0 << " .. " << b.x1 << "," << b.y1 << "]";
}

std::size_t chars(const std::string& s) {
  std::size_t n = 0;
  for (char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::smatch find(const std::string& svg, const std::string& re) {
  std::smatch m;
  std::regex_search(svg, m, std::regex(re));
  return m;
}

// Checks the layout of one figure; `what` names it in failures.
void check_layout(const std::string& svg, std::size_t entries_expected, const std::string& what) {
  const std::smatch vb = find(svg, R"re(viewBox="0 0 ([0-9.]+) ([0-9.]+)")re");
  ASSERT_FALSE(vb.empty()) << what;
  const Box view{0, 0, std::stod(vb[1]), std::stod(vb[2])};
  // The plot area: the frame drawn around the curves.
  const std::smatch area = find(
      svg,
      R"re(<rect x="([-0-9.]+)" y="([-0-9.]+)" width="([-0-9.]+)" height="([-0-9.]+)" fill="none" stroke="#000"/>)re");
  ASSERT_FALSE(area.empty()) << what;
  const double left = std::stod(area[1]), top = std::stod(area[2]);
  const Box plot{left, top, left + std::stod(area[3]), top + std::stod(area[4])};
  // The x axis's title (13px, centred) lies below the plot area; the legend must clear it too.
  const std::smatch xt = find(
      svg,
      R"re(<text x="([-0-9.]+)" y="([-0-9.]+)" class="title" text-anchor="middle" font-size="13">([^<]*)</text>)re");
  ASSERT_FALSE(xt.empty()) << what;
  const double xt_w = kEm * 13 * double(chars(xt[3]));
  const Box x_title{std::stod(xt[1]) - xt_w / 2, std::stod(xt[2]) - 13, std::stod(xt[1]) + xt_w / 2,
                    std::stod(xt[2]) + 4};
  EXPECT_TRUE(x_title.inside(view)) << what << ": x axis title " << x_title;

  const std::smatch lg = find(
      svg,
      R"re(<g class="legend" transform="translate\(([-0-9.]+),([-0-9.]+)\)">\n<rect x="0" y="0" width="([-0-9.]+)" height="([-0-9.]+)")re");
  ASSERT_FALSE(lg.empty()) << what << ": no legend";
  const double lx = std::stod(lg[1]), ly = std::stod(lg[2]);
  const Box legend{lx, ly, lx + std::stod(lg[3]), ly + std::stod(lg[4])};
  EXPECT_TRUE(legend.inside(view)) << what << ": legend " << legend << " outside the viewBox " << view;
  EXPECT_FALSE(legend.overlaps(plot)) << what << ": legend " << legend << " over the plot area " << plot;
  EXPECT_FALSE(legend.overlaps(x_title)) << what << ": legend " << legend << " over the x axis title";
  // Each entry: its sample (24 units) and its label at 11px, inside the legend's box.
  const std::regex entry(
      R"re(<g class="entry" transform="translate\(([-0-9.]+),([-0-9.]+)\)">.*?<text x="([-0-9.]+)" y="[-0-9.]+" font-size="11">([^<]*)</text></g>)re");
  std::size_t n = 0;
  for (std::sregex_iterator it(svg.begin(), svg.end(), entry), end; it != end; ++it, ++n) {
    const double ex = lx + std::stod((*it)[1]), ey = ly + std::stod((*it)[2]);
    const Box e{ex, ey - 8, ex + std::stod((*it)[3]) + kEm * 11 * double(chars((*it)[4])), ey + 8};
    EXPECT_TRUE(e.inside(legend)) << what << ": entry '" << (*it)[4] << "' " << e
                                  << " spills out of the legend " << legend;
  }
  EXPECT_EQ(n, entries_expected) << what;
  // The y axis's title runs up the page, centred at (x, y): whole inside the
  // drawing and left of the tick labels (end-anchored at their x).
  const std::smatch yt = find(
      svg,
      R"re(<text class="title" transform="translate\(([-0-9.]+),([-0-9.]+)\) rotate\(-90\)" text-anchor="middle" font-size="([0-9.]+)">([^<]*)</text>)re");
  ASSERT_FALSE(yt.empty()) << what;
  const double tx = std::stod(yt[1]), ty = std::stod(yt[2]), font = std::stod(yt[3]);
  const double len = kEm * font * double(chars(yt[4]));
  const Box y_title{tx - font, ty - len / 2, tx + 0.3 * font, ty + len / 2};
  EXPECT_TRUE(y_title.inside(view)) << what << ": y axis title " << y_title << " clipped by the viewBox "
                                    << view;
  EXPECT_GE(y_title.y0, plot.y0) << what << ": y axis title longer than the plot area";
  EXPECT_LE(y_title.y1, plot.y1) << what << ": y axis title longer than the plot area";
  const std::string axis = svg.substr(svg.find("<g class=\"axis y\">"));
  const std::regex label(R"re(<text x="([-0-9.]+)" y="[-0-9.]+" text-anchor="end">([^<]*)</text>)re");
  for (std::sregex_iterator it(axis.begin(), axis.end(), label), end; it != end; ++it) {
    const double right = std::stod((*it)[1]), w = kEm * 12 * double(chars((*it)[2]));
    EXPECT_GE(right - w, y_title.x1) << what << ": tick label " << (*it)[2] << " over the y axis title";
  }
}

// Twelve sweeps that differ in one router parameter.
class PlotLayout : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = test::temp_dir();
    for (int i = 0; i < 12; ++i) {
      const auto r = test::run_kairo(
          {"traffic", "mesh-8x8", "--sweep", "0.05,0.3,0.5", "--warmup-cycles", "100", "--measure-cycles",
           "300", "--set", "router.vc_buffer_flits=" + std::to_string(8 + i), "--quiet", "--json", input(i)});
      ASSERT_EQ(r.exit_code, 0) << r.err;
    }
  }
  static std::string input(int i) { return dir_ + "/s" + std::to_string(i) + ".json"; }
  static std::string plot(std::vector<std::string> args, const std::string& name) {
    args.insert(args.begin(), "plot");
    args.insert(args.end(), {"--out", dir_ + "/" + name});
    const auto r = test::run_kairo(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return test::read_file(dir_ + "/" + name);
  }
  static std::string dir_;
};
std::string PlotLayout::dir_;

TEST_F(PlotLayout, ForOneToTwelveInputsTheLegendIsInsideTheFigureAndClearOfTheCurves) {
  for (int n = 1; n <= 12; ++n) {
    std::vector<std::string> in;
    for (int i = 0; i < n; ++i) in.push_back(input(i));
    const std::string lat = plot(in, "lat" + std::to_string(n) + ".svg");
    // Entries: one per input, and "saturation" when a curve saturates (0.5 does on an 8x8 mesh).
    const bool ringed = lat.find("class=\"mark\"") != std::string::npos;
    check_layout(lat, std::size_t(n) + ringed, std::to_string(n) + " inputs, latency");
    in.insert(in.end(), {"--kind", "throughput"});
    const std::string thr = plot(in, "thr" + std::to_string(n) + ".svg");
    check_layout(thr, std::size_t(n) + 1 + ringed, std::to_string(n) + " inputs, throughput");  // + y = x
  }
}

TEST_F(PlotLayout, LongLabelsWidenTheFigureRatherThanSpillOutOfIt) {
  const std::string name(150, 'x');
  const std::string svg = plot(
      {input(0), input(1), input(2), "--label", name + "1", "--label", name + "2", "--label", name + "3"},
      "long.svg");
  const bool ringed = svg.find("class=\"mark\"") != std::string::npos;
  check_layout(svg, 3 + ringed, "three 151-character labels");
}

}  // namespace
}  // namespace kairo
