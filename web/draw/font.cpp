#include "web/draw/font.hpp"

#include <cstdio>

#include "imgui.h"
#include "web/draw/i18n.hpp"

namespace {

// Where web/CMakeLists.txt embeds the font in the module's file system.
const char* const kFontFile = "/fonts/DejaVuSans.ttf";

// The Unicode blocks the panels and the engine's messages use, in pairs (first, last), zero-terminated. The build
// keeps only these blocks of the font file (PAGE_FONT_BLOCKS in web/CMakeLists.txt): change both together.
const ImWchar kRanges[] = {
    0x0020, 0x017F,  // Basic Latin, Latin-1 (µ, ×, ², ½), Latin Extended-A
    0x0370, 0x03FF,  // Greek: α β γ η θ κ λ μ σ Δ Θ
    0x2000, 0x206F,  // General Punctuation: – — ′ … ‖
    0x2070, 0x209F,  // superscripts and subscripts: ⁰ ⁻ ₁
    0x2100, 0x214F,  // letterlike symbols: ℓ ℝ
    0x2190, 0x21FF,  // arrows: → ↔ ↗
    0x2200, 0x22FF,  // mathematical operators: ≤ ≥ ≈ ∞ √ ∑ ∝ ∂
    0x25A0, 0x25FF,  // geometric shapes: ■ ▲ ● ◆ (markers)
    0xFFFD, 0xFFFD,  // the replacement character: ImGui draws it for any character the font lacks (visibly, not '?')
    0,
};

// The Chinese font's blocks. Its file holds only the characters the catalogue uses and CJK punctuation
// (web/CMakeLists.txt cuts it), so the atlas gets just those glyphs: ImGui skips code points the file lacks.
const ImWchar kChineseRanges[] = {
    0x3000, 0x303F,  // CJK symbols and punctuation: 。、《》「」
    0x4E00, 0x9FFF,  // CJK unified ideographs
    0xFF00, 0xFFEF,  // full-width forms: ，：（）！？
    0,
};

bool file_exists(const char* path) {
  FILE* f = std::fopen(path, "rb");
  if (f) std::fclose(f);
  return f != nullptr;
}

}  // namespace

bool load_page_font(int ratio) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig config;
  config.OversampleH = ratio == 1 ? 2 : 1;  // ImGui's default 3 triples the atlas for little gain at this size
  io.FontGlobalScale = 1.0f / float(ratio);
  const float size = kPageFontSize * float(ratio);
  if (!io.Fonts->AddFontFromFileTTF(kFontFile, size, &config, kRanges)) return false;
  if (page_language() == Language::zh && file_exists(kChineseFontFile)) {
    ImFontConfig merged;
    merged.MergeMode = true;
    merged.OversampleH = 1;  // ideographs are wide and dense: horizontal oversampling would only grow the atlas
    io.Fonts->AddFontFromFileTTF(kChineseFontFile, size, &merged, kChineseRanges);
  }
  return true;
}
