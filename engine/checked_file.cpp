#include "engine/checked_file.h"

#include <xxhash.h>

#include <cstring>

namespace pincer {

namespace {

constexpr char kMagic[8] = {'\x89', 'P', 'I', 'N', 'C', 'E', 'R', '\n'};
constexpr uint32_t kHeaderVersion = 1;
constexpr char kZipMagic[4] = {'P', 'K', '\3', '\4'};

void put(std::string& out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

uint64_t get(std::string_view in, size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= uint64_t{static_cast<unsigned char>(in[at + i])} << (8 * i);
  return v;
}

}  // namespace

const char* checked_kind_name(CheckedKind kind) {
  switch (kind) {
    case CheckedKind::model:
      return "model file";
    case CheckedKind::trainer_checkpoint:
      return "trainer checkpoint";
  }
  return "unknown kind of file";
}

std::string wrap_checked(std::string_view payload, CheckedKind kind) {
  std::string out(kMagic, sizeof kMagic);
  out.reserve(kCheckedHeaderSize + payload.size());
  put(out, kHeaderVersion, 4);
  put(out, static_cast<uint32_t>(kind), 4);
  put(out, payload.size(), 8);
  put(out, XXH64(payload.data(), payload.size(), 0), 8);
  out.append(payload);
  return out;
}

Unwrapped unwrap_checked(std::string_view bytes, CheckedKind kind) {
  Unwrapped r;
  if (bytes.size() >= sizeof kZipMagic && std::memcmp(bytes.data(), kZipMagic, 4) == 0) {
    r.ok = r.legacy = true;
    r.payload = bytes;
    return r;
  }
  if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) {
    r.error =
        bytes.size() < sizeof kMagic && bytes == std::string_view(kMagic, bytes.size())
            ? "is cut short (" + std::to_string(bytes.size()) + " bytes)"
            : std::string("is not a pincer ") + checked_kind_name(kind) + " (no pincer header)";
    return r;
  }
  if (bytes.size() < kCheckedHeaderSize) {
    r.error = "is cut short (" + std::to_string(bytes.size()) + " bytes, the header alone has " +
              std::to_string(kCheckedHeaderSize) + ")";
    return r;
  }
  const uint64_t version = get(bytes, 8, 4);
  if (version != kHeaderVersion) {
    r.error = "has header version " + std::to_string(version) + ", this build reads version " +
              std::to_string(kHeaderVersion) + " (written by a newer pincer, or damaged)";
    return r;
  }
  const uint64_t file_kind = get(bytes, 12, 4);
  if (file_kind != static_cast<uint32_t>(kind)) {
    const auto other = static_cast<CheckedKind>(file_kind);
    r.error = std::string("is a ") +
              (other == CheckedKind::model || other == CheckedKind::trainer_checkpoint
                   ? checked_kind_name(other)
                   : "file of unknown kind " + std::to_string(file_kind)) +
              ", not a " + checked_kind_name(kind);
    return r;
  }
  const uint64_t length = get(bytes, 16, 8);
  const uint64_t have = bytes.size() - kCheckedHeaderSize;
  if (length != have) {
    r.error = (length > have ? "is cut short (" : "has bytes after its end (") +
              std::to_string(have) + " payload bytes, the header says " + std::to_string(length) +
              ")";
    return r;
  }
  const std::string_view payload = bytes.substr(kCheckedHeaderSize);
  if (XXH64(payload.data(), payload.size(), 0) != get(bytes, 24, 8)) {
    r.error = "is damaged (checksum mismatch)";
    return r;
  }
  r.ok = true;
  r.payload = payload;
  return r;
}

}  // namespace pincer
