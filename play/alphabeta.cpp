#include "play/alphabeta.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cmath>
#include <cstdio>

#include "play/players.h"
#include "play/time_manager.h"

namespace pincer {

namespace {

constexpr int kInf = 2 * AlphaBeta::kWin;
enum Bound : uint8_t { kNoBound, kExact, kLower, kUpper };

// Move ordering keys: hash move, captures by net points, killers, history, then the moves whose
// captures cost the mover more than they take (negative capture points).
constexpr int kHashKey = 1 << 30;
constexpr int kCaptureKey = 1 << 29;
constexpr int kKillerKey = 1 << 28;
constexpr int kHistoryMax = 1 << 26;

int to_tt(int score, int ply) {
  if (score > AlphaBeta::kWin - 1000) return score + ply;
  if (score < -AlphaBeta::kWin + 1000) return score - ply;
  return score;
}

int from_tt(int score, int ply) {
  if (score > AlphaBeta::kWin - 1000) return score - ply;
  if (score < -AlphaBeta::kWin + 1000) return score + ply;
  return score;
}

// Late-move reduction in plies for the i-th move (0-based) at `depth`.
int reduction(int depth, int i, bool pv_node) {
  static const auto table = [] {
    std::array<std::array<int8_t, 64>, 64> t{};
    for (int d = 1; d < 64; ++d) {
      for (int m = 1; m < 64; ++m) {
        t[d][m] = static_cast<int8_t>(0.5 + std::log(d) * std::log(m + 1) / 2.2);
      }
    }
    return t;
  }();
  int r = table[std::min(depth, 63)][std::min(i, 63)] - (pv_node ? 1 : 0);
  return std::clamp(r, 1, depth - 2);
}

}  // namespace

AlphaBeta::AlphaBeta(const Game& game, AlphaBetaOptions options)
    : game_(game),
      heuristic_(heuristic_for(game)),
      options_(options),
      capture_(heuristic_, options.max_qdepth) {
  size_t entries = 1;
  const size_t want =
      static_cast<size_t>(std::max(1, options_.hash_mb)) * (1 << 20) / sizeof(TTEntry);
  while (entries * 2 <= want) entries *= 2;
  tt_.resize(entries);
  mask_ = entries - 1;
  options_.max_qdepth = std::clamp(options_.max_qdepth, 0, 32);
  history_.assign(game.num_actions(), 0);
  capture_.set_poll([this] {
    poll_time();
    return stopped_;
  });
  clear();
}

void AlphaBeta::clear() {
  std::fill(tt_.begin(), tt_.end(), TTEntry{});
  std::fill(history_.begin(), history_.end(), 0);
  for (auto& k : killers_) k[0] = k[1] = -1;
  age_ = 0;
}

void AlphaBeta::poll_time() {
  if (options_.stop && options_.stop->load(std::memory_order_relaxed)) {
    stopped_ = true;
    return;
  }
  if (options_.max_nodes > 0 && nodes_ + capture_.nodes() >= options_.max_nodes) stopped_ = true;
  if (options_.seconds <= 0) return;
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (elapsed >= options_.seconds) stopped_ = true;
}

void AlphaBeta::update_pv(int ply, Action a) {
  pv_[ply][0] = a;
  const int child = ply + 1 < kMaxPly ? pv_len_[ply + 1] : 0;
  for (int i = 0; i < child && i + 1 < kMaxPly; ++i) pv_[ply][i + 1] = pv_[ply + 1][i];
  pv_len_[ply] = std::min(child + 1, kMaxPly);
}

int AlphaBeta::quiesce(const State& s, int alpha, int beta, int ply, int qdepth) {
  pv_len_[ply] = 0;
  const int v = capture_.quiesce(s, alpha, beta, ply, qdepth);
  if (capture_.stopped()) stopped_ = true;
  return v;
}

int AlphaBeta::negamax(const State& s, int depth, int alpha, int beta, int ply) {
  const bool pv_node = beta - alpha > 1;
  if ((++nodes_ & 1023) == 0) poll_time();
  if (stopped_) return 0;
  pv_len_[ply] = 0;
  const Outcome o = s.outcome();
  if (o.over) return terminal_score(o, s.to_move(), ply);
  if (depth <= 0 || ply >= kMaxPly - options_.max_qdepth - 2) {
    --nodes_;  // counted again by quiesce
    return quiesce(s, alpha, beta, ply, 0);
  }
  // A win in fewer plies is already known: no need to look for a slower one.
  alpha = std::max(alpha, -(kWin - ply));
  beta = std::min(beta, kWin - ply - 1);
  if (alpha >= beta) return alpha;

  const uint64_t key = s.hash();
  TTEntry& entry = tt_[key & mask_];
  Action hash_move = -1;
  if (entry.key == key && entry.bound != kNoBound) {
    hash_move = entry.move;
    if (!pv_node && entry.depth >= depth) {
      const int score = from_tt(entry.score, ply);
      if (entry.bound == kExact || (entry.bound == kLower && score >= beta) ||
          (entry.bound == kUpper && score <= alpha)) {
        return score;
      }
    }
  }

  std::vector<Action>& moves = moves_[ply];
  std::vector<int>& caps = caps_[ply];
  std::vector<int>& keys = order_[ply];
  s.legal_actions(moves);
  heuristic_.capture_points(s, moves, caps);
  keys.resize(moves.size());
  for (size_t i = 0; i < moves.size(); ++i) {
    const Action a = moves[i];
    keys[i] = a == hash_move          ? kHashKey
              : caps[i] > 0           ? kCaptureKey + caps[i] * 1024 - static_cast<int>(i)
              : a == killers_[ply][0] ? kKillerKey + 1
              : a == killers_[ply][1] ? kKillerKey
              : caps[i] < 0           ? caps[i] - 1  // costs the mover more than it takes: last
                                      : history_[a];
  }

  // Near the horizon, a static value far from the window prunes: above beta by a margin the node
  // fails high at once; below alpha by a margin the quiet moves are skipped. The evaluation
  // sees immediate crown wins and pieces left to capture, which keeps this from missing them.
  bool futile = false;
  if (options_.selective && !pv_node && depth <= 3 && !is_win(alpha) && !is_win(beta)) {
    const int static_eval = heuristic_.evaluate(s);
    if (static_eval - 160 * depth >= beta) return static_eval - 160 * depth;
    futile = depth <= 2 && static_eval + 180 * depth <= alpha;
  }

  const int alpha0 = alpha;
  int best = -kInf;
  Action best_move = -1;
  for (size_t i = 0; i < moves.size(); ++i) {
    pick_next_move(moves, caps, keys, i);
    const Action a = moves[i];
    if (futile && i > 0 && caps[i] <= 0 && keys[i] < kKillerKey) continue;
    auto child = s.clone();
    child->apply(a);
    const bool same = child->to_move() == s.to_move();
    int v;
    if (i == 0) {
      v = child_value(*child, same, depth - 1, alpha, beta, ply + 1);
    } else {
      int r = 0;
      if (depth >= 3 && i >= 3 && caps[i] <= 0 && keys[i] < kKillerKey) {
        r = options_.selective ? reduction(depth, static_cast<int>(i), pv_node) : 1;
      }
      v = child_value(*child, same, depth - 1 - r, alpha, alpha + 1, ply + 1);
      if (v > alpha && r > 0 && !stopped_) {
        v = child_value(*child, same, depth - 1, alpha, alpha + 1, ply + 1);
      }
      if (v > alpha && v < beta && !stopped_) {
        v = child_value(*child, same, depth - 1, alpha, beta, ply + 1);
      }
    }
    if (stopped_) return 0;
    if (v > best) {
      best = v;
      best_move = a;
      if (v > alpha) {
        alpha = v;
        update_pv(ply, a);
        if (alpha >= beta) {
          if (caps[i] <= 0) {
            if (killers_[ply][0] != a) killers_[ply][1] = killers_[ply][0], killers_[ply][0] = a;
            history_[a] += depth * depth;
            if (history_[a] > kHistoryMax) {
              for (int& h : history_) h /= 2;
            }
          }
          break;
        }
      }
    }
  }

  if (entry.key != key || entry.age != age_ || depth >= entry.depth) {
    entry.key = key;
    entry.score = to_tt(best, ply);
    entry.move = best_move;
    entry.depth = static_cast<int16_t>(depth);
    entry.bound = best >= beta ? kLower : best > alpha0 ? kExact : kUpper;
    entry.age = age_;
  }
  return best;
}

SearchInfo AlphaBeta::search(const State& root) {
  start_ = std::chrono::steady_clock::now();
  nodes_ = 0;
  stopped_ = false;
  capture_.reset_nodes();
  capture_.resume();
  ++age_;
  for (auto& k : killers_) k[0] = k[1] = -1;

  SearchInfo info;
  std::vector<Action> moves;
  root.legal_actions(moves);
  if (moves.empty()) throw std::logic_error("alphabeta: no legal action");
  std::vector<int> caps;
  heuristic_.capture_points(root, moves, caps);
  // Initial order: captures by points, then as generated.
  std::vector<size_t> idx(moves.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](size_t x, size_t y) { return caps[x] > caps[y]; });
  std::vector<Action> order;
  for (size_t i : idx) order.push_back(moves[i]);
  info.best = order[0];
  if (order.size() == 1) {
    info.seconds = 0;
    return info;
  }

