// Checked files: a payload behind a 32-byte header that names what the file is and holds the
// payload's length and XXH64, so that a reader refuses a cut, damaged or mistaken file before any
// parser (torch's archive reader for model files and trainer checkpoints) sees its bytes.
//
// Header (little-endian): 8 bytes magic "\x89PINCER\n", u32 header version (1), u32 kind,
// u64 payload length, u64 XXH64 (seed 0) of the payload; then the payload, nothing after it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pincer {

enum class CheckedKind : uint32_t { model = 1, trainer_checkpoint = 2 };

constexpr size_t kCheckedHeaderSize = 32;

// "model file" or "trainer checkpoint".
const char* checked_kind_name(CheckedKind kind);

// The header followed by `payload`.
std::string wrap_checked(std::string_view payload, CheckedKind kind);

struct Unwrapped {
  std::string_view payload;  // into the bytes given; empty unless ok
  bool ok = false;
  bool legacy = false;  // a bare torch archive written before checked files (no header, no hash)
  std::string error;    // when !ok, why, to follow a file name: "is cut short (...)"
};

// Checks `bytes` as a checked file of `kind`. A file without the header is refused, except a bare
// torch archive (zip magic "PK\3\4"), which comes back whole with legacy = true.
Unwrapped unwrap_checked(std::string_view bytes, CheckedKind kind);

}  // namespace pincer
