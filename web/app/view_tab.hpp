// The views of the page's right-hand side (its tabs), by the names links use and the titles the page shows.
#pragma once
#include <vector>

enum class ViewTab { step, width, lr, depth, embeddings, anchor, phenomena, parametrization, max_lr };

struct ViewTabName {
  ViewTab tab;
  const char* id;     // in a view's text (web/app/view_text.hpp): "width"
  const char* label;  // the tab's title in the page, in English (drawn with tr_label): "vs width"
};
const std::vector<ViewTabName>& view_tab_names();
const char* view_tab_id(ViewTab tab);
const char* view_tab_label(ViewTab tab);
