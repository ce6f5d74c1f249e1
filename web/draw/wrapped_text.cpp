#include "web/draw/wrapped_text.hpp"

#include "imgui_internal.h"  // ImTextCharFromUtf8, CalcWrapWidthForPos
#include "web/draw/i18n.hpp"

namespace {

bool is_ideograph(unsigned int c) { return (c >= 0x3000 && c <= 0x9FFF) || (c >= 0xFF00 && c <= 0xFFEF); }

// Punctuation that ends a phrase stays on its line; punctuation that opens one stays with what follows.
bool closes(unsigned int c) {
  for (unsigned int p : {0xFF0Cu, 0x3002u, 0x3001u, 0xFF1Au, 0xFF1Bu, 0xFF01u, 0xFF1Fu, 0xFF09u, 0x300Bu, 0x300Du,
                         0x300Fu, 0x201Du, 0x2019u, unsigned(','), unsigned('.'), unsigned(')'), unsigned(':'),
                         unsigned(';'), unsigned('!'), unsigned('?')})
    if (c == p) return true;
  return false;
}
bool opens(unsigned int c) {
  for (unsigned int p : {0xFF08u, 0x300Au, 0x300Cu, 0x300Eu, 0x201Cu, 0x2018u, unsigned('(')})
    if (c == p) return true;
  return false;
}

}  // namespace

std::string with_line_breaks(const std::string& text, float width) {
  if (!has_chinese(text)) return text;
  const ImFont* font = ImGui::GetFont();
  const float scale = ImGui::GetFontSize() / font->FontSize;
  std::string out;
  float line = 0, line_at_break = 0;  // the line's width, and its width up to the last place it may break
  size_t at = std::string::npos;      // that place in `out`
  unsigned int before = 0;
  for (const char* p = text.c_str(); *p;) {
    const char* start = p;
    unsigned int c = 0;
    p += ImTextCharFromUtf8(&c, p, nullptr);
    if (c == '\n') {
      out += '\n';
      line = 0, at = std::string::npos, before = 0;
      continue;
    }
    const bool may_break = before == ' ' || (before != 0 && c != ' ' && (is_ideograph(c) || is_ideograph(before)) &&
                                             !closes(c) && !opens(before));
    if (may_break) at = out.size(), line_at_break = line;
    const float advance = font->GetCharAdvance(ImWchar(c)) * scale;
    if (line + advance > width && at != std::string::npos) {
      if (out[at - 1] == ' ') out[at - 1] = '\n';  // the space becomes the break
      else out.insert(at, 1, '\n');
      line -= line_at_break;
      at = std::string::npos;
    }
    out.append(start, p);
    line += advance;
    before = c;
  }
  return out;
}

void wrapped_text(const std::string& text, float wrap_x) {
  ImGui::PushTextWrapPos(wrap_x);
  // A unit less than ImGui's own width, so that its wrapping, which runs after this, finds nothing more to break.
  const float width = ImGui::CalcWrapWidthForPos(ImGui::GetCursorScreenPos(), wrap_x) - 1;
  ImGui::TextUnformatted(with_line_breaks(text, width).c_str());
  ImGui::PopTextWrapPos();
}

void wrapped_text_disabled(const std::string& text, float wrap_x) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  wrapped_text(text, wrap_x);
  ImGui::PopStyleColor();
}
