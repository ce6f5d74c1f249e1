// Whether a frame needs drawing: a 64-bit summary of everything the GPU would read to draw it. ImGui builds every
// frame anew; when the summary equals the last drawn frame's, drawing it again would change no pixel, and web/main.cpp
// skips it (the canvas keeps showing the last one). Where the browser draws in software (SwiftShader: headless
// Chromium, virtual machines without a GPU) every frame drawn costs milliseconds of CPU per pixel-covering layer, so
// a page at rest would otherwise take most of a core from training for nothing.
#pragma once
#include <cstdint>

#include "imgui.h"

// The draw lists' vertices, indices and commands (clip rectangles, textures, index ranges), the display's size and
// scale, and `textures_version`, which must change whenever a texture's contents do (heatmap_uploads()).
uint64_t frame_fingerprint(const ImDrawData& data, uint64_t textures_version);
