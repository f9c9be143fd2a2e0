// Gives the torch-free code (serve/'s analysis engine and web server, `pincer book build --model`)
// networks: a model file becomes a batching InferenceService (serve/model.h).
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
          std::string id = model->metadata().model_id();
          const bool points = model->has_points_head();
          return serve::LoadedModel{std::make_shared<InferenceService>(model, io), std::move(id),
                                    points};
        });
  }
} register_model_evaluator;

}  // namespace
}  // namespace pincer::cli
