#include "web/draw/heatmap.hpp"

#include <GLES3/gl3.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>

#include "web/draw/drawn.hpp"

namespace {

// One heat map's texture and what it was coloured from, so an unchanged map is not uploaded again.
struct Texture {
  GLuint id = 0;
  int w = 0, h = 0;
  std::vector<double> values;
  int rows = 0, cols = 0;
  CellColour colour = nullptr;
  int frame = -1;  // the ImGui frame that last drew it
};

uint64_t upload_count = 0;

std::unordered_map<ImGuiID, Texture>& textures() {
  static std::unordered_map<ImGuiID, Texture> t;
  return t;
}

bool unchanged(const Texture& t, const double* values, int rows, int cols, CellColour colour) {
  return t.id != 0 && t.rows == rows && t.cols == cols && t.colour == colour &&
         std::equal(t.values.begin(), t.values.end(), values);
}

// Texel (x, y) shows the cell its centre falls in: every cell when the matrix fits, else a nearest-cell sample.
std::vector<ImU32> texels(const double* values, int rows, int cols, CellColour colour, int w, int h) {
  std::vector<ImU32> out(size_t(w) * size_t(h));
  for (int y = 0; y < h; y++) {
    const long r = long(y) * rows / h;
    for (int x = 0; x < w; x++) out[size_t(y) * size_t(w) + size_t(x)] = colour(values[r * cols + long(x) * cols / w]);
  }
  return out;
}

// ImU32 is IM_COL32's R, G, B, A in memory order: the bytes GL_RGBA / GL_UNSIGNED_BYTE expects.
void upload(Texture& t, const std::vector<ImU32>& pixels, int w, int h) {
  upload_count += 1;
  if (t.id == 0) {
    glGenTextures(1, &t.id);
    glBindTexture(GL_TEXTURE_2D, t.id);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  }
  glBindTexture(GL_TEXTURE_2D, t.id);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  if (t.w == w && t.h == h) {
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  } else {
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    t.w = w, t.h = h;
  }
}

void note(const char* id, const HeatmapText& text, ImVec2 a, ImVec2 b, int rows, int cols, const Texture& t,
          const double* values) {
  if (!drawn_recording()) return;
  DrawnHeatmap h;
  h.id = id;
  h.title = text.title;
  h.rect = drawn_rect(a, b);
  h.rows = rows, h.cols = cols, h.texture_w = t.w, h.texture_h = t.h;
  h.labels = text.labels;
  if (long(rows) * cols <= kDrawnHeatmapValues) h.values.assign(values, values + long(rows) * cols);
  h.lo = INFINITY, h.hi = -INFINITY;
  for (long i = 0; i < long(rows) * cols; i++)
    if (std::isfinite(values[i])) h.lo = std::min(h.lo, values[i]), h.hi = std::max(h.hi, values[i]);
  drawn_now().heatmaps.push_back(std::move(h));
}

}  // namespace

void heatmap_image(const char* id, const double* values, int rows, int cols, CellColour colour, ImVec2 a, ImVec2 b,
                   const HeatmapText& text) {
  if (rows <= 0 || cols <= 0) return;
  Texture& t = textures()[ImGui::GetID(id)];
  t.frame = ImGui::GetFrameCount();
  if (!unchanged(t, values, rows, cols, colour)) {
    const int w = std::min(cols, kMaxHeatmapTexels), h = std::min(rows, kMaxHeatmapTexels);
    upload(t, texels(values, rows, cols, colour, w, h), w, h);
    t.values.assign(values, values + long(rows) * cols);
    t.rows = rows, t.cols = cols, t.colour = colour;
  }
  ImGui::GetWindowDrawList()->AddImage(reinterpret_cast<ImTextureID>(intptr_t(t.id)), a, b);
  note(id, text, a, b, rows, cols, t, values);
}

void colour_bar(ImVec2 a, ImVec2 b, CellColour colour, double lo, double hi, const std::string& lo_label,
                const std::string& hi_label, HeatmapText& text) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  constexpr int kBands = 32;  // a few rectangles: no texture needed
  const float band = (b.y - a.y) / kBands;
  for (int i = 0; i < kBands; i++) {
    const double v = hi + (lo - hi) * (i + 0.5) / kBands;
    dl->AddRectFilled(ImVec2(a.x, a.y + band * float(i)), ImVec2(b.x, a.y + band * float(i + 1) + 0.5f), colour(v));
  }
  dl->AddRect(a, b, ImGui::GetColorU32(ImGuiCol_Border));
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  dl->AddText(ImVec2(b.x + 3, a.y - 2), dim, hi_label.c_str());
  dl->AddText(ImVec2(b.x + 3, b.y - ImGui::GetTextLineHeight() + 2), dim, lo_label.c_str());
  text.labels.push_back(lo_label);
  text.labels.push_back(hi_label);
}

void heatmap_end_frame() {
  std::unordered_map<ImGuiID, Texture>& all = textures();
  const int frame = ImGui::GetFrameCount();
  for (auto it = all.begin(); it != all.end();) {
    if (it->second.frame == frame) {
      ++it;
      continue;
    }
    glDeleteTextures(1, &it->second.id);
    it = all.erase(it);
  }
  drawn_note_textures(int(all.size()));
}

uint64_t heatmap_uploads() { return upload_count; }
