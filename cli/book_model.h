// How `pincer book build --model` gets a network evaluator: cli/torch/book_model.cpp installs
// the factory when the binary is built with torch; without it --model is refused.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "mcts/evaluator.h"

namespace pincer::cli {

// Makes an evaluator for a model file (device "cpu", "cuda", ...) and sets `model_id`.
using BookModelFactory =
    std::function<std::shared_ptr<Evaluator>(const GamePtr& game, const std::string& path,
                                             const std::string& device, std::string& model_id)>;
BookModelFactory& book_model_factory();

}  // namespace pincer::cli
