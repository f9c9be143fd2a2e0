#include "train/window.h"

#include <algorithm>
#include <cmath>

#include "store/records.h"

namespace pincer {
namespace {

// The policy target of one move, checked: every action legal in `state`, its policy index inside
// the network's action space, shares finite and non-negative. Throws RecordError.
void policy_target(const Game& game, const State& state, const MoveRecord& m, int move,
                   std::vector<Action>& legal, Sample& s) {
  if (!m.full_search() || (m.policy_actions_size() == 0 && m.policy_size() == 0)) return;
  auto bad = [&](const std::string& why) {
    throw RecordError("record: move " + std::to_string(move + 1) + ": " + why + " in " +
                      state.to_text());
  };
  if (m.policy_actions_size() != m.policy_size()) {
    bad(std::to_string(m.policy_actions_size()) + " policy actions but " +
        std::to_string(m.policy_size()) + " policy shares");
  }
  state.legal_actions(legal);
  const int actions = game.num_actions();
  s.policy_index.reserve(m.policy_actions_size());
  for (int k = 0; k < m.policy_actions_size(); ++k) {
    const Action a = m.policy_actions(k);
    if (std::find(legal.begin(), legal.end(), a) == legal.end()) {
      bad("policy action " + std::to_string(a) + " is not a legal move");
    }
    const int index = state.policy_index(a);
    if (index < 0 || index >= actions) {
      bad("policy action " + std::to_string(a) + " has policy index " + std::to_string(index) +
          " outside [0, " + std::to_string(actions) + ")");
    }
    const float share = m.policy(k);
    if (!std::isfinite(share) || share < 0) bad("policy share " + std::to_string(share));
    s.policy_index.push_back(index);
  }
  s.policy.assign(m.policy().begin(), m.policy().end());
}

// The search's judgement recorded with a move: its alpha-beta value where self-play recorded one,
// else the root value.
float recorded_value(const MoveRecord& m) {
  return m.has_alphabeta_value() ? m.alphabeta_value() : m.root_value();
}

// The record's final points, or where it has none those of the final position.
std::array<int, 2> record_final_points(const GameRecord& record, const State& final_state) {
  if (record.final_points_size() == 2) return {record.final_points(0), record.final_points(1)};
  if (record.final_points_size() != 0) {
    throw RecordError("record: " + std::to_string(record.final_points_size()) +
                      " final points (expected 2)");
  }
  return final_state.points();
}

}  // namespace

std::array<float, 3> value_target(const GameRecord& record, int to_move, float root_value,
                                  double root_value_weight, std::optional<float> cut_score) {
  std::array<float, 3> result{0, 1, 0};
  if (record.winner() >= 0) {
    result =
        record.winner() == to_move ? std::array<float, 3>{1, 0, 0} : std::array<float, 3>{0, 0, 1};
  } else if (cut_score) {
    const float q = std::clamp(to_move == 0 ? *cut_score : 1 - *cut_score, 0.0f, 1.0f);
    result = {std::max(0.0f, 2 * q - 1), 1 - std::abs(2 * q - 1), std::max(0.0f, 1 - 2 * q)};
  }
  if (root_value_weight <= 0) return result;
  const float q = std::isfinite(root_value) ? std::clamp(root_value, 0.0f, 1.0f) : 0.5f;
  const std::array<float, 3> searched{q, 0, 1 - q};
  const float w = static_cast<float>(root_value_weight);
  std::array<float, 3> out;
  for (int k = 0; k < 3; ++k) out[k] = (1 - w) * result[k] + w * searched[k];
  return out;
}

std::optional<float> cut_game_score(const GameRecord& record, const std::vector<int>& movers) {
  if (record.winner() >= 0 || record.reason() != "max_moves") return std::nullopt;
  const int n = std::min<int>(record.moves_size(), static_cast<int>(movers.size()));
  double sum = 0;
  int counted = 0;
  for (int i = std::max(0, n - kCutGamePositions); i < n; ++i) {
    const MoveRecord& m = record.moves(i);
    const float q = recorded_value(m);
    // A move without a search (no simulations, no alpha-beta value) has no judgement to give.
    if (!std::isfinite(q) || (!m.has_alphabeta_value() && m.simulations() <= 0)) continue;
    const float clamped = std::clamp(q, 0.0f, 1.0f);
    sum += movers[i] == 0 ? clamped : 1 - clamped;
    ++counted;
  }
  if (counted == 0) return std::nullopt;
  return static_cast<float>(sum / counted);
}

std::vector<std::array<float, 3>> Window::value_targets(const GameRecord& record,
                                                        const std::vector<int>& movers) const {
  const std::optional<float> cut =
      cut_games_from_root_ ? cut_game_score(record, movers) : std::nullopt;
  std::vector<std::array<float, 3>> out;
  out.reserve(movers.size());
  for (size_t i = 0; i < movers.size(); ++i) {
    out.push_back(value_target(record, movers[i], recorded_value(record.moves(static_cast<int>(i))),
                               root_value_weight_, cut));
  }
  return out;
}

void set_aux_targets(const Game& game, const GameRecord& record, const State& final_state,
                     int ownership_plies, Sample* samples, size_t n) {
  const std::array<int, 2> final_points = record_final_points(record, final_state);
  for (size_t i = 0; i < n; ++i) {
    Sample& s = samples[i];
    const int us = s.state->to_move();
    s.points = static_cast<float>(final_points[us] - final_points[us ^ 1]);
  }
  if (ownership_plies <= 0 || n == 0) return;
  const InputShape shape = game.input_shape();
  std::vector<float> cells(static_cast<size_t>(shape.height) * shape.width);
  for (size_t i = 0; i < n; ++i) {
    const size_t later = i + static_cast<size_t>(ownership_plies);
    const State& future = later < n ? *samples[later].state : final_state;
    if (!future.ownership(samples[i].state->to_move(), cells.data())) return;  // none provided
    // Stored as int8 (+1, -1, 0): a 64-cell board costs 64 bytes per position.
    samples[i].ownership.assign(cells.size(), 0);
    for (size_t c = 0; c < cells.size(); ++c) {
      samples[i].ownership[c] = static_cast<int8_t>(cells[c] > 0.5f    ? 1
                                                    : cells[c] < -0.5f ? -1
                                                                       : 0);
    }
  }
}

std::string record_game_key(const std::string& chunk, int index) {
  return chunk + '#' + std::to_string(index);
}

int Window::add_game(const Game& game, const GameRecord& record, const std::string& key) {
  // Everything is checked before the window changes: a bad record adds nothing.
  std::vector<Sample> added;
  std::vector<int> movers;
  std::vector<Action> legal;
  replay_record(game, record, [&](const State& state, int i) {
    Sample s;
    s.state = state.clone();
    policy_target(game, state, record.moves(i), i, legal, s);
    movers.push_back(state.to_move());
    added.push_back(std::move(s));
  });
  const std::vector<std::array<float, 3>> wdl = value_targets(record, movers);
  for (size_t i = 0; i < added.size(); ++i) added[i].wdl = wdl[i];
  // The position after the last move (replay_record has checked that move).
  std::unique_ptr<State> final_state;
  if (!added.empty()) {
    final_state = added.back().state->clone();
    final_state->apply(record.moves(record.moves_size() - 1).action());
  } else {
    final_state = record.start().empty() ? game.initial_state() : game.parse_state(record.start());
  }
  set_aux_targets(game, record, *final_state, ownership_plies_, added.data(), added.size());
  if (!key.empty() && !added.empty()) {
    GameSpan span;
    span.first = dropped_ + samples_.size();
    span.count = static_cast<int>(added.size());
    span.winner = record.winner();
    spans_[key] = span;
    span_order_.push_back(key);
  }
  for (Sample& s : added) samples_.push_back(std::move(s));
  while (samples_.size() > capacity_) drop_front();
  return static_cast<int>(added.size());
}

void Window::drop_front() {
  samples_.pop_front();
  ++dropped_;
  // Spans whose every position has left are forgotten (a key added again since is kept).
  while (!span_order_.empty()) {
    const auto it = spans_.find(span_order_.front());
    if (it != spans_.end() && it->second.first + it->second.count > dropped_) break;
    if (it != spans_.end()) spans_.erase(it);
    span_order_.pop_front();
  }
}

int Window::apply_reanalysis(const Game& game, const GameRecord& record) {
  const Reanalysis& of = record.reanalysis();
  const std::string name =
      "reanalysis of game " + std::to_string(of.game() + 1) + " of " + of.chunk();
  if (!record.has_reanalysis()) throw RecordError("record: not a reanalysis");
  const auto it = spans_.find(record_game_key(of.chunk(), of.game()));
  if (it == spans_.end()) return 0;
  const GameSpan span = it->second;
  auto refuse = [&](const std::string& why) { throw RecordError(name + ": " + why); };
  if (record.moves_size() != span.count) {
    refuse(std::to_string(record.moves_size()) + " moves, but the game has " +
           std::to_string(span.count));
  }
  if (record.winner() != span.winner) {
    refuse("winner " + std::to_string(record.winner()) + ", but the game's is " +
           std::to_string(span.winner));
  }
  // Everything is checked before a target changes: a bad record replaces nothing.
  struct Fresh {
    Sample* old;
    Sample targets;
    int move;
  };
  std::vector<Fresh> fresh;
  std::vector<int> movers;  // every position's, for the cut game's result
  std::vector<Action> legal;
  try {
    replay_record(game, record, [&](const State& state, int i) {
      movers.push_back(state.to_move());
      const uint64_t serial = span.first + static_cast<uint64_t>(i);
      if (serial < dropped_) return;  // this position has left the window
      Sample& old = samples_[serial - dropped_];
      if (old.state->hash() != state.hash() || old.state->to_move() != state.to_move()) {
        refuse("the position before move " + std::to_string(i + 1) + " is " + state.to_text() +
               ", but the game's is " + old.state->to_text());
      }
      Sample s;
      policy_target(game, state, record.moves(i), i, legal, s);
      fresh.push_back({&old, std::move(s), i});
    });
  } catch (const RecordError& e) {
    const std::string what = e.what();
    if (what.rfind(name, 0) == 0) throw;
    refuse(what);
  }
  const std::vector<std::array<float, 3>> wdl = value_targets(record, movers);
  for (Fresh& f : fresh) {
    f.old->policy_index = std::move(f.targets.policy_index);
    f.old->policy = std::move(f.targets.policy);
    f.old->wdl = wdl[f.move];
  }
  return static_cast<int>(fresh.size());
}

}  // namespace pincer
