// The page's font: DejaVu Sans (Debian's fonts-dejavu-core, embedded by web/CMakeLists.txt at build time), so the
// panels can print what the science is written in (η, γ′, μP, n^-r → 0, ≤, ∞) instead of ImGui's built-in font,
// which covers Latin-1 only. In Chinese, Droid Sans Fallback's ideographs are merged in (fetched with the catalogue
// by web/js/language.js into kChineseFontFile; web/CMakeLists.txt cuts it to the characters the catalogue uses).
#pragma once

// The size in CSS pixels: text a room can read on a projector.
constexpr float kPageFontSize = 15.0f;

// Where web/js/language.js writes the Chinese font in the module's file system.
constexpr const char* kChineseFontFile = "/fonts/zh.ttf";

// Loads the font into ImGui's atlas, rasterised at `ratio` device pixels per CSS pixel (1, 2 or 3) and drawn at
// 1/ratio, so that text is as sharp as the screen (or a slide scaling the page up) can show it; with the Chinese
// glyphs while the page is in Chinese. Call before the first frame, and again (with the atlas' texture recreated) when
// the ratio or the language changes. Returns false, keeping ImGui's built-in font, when the file is missing.
bool load_page_font(int ratio);
