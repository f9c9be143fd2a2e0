// Seega text forms and network views: the position text round-trips over random games and its
// strict parser refuses bad text with a clear error (never a crash); move text; game records;
// the input planes and the eight board symmetries.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "engine/record.h"
#include "engine/seega/notation.h"
#include "tests/support/errors.h"
#include "tests/support/random_games.h"
#include "tests/support/seega_fixtures.h"

namespace pincer::seega {
namespace {

using testing::legal_texts;
using testing::play;
using testing::position_of;
using testing::variant;

using ::pincer::testing::error_of;

TEST(SeegaNotation, TextRoundTripsOverRandomGames) {
  using R = SeegaRules;
  const std::vector<std::shared_ptr<const SeegaGame>> games = {
      variant("seega-5x5"),
      variant("seega-7x7"),
      variant("seega-5x5", [](R& r) { r.mutable_placement()->set_per_turn(1); }),
      variant("seega-5x5", [](R& r) { r.mutable_blocked()->set_rule(R::PASS); }),
      variant("seega-5x5", [](R& r) { r.mutable_blocked()->set_rule(R::LOSES); }),
      variant("seega-5x5", [](R& r) { r.mutable_placement()->set_centre_free(false); })};
  int positions = 0;
  for (const auto& game : games) {
    for (uint64_t seed = 1; seed <= 40; ++seed) {
      pincer::testing::play_random_game(
          *game->initial_state(), seed, 5000, [&](const State& s, Action) {
            const std::string text = s.to_text();
            std::unique_ptr<State> back;
            ASSERT_NO_THROW(back = game->parse_state(text)) << text;
            // Same position, same hash, same text; the parsed one has no "last capture" history.
            EXPECT_EQ(back->to_text(), text);
            EXPECT_EQ(back->hash(), s.hash()) << text;
            EXPECT_EQ(back->to_move(), s.to_move()) << text;
            EXPECT_EQ(legal_texts(*back), legal_texts(s)) << text;
            EXPECT_EQ(back->outcome().over, s.outcome().over) << text;
            EXPECT_STREQ(back->outcome().reason, s.outcome().reason) << text;
            EXPECT_TRUE(back->equals(s) || !s.last_captured().empty()) << text;
            ++positions;
          });
    }
  }
  EXPECT_GT(positions, 10000);
}

TEST(SeegaNotation, HashFollowsThePositionNotTheCounters) {
  const GamePtr game = load_game("seega-5x5");
  const auto a = game->parse_state("4L/5/1DL2/3D1/5 0-0 move dark 0 40");
  const auto b = game->parse_state("4L/5/1DL2/3D1/5 0-0 move dark 9 60");
  const auto c = game->parse_state("4L/5/1DL2/3D1/5 0-0 move light 0 40");
  const auto d = game->parse_state("4L/5/1DL2/4D/5 0-0 move dark 0 40");
  EXPECT_EQ(a->hash(), b->hash());
  EXPECT_NE(a->hash(), c->hash());
  EXPECT_NE(a->hash(), d->hash());
  EXPECT_FALSE(a->equals(*b));
  // Placement: the same board with other pieces in hand is another position.
  const auto p = play(*game, "", {"a1", "b1"});
  EXPECT_NE(p->hash(), game->initial_state()->hash());
}

TEST(SeegaNotation, BadPositionTextIsRefusedWithAClearError) {
  const GamePtr game = load_game("seega-5x5");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "6 fields"},
      {"5/5/5/5/5 12-12 place dark 0", "6 fields"},
      {"5/5/5/5/5 12-12 place dark 0 0 0", "6 fields"},
      {"5/5/5/5 12-12 place dark 0 0", "5 ranks of 5 squares"},
      {"5/5/5/5/5/5 12-12 place dark 0 0", "more than 5 ranks"},
      {"6/5/5/5/5 12-12 place dark 0 0", "more than 5 squares"},
      {"4/5/5/5/5 12-12 place dark 0 0", "rank 5 has 4 squares"},
      {"DDDDDD/5/5/5/5 12-12 place dark 0 0", "more than 5 squares"},
      {"5/5/5/5/4x 12-12 place dark 0 0", "unexpected character 'x'"},
      {"5/5/5/5/4d 12-12 place dark 0 0", "unexpected character 'd'"},
      {"5/5/5/5/5 13-12 place dark 0 0", "pieces in hand"},
      {"5/5/5/5/5 12 place dark 0 0", "pieces in hand"},
      {"5/5/5/5/5 -12 place dark 0 0", "pieces in hand"},
      {"5/5/5/5/5 12-12 play dark 0 0", "phase"},
      {"5/5/5/5/5 12-12 move dark 0 0", "pieces remain in hand"},
      {"5/5/5/5/5 12-12 place red 0 0", "turn 'red'"},
      {"5/5/5/5/5 12-12 place light 0 0", "dark's, not light's"},
      {"5/5/5/5/5 12-12 place dark x 0", "capture-free plies"},
      {"5/5/5/5/5 12-12 place dark 201 0", "capture-free plies"},
      {"5/5/5/5/5 12-12 place dark 0 -1", "ply"},
      {"5/5/5/5/5 12-12 place dark 0 99999999", "ply"},
      {"5/5/5/5/5 12-12 place dark 3 0", "only in the movement phase"},
      {"5/5/5/5/5 12-12 place dark 0 1", "ply must be 0"},
      {"5/5/5/5/D4 12-12 place dark 0 1", "rules give 12"},
      {"5/5/5/5/D4 11-12 place dark 0 2", "ply must be 1"},
      {"5/5/5/5/L4 12-11 place dark 0 1", "dark has placed 1"},
      {"5/5/2D2/5/5 11-12 place dark 0 1", "centre"},
      {"5/5/5/5/DDD2 9-12 place dark 0 3", "dark has placed 2"},
      {"5/5/5/5/D4 0-0 place dark 0 25", "no piece remains in hand"},
      {"5/5/5/5/5 0-0 move dark 0 30", "both sides are down to 0"},
      {"4L/5/5/5/D4 0-0 move dark 10 30", "too small"},
      {"DDDDD/DDDDD/DDD2/5/L4 0-0 move dark 0 30", "dark has 13 pieces"},
      {"5/5/5/LL3/DL3 0-0 move dark 0 40", "passes"},
      {std::string("5/5/5/5/5 12-12 place dark 0 0\0x", 32), "ply '0\\x00x'"},
  };
  for (const auto& [text, want] : cases) {
    const std::string err = error_of([&] { game->parse_state(text); });
    EXPECT_NE(err.find(want), std::string::npos) << "'" << text << "' gave: " << err;
  }
}

