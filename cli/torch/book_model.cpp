// Installs the network evaluator of `pincer book build --model` (cli/book_model.h).
#include "cli/book_model.h"

#include "nn/model.h"
#include "train/net_player.h"

namespace pincer::cli {
namespace {

struct RegisterBookModel {
  RegisterBookModel() {
    book_model_factory() = [](const GamePtr& game, const std::string& path,
                              const std::string& device, std::string& model_id) {
      model_id = Model::read_metadata(path).model_id();
      return std::static_pointer_cast<Evaluator>(shared_inference_service(game, path, device));
    };
  }
} register_book_model;

}  // namespace
}  // namespace pincer::cli
