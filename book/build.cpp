#include "book/build.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <queue>
#include <unordered_map>
#include <unordered_set>

namespace pincer::book {
namespace {

// Stores a finished position: its result for the side to move.
void store_terminal(BookPosition& pos, const Outcome& o) {
  const int mover = pos.to_move();
  const float value = o.winner < 0 ? 0.0f : (o.winner == mover ? 1.0f : -1.0f);
  pos.set_terminal(true);
  pos.set_searched(false);
  pos.set_value(value);
  pos.set_solved(true);
  pos.clear_wdl();
  pos.add_wdl(value > 0 ? 1.0f : 0.0f);
  pos.add_wdl(value == 0 ? 1.0f : 0.0f);
  pos.add_wdl(value < 0 ? 1.0f : 0.0f);
  pos.clear_moves();
}

// Searches `state` and stores the result in its book position.
void search_position(OpeningBook& book, const GamePtr& game, const State& state,
                     Evaluator& evaluator, const BuildOptions& options) {
  BookPosition& pos = book.at(state);
  const Outcome o = state.outcome();
  if (o.over) {
    store_terminal(pos, o);
    return;
  }
  mcts::SearchResult r;
  if (options.searcher) {
    r = options.searcher(state);
  } else {
    mcts::SearchConfig config = options.search;
    config.reuse_tree = false;
    config.self_play = false;
    mcts::Search search(game, config);
    search.reset(state);
    r = search.run(evaluator, options.threads);
  }
  // Keep moves that games already recorded here (their statistics) by action.
  std::unordered_map<Action, GameStats> old_stats;
  for (const BookMove& m : pos.moves()) old_stats[m.action()] = m.stats();
  pos.clear_moves();
  for (size_t i = 0; i < r.actions.size(); ++i) {
    BookMove* m = pos.add_moves();
    m->set_action(r.actions[i]);
    m->set_text(game->action_text(state, r.actions[i], true));
    m->set_visits(r.visits[i]);
    m->set_prior(r.prior[i]);
    m->set_q(r.visits[i] ? r.q[i] : -1.0f);
    std::unique_ptr<State> child = state.clone();
    child->apply(r.actions[i]);
    m->set_child_hash(child->hash());
    auto it = old_stats.find(r.actions[i]);
    if (it != old_stats.end()) *m->mutable_stats() = it->second;
  }
  pos.clear_wdl();
  for (float x : r.wdl) pos.add_wdl(x);
  pos.set_visits(r.root_visits);
  pos.set_searched(true);
  pos.set_terminal(false);
  pos.set_value(r.wdl[0] - r.wdl[2]);
  pos.set_solved(false);
}

bool known(const BookPosition* p) { return p && (p->searched() || p->terminal()); }

struct BackUp {
  OpeningBook& book;
  std::unordered_set<uint64_t> done, on_stack;

  void visit(BookPosition& pos) {
    if (done.count(pos.hash()) || !pos.searched()) return;
    on_stack.insert(pos.hash());
    bool all_solved = !pos.moves().empty(), proved_win = false;
    float best = -2.0f;
    for (const BookMove& m : pos.moves()) {
      BookPosition* child = book.find(m.child_hash());
      bool child_solved = false;
      float v = m.q();
      if (known(child) && !on_stack.count(child->hash())) {
        visit(*child);
        v = child->to_move() == pos.to_move() ? child->value() : -child->value();
        child_solved = child->solved();
      }
      best = std::max(best, v);
      all_solved &= child_solved;
      proved_win |= child_solved && v >= 1.0f;
    }
    pos.set_value(best);
    pos.set_solved(all_solved || proved_win);
    on_stack.erase(pos.hash());
    done.insert(pos.hash());
  }
};

// The position after a stored move, checked against the book (a damaged file is refused, not
// played into: an illegal action would be a programming error in the game).
std::unique_ptr<State> expand_move(const Game& game, const BookPosition& parent, int move) {
  std::unique_ptr<State> state;
  try {
    state = game.parse_state(parent.text());
  } catch (const GameError& e) {
    throw BookError("damaged book: position " + parent.text() + ": " + e.what());
  }
  const BookMove& m = parent.moves(move);
  std::vector<Action> legal;
  state->legal_actions(legal);
  if (state->hash() != parent.hash() ||
      std::find(legal.begin(), legal.end(), m.action()) == legal.end()) {
    throw BookError("damaged book: position " + parent.text() + " does not match its hash or " +
                    "move " + m.text() + " is not legal there");
  }
  state->apply(m.action());
  return state;
}

// Recomputes one searched position from its children's stored values (no recursion).
void recompute(OpeningBook& book, BookPosition& pos) {
  bool all_solved = !pos.moves().empty(), proved_win = false;
  float best = -2.0f;
  for (const BookMove& m : pos.moves()) {
    const BookPosition* child = book.find(m.child_hash());
    const float v = move_value(book, pos, m);
    const bool child_solved = known(child) && child->solved();
    best = std::max(best, v);
    all_solved &= child_solved;
    proved_win |= child_solved && v >= 1.0f;
  }
  pos.set_value(best);
  pos.set_solved(all_solved || proved_win);
}

// Parents of each position, for backing a new position's value up through its ancestors only.
class Parents {
 public:
  explicit Parents(const OpeningBook& book) {
    for (const auto& [hash, p] : book.positions()) add(p);
  }
  void add(const BookPosition& p) {
    if (!p.searched()) return;
    for (const BookMove& m : p.moves()) parents_[m.child_hash()].push_back(p.hash());
  }
  // Backs `hash`'s value up: parents whose value or proof changes pass it on. Each position is
  // recomputed a bounded number of times, so that cycles end.
  void back_up_from(OpeningBook& book, uint64_t hash) const {
    std::vector<uint64_t> work{hash};
    std::unordered_map<uint64_t, int> count;
    while (!work.empty()) {
      const uint64_t h = work.back();
      work.pop_back();
      auto it = parents_.find(h);
      if (it == parents_.end()) continue;
      for (uint64_t parent : it->second) {
        BookPosition* p = book.find(parent);
        if (!p || !p->searched() || ++count[parent] > 8) continue;
        const float value = p->value();
        const bool solved = p->solved();
        recompute(book, *p);
        if (p->value() != value || p->solved() != solved) work.push_back(parent);
      }
    }
  }

