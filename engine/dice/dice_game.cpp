#include "engine/dice/dice_game.h"

#include <algorithm>
#include <sstream>

#include "engine/dice/dice_heuristic.h"
#include "engine/dice/notation.h"
#include "engine/game_helpers.h"

namespace pincer::dice {

DiceGame::DiceGame(DiceRuleset ruleset) : ruleset_(std::move(ruleset)) {
  rules_ = compile_rules(ruleset_.rules());
  fingerprint_ = ruleset_fingerprint("dice", ruleset_.rules());
  mirror_square_.resize(rules_.num_squares);
  for (int sq = 0; sq < rules_.num_squares; ++sq)
    mirror_square_[sq] =
        rules_.make_square(rules_.size - 1 - rules_.file_of(sq), rules_.rank_of(sq));
}

int DiceGame::parse_side(std::string_view text) const {
  return parse_side_name(text, kSideName[0], kSideName[1]);
}

std::unique_ptr<State> DiceGame::wrap(const Position& pos) const {
  return std::make_unique<DiceState>(*this, pos);
}

std::string DiceGame::draw_setup(uint64_t seed) const {
  return setup_text(rules_, dice::draw_setup(rules_, seed));
}

std::unique_ptr<State> DiceGame::setup_state(std::string_view setup) const {
  return wrap(Position::start(rules_, parse_setup(rules_, setup)));
}

std::unique_ptr<State> DiceGame::parse_state(std::string_view text) const {
  return wrap(parse_text(rules_, text));
}

std::string DiceGame::action_text(const State&, Action action, bool) const {
  return dice::action_text(rules_, action);
}

Action DiceGame::parse_action(const State& state, std::string_view text) const {
  return dice::parse_action(static_cast<const DiceState&>(state).position(), text);
}

void DiceGame::apply_symmetry(int sym, float* planes, float* policy) const {
  if (sym != 1) return;
  const int squares = rules_.num_squares;
  if (planes) {
    std::vector<float> tmp(planes, planes + kPlanes * squares);
    for (int c = 0; c < kPlanes; ++c)
      for (int sq = 0; sq < squares; ++sq)
        planes[c * squares + mirror_square_[sq]] = tmp[c * squares + sq];
  }
  if (policy) {
    const int n = num_actions();
    std::vector<float> tmp(policy, policy + n);
    for (int a = 0; a < n; ++a)
      policy[make_action(rules_, mirror_square_[action_from(rules_, a)],
                         mirror_square_[action_to(rules_, a)])] = tmp[a];
  }
}

uint64_t DiceGame::perft(const State& state, int depth) const {
  return dice::perft(static_cast<const DiceState&>(state).position(), depth);
}

const Heuristic* DiceGame::heuristic() const { return &dice_heuristic(); }

std::string DiceState::to_text() const { return dice::to_text(pos_); }

std::string DiceState::to_diagram() const {
  const Rules& r = pos_.rules();
  std::ostringstream out;
  out << grid_diagram(r.size, 3, 1, [&](int file, int rank) {
    const int sq = r.make_square(file, rank);
    const int side = pos_.owner(sq), kind = pos_.kind_at(sq);
    const char c = side < 0 ? '.' : kind == kKing ? 'K' : static_cast<char>('0' + kind);
    return side == kBlack ? std::string{'(', c, ')'} : std::string{' ', c, ' '};
  });
  out << "  faces 1-2 pawn, 3 knight, 4 bishop, 5 rook, 6 queen, K King; black's in (brackets)\n";
  out << "  "
      << (pos_.over() ? std::string("game over")
                      : std::string(kSideName[pos_.to_move()]) + " to move")
      << "; ply " << pos_.ply() << "; capture-free plies " << pos_.halfmove() << "/"
      << r.capture_free_plies;
  if (r.timed_plies) out << "; timed play ends at ply " << r.timed_plies;
  if (r.scored())
    out << "; points " << pos_.points(0) << "-" << pos_.points(1) << " of " << r.score_target;
  out << "\n";
  return out.str();
}

std::vector<std::string> DiceState::last_captured() const {
  if (pos_.last_captured() < 0) return {};
  return {pos_.rules().square_name(pos_.last_captured())};
}

void DiceState::encode(float* planes) const {
  const Rules& r = pos_.rules();
  const int squares = r.num_squares;
  const int us = pos_.to_move(), them = us ^ 1;
  std::fill(planes, planes + DiceGame::kPlanes * squares, 0.0f);
  auto fill = [&](int plane, float v) {
    std::fill(planes + plane * squares, planes + (plane + 1) * squares, v);
  };
  for (int k = 0; k < kKinds; ++k) {
    for (Bitboard b = pos_.dice(us, k); b;) {
      const int sq = pop_lsb(b);
      planes[k * squares + (us == kWhite ? sq : r.flip(sq))] = 1.0f;
    }
    for (Bitboard b = pos_.dice(them, k); b;) {
      const int sq = pop_lsb(b);
      planes[(kKinds + k) * squares + (us == kWhite ? sq : r.flip(sq))] = 1.0f;
    }
  }
  fill(14, static_cast<float>(pos_.halfmove()) / r.capture_free_plies);
  if (r.timed_plies) fill(15, static_cast<float>(pos_.ply()) / r.timed_plies);
  if (r.scored()) {
    fill(16, static_cast<float>(pos_.points(us)) / r.score_target);
    fill(17, static_cast<float>(pos_.points(them)) / r.score_target);
  }
  if (us == kWhite) fill(18, 1.0f);
  if (r.promotion) fill(19, 1.0f);
}

bool DiceState::ownership(int player, float* cells) const {
  const Rules& r = pos_.rules();
  std::fill(cells, cells + r.num_squares, 0.0f);
  for (int side = 0; side < 2; ++side) {
    const float v = side == player ? 1.0f : -1.0f;
    for (int k = 0; k < kKinds; ++k) {
      for (Bitboard b = pos_.dice(side, k); b;) {
        const int sq = pop_lsb(b);
        cells[player == kWhite ? sq : r.flip(sq)] = v;  // as encode() for `player` to move
      }
    }
  }
  return true;
}

int DiceState::policy_index(Action action) const {
  if (pos_.to_move() == kWhite) return action;
  const Rules& r = pos_.rules();
  return make_action(r, r.flip(action_from(r, action)), r.flip(action_to(r, action)));
}

// A move on its from-square, in the plane of its target square.
PolicyPlanes DiceGame::policy_planes() const {
  const int n = rules_.num_squares;
  PolicyPlanes p;
  p.planes = n;
  p.map.resize(dice::num_actions(rules_));
  for (int a = 0; a < dice::num_actions(rules_); ++a) {
    p.map[a] = dice::action_to(rules_, a) * n + dice::action_from(rules_, a);
  }
  return p;
}

GamePtr make_game(const RulesetSource& source) {
  return make_game_from<DiceGame, DiceRuleset>(source);
}

}  // namespace pincer::dice
