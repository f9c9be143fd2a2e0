// Corners text forms and network views: the position text round-trips over random games and its
// strict parser refuses bad text with a clear error (never a crash); every legal move's one name
// reads back; the input planes, the policy view for black and the left-right mirror.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "engine/corners/corners_game.h"
#include "engine/corners/notation.h"
#include "engine/registry.h"
#include "tests/support/corners_fixtures.h"
#include "tests/support/errors.h"
#include "tests/support/random_games.h"

namespace pincer::corners {
namespace {

using ::pincer::testing::error_of;
using testing::corners_position;

const char* const kStart =
    "......../BBBBBBBB/BBBBBBBB/......../......../WWWWWWWW/WWWWWWWW/........ "
    "......./......./......./......./......./......./....... w 0 0 0";

TEST(CornersNotation, StartTextIsTheIssues) {
  const GamePtr game = load_game("corners");
  EXPECT_EQ(game->initial_state()->to_text(), kStart);
  EXPECT_TRUE(game->parse_state(kStart)->equals(*game->initial_state()));
}

TEST(CornersNotation, TextAndMovesRoundTripOverRandomGames) {
  const GamePtr game = load_game("corners");
  int positions = 0;
  std::set<std::string> kinds;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    pincer::testing::play_random_game(
        *game->initial_state(), seed, 400, [&](const State& s, Action) {
          const std::string text = s.to_text();
          std::unique_ptr<State> back;
          ASSERT_NO_THROW(back = game->parse_state(text)) << text;
          EXPECT_EQ(back->to_text(), text);
          EXPECT_EQ(back->hash(), s.hash()) << text;
          EXPECT_TRUE(back->equals(s)) << text;
          EXPECT_STREQ(back->outcome().reason, s.outcome().reason) << text;
          std::vector<Action> legal;
          s.legal_actions(legal);
          std::set<std::string> names;
          for (Action a : legal) {
            const std::string name = game->action_text(s, a, false);
            EXPECT_EQ(game->action_text(s, a, true), name);
            EXPECT_EQ(game->parse_action(s, name), a) << name << " in " << text;
            EXPECT_TRUE(names.insert(name).second) << "two moves named " << name;
            kinds.insert(name.find('*') != std::string::npos    ? "divide"
                         : name.find('\'') == 2                 ? "to square"
                         : name.find('\'') != std::string::npos ? "to point"
                                                                : "run");
          }
          ++positions;
        });
  }
  EXPECT_GT(positions, 3000);
  EXPECT_EQ(kinds.size(), 4u);
}

TEST(CornersNotation, HashFollowsThePositionNotThePly) {
  const GamePtr game = load_game("corners");
  const auto a = game->parse_state(corners_position("d3", "e6", "c4'", "", "w", 1, 2, 10));
  const auto b = game->parse_state(corners_position("d3", "e6", "c4'", "", "w", 1, 2, 30));
  const auto c = game->parse_state(corners_position("d3", "e6", "c4'", "", "b", 1, 2, 10));
  const auto d = game->parse_state(corners_position("d3", "e6", "c4'", "", "w", 2, 2, 10));
  const auto e = game->parse_state(corners_position("d3", "e6", "", "c4'", "w", 1, 2, 10));
  EXPECT_EQ(a->hash(), b->hash());
  EXPECT_FALSE(a->equals(*b));
  for (const auto* other : {c.get(), d.get(), e.get()}) EXPECT_NE(a->hash(), other->hash());
}

TEST(CornersNotation, BadPositionTextIsRefusedWithAClearError) {
  const GamePtr game = load_game("corners");
  const std::string pts = "......./......./......./......./......./......./.......";
  const std::string sqs = "......../......../......../......../......../......../......../W.......";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "6 fields"},
      {sqs + " " + pts + " w 0 0", "6 fields"},
      {"......../......../......../......../......../......../W....... " + pts + " w 0 0 0",
       "squares field"},
      {"......../......../......../......../......../......../......../W......x " + pts +
           " w 0 0 0",
       "squares field"},
      {sqs + " ......./......./......./......./......./......./........ w 0 0 0", "points field"},
      {sqs + " ......./......./......./......./......./......./......X w 0 0 0",
       "unexpected character 'X'"},
      {sqs + " " + pts + " x 0 0 0", "side to move 'x' must be 'w' or 'b'"},
      {sqs + " " + pts + " w 17 0 0", "white reserve '17'"},
      {sqs + " " + pts + " w 0 -1 0", "black reserve '-1'"},
      {sqs + " " + pts + " w 0 0 401", "ply '401'"},
      {sqs + " " + pts + " w 16 0 0", "white has 1 pieces on the board and 16 in reserve"},
      {corners_position("c8", "a7", "", "", "w"), "white to move has a piece on its farthest rank"},
      {corners_position("d5 a1", "h8", "", "c4' d5'"), "capture patterns (d5 c4' d5')"},
      {corners_position("d3 c4 e4 d4 d5", "h8", "", ""), "capture patterns"},
      {std::string(kStart) + "\xff", "ply '0\\xff'"},
  };
  for (const auto& [text, want] : cases) {
    const std::string err = error_of([&] { game->parse_state(text); });
    EXPECT_NE(err.find(want), std::string::npos) << "text '" << text << "' gave: " << err;
  }
  // The far rank of the side that just moved ends the game instead.
  EXPECT_STREQ(game->parse_state(corners_position("c8", "a7", "", "", "b"))->outcome().reason,
               "crossed");
}

