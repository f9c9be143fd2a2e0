#include "store/records.h"

#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>

#include "engine/atomic_file.h"

namespace fs = std::filesystem;

namespace pincer {

std::string zstd_compress(const std::string& bytes, int level) {
  std::string out(ZSTD_compressBound(bytes.size()), '\0');
  const size_t n = ZSTD_compress(out.data(), out.size(), bytes.data(), bytes.size(), level);
  if (ZSTD_isError(n)) throw RecordError(std::string("zstd: ") + ZSTD_getErrorName(n));
  out.resize(n);
  return out;
}

std::string zstd_decompress(const std::string& bytes, const std::string& origin) {
  const unsigned long long size = ZSTD_getFrameContentSize(bytes.data(), bytes.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN) {
    throw RecordError(origin + ": not a zstd-compressed record chunk");
  }
  if (size > kMaxChunkBytes) {
    throw RecordError(origin + ": damaged record chunk: its header claims " + std::to_string(size) +
                      " bytes uncompressed, more than the " + std::to_string(kMaxChunkBytes >> 20) +
                      " MiB a chunk may hold");
  }
  std::string out(size, '\0');
  const size_t n = ZSTD_decompress(out.data(), out.size(), bytes.data(), bytes.size());
  if (ZSTD_isError(n) || n != size) {
    throw RecordError(origin + ": damaged record chunk (" +
                      (ZSTD_isError(n) ? ZSTD_getErrorName(n) : "short") + ")");
  }
  return out;
}

std::string write_record_chunk(const std::string& dir, const Game& game,
                               const std::vector<GameRecord>& games, const std::string& writer) {
  static std::atomic<uint64_t> seq{0};
  fs::create_directories(dir);
  RecordChunk chunk;
  chunk.set_game(game.game_name());
  chunk.set_ruleset_name(game.ruleset_name());
  chunk.set_fingerprint(game.fingerprint());
  for (const GameRecord& g : games) *chunk.add_games() = g;
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  char name[128];
  std::snprintf(name, sizeof name, "%013lld-%s-%06llu.chunk", static_cast<long long>(ms),
                writer.c_str(), static_cast<unsigned long long>(seq.fetch_add(1)));
  const std::string path = (fs::path(dir) / name).string();
  atomic_write_file(path, zstd_compress(chunk.SerializeAsString()));
  return path;
}

RecordChunk read_record_chunk(const std::string& path, const Game& game) {
  std::string bytes;
  try {
    bytes = read_whole_file(path);
  } catch (const std::exception& e) {
    throw RecordError(e.what());
  }
  return parse_record_chunk(bytes, path, game);
}

RecordChunk parse_record_chunk(const std::string& bytes, const std::string& path,
                               const Game& game) {
  RecordChunk chunk;
  if (!chunk.ParseFromString(zstd_decompress(bytes, path))) {
    throw RecordError(path + ": damaged record chunk");
  }
  auto refuse = [&](const std::string& fp, const std::string& name) {
    throw RecordError(path + ": records made under ruleset " + name + " (fingerprint " + fp +
                      "), but the game here is " + game.ruleset_name() + " (fingerprint " +
                      game.fingerprint() + "); refusing to read them");
  };
  if (chunk.fingerprint() != game.fingerprint() || chunk.game() != game.game_name()) {
    refuse(chunk.fingerprint(), chunk.ruleset_name());
  }
  for (const GameRecord& g : chunk.games()) {
    if (g.fingerprint() != game.fingerprint()) refuse(g.fingerprint(), g.ruleset_name());
  }
  return chunk;
}

std::vector<std::string> list_record_chunks(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return names;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.size() > 6 &&
        name.compare(name.size() - 6, 6, ".chunk") == 0) {
      names.push_back(name);
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace pincer
