// A GTKWave save file for a traced run (`kairo run|traffic --gtkw FILE`
// beside --vcd/--fst): it opens the waveform on the interval where the run's
// story happens, one group of rows per block in the order the blocks first
// act, each row named by its block and meaning (a GTKWave alias), enumerated
// signals shown by name through translate filter files written beside the
// save file, and markers at the traced packet's head and tail.
//
// The traced packet is the first packet a traced block shows: the first
// non-zero value of a router's `pkt` or a TNI's `tx_pkt`. Its head is that
// time; its tail is when the last link carrying it lets it go, following it
// from link to link while the intervals that show its id overlap (cut-through
// hops do; not modeled: a store-and-forward hop, whose next link starts
// after a gap, ends the packet's path there). The story runs from the first
// change after the trace's start (a doorbell, a DMA read, or the packet
// itself) to the tail, or to the injecting TNI's next completion when that
// TNI is traced, with a 5% margin each side. A trace bounded by --trace-to
// opens on the whole recorded interval instead (--trace-from to --trace-to:
// the user named the story), with the packet's markers in it.
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

struct GtkwStory {
  sim::Time from = 0, to = 0;                        // the interval the save file opens on (margin included)
  sim::Time head = sim::kNever, tail = sim::kNever;  // the traced packet's, kNever: none
  std::uint64_t packet = 0;                          // the value its packet signals show (operation id + 1)
  double zoom = 0;                                   // GTKWave's zoom that shows [from, to]
};

// The story of `trace` (see above) from its emitted changes.
GtkwStory gtkw_story(const sim::Trace& trace, const std::vector<sim::Trace::Emitted>& changes);

// Writes the save file `path` for `trace`, whose waveform is `dump`, and the
// translate filter files beside it (states_<table>.txt), each whole through
// sim::OutputFile; throws sim::OutputError naming --gtkw.
void write_gtkw(const sim::Trace& trace, const std::string& path, const std::string& dump);

}  // namespace kairo::platforms
