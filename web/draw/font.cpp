#include "web/draw/font.hpp"

#include "imgui.h"

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
    0,
};

}  // namespace

bool load_page_font(int ratio) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig config;
  config.OversampleH = ratio == 1 ? 2 : 1;  // ImGui's default 3 triples the atlas for little gain at this size
  io.FontGlobalScale = 1.0f / float(ratio);
  return io.Fonts->AddFontFromFileTTF(kFontFile, kPageFontSize * float(ratio), &config, kRanges) != nullptr;
}
