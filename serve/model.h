// Networks without torch, for serve/ and `pincer book build --model`: the torch half of the program
// registers a factory that turns a model file into a batching mcts Evaluator
// (cli/torch/model_evaluator.cpp); torch-free code asks for one by path. Without torch there is
// no factory and asking says so.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "engine/game.h"
#include "mcts/evaluator.h"

namespace pincer::serve {

struct ModelOptions {
  std::string device = "cpu";
  int max_batch = 64;  // positions per network batch, shared by every concurrent search
  int threads = 1;     // torch threads of the inference thread
};

struct LoadedModel {
  std::shared_ptr<Evaluator> evaluator;
  std::string model_id;  // the model file's id (its metadata)
  // The network has a points head: its evaluations carry Evaluation::points.
  bool predicts_points = false;
};

// Loads `path` for `game` (refusing a model of another ruleset); throws std::runtime_error.
using ModelEvaluatorFactory = std::function<LoadedModel(
    const GamePtr& game, const std::string& path, const ModelOptions& options)>;

void register_model_evaluator_factory(ModelEvaluatorFactory factory);
// Throws std::runtime_error when no factory is registered (a build without torch).
LoadedModel load_model_evaluator(const GamePtr& game, const std::string& path,
                                 const ModelOptions& options);
// The evaluator alone.
std::shared_ptr<Evaluator> make_model_evaluator(const GamePtr& game, const std::string& path,
                                                const ModelOptions& options);

}  // namespace pincer::serve
