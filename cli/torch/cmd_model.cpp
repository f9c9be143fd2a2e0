// pincer model convert IN OUT: a model file written before checked files (a bare torch archive)
// rewritten in the checked format (nn/model_file.h), after loading it whole.
#include <cstdio>
#include <memory>

#include "cli/support/commands.h"
#include "engine/registry.h"
#include "nn/model.h"
#include "nn/model_file.h"

namespace pincer::cli {
namespace {

struct ConvertOptions {
  std::string in;
  std::string out;
  std::string rules;
};

void convert(const ConvertOptions& o) {
  std::string rules = o.rules;
  if (rules.empty()) {
    rules = Model::read_metadata(o.in).ruleset_name();
    if (rules.empty()) throw ModelError("model file " + o.in + " names no ruleset: give --rules");
  }
  const GamePtr game = load_game(rules);
  switch (convert_model_file(o.in, o.out, *game)) {
    case ConvertResult::converted:
      std::printf("converted %s to the checked format: %s\n", o.in.c_str(), o.out.c_str());
      break;
    case ConvertResult::already_checked:
      std::printf("%s is already in the checked format%s\n", o.in.c_str(),
                  o.in == o.out ? "" : (": copied to " + o.out).c_str());
      break;
  }
}

RegisterCommand reg{
    "model", "Model file tools: model convert (older model files to the checked format)",
    [](CLI::App& app) {
      app.require_subcommand(1);
      auto o = std::make_shared<ConvertOptions>();
      auto* c = app.add_subcommand(
          "convert",
          "Rewrite a model file of an older pincer (no checksum header) in the checked format, "
          "after loading it whole; OUT may be IN");
      c->add_option("in", o->in, "Model file to convert")->required();
      c->add_option("out", o->out, "Where the checked model file goes (written atomically)")
          ->required();
      c->add_option("--rules", o->rules,
                    "Ruleset the model was made for (default: the one its metadata names)");
      c->callback([o] { convert(*o); });
    }};

}  // namespace
}  // namespace pincer::cli
