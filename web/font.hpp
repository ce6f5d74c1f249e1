// The page's font: DejaVu Sans (Debian's fonts-dejavu-core, embedded by web/CMakeLists.txt at build time), so the
// panels can print what the science is written in (η, γ′, μP, n^-r → 0, ≤, ∞) instead of ImGui's built-in font,
// which covers Latin-1 only and draws '?' for the rest.
#pragma once

// The size in CSS pixels: text a room can read on a projector.
constexpr float kPageFontSize = 15.0f;

// Loads the font into ImGui's atlas (call once, before the first frame). Returns false, keeping ImGui's built-in
// font, when the file is missing.
bool load_page_font();