  const int max_depth =
      options_.max_depth > 0 ? std::min(options_.max_depth, kMaxPly / 2) : kMaxPly / 2;
  for (int depth = 1; depth <= max_depth; ++depth) {
    int alpha = -kInf;
    const int beta = kInf;
    Action iter_best = -1;
    int iter_score = -kInf;
    std::vector<Action> iter_pv;
    for (size_t i = 0; i < order.size(); ++i) {
      auto child = root.clone();
      child->apply(order[i]);
      const bool same = child->to_move() == root.to_move();
      int v;
      if (i == 0) {
        v = child_value(*child, same, depth - 1, alpha, beta, 1);
      } else {
        v = child_value(*child, same, depth - 1, alpha, alpha + 1, 1);
        if (v > alpha && !stopped_) v = child_value(*child, same, depth - 1, alpha, beta, 1);
      }
      if (stopped_) break;
      if (v > alpha) {
        alpha = v;
        iter_best = order[i];
        iter_score = v;
        iter_pv.assign(1, order[i]);
        for (int k = 0; k < pv_len_[1]; ++k) iter_pv.push_back(pv_[1][k]);
      }
    }
    if (iter_best >= 0 && (!stopped_ || iter_best != order[0])) {
      // A finished iteration, or a move that beat the previous best before time ran out.
      info.best = iter_best;
      info.score = iter_score;
      info.pv = iter_pv;
      if (!stopped_) info.depth = depth;
      auto it = std::find(order.begin(), order.end(), iter_best);
      std::rotate(order.begin(), it, it + 1);
    }
    if (stopped_) break;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (options_.seconds > 0 && elapsed > options_.seconds * 0.5) break;
    if (is_win(info.score) && kWin - std::abs(info.score) <= depth) break;
  }
  info.nodes = nodes_ + capture_.nodes();
  info.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  return info;
}

