#include "book/stats.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include "engine/record.h"

namespace pincer::book {

std::pair<double, double> wilson_interval(uint64_t k, uint64_t n, double z) {
  if (n == 0) return {0.0, 1.0};
  const double p = double(k) / double(n), nn = double(n), z2 = z * z;
  const double centre = (p + z2 / (2 * nn)) / (1 + z2 / nn);
  const double half = z * std::sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn)) / (1 + z2 / nn);
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

void add_result(GameStats& s, bool finished, int winner) {
  s.set_games(s.games() + 1);
  if (!finished) return;
  if (winner == 0) s.set_wins0(s.wins0() + 1);
  if (winner == 1) s.set_wins1(s.wins1() + 1);
  if (winner < 0) s.set_draws(s.draws() + 1);
}

void add_stats(GameStats& into, const GameStats& from) {
  into.set_games(into.games() + from.games());
  into.set_wins0(into.wins0() + from.wins0());
  into.set_wins1(into.wins1() + from.wins1());
  into.set_draws(into.draws() + from.draws());
}

void add_mover_stats(MoverStats& into, const MoverStats& from) {
  into.set_games(into.games() + from.games());
  into.set_wins(into.wins() + from.wins());
  into.set_draws(into.draws() + from.draws());
  into.set_losses(into.losses() + from.losses());
}

void add_mover_result(MoverStats& s, int mover, bool finished, int winner) {
  s.set_games(s.games() + 1);
  if (!finished) return;
  // As add_result: a winner other than 0, 1 or a draw (none today) counts as no result.
  if (winner < 0) {
    s.set_draws(s.draws() + 1);
  } else if (winner == mover) {
    s.set_wins(s.wins() + 1);
  } else if (winner == 1 - mover) {
    s.set_losses(s.losses() + 1);
  }
}

void StatsCollector::add_game(const State& start, const std::vector<Action>& actions, bool finished,
                              int winner) {
  ++games_;
  add_mover_result(every_start_, start.to_move(), finished, winner);
  start_hashes_.insert(start.hash());
  std::unordered_set<uint64_t> seen;
  std::unique_ptr<State> state = start.clone();
  for (size_t ply = 0; ply <= actions.size() && static_cast<int>(ply) <= options_.max_plies;
       ++ply) {
    const uint64_t hash = state->hash();
    const bool first = seen.insert(hash).second;
    Entry& e = entries_[hash];
    if (e.text.empty()) e.text = state->to_text(), e.to_move = state->to_move();
    if (first) add_result(e.stats, finished, winner);
    if (ply == actions.size() || static_cast<int>(ply) == options_.max_plies) break;
    const Action a = actions[ply];
    std::pair<BookMove, GameStats>* move = nullptr;
    for (auto& m : e.moves) {
      if (m.first.action() == a) move = &m;
    }
    if (!move) {
      e.moves.emplace_back();
      move = &e.moves.back();
      move->first.set_action(a);
      move->first.set_text(game_.action_text(*state, a, true));
    }
    state->apply(a);
    move->first.set_child_hash(state->hash());
    if (first) add_result(move->second, finished, winner);
  }
}

int StatsCollector::add_sgn(const std::string& text, const std::string& origin,
                            std::vector<std::string>& errors) {
  std::vector<SgnRecord> records;
  try {
    records = parse_sgn(text);
  } catch (const std::exception& e) {
    errors.push_back(origin + ": " + e.what());
    return 0;
  }
  int added = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    try {
      const ReplayedGame g = replay_record(records[i]);
      if (g.game->fingerprint() != game_.fingerprint()) {
        throw GameError("played under " + g.game->ruleset_name() + " (fingerprint " +
                        g.game->fingerprint() + "), not " + game_.ruleset_name() +
                        " (fingerprint " + game_.fingerprint() + ")");
      }
      const Outcome o = g.final->outcome();
      add_game(*g.start, g.actions, o.over, o.winner);
      ++added;
    } catch (const std::exception& e) {
      errors.push_back(origin + ": game " + std::to_string(i + 1) + " (line " +
                       std::to_string(records[i].first_line) + "): " + e.what());
    }
  }
  return added;
}

void StatsCollector::add_record(const GameRecord& record) {
  if (record.has_reanalysis()) return;  // the game it repeats counts once, as itself
  if (record.fingerprint() != game_.fingerprint()) {
    throw GameError("a record played under " + record.ruleset_name() + " (fingerprint " +
                    record.fingerprint() + "), not " + game_.ruleset_name() + " (fingerprint " +
                    game_.fingerprint() + ")");
  }
  std::unique_ptr<State> start = game_.parse_start(record.start());
  std::unique_ptr<State> state = start->clone();
  std::vector<Action> actions;
  std::vector<Action> legal;
  for (const MoveRecord& m : record.moves()) {
    state->legal_actions(legal);
    if (std::find(legal.begin(), legal.end(), m.action()) == legal.end()) {
      throw GameError("move " + std::to_string(actions.size() + 1) + " (action " +
                      std::to_string(m.action()) + ") is illegal");
    }
    state->apply(m.action());
    actions.push_back(m.action());
  }
  add_game(*start, actions, true, record.winner() < 0 ? -1 : record.winner());
}

void StatsCollector::merge_into(OpeningBook& book) const {
  for (const auto& [hash, e] : entries_) {
    BookPosition* pos = book.find(hash);
    if (!pos) {
      if (e.stats.games() < options_.min_games) continue;
      pos = &book.at_hash(hash, e.text, e.to_move);
    }
    add_stats(*pos->mutable_stats(), e.stats);
    for (const auto& [move, stats] : e.moves) {
      BookMove* target = nullptr;
      for (BookMove& m : *pos->mutable_moves()) {
        if (m.action() == move.action()) target = &m;
      }
      if (!target) {
        target = pos->add_moves();
        *target = move;
        target->clear_stats();
      }
      add_stats(*target->mutable_stats(), stats);
    }
  }
  BookHeader& header = book.header();
  header.set_records_read(header.records_read() + games_);
  add_mover_stats(*header.mutable_every_start(), every_start_);
  // The union of the book's starts and these games', sorted (equal books give equal files).
  std::vector<uint64_t> starts(header.start_hashes().begin(), header.start_hashes().end());
  starts.insert(starts.end(), start_hashes_.begin(), start_hashes_.end());
  std::sort(starts.begin(), starts.end());
  starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
  header.mutable_start_hashes()->Assign(starts.begin(), starts.end());
}

}  // namespace pincer::book
