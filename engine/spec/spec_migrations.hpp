// Spec documents written by older versions, upgraded step by step to the version this build reads.
//
// A spec file or share link states its "version"; absent fields take *that* version's defaults. A migration
// step turns a version-v document into the equivalent version-(v+1) document (renamed fields, changed shapes,
// and the old default written out wherever a default changed), so old files and links keep their meaning.
//
// The versions:
//   0  the pre-release shape (links made before the first release): "parametrization" was a preset name
//      ("parametrization": "mup") and the learning rate was "optimizer.learning_rate". Defaults as in version 1.
//   1  the current shape (examples/README.md: the experiment spec).
#pragma once
#include <string>
#include <vector>

#include "engine/base/json.hpp"
#include "engine/spec/spec.hpp"

constexpr int kOldestSpecVersion = 0;

struct MigrationResult {
  json::Value doc;                  // the document in the current version's shape
  std::vector<std::string> errors;  // a document from a newer build, or one an old version could not have written
};

// Upgrades `doc` from its "version" to kSpecVersion. A document that is not an object or lacks a usable
// "version" is returned unchanged: parse_spec() names that problem precisely.
MigrationResult migrate_spec(json::Value doc);

// A spec from outside (a file, the page's editor, a link's JSON): parse, migrate, validate.
SpecResult read_spec_text(const std::string& text, const SpecLimits& limits = {});
SpecResult read_spec_document(const json::Value& doc, const SpecLimits& limits = {});
