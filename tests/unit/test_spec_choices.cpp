// The spec editor's combo boxes offer exactly what the JSON reader accepts: spec_field_choices(path) against
// parse_spec, field by field, and the enum name tables both read from.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <set>

#include "engine/spec/spec.hpp"

namespace {

// Sets the field at a dotted path ("model.transformer.norm"), making the objects on the way.
void set_path(json::Value& doc, const std::string& path, json::Value v) {
  const size_t dot = path.find('.');
  if (dot == std::string::npos) {
    doc.set(path, std::move(v));
    return;
  }
  const std::string key = path.substr(0, dot);
  if (!doc.find(key)) doc.set(key, json::Value::make_object());
  for (auto& kv : doc.object)
    if (kv.first == key) set_path(kv.second, path.substr(dot + 1), std::move(v));
}

// The names listed by the error "PATH: "x" is not one of a, b, c", or nullopt when no error says that of PATH.
std::optional<std::vector<std::string>> refused_choice(const SpecResult& r, const std::string& path) {
  const std::string marker = " is not one of ";
  for (const std::string& e : r.errors) {
    const size_t at = e.find(marker);
    if (e.compare(0, path.size() + 2, path + ": ") != 0 || at == std::string::npos) continue;
    const std::string list = e.substr(at + marker.size());
    std::vector<std::string> names;
    for (size_t start = 0; start <= list.size();) {
      const size_t end = std::min(list.find(", ", start), list.size());
      names.push_back(list.substr(start, end - start));
      start = end + 2;
    }
    return names;
  }
  return std::nullopt;
}

SpecResult parse_with(const std::string& path, const std::string& value) {
  json::Value doc = json::Value::make_object();
  doc.set("version", json::Value::make_number(kSpecVersion));
  set_path(doc, path, json::Value::make_string(value));
  return parse_spec(doc);
}

// A spec whose JSON has every choice field: a Transformer on the anchor task, with the fields that spec_to_json
// writes only away from their defaults (task.target, init_scale_layers, readout_init, backend, precision) away from
// them.
json::Value spec_with_every_choice_field() {
  ExperimentSpec s;
  s.model.kind = ModelKind::transformer;
  s.task.kind = TaskKind::anchor;
  s.task.target = Target::sin135;
  s.parametrization.init_scale_layers = InitScaleLayers::first;
  s.parametrization.readout_init = ReadoutInit::zero;
  s.backend = Backend::cpu;
  s.precision = Precision::float32;
  s.model.transformer.has_attention_cut = true;  // written only when set
  s.parametrization.depth_rule = DepthRule::depth_mup;  // written only when set (or for a residual_mlp)
  json::Value doc = spec_to_json(s);
  // The MLP's activation, which a Transformer's JSON leaves out (the reader still takes it).
  json::Value model = *doc.find("model");
  model.set("activation", json::Value::make_string(activation_name(s.model.activation)));
  doc.set("model", model);
  // A table task's choices, which only a table task writes (the reader takes them anywhere).
  ExperimentSpec table;
  table.task.kind = TaskKind::table;
  json::Value task = *doc.find("task");
  task.set("table", *spec_to_json(table).find("task")->find("table"));
  doc.set("task", task);
  return doc;
}

// Paths of the string fields of an object (not inside arrays).
void string_fields(const json::Value& v, const std::string& path, std::vector<std::string>& out) {
  if (v.is_string()) out.push_back(path);
  if (v.is_object())
    for (const auto& kv : v.object) string_fields(kv.second, path.empty() ? kv.first : path + "." + kv.first, out);
}

template <class E, size_t N>
void expect_names_round_trip(const EnumName<E> (&table)[N]) {
  std::set<std::string> seen;
  for (const EnumName<E>& row : table) {
    EXPECT_TRUE(seen.insert(row.name).second) << "two values are called " << row.name;
    E back{};
    ASSERT_TRUE(enum_value(table, enum_name(table, row.value), back)) << row.name;
    EXPECT_TRUE(back == row.value) << row.name;
  }
  E unchanged = table[0].value;
  EXPECT_FALSE(enum_value(table, "no such name", unchanged));
  EXPECT_TRUE(unchanged == table[0].value);
}

}  // namespace

TEST(SpecChoices, EveryOfferedNameIsAccepted) {
  for (const auto& [path, names] : spec_choice_fields()) {
    ASSERT_FALSE(names.empty()) << path;
    for (const std::string& name : names)
      EXPECT_FALSE(refused_choice(parse_with(path, name), path)) << path << ": \"" << name << "\" is not accepted";
  }
}

TEST(SpecChoices, AWrongNameIsRefusedWithTheOfferedList) {
  for (const auto& [path, names] : spec_choice_fields()) {
    const auto listed = refused_choice(parse_with(path, "bogus"), path);
    ASSERT_TRUE(listed) << path << ": \"bogus\" was not refused as a choice";
    EXPECT_EQ(*listed, names) << path;
  }
}

// The other direction: every field the reader reads as a choice is offered. Each string field of a spec that has
// them all is set to a wrong name; those refused with "is not one of" must be exactly the offered fields.
TEST(SpecChoices, EveryChoiceTheReaderReadsIsOffered) {
  const json::Value doc = spec_with_every_choice_field();
  std::vector<std::string> paths;
  string_fields(doc, "", paths);
  std::set<std::string> refused_as_choice;
  for (const std::string& path : paths) {
    json::Value wrong = doc;
    set_path(wrong, path, json::Value::make_string("bogus"));
    if (refused_choice(parse_spec(wrong), path)) refused_as_choice.insert(path);
  }
  std::set<std::string> offered;
  for (const auto& kv : spec_choice_fields()) offered.insert(kv.first);
  EXPECT_EQ(refused_as_choice, offered);
}

TEST(SpecChoices, TheEditorOffersEveryTaskActivationPresetAndOptimizer) {
  EXPECT_EQ(spec_field_choices("task.kind"), enum_names(kTaskNames));
  EXPECT_EQ(spec_field_choices("model.activation"), enum_names(kActivationNames));
  EXPECT_EQ(spec_field_choices("parametrization.preset"), enum_names(kPresetNames));
  EXPECT_EQ(spec_field_choices("optimizer.kind"), enum_names(kOptimizerNames));
  EXPECT_TRUE(spec_field_choices("model.widths").empty());
  EXPECT_TRUE(spec_field_choices("name").empty());
}

TEST(SpecChoices, EveryNameTableReadsBothWays) {
  expect_names_round_trip(kActivationNames);
  expect_names_round_trip(kTaskNames);
  expect_names_round_trip(kTargetNames);
  expect_names_round_trip(kPresetNames);
  expect_names_round_trip(kInitScaleLayersNames);
  expect_names_round_trip(kOptimizerNames);
  expect_names_round_trip(kCutTargetNames);
  expect_names_round_trip(kModelKindNames);
  expect_names_round_trip(kInitSchemeNames);
  expect_names_round_trip(kAttentionScaleNames);
  expect_names_round_trip(kAnchorTaskNames);
  expect_names_round_trip(kBackendNames);
  expect_names_round_trip(kPrecisionNames);
  EXPECT_STREQ(activation_name(Activation(99)), "?");
}
