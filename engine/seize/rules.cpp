#include "engine/seize/rules.h"

#include "engine/game.h"

namespace pincer::seize {

namespace {

[[noreturn]] void bad(const std::string& field, const std::string& why) {
  throw GameError("rules." + field + ": " + why);
}

Bitboard squares(const google::protobuf::RepeatedPtrField<std::string>& names,
                 const std::string& field) {
  Bitboard b = 0;
  for (const std::string& name : names) {
    const int sq = parse_square(name);
    if (sq < 0) bad(field, "'" + name + "' is not a square of the board");
    if (b & bit(sq)) bad(field, "'" + name + "' is listed twice");
    b |= bit(sq);
  }
  return b;
}

int side_of(Side side, const std::string& field) {
  if (side == BOTTOM) return kBottom;
  if (side == TOP) return kTop;
  bad(field, "must be BOTTOM or TOP");
}

}  // namespace

Rules compile_rules(const SeizeRules& p) {
  Rules r;
  r.side_name[kBottom] = p.sides().bottom_name();
  r.side_name[kTop] = p.sides().top_name();
  if (r.side_name[0].empty() || r.side_name[1].empty()) bad("sides", "both sides need a name");
  if (r.side_name[0][0] == r.side_name[1][0] || r.side_name[0] == "draw" ||
      r.side_name[1] == "draw")
    bad("sides", "the names must differ in their first letter and not be 'draw'");
  for (const std::string& n : r.side_name)
    for (char c : n)
      if (c < 'a' || c > 'z') bad("sides", "names are lowercase letters only");
  r.first_player = side_of(p.sides().first_to_move(), "sides.first_to_move");

  r.plus_squares = squares(p.board().plus_squares(), "board.plus_squares");
  r.cross_squares = squares(p.board().cross_squares(), "board.cross_squares");
  r.crown_squares = squares(p.board().crown_squares(), "board.crown_squares");
  if (r.plus_squares & r.cross_squares) bad("board", "a square cannot be both + and x");
  if (r.crown_squares & r.marked_squares()) bad("board", "a crown cannot also be a marked square");

  r.start_bosses[kBottom] = squares(p.setup().bottom_bosses(), "setup.bottom_bosses");
  r.start_guards[kBottom] = squares(p.setup().bottom_guards(), "setup.bottom_guards");
  r.start_bosses[kTop] = squares(p.setup().top_bosses(), "setup.top_bosses");
  r.start_guards[kTop] = squares(p.setup().top_guards(), "setup.top_guards");
  Bitboard all = 0;
  int count = 0;
  for (int s = 0; s < 2; ++s) {
    for (Bitboard b : {r.start_bosses[s], r.start_guards[s]}) {
      if (all & b) bad("setup", "two pieces on one square");
      all |= b;
      count += popcount(b);
    }
  }
  if (count > 16) bad("setup", "at most 16 pieces (the binary position form holds 16)");
  if (!r.start_bosses[0] || !r.start_bosses[1]) bad("setup", "each side needs a boss");

  r.boss_range = p.pieces().boss().range();
  if (r.boss_range < 1 || r.boss_range > 7) bad("pieces.boss.range", "must be 1 to 7");
  r.boss_takes_power = p.pieces().boss().can_take_power();
  if (p.pieces().guard().step() == LINES_UNSPECIFIED) bad("pieces.guard.step", "is not set");
  r.guard_steps_diagonally = p.pieces().guard().step() == ALL_EIGHT;

  const auto& pw = p.powers();
  if (pw.movement() == SeizeRules::POWER_MOVEMENT_UNSPECIFIED) bad("powers.movement", "is not set");
  r.power_adds = pw.movement() == SeizeRules::ADDS;
  if (pw.on_second() == SeizeRules::ON_SECOND_UNSPECIFIED) bad("powers.on_second", "is not set");
  r.second_power_replaces = pw.on_second() == SeizeRules::REPLACE;
  r.tokens_consumed = pw.consumed();
  r.crown_cap = pw.crown_cap();
  if (!pw.persistent()) bad("powers.persistent", "only true is implemented");
  if (pw.capturable()) bad("powers.capturable", "only false is implemented");
  if (pw.respawns()) bad("powers.respawns", "only false is implemented");

  const auto& c = p.capture();
  if (c.directions() == LINES_UNSPECIFIED) bad("capture.directions", "is not set");
  r.capture_diagonally = c.directions() == ALL_EIGHT;
  if (c.self_sandwich() != SeizeRules::SAFE)
    bad("capture.self_sandwich", "only SAFE is implemented");
  if (!c.multiple()) bad("capture.multiple", "only true is implemented");
  if (c.chain()) bad("capture.chain", "only false is implemented");
  r.pin = c.pin();

  r.win_crowns = p.wins().crowns();
  r.win_bosses = p.wins().bosses();
  r.force_max_pieces = p.wins().force_max_pieces();
  if (r.force_max_pieces < 0 || r.force_max_pieces > 15)
    bad("wins.force_max_pieces", "must be 0 to 15");
  if (r.win_crowns && !r.crown_squares) bad("wins.crowns", "needs board.crown_squares");
  if (p.stalemate() != SeizeRules::LOSS) bad("stalemate", "only LOSS is implemented");

  r.total_plies = p.limit().total_plies();
  if (r.total_plies < 0 || r.total_plies > 1023) bad("limit.total_plies", "must be 0 to 1023");
  if (r.total_plies) r.ties_to = side_of(p.limit().ties_to(), "limit.ties_to");
  r.halfmove_limit = p.draw().halfmove_limit();
  if (r.halfmove_limit < 0 || r.halfmove_limit > 1023)
    bad("draw.halfmove_limit", "must be 0 to 1023");
  if (p.draw().repetition() != SeizeRules::NOT_MODELLED)
    bad("draw.repetition", "only NOT_MODELLED is implemented");
  if (!r.total_plies && !r.halfmove_limit)
    bad("limit", "set limit.total_plies or draw.halfmove_limit so that every game ends");

  r.score_guard = p.scoring().guard();
  r.score_capped_guard = p.scoring().capped_guard();
  r.score_boss = p.scoring().boss();
  for (int v : {r.score_guard, r.score_capped_guard, r.score_boss})
    if (v < 0 || v > 3)
      bad("scoring", "values must be 0 to 3 (the binary form keeps 5 bits of points)");

  if (p.win_resolution().simultaneous() != SeizeRules::FIRST_LISTED)
    bad("win_resolution.simultaneous", "only FIRST_LISTED is implemented");
  if (p.win_resolution().capture_is_mandatory())
    bad("win_resolution.capture_is_mandatory", "only false is implemented");
  return r;
}

}  // namespace pincer::seize
