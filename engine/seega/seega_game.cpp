#include "engine/seega/seega_game.h"

#include <xxhash.h>

#include <algorithm>
#include <sstream>

#include "engine/game_helpers.h"
#include "engine/seega/notation.h"
#include "engine/seega/seega_heuristic.h"

namespace pincer::seega {

SeegaGame::SeegaGame(SeegaRuleset ruleset) : ruleset_(std::move(ruleset)) {
  rules_ = compile_rules(ruleset_.rules());
  fingerprint_ = ruleset_fingerprint("seega", ruleset_.rules());
  const int n = rules_.size;
  for (int sym = 0; sym < 8; ++sym) {
    auto map = [&](int f, int r, int& of, int& orank) {
      if (sym & 4) std::swap(f, r);
      if (sym & 1) f = n - 1 - f;
      if (sym & 2) r = n - 1 - r;
      of = f, orank = r;
    };
    square_map_[sym].resize(rules_.num_squares);
    for (int sq = 0; sq < rules_.num_squares; ++sq) {
      int f, r;
      map(rules_.file_of(sq), rules_.rank_of(sq), f, r);
      square_map_[sym][sq] = rules_.make_square(f, r);
    }
    // Directions turn like vectors: map a step from the centre and read its direction.
    int dir_map[8];
    const int c = n / 2;
    for (int d = 0; d < 8; ++d) {
      int f0, r0, f1, r1;
      map(c, c, f0, r0);
      map(c + kDirFile[d], c + kDirRank[d], f1, r1);
      for (int e = 0; e < 8; ++e)
        if (kDirFile[e] == f1 - f0 && kDirRank[e] == r1 - r0) dir_map[d] = e;
    }
    action_map_[sym].resize(seega::num_actions(rules_));
    for (int a = 0; a < seega::num_actions(rules_); ++a) {
      action_map_[sym][a] = is_placement(rules_, a)
                                ? square_map_[sym][a]
                                : step_action(rules_, square_map_[sym][action_from(rules_, a)],
                                              dir_map[action_dir(rules_, a)]);
    }
  }
}

int SeegaGame::parse_side(std::string_view text) const {
  return parse_side_name(text, kSideName[0], kSideName[1]);
}

std::unique_ptr<State> SeegaGame::wrap(const Position& pos) const {
  return std::make_unique<SeegaState>(*this, pos);
}

std::unique_ptr<State> SeegaGame::initial_state() const { return wrap(Position::start(rules_)); }

std::unique_ptr<State> SeegaGame::parse_state(std::string_view text) const {
  return wrap(parse_text(rules_, text));
}

std::string SeegaGame::action_text(const State&, Action action, bool) const {
  return seega::action_text(rules_, action);
}

Action SeegaGame::parse_action(const State& state, std::string_view text) const {
  return seega::parse_action(static_cast<const SeegaState&>(state).position(), text);
}

void SeegaGame::apply_symmetry(int sym, float* planes, float* policy) const {
  const int squares = rules_.num_squares;
  const std::vector<int>& sq_map = square_map_[sym];
  if (planes) {
    std::vector<float> tmp(planes, planes + kPlanes * squares);
    for (int c = 0; c < kPlanes; ++c)
      for (int sq = 0; sq < squares; ++sq) planes[c * squares + sq_map[sq]] = tmp[c * squares + sq];
  }
  if (policy) {
    const std::vector<int>& a_map = action_map_[sym];
    std::vector<float> tmp(policy, policy + a_map.size());
    for (size_t a = 0; a < a_map.size(); ++a) policy[a_map[a]] = tmp[a];
  }
}

uint64_t SeegaGame::perft(const State& state, int depth) const {
  return seega::perft(static_cast<const SeegaState&>(state).position(), depth);
}

const Heuristic* SeegaGame::heuristic() const { return &seega_heuristic(); }

std::string SeegaState::to_text() const { return seega::to_text(pos_); }

std::string SeegaState::to_diagram() const {
  const Rules& r = pos_.rules();
  std::ostringstream out;
  out << grid_diagram(r.size, 2, 2, [&](int file, int rank) {
    const int sq = r.make_square(file, rank);
    const int owner = pos_.owner(sq);
    return std::string{' ', owner == kDark    ? 'D'
                            : owner == kLight ? 'L'
                            : sq == r.centre  ? '*'
                                              : '.'};
  });
  const char* turn = kSideName[pos_.turn()];
  const char* actor = kSideName[pos_.to_move()];
  if (pos_.placing()) {
    out << "  placement: " << actor << " to place (" << pos_.placements_left_in_turn()
        << " left in this turn); in hand dark " << pos_.hand(kDark) << ", light "
        << pos_.hand(kLight) << "\n";
  } else {
    out << "  movement: ";
    if (pos_.over())
      out << "game over";
    else if (pos_.forced())
      out << turn << " is blocked; " << actor << " moves one of " << turn << "'s pieces for it";
    else
      out << turn << " to move";
    out << "; pieces dark " << popcount(pos_.pieces(kDark)) << ", light "
        << popcount(pos_.pieces(kLight)) << "; capture-free plies " << pos_.halfmove() << "/"
        << r.capture_free_plies << "\n";
  }
  return out.str();
}

std::vector<std::string> SeegaState::last_captured() const {
  std::vector<std::string> out;
  for (Bitboard b = pos_.last_captured(); b;) out.push_back(pos_.rules().square_name(pop_lsb(b)));
  return out;
}

void SeegaState::encode(float* planes) const {
  const Rules& r = pos_.rules();
  const int squares = r.num_squares;
  const int us = pos_.to_move(), them = us ^ 1;
  std::fill(planes, planes + SeegaGame::kPlanes * squares, 0.0f);
  auto fill = [&](int plane, float v) {
    std::fill(planes + plane * squares, planes + (plane + 1) * squares, v);
  };
  for (Bitboard b = pos_.pieces(us); b;) planes[0 * squares + pop_lsb(b)] = 1.0f;
  for (Bitboard b = pos_.pieces(them); b;) planes[1 * squares + pop_lsb(b)] = 1.0f;
  planes[2 * squares + r.centre] = 1.0f;
  if (pos_.placing()) fill(3, 1.0f);
  if (pos_.forced()) fill(4, 1.0f);
  fill(5, static_cast<float>(pos_.hand(us)) / r.pieces);
  fill(6, static_cast<float>(pos_.hand(them)) / r.pieces);
  if (pos_.forced() || pos_.placements_left_in_turn() > 1) fill(7, 1.0f);
  fill(8, static_cast<float>(pos_.halfmove()) / r.capture_free_plies);
  if (us == kDark) fill(9, 1.0f);
}

bool SeegaState::ownership(int player, float* cells) const {
  const int squares = pos_.rules().num_squares;  // size x size, in encode()'s order
  std::fill(cells, cells + squares, 0.0f);
  for (Bitboard b = pos_.pieces(player); b;) cells[pop_lsb(b)] = 1.0f;
  for (Bitboard b = pos_.pieces(player ^ 1); b;) cells[pop_lsb(b)] = -1.0f;
  return true;
}

uint64_t SeegaState::eval_key() const {
  // The key covers pieces, hands and the turn (who acts follows from them); encode() also reads
  // the capture-free counter.
  const uint32_t halfmove = static_cast<uint32_t>(pos_.halfmove());
  return XXH64(&halfmove, sizeof halfmove, pos_.key());
}

// A placement on its square (plane 0); a step on its from-square, plane 1 + direction.
PolicyPlanes SeegaGame::policy_planes() const {
  const int n = rules_.num_squares;
  PolicyPlanes p;
  p.planes = 9;
  p.map.resize(seega::num_actions(rules_));
  for (int a = 0; a < seega::num_actions(rules_); ++a) {
    p.map[a] = seega::is_placement(rules_, a)
                   ? a
                   : (1 + seega::action_dir(rules_, a)) * n + seega::action_from(rules_, a);
  }
  return p;
}

GamePtr make_game(const RulesetSource& source) {
  return make_game_from<SeegaGame, SeegaRuleset>(source);
}

}  // namespace pincer::seega
