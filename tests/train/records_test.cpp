// store/records: chunk files round trip, are refused under another ruleset, and damaged ones
// are refused rather than half-read; replay checks legality.
#include "store/records.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "engine/atomic_file.h"
#include "engine/registry.h"
#include "tests/train/helpers.h"
#include "train/window.h"

namespace pincer::testing {
namespace {

GameRecord sample_record(const Game& game, const std::vector<Action>& moves, int winner) {
  return searched_record(game, moves, winner, "test/model-1");
}

void near(const std::array<float, 3>& got, const std::array<float, 3>& want) {
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(got[k], want[k], 1e-6) << k;
}

TEST(Records, ChunkRoundTrip) {
  ScratchDir dir("records");
  GamePtr game = make_tictactoe();
  // x wins on the bottom rank: a1 b1 c1 against a2 b2.
  const GameRecord win = sample_record(*game, {0, 3, 1, 4, 2}, 0);
  const GameRecord draw = sample_record(*game, {4, 0, 8, 2, 1, 7, 6, 3, 5}, -1);
  const std::string path = write_record_chunk(dir.path(), *game, {win, draw}, "t1");
  const std::string path2 = write_record_chunk(dir.path(), *game, {draw}, "t1");
  const auto names = list_record_chunks(dir.path());
  ASSERT_EQ(names.size(), 2u);
  EXPECT_LT(names[0], names[1]);
  EXPECT_EQ(std::filesystem::path(path).filename(), names[0]);
  const RecordChunk chunk = read_record_chunk(path, *game);
  EXPECT_EQ(chunk.fingerprint(), game->fingerprint());
  ASSERT_EQ(chunk.games_size(), 2);
  EXPECT_EQ(chunk.games(0).SerializeAsString(), win.SerializeAsString());
  EXPECT_EQ(chunk.games(1).SerializeAsString(), draw.SerializeAsString());
  EXPECT_EQ(read_record_chunk(path2, *game).games_size(), 1);
}

TEST(Records, RefusedUnderAnotherFingerprintNamingBoth) {
  ScratchDir dir("records-fp");
  GamePtr reference = load_game("seize-reference");
  GamePtr v0 = load_game("seize-v0");
  auto state = reference->initial_state();
  std::vector<Action> legal;
  state->legal_actions(legal);
  const GameRecord r = sample_record(*reference, {legal[0]}, -1);
  const std::string path = write_record_chunk(dir.path(), *reference, {r}, "w");
  try {
    read_record_chunk(path, *v0);
    FAIL() << "read seize-reference records under seize-v0";
  } catch (const RecordError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(reference->fingerprint()), std::string::npos) << msg;
    EXPECT_NE(msg.find(v0->fingerprint()), std::string::npos) << msg;
  }
  // A record of other rules smuggled into a chunk of the right ones is refused too.
  GameRecord odd = r;
  odd.set_fingerprint("0123456789abcdef");
  const std::string mixed = write_record_chunk(dir.path(), *reference, {r, odd}, "w");
  EXPECT_THROW(read_record_chunk(mixed, *reference), RecordError);
}

TEST(Records, DamagedChunksAreRefused) {
  ScratchDir dir("records-bad");
  GamePtr game = make_tictactoe();
  const std::string path =
      write_record_chunk(dir.path(), *game, {sample_record(*game, {0, 3, 1, 4, 2}, 0)}, "w");
  const std::string bytes = read_whole_file(path);
  std::ofstream(dir / "cut.chunk", std::ios::binary) << bytes.substr(0, bytes.size() - 7);
  EXPECT_THROW(read_record_chunk(dir / "cut.chunk", *game), RecordError);
  std::ofstream(dir / "junk.chunk") << "hello";
  EXPECT_THROW(read_record_chunk(dir / "junk.chunk", *game), RecordError);
  EXPECT_THROW(read_record_chunk(dir / "missing.chunk", *game), RecordError);
}

TEST(Records, WindowTurnsRecordsIntoTargets) {
  GamePtr game = make_tictactoe();
  Window window(100);
  EXPECT_EQ(window.add_game(*game, sample_record(*game, {0, 3, 1, 4, 2}, 0)), 5);
  ASSERT_EQ(window.size(), 5u);
  // x (player 0) won: positions with x to move are wins, with o to move losses.
  EXPECT_EQ(window[0].wdl, (std::array<float, 3>{1, 0, 0}));
  EXPECT_EQ(window[1].wdl, (std::array<float, 3>{0, 0, 1}));
  EXPECT_EQ(window[0].policy_index.size(), 9u);
  EXPECT_EQ(window[4].policy_index.size(), 5u);
  // The window keeps the most recent positions.
  Window small(3);
  small.add_game(*game, sample_record(*game, {4, 0, 8, 2, 1, 7, 6, 3, 5}, -1));
  ASSERT_EQ(small.size(), 3u);
  EXPECT_EQ(small[2].wdl, (std::array<float, 3>{0, 1, 0}));
  // An illegal move in a record is refused.
  GameRecord bad = sample_record(*game, {0, 3}, -1);
  bad.mutable_moves(1)->set_action(0);
  EXPECT_THROW(window.add_game(*game, bad), RecordError);
}

// The value target blends the game's result with the search's root value, or with the move's
// alpha-beta value where self-play recorded one (selfplay.alphabeta_value_share).
TEST(Records, WindowTakesTheAlphaBetaValueOverTheRootValue) {
  GamePtr game = make_tictactoe();
  GameRecord r = sample_record(*game, {0, 3, 1, 4, 2}, 0);  // x wins; every root value 0.5
  r.mutable_moves(0)->set_alphabeta_value(0.2f);
  r.mutable_moves(1)->set_alphabeta_value(1.0f);
  Window window(100, 0.5);
  ASSERT_EQ(window.add_game(*game, r), 5);
  near(window[0].wdl, {0.6f, 0, 0.4f});    // x to move, won: 0.5 x (1, 0, 0) + 0.5 x (0.2, 0, 0.8)
  near(window[1].wdl, {0.5f, 0, 0.5f});    // o to move, lost: 0.5 x (0, 0, 1) + 0.5 x (1, 0, 0)
  near(window[2].wdl, {0.75f, 0, 0.25f});  // x, no alpha-beta value: the root value 0.5
}

// A game cut at selfplay.max_moves without a winner is a draw, or with trainer.cut_game_result
// "root_value" takes the search's judgement where it was cut: player 0's mean expected score over
// the last 8 searched positions, as the result with the most draw that has that score.
TEST(Records, ACutGameTakesItsLastRootValuesWhenAskedTo) {
  GamePtr game = make_tictactoe();
  // Nine moves, recorded as cut. Player 0 (x) moves at even plies: x's searches say 0.75, o's
  // 0.25 (x's 0.75 too). Ply 0's 0.0 is older than the last eight; ply 8 had no search.
  GameRecord r = sample_record(*game, {4, 0, 8, 2, 1, 7, 6, 3, 5}, -1);
  r.set_reason("max_moves");
  for (int i = 0; i < r.moves_size(); ++i) {
    r.mutable_moves(i)->set_root_value(i % 2 == 0 ? 0.75f : 0.25f);
  }
  r.mutable_moves(0)->set_root_value(0.0f);
  r.mutable_moves(8)->set_root_value(0.0f);
  r.mutable_moves(8)->set_simulations(0);
  r.mutable_moves(8)->set_full_search(false);
  std::vector<int> movers;
  for (int i = 0; i < r.moves_size(); ++i) movers.push_back(i % 2);
  ASSERT_TRUE(cut_game_score(r, movers).has_value());
  EXPECT_NEAR(*cut_game_score(r, movers), 0.75f, 1e-6);

  Window bootstrapped(100, 0, 0, true);
  ASSERT_EQ(bootstrapped.add_game(*game, r), 9);
  near(bootstrapped[0].wdl, {0.5f, 0.5f, 0});  // x to move: score 0.75
  near(bootstrapped[1].wdl, {0, 0.5f, 0.5f});  // o to move: score 0.25
  // Blended with the root value as any result is: 0.5 x (0.5, 0.5, 0) + 0.5 x (0, 0, 1).
  Window blended(100, 0.5, 0, true);
  blended.add_game(*game, r);
  near(blended[0].wdl, {0.25f, 0.25f, 0.5f});

  // By default, a cut game is a draw.
  Window plain(100);
  plain.add_game(*game, r);
  near(plain[0].wdl, {0, 1, 0});
  // A game that ended in a draw, or was won, keeps its result.
  GameRecord drawn = r;
  drawn.set_reason("draw");
  EXPECT_FALSE(cut_game_score(drawn, movers).has_value());
  Window b2(100, 0, 0, true);
  b2.add_game(*game, drawn);
  near(b2[0].wdl, {0, 1, 0});
  GameRecord won = sample_record(*game, {0, 3, 1, 4, 2}, 0);
  won.set_reason("max_moves");  // as a points adjudication records it
  EXPECT_FALSE(cut_game_score(won, {0, 1, 0, 1, 0}).has_value());
  // No searched position among the last eight: no judgement, a draw.
  GameRecord unsearched = r;
  for (auto& m : *unsearched.mutable_moves()) m.set_simulations(0);
  EXPECT_FALSE(cut_game_score(unsearched, movers).has_value());
  Window b3(100, 0, 0, true);
  b3.add_game(*game, unsearched);
  near(b3[0].wdl, {0, 1, 0});
}

// A random-start game's record replays from its stored start, not the game's initial state; a
// record without a start (as written before starts were stored) replays from the initial state.
TEST(Records, ReplayStartsFromTheRecordedStart) {
  const GamePtr game = load_game("dice-7x7");
  const auto start = game->setup_state("354K612/216K543 b");
  GameRecord r;
  r.set_start(start->to_text());
  r.add_moves()->set_action(game->parse_action(*start, "a6-a5"));  // black moves first here
  std::vector<std::string> seen;
  replay_record(*game, r, [&](const State& s, int) { seen.push_back(s.to_text()); });
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0], start->to_text());
  // The same move is illegal from the initial state (white to move there).
  r.clear_start();
  if (game->initial_state()->to_move() == 0) {
    EXPECT_THROW(replay_record(*game, r, [](const State&, int) {}), RecordError);
  }
  Window window(100);
  r.set_start(start->to_text());
  r.set_winner(-1);
  r.mutable_moves(0)->set_full_search(true);
  r.mutable_moves(0)->add_policy_actions(r.moves(0).action());
  r.mutable_moves(0)->add_policy(1.0f);
  EXPECT_EQ(window.add_game(*game, r), 1);
  // A damaged start (found by fuzz_record_chunk) is the record's error, and the window keeps
  // what it had.
  r.set_start("not a position");
  EXPECT_THROW(window.add_game(*game, r), RecordError);
  EXPECT_EQ(window.size(), 1u);
}

