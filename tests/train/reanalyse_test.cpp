// Reanalyse (selfplay.reanalyse_share, train/reanalyse.h): a reanalysis record holds the new
// search's targets over the stored game's own moves; the window puts them in place of the game's
// stale targets (never beside them), refuses a record that does not match its game and leaves
// the window alone then; the trainer counts the replaced positions and resumes with them;
// self-play spends about its share of the simulations re-searching games of older models with
// the current one; share 0 changes nothing; a tiny run with reanalyse on runs and resumes.
#include "train/reanalyse.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <map>
#include <set>

#include "mcts/evaluators.h"
#include "nn/model.h"
#include "store/records.h"
#include "store/run_dir.h"
#include "tests/train/helpers.h"
#include "train/loop.h"
#include "train/run_setup.h"
#include "train/selfplay.h"
#include "train/trainer.h"
#include "train/window.h"

namespace pincer::testing {
namespace {

namespace fs = std::filesystem;

// A tic-tac-toe game as a record: every move a full search whose policy is all on the move
// played (the "stale" targets), root value `root_value`.
GameRecord played_record(const Game& game, const std::vector<Action>& moves, int winner,
                         float root_value = 0.5f) {
  return searched_record(game, moves, winner, "test/old-model", root_value);
}

// A reanalysis of `original` (game `index` of `chunk`) whose targets are uniform over the legal
// moves, root value `root_value`: targets unlike the one-hot stale ones.
GameRecord uniform_reanalysis(const GameRecord& original, const std::string& chunk, int index,
                              float root_value = 0.9f) {
  GameRecord r = original;
  r.set_model_id("test/new-model");
  r.mutable_reanalysis()->set_chunk(chunk);
  r.mutable_reanalysis()->set_game(index);
  r.mutable_reanalysis()->set_original_model_id(original.model_id());
  for (MoveRecord& m : *r.mutable_moves()) {
    const int n = m.policy_actions_size();
    m.clear_policy();
    for (int k = 0; k < n; ++k) m.add_policy(1.0f / static_cast<float>(n));
    m.set_root_value(root_value);
  }
  return r;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const RecordError& e) {
    return e.what();
  }
  return "no error";
}

// Every target of the window, as text: equal windows give equal text.
std::string targets(const Window& w) {
  std::string out;
  for (size_t i = 0; i < w.size(); ++i) {
    const Sample& s = w[i];
    out += s.state->to_text() + ":";
    for (size_t k = 0; k < s.policy.size(); ++k) {
      out += std::to_string(s.policy_index[k]) + "=" + std::to_string(s.policy[k]) + ",";
    }
    for (float v : s.wdl) out += std::to_string(v) + "/";
    out += std::to_string(s.points) + "\n";
  }
  return out;
}

// x wins on the first rank: a1 a2 b1 b2 c1.
const std::vector<Action> kWin = {0, 3, 1, 4, 2};
// A draw: b2 a1 c3 c1 b1 b3 a3 a2 c2.
const std::vector<Action> kDraw = {4, 0, 8, 2, 1, 7, 6, 3, 5};

TEST(ReanalyseRecord, HoldsTheNewSearchsTargetsOverTheGamesOwnMoves) {
  GamePtr game = make_tictactoe();
  const GameRecord stale = played_record(*game, kDraw, -1);
  GameReanalysis re(*game, stale, "0000000000001-sp-000000.chunk", 3, "test/new-model");
  // The search self-play runs (noise, Gumbel root, tree kept along the game's moves), here with a
  // network-free evaluator that calls every position a likely win for the mover.
  mcts::SearchConfig sc;
  sc.simulations = 32;
  sc.self_play = true;
  sc.gumbel_actions = 4;
  sc.quiescence_weight = 0;
  sc.capture_prior = 0;
  mcts::UniformEvaluator net({0.8f, 0.0f, 0.2f});
  mcts::Search search(game, sc);
  search.reset(re.state());
  std::vector<mcts::SearchResult> results;
  while (!re.done()) {
    const Action played = re.action();
    EXPECT_EQ(played, stale.moves(re.ply()).action());
    results.push_back(search.run(net));
    re.record(results.back(), true);
    if (!re.done()) search.advance(played);
  }
  const GameRecord r = re.take();
  ASSERT_TRUE(r.has_reanalysis());
  EXPECT_EQ(r.reanalysis().chunk(), "0000000000001-sp-000000.chunk");
  EXPECT_EQ(r.reanalysis().game(), 3);
  EXPECT_EQ(r.reanalysis().original_model_id(), "test/old-model");
  EXPECT_EQ(r.model_id(), "test/new-model");
  EXPECT_EQ(r.winner(), stale.winner());
  EXPECT_EQ(r.reason(), stale.reason());
  EXPECT_GT(r.finished_unix_ms(), 0);
  ASSERT_EQ(r.moves_size(), stale.moves_size());
  int differing = 0;
  for (int i = 0; i < r.moves_size(); ++i) {
    const MoveRecord& m = r.moves(i);
    const mcts::SearchResult& s = results[i];
    EXPECT_EQ(m.action(), stale.moves(i).action()) << i;
    EXPECT_TRUE(m.full_search());
    EXPECT_EQ(m.simulations(), s.simulations);
    // The improved policy's value (selfplay.root_value "improved"): the search's, not 0.5.
    EXPECT_FLOAT_EQ(m.root_value(), s.improved_value) << i;
    ASSERT_EQ(m.policy_actions_size(), static_cast<int>(s.actions.size()));
    for (int k = 0; k < m.policy_size(); ++k) {
      EXPECT_EQ(m.policy_actions(k), s.actions[k]);
      EXPECT_FLOAT_EQ(m.policy(k), s.policy_target()[k]);
    }
    bool same = m.policy_size() == stale.moves(i).policy_size();
    for (int k = 0; same && k < m.policy_size(); ++k) {
      same = std::abs(m.policy(k) - stale.moves(i).policy(k)) < 1e-6f;
    }
    differing += !same;
  }
  // Positions where the solver proves a move (an immediate win, the forced last move) keep a
  // target on it, as the stale one was; most others differ.
  EXPECT_GT(differing, r.moves_size() / 2);
}

TEST(ReanalyseRecord, AGameThatDoesNotReplayIsRefused) {
  GamePtr game = make_tictactoe();
  GameRecord bad = played_record(*game, kWin, 0);
  bad.mutable_moves(2)->set_action(0);  // a1 again
  const std::string e = error_of([&] { GameReanalysis(*game, bad, "c.chunk", 1, "m"); });
  EXPECT_NE(e.find("game 2 of c.chunk"), std::string::npos) << e;
  EXPECT_NE(e.find("illegal"), std::string::npos) << e;
  EXPECT_THROW(GameReanalysis(*game, GameRecord(), "c.chunk", 0, "m"), RecordError);
}

TEST(ReanalyseWindow, TakesTheReanalysedTargetsInPlaceOfTheStaleOnes) {
  GamePtr game = make_tictactoe();
  const GameRecord win = played_record(*game, kWin, 0);
  const GameRecord draw = played_record(*game, kDraw, -1);
  Window w(100, 0.5);
  w.add_game(*game, win, record_game_key("a.chunk", 0));
  w.add_game(*game, draw, record_game_key("a.chunk", 1));
  ASSERT_EQ(w.size(), 14u);
  const std::string before = targets(w);
  EXPECT_EQ(w.apply_reanalysis(*game, uniform_reanalysis(draw, "a.chunk", 1, 0.9f)), 9);
  // The same positions, once each: the win's targets untouched, the draw's replaced.
  ASSERT_EQ(w.size(), 14u);
  Window win_alone(100, 0.5);
  win_alone.add_game(*game, win);
  const std::string win_targets = targets(win_alone);
  EXPECT_EQ(before.substr(0, win_targets.size()), win_targets);
  EXPECT_EQ(targets(w).substr(0, win_targets.size()), win_targets);
  EXPECT_NE(targets(w), before);
  for (size_t i = 5; i < 14; ++i) {
    const Sample& s = w[i];
    EXPECT_EQ(s.state->to_text(), [&] {
      auto st = game->initial_state();
      for (size_t k = 0; k < i - 5; ++k) st->apply(kDraw[k]);
      return st->to_text();
    }());
    ASSERT_FALSE(s.policy.empty());
    for (float p : s.policy) EXPECT_FLOAT_EQ(p, 1.0f / static_cast<float>(s.policy.size()));
    // Value: 0.5 x the draw (0, 1, 0) + 0.5 x the new root value 0.9 as (0.9, 0, 0.1).
    EXPECT_NEAR(s.wdl[0], 0.45f, 1e-6);
    EXPECT_NEAR(s.wdl[1], 0.5f, 1e-6);
    EXPECT_NEAR(s.wdl[2], 0.05f, 1e-6);
  }
  // A later reanalysis replaces an earlier one.
  EXPECT_EQ(w.apply_reanalysis(*game, uniform_reanalysis(draw, "a.chunk", 1, 0.1f)), 9);
  EXPECT_NEAR(w[5].wdl[0], 0.05f, 1e-6);
  EXPECT_NEAR(w[5].wdl[2], 0.45f, 1e-6);
  // A game the window does not hold (never added under that key, or gone): nothing changes.
  const std::string now = targets(w);
  EXPECT_EQ(w.apply_reanalysis(*game, uniform_reanalysis(draw, "b.chunk", 1)), 0);
  EXPECT_EQ(targets(w), now);
}

TEST(ReanalyseWindow, OnlyThePositionsStillInTheWindowAreReplaced) {
  GamePtr game = make_tictactoe();
  const GameRecord draw = played_record(*game, kDraw, -1);
  const GameRecord win = played_record(*game, kWin, 0);
  Window w(8);  // the draw's 9 positions, then the win's 5: 6 of the draw's leave
  w.add_game(*game, draw, record_game_key("a.chunk", 0));
  w.add_game(*game, win, record_game_key("a.chunk", 1));
  ASSERT_EQ(w.size(), 8u);
  EXPECT_EQ(w.apply_reanalysis(*game, uniform_reanalysis(draw, "a.chunk", 0)), 3);
  for (size_t i = 0; i < 3; ++i) {
    for (float p : w[i].policy) EXPECT_FLOAT_EQ(p, 1.0f / static_cast<float>(w[i].policy.size()));
  }
  // Once every position has left, the game is forgotten.
  w.add_game(*game, win, record_game_key("a.chunk", 2));
  EXPECT_EQ(w.apply_reanalysis(*game, uniform_reanalysis(draw, "a.chunk", 0)), 0);
}

TEST(ReanalyseWindow, AMismatchedOrDamagedReanalysisIsRefusedAndChangesNothing) {
  GamePtr game = make_tictactoe();
  const GameRecord draw = played_record(*game, kDraw, -1);
  const GameRecord win = played_record(*game, kWin, 0);
  Window w(100, 0.5);
  w.add_game(*game, draw, record_game_key("a.chunk", 0));
  const std::string before = targets(w);
  auto refusal = [&](const GameRecord& r) {
    const std::string e = error_of([&] { w.apply_reanalysis(*game, r); });
    EXPECT_EQ(targets(w), before) << e;
    return e;
  };
  // Another game's moves under this game's name.
  std::string e = refusal(uniform_reanalysis(win, "a.chunk", 0));
  EXPECT_NE(e.find("reanalysis of game 1 of a.chunk"), std::string::npos) << e;
  EXPECT_NE(e.find("5 moves, but the game has 9"), std::string::npos) << e;
  // The same length, other moves: the first position that differs is named.
  GameRecord other = played_record(*game, {0, 4, 8, 2, 6, 3, 5, 7, 1}, -1);
  e = refusal(uniform_reanalysis(other, "a.chunk", 0));
  EXPECT_NE(e.find("the position before move 2"), std::string::npos) << e;
  // Another result.
  GameRecord r = uniform_reanalysis(draw, "a.chunk", 0);
  r.set_winner(1);
  e = refusal(r);
  EXPECT_NE(e.find("winner 1, but the game's is -1"), std::string::npos) << e;
  // An illegal move, a policy target outside the legal moves, a bad share.
  r = uniform_reanalysis(draw, "a.chunk", 0);
  r.mutable_moves(4)->set_action(0);
  e = refusal(r);
  EXPECT_NE(e.find("reanalysis of game 1 of a.chunk"), std::string::npos) << e;
  EXPECT_NE(e.find("illegal"), std::string::npos) << e;
  r = uniform_reanalysis(draw, "a.chunk", 0);
  r.mutable_moves(8)->set_policy_actions(0, 4);  // b2 is taken by then
  e = refusal(r);
  EXPECT_NE(e.find("not a legal move"), std::string::npos) << e;
  r = uniform_reanalysis(draw, "a.chunk", 0);
  r.mutable_moves(3)->set_policy(0, -1.0f);
  e = refusal(r);
  EXPECT_NE(e.find("policy share"), std::string::npos) << e;
  r = uniform_reanalysis(draw, "a.chunk", 0);
  r.mutable_moves(3)->add_policy(0.5f);
  e = refusal(r);
  EXPECT_NE(e.find("policy actions but"), std::string::npos) << e;
  // Not a reanalysis at all.
  e = refusal(draw);
  EXPECT_NE(e.find("not a reanalysis"), std::string::npos) << e;
}

// Share 0 (every run before reanalyse): a game added under a key gives exactly the targets it
// gave before keys existed.
TEST(ReanalyseWindow, KeysChangeNoTarget) {
  GamePtr game = make_tictactoe();
  Window keyed(10, 0.3, 2), plain(10, 0.3, 2);
  int k = 0;
  for (const auto& moves : {kWin, kDraw, kWin}) {
    const GameRecord r = played_record(*game, moves, moves == kWin ? 0 : -1, 0.7f);
    EXPECT_EQ(keyed.add_game(*game, r, record_game_key("a.chunk", k++)), plain.add_game(*game, r));
  }
  EXPECT_EQ(targets(keyed), targets(plain));
  for (size_t i = 0; i < keyed.size(); ++i) EXPECT_EQ(keyed[i].ownership, plain[i].ownership);
}

TEST(ReanalyseConfig, OffByDefaultDrawingFromTheTrainersWindow) {
  ScratchDir scratch("reanalyse-config");
  const RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  EXPECT_EQ(cfg.selfplay().reanalyse_share(), 0.0f);
  EXPECT_EQ(cfg.selfplay().reanalyse_positions(), cfg.trainer().window_positions());
  RunConfig c = cfg;
  c.mutable_selfplay()->set_reanalyse_share(0.25f);
  c.mutable_selfplay()->set_reanalyse_positions(5000);
  const RunConfig kept = complete_run_config(c, "test");
  EXPECT_EQ(kept.selfplay().reanalyse_share(), 0.25f);
  EXPECT_EQ(kept.selfplay().reanalyse_positions(), 5000);
  c.mutable_selfplay()->set_reanalyse_share(1.5f);
  try {
    complete_run_config(c, "test");
    FAIL() << "accepted a share of 1.5";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("selfplay.reanalyse_share"), std::string::npos);
  }
  c.mutable_selfplay()->set_reanalyse_share(0.25f);
  c.mutable_selfplay()->set_reanalyse_positions(0);
  EXPECT_THROW(complete_run_config(c, "test"), ConfigError);
  // The shipped recipe with reanalyse is the shipped recipe plus the reanalyse fields.
  const RunConfig base = load_run_config(source_dir() + "/configs/runs/seize.textproto");
  RunConfig with = load_run_config(source_dir() + "/configs/runs/seize-reanalyse.textproto");
  EXPECT_GT(with.selfplay().reanalyse_share(), 0.0f);
  with.mutable_selfplay()->set_reanalyse_share(0);
  EXPECT_EQ(with.SerializeAsString(), base.SerializeAsString());
}

