#include "web/app/view_tab.hpp"

#include "web/draw/i18n.hpp"

const std::vector<ViewTabName>& view_tab_names() {
  static const std::vector<ViewTabName> names{
      {ViewTab::step, "step", translatable("vs step")},
      {ViewTab::width, "width", translatable("vs width")},
      {ViewTab::lr, "lr", translatable("vs learning rate")},
      {ViewTab::depth, "depth", translatable("vs depth")},
      {ViewTab::embeddings, "embeddings", translatable("embeddings")},
      {ViewTab::anchor, "anchor", translatable("anchor")},
      {ViewTab::phenomena, "phenomena", translatable("phenomena")},
      {ViewTab::parametrization, "parametrization", translatable("parametrization")},
      {ViewTab::max_lr, "maxlr", translatable("max LR")},
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
