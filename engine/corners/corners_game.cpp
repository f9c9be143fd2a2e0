#include "engine/corners/corners_game.h"

#include <algorithm>
#include <sstream>

#include "engine/corners/corners_heuristic.h"
#include "engine/corners/notation.h"
#include "engine/game_helpers.h"

namespace pincer::corners {

namespace {

int mirror_cell(int index) { return (index & ~7) | (7 - (index & 7)); }
int mirror_point_cell(int index) { return (index & ~7) | (6 - (index & 7)); }

}  // namespace

CornersGame::CornersGame(CornersRuleset ruleset) : ruleset_(std::move(ruleset)) {
  rules_ = compile_rules(ruleset_.rules());
  fingerprint_ = ruleset_fingerprint("corners", ruleset_.rules());
  mirror_action_.resize(kNumActions);
  for (int a = 0; a < kNumActions; ++a) mirror_action_[a] = transform_action(a, true, false);
}

int CornersGame::parse_side(std::string_view text) const {
  return parse_side_name(text, kSideName[0], kSideName[1]);
}

std::unique_ptr<State> CornersGame::wrap(const Position& pos) const {
  return std::make_unique<CornersState>(*this, pos);
}

std::unique_ptr<State> CornersGame::initial_state() const { return wrap(Position::start(rules_)); }

std::unique_ptr<State> CornersGame::parse_state(std::string_view text) const {
  return wrap(parse_text(rules_, text));
}

std::string CornersGame::action_text(const State&, Action action, bool) const {
  return corners::action_text(action);
}

Action CornersGame::parse_action(const State& state, std::string_view text) const {
  return corners::parse_action(static_cast<const CornersState&>(state).position(), text);
}

void CornersGame::apply_symmetry(int sym, float* planes, float* policy) const {
  if (sym != 1) return;
  if (planes) {
    std::vector<float> tmp(planes, planes + kPlanes * 64);
    for (int c = 0; c < kPlanes; ++c) {
      const bool point_plane = c == 2 || c == 3 || c == 9;
      for (int i = 0; i < 64; ++i) {
        if (point_plane && !(kPoints & bit(i))) continue;
        const int j = point_plane ? mirror_point_cell(i) : mirror_cell(i);
        planes[c * 64 + j] = tmp[c * 64 + i];
      }
    }
  }
  if (policy) {
    std::vector<float> tmp(policy, policy + kNumActions);
    std::fill(policy, policy + kNumActions, 0.0f);
    for (int a = 0; a < kNumActions; ++a)
      if (mirror_action_[a] >= 0) policy[mirror_action_[a]] = tmp[a];
  }
}

uint64_t CornersGame::perft(const State& state, int depth) const {
  return corners::perft(static_cast<const CornersState&>(state).position(), depth);
}

const Heuristic* CornersGame::heuristic() const { return &corners_heuristic(); }

std::string CornersState::to_text() const { return corners::to_text(pos_); }

std::string CornersState::to_diagram() const {
  const Rules& r = pos_.rules();
  std::ostringstream out;
  out << "      a   b   c   d   e   f   g   h\n";
  auto line = [&](int rank) {  // the grid line above rank `rank` (0-based), with its points
    out << "    +";
    for (int file = 0; file < 8; ++file) {
      out << "---";
      char c = '+';
      if (file < 7 && rank >= 1 && rank <= 7) {
        const Bitboard b = bit(file + 8 * (rank - 1));
        c = pos_.points(kWhite) & b ? 'w' : pos_.points(kBlack) & b ? 'b' : '+';
      }
      out << c;
    }
    out << "\n";
  };
  for (int rank = 7; rank >= 0; --rank) {
    line(rank + 1);
    out << "  " << rank + 1 << " |";
    for (int file = 0; file < 8; ++file) {
      const Bitboard b = bit(file + 8 * rank);
      const char c = pos_.squares(kWhite) & b ? 'W' : pos_.squares(kBlack) & b ? 'B' : ' ';
      out << ' ' << c << " |";
    }
    out << ' ' << rank + 1 << "\n";
  }
  line(0);
  out << "      a   b   c   d   e   f   g   h\n";
  out << "  W/B: pieces on squares; w/b on a crossing: pieces on that point\n";
  out << "  ";
  if (pos_.over()) {
    const Result res = pos_.result();
    out << "game over (" << reason_name(res.reason) << "): "
        << (res.winner < 0 ? std::string("draw") : std::string(kSideName[res.winner]) + " wins");
  } else {
    out << kSideName[pos_.to_move()] << " to move";
  }
  out << "; reserve white " << pos_.reserve(kWhite) << ", black " << pos_.reserve(kBlack)
      << "; ply " << pos_.ply() << "/" << r.limit << "\n";
  return out.str();
}

std::vector<std::string> CornersState::last_captured() const {
  std::vector<std::string> out;
  for (Bitboard b = pos_.last_captured_squares(); b;) out.push_back(Rules::square_name(pop_lsb(b)));
  for (Bitboard b = pos_.last_captured_points(); b;) out.push_back(Rules::point_name(pop_lsb(b)));
  return out;
}

void CornersState::encode(float* planes) const {
  const Rules& r = pos_.rules();
  const int us = pos_.to_move(), them = us ^ 1;
  const bool flip = us == kBlack;
  std::fill(planes, planes + CornersGame::kPlanes * 64, 0.0f);
  auto cell = [flip](int sq) { return flip ? sq ^ 56 : sq; };
  auto point_cell = [flip](int pt) { return flip ? (pt & 7) | ((6 - (pt >> 3)) << 3) : pt; };
  auto squares = [&](int plane, Bitboard b) {
    while (b) planes[plane * 64 + cell(pop_lsb(b))] = 1.0f;
  };
  auto points = [&](int plane, Bitboard b) {
    while (b) planes[plane * 64 + point_cell(pop_lsb(b))] = 1.0f;
  };
  auto fill = [&](int plane, float v) {
    std::fill(planes + plane * 64, planes + plane * 64 + 64, v);
  };
  squares(0, pos_.squares(us));
  squares(1, pos_.squares(them));
  points(2, pos_.points(us));
  points(3, pos_.points(them));
  squares(4, pos_.own_guarded(us));
  squares(5, pos_.own_guarded(them));
  fill(6, static_cast<float>(pos_.reserve(us)) / r.pieces);
  fill(7, static_cast<float>(pos_.reserve(them)) / r.pieces);
  fill(8, static_cast<float>(pos_.ply()) / r.limit);
  points(9, kPoints);
  if (us == kWhite) fill(10, 1.0f);
}

int CornersState::policy_index(Action action) const {
  return pos_.to_move() == kBlack ? transform_action(action, false, true) : action;
}

GamePtr make_game(const RulesetSource& source) {
  return make_game_from<CornersGame, CornersRuleset>(source);
}

}  // namespace pincer::corners
