#include "nn/model_file.h"

#include <google/protobuf/text_format.h>
#include <zip.h>

#include <filesystem>
#include <memory>
#include <vector>

#include "engine/atomic_file.h"
#include "engine/checked_file.h"
#include "nn/model.h"

namespace pincer {
namespace {

// Reads every record of the zip archive `bytes` (a bare torch archive) to its end, so that libzip
// checks each one's CRC-32: the only check a model file written before checked files carries
// (torch's reader skips it). Throws ModelError "<what> is damaged (...)".
void check_zip_records(const std::string& bytes, const std::string& what) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* source = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &error);
  zip_t* archive =
      source ? zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error) : nullptr;
  if (!archive) {
    const std::string why = zip_error_strerror(&error);
    if (source) zip_source_free(source);
    zip_error_fini(&error);
    throw ModelError(what + " is damaged (" + why + ")");
  }
  zip_error_fini(&error);
  const std::unique_ptr<zip_t, void (*)(zip_t*)> close(archive, zip_discard);
  std::vector<char> buffer(1 << 16);
  const zip_int64_t records = zip_get_num_entries(archive, 0);
  for (zip_int64_t i = 0; i < records; ++i) {
    zip_file_t* record = zip_fopen_index(archive, static_cast<zip_uint64_t>(i), 0);
    if (!record) throw ModelError(what + " is damaged (" + zip_strerror(archive) + ")");
    zip_int64_t n;
    while ((n = zip_fread(record, buffer.data(), buffer.size())) > 0) {
    }
    const std::string why = n < 0 ? zip_file_strerror(record) : "";
    zip_fclose(record);
    if (n < 0) {
      const char* name = zip_get_name(archive, static_cast<zip_uint64_t>(i), 0);
      throw ModelError(what + " is damaged (record " + (name ? name : "?") + ": " + why + ")");
    }
  }
}

}  // namespace

std::string read_model_file_bytes(const std::string& path, const std::string& what) {
  if (!std::filesystem::exists(path)) throw ModelError(what + " does not exist");
  try {
    return read_whole_file(path);
  } catch (const std::exception& e) {
    throw ModelError("cannot read " + what + ": " + e.what());
  }
}

void write_metadata_copy(const std::string& model_path, const ModelMetadata& meta) {
  std::string text;
  google::protobuf::TextFormat::PrintToString(meta, &text);
  atomic_write_file(Model::metadata_path(model_path),
                    "# Metadata of " + std::filesystem::path(model_path).filename().string() +
                        " (informational; the model file holds the authoritative copy)\n" + text);
}

ConvertResult convert_model_file(const std::string& in, const std::string& out, const Game& game) {
  const std::string what = "model file " + in;
  const std::string bytes = read_model_file_bytes(in, what);
  const Unwrapped file = unwrap_checked(bytes, CheckedKind::model);
  if (!file.ok) throw ModelError(what + " " + file.error);
  // Every byte checked before anything is written: the zip's CRCs, then the model as torch and
  // Model::load read it (metadata, architecture, every tensor's shape).
  if (file.legacy) check_zip_records(bytes, what);
  const auto model = Model::load(in, game);
  const bool same = std::filesystem::exists(out) && std::filesystem::equivalent(in, out);
  if (!file.legacy) {
    if (!same) {
      atomic_write_file(out, bytes);
      write_metadata_copy(out, model->metadata());
    }
    return ConvertResult::already_checked;
  }
  atomic_write_file(out, wrap_checked(file.payload, CheckedKind::model));
  write_metadata_copy(out, model->metadata());
  return ConvertResult::converted;
}

}  // namespace pincer
