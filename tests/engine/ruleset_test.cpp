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

// A ruleset file naming a base: the base's rules with this file's fields over them (a field set
// to its default value too), the fingerprint over the merged rules, notes inherited unless the
// file gives its own; and the errors of a bad base.
TEST(Ruleset, BaseRulesetMergesFieldsAndNotes) {
  const std::string dir = ::testing::TempDir();
  const std::string path = dir + "/seega-changed.textproto";
  {
    std::ofstream out(path);
    out << "game: \"seega\"\nname: \"seega-changed\"\nbase: \"seega-5x5\"\ntitle: \"changed\"\n"
           "rules { placement { per_turn: 1 } draw { capture_free_plies: 60 } }\n"
           "notes { field: \"draw.capture_free_plies\" source: \"guessed\" description: \"sixty\" "
           "}\n";
  }
  const GamePtr base = load_game("seega-5x5");
  const GamePtr changed = load_game(path);
  EXPECT_EQ(changed->ruleset_name(), "seega-changed");
  EXPECT_EQ(field_value_text(rules_of(changed->ruleset()), "placement.per_turn"), "1");
  EXPECT_EQ(field_value_text(rules_of(changed->ruleset()), "draw.capture_free_plies"), "60");
  EXPECT_EQ(field_value_text(rules_of(changed->ruleset()), "board.size"),
            field_value_text(rules_of(base->ruleset()), "board.size"));
  EXPECT_NE(changed->fingerprint(), base->fingerprint());
  const RulesetHeader h = header_of(changed->ruleset());
  EXPECT_EQ(h.notes_size(), header_of(base->ruleset()).notes_size());
  EXPECT_TRUE(note_problems(rules_of(changed->ruleset()), h.notes()).empty());
  for (const FieldNote& n : h.notes()) {
    if (n.field() == "draw.capture_free_plies") {
      EXPECT_EQ(n.description(), "sixty");
    }
  }

  // The same rules written out in full have the same fingerprint as the merged file.
  pb::Message* full = base->ruleset().New();
  full->CopyFrom(base->ruleset());
  auto* rules =
      full->GetReflection()->MutableMessage(full, full->GetDescriptor()->FindFieldByName("rules"));
  pb::TextFormat::MergeFromString("placement { per_turn: 1 } draw { capture_free_plies: 60 }",
                                  rules);
  EXPECT_EQ(ruleset_fingerprint("seega", *rules), changed->fingerprint());
  delete full;

  // A field set back to its default value (false) over a base that has it true.
  const std::string off = dir + "/seega-off.textproto";
  {
    std::ofstream out(off);
    out << "game: \"seega\"\nname: \"seega-off\"\nbase: \"" << path
        << "\"\n"
           "rules { placement { centre_free: false } }\n";
  }
  const GamePtr chained = load_game(off);
  EXPECT_EQ(field_value_text(rules_of(chained->ruleset()), "placement.centre_free"), "false");
  EXPECT_EQ(field_value_text(rules_of(chained->ruleset()), "placement.per_turn"), "1");

  const std::string bad_base = dir + "/bad-base.textproto";
  {
    std::ofstream out(bad_base);
    out << "game: \"seega\"\nname: \"bad\"\nbase: \"seize-v0\"\n";
  }
  EXPECT_NE(error_of([&] { load_game(bad_base); }).find("is a ruleset of game 'seize'"),
            std::string::npos);
  const std::string loop = dir + "/loop.textproto";
  {
    std::ofstream out(loop);
    out << "game: \"seega\"\nname: \"loop\"\nbase: \"" << loop << "\"\n";
  }
  EXPECT_NE(error_of([&] { load_game(loop); }).find("nest more than 8 deep"), std::string::npos);
  const std::string missing = dir + "/missing.textproto";
  {
    std::ofstream out(missing);
    out << "game: \"seega\"\nname: \"m\"\nbase: \"seega-none\"\n";
  }
  EXPECT_NE(error_of([&] { load_game(missing); }).find("base: unknown ruleset"), std::string::npos);
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
