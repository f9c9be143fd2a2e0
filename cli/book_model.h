// How `pincer book build --model` gets a network evaluator (and `book stats` reads record chunks):
// cli/torch/book_model.cpp installs the factory when the binary is built with torch; without it
// --model is refused.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "mcts/evaluator.h"
#include "proto/record.pb.h"

namespace pincer::cli {

// Makes an evaluator for a model file (device "cpu", "cuda", ...) and sets `model_id`.
using BookModelFactory =
    std::function<std::shared_ptr<Evaluator>(const GamePtr& game, const std::string& path,
                                             const std::string& device, std::string& model_id)>;
BookModelFactory& book_model_factory();

// Reads a self-play record chunk (train/records.h) for `game`; installed beside the factory.
using BookChunkReader = std::function<RecordChunk(const std::string& path, const Game& game)>;
BookChunkReader& book_chunk_reader();

}  // namespace pincer::cli
