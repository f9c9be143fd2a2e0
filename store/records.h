// The record store: self-play games in chunk files under <run dir>/records/. A chunk
// (proto/record.proto RecordChunk, zstd-compressed) is written once, atomically, and never
// changed; its name sorts by creation time: <unix ms>-<writer>-<seq>.chunk. Chunks and records
// made under another ruleset fingerprint are refused when read, naming both fingerprints.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/game.h"
#include "proto/record.pb.h"

namespace pincer {

class RecordError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Writes `games` as one new chunk in `dir` (created if missing); returns its path.
std::string write_record_chunk(const std::string& dir, const Game& game,
                               const std::vector<GameRecord>& games, const std::string& writer);
// Reads a chunk for `game`; throws RecordError for a damaged file or another fingerprint (the
// chunk's or any record's).
RecordChunk read_record_chunk(const std::string& path, const Game& game);
// The same for a chunk file's bytes; `origin` names it in errors.
RecordChunk parse_record_chunk(const std::string& bytes, const std::string& origin,
                               const Game& game);
// Chunk file names (not paths) in `dir`, sorted; empty if `dir` does not exist.
std::vector<std::string> list_record_chunks(const std::string& dir);

// Replays a record from its start; throws RecordError if a move is illegal there.
// `visit(state, move_index)` is called before each move with the position it was played from.
template <typename F>
void replay_record(const Game& game, const GameRecord& record, F&& visit);

// Largest uncompressed chunk read: a header claiming more is refused before anything is
// allocated (a chunk holds games_per_chunk games of a few KiB each).
constexpr unsigned long long kMaxChunkBytes = 256ull << 20;

// zstd helpers (also used for checkpoints of the window state).
std::string zstd_compress(const std::string& bytes, int level = 3);
std::string zstd_decompress(const std::string& bytes, const std::string& origin);

template <typename F>
void replay_record(const Game& game, const GameRecord& record, F&& visit) {
  std::unique_ptr<State> state;
  try {
    state = record.start().empty() ? game.initial_state() : game.parse_state(record.start());
  } catch (const GameError& e) {
    throw RecordError("record of model " + record.model_id() + ": bad start position: " + e.what());
  }
  std::vector<Action> legal;
  for (int i = 0; i < record.moves_size(); ++i) {
    visit(*state, i);
    state->legal_actions(legal);
    const Action act = record.moves(i).action();
    bool ok = false;
    for (Action l : legal) ok |= (l == act);
    if (!ok) {
      throw RecordError("record of model " + record.model_id() + ": move " + std::to_string(i + 1) +
                        " (action " + std::to_string(act) + ") is illegal in " + state->to_text());
    }
    state->apply(act);
  }
}

}  // namespace pincer
