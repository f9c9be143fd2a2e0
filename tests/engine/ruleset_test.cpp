// Rulesets as data: provenance on every field, the fingerprint, the generated pages, errors.
#include "engine/ruleset.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/reflection.h>
#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "engine/registry.h"
#include "tests/support/errors.h"

namespace pincer {
namespace {

namespace pb = google::protobuf;

using ::pincer::testing::error_of;

const pb::Message& rules_of(const pb::Message& ruleset) {
  return ruleset.GetReflection()->GetMessage(ruleset,
                                             ruleset.GetDescriptor()->FindFieldByName("rules"));
}

RulesetHeader header_of(const pb::Message& ruleset) {
  RulesetHeader h;
  h.ParseFromString(ruleset.SerializeAsString());
  return h;
}

TEST(Ruleset, EveryShippedFieldHasSourceAndDescription) {
  ASSERT_FALSE(shipped_ruleset_names().empty());
  for (const std::string& name : shipped_ruleset_names()) {
    const GamePtr game = load_game(name);
    const auto problems =
        note_problems(rules_of(game->ruleset()), header_of(game->ruleset()).notes());
    EXPECT_TRUE(problems.empty()) << name << ": " << (problems.empty() ? "" : problems.front());
    EXPECT_EQ(game->ruleset_name(), name);
  }
}

TEST(Ruleset, NoteCheckCatchesMissingAndBadNotes) {
  const GamePtr game = load_game("seize-v0");
  RulesetHeader header = header_of(game->ruleset());
  header.mutable_notes()->RemoveLast();
  EXPECT_EQ(note_problems(rules_of(game->ruleset()), header.notes()).size(), 1u);
  header.mutable_notes(0)->set_source("a blog");
  header.add_notes()->set_field("no.such.field");
  EXPECT_GE(note_problems(rules_of(game->ruleset()), header.notes()).size(), 3u);
}

// The 15 fields seed 001 lists as guessed exist in seize-v0 with its values.
TEST(Ruleset, V0CarriesTheSeedsFifteenGuesses) {
  const GamePtr game = load_game("seize-v0");
  const pb::Message& rules = rules_of(game->ruleset());
  const std::vector<std::pair<std::string, std::string>> guesses = {
      {"capture.directions", "ORTHOGONAL"},
      {"capture.self_sandwich", "SAFE"},
      {"capture.multiple", "true"},
      {"capture.chain", "false"},
      {"pieces.boss.can_take_power", "true"},
      {"powers.persistent", "true"},
      {"powers.capturable", "false"},
      {"powers.consumed", "true"},
      {"powers.respawns", "false"},
      {"draw.repetition", "NOT_MODELLED"},
      {"draw.halfmove_limit", "600"},
      {"stalemate", "LOSS"},
      {"win_resolution.simultaneous", "FIRST_LISTED"},
      {"win_resolution.capture_is_mandatory", "false"},
      {"powers.on_second", "BLOCKED"},
  };
  const RulesetHeader header = header_of(game->ruleset());
  for (const auto& [field, value] : guesses) {
    EXPECT_EQ(field_value_text(rules, field), value) << field;
    bool guessed = false;
    for (const FieldNote& n : header.notes())
      guessed |= n.field() == field && n.source() == "guessed";
    EXPECT_TRUE(guessed) << field << " is marked guessed";
  }
}

TEST(Ruleset, FingerprintIsSixteenHexDigitsAndDiffersByRuleset) {
  const std::string a = load_game("seize-reference")->fingerprint(),
                    b = load_game("seize-v0")->fingerprint();
  EXPECT_EQ(a.size(), 16u);
  EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(a, b);
}

// Reformatting the file (comments, spacing, field order, notes) keeps the fingerprint.
TEST(Ruleset, FingerprintIgnoresFormattingAndNotes) {
  const GamePtr game = load_game("seize-reference");
  std::unique_ptr<pb::Message> copy(game->ruleset().New());
  copy->CopyFrom(game->ruleset());
  std::string text;
  pb::TextFormat::Printer printer;
  printer.SetSingleLineMode(true);
  printer.PrintToString(*copy, &text);
  text = "# reformatted on one line\n" + text;
  const std::string path = ::testing::TempDir() + "/reformatted.textproto";
  std::ofstream(path) << text;
  EXPECT_EQ(load_game(path)->fingerprint(), game->fingerprint());

  // Notes and descriptions do not enter it either.
  std::unique_ptr<pb::Message> edited(game->ruleset().New());
  edited->CopyFrom(game->ruleset());
  auto* notes = edited->GetDescriptor()->FindFieldByName("notes");
  edited->GetReflection()->ClearField(edited.get(), notes);
  EXPECT_EQ(ruleset_fingerprint("seize", rules_of(*edited)), game->fingerprint());
}

// Changing any single rule changes the fingerprint: flip every leaf field in turn.
TEST(Ruleset, FingerprintChangesWithEveryRule) {
  const GamePtr game = load_game("seize-reference");
  const pb::Message& rules = rules_of(game->ruleset());
  int changed = 0;
  for (const std::string& path : leaf_field_paths(*rules.GetDescriptor())) {
    std::unique_ptr<pb::Message> copy(rules.New());
    copy->CopyFrom(rules);
    pb::Message* owner = copy.get();
    std::string rest = path;
    for (size_t dot; (dot = rest.find('.')) != std::string::npos; rest = rest.substr(dot + 1)) {
      owner = owner->GetReflection()->MutableMessage(
          owner, owner->GetDescriptor()->FindFieldByName(rest.substr(0, dot)));
    }
    const pb::FieldDescriptor* f = owner->GetDescriptor()->FindFieldByName(rest);
    const pb::Reflection* r = owner->GetReflection();
    if (f->is_repeated())
      r->AddString(owner, f, "a2");
    else if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_BOOL)
      r->SetBool(owner, f, !r->GetBool(*owner, f));
    else if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_INT32)
      r->SetInt32(owner, f, r->GetInt32(*owner, f) + 1);
    else if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_STRING)
      r->SetString(owner, f, r->GetString(*owner, f) + "x");
    else if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_ENUM) {
      const int n = f->enum_type()->value_count();
      r->SetEnumValue(owner, f, (r->GetEnumValue(*owner, f) + 1) % n);
    } else {
      ADD_FAILURE() << "unhandled field type at " << path;
      continue;
    }
    EXPECT_NE(ruleset_fingerprint("seize", *copy), game->fingerprint()) << path;
    ++changed;
  }
  EXPECT_GT(changed, 30);
}