TEST(CornersNotation, MangledTextNeverCrashes) {
  const GamePtr game = load_game("corners");
  std::mt19937_64 rng(7);
  const std::string alphabet = "WB./ wb0123456789'*-abcdefgh\xff";
  int accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string text = kStart;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t at = rng() % (text.size() + 1);
      const char c = alphabet[rng() % alphabet.size()];
      switch (rng() % 3) {
        case 0:
          if (at < text.size()) text[at] = c;
          break;
        case 1:
          text.insert(text.begin() + static_cast<long>(at), c);
          break;
        default:
          if (at < text.size()) text.erase(at, 1);
      }
    }
    try {
      auto s = game->parse_state(text);
      EXPECT_EQ(game->parse_state(s->to_text())->to_text(), s->to_text());
      ++accepted;
    } catch (const GameError&) {
    }
  }
  EXPECT_GT(accepted, 100);
}

TEST(CornersNotation, BadMoveTextSaysWhy) {
  const GamePtr game = load_game("corners");
  const auto start = game->initial_state();
  const auto s = game->parse_state(corners_position("d4 e4", "a8", "c5'", "e5'", "w", 1));
  const std::vector<std::tuple<const State*, std::string, std::string>> cases = {
      {start.get(), "", "cannot read move ''"},
      {start.get(), "b2", "cannot read move 'b2'"},
      {start.get(), "b2-b9", "neither a square"},
      {start.get(), "i2-b3", "neither a square"},
      {start.get(), "b2-h8'", "neither a square"},
      {start.get(), "b6-b5", "b6 holds no square piece of white"},
      {start.get(), "b2-c3", "runs along a rank or a file"},
      {start.get(), "b2-b3", "b3 is occupied"},
      {start.get(), "b2-b5", "own-guarded empty squares"},
      {start.get(), "b2-c3'", "c3' is not a corner of b2"},
      {start.get(), "b2'-b3", "holds no point piece of white"},
      {start.get(), "b2'*", "holds no point piece of white"},
      {s.get(), "d4-d4'", "guard zones may not overlap"},
      {s.get(), "c5'-c4", "c4 is not one of the squares of c5'"},
      {s.get(), "c5'-d5'", "moves to one of its squares"},
      {s.get(), "c5'*d6c5", "write the placements sorted, as c5'*c5d6"},
      {s.get(), "c5'*c5d6", "has 1 pieces in reserve"},
      {s.get(), "c5'*c5c5", "named twice"},
      {s.get(), "c5'*c5x", "up to four squares"},
      {s.get(), "c5'*e5", "not one of the squares of c5'"},
      {s.get(), "h7'*", "a divide starts with a point"},
  };
  for (const auto& [state, text, want] : cases) {
    const std::string err = error_of([&] { game->parse_action(*state, text); });
    EXPECT_NE(err.find(want), std::string::npos) << "move '" << text << "' gave: " << err;
  }
  EXPECT_EQ(game->action_text(*s, game->parse_action(*s, " c5'*c5 "), false), "c5'*c5");
}

