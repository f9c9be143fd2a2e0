// Atomic file writes: the bytes go to a temporary file beside the target, are flushed to disk,
// and the temporary is renamed over the target. A reader sees the old file or the new one, never
// a half-written one, even if the writer is killed.
#pragma once

#include <string>

namespace pincer {

// Writes `bytes` to `path` atomically; throws std::runtime_error naming the path on failure.
void atomic_write_file(const std::string& path, const std::string& bytes);
// Reads a whole file; throws std::runtime_error naming the path when it cannot.
std::string read_whole_file(const std::string& path);
// Atomically replaces `to` with a copy of `from`.
void atomic_copy_file(const std::string& from, const std::string& to);

}  // namespace pincer
