#include "web/views/depth_quantity.hpp"

#include <algorithm>
#include <cctype>

namespace {

std::string family_of(const std::string& name) { return name.substr(0, name.find('/')); }
bool layered(const std::string& name) { return name.find('/') != std::string::npos; }

// The layer names of `family` in a run's series, in order ("h1", ..., "h9", "f").
std::vector<const Series*> layers_of(const std::vector<Series>& series, const std::string& family) {
  std::vector<const Series*> out;
  for (const Series& s : series)
    if (layered(s.name) && family_of(s.name) == family) out.push_back(&s);
  return out;
}

std::string layer_name(const Series& s) { return s.name.substr(s.name.find('/') + 1); }

// "h9" → "h": the letter of a layer named by its index; "" for a name that is no index ("f").
std::string index_letter(const std::string& layer) {
  const size_t digits = layer.find_first_of("0123456789");
  if (digits == std::string::npos || digits == 0) return "";
  const bool all_digits =
      std::all_of(layer.begin() + long(digits), layer.end(), [](char c) { return std::isdigit(c) != 0; });
  return all_digits ? layer.substr(0, digits) : "";
}

// The three layers of a family that are the same at every depth, labelled from one run's names.
std::vector<DepthQuantity> family_quantities(const std::string& family, const std::vector<const Series*>& layers) {
  const std::string first = layer_name(*layers.front()), output = layer_name(*layers.back());
  const std::string letter = index_letter(first);
  const bool stream = letter == "h";
  DepthQuantity last{family, DepthLayer::last_block,
                     family + (stream ? ": last stream (h_{L+1})" : ": last block (" + letter + "_{L+1})"), ""};
  if (stream)
    last.note = "last stream h_{L+1}: the residual stream after the last of the L blocks, the readout's input; its "
                "series is " + family + "/h{L+1} at depth L (" + family + "/h9 at L = 8)";
  const bool output_by_index = !index_letter(output).empty();
  const std::string output_label = output_by_index ? ": output layer (" + letter + "_{L+2})" : "/" + output;
  return {{family, DepthLayer::first, family + "/" + first, ""}, last,
          {family, DepthLayer::output, family + output_label, ""}};
}

}  // namespace

std::vector<DepthQuantity> depth_quantities(const std::vector<Series>& series) {
  std::vector<DepthQuantity> out;
  std::vector<std::string> seen;
  for (const Series& s : series) {
    const std::string family = family_of(s.name);
    if (std::find(seen.begin(), seen.end(), family) != seen.end()) continue;
    seen.push_back(family);
    if (!layered(s.name)) {
      out.push_back({family, DepthLayer::none, family, ""});
      continue;
    }
    const std::vector<const Series*> layers = layers_of(series, family);
    if (layers.size() < 3) continue;  // not a residual net's family: no block between input and output
    for (DepthQuantity& q : family_quantities(family, layers)) out.push_back(std::move(q));
  }
  return out;
}

const Series* depth_series(const std::vector<Series>& series, const DepthQuantity& q) {
  if (q.layer == DepthLayer::none) {
    for (const Series& s : series)
      if (s.name == q.family) return &s;
    return nullptr;
  }
  const std::vector<const Series*> layers = layers_of(series, q.family);
  if (layers.size() < 3) return nullptr;
  switch (q.layer) {
    case DepthLayer::first: return layers.front();
    case DepthLayer::last_block: return layers[layers.size() - 2];
    case DepthLayer::output: return layers.back();
    case DepthLayer::none: break;
  }
  return nullptr;
}
