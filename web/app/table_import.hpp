// The data sets a user brings (task.kind "table"), on the app's side: web/js/tables.js puts a file the user picks or
// drops into the module's file system (web/app/page_limits.hpp: kPageTableDir) and opens it here in the Data window
// (web/views/table_preview.hpp); "Use this data" makes it the editor's task. A spec that names a table this page does
// not hold (a link's, a saved draft's) asks for it, and a file offered for it is taken only if it holds the same bytes.
#pragma once
#include <string>

#include "web/app/app.hpp"

// Opens the Data window on kPageTableDir/`name`. "" when it opened, else why not (the file is not a table).
std::string open_table(App& app, const std::string& name);
// The Data window's choices become the editor's task. The model (an MLP: a Transformer gives way to the default
// MLP), optimizer, schedule and sweep stay; metrics that do not fit the table are left out, and the status bar says so.
void use_table(App& app);
// A file the editor's table task reads that the page does not hold (its data file, else its test file):
// {"file", "bytes", "sha256"} as JSON, or "".
std::string table_wanted(const App& app);
// The file the user offers for the wanted table, at `path` in the module's file system: moved into place and the runs
// rebuilt when it holds the same bytes (""), else kept out, and why (both names, sizes and hashes).
std::string offer_table(App& app, const std::string& path, const std::string& offered_name);
