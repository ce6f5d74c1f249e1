// Where training runs: the spec's backend (auto / CPU / WebGPU) as a widget, the adapter, and the note that says
// why a run is not where one might expect (a software adapter under auto, no WebGPU, a lost device).
#pragma once
#include <string>

#include "web/app/app.hpp"

void backend_controls(App& app);
std::string backend_label(const App& app);  // for the status bar: "WebGPU (adapter), float32" or the CPU's
