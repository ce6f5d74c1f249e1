// The spec editor: every field of the ExperimentSpec JSON as a widget (numbers, text, choices, lists),
// with the validation error of a field shown beside it. It edits the JSON document only; the app validates it.
#pragma once
#include <string>
#include <vector>

#include "engine/base/json.hpp"

// Draws `doc` as a tree of widgets. Returns true when the user changed something this frame.
bool spec_editor(json::Value& doc, const std::vector<std::string>& errors);