// Random damage to good texts never crashes: the parser reads it or throws GameError; what it
// reads writes back to text it reads again the same.
TEST(SeegaNotation, MangledTextNeverCrashes) {
  const GamePtr game = load_game("seega-5x5");
  std::vector<std::string> good;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    pincer::testing::play_random_game(*game->initial_state(), seed, 400,
                                      [&](const State& s, Action) { good.push_back(s.to_text()); });
  }
  std::mt19937_64 rng(7);
  const std::string alphabet = "DLdl0123456789/- placemovedarklight\t";
  int parsed = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string t = good[rng() % good.size()];
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits && !t.empty(); ++e) {
      const size_t at = rng() % t.size();
      const char c = alphabet[rng() % alphabet.size()];
      switch (rng() % 3) {
        case 0:
          t[at] = c;
          break;
        case 1:
          t.insert(t.begin() + static_cast<long>(at), c);
          break;
        default:
          t.erase(at, 1);
      }
    }
    try {
      const auto s = game->parse_state(t);
      ++parsed;
      EXPECT_EQ(game->parse_state(s->to_text())->to_text(), s->to_text()) << t;
    } catch (const GameError&) {
    }
  }
  EXPECT_GT(parsed, 100);  // some edits still make legal positions (e.g. a changed clock)
}

