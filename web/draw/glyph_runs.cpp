#include "web/draw/glyph_runs.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "imgui_internal.h"  // ImTextCharToUtf8

namespace {

// Glyphs by the texture coordinates of their top-left corner: ImFont::RenderText writes a glyph's four corners in the
// order (U0,V0) (U1,V0) (U1,V1) (U0,V1), and no two glyphs of an atlas share a corner. Text clipped on the CPU (a
// label cut at its frame) has its U1 or V1 moved; a glyph cut at its left or top is not found (scrolled out of view).
using GlyphsByUv = std::map<std::pair<float, float>, const ImFontGlyph*>;

GlyphsByUv glyphs_by_uv(const ImFont& font) {
  GlyphsByUv map;
  for (const ImFontGlyph& g : font.Glyphs)
    if (g.Visible) map[{g.U0, g.V0}] = &g;
  return map;
}

void append_utf8(std::string& s, unsigned int c) {
  char bytes[5] = {};
  ImTextCharToUtf8(bytes, c);
  s += bytes;
}

// The scissor rectangle of each vertex: that of the draw command whose indices use it.
std::vector<ImVec4> clip_of_vertices(const ImDrawList& list) {
  std::vector<ImVec4> clips(list.VtxBuffer.Size);
  for (const ImDrawCmd& cmd : list.CmdBuffer)
    for (unsigned int k = cmd.IdxOffset; k < cmd.IdxOffset + cmd.ElemCount; ++k)
      clips[cmd.VtxOffset + list.IdxBuffer[int(k)]] = cmd.ClipRect;
  return clips;
}

}  // namespace

std::vector<GlyphRun> glyph_runs(const ImDrawData& data, const ImFont& font) {
  const GlyphsByUv glyphs = glyphs_by_uv(font);
  std::vector<GlyphRun> runs;
  for (int l = 0; l < data.CmdListsCount; ++l) {
    const ImDrawList& list = *data.CmdLists[l];
    const ImVector<ImDrawVert>& v = list.VtxBuffer;
    const std::vector<ImVec4> clips = clip_of_vertices(list);
    float line_y = NAN, pen = NAN;  // the current run's line (its top) and where its next glyph would start
    for (int i = 0; i + 3 < v.Size;) {
      auto found = glyphs.find({v[i].uv.x, v[i].uv.y});
      const ImFontGlyph* g = found == glyphs.end() ? nullptr : found->second;
      // A glyph clipped on the CPU at its right or bottom (a label cut at its frame) keeps U0 and V0 on these corners.
      if (!g || v[i + 1].uv.y != g->V0 || v[i + 3].uv.x != g->U0) {
        ++i;
        continue;
      }
      // The glyph's scale on screen, from whichever side its clipping left whole.
      const float width = g->X1 - g->X0, height = g->Y1 - g->Y0;
      const float scale = std::max(width > 0 ? (v[i + 2].pos.x - v[i].pos.x) / width : 0,
                                   height > 0 ? (v[i + 2].pos.y - v[i].pos.y) / height : 0);
      const float y = v[i].pos.y - g->Y0 * scale;
      const float origin = v[i].pos.x - g->X0 * scale;
      const float size = font.FontSize * scale;
      const bool same_line =
          !runs.empty() && std::fabs(y - line_y) < 0.5f && origin >= pen - 1 && origin - pen < 2 * size;
      if (!same_line) {
        runs.push_back({"", list._OwnerName ? list._OwnerName : "", origin, y, origin, y + size, clips[i]});
        line_y = y;
      } else if (origin - pen > 0.15f * size) {  // a space is a third of the size wide; kerning moves a glyph less
        runs.back().text += ' ';
      }
      append_utf8(runs.back().text, g->Codepoint);
      GlyphRun& run = runs.back();
      run.x1 = v[i + 2].pos.x;
      const float slack = 0.5f;  // ImGui rounds positions: half a unit past the edge is not a cut
      run.cut = run.cut || v[i + 2].uv.x != g->U1 || run.x0 < run.clip.x - slack || run.x1 > run.clip.z + slack;
      pen = origin + g->AdvanceX * scale;
      i += 4;
    }
  }
  return runs;
}