// docs/rules/<name>.md is what `pincer rules --markdown` generates now.
TEST(Ruleset, GeneratedPagesAreCurrent) {
  const char* root = std::getenv("PINCER_SOURCE_DIR");
  ASSERT_NE(root, nullptr) << "ctest sets PINCER_SOURCE_DIR";
  for (const std::string& name : shipped_ruleset_names()) {
    const GamePtr game = load_game(name);
    std::ifstream in(std::string(root) + "/docs/rules/" + name + ".md");
    std::stringstream committed;
    committed << in.rdbuf();
    EXPECT_EQ(committed.str(), rules_markdown(game->ruleset(), game->fingerprint()))
        << "docs/rules/" << name << ".md is stale: run scripts/gen-docs.sh";
  }
}

TEST(Ruleset, ErrorsNameTheProblem) {
  EXPECT_NE(error_of([] { load_game("seize-nonesuch"); }).find("known: "), std::string::npos);
  EXPECT_NE(error_of([] { load_game("/no/such/file.textproto"); }).find("cannot read"),
            std::string::npos);
  const std::string dir = ::testing::TempDir();
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir + "/" + name) << text;
    return dir + "/" + name;
  };
  EXPECT_NE(error_of([&] {
              load_game(write("a.textproto", "game: \"seize\"\nname: \"x\"\nrules { bogus: 1 }\n"));
            }).find("line 3"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              load_game(write("b.textproto", "game: \"chess\"\nname: \"x\"\n"));
            }).find("unknown game"),
            std::string::npos);
  EXPECT_NE(
      error_of([&] { load_game(write("c.textproto", "name: \"x\"\n")); }).find("names no game"),
      std::string::npos);
  // A value the engine does not implement is refused with its field.
  const RulesetSource src = find_ruleset("seize-v0");
  std::string text = src.text;
  text.replace(text.find("chain: false"), 12, "chain: true");
  EXPECT_NE(error_of([&] { load_game(write("d.textproto", text)); }).find("capture.chain"),
            std::string::npos);
}

}  // namespace
}  // namespace pincer
