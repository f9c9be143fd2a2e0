// Anchored strength (train/anchor.h): the rating fit against fixed opponents, the choice of
// opponents, ladder files, and the report's anchored plots.
#include "train/anchor.h"

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "engine/registry.h"
#include "nn/model.h"
#include "store/run_dir.h"
#include "tests/train/helpers.h"
#include "train/checkpoint_rating.h"
#include "train/config.h"
#include "train/net_player.h"
#include "train/report.h"
#include "train/run_setup.h"

namespace pincer::testing {
namespace {

TEST(Anchor, EvenScoreGivesTheOpponentsRating) {
  const AnchoredElo r = fit_anchored_elo({{"a", 500, 0, 20, 10.0}});
  EXPECT_NEAR(r.elo, 500, 1e-6);
  EXPECT_LT(r.low, 500);
  EXPECT_GT(r.high, 500);
  EXPECT_EQ(r.games, 20);
  // Between two opponents 400 apart, even against both: in the middle.
  const AnchoredElo m = fit_anchored_elo({{"a", 300, 0, 10, 5}, {"b", 700, 0, 10, 5}});
  EXPECT_NEAR(m.elo, 500, 1e-6);
}

TEST(Anchor, ScoresMoveTheRatingAndIntervalsShrinkWithGames) {
  const AnchoredElo win = fit_anchored_elo({{"a", 500, 0, 10, 8}});
  const AnchoredElo lose = fit_anchored_elo({{"a", 500, 0, 10, 2}});
  EXPECT_GT(win.elo, 600);
  EXPECT_LT(lose.elo, 400);
  EXPECT_NEAR(win.elo - 500, 500 - lose.elo, 1e-6);
  // 8 of 10 is a score of 0.8 with one virtual draw: (8.5 / 11) -> about +213.
  EXPECT_NEAR(win.elo, 500 + 400 * std::log10(8.5 / 2.5), 1e-3);
  // A perfect score stays finite.
  const AnchoredElo perfect = fit_anchored_elo({{"a", 500, 0, 10, 10}});
  EXPECT_TRUE(std::isfinite(perfect.elo));
  EXPECT_GT(perfect.elo, 800);
  const AnchoredElo more = fit_anchored_elo({{"a", 500, 0, 100, 50}});
  EXPECT_LT(more.high - more.low, fit_anchored_elo({{"a", 500, 0, 10, 5}}).high -
                                      fit_anchored_elo({{"a", 500, 0, 10, 5}}).low);
  // The opponents' own uncertainty widens the interval.
  const AnchoredElo unsure = fit_anchored_elo({{"a", 500, 100, 100, 50}});
  EXPECT_GT(unsure.high - unsure.low, more.high - more.low);
}

Ladder three_players() {
  Ladder l;
  for (auto [name, elo] :
       {std::pair<const char*, double>{"random", 0}, {"greedy", 200}, {"alphabeta:depth=1", 560}}) {
    LadderPlayer* p = l.add_players();
    p->set_player(name);
    p->set_elo(elo);
    p->set_elo_low(elo - 100);
    p->set_elo_high(elo + 100);
  }
  return l;
}

TEST(Anchor, NearestOpponentNotYetPlayed) {
  const Ladder l = three_players();
  EXPECT_EQ(l.players(nearest_ladder_player(l, 450, {})).player(), "alphabeta:depth=1");
  EXPECT_EQ(l.players(nearest_ladder_player(l, 450, {"alphabeta:depth=1"})).player(), "greedy");
  EXPECT_EQ(l.players(nearest_ladder_player(l, -50, {})).player(), "random");
  EXPECT_EQ(nearest_ladder_player(l, 0, {"random", "greedy", "alphabeta:depth=1"}), -1);
}

TEST(Anchor, TimeLimitedOpponentsOnlyWhenAllowed) {
  Ladder l = three_players();
  LadderPlayer* timed = l.add_players();
  timed->set_player("alphabeta:time=0.1");
  timed->set_elo(900);
  EXPECT_TRUE(is_time_limited("alphabeta:time=0.1"));
  EXPECT_TRUE(is_time_limited("net:model=m.pt,sims=200,time=1"));
  EXPECT_FALSE(is_time_limited("alphabeta:depth=3"));
  EXPECT_FALSE(is_time_limited("random"));
  EXPECT_EQ(l.players(nearest_ladder_player(l, 950, {}, true)).player(), "alphabeta:time=0.1");
  EXPECT_EQ(l.players(nearest_ladder_player(l, 950, {}, false)).player(), "alphabeta:depth=1");
  EXPECT_EQ(nearest_ladder_player(l, 0, {"random", "greedy", "alphabeta:depth=1"}, false), -1);
}

// A rating plays real games: against the fixed players nearest the estimate, never the
// time-limited one between them unless the config allows it.
TEST(Anchor, RatingPlaysFixedOpponentsUnlessTimeLimitedOnesAreAllowed) {
  ScratchDir scratch("anchor-rate");
  RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  const GamePtr game = load_game(cfg.rules());
  const std::string model_path = scratch / "m.pt";
  Model::create(*game, cfg.network(), "cpu", 1)->save(model_path);
  Ladder l;
  for (auto [name, elo] : {std::pair<const char*, double>{"random", 0},
                           {"alphabeta:time=0.01", 150},
                           {"greedy", 200},
                           {"alphabeta:depth=9", 400}}) {
    LadderPlayer* p = l.add_players();
    p->set_player(name);
    p->set_elo(elo);
    p->set_elo_low(elo - 50);
    p->set_elo_high(elo + 50);
  }
  cfg.mutable_anchor()->set_ladder("unused: the ladder is passed");
  cfg.mutable_anchor()->set_games(2);
  cfg.mutable_anchor()->set_opponents(2);
  cfg.mutable_anchor()->set_random_opening_plies(1);
  cfg.mutable_anchor()->mutable_search()->set_simulations(8);
  std::string text;
  google::protobuf::TextFormat::PrintToString(cfg, &text);
  cfg = parse_run_config(text, "anchor test config");  // completes the anchor's search
  const AnchorReport fixed = rate_model(game, cfg, l, model_path, 140, 3);
  ASSERT_EQ(fixed.opponents.size(), 2u);
  EXPECT_EQ(fixed.opponents[0].player, "greedy");  // the fixed player nearest 140
  for (const AnchorGames& g : fixed.opponents) {
    EXPECT_FALSE(is_time_limited(g.player)) << g.player;
    EXPECT_EQ(g.games, 2) << g.player;
  }
  EXPECT_EQ(fixed.rating.games, 4);
  cfg.mutable_anchor()->set_time_limited_opponents(true);
  const AnchorReport timed = rate_model(game, cfg, l, model_path, 140, 3);
  ASSERT_FALSE(timed.opponents.empty());
  EXPECT_EQ(timed.opponents[0].player, "alphabeta:time=0.01");
}

TEST(Anchor, LadderFilesAreChecked) {
  ScratchDir scratch("ladder");
  EXPECT_THROW(load_ladder(scratch / "missing.textproto"), std::runtime_error);
  std::ofstream(scratch / "bad.textproto") << "players { player: \"random\" elo: oops }";
  EXPECT_THROW(load_ladder(scratch / "bad.textproto"), std::runtime_error);
  std::ofstream(scratch / "empty.textproto") << "rules: \"x\"";
  EXPECT_THROW(load_ladder(scratch / "empty.textproto"), std::runtime_error);
  // The shipped SE!ZE ladder loads for its ruleset and is refused for another.
  const std::string shipped = source_dir() + "/configs/ladders/seize-reference.textproto";
  const GamePtr seize = load_game("seize-reference");
  const Ladder l = load_ladder(shipped, seize.get());
  EXPECT_GE(l.players_size(), 7);
  bool has_random = false;
  for (const LadderPlayer& p : l.players()) {
    has_random |= p.player() == "random" && p.elo() == 0;
    EXPECT_LE(p.elo_low(), p.elo());
    EXPECT_GE(p.elo_high(), p.elo());
  }
  EXPECT_TRUE(has_random);
  const GamePtr other = load_game("seize-v0");
  try {
    load_ladder(shipped, other.get());
    FAIL() << "a seize-reference ladder was accepted for seize-v0";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("seize-v0"), std::string::npos) << e.what();
  }
}

// anchor.in_loop false names the ladder for `pincer rate` only: the loop's rater plays nothing,
// yet a ladder of other rules is still refused when the run starts.
TEST(Anchor, ALadderNamedOutOfTheLoopIsCheckedButNotPlayed) {
  ScratchDir scratch("anchor-named");
  RunConfig cfg =
      parse_run_config("rules: \"seize-reference\" anchor { ladder: \"" + source_dir() +
                           "/configs/ladders/seize-reference.textproto\" in_loop: false }",
                       "named ladder");
  EXPECT_FALSE(cfg.anchor().in_loop());
  const GamePtr seize = load_game("seize-reference");
  const AnchorRater named(seize, cfg, scratch / "metrics.csv");
  EXPECT_FALSE(named.enabled());
  cfg.mutable_anchor()->set_in_loop(true);
  const AnchorRater played(seize, cfg, scratch / "metrics.csv");
  EXPECT_TRUE(played.enabled());
  // Unset, in_loop is true: configs written before the field keep their anchors.
  EXPECT_TRUE(parse_run_config("rules: \"seize-reference\" anchor { ladder: \"l\" }", "old")
                  .anchor()
                  .in_loop());
  cfg.mutable_anchor()->set_in_loop(false);
  EXPECT_THROW(AnchorRater(load_game("seize-v0"), cfg, scratch / "metrics.csv"),
               std::runtime_error);
  // Not found from the working directory: only named, so the run goes on without it.
  cfg.mutable_anchor()->set_ladder(scratch / "elsewhere.textproto");
  EXPECT_FALSE(AnchorRater(seize, cfg, scratch / "metrics.csv").enabled());
  cfg.mutable_anchor()->set_in_loop(true);
  EXPECT_THROW(AnchorRater(seize, cfg, scratch / "metrics.csv"), std::runtime_error);
}

// Every shipped run config that anchors names a ladder of its own rules with fixed players to
// rate against (anchors skip time-limited ones by default).
TEST(Anchor, ShippedRunConfigsNameLaddersOfTheirRules) {
  int anchored = 0;
  for (const auto& entry : std::filesystem::directory_iterator(source_dir() + "/configs/runs")) {
    const std::string name = entry.path().filename().string();
    const RunConfig c = load_run_config(entry.path().string());
    if (c.anchor().ladder().empty()) continue;
    ++anchored;
    const GamePtr game = load_game(c.rules());
    const Ladder l = load_ladder(source_dir() + "/" + c.anchor().ladder(), game.get());
    int fixed_above_random = 0;
    for (const LadderPlayer& p : l.players()) {
      fixed_above_random += !is_time_limited(p.player()) && p.elo() > 0;
    }
    EXPECT_GE(fixed_above_random, 4) << name;
  }
  EXPECT_GE(anchored, 2);
}

TEST(Anchor, ReportPlotsAnchoredRows) {
  ScratchDir scratch("anchor-report");
  const RunDir dir(scratch / "run");
  std::filesystem::create_directories(dir.models());
  // Rows in today's columns (the run's core-hours, the auxiliary losses, then the growth
  // columns, last) are plotted against core-hours.
  append_metrics_row(
      dir, "1000,anchor,0,0,0,,,,,0,0,0,,,,,,,best,150.0,20.0,280.0,16,greedy:7/8,0.01,,,,,,");
  append_metrics_row(dir,
                     "3601000,anchor,600,900,50000,,,,,0,0,0,,,,,,,best,420.0,300.0,540.0,16,"
                     "alphabeta:depth=1:5/8;greedy:8/8,1.9,,,,,,");
  // Checkpoints rated afterwards (`pincer rate`) get their own curve and table.
  CheckpointRating early, late;
  early.model = "model-001000.pt", early.step = 1000, early.core_hours = 0.5;
  early.rating = {900, 840, 960, 128};
  early.opponents.push_back({"alphabeta:depth=4", 1108, 0, 128, 30});
  early.settings = "net:sims=200 | vs alphabeta:depth=4";
  late = early;
  late.model = "model-009000.pt", late.step = 9000, late.core_hours = 1.5;
  late.rating = {1150, 1090, 1210, 128};
  late.opponents[0].score = 75;
  write_ratings(ratings_path(dir), {early, late});
  const auto back = read_ratings(ratings_path(dir));
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[1].model, "model-009000.pt");
  EXPECT_DOUBLE_EQ(back[1].core_hours, 1.5);
  EXPECT_DOUBLE_EQ(back[1].rating.low, 1090);
  EXPECT_DOUBLE_EQ(back[1].opponents[0].score, 75);
  EXPECT_EQ(back[1].settings, early.settings);
  write_report(dir);
  std::ifstream in(dir.report());
  const std::string html((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(html.find("Anchored Elo against training core-hours"), std::string::npos);
  EXPECT_NE(html.find("model-009000.pt"), std::string::npos);
  EXPECT_NE(html.find("alphabeta:depth=4 75/128"), std::string::npos);
  EXPECT_NE(html.find("Anchored Elo against core-hours"), std::string::npos);
  EXPECT_NE(html.find("Anchored Elo against self-play games"), std::string::npos);
  EXPECT_NE(html.find("alphabeta:depth=1:5/8;greedy:8/8"), std::string::npos);
  EXPECT_NE(html.find(">420<"), std::string::npos);
}

TEST(Anchor, OlderMetricsFilesGainTheNewColumnsWholeLinesOnly) {
  ScratchDir scratch("anchor-metrics");
  const RunDir dir(scratch / "run");
  std::filesystem::create_directories(dir.root);
  const std::string columns = kMetricsColumns;
  // The header of a build before the core-hours and auxiliary-loss columns.
  const std::string old_header = columns.substr(0, columns.find(",core_hours"));
  {
    std::ofstream out(dir.metrics());
    out << old_header << "\n1000,selfplay,0,0,0,,,,,0,0,0,,,,,,,best,,,,,\n";
  }
  append_metrics_row(dir, "2000,selfplay,0,0,0,,,,,0,0,0,,,,,,,best,,,,,,0.5,,,,,,");
  std::ifstream in(dir.metrics());
  std::string line;
  std::vector<std::string> lines;
  while (std::getline(in, line)) lines.push_back(line);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], columns);
  const auto fields = [](const std::string& l) { return std::count(l.begin(), l.end(), ','); };
  EXPECT_EQ(fields(lines[1]), fields(columns));
  EXPECT_EQ(fields(lines[2]), fields(columns));
  // The header of a build before the growth columns (network growth): its rows padded too.
  {
    std::ofstream out(dir.metrics());
    out << columns.substr(0, columns.find(",network_before"))
        << "\n1000,train,100,0,0,2.1,0.9,0.01,50,,,,,,,,,,best,,,,,,0.1,0.2,0.03\n";
  }
  append_metrics_row(dir,
                     "2000,growth,200,0,0,2.0,0.8,0.01,,,,,,,,,,,best,,,,,,0.2,0.1,0.02,3x32,5x64,"
                     "2.2,0.85");
  lines.clear();
  std::ifstream grown(dir.metrics());
  while (std::getline(grown, line)) lines.push_back(line);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], columns);
  EXPECT_EQ(fields(lines[1]), fields(columns));
  EXPECT_EQ(lines[1].substr(lines[1].size() - 4), ",,,,");
  EXPECT_EQ(fields(lines[2]), fields(columns));
  // A header that is not an earlier form of ours is left alone.
  {
    std::ofstream out(dir.metrics());
    out << "a,b\n1,2\n";
  }
  append_metrics_row(dir, "3,4");
  std::ifstream again(dir.metrics());
  std::getline(again, line);
  EXPECT_EQ(line, "a,b");
}

