// Spec migrations (engine/spec/spec_migrations.hpp): version-0 documents and files read as their version-1 equivalent.
#include <gtest/gtest.h>

#include "engine/spec/presets.hpp"
#include "engine/spec/spec_migrations.hpp"

namespace {

json::Value doc(const std::string& text) {
  json::ParseResult r = json::parse(text);
  EXPECT_TRUE(r.ok()) << r.error;
  return r.value;
}

}  // namespace

TEST(SpecMigrations, Version0BecomesTheEquivalentVersion1Document) {
  MigrationResult m = migrate_spec(doc(R"({"version":0,"parametrization":"ntp","optimizer":{"learning_rate":0.5,"momentum":0.9}})"));
  ASSERT_TRUE(m.errors.empty()) << m.errors[0];
  EXPECT_EQ(json::write(m.doc),
            R"({"version":1,"parametrization":{"preset":"ntp"},"optimizer":{"lr":0.5,"momentum":0.9}})");
}

TEST(SpecMigrations, CurrentDocumentsPassUnchanged) {
  const std::string text = R"({"version":1,"parametrization":{"preset":"sp"},"optimizer":{"lr":3}})";
  MigrationResult m = migrate_spec(doc(text));
  EXPECT_TRUE(m.errors.empty());
  EXPECT_EQ(json::write(m.doc), text);
}

TEST(SpecMigrations, ADocumentNoOldVersionCouldHaveWrittenIsAnError) {
  MigrationResult m = migrate_spec(doc(R"({"version":0,"optimizer":{"learning_rate":0.5,"lr":0.1}})"));
  ASSERT_EQ(m.errors.size(), 1u);
  EXPECT_EQ(m.errors[0], "optimizer: has both learning_rate (version 0) and lr (version 1)");
}

TEST(SpecMigrations, NewerVersionsAreRefusedAndBadVersionsLeftToTheValidator) {
  MigrationResult newer = migrate_spec(doc(R"({"version":7})"));
  ASSERT_EQ(newer.errors.size(), 1u);
  EXPECT_EQ(newer.errors[0], "version: 7 comes from a newer build (this build reads versions 0 to 1)");
  for (const char* text : {R"({"name":"no version"})", R"({"version":"1"})", R"({"version":-1})", R"({"version":0.5})", "[1]"}) {
    MigrationResult m = migrate_spec(doc(text));
    EXPECT_TRUE(m.errors.empty()) << text;
    EXPECT_EQ(json::write(m.doc), json::write(doc(text))) << text;
    EXPECT_FALSE(read_spec_document(doc(text)).ok()) << text;
  }
}

TEST(SpecMigrations, AStoredVersion0FileReadsAsItsVersion1Equivalent) {
  std::string old_text;
  ASSERT_TRUE(read_text_file(std::string(MUPLAY_EXAMPLES_DIR) + "/../tests/fixtures/v0_spec.json", old_text));
  SpecResult old_spec = read_spec_text(old_text);
  ASSERT_TRUE(old_spec.ok()) << old_spec.errors[0];
  SpecResult same = parse_spec_text(R"json({"version":1,"name":"a spec file in the pre-release shape (version 0)",
      "model":{"widths":[16,16]},"parametrization":{"preset":"sp"},"task":{"train_size":16,"test_size":16},
      "optimizer":{"lr":0.05},"schedule":{"steps":10},"sweep":{"width":[8,16]}})json");
  ASSERT_TRUE(same.ok()) << same.errors[0];
  EXPECT_EQ(json::write(spec_to_json(old_spec.spec)), json::write(spec_to_json(same.spec)));
}
