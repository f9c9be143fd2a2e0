#include "engine/seize/seize_game.h"

#include <xxhash.h>

#include <cstdlib>
#include <sstream>

#include "engine/game_helpers.h"
#include "engine/seize/notation.h"
#include "engine/seize/seize_heuristic.h"

namespace pincer::seize {

namespace {

// The action id of every (from, to) pair on a straight line; -1 elsewhere.
struct ActionTable {
  int16_t id[64][64];
  ActionTable() {
    for (auto& row : id)
      for (int16_t& v : row) v = -1;
    for (int from = 0; from < 64; ++from) {
      for (int dir = 0; dir < 8; ++dir) {
        for (int dist = 1; dist <= 7; ++dist) {
          const int f = file_of(from) + kDirFile[dir] * dist,
                    r = rank_of(from) + kDirRank[dir] * dist;
          if (f < 0 || f > 7 || r < 0 || r > 7) break;
          id[from][make_square(f, r)] = static_cast<int16_t>((dir * 7 + dist - 1) * 64 + from);
        }
      }
    }
  }
};
const ActionTable kActionTable;

}  // namespace

int move_to_action(Move m) { return kActionTable.id[m.from][m.to]; }

Move action_to_move(Action a) {
  const int from = a & 63, plane = a >> 6;
  const int dir = plane / 7, dist = plane % 7 + 1;
  const int to =
      make_square(file_of(from) + kDirFile[dir] * dist, rank_of(from) + kDirRank[dir] * dist);
  return Move{static_cast<uint8_t>(from), static_cast<uint8_t>(to & 63)};
}

SeizeGame::SeizeGame(SeizeRuleset ruleset) : ruleset_(std::move(ruleset)) {
  rules_ = compile_rules(ruleset_.rules());
  fingerprint_ = ruleset_fingerprint("seize", ruleset_.rules());
}

int SeizeGame::parse_side(std::string_view text) const {
  return parse_side_name(text, rules_.side_name[0], rules_.side_name[1]);
}

std::unique_ptr<State> SeizeGame::wrap(const Position& pos) const {
  return std::make_unique<SeizeState>(*this, pos);
}

std::unique_ptr<State> SeizeGame::initial_state() const { return wrap(Position::start(rules_)); }

std::unique_ptr<State> SeizeGame::parse_state(std::string_view text) const {
  // One word of the binary form's length is the base64 form; anything else is SFEN.
  const size_t base64_chars = (static_cast<size_t>(binary_size(rules_)) * 8 + 5) / 6;
  if (text.size() == base64_chars && text.find_first_of(" /") == std::string_view::npos) {
    return wrap(from_base64(rules_, text));
  }
  return wrap(parse_sfen(rules_, text));
}

std::string SeizeGame::action_text(const State& state, Action action, bool short_form) const {
  const Move m = action_to_move(action);
  if (!short_form) return long_move(m);
  return short_move(static_cast<const SeizeState&>(state).position(), m);
}

Action SeizeGame::parse_action(const State& state, std::string_view text) const {
  const Position& pos = static_cast<const SeizeState&>(state).position();
  if (pos.decided_without_stalemate()) throw GameError("the game is over; no move can follow");
  return move_to_action(parse_move(pos, text));
}

uint64_t SeizeGame::perft(const State& state, int depth) const {
  return seize::perft(static_cast<const SeizeState&>(state).position(), depth);
}

const Heuristic* SeizeGame::heuristic() const { return &seize_heuristic(); }

void SeizeState::legal_actions(std::vector<Action>& out) const {
  out.clear();
  if (pos_.decided_without_stalemate()) return;
  MoveList list;
  pos_.generate(list);
  for (const Move& m : list) out.push_back(move_to_action(m));
}

void SeizeState::apply(Action action) { pos_.apply(action_to_move(action)); }

Outcome SeizeState::outcome() const {
  const Result r = pos_.result();
  return Outcome{r.over(), r.winner, reason_name(r.reason)};
}

std::string SeizeState::to_text() const { return to_sfen(pos_); }

std::string SeizeState::to_compact() const { return to_base64(pos_); }

std::string SeizeState::to_diagram() const {
  const Rules& r = pos_.rules();
  std::ostringstream out;
  out << "     a  b  c  d  e  f  g  h\n";
  for (int rank = 7; rank >= 0; --rank) {
    out << "  " << rank + 1 << " ";
    for (int file = 0; file < 8; ++file) {
      const int sq = make_square(file, rank);
      const Bitboard b = bit(sq);
      std::string cell = " .";
      if (!(kBoard & b))
        cell = "  ";
      else if (pos_.owner(sq) >= 0) {
        const char letter = pos_.is_boss(sq) ? 'b' : 'g';
        cell = std::string(1, pos_.owner(sq) == kBottom ? static_cast<char>(letter - 32) : letter);
        const Power p = pos_.power_at(sq);
        cell += p == kPlus ? '+' : p == kCross ? 'x' : p == kCrown ? '*' : ' ';
        cell = " " + cell.substr(0, 2);
        out << cell;
        continue;
      } else if (pos_.tokens() & r.plus_squares & b)
        cell = " +";
      else if (pos_.tokens() & r.cross_squares & b)
        cell = " x";
      else if (r.crown_squares & b)
        cell = " #";
      out << cell << " ";
    }
    out << " " << rank + 1 << "\n";
  }
  out << "     a  b  c  d  e  f  g  h\n";
  out << "  " << r.side_name[pos_.to_move()] << " to move";
  if (r.keeps_points())
    out << "; points " << r.side_name[0] << " " << pos_.points(0) << ", " << r.side_name[1] << " "
        << pos_.points(1);
  if (r.total_plies) out << "; ply " << pos_.ply() << "/" << r.total_plies;
  if (r.halfmove_limit)
    out << "; capture-free plies " << pos_.halfmove() << "/" << r.halfmove_limit;
  out << "\n";
  return out.str();
}

std::vector<std::string> SeizeState::last_captured() const {
  std::vector<std::string> out;
  for (Bitboard b = pos_.last_captured(); b;) out.push_back(square_name(pop_lsb(b)));
  return out;
}

void SeizeState::encode(float* planes) const {
  const Rules& r = pos_.rules();
  const int us = pos_.to_move(), them = us ^ 1;
  const bool turn = us == kTop;  // the top side sees the board turned half a circle
  std::fill(planes, planes + SeizeGame::kPlanes * 64, 0.0f);
  auto set = [&](int plane, Bitboard b, float v = 1.0f) {
    for (; b;) {
      const int sq = pop_lsb(b);
      planes[plane * 64 + (turn ? 63 - sq : sq)] = v;
    }
  };
  const Bitboard powered[3] = {pos_.powered(kPlus), pos_.powered(kCross), pos_.powered(kCrown)};
  for (int side = 0; side < 2; ++side) {
    const Bitboard mine = pos_.pieces(side == 0 ? us : them);
    const int base = side * 5;
    set(base + 0, mine & pos_.bosses());
    set(base + 1, mine & ~pos_.bosses());
    for (int k = 0; k < 3; ++k) set(base + 2 + k, mine & powered[k]);
  }
  set(10, pos_.tokens() & r.plus_squares);
  set(11, pos_.tokens() & r.cross_squares);
  set(12, r.plus_squares);
  set(13, r.cross_squares);
  set(14, r.crown_squares);
  set(15, kBoard);
  if (r.halfmove_limit) set(16, kBoard, static_cast<float>(pos_.halfmove()) / r.halfmove_limit);
  if (r.total_plies) set(17, kBoard, static_cast<float>(pos_.ply()) / r.total_plies);
  if (r.keeps_points()) set(18, kBoard, (pos_.points(us) - pos_.points(them)) / 8.0f);
  if (us == kBottom) set(19, kBoard);
}

bool SeizeState::ownership(int player, float* cells) const {
  const bool turn = player == kTop;  // as encode(): the top side sees the board turned
  std::fill(cells, cells + 64, 0.0f);
  for (int side = 0; side < 2; ++side) {
    const float v = side == player ? 1.0f : -1.0f;
    for (Bitboard b = pos_.pieces(side); b;) {
      const int sq = pop_lsb(b);
      cells[turn ? 63 - sq : sq] = v;
    }
  }
  return true;
}

namespace {
// Plays the side to move's moves on copies of `pos` (no heap, no action list) and calls
// `found(move)` for each that wins at once; stops when it returns false.
template <typename Found>
void for_each_win(const Position& pos, Found found) {
  if (pos.decided_without_stalemate()) return;  // as legal_actions()
  MoveList list;
  pos.generate(list);
  const int us = pos.to_move();
  for (const Move& m : list) {
    Position next = pos;
    next.apply(m);
    const Result r = next.result();
    if (r.over() && r.winner == us && !found(m)) return;
  }
}
}  // namespace

void SeizeState::winning_actions(std::vector<Action>& out) const {
  out.clear();
  for_each_win(pos_, [&](Move m) {
    out.push_back(move_to_action(m));
    return true;
  });
}

bool SeizeState::has_winning_action() const {
  bool any = false;
  for_each_win(pos_, [&](Move) { return !(any = true); });
  return any;
}

uint64_t SeizeState::eval_key() const {
  // The key covers pieces, tokens and the side to move; encode() also reads these counters.
  const Rules& r = pos_.rules();
  const uint32_t counters[3] = {
      r.halfmove_limit ? static_cast<uint32_t>(pos_.halfmove()) : 0u,
      r.total_plies ? static_cast<uint32_t>(pos_.ply()) : 0u,
      r.keeps_points() ? static_cast<uint32_t>(pos_.points(0) << 16 | pos_.points(1)) : 0u};
  return XXH64(counters, sizeof counters, pos_.key());
}

int SeizeState::policy_index(Action action) const {
  if (pos_.to_move() == kBottom) return action;
  const int from = action & 63, plane = action >> 6;
  const int dir = plane / 7, dist_index = plane % 7;
  return (opposite(dir) * 7 + dist_index) * 64 + (63 - from);
}

bool SeizeState::equals(const State& other) const {
  const auto* o = dynamic_cast<const SeizeState*>(&other);
  return o && o->game_->fingerprint() == game_->fingerprint() && o->pos_ == pos_;
}

// Policy index = plane (direction x distance) * 64 + from-square, in encode()'s square order.
PolicyPlanes SeizeGame::policy_planes() const {
  PolicyPlanes p;
  p.planes = kNumActions / 64;
  p.map.resize(kNumActions);
  for (int i = 0; i < kNumActions; ++i) p.map[i] = i;
  return p;
}

GamePtr make_game(const RulesetSource& source) {
  return make_game_from<SeizeGame, SeizeRuleset>(source);
}

}  // namespace pincer::seize