namespace {

class AlphaBetaPlayer : public Player {
 public:
  AlphaBetaPlayer(const Game& game, std::string spec, AlphaBetaOptions options)
      : game_(game),
        spec_(std::move(spec)),
        search_(game, options),
        seconds_(options.seconds),
        counts_points_(counts_points(game)) {}
  std::string spec() const override { return spec_; }
  void new_game() override { search_.clear(); }
  void set_time_left(double seconds) override { time_left_ = seconds; }
  Action choose(const State& state) override {
    if (time_left_ >= 0) {
      // Under a clock (play/time_manager.h): with little time left play for points; else think
      // a share of the time left (at most the spec's own time), more in a sharp position.
      const TimeControl tc;
      const double budget = move_time(tc, time_left_, sharpness(state));
      if ((counts_points_ && play_for_points(tc, time_left_)) || budget < tc.min_s) {
        last_ = SearchInfo{};
        last_.best = points_move(state);
        return last_.best;
      }
      search_.set_seconds(seconds_ > 0 ? std::min(seconds_, budget) : budget);
    } else {
      search_.set_seconds(seconds_);
    }
    last_ = search_.search(state);
    return last_.best;
  }
  std::string last_info() const override {
    char buf[160];
    std::string score;
    if (AlphaBeta::is_win(last_.score)) {
      const int plies = AlphaBeta::kWin - std::abs(last_.score);
      score = (last_.score > 0 ? "win in " : "loss in ") + std::to_string(plies);
    } else {
      std::snprintf(buf, sizeof buf, "%+.2f", last_.score / 100.0);
      score = buf;
    }
    std::snprintf(buf, sizeof buf, "depth %d score %s nodes %" PRIu64 " %.0f knps", last_.depth,
                  score.c_str(), last_.nodes,
                  last_.seconds > 0 ? last_.nodes / last_.seconds / 1000 : 0.0);
    return buf;
  }

 private:
  const Game& game_;
  std::string spec_;
  AlphaBeta search_;
  SearchInfo last_;
  double seconds_ = 0;  // the spec's time per move (0: by depth)
  bool counts_points_ = false;
  double time_left_ = -1;
};

}  // namespace

std::unique_ptr<Player> make_alphabeta_player(const GamePtr& game, const PlayerSpec& spec,
                                              uint64_t) {
  SpecArgs args(spec);
  AlphaBetaOptions options;
  options.max_depth = args.get_int("depth", 0, 1, AlphaBeta::kMaxPly / 2);
  options.seconds = args.get_double("time", 0, 0.001, 86400);
  options.max_nodes = static_cast<uint64_t>(args.get_int("nodes", 0, 1000, 2000000000));
  options.hash_mb = args.get_int("hash", 16, 1, 4096);
  options.max_qdepth = args.get_int("qdepth", 16, 0, 32);
  options.selective = args.get_int("selective", 1, 0, 1) == 1;
  args.finish();
  if (options.max_depth == 0 && options.seconds == 0 && options.max_nodes == 0) {
    options.seconds = 1.0;
  }
  return std::make_unique<AlphaBetaPlayer>(*game, to_string(spec), options);
}

}  // namespace pincer
