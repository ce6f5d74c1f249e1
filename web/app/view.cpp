#include "web/app/view.hpp"

#include <sstream>

const std::vector<std::string>& panel_names() {
  static const std::vector<std::string> names{"presets", "editor", "controls", "plot", "runs", "status", "phenomena",
                                                "backend"};
  return names;
}

View make_view(bool embed, const std::string& panels, std::vector<std::string>& errors) {
  View v;
  v.embed = embed;
  if (panels.empty() && !embed) return v;
  bool* flags[] = {&v.presets, &v.editor, &v.controls, &v.plot, &v.runs, &v.status, &v.phenomena, &v.backend};
  for (bool* f : flags) *f = false;
  std::istringstream list(panels.empty() ? "controls,plot" : panels);
  for (std::string name; std::getline(list, name, ',');) {
    bool known = false;
    for (size_t i = 0; i < panel_names().size(); i++)
      if (name == panel_names()[i]) *flags[i] = known = true;
    if (!known) {
      std::string allowed;
      for (const std::string& n : panel_names()) allowed += (allowed.empty() ? "" : ", ") + n;
      errors.push_back("panels: \"" + name.substr(0, 40) + "\" is not one of " + allowed);
    }
  }
  if (!embed) v.phenomena = false, v.backend = true;  // the full page shows the phenomena as a tab, the backend always
  if (!(v.presets || v.editor || v.controls || v.plot || v.runs || v.status || v.phenomena))
    v.controls = v.plot = true;  // none known
  return v;
}
