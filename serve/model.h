// Networks for serve/ without torch: the torch half of the program registers a factory that
// turns a model file into a batching mcts Evaluator (cli/torch/model_evaluator.cpp); serve/ asks
// for one by path. Without torch there is no factory and asking says so.
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

// Loads `path` for `game` (refusing a model of another ruleset); throws std::runtime_error.
using ModelEvaluatorFactory = std::function<std::shared_ptr<Evaluator>(
    const GamePtr& game, const std::string& path, const ModelOptions& options)>;

void register_model_evaluator_factory(ModelEvaluatorFactory factory);
// Throws std::runtime_error when no factory is registered (a build without torch).
std::shared_ptr<Evaluator> make_model_evaluator(const GamePtr& game, const std::string& path,
                                                const ModelOptions& options);

}  // namespace pincer::serve
