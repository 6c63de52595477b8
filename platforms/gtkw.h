// A GTKWave save file for a traced run (`kairo run|traffic --gtkw FILE`
// beside --vcd/--fst): it opens the waveform on the interval where the run's
// story happens, one group of rows per block in the order the blocks first
// act, each row named by its block and meaning (a GTKWave alias), enumerated
// signals shown by name through translate filter files written beside the
// save file, and markers at the traced packet's head and tail.
//
// The traced packet is the first packet a traced block shows: the first
// non-zero value of a router's `pkt` or a TNI's `tx_pkt` (a packet's label,
// unique in the run). Its head is that time; its tail is when the last link
// carrying it lets it go, following it from link to link while the intervals
// that show its label overlap (cut-through hops do; not modeled: a
// store-and-forward hop, whose next link starts after a gap, ends the
// packet's path there). The story runs from the first change after the
// trace's start (a doorbell, a DMA read, or the packet itself) to the tail,
// or, when the injecting TNI is traced and the packet is a request (not an
// answer), to that TNI's first completion after the head: its operation's
// end (a put's after the acknowledgement, a get's after the last response is
// written), with a 5% margin each side. The story is looked for from the
// trace's start, or from a later time the caller names: a traffic run's
// measurement window (its warm-up's end), where the network is loaded,
// rather than its first packet into an empty network. A trace bounded by --trace-to opens
// on the whole recorded interval instead (--trace-from to --trace-to: the
// user named the story), with the packet's markers in it.
//
// Markers: GTKWave writes a named marker's name centred on it, so two close
// markers print over each other. Marker A is at the head; marker B at the
// tail when the two names clear each other at the save file's zoom (names
// kGtkwMarkerCharPixels wide a character, kGtkwMarkerGapPixels apart), else
// at the operation's completion when that clears A, else B is left out (the
// comment line still gives the tail). An unbounded window is widened until
// both names are whole inside it.
//
// Enumerated states are shown through translate filter files rather than
// string-valued signals: the waveform keeps its numeric values (every
// reader, pyvcd and vcd2fst included, reads it as before, and the default
// selection's bytes stay the same), and the names are GTKWave's concern.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/trace.h"

namespace kairo::platforms {

// GTKWave 3.3's time scale on a 1 ps dump: at zoom z a pixel of the wave
// area shows 2^-z / 200 ps (measured on GTKWave 3.3.118: at zoom -16 the
// 980-pixel wave area of a 1600-pixel window shows 321,126 ps).
inline constexpr double kGtkwPsPerPixelAtZoom0 = 1.0 / 200.0;
// The window the save file asks for and the wave area that leaves.
inline constexpr int kGtkwWidth = 1600, kGtkwSstWidth = 260, kGtkwSignalsWidth = 380;
inline constexpr int kGtkwWavePixels = kGtkwWidth - kGtkwSstWidth - kGtkwSignalsWidth - 40;

// The width of a character of a marker's name in GTKWave 3.3's wave font
// (an upper bound: its small monospace font measures 6 to 7 pixels), and the
// room left between two names.
inline constexpr int kGtkwMarkerCharPixels = 7, kGtkwMarkerGapPixels = 8;

struct GtkwStory {
  sim::Time start = 0;                               // where the story was looked for from
  sim::Time from = 0, to = 0;                        // the interval the save file opens on (margin included)
  sim::Time head = sim::kNever, tail = sim::kNever;  // the traced packet's, kNever: none
  sim::Time done = sim::kNever;                      // its operation's completion, kNever: not traced
  std::uint64_t packet = 0;                          // the value its packet signals show (its label)
  std::string name;                                  // what the value says ("0.0.1/0 data")
  double zoom = 0;                                   // GTKWave's zoom that shows [from, to]
  // The markers (above): A at the head; B at marker_b, named b_name (kNever: no B).
  std::string a_name, b_name;
  sim::Time marker_b = sim::kNever;
};

// GTKWave's picoseconds per pixel at `zoom`.
double gtkw_ps_per_pixel(double zoom);
// Whether names `a` at time `ta` and `b` at `tb` (tb >= ta), each centred on
// its marker, print clear of each other at `zoom`.
bool gtkw_names_clear(const std::string& a, sim::Time ta, const std::string& b, sim::Time tb, double zoom);

// The story of `trace` (see above) from its emitted changes, looked for
// from `story_from` on when that is after the trace's start.
GtkwStory gtkw_story(const sim::Trace& trace, const std::vector<sim::Trace::Emitted>& changes,
                     sim::Time story_from = 0);

// Writes the save file `path` for `trace`, whose waveform is `dump`, and the
// translate filter files beside it (states_<table>.txt), each whole through
// sim::OutputFile; throws sim::OutputError naming --gtkw. The story is looked
// for from `story_from` on (gtkw_story).
void write_gtkw(const sim::Trace& trace, const std::string& path, const std::string& dump,
                sim::Time story_from = 0);

}  // namespace kairo::platforms
