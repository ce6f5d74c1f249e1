#include "engine/spec/spec_migrations.hpp"

#include <cmath>
#include <cstdio>

namespace {

// Version 0 -> 1: "parametrization": "<preset>" became an object {"preset": ...}, and optimizer.learning_rate
// became optimizer.lr. Defaults did not change.
void v0_to_v1(json::Value& doc, std::vector<std::string>& errors) {
  for (auto& [key, value] : doc.object) {
    if (key == "parametrization" && value.is_string()) {
      json::Value p = json::Value::make_object();
      p.set("preset", value);
      value = p;
    }
    if (key == "optimizer" && value.is_object()) {
      for (auto& [field, x] : value.object)
        if (field == "learning_rate") {
          if (value.find("lr")) errors.push_back("optimizer: has both learning_rate (version 0) and lr (version 1)");
          field = "lr";
        }
    }
  }
}

using Step = void (*)(json::Value&, std::vector<std::string>&);
// kSteps[v] upgrades version v to v + 1.
const Step kSteps[] = {v0_to_v1};
static_assert(sizeof kSteps / sizeof kSteps[0] == kSpecVersion - kOldestSpecVersion,
              "one migration step per version: add one when kSpecVersion grows");

}  // namespace

MigrationResult migrate_spec(json::Value doc) {
  MigrationResult r;
  const json::Value* v = doc.is_object() ? doc.find("version") : nullptr;
  if (!v || !v->is_number() || v->number != std::floor(v->number) || v->number < kOldestSpecVersion) {
    r.doc = std::move(doc);
    return r;
  }
  if (v->number > kSpecVersion) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f", v->number);
    r.errors.push_back(std::string("version: ") + buf + " comes from a newer build (this build reads versions " +
                       std::to_string(kOldestSpecVersion) + " to " + std::to_string(kSpecVersion) + ")");
    r.doc = std::move(doc);
    return r;
  }
  for (int version = int(v->number); version < kSpecVersion; version++) {
    kSteps[version - kOldestSpecVersion](doc, r.errors);
    doc.set("version", json::Value::make_number(version + 1));
  }
  r.doc = std::move(doc);
  return r;
}

SpecResult read_spec_document(const json::Value& doc, const SpecLimits& limits) {
  MigrationResult m = migrate_spec(doc);
  if (!m.errors.empty()) {
    SpecResult out;
    out.errors = m.errors;
    return out;
  }
  return parse_spec(m.doc, limits);
}

SpecResult read_spec_text(const std::string& text, const SpecLimits& limits) {
  json::ParseResult parsed = json::parse(text);
  if (!parsed.ok()) {
    SpecResult out;
    out.errors.push_back("not valid JSON: " + parsed.error);
    return out;
  }
  return read_spec_document(parsed.value, limits);
}
