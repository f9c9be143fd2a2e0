// pincer ladder: a round robin between several players, Elo ratings fitted by maximum
// likelihood (anchored at random = 0), printed as a table and written as an HTML page. With
// --extend, new players are rated against the players of an existing ladder file, whose ratings
// stay as they are, and added to it: a ladder grows (a stronger anchor above today's models)
// without replaying its round robin.
#include <google/protobuf/text_format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>

#include "cli/support/commands.h"
#include "engine/atomic_file.h"
#include "engine/registry.h"
#include "play/ladder.h"
#include "play/ladder_file.h"
#include "play/match.h"
#include "play/players.h"
#include "proto/ladder.pb.h"

namespace pincer::cli {
namespace {

struct LadderArgs {
  std::string rules = "seize-reference";
  std::vector<std::string> players;
  int games = 20;
  int threads = 1;
  int openings = 4;
  uint64_t seed = 1;
  std::string html = "ladder.html";
  bool json = false;
  std::string save;
  std::string notes;
  std::string extend;                // a ladder file whose players rate --players
  std::vector<std::string> against;  // with --extend: these of its players (default: all)
};

std::string command_line(const LadderArgs& o) {
  std::string c = "pincer ladder --rules " + o.rules + " --players ";
  for (size_t i = 0; i < o.players.size(); ++i) c += (i ? "," : "") + o.players[i];
  if (!o.extend.empty()) {
    c += " --extend " + o.extend;
    if (!o.against.empty()) c += " --against ";
    for (size_t i = 0; i < o.against.size(); ++i) c += (i ? "," : "") + o.against[i];
  }
  c += " --games " + std::to_string(o.games) + " --openings " + std::to_string(o.openings) +
       " --seed " + std::to_string(o.seed) + " --threads " + std::to_string(o.threads);
  return c;
}

std::string utc_now_text() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::vector<std::string> expand_specs(const std::vector<std::string>& items) {
  std::vector<std::string> specs;
  for (const std::string& item : items) {
    for (const std::string& spec : split_player_specs(item)) specs.push_back(spec);
  }
  return specs;
}

// --extend: each new player plays --games against each chosen ladder player and gets a
// maximum-likelihood rating with the ladder's ratings fixed (their own intervals folded into
// its interval); new players do not play each other.
void extend(const LadderArgs& o) {
  const GamePtr game = load_game(o.rules);
  Ladder ladder = load_ladder(o.extend, game.get());
  const std::vector<std::string> specs = expand_specs(o.players);
  if (specs.empty()) throw std::invalid_argument("--players names no player to add");
  auto find = [&](const std::string& spec) {
    for (int i = 0; i < ladder.players_size(); ++i) {
      if (ladder.players(i).player() == spec) return i;
    }
    return -1;
  };
  for (size_t i = 0; i < specs.size(); ++i) {
    player_maker(game, specs[i]);  // refuses bad specs before any game
    if (find(specs[i]) >= 0)
      throw std::invalid_argument("player '" + specs[i] + "' is already on " + o.extend);
    for (size_t j = 0; j < i; ++j) {
      if (specs[i] == specs[j])
        throw std::invalid_argument("player '" + specs[i] + "' is listed twice");
    }
  }
  std::vector<int> opponents;
  for (const std::string& spec : expand_specs(o.against)) {
    const int k = find(spec);
    if (k < 0) throw std::invalid_argument("--against: '" + spec + "' is not on " + o.extend);
    if (std::find(opponents.begin(), opponents.end(), k) == opponents.end()) opponents.push_back(k);
  }
  if (o.against.empty()) {
    for (int k = 0; k < ladder.players_size(); ++k) opponents.push_back(k);
  }
  std::printf(
      "extending %s (%s, anchored at %s = 0): %zu new players, %d games against each "
      "of %zu ladder players\n",
      o.extend.c_str(), ladder.rules().c_str(), ladder.anchor().c_str(), specs.size(),
      o.games + (o.games & 1), opponents.size());
  std::vector<LadderPlayer> added;
  for (size_t i = 0; i < specs.size(); ++i) {
    std::vector<AnchorGames> games;
    for (size_t k = 0; k < opponents.size(); ++k) {
      const LadderPlayer& opp = ladder.players(opponents[k]);
      MatchOptions mo;
      mo.games = o.games;
      mo.threads = o.threads;
      mo.opening_plies = o.openings;
      mo.seed = mix_seed(o.seed, i * opponents.size() + k);
      const MatchResult r = run_match(game, specs[i], opp.player(), mo);
      AnchorGames g;
      g.player = opp.player();
      g.opponent_elo = opp.elo();
      g.opponent_sd = ladder_sd(opp);
      g.games = static_cast<int>(r.games.size());
      g.score = r.wins + 0.5 * r.draws;
      games.push_back(g);
      std::printf("  %s vs %s (%+.0f): %.1f/%d\n", specs[i].c_str(), opp.player().c_str(),
                  opp.elo(), g.score, g.games);
      std::fflush(stdout);
    }
    const AnchoredElo fit = fit_anchored_elo(games);
    double points = 0;
    for (const AnchorGames& g : games) points += g.score;
    LadderPlayer p;
    p.set_player(specs[i]);
    p.set_elo(std::round(fit.elo));
    p.set_elo_low(std::round(fit.low));
    p.set_elo_high(std::round(fit.high));
    p.set_games(fit.games);
    p.set_score(fit.games ? std::round(points / fit.games * 1000) / 1000 : 0);
    std::printf("%s: %+.0f (%+.0f .. %+.0f) over %d games, score %.1f%%\n", specs[i].c_str(),
                p.elo(), p.elo_low(), p.elo_high(), p.games(), 100 * p.score());
    added.push_back(p);
  }
  if (o.save.empty()) return;
  for (const LadderPlayer& p : added) *ladder.add_players() = p;
  std::stable_sort(ladder.mutable_players()->begin(), ladder.mutable_players()->end(),
                   [](const LadderPlayer& x, const LadderPlayer& y) { return x.elo() > y.elo(); });
  ladder.set_command(ladder.command() + "; then " + command_line(o));
  ladder.set_rated(ladder.rated() + "; extended " + utc_now_text());
  std::string added_names;
  for (const LadderPlayer& p : added) added_names += (added_names.empty() ? "" : ", ") + p.player();
  ladder.set_notes(ladder.notes() + " Extended by `pincer ladder --extend`: " + added_names +
                   " rated against the players above with their ratings fixed." +
                   (o.notes.empty() ? "" : " " + o.notes));
  std::string text;
  google::protobuf::TextFormat::PrintToString(ladder, &text);
  atomic_write_file(o.save,
                    "# Rated reference players (proto/ladder.proto), written by `pincer "
                    "ladder --save`.\n" +
                        text);
  std::printf("ladder written to %s\n", o.save.c_str());
}

void run(const LadderArgs& o) {
  if (!o.extend.empty()) return extend(o);
  if (!o.against.empty()) throw std::invalid_argument("--against needs --extend");
  const GamePtr game = load_game(o.rules);
  const std::vector<std::string> specs = expand_specs(o.players);
  if (specs.size() < 2) throw std::invalid_argument("--players needs at least two players");
  for (size_t i = 0; i < specs.size(); ++i) {
    player_maker(game, specs[i]);  // refuses bad specs before any game
    for (size_t j = 0; j < i; ++j) {
      if (specs[i] == specs[j])
        throw std::invalid_argument("player '" + specs[i] + "' is listed twice");
    }
  }
  const int n = static_cast<int>(specs.size());
  auto it = std::find(specs.begin(), specs.end(), "random");
  const int anchor = it == specs.end() ? 0 : static_cast<int>(it - specs.begin());

  std::vector<PairScore> results;
  std::vector<double> points(n, 0);
  std::vector<int> games(n, 0);
  int pair = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j, ++pair) {
      MatchOptions mo;
      mo.games = o.games;
      mo.threads = o.threads;
      mo.opening_plies = o.openings;
      mo.seed = mix_seed(o.seed, pair);
      const MatchResult r = run_match(game, specs[i], specs[j], mo);
      const int played = static_cast<int>(r.games.size());
      const double score = r.wins + 0.5 * r.draws;
      results.push_back({i, j, score, played});
      points[i] += score;
      points[j] += played - score;
      games[i] += played;
      games[j] += played;
      spdlog::info("{} vs {}: {:.1f}/{}", specs[i], specs[j], score, played);
    }
  }
  const EloFit fit = fit_elo(n, results, anchor);
  std::vector<LadderRow> rows(n);
  for (int i = 0; i < n; ++i) {
    rows[i] = {specs[i], fit.elo[i], fit.sd[i], games[i], games[i] ? points[i] / games[i] : 0};
  }
  std::vector<int> rank(n);
  for (int i = 0; i < n; ++i) rank[i] = i;
  std::stable_sort(rank.begin(), rank.end(), [&](int x, int y) { return fit.elo[x] > fit.elo[y]; });

