#include "web/views/depth_quantity.hpp"

#include <algorithm>
#include <cctype>

#include "web/draw/i18n.hpp"

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
  const char* f = family.c_str();
  DepthQuantity last{family, DepthLayer::last_block, "", "", ""};
  if (stream) {
    last.label = family + ": last stream (h_{L+1})";
    last.shown = trf("%s: last stream (h_{L+1})", f);
    last.note = trf("last stream h_{L+1}: the residual stream after the last of the L blocks, the readout's input; "
                    "its series is %s/h{L+1} at depth L (%s/h9 at L = 8)", f, f);
  } else {
    last.label = family + ": last block (" + letter + "_{L+1})";
    last.shown = trf("%s: last block (%s_{L+1})", f, letter.c_str());
  }
  DepthQuantity out{family, DepthLayer::output, family + "/" + output, "", family + "/" + output};
  if (!index_letter(output).empty()) {
    out.label = family + ": output layer (" + letter + "_{L+2})";
    out.shown = trf("%s: output layer (%s_{L+2})", f, letter.c_str());
  }
  const std::string in = family + "/" + first;
  return {{family, DepthLayer::first, in, "", in}, last, out};
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
      out.push_back({family, DepthLayer::none, family, "", family});
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