TEST(Records, WindowRefusesBadPolicyTargetsWhole) {
  GamePtr game = make_tictactoe();
  Window window(100);
  ASSERT_EQ(window.add_game(*game, sample_record(*game, {0, 3, 1, 4, 2}, 0)), 5);
  // Move 3's policy names an action id far outside the action space (once a heap write out of
  // bounds in the trainer), then one that is in range but illegal there, then bad sizes and
  // shares: each record is refused whole, the window keeps exactly what it had.
  GameRecord out_of_range = sample_record(*game, {4, 0, 8}, -1);
  out_of_range.mutable_moves(2)->set_policy_actions(0, 100000);
  GameRecord illegal = sample_record(*game, {4, 0, 8}, -1);
  illegal.mutable_moves(2)->set_policy_actions(0, 4);  // square 4 is taken by then
  GameRecord sizes = sample_record(*game, {4, 0, 8}, -1);
  sizes.mutable_moves(2)->add_policy(0.5f);
  GameRecord negative = sample_record(*game, {4, 0, 8}, -1);
  negative.mutable_moves(2)->set_policy(0, -1.0f);
  for (const GameRecord* bad : {&out_of_range, &illegal, &sizes, &negative}) {
    try {
      window.add_game(*game, *bad);
      ADD_FAILURE() << "accepted a bad record";
    } catch (const RecordError& e) {
      EXPECT_NE(std::string(e.what()).find("move 3"), std::string::npos) << e.what();
    }
    ASSERT_EQ(window.size(), 5u);
  }
  EXPECT_EQ(window[4].wdl, (std::array<float, 3>{1, 0, 0}));
}

TEST(Records, ChunkClaimingAHugeSizeIsRefusedBeforeAllocating) {
  ScratchDir dir("records-huge");
  GamePtr game = make_tictactoe();
  // A zstd frame header (magic, single segment, 8-byte content size) claiming 3 GiB.
  std::string bytes = {'\x28', '\xb5', '\x2f', '\xfd', '\xe0'};
  const unsigned long long claimed = 3ull << 30;
  for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<char>((claimed >> (8 * i)) & 0xff));
  bytes += std::string(16, '\0');
  std::ofstream(dir / "huge.chunk", std::ios::binary) << bytes;
  try {
    read_record_chunk(dir / "huge.chunk", *game);
    FAIL() << "read a chunk claiming 3 GiB";
  } catch (const RecordError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("claims 3221225472 bytes"), std::string::npos) << msg;
    EXPECT_NE(msg.find("huge.chunk"), std::string::npos) << msg;
  }
}

}  // namespace
}  // namespace pincer::testing
