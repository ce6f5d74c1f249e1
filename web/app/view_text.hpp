// The view a link, an embed or a preset opens on, as text: the tab, then the settings that change what it draws,
// separated by ';'. For example
//   "width;quantity=act_delta_rms;record=5;refs=1"   vs width: the activations' change at the 5th record, with the
//                                                     reference slopes
//   "step;metric=test_accuracy;logy=0"                 vs step: test accuracy on a linear axis
//   "lr"                                               vs learning rate
// The tabs and their settings are listed in examples/README.md ("Views in links"). The text travels in the spec's "view"
// field (engine/spec/experiment_spec.hpp), so share links, files and result documents carry it; an embed's URL may
// also name one (?view=...).
#pragma once
#include <string>
#include <vector>

#include "web/app/app.hpp"
#include "web/app/view_tab.hpp"

// Opens on the view the editor's spec names (after a load: App::view_pending); a problem with it goes to app.message.
void open_spec_view(App& app);
// The view the page shows now; "" for the default one (vs step, the first metric, its usual axes).
std::string view_text(const App& app);
// Switches the page to `text`'s view (from the next frame) and takes on its settings. Returns the problems (an
// unknown tab or setting, a value out of range), each naming what is wrong; the parts that are right are still taken.
// An empty text is the default view: vs step.
std::vector<std::string> apply_view_text(App& app, const std::string& text);
