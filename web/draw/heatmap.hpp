// A matrix drawn as one image: its cells coloured into a GL texture (RGBA8, NEAREST, so each cell stays a sharp
// block) that ImDrawList::AddImage stretches over a box. A 400 × 400 cosine matrix drawn as 160 000 filled
// rectangles took 640 000 vertices, past what 16-bit vertex indices address, and smeared the whole frame; an image
// is 4 vertices at any size. The texture is uploaded only when the values or their colouring change, and a heat map
// not drawn in a frame has its texture deleted after that frame (heatmap_end_frame).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "imgui.h"

// A cell's colour from its value.
using CellColour = ImU32 (*)(double value);

// What the frame trace says of the map besides its size (web/draw/drawn.hpp DrawnHeatmap): its title and the labels
// drawn with it (row labels, colour-bar ends, axis ends), in the order drawn.
struct HeatmapText {
  std::string title;
  std::vector<std::string> labels;
};

// Draws `rows` × `cols` values (row-major, row 0 at the top) over the box [a, b] in the window's draw list. `id` is
// unique within the window. A matrix larger than kMaxHeatmapTexels a side is sampled down to it (nearest cell).
void heatmap_image(const char* id, const double* values, int rows, int cols, CellColour colour, ImVec2 a, ImVec2 b,
                   const HeatmapText& text);

// More texels a side than any panel has pixels; also within every WebGL2 implementation's MAX_TEXTURE_SIZE (≥ 2048).
constexpr int kMaxHeatmapTexels = 2048;

// A vertical colour bar over [a, b]: colour(hi) at the top to colour(lo) at the bottom, `hi_label` and `lo_label`
// beside its ends. Appends both labels to `text`.
void colour_bar(ImVec2 a, ImVec2 b, CellColour colour, double lo, double hi, const std::string& lo_label,
                const std::string& hi_label, HeatmapText& text);

// After the frame is rendered (web/main.cpp): deletes the textures of heat maps that were not drawn in it.
void heatmap_end_frame();

// Textures uploaded so far: a frame whose draw lists are unchanged still needs drawing when this changed
// (web/draw/frame_fingerprint.hpp).
uint64_t heatmap_uploads();
