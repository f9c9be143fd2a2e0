// Model files on disk beyond loading and saving (nn/model.h): the informational metadata copy
// beside a model file, and the conversion of model files written before checked files (a bare
// torch archive, engine/checked_file.h) to the checked format.
#pragma once

#include <string>

#include "engine/game.h"
#include "proto/model.pb.h"

namespace pincer {

// The bytes of `path`; a ModelError "<what> does not exist" or "cannot read <what>: why" else
// (`what` names the file: "model file X").
std::string read_model_file_bytes(const std::string& path, const std::string& what);

// Writes `meta` as text to Model::metadata_path(model_path), atomically.
void write_metadata_copy(const std::string& model_path, const ModelMetadata& meta);

enum class ConvertResult { converted, already_checked };

// Converts the model file `in` for `game` to the checked format at `out` (`out` may be `in`),
// atomically, with its metadata copy beside it. The torch archive is kept byte for byte: only the
// header is added. Before anything is written the whole file is loaded as a model for `game`
// (metadata, architecture and every tensor, whose CRCs torch's reader checks), so that a cut or
// damaged file is refused with a ModelError naming it and `out` is left as it was. A file already
// checked is verified the same way and copied (nothing written when `out` is `in`).
ConvertResult convert_model_file(const std::string& in, const std::string& out, const Game& game);

}  // namespace pincer