TEST(SeegaNotation, MoveText) {
  const GamePtr game = load_game("seega-5x5");
  auto s = game->initial_state();
  const Action b2 = game->parse_action(*s, "b2");
  EXPECT_EQ(b2, 6);
  EXPECT_EQ(game->action_text(*s, b2, false), "b2");
  EXPECT_EQ(game->action_text(*s, b2, true), "b2");
  EXPECT_EQ(game->parse_action(*s, " B2 "), b2);
  auto m = game->parse_state("4L/5/1DL2/3D1/5 0-0 move dark 0 40");
  const Action step = game->parse_action(*m, "d2-d3");
  EXPECT_EQ(game->action_text(*m, step, false), "d2-d3");
  EXPECT_EQ(game->action_text(*m, step, true), "d2-d3");
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"", "cannot read"},         {"z9", "not a square"},        {"f1", "not a square"},
      {"d2d3", "cannot read"},     {"d2-d4", "one step"},         {"d2-e3", "one step"},
      {"d2-f9", "not a square"},   {"c3-c4", "no piece of dark"}, {"e5-e4", "no piece of dark"},
      {"b3-c3", "occupied"},       {"d2", "placement is over"},   {"d2-d3-d4", "cannot read"},
      {"\xff\x01", "cannot read"},
  };
  for (const auto& [text, want] : bad) {
    const std::string err = error_of([&] { game->parse_action(*m, text); });
    EXPECT_NE(err.find(want), std::string::npos) << "'" << text << "' gave: " << err;
  }
  EXPECT_NE(error_of([&] { game->action_text(*m, game->num_actions(), false); }).find("outside"),
            std::string::npos);
  EXPECT_NE(error_of([&] { game->action_text(*m, -1, false); }).find("outside"), std::string::npos);
  // Every legal action's text reads back as that action.
  for (const auto* st : {s.get(), m.get()}) {
    std::vector<Action> actions;
    st->legal_actions(actions);
    for (Action a : actions)
      EXPECT_EQ(game->parse_action(*st, game->action_text(*st, a, false)), a);
  }
}

TEST(SeegaNotation, RecordsRoundTrip) {
  const GamePtr game = load_game("seega-5x5");
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    std::vector<Action> actions;
    std::unique_ptr<State> last;
    pincer::testing::play_random_game(*game->initial_state(), seed, 5000,
                                      [&](const State& s, Action a) {
                                        if (a >= 0)
                                          actions.push_back(a);
                                        else
                                          last = s.clone();
                                      });
    const std::string sgn = write_sgn(*game, *game->initial_state(), actions);
    const auto records = parse_sgn(sgn);
    ASSERT_EQ(records.size(), 1u);
    const ReplayedGame g = replay_record(records[0]);
    EXPECT_EQ(g.actions, actions);
    EXPECT_TRUE(g.final->equals(*last));
    EXPECT_EQ(records[0].header("Fingerprint"), game->fingerprint());
  }
}

TEST(SeegaEncoding, PlanesFromTheMoversView) {
  const GamePtr game = load_game("seega-5x5");
  const int n = 25;
  std::vector<float> planes(game->input_shape().size());
  auto plane = [&](int c, int sq) { return planes[c * n + sq]; };
  auto s = play(*game, "", {"a1", "b1", "e5"});  // light to place its second piece
  s->encode(planes.data());
  EXPECT_EQ(plane(0, 24), 1.0f);  // light's e5 is "mine"
  EXPECT_EQ(plane(1, 0), 1.0f);   // dark's a1 is the other side's
  EXPECT_EQ(plane(1, 1), 1.0f);
  EXPECT_EQ(plane(0, 0), 0.0f);
  EXPECT_EQ(plane(2, 12), 1.0f);  // the centre
  EXPECT_EQ(plane(2, 11), 0.0f);
  EXPECT_EQ(plane(3, 7), 1.0f);  // placement phase
  EXPECT_EQ(plane(4, 7), 0.0f);  // not acting for a blocked player
  EXPECT_FLOAT_EQ(plane(5, 3), 11.0f / 12);
  EXPECT_FLOAT_EQ(plane(6, 3), 10.0f / 12);
  EXPECT_EQ(plane(7, 3), 0.0f);  // light's last placement of this turn
  EXPECT_EQ(plane(9, 3), 0.0f);  // light
  // The forced state: light acts for blocked dark.
  auto f = game->parse_state("DLDLD/LDLDL/DL1LD/LDLDL/DLDLD 0-0 move dark 0 24");
  f->encode(planes.data());
  EXPECT_EQ(plane(0, 1), 1.0f);  // light's b1 is the mover's
  EXPECT_EQ(plane(4, 0), 1.0f);
  EXPECT_EQ(plane(7, 0), 1.0f);  // light moves again after the forced move
  EXPECT_EQ(plane(3, 0), 0.0f);
}

