// What runs where: the fields, the names of a field and the metrics whose rows reach less far than the rest (they
// train on the CPU only, or the PyTorch export refuses them), as the Markdown table in examples/README.md ("What runs
// where"), which `muplay reach` prints and a test compares. The facts are the rows' own (engine/spec/spec_fields.hpp,
// engine/spec/metric_table.hpp); this only lays them out.
#pragma once
#include <string>

std::string reach_markdown();