 private:
  std::unordered_map<uint64_t, std::vector<uint64_t>> parents_;
};

struct Candidate {
  double cost = 0;
  uint64_t parent = 0;
  int move = 0;  // index in the parent's moves
};

// The cheapest unexpanded move reachable from `root` through unproved searched positions.
bool select(const OpeningBook& book, uint64_t root, const BuildOptions& o, Candidate& out) {
  using Item = std::pair<double, uint64_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
  std::unordered_map<uint64_t, double> cost;
  queue.push({0.0, root});
  cost[root] = 0.0;
  bool found = false;
  while (!queue.empty()) {
    const auto [c, hash] = queue.top();
    queue.pop();
    if (c > cost[hash] || (found && c >= out.cost)) continue;
    const BookPosition* pos = book.find(hash);
    if (!pos || !pos->searched() || pos->solved()) continue;
    uint64_t total = 0;
    for (const BookMove& m : pos->moves()) total += m.visits();
    for (int i = 0; i < pos->moves_size(); ++i) {
      const BookMove& m = pos->moves(i);
      const float regret = std::max(0.0f, pos->value() - move_value(book, *pos, m));
      const double share = total ? double(m.visits()) / double(total) : m.prior();
      const double step =
          o.regret_weight * regret - o.policy_weight * std::log(std::max(share, 1e-3));
      const double next = c + step;
      const BookPosition* child = book.find(m.child_hash());
      if (!known(child)) {
        const bool better =
            !found || next < out.cost ||
            (next == out.cost && std::make_pair(hash, i) < std::make_pair(out.parent, out.move));
        if (better) out = {next, hash, i}, found = true;
      } else if (child->searched() && !child->solved()) {
        auto it = cost.find(child->hash());
        if (it == cost.end() || next < it->second) {
          cost[child->hash()] = next;
          queue.push({next, child->hash()});
        }
      }
    }
  }
  return found;
}

}  // namespace

void back_up(OpeningBook& book) {
  BackUp b{book, {}, {}};
  std::vector<uint64_t> hashes;
  for (const auto& [hash, p] : book.positions()) hashes.push_back(hash);
  std::sort(hashes.begin(), hashes.end());
  for (uint64_t hash : hashes) b.visit(*book.find(hash));
}

BuildSummary build(OpeningBook& book, const GamePtr& game, const State& root, Evaluator& evaluator,
                   const BuildOptions& options) {
  BookHeader& h = book.header();
  if (book.searched() > 0 && h.model_id() != options.evaluator_id) {
    throw BookError("the book was built with evaluator " + h.model_id() + ", not " +
                    options.evaluator_id + ": build into another book file");
  }
  if (book.searched() > 0 && h.visits() != options.search.simulations) {
    spdlog::warn("the book was searched with {} visits per position; continuing with {}",
                 h.visits(), options.search.simulations);
  }
  h.set_model_id(options.evaluator_id);
  h.set_visits(options.search.simulations);
  if (h.root().empty()) {
    h.set_root(root.to_text());
    h.set_root_hash(root.hash());
  }
  BuildSummary summary;
  int64_t unsaved = 0;
  auto added = [&](const BookPosition& pos) {
    ++summary.added;
    if (!options.path.empty() && ++unsaved >= options.save_every) {
      book.save(options.path);
      unsaved = 0;
    }
    if (options.on_position) options.on_position(book, pos);
  };
  auto finish = [&] {
    if (!options.path.empty() && unsaved) book.save(options.path);
  };

  back_up(book);
  Parents parents(book);
  if (!known(book.find(root.hash()))) {
    search_position(book, game, root, evaluator, options);
    parents.add(*book.find(root.hash()));
    added(*book.find(root.hash()));
  }
  while (static_cast<int64_t>(book.searched()) < options.positions) {
    Candidate c;
    if (!select(book, root.hash(), options, c)) {
      summary.exhausted = true;
      break;
    }
    std::unique_ptr<State> state = expand_move(*game, *book.find(c.parent), c.move);
    search_position(book, game, *state, evaluator, options);
    const BookPosition& pos = *book.find(state->hash());
    parents.add(pos);
    if (pos.searched()) recompute(book, *book.find(state->hash()));
    parents.back_up_from(book, state->hash());
    added(pos);
  }
  finish();
  return summary;
}

std::vector<const BookMove*> main_line(const OpeningBook& book, uint64_t hash, int max_plies) {
  std::vector<const BookMove*> line;
  std::unordered_set<uint64_t> seen;
  const BookPosition* pos = book.find(hash);
  while (pos && pos->searched() && !pos->moves().empty() &&
         static_cast<int>(line.size()) < max_plies && seen.insert(pos->hash()).second) {
    const BookMove* best = nullptr;
    float best_value = -3.0f;
    for (const BookMove& m : pos->moves()) {
      const float v = move_value(book, *pos, m);
      if (v > best_value || (v == best_value && best && m.visits() > best->visits())) {
        best = &m, best_value = v;
      }
    }
    line.push_back(best);
    pos = book.find(best->child_hash());
  }
  return line;
}

}  // namespace pincer::book
