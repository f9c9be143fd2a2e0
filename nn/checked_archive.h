// Torch archives inside checked files (engine/checked_file.h): model files and trainer checkpoints
// are refused when cut, damaged or of the other kind before torch's archive reader sees a byte.
#pragma once

#include <torch/serialize/input-archive.h>
#include <torch/serialize/output-archive.h>

#include <string>

#include "engine/checked_file.h"

namespace pincer {

// Reads `path` as a checked file of `kind` and opens the torch archive inside. Throws ModelError
// naming the path when the file is missing, cut, damaged, of another kind, or torch refuses it. A
// bare torch archive written before checked files loads unchecked, with a warning.
torch::serialize::InputArchive read_checked_archive(const std::string& path, CheckedKind kind);

// The same over bytes already read (`what` names them in errors: "trainer checkpoint X").
torch::serialize::InputArchive read_checked_archive_bytes(const std::string& bytes,
                                                          CheckedKind kind,
                                                          const std::string& what);

// `archive` serialized behind a checked header.
std::string checked_archive_bytes(torch::serialize::OutputArchive& archive, CheckedKind kind);

// Serializes `archive` behind a checked header and writes it to `path` atomically.
void write_checked_archive(torch::serialize::OutputArchive& archive, CheckedKind kind,
                           const std::string& path);

}  // namespace pincer
