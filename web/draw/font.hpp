// The page's font: DejaVu Sans (Debian's fonts-dejavu-core, embedded by web/CMakeLists.txt at build time), so the
// panels can print what the science is written in (η, γ′, μP, n^-r → 0, ≤, ∞) instead of ImGui's built-in font,
// which covers Latin-1 only and draws '?' for the rest.
#pragma once

// The size in CSS pixels: text a room can read on a projector.
constexpr float kPageFontSize = 15.0f;

// Loads the font into ImGui's atlas, rasterised at `ratio` device pixels per CSS pixel (1, 2 or 3) and drawn at
// 1/ratio, so that text is as sharp as the screen (or a slide scaling the page up) can show it. Call before the first
// frame, and again (with the atlas' texture recreated) when the ratio changes. Returns false, keeping ImGui's
// built-in font, when the file is missing.
bool load_page_font(int ratio);
