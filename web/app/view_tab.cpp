#include "web/app/view_tab.hpp"

const std::vector<ViewTabName>& view_tab_names() {
  static const std::vector<ViewTabName> names{
      {ViewTab::step, "step", "vs step"},
      {ViewTab::width, "width", "vs width"},
      {ViewTab::lr, "lr", "vs learning rate"},
      {ViewTab::depth, "depth", "vs depth"},
      {ViewTab::embeddings, "embeddings", "embeddings"},
      {ViewTab::anchor, "anchor", "anchor"},
      {ViewTab::phenomena, "phenomena", "phenomena"},
      {ViewTab::parametrization, "parametrization", "parametrization"},
      {ViewTab::max_lr, "maxlr", "max LR"},
  };
  return names;
}

namespace {

const ViewTabName& name_of(ViewTab tab) {
  for (const ViewTabName& n : view_tab_names())
    if (n.tab == tab) return n;
  return view_tab_names().front();
}

}  // namespace

const char* view_tab_id(ViewTab tab) { return name_of(tab).id; }
const char* view_tab_label(ViewTab tab) { return name_of(tab).label; }
