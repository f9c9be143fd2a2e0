#include "train/reanalyse.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <filesystem>

#include "engine/clock.h"
#include "nn/model.h"
#include "store/records.h"

namespace pincer {

bool reanalysable(const std::string& chunk, const GameRecord& record) {
  return !record.has_reanalysis() && !record.has_expert_player() && record.moves_size() > 0 &&
         chunk.find("-warmstart-") == std::string::npos;
}

void record_search(const mcts::SearchResult& r, bool improved_root_value, MoveRecord& m) {
  m.set_full_search(r.full_search);
  m.set_simulations(r.simulations);
  m.set_root_value(improved_root_value && r.improved_value >= 0 ? r.improved_value
                                                                : r.wdl[0] + 0.5f * r.wdl[1]);
  if (r.full_search) {
    const auto& target = r.policy_target();
    for (size_t k = 0; k < r.actions.size(); ++k) {
      m.add_policy_actions(r.actions[k]);
      m.add_policy(target[k]);
    }
  }
}

GameReanalysis::GameReanalysis(const Game& game, GameRecord original, const std::string& chunk,
                               int index, const std::string& model_id)
    : record_(std::move(original)) {
  const std::string name = "game " + std::to_string(index + 1) + " of " + chunk;
  if (record_.moves_size() == 0) throw RecordError(name + ": no moves to reanalyse");
  try {
    replay_record(game, record_, [](const State&, int) {});
  } catch (const RecordError& e) {
    throw RecordError(name + ": " + e.what());
  }
  state_ = record_.start().empty() ? game.initial_state() : game.parse_state(record_.start());
  Reanalysis& of = *record_.mutable_reanalysis();
  of.set_chunk(chunk);
  of.set_game(index);
  of.set_original_model_id(record_.model_id());
  record_.set_model_id(model_id);
  record_.clear_finished_unix_ms();
}

void GameReanalysis::record(const mcts::SearchResult& r, bool improved_root_value) {
  if (done()) throw std::logic_error("GameReanalysis::record after the game's last move");
  MoveRecord& m = *record_.mutable_moves(ply_);
  m.clear_policy_actions();
  m.clear_policy();
  record_search(r, improved_root_value, m);
  state_->apply(m.action());
  ++ply_;
}

GameRecord GameReanalysis::take() {
  if (!done()) throw std::logic_error("GameReanalysis::take before the game's last move");
  record_.set_finished_unix_ms(unix_ms_now());
  return std::move(record_);
}

ReanalysePool::ReanalysePool(GamePtr game, std::string records_dir, int64_t positions,
                             double refresh_seconds)
    : game_(std::move(game)),
      dir_(std::move(records_dir)),
      positions_(positions),
      refresh_seconds_(refresh_seconds) {}

void ReanalysePool::refresh_locked() {
  // Newest chunk first, until the positions are counted: older chunks are out of reach (and
  // never read, so a long run's first look does not read all its records).
  struct Mark {
    std::string chunk;
    int index;
    std::string model_id;
  };
  std::vector<Mark> marks;  // reanalyses found: applied once their games are in
  const std::vector<std::string> names = list_record_chunks(dir_);
  int64_t total = 0;
  std::set<std::string> kept;
  for (auto it = names.rbegin(); it != names.rend(); ++it) {
    const std::string& name = *it;
    if (total >= positions_) break;
    if (const auto known = chunks_.find(name); known != chunks_.end()) {
      total += known->second.positions;
      kept.insert(name);
      continue;
    }
    if (seen_.count(name)) continue;  // unreadable, or left behind earlier
    seen_.insert(name);
    RecordChunk chunk;
    try {
      chunk = read_record_chunk((std::filesystem::path(dir_) / name).string(), *game_);
    } catch (const RecordError& e) {
      spdlog::warn("reanalyse skips a record chunk: {}", e.what());
      continue;
    }
    Chunk c;
    for (int i = 0; i < chunk.games_size(); ++i) {
      const GameRecord& g = chunk.games(i);
      if (g.has_reanalysis()) {
        marks.push_back({g.reanalysis().chunk(), g.reanalysis().game(), g.model_id()});
        continue;
      }
      c.positions += g.moves_size();
      if (reanalysable(name, g)) c.games.push_back({i, g.model_id(), ""});
    }
    total += c.positions;
    chunks_[name] = std::move(c);
    kept.insert(name);
  }
  for (auto it = chunks_.begin(); it != chunks_.end();) {
    if (kept.count(it->first)) {
      ++it;
    } else {
      seen_.insert(it->first);
      it = chunks_.erase(it);
    }
  }
  // Marks oldest first: the newest reanalysis of a game is the one that counts.
  for (auto m = marks.rbegin(); m != marks.rend(); ++m) {
    const auto c = chunks_.find(m->chunk);
    if (c == chunks_.end()) continue;
    for (Entry& e : c->second.games) {
      if (e.index == m->index) e.reanalysed_by = m->model_id;
    }
  }
}

std::optional<ReanalysePool::Pick> ReanalysePool::pick(Rng& rng, const std::string& model_id) {
  std::lock_guard<std::mutex> lock(mu_);
  const double now = steady_seconds();
  if (now - last_refresh_ >= refresh_seconds_) {
    refresh_locked();
    last_refresh_ = now;
  }
  std::vector<std::pair<const std::string*, Entry*>> candidates;
  for (auto& [name, chunk] : chunks_) {
    for (Entry& e : chunk.games) {
      if (e.played_by != model_id && e.reanalysed_by != model_id) {
        candidates.emplace_back(&name, &e);
      }
    }
  }
  if (candidates.empty()) return std::nullopt;
  const auto& [name, entry] = candidates[rng.below(static_cast<uint32_t>(candidates.size()))];
  entry->reanalysed_by = model_id;
  return Pick{*name, entry->index};
}

GameRecord ReanalysePool::read(const Pick& pick) const {
  RecordChunk chunk =
      read_record_chunk((std::filesystem::path(dir_) / pick.chunk).string(), *game_);
  if (pick.index < 0 || pick.index >= chunk.games_size()) {
    throw RecordError(pick.chunk + ": no game " + std::to_string(pick.index + 1));
  }
  return std::move(*chunk.mutable_games(pick.index));
}

size_t ReanalysePool::games() const {
  std::lock_guard<std::mutex> lock(mu_);
  size_t n = 0;
  for (const auto& [name, chunk] : chunks_) n += chunk.games.size();
  return n;
}

}  // namespace pincer