// The records of chunks in `dir`, by chunk name.
std::map<std::string, RecordChunk> read_chunks(const RunDir& dir, const Game& game) {
  std::map<std::string, RecordChunk> out;
  for (const std::string& name : list_record_chunks(dir.records())) {
    out[name] = read_record_chunk(dir.records() + "/" + name, game);
  }
  return out;
}

// Makes models/best.pt another network (other weights, another id), as a promotion would.
std::string install_new_best(const RunDir& dir, const Game& game, const RunConfig& cfg) {
  auto m = Model::create(game, cfg.network(), "cpu", 99);
  m->metadata().set_model_id("tictactoe/test-new-best");
  m->metadata().set_training_step(100);
  m->save(dir.best());
  return m->metadata().model_id();
}

TEST(ReanalyseSelfPlay, ReSearchesOlderGamesWithTheCurrentModelAtItsShare) {
  ScratchDir scratch("reanalyse-selfplay");
  RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  cfg.mutable_selfplay()->set_games_per_chunk(8);
  cfg.mutable_selfplay()->mutable_search()->set_gumbel_actions(4);
  cfg.mutable_selfplay()->set_root_value("improved");
  const RunDir dir(scratch / "run");
  GamePtr game = prepare_run_dir(dir, cfg);
  std::string old_id;
  {
    SelfPlay sp(game, cfg, dir, "old");
    std::atomic<bool> stop{false};
    sp.run(stop, 40);
    old_id = sp.model_id();
  }
  const auto before = read_chunks(dir, *game);
  ASSERT_EQ(before.size(), 5u);
  const std::string new_id = install_new_best(dir, *game, cfg);
  cfg.mutable_selfplay()->set_reanalyse_share(0.5f);
  SelfPlay sp(game, cfg, dir, "new");
  ASSERT_EQ(sp.model_id(), new_id);
  std::atomic<bool> stop{false};
  sp.run(stop, 40);
  const SelfPlayStats s = sp.stats();
  EXPECT_EQ(s.games, 40);
  EXPECT_GT(s.reanalysed_games, 5);
  EXPECT_LE(s.reanalysed_games, 40);  // each old game at most once with the new model
  // About half the simulations (slots take whole games, so not exactly).
  const double share = static_cast<double>(s.reanalysis_simulations) / s.simulations;
  EXPECT_GT(share, 0.25) << share;
  EXPECT_LT(share, 0.75) << share;
  int reanalyses = 0, games = 0, positions = 0, differing = 0;
  std::set<std::string> seen;
  for (const auto& [name, chunk] : read_chunks(dir, *game)) {
    if (before.count(name)) continue;
    for (const GameRecord& r : chunk.games()) {
      if (!r.has_reanalysis()) {
        ++games;
        EXPECT_EQ(r.model_id(), new_id);
        continue;
      }
      ++reanalyses;
      EXPECT_EQ(r.model_id(), new_id);
      EXPECT_EQ(r.reanalysis().original_model_id(), old_id);
      const std::string key = record_game_key(r.reanalysis().chunk(), r.reanalysis().game());
      EXPECT_TRUE(seen.insert(key).second) << key << " reanalysed twice by one model";
      ASSERT_TRUE(before.count(r.reanalysis().chunk())) << r.reanalysis().chunk();
      const RecordChunk& from = before.at(r.reanalysis().chunk());
      ASSERT_LT(r.reanalysis().game(), from.games_size());
      const GameRecord& original = from.games(r.reanalysis().game());
      EXPECT_EQ(r.start(), original.start());
      EXPECT_EQ(r.winner(), original.winner());
      EXPECT_EQ(r.seed(), original.seed());
      ASSERT_EQ(r.moves_size(), original.moves_size());
      for (int i = 0; i < r.moves_size(); ++i) {
        const MoveRecord& m = r.moves(i);
        const MoveRecord& o = original.moves(i);
        EXPECT_EQ(m.action(), o.action());
        EXPECT_TRUE(m.full_search());
        ++positions;
        differing += m.SerializeAsString() != o.SerializeAsString();
      }
    }
  }
  EXPECT_EQ(games, 40);
  EXPECT_EQ(reanalyses, s.reanalysed_games);
  EXPECT_EQ(positions, s.reanalysed_positions);
  // Another network searching: the targets are new.
  EXPECT_GT(differing, positions * 3 / 4) << differing << " of " << positions;
}