TEST(Anchor, RateRunPicksCheckpointsByCoreHoursAndResumes) {
  register_net_player_kind();
  ScratchDir scratch("anchor-rate-run");
  const RunConfig cfg = tictactoe_config(tictactoe_rules(scratch.path()));
  const RunDir dir(scratch / "run");
  const GamePtr game = prepare_run_dir(dir, cfg);  // writes model-000000.pt
  save_run_config(dir, cfg);
  // The initial network carries the run's CPU time so far (the process's: tests made it).
  EXPECT_GT(Model::read_metadata(dir.model(0)).core_hours(), 0.0);
  // Checkpoints at 0.2, 0.4, 0.6 and 1.3 core-hours: every 0.5 picks 0.6 and 1.3.
  const std::pair<int, double> written[] = {{100, 0.2}, {200, 0.4}, {300, 0.6}, {400, 1.3}};
  for (auto [step, hours] : written) {
    auto m = Model::create(*game, cfg.network(), "cpu", step);
    m->metadata().set_training_step(step);
    m->metadata().set_core_hours(hours);
    m->save(dir.model(step));
  }
  const auto picked = pick_checkpoints(dir, 0.5);
  ASSERT_EQ(picked.size(), 3u);
  EXPECT_EQ(picked[0], dir.model(0));
  EXPECT_EQ(picked[1], dir.model(300));
  EXPECT_EQ(picked[2], dir.model(400));
  EXPECT_EQ(pick_checkpoints(dir, 0).size(), 5u);

  RatingOptions o;
  o.player = "net:sims=4";
  o.opponents = {"random@0", "greedy@150"};
  o.games = 4;
  o.opening_plies = 1;
  o.every_core_hours = 0.5;
  const auto first = rate_run(dir, o);
  ASSERT_EQ(first.size(), 3u);
  EXPECT_EQ(first[2].model, "model-000400.pt");
  EXPECT_DOUBLE_EQ(first[2].core_hours, 1.3);
  EXPECT_EQ(first[2].rating.games, 8);
  ASSERT_EQ(first[2].opponents.size(), 2u);
  EXPECT_EQ(first[2].opponents[1].player, "greedy");
  // Rated again with the same settings: nothing is played, the same results come back.
  const auto again = rate_run(dir, o);
  ASSERT_EQ(again.size(), 3u);
  for (size_t i = 0; i < again.size(); ++i) {
    EXPECT_EQ(again[i].model, first[i].model);
    EXPECT_DOUBLE_EQ(again[i].rating.elo, first[i].rating.elo);
  }
  // Other settings are kept beside them.
  o.games = 2;
  EXPECT_EQ(rate_run(dir, o).size(), 3u);
  EXPECT_EQ(read_ratings(ratings_path(dir)).size(), 6u);
  // Against other opponents of the same scale with the first settings: kept too.
  o.games = 4;
  o.opponents = {"random@0"};
  EXPECT_EQ(rate_run(dir, o).size(), 3u);
  EXPECT_EQ(read_ratings(ratings_path(dir)).size(), 9u);
  // The report plots them against core-hours, one curve per player setting (whatever the
  // opponents: 2 curves for 9 ratings); without a gate it says so instead of its charts.
  const auto report_text = [&] {
    write_report(dir);
    std::ifstream in(dir.report());
    return std::string((std::istreambuf_iterator<char>(in)), {});
  };
  std::string html = report_text();
  EXPECT_NE(html.find("model-000400.pt"), std::string::npos);
  const auto count = [&](const std::string& needle) {
    size_t n = 0;
    for (size_t at = html.find(needle); at != std::string::npos; at = html.find(needle, at + 1))
      ++n;
    return n;
  };
  EXPECT_EQ(count("class='a'>net:sims=4 | games 4 |"), 1u);
  EXPECT_EQ(count("class='a'>net:sims=4 | games 2 |"), 1u);
  EXPECT_NE(html.find("Gating: candidate score against the best"), std::string::npos);
  RunConfig ungated = cfg;
  ungated.mutable_gating()->set_promotion("always");
  save_run_config(dir, ungated);
  html = report_text();
  EXPECT_NE(html.find("No gate"), std::string::npos);
  EXPECT_EQ(html.find("Gating: candidate score against the best"), std::string::npos);
  // A ladder named for `pincer rate` only: the report says the loop plays no anchors, rather
  // than asking for a ladder.
  EXPECT_NE(html.find("set anchor.ladder in the config"), std::string::npos);
  ungated.mutable_anchor()->set_ladder(source_dir() + "/configs/ladders/seize-reference.textproto");
  ungated.mutable_anchor()->set_in_loop(false);
  save_run_config(dir, ungated);
  html = report_text();
  EXPECT_NE(html.find("The loop plays no anchor games"), std::string::npos);
  EXPECT_EQ(html.find("set anchor.ladder in the config"), std::string::npos);
  // A damaged ratings file is named, not used.
  {
    std::ofstream out(ratings_path(dir));
    out << "[{\"model\": 3";
  }
  EXPECT_THROW(rate_run(dir, o), std::runtime_error);
}

TEST(Anchor, RatedOpponentsNeedAnElo) {
  const GamePtr game = load_game("seize-reference");
  RatingOptions o;
  o.ladder = source_dir() + "/configs/ladders/seize-reference.textproto";
  o.opponents = {"alphabeta:depth=4", "alphabeta:nodes=20000@1234.5"};
  const auto r = rated_opponents(o, game);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].elo, 1108);
  EXPECT_EQ(r[1].spec, "alphabeta:nodes=20000");
  EXPECT_DOUBLE_EQ(r[1].elo, 1234.5);
  o.opponents = {"alphabeta:depth=7"};
  EXPECT_THROW(rated_opponents(o, game), std::runtime_error);  // not on the ladder
  o.opponents = {"alphabeta:depth=4@fast"};
  EXPECT_THROW(rated_opponents(o, game), std::runtime_error);
  o.opponents = {"nosuchplayer@100"};
  EXPECT_THROW(rated_opponents(o, game), std::invalid_argument);
  o.opponents.clear();
  EXPECT_THROW(rated_opponents(o, game), std::runtime_error);
}

}  // namespace
}  // namespace pincer::testing