// A position with its board turned by symmetry `sym`.
std::unique_ptr<State> transformed(const SeegaGame& game, const State& s, int sym) {
  const Position& p = position_of(s);
  Position q = Position::empty(game.rules());
  for (int sq = 0; sq < game.rules().num_squares; ++sq) {
    if (p.owner(sq) >= 0) q.put(game.map_square(sym, sq), p.owner(sq));
  }
  q.set_hands(p.hand(0), p.hand(1));
  q.set_turn(p.turn());
  q.set_counters(p.halfmove(), p.ply());
  q.finish();
  return game.wrap(q);
}

TEST(SeegaEncoding, SymmetriesMapPlanesAndPolicy) {
  for (const char* name : {"seega-5x5", "seega-7x7"}) {
    const GamePtr g = load_game(name);
    const auto& game = static_cast<const SeegaGame&>(*g);
    ASSERT_EQ(game.num_symmetries(), 8);
    const int size = game.input_shape().size();
    std::set<std::vector<int>> distinct;
    for (int sym = 0; sym < 8; ++sym) {
      std::vector<int> m;
      for (int sq = 0; sq < game.rules().num_squares; ++sq) m.push_back(game.map_square(sym, sq));
      distinct.insert(m);
    }
    EXPECT_EQ(distinct.size(), 8u) << name;
    int checked = 0;
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      pincer::testing::play_random_game(
          *game.initial_state(), seed, 3000, [&](const State& s, Action) {
            if (s.outcome().over || (s.hash() % 7) != 0) return;
            std::vector<float> planes(size), turned(size);
            s.encode(planes.data());
            std::vector<Action> legal;
            s.legal_actions(legal);
            for (int sym = 1; sym < 8; ++sym) {
              const auto t = transformed(game, s, sym);
              // Planes: encoding the turned position = turning the encoded planes.
              t->encode(turned.data());
              std::vector<float> p = planes;
              game.apply_symmetry(sym, p.data(), nullptr);
              ASSERT_EQ(p, turned) << name << " sym " << sym << " " << s.to_text();
              // Policy: a vector over the legal actions maps onto the turned position's actions.
              std::vector<float> policy(game.num_actions(), 0.0f);
              for (size_t i = 0; i < legal.size(); ++i) policy[s.policy_index(legal[i])] = 1.0f + i;
              game.apply_symmetry(sym, nullptr, policy.data());
              std::vector<Action> t_legal;
              t->legal_actions(t_legal);
              ASSERT_EQ(t_legal.size(), legal.size());
              for (size_t i = 0; i < legal.size(); ++i) {
                const Action mapped = game.map_action(sym, legal[i]);
                EXPECT_EQ(policy[t->policy_index(mapped)], 1.0f + i);
                EXPECT_NE(std::find(t_legal.begin(), t_legal.end(), mapped), t_legal.end());
              }
              EXPECT_EQ(std::count(policy.begin(), policy.end(), 0.0f),
                        static_cast<long>(policy.size() - legal.size()));
              ++checked;
            }
          });
    }
    EXPECT_GT(checked, 100) << name;
  }
}

TEST(SeegaEncoding, KnownSymmetry) {
  const GamePtr g = load_game("seega-5x5");
  const auto& game = static_cast<const SeegaGame&>(*g);
  const Rules& r = game.rules();
  // 1 mirrors the files, 2 the ranks, 4 swaps files and ranks.
  EXPECT_EQ(r.square_name(game.map_square(1, r.parse_square("a2"))), "e2");
  EXPECT_EQ(r.square_name(game.map_square(2, r.parse_square("a2"))), "a4");
  EXPECT_EQ(r.square_name(game.map_square(4, r.parse_square("a2"))), "b1");
  auto s = game.parse_state("4L/5/1DL2/3D1/5 0-0 move dark 0 40");
  const Action up = game.parse_action(*s, "d2-d3");
  EXPECT_EQ(seega::action_text(r, game.map_action(1, up)), "b2-b3");
  EXPECT_EQ(seega::action_text(r, game.map_action(2, up)), "d4-d3");
  EXPECT_EQ(seega::action_text(r, game.map_action(4, up)), "b4-c4");
}

}  // namespace
}  // namespace pincer::seega