// Share 0, the default: no reanalysis, games played exactly as before (one thread, so the games
// are the same game for game).
TEST(ReanalyseSelfPlay, ShareZeroPlaysTheSameGamesAsAConfigWithoutIt) {
  ScratchDir scratch("reanalyse-zero");
  RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  cfg.mutable_selfplay()->set_threads(1);
  cfg.mutable_selfplay()->set_parallel_games(8);
  const RunDir a(scratch / "a"), b(scratch / "b");
  GamePtr game = prepare_run_dir(a, cfg);
  prepare_run_dir(b, cfg);
  fs::copy_file(a.model(0), b.model(0), fs::copy_options::overwrite_existing);
  fs::copy_file(a.best(), b.best(), fs::copy_options::overwrite_existing);
  // Older games in both, of another model: something a reanalysis could take.
  for (const RunDir* d : {&a, &b}) {
    write_record_chunk(d->records(), *game, {played_record(*game, kDraw, -1)}, "older");
  }
  RunConfig zero = cfg;
  zero.mutable_selfplay()->set_reanalyse_share(0);
  auto play = [&](const RunConfig& c, const RunDir& d) {
    SelfPlay sp(game, c, d, "t");
    std::atomic<bool> stop{false};
    sp.run(stop, 20);
    EXPECT_EQ(sp.stats().reanalysed_games, 0);
    EXPECT_EQ(sp.stats().reanalysis_simulations, 0);
    std::vector<std::string> out;
    for (const auto& [name, chunk] : read_chunks(d, *game)) {
      for (GameRecord r : chunk.games()) {
        EXPECT_FALSE(r.has_reanalysis());
        r.clear_finished_unix_ms();
        out.push_back(r.SerializeAsString());
      }
    }
    return out;
  };
  cfg.mutable_selfplay()->clear_reanalyse_share();
  const auto without = play(cfg, a);
  const auto with_zero = play(zero, b);
  EXPECT_EQ(without.size(), 21u);
  EXPECT_EQ(without, with_zero);
}

