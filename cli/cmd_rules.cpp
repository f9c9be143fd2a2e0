// pincer rules: a ruleset with its fingerprint and guessed fields, or its generated page.
#include <google/protobuf/text_format.h>

#include <cstdio>

#include "cli/support/commands.h"
#include "engine/registry.h"

namespace pincer::cli {
namespace {

struct RulesArgs {
  std::string rules = "seize-reference";
  bool markdown = false;
  bool list = false;
};

void run(const RulesArgs& o) {
  if (o.list) {
    for (const std::string& name : shipped_ruleset_names()) {
      const GamePtr game = load_game(name);
      std::printf("%-20s %-8s %s\n", name.c_str(), game->game_name().c_str(),
                  game->fingerprint().c_str());
    }
    return;
  }
  const GamePtr game = load_game(o.rules);
  const auto& ruleset = game->ruleset();
  if (o.markdown) {
    std::fputs(rules_markdown(ruleset, game->fingerprint()).c_str(), stdout);
    return;
  }
  RulesetHeader header;
  header.ParseFromString(ruleset.SerializeAsString());
  const auto* rules_field = ruleset.GetDescriptor()->FindFieldByName("rules");
  const auto& rules = ruleset.GetReflection()->GetMessage(ruleset, rules_field);
  std::string text;
  google::protobuf::TextFormat::PrintToString(rules, &text);
  std::printf("ruleset: %s\ngame: %s\ntitle: %s\nfingerprint: %s\n\n%s\n", header.name().c_str(),
              header.game().c_str(), header.title().c_str(), game->fingerprint().c_str(),
              text.c_str());
  std::printf("guessed fields:\n");
  for (const FieldNote& n : header.notes()) {
    if (n.source() == "guessed")
      std::printf("  %s = %s\n      %s\n", n.field().c_str(),
                  field_value_text(rules, n.field()).c_str(), n.description().c_str());
  }
  const auto problems = note_problems(rules, header.notes());
  for (const std::string& p : problems) std::printf("warning: %s\n", p.c_str());
}

RegisterCommand register_rules{
    "rules", "Print a ruleset: its fields, fingerprint and guessed fields", [](CLI::App& app) {
      auto o = std::make_shared<RulesArgs>();
      app.add_option("--rules", o->rules, "Ruleset name or file")->capture_default_str();
      app.add_flag("--markdown", o->markdown, "Print the generated rules page (docs/rules/)");
      app.add_flag("--list", o->list, "List the shipped rulesets with their fingerprints");
      app.callback([o] { run(*o); });
    }};

}  // namespace
}  // namespace pincer::cli
