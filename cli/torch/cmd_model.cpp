// pincer model convert IN OUT: a model file written before checked files (a bare torch archive)
// rewritten in the checked format (nn/model_file.h), after loading it whole.
// pincer model average OUT IN...: the mean of several checkpoints of one run (Model::average).
#include <cstdio>
#include <memory>
#include <vector>

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

struct AverageOptions {
  std::string out;
  std::vector<std::string> in;
  std::string rules;
};

void average(const AverageOptions& o) {
  if (o.in.size() < 2) throw ModelError("model average: give at least two model files");
  std::string rules = o.rules;
  if (rules.empty()) {
    rules = Model::read_metadata(o.in.front()).ruleset_name();
    if (rules.empty()) {
      throw ModelError("model file " + o.in.front() + " names no ruleset: give --rules");
    }
  }
  const GamePtr game = load_game(rules);
  std::vector<std::unique_ptr<Model>> models;
  std::vector<const Model*> views;
  for (const std::string& path : o.in) {
    models.push_back(Model::load(path, *game));
    views.push_back(models.back().get());
  }
  const std::unique_ptr<Model> mean = Model::average(views);
  mean->save(o.out);
  std::printf("averaged %zu models into %s (%s)\n", models.size(), o.out.c_str(),
              mean->metadata().model_id().c_str());
}

RegisterCommand register_model{
    "model",
    "Model file tools: model convert (older model files to the checked format), model average "
    "(checkpoint averaging)",
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
      auto a = std::make_shared<AverageOptions>();
      auto* avg = app.add_subcommand(
          "average",
          "Average the weights and batch-norm statistics of checkpoints of one run's network "
          "(e.g. its last models after the learning rate fell); OUT gets the last one's metadata");
      avg->add_option("out", a->out, "Where the averaged model goes (written atomically)")
          ->required();
      avg->add_option("in", a->in, "Two or more model files of the same network")
          ->required()
          ->expected(2, 1000);
      avg->add_option("--rules", a->rules,
                      "Ruleset the models were made for (default: the one the first names)");
      avg->callback([a] { average(*a); });
    }};

}  // namespace
}  // namespace pincer::cli