TEST(ReanalyseTrainer, LearnsTheReanalysedTargetsCountsThemAndResumesWithThem) {
  ScratchDir scratch("reanalyse-trainer");
  RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  cfg.mutable_trainer()->set_min_positions(10);
  cfg.mutable_trainer()->set_batch_size(16);
  cfg.mutable_trainer()->set_samples_per_position(2);
  cfg.mutable_trainer()->set_root_value_weight(0.5f);
  const RunDir dir(scratch / "run"), stale(scratch / "stale");
  GamePtr game = prepare_run_dir(dir, cfg);
  prepare_run_dir(stale, cfg);
  fs::copy_file(dir.model(0), stale.model(0), fs::copy_options::overwrite_existing);
  const std::vector<GameRecord> played = {played_record(*game, kWin, 0),
                                          played_record(*game, kDraw, -1),
                                          played_record(*game, kWin, 0)};
  const std::string first =
      fs::path(write_record_chunk(dir.records(), *game, played, "sp")).filename();
  fs::copy_file(dir.records() + "/" + first, stale.records() + "/" + first);
  // A later chunk: a new game, a reanalysis of the draw, and one naming the draw but holding the
  // win's moves (refused; the rest of the chunk is kept).
  const GameRecord fresh = played_record(*game, kDraw, -1);
  write_record_chunk(
      dir.records(), *game,
      {fresh, uniform_reanalysis(played[1], first, 1), uniform_reanalysis(played[0], first, 1)},
      "sp");
  write_record_chunk(stale.records(), *game, {fresh}, "sp");
  TrainStepResult a, b;
  {
    Trainer t(game, cfg, dir);
    EXPECT_EQ(t.ingest_new_records(), 4);  // played games only
    EXPECT_EQ(t.games_seen(), 4);
    EXPECT_EQ(t.positions_seen(), 5 + 9 + 5 + 9);
    EXPECT_EQ(t.window_size(), 28u);  // no position twice
    EXPECT_EQ(t.reanalysed_positions(), 9);
    // Reanalysed positions count toward the steps as new ones: (28 + 9) x 2 / 16.
    EXPECT_EQ(t.steps_allowed(), 4);
    t.save_checkpoint();
    a = t.train_step();
  }
  {
    Trainer t(game, cfg, stale);
    EXPECT_EQ(t.ingest_new_records(), 4);
    EXPECT_EQ(t.window_size(), 28u);
    EXPECT_EQ(t.reanalysed_positions(), 0);
    EXPECT_EQ(t.steps_allowed(), 3);  // 28 x 2 / 16
    b = t.train_step();
  }
  // Same positions, same batch draws, other targets: other losses.
  EXPECT_NE(a.policy_loss, b.policy_loss);
  EXPECT_NE(a.value_loss, b.value_loss);
  // A resumed trainer rebuilds the window with the reanalysis applied: the same step.
  Trainer resumed(game, cfg, dir);
  EXPECT_EQ(resumed.reanalysed_positions(), 9);
  EXPECT_EQ(resumed.window_size(), 28u);
  EXPECT_EQ(resumed.ingest_new_records(), 0);
  const TrainStepResult c = resumed.train_step();
  EXPECT_EQ(c.policy_loss, a.policy_loss);
  EXPECT_EQ(c.value_loss, a.value_loss);
}

