// An opaque rectangle filled with a scissored glClear instead of a blended quad. Where WebGL is drawn in software
// (SwiftShader in headless Chromium, browsers without a GPU), every pixel of an ImGui quad goes through a texture
// fetch and a blend, so a large fill such as a plot's background costs most of a frame (scripts/page-cpu.mjs shows
// where the CPU goes). A clear fills the same pixels for a fraction of that, and costs nothing on a GPU.
#pragma once
#include "imgui.h"

// Fills [a, b] (within the draw list's current clip rectangle) with `color`, whose alpha is ignored: the fill
// replaces what was drawn there before, in draw order, like an opaque quad.
void add_opaque_fill(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 color);

// The page's background (the clear colour, ImGuiCol_WindowBg) under black of opacity `alpha`: the colour of a
// translucent dark panel drawn on it, as an opaque colour for add_opaque_fill.
ImU32 darkened_page_background(float alpha);
