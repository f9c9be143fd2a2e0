// Gives serve/ (the analysis engine and the web server) networks: a model file becomes a
// batching InferenceService, shared by every search of the process.
#include "nn/inference.h"
#include "nn/model.h"
#include "serve/model.h"

namespace pincer::cli {
namespace {

struct RegisterModelEvaluator {
  RegisterModelEvaluator() {
    serve::register_model_evaluator_factory(
        [](const GamePtr& game, const std::string& path, const serve::ModelOptions& o) {
          std::shared_ptr<Model> model = Model::load(path, *game, o.device);
          InferenceOptions io;
          io.max_batch = o.max_batch;
          io.max_wait_us = 500;
          io.threads = o.threads;
          return std::shared_ptr<Evaluator>(std::make_shared<InferenceService>(model, io));
        });
  }
} register_model_evaluator;

}  // namespace
}  // namespace pincer::cli
