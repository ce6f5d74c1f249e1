// A splitter: the thin bar between two panels that the mouse drags to share the space between them (the page's
// left and right columns, the presets list and the spec editor). Like any ImGui widget it is drawn where the cursor
// is; its label (e.g. "##columns splitter") names it in the page's test hook (web/draw/drawn.hpp).
#pragma once

enum class SplitAxis { columns, rows };  // columns: a vertical bar dragged sideways; rows: a horizontal bar

// The bar's thickness in pixels across the drag direction (ImGui's item spacing, so the gap looks as before).
float splitter_thickness();

// The first panel's size in pixels: its `share` of `total` (the bar excluded), within both panels' minimums. A panel
// too small for both gives the first its minimum and the second what is left.
float split_first(float share, float total, float min_first, float min_second);

// Draws the bar, `length` long, between the first panel (drawn before it, split_first pixels) and the second; a drag
// moves the boundary by the mouse's motion, from the next frame on. Returns true while dragged.
bool splitter(const char* id, SplitAxis axis, float length, float total, float min_first, float min_second,
              float* share);