// The whole loop with reanalyse on: every candidate promoted at once (gating.promotion "always"),
// so self-play's model changes and older games get re-searched; the trainer learns their new
// targets; a second session resumes where the first stopped.
TEST(ReanalyseLoop, ATinyRunWithReanalyseRunsAndResumes) {
  ScratchDir scratch("reanalyse-loop");
  RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  cfg.mutable_selfplay()->set_reanalyse_share(0.3f);
  cfg.mutable_selfplay()->set_games_per_chunk(8);
  cfg.mutable_selfplay()->set_parallel_games(16);
  cfg.mutable_trainer()->set_checkpoint_every(10);
  cfg.mutable_trainer()->set_min_positions(200);
  cfg.mutable_trainer()->set_batch_size(32);
  cfg.mutable_trainer()->set_total_steps(60);
  cfg.mutable_gating()->set_promotion("always");
  const RunDir dir(scratch / "run");
  LoopOptions o;
  o.status_line = false;
  o.max_minutes = 3;
  const LoopSummary first = run_training_loop(cfg, dir, o);
  EXPECT_EQ(first.steps, 60);
  EXPECT_GT(first.promotions, 2);
  cfg.mutable_trainer()->set_total_steps(120);
  const LoopSummary second = run_training_loop(cfg, dir, o);
  EXPECT_EQ(second.steps, 120);
  const GamePtr game = prepare_run_dir(dir, cfg);
  int reanalyses = 0;
  for (const auto& [name, chunk] : read_chunks(dir, *game)) {
    for (const GameRecord& r : chunk.games()) reanalyses += r.has_reanalysis();
  }
  EXPECT_GT(reanalyses, 0);
  Trainer t(game, cfg, dir);
  EXPECT_EQ(t.step(), 120);
  EXPECT_GT(t.reanalysed_positions(), 0);
  EXPECT_GT(t.games_seen(), 0);
}

}  // namespace
}  // namespace pincer::testing
