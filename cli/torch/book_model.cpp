// Installs the network evaluator of `pincer book build --model` and the record chunk reader of
// `pincer book stats` (cli/book_model.h).
#include "cli/book_model.h"

#include "nn/model.h"
#include "train/net_player.h"
#include "train/records.h"

namespace pincer::cli {
namespace {

struct RegisterBookModel {
  RegisterBookModel() {
    book_model_factory() = [](const GamePtr& game, const std::string& path,
                              const std::string& device, std::string& model_id) {
      model_id = Model::read_metadata(path).model_id();
      return std::static_pointer_cast<Evaluator>(shared_inference_service(game, path, device));
    };
    book_chunk_reader() = [](const std::string& path, const Game& game) {
      return read_record_chunk(path, game);
    };
  }
} register_book_model;

}  // namespace
}  // namespace pincer::cli