  std::printf("ladder on %s (%s): %d players, %d games a pairing, anchored at %s = 0\n",
              game->ruleset_name().c_str(), game->fingerprint().c_str(), n, o.games + (o.games & 1),
              specs[anchor].c_str());
  size_t width = 6;
  for (const std::string& s : specs) width = std::max(width, s.size());
  std::printf("%-4s  %-*s  %6s  %-15s  %6s  %6s\n", "rank", static_cast<int>(width), "player",
              "Elo", "95% interval", "games", "score");
  for (int k = 0; k < n; ++k) {
    const LadderRow& r = rows[rank[k]];
    char interval[48];
    std::snprintf(interval, sizeof interval, "%+.0f .. %+.0f", r.elo - 1.96 * r.sd,
                  r.elo + 1.96 * r.sd);
    std::printf("%-4d  %-*s  %+6.0f  %-15s  %6d  %5.1f%%\n", k + 1, static_cast<int>(width),
                r.player.c_str(), r.elo, interval, r.games, 100 * r.score);
  }
  const std::string caption =
      "Round robin on " + game->ruleset_name() + " (" + game->fingerprint() + "), " +
      std::to_string(o.games + (o.games & 1)) +
      " games a pairing with colours swapped, openings of " + std::to_string(o.openings) +
      " random plies, seed " + std::to_string(o.seed) + "; ratings by maximum likelihood, " +
      specs[anchor] + " = 0.";
  if (!o.html.empty()) {
    atomic_write_file(o.html, ladder_html(caption, rows, results));
    std::printf("page written to %s\n", o.html.c_str());
  }
  if (!o.save.empty()) {
    Ladder ladder;
    ladder.set_rules(game->ruleset_name());
    ladder.set_fingerprint(game->fingerprint());
    ladder.set_anchor(specs[anchor]);
    ladder.set_command(command_line(o));
    ladder.set_rated(utc_now_text());
    ladder.set_notes(o.notes.empty() ? caption : o.notes + " " + caption);
    for (int k = 0; k < n; ++k) {
      const LadderRow& r = rows[rank[k]];
      LadderPlayer* p = ladder.add_players();
      p->set_player(r.player);
      p->set_elo(std::round(r.elo));
      p->set_elo_low(std::round(r.elo - 1.96 * r.sd));
      p->set_elo_high(std::round(r.elo + 1.96 * r.sd));
      p->set_games(r.games);
      p->set_score(std::round(r.score * 1000) / 1000);
    }
    std::string text;
    google::protobuf::TextFormat::PrintToString(ladder, &text);
    atomic_write_file(o.save,
                      "# Rated reference players (proto/ladder.proto), written by `pincer "
                      "ladder --save`.\n" +
                          text);
    std::printf("ladder written to %s\n", o.save.c_str());
  }
  if (o.json) {
    nlohmann::json j = {{"rules", game->ruleset_name()}, {"anchor", specs[anchor]}};
    for (int k = 0; k < n; ++k) {
      const LadderRow& r = rows[rank[k]];
      j["players"].push_back({{"player", r.player},
                              {"elo", r.elo},
                              {"elo_low", r.elo - 1.96 * r.sd},
                              {"elo_high", r.elo + 1.96 * r.sd},
                              {"games", r.games},
                              {"score", r.score}});
    }
    std::printf("%s\n", j.dump().c_str());
  }
}

