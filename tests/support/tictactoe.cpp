#include "tests/support/tictactoe.h"

#include <algorithm>
#include <sstream>

#include "engine/random.h"
#include "engine/registry.h"
#include "engine/ruleset.h"
#include "proto/ruleset.pb.h"

namespace pincer::testing {

namespace {

constexpr int kLines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                              {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};

struct Zobrist {
  uint64_t cell[9][2];
  uint64_t side;
  Zobrist() {
    uint64_t seed = 0x7ac7ac7ull;
    for (auto& c : cell) c[0] = splitmix64(seed), c[1] = splitmix64(seed);
    side = splitmix64(seed);
  }
};

const Zobrist& zobrist() {
  static const Zobrist z;
  return z;
}

const RulesetHeader& header() {
  static const RulesetHeader h = [] {
    RulesetHeader r;
    r.set_game("tictactoe");
    r.set_name("tictactoe");
    r.set_title("Tic-tac-toe");
    r.set_summary("Three in a row on a 3x3 board; a test game.");
    return r;
  }();
  return h;
}

std::string square_text(int square) {
  return std::string{static_cast<char>('a' + square % 3), static_cast<char>('1' + square / 3)};
}

}  // namespace

TicTacToeState::TicTacToeState(const TicTacToeGame& game) : game_(&game) { cells_.fill(-1); }

const Game& TicTacToeState::game() const { return *game_; }

int TicTacToeState::winner() const {
  for (const auto& line : kLines) {
    const int p = cells_[line[0]];
    if (p >= 0 && cells_[line[1]] == p && cells_[line[2]] == p) return p;
  }
  return -1;
}

void TicTacToeState::legal_actions(std::vector<Action>& out) const {
  out.clear();
  if (outcome().over) return;
  for (int sq = 0; sq < 9; ++sq) {
    if (cells_[sq] < 0) out.push_back(sq);
  }
}

void TicTacToeState::apply(Action action) {
  if (action < 0 || action >= 9 || cells_[action] >= 0 || outcome().over) {
    throw GameError("tictactoe: illegal action " + std::to_string(action));
  }
  set(action, to_move_);
  set_to_move(to_move_ ^ 1);
}

Outcome TicTacToeState::outcome() const {
  const int w = winner();
  if (w >= 0) return Outcome{true, w, "line"};
  if (std::all_of(cells_.begin(), cells_.end(), [](int8_t c) { return c >= 0; })) {
    return Outcome{true, -1, "draw"};
  }
  return Outcome{};
}

void TicTacToeState::set(int square, int player) {
  if (cells_[square] >= 0) hash_ ^= zobrist().cell[square][cells_[square]];
  cells_[square] = static_cast<int8_t>(player);
  if (player >= 0) hash_ ^= zobrist().cell[square][player];
}

void TicTacToeState::set_to_move(int player) {
  if (player != to_move_) hash_ ^= zobrist().side;
  to_move_ = player;
}

std::string TicTacToeState::to_text() const {
  std::string text;
  for (int rank = 2; rank >= 0; --rank) {
    for (int file = 0; file < 3; ++file) {
      const int c = cells_[rank * 3 + file];
      text += c < 0 ? '.' : (c == 0 ? 'x' : 'o');
    }
    if (rank > 0) text += '/';
  }
  text += to_move_ == 0 ? " x" : " o";
  return text;
}

std::string TicTacToeState::to_diagram() const {
  std::ostringstream out;
  for (int rank = 2; rank >= 0; --rank) {
    out << rank + 1 << " ";
    for (int file = 0; file < 3; ++file) {
      const int c = cells_[rank * 3 + file];
      out << ' ' << (c < 0 ? '.' : (c == 0 ? 'x' : 'o'));
    }
    out << "\n";
  }
  out << "   a b c\n" << (to_move_ == 0 ? "x" : "o") << " to move\n";
  return out.str();
}

void TicTacToeState::encode(float* planes) const {
  for (int sq = 0; sq < 9; ++sq) {
    planes[sq] = cells_[sq] == to_move_ ? 1.0f : 0.0f;
    planes[9 + sq] = cells_[sq] == (to_move_ ^ 1) ? 1.0f : 0.0f;
    planes[18 + sq] = 1.0f;
  }
}

bool TicTacToeState::ownership(int player, float* cells) const {
  for (int sq = 0; sq < 9; ++sq) cells[sq] = cells_[sq] < 0 ? 0.0f : cells_[sq] == player ? 1 : -1;
  return true;
}

bool TicTacToeState::equals(const State& other) const {
  const auto* o = dynamic_cast<const TicTacToeState*>(&other);
  return o && o->cells_ == cells_ && o->to_move_ == to_move_;
}

TicTacToeGame::TicTacToeGame() : fingerprint_(ruleset_fingerprint("tictactoe", header())) {}

const google::protobuf::Message& TicTacToeGame::ruleset() const { return header(); }

int TicTacToeGame::parse_side(std::string_view text) const {
  if (text == "x") return 0;
  if (text == "o") return 1;
  return -1;
}

std::unique_ptr<State> TicTacToeGame::initial_state() const {
  return std::make_unique<TicTacToeState>(*this);
}

std::unique_ptr<State> TicTacToeGame::parse_state(std::string_view text) const {
  const std::string where = "tictactoe position '" + std::string(text) + "': ";
  if (text.size() != 13 || text[3] != '/' || text[7] != '/' || text[11] != ' ') {
    throw GameError(where + "expected three ranks of 3 cells separated by '/', a space, a side");
  }
  auto state = std::make_unique<TicTacToeState>(*this);
  int count[2] = {0, 0};
  for (int rank = 2; rank >= 0; --rank) {
    for (int file = 0; file < 3; ++file) {
      const char c = text[(2 - rank) * 4 + file];
      if (c == 'x' || c == 'o') {
        state->set(rank * 3 + file, c == 'x' ? 0 : 1);
        ++count[c == 'x' ? 0 : 1];
      } else if (c != '.') {
        throw GameError(where + "bad cell '" + std::string(1, c) + "'");
      }
    }
  }
  const int side = parse_side(text.substr(12));
  if (side < 0) throw GameError(where + "side to move must be 'x' or 'o'");
  state->set_to_move(side);
  return state;
}

std::string TicTacToeGame::action_text(const State& state, Action action, bool short_form) const {
  (void)state, (void)short_form;
  if (action < 0 || action >= 9) throw GameError("tictactoe: no action " + std::to_string(action));
  return square_text(action);
}

Action TicTacToeGame::parse_action(const State& state, std::string_view text) const {
  if (text.size() != 2 || text[0] < 'a' || text[0] > 'c' || text[1] < '1' || text[1] > '3') {
    throw GameError("tictactoe: bad move '" + std::string(text) + "' (expected a1..c3)");
  }
  const Action a = (text[1] - '1') * 3 + (text[0] - 'a');
  std::vector<Action> legal;
  state.legal_actions(legal);
  if (std::find(legal.begin(), legal.end(), a) == legal.end()) {
    throw GameError("tictactoe: illegal move '" + std::string(text) + "'");
  }
  return a;
}

int TicTacToeGame::map_square(int sym, int square) {
  int r = square / 3, c = square % 3;
  if (sym & 1) std::swap(r, c);
  if (sym & 2) r = 2 - r;
  if (sym & 4) c = 2 - c;
  return r * 3 + c;
}

void TicTacToeGame::apply_symmetry(int sym, float* planes, float* policy) const {
  float tmp[9];
  auto permute = [&](float* v) {
    std::copy(v, v + 9, tmp);
    for (int sq = 0; sq < 9; ++sq) v[map_square(sym, sq)] = tmp[sq];
  };
  if (planes) {
    for (int ch = 0; ch < 3; ++ch) permute(planes + ch * 9);
  }
  if (policy) permute(policy);
}

GamePtr make_tictactoe() {
  static const GamePtr game = std::make_shared<TicTacToeGame>();
  return game;
}

void register_tictactoe() {
  register_game("tictactoe", [](const RulesetSource&) { return make_tictactoe(); });
}

}  // namespace pincer::testing