TEST(CornersNotation, PlanesFromTheMoversView) {
  const GamePtr game = load_game("corners");
  const InputShape shape = game->input_shape();
  ASSERT_EQ(shape.size(), CornersGame::kPlanes * 64);
  std::vector<float> w(shape.size()), b(shape.size());
  // White square d3 and point c4'; black square e6 and point f6'; black to move, reserves 1-2.
  const auto s = game->parse_state(corners_position("d3", "e6", "c4'", "f6'", "b", 1, 2, 40));
  s->encode(b.data());
  auto at = [&](const std::vector<float>& v, int plane, int f, int r) {
    return v[static_cast<size_t>(plane * 64 + f + 8 * r)];
  };
  // Black's view turns the ranks: e6 -> e3, d3 -> d6; points f6' -> f2', c4' stays c4'.
  EXPECT_EQ(at(b, 0, 4, 2), 1.0f);
  EXPECT_EQ(at(b, 1, 3, 5), 1.0f);
  EXPECT_EQ(at(b, 2, 5, 1), 1.0f);
  EXPECT_EQ(at(b, 3, 2, 3), 1.0f);
  EXPECT_FLOAT_EQ(at(b, 6, 0, 0), 2.0f / 16);
  EXPECT_FLOAT_EQ(at(b, 7, 0, 0), 1.0f / 16);
  EXPECT_FLOAT_EQ(at(b, 8, 0, 0), 40.0f / 400);
  EXPECT_EQ(at(b, 10, 0, 0), 0.0f);
  // Guards: f6' guards f6, g6, f7, g7 (black's view: ranks 3 and 2); c4' guards c4, d4, c5, d5.
  EXPECT_EQ(at(b, 4, 5, 2), 1.0f);
  EXPECT_EQ(at(b, 4, 6, 1), 1.0f);
  EXPECT_EQ(at(b, 5, 2, 3), 1.0f);
  EXPECT_EQ(at(b, 5, 3, 4), 1.0f);
  float total = 0;
  for (int p = 0; p < 6; ++p)
    for (int i = 0; i < 64; ++i) total += b[static_cast<size_t>(p * 64 + i)];
  EXPECT_EQ(total, 1 + 1 + 1 + 1 + 4 + 4);
  // The same position with the colours swapped and white to move encodes the same pieces.
  const auto t = game->parse_state(corners_position("e3", "d6", "f2'", "c4'", "w", 2, 1, 40));
  t->encode(w.data());
  for (int p = 0; p < 8; ++p)
    for (int i = 0; i < 64; ++i)
      EXPECT_EQ(w[static_cast<size_t>(p * 64 + i)], b[static_cast<size_t>(p * 64 + i)])
          << "plane " << p << " cell " << i;
}

TEST(CornersNotation, PolicyIndexTurnsWithThePlanes) {
  const GamePtr game = load_game("corners");
  // After the same opening move by each side, black's moves in its own view are white's.
  const auto w = game->initial_state();
  auto b = game->initial_state();
  b->apply(game->parse_action(*b, "a2-a1"));
  b->apply(game->parse_action(*b, "h7-h8"));
  b->apply(game->parse_action(*b, "a1-a2"));
  std::vector<Action> wl, bl;
  w->legal_actions(wl);
  b->legal_actions(bl);
  std::set<int> wi, bi;
  for (Action a : wl) wi.insert(w->policy_index(a));
  for (Action a : bl) bi.insert(b->policy_index(a));
  // h7-h8 moved black's h piece: mirror it back by comparing sizes and the divide-free ids.
  EXPECT_EQ(wi.size(), wl.size());
  EXPECT_EQ(bi.size(), bl.size());
  EXPECT_EQ(b->policy_index(game->parse_action(*b, "b7-b5")), game->parse_action(*w, "b2-b4"));
  EXPECT_EQ(b->policy_index(game->parse_action(*b, "b7-a6'")), game->parse_action(*w, "b2-a2'"));
  EXPECT_EQ(b->policy_index(game->parse_action(*b, "c6-b6'")), game->parse_action(*w, "c3-b2'"));
}

TEST(CornersNotation, MirrorMapsPlanesAndPolicyOntoTheMirroredPosition) {
  const GamePtr game = load_game("corners");
  ASSERT_EQ(game->num_symmetries(), 2);
  const std::vector<float> zero(static_cast<size_t>(game->num_actions()), 0.0f);
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    pincer::testing::play_random_game(
        *game->initial_state(), seed, 120, [&](const State& s, Action) {
          if (s.outcome().over) return;
          // Mirror the text by hand: reverse each group of both grids.
          const std::string text = s.to_text();
          std::string sq = text.substr(0, 71), pt = text.substr(72, 55), rest = text.substr(128);
          for (size_t i = 0; i < sq.size(); i += 9)
            std::reverse(sq.begin() + i, sq.begin() + i + 8);
          for (size_t i = 0; i < pt.size(); i += 8)
            std::reverse(pt.begin() + i, pt.begin() + i + 7);
          const auto m = game->parse_state(sq + " " + pt + " " + rest);
          std::vector<float> planes(static_cast<size_t>(game->input_shape().size()));
          std::vector<float> mirrored(planes.size());
          s.encode(planes.data());
          m->encode(mirrored.data());
          std::vector<float> policy = zero;
          std::vector<Action> legal, mlegal;
          s.legal_actions(legal);
          m->legal_actions(mlegal);
          for (Action a : legal) policy[static_cast<size_t>(s.policy_index(a))] = 1.0f;
          game->apply_symmetry(1, planes.data(), policy.data());
          EXPECT_EQ(planes, mirrored) << text;
          std::vector<float> want = zero;
          for (Action a : mlegal) want[static_cast<size_t>(m->policy_index(a))] = 1.0f;
          EXPECT_EQ(policy, want) << text;
        });
  }
}

}  // namespace
}  // namespace pincer::corners
