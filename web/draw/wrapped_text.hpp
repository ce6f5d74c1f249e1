// Text wrapped at the window's edge, with line breaks Chinese allows. ImGui 1.86 breaks a line only at a space or after
// ASCII punctuation, so a Chinese sentence (it has no spaces) after a Latin word or a number is carried whole to the
// next line, leaving the line before it short, or cut anywhere when longer than a line. Text with ideographs gets its
// line breaks here instead: at spaces, and between any two characters where one is an ideograph, never before closing
// punctuation (，。：）) or after opening punctuation (（“). Text without ideographs is ImGui's to wrap, as before.
#pragma once
#include <string>

#include "imgui.h"

// `text` with '\n' where a line `width` wide must end (unchanged without ideographs).
std::string with_line_breaks(const std::string& text, float width);

// Draws `text` in the current text colour, wrapped at the window's edge (`wrap_x` 0) or at `wrap_x` in window
// coordinates, as ImGui::PushTextWrapPos takes it.
void wrapped_text(const std::string& text, float wrap_x = 0.0f);
// The same in the colour ImGui gives disabled text: hints and notes.
void wrapped_text_disabled(const std::string& text, float wrap_x = 0.0f);
