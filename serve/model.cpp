#include "serve/model.h"

#include <mutex>
#include <stdexcept>

namespace pincer::serve {
namespace {
std::mutex& factory_mutex() {
  static std::mutex m;
  return m;
}
ModelEvaluatorFactory& factory() {
  static ModelEvaluatorFactory f;
  return f;
}
}  // namespace

void register_model_evaluator_factory(ModelEvaluatorFactory f) {
  std::lock_guard<std::mutex> lock(factory_mutex());
  factory() = std::move(f);
}

LoadedModel load_model_evaluator(const GamePtr& game, const std::string& path,
                                 const ModelOptions& options) {
  ModelEvaluatorFactory f;
  {
    std::lock_guard<std::mutex> lock(factory_mutex());
    f = factory();
  }
  if (!f) {
    throw std::runtime_error("cannot load model \"" + path +
                             "\": this pincer was built without torch (use --player SPEC)");
  }
  return f(game, path, options);
}

std::shared_ptr<Evaluator> make_model_evaluator(const GamePtr& game, const std::string& path,
                                                const ModelOptions& options) {
  return load_model_evaluator(game, path, options).evaluator;
}

}  // namespace pincer::serve