RegisterCommand register_ladder{
    "ladder", "Round robin between players; Elo ratings with intervals, table and HTML page",
    [](CLI::App& app) {
      auto o = std::make_shared<LadderArgs>();
      app.add_option("--rules", o->rules, "Ruleset name or file")->capture_default_str();
      app.add_option("--players", o->players, "Player specs, comma separated (at least two)")
          ->required();
      app.add_option("--games", o->games, "Games per pairing (rounded up to an even number)")
          ->capture_default_str()
          ->check(CLI::Range(1, 1000000));
      app.add_option("--threads", o->threads, "Games played at once")
          ->capture_default_str()
          ->check(CLI::Range(1, 256));
      app.add_option("--openings", o->openings, "Random plies that open each pair of games")
          ->capture_default_str()
          ->check(CLI::Range(0, 1000));
      app.add_option("--seed", o->seed, "Seed")->capture_default_str();
      app.add_option("--html", o->html, "Page to write (\"\" for none)")->capture_default_str();
      app.add_option("--save", o->save,
                     "Write the ratings as a ladder file (proto/ladder.proto text) for training "
                     "runs' anchored Elo");
      app.add_option("--notes", o->notes, "A note kept in the --save file (how it was run)");
      app.add_flag("--json", o->json, "Print the ratings as a JSON object on the last line");
      app.add_option("--extend", o->extend,
                     "Rate --players against the players of this ladder file, their ratings "
                     "fixed, and add them to it (written with --save)");
      app.add_option("--against", o->against,
                     "With --extend: the ladder players to play, comma separated (default: all)");
      app.callback([o] { run(*o); });
    }};

}  // namespace
}  // namespace pincer::cli
