// The text a frame drew, read back from ImGui's draw data: every quad textured with one of the font's glyphs, mapped
// back to its character by its texture coordinates and joined into runs (the glyphs of one line of one draw list).
// This sees every character a reader sees, whoever drew it (a label, a tick, a legend, a tooltip), so the tests can
// look for text left in the wrong language and for characters the font lacks, which ImGui draws with the font's
// fallback glyph, U+FFFD "�" (web/draw/font.cpp keeps it in the font for that).
#pragma once
#include <string>
#include <vector>

#include "imgui.h"

struct GlyphRun {
  std::string text;    // UTF-8; a gap between glyphs (a space, a column) reads as one space
  std::string window;  // the draw list's owner window
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // ImGui units
  ImVec4 clip;  // the scissor rectangle it was drawn in (x0, y0, x1, y1)
  bool cut = false;  // cut off at its left or right: it reaches past `clip`, or ImGui clipped a glyph of it on the CPU
};

std::vector<GlyphRun> glyph_runs(const ImDrawData& data, const ImFont& font);
