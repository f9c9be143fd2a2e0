#include "nn/checked_archive.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <sstream>

#include "engine/atomic_file.h"
#include "nn/model.h"
#include "nn/model_file.h"

namespace pincer {

torch::serialize::InputArchive read_checked_archive(const std::string& path, CheckedKind kind) {
  const std::string what = std::string(checked_kind_name(kind)) + " " + path;
  return read_checked_archive_bytes(read_model_file_bytes(path, what), kind, what);
}

torch::serialize::InputArchive read_checked_archive_bytes(const std::string& bytes,
                                                          CheckedKind kind,
                                                          const std::string& what) {
  const Unwrapped file = unwrap_checked(bytes, kind);
  if (!file.ok) throw ModelError(what + " " + file.error);
  if (file.legacy) {
    spdlog::warn("{} has no checksum header (written by an older pincer): loading it unchecked",
                 what);
  }
  torch::serialize::InputArchive archive;
  try {
    archive.load_from(file.payload.data(), file.payload.size(), torch::Device(torch::kCPU));
  } catch (const std::exception& e) {
    // torch's message without the backtrace it appends.
    const std::string why = e.what();
    throw ModelError("cannot read " + what + ": " +
                     why.substr(0, std::min(why.find('\n'), size_t{200})));
  }
  return archive;
}

std::string checked_archive_bytes(torch::serialize::OutputArchive& archive, CheckedKind kind) {
  std::ostringstream out;
  archive.save_to(out);
  return wrap_checked(out.str(), kind);
}

void write_checked_archive(torch::serialize::OutputArchive& archive, CheckedKind kind,
                           const std::string& path) {
  atomic_write_file(path, checked_archive_bytes(archive, kind));
}

}  // namespace pincer
