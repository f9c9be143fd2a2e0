// pincer book build|stats|show|export|report: opening books (book/, docs/openings.md).
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "book/advantage.h"
#include "book/alphabeta_search.h"
#include "book/build.h"
#include "book/player.h"
#include "book/report.h"
#include "book/stats.h"
#include "cli/support/commands.h"
#include "cli/support/positions.h"
#include "cli/support/torch_plugin.h"
#include "engine/atomic_file.h"
#include "engine/record.h"
#include "engine/registry.h"
#include "mcts/evaluators.h"
#include "serve/model.h"
#include "store/records.h"

namespace pincer::cli {

namespace {

using namespace pincer::book;
using json = nlohmann::json;

struct BookArgs {
  std::string rules, book, position, model, model_id, evaluator = "uniform", device = "cpu",
                                                      format = "json", out;
  std::vector<std::string> moves, games;
  int64_t positions = 100;
  int visits = 200, threads = 1, save_every = 1, max_plies = 40, depth = 4, report_plies = -1;
  uint64_t min_games = 1, min_games_shown = 10;
  int64_t seed = -1;
  bool as_json = false;
};

// The game: --rules, else the ruleset the book names.
GamePtr book_game(const BookArgs& a) {
  if (!a.rules.empty()) return load_game(a.rules);
  if (a.book.empty() || !std::filesystem::exists(a.book)) {
    throw std::invalid_argument("--rules is needed (no book file to take the ruleset from)");
  }
  return load_game(OpeningBook::read_header(a.book).ruleset_name());
}

OpeningBook open_book(const BookArgs& a, const Game& game, bool may_be_new) {
  if (may_be_new && !std::filesystem::exists(a.book)) return OpeningBook(game);
  return OpeningBook::load(a.book, game);
}

void run_build(const BookArgs& a) {
  GamePtr game = book_game(a);
  OpeningBook book = open_book(a, *game, true);
  std::shared_ptr<Evaluator> evaluator;
  BuildOptions o;
  if (!a.model.empty()) {
    load_torch_library("pincer book --model");
    serve::ModelOptions mo;
    mo.device = a.device;
    serve::LoadedModel m = serve::load_model_evaluator(game, a.model, mo);
    evaluator = m.evaluator;
    o.evaluator_id = m.model_id;
  } else if (a.evaluator == "alphabeta") {
    AlphaBetaBookOptions abo;
    abo.depth = a.depth;
    auto searcher = std::make_shared<AlphaBetaBookSearch>(*game, abo);
    o.searcher = [searcher](const State& s) { return searcher->search(s); };
    evaluator = std::make_shared<mcts::UniformEvaluator>();
    o.evaluator_id = "alphabeta:depth=" + std::to_string(a.depth);
  } else if (a.evaluator == "rollout") {
    evaluator = std::make_shared<mcts::RolloutEvaluator>(8);
    o.evaluator_id = "rollout";
  } else {
    evaluator = std::make_shared<mcts::UniformEvaluator>();
    o.evaluator_id = "uniform";
  }
  // --seed: the start a random-start game draws from that seed (as `pincer show` does).
  const std::string setup = a.seed >= 0 && a.position.empty()
                                ? game->draw_setup(static_cast<uint64_t>(a.seed))
                                : std::string();
  const Line root = play_line(*game, setup.empty() ? a.position : setup, a.moves);
  o.positions = a.positions;
  o.search.simulations = a.evaluator == "alphabeta" && a.model.empty() ? 0 : a.visits;
  o.search.leaves_per_batch = a.model.empty() ? 1 : 8;
  o.threads = a.threads;
  o.path = a.book;
  o.save_every = a.save_every;
  const auto start = std::chrono::steady_clock::now();
  o.on_position = [&](const OpeningBook& b, const BookPosition& p) {
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    spdlog::info("{} / {} positions ({:.1f}/min): {} value {:+.3f}{}", b.searched(), a.positions,
                 60.0 * b.searched() / std::max(s, 1e-3), p.text(), p.value(),
                 p.solved() ? " (proved)" : "");
  };
  const BuildSummary s = build(book, game, *root.state, *evaluator, o);
  book.save(a.book);
  const BookPosition* r = book.find(root.state->hash());
  std::printf("%s: %zu positions (%lld added%s); root value %+.3f%s\n", a.book.c_str(),
              book.searched(), static_cast<long long>(s.added),
              s.exhausted ? ", nothing left to expand" : "", r ? r->value() : 0.0f,
              r && r->solved() ? " (proved)" : "");
}

void run_stats(const BookArgs& a) {
  GamePtr game = book_game(a);
  OpeningBook book = open_book(a, *game, true);
  StatsCollector stats(*game, StatsOptions{a.max_plies, a.min_games});
  std::vector<std::string> errors;
  std::vector<std::string> files;
  for (const std::string& g : a.games) {
    if (std::filesystem::is_directory(g)) {
      for (const auto& e : std::filesystem::recursive_directory_iterator(g)) {
        const auto ext = e.path().extension();
        if (e.is_regular_file() && (ext == ".sgn" || ext == ".chunk")) files.push_back(e.path());
      }
    } else {
      files.push_back(g);
    }
  }
  std::sort(files.begin(), files.end());
  for (const std::string& f : files) {
    try {
      if (std::filesystem::path(f).extension() != ".chunk") {
        stats.add_sgn(read_whole_file(f), f, errors);
        continue;
      }
      const RecordChunk chunk = read_record_chunk(f, *game);
      for (int i = 0; i < chunk.games_size(); ++i) {
        const GameRecord& g = chunk.games(i);
        if (g.model_id().rfind(a.model_id, 0) != 0) continue;
        try {
          stats.add_record(g);
        } catch (const std::exception& e) {
          errors.push_back(f + ": game " + std::to_string(i + 1) + ": " + e.what());
        }
      }
    } catch (const std::exception& e) {
      errors.push_back(e.what());
    }
  }
  for (const std::string& e : errors) spdlog::warn("skipped: {}", e);
  stats.merge_into(book);
  book.save(a.book);
  std::printf("%s: %llu games from %zu files (%zu skipped); %zu positions\n", a.book.c_str(),
              static_cast<unsigned long long>(stats.games()), files.size(), errors.size(),
              book.size());
}

json stats_json(const GameStats& s) {
  auto rate = [&](uint64_t k) {
    const auto [lo, hi] = wilson_interval(k, s.games());
    return json{{"count", k}, {"low", lo}, {"high", hi}};
  };
  return {{"games", s.games()},
          {"wins0", rate(s.wins0())},
          {"wins1", rate(s.wins1())},
          {"draws", rate(s.draws())}};
}

json position_json(const OpeningBook& book, const Game& game, const BookPosition& p) {
  json moves = json::array();
  for (const BookMove& m : p.moves()) {
    const BookPosition* c = book.find(m.child_hash());
    moves.push_back({{"move", m.text()},
                     {"value", move_value(book, p, m)},
                     {"q", m.q()},
                     {"visits", m.visits()},
                     {"prior", m.prior()},
                     {"in_book", c && (c->searched() || c->terminal())},
                     {"proved", c && c->solved()},
                     {"stats", stats_json(m.stats())}});
  }
  return {{"position", p.text()},
          {"to_move", game.side_name(p.to_move())},
          {"searched", p.searched()},
          {"terminal", p.terminal()},
          {"value", p.value()},
          {"proved", p.solved()},
          {"wdl", json(std::vector<float>(p.wdl().begin(), p.wdl().end()))},
          {"visits", p.visits()},
          {"stats", stats_json(p.stats())},
          {"moves", moves}};
}

std::string pct(uint64_t k, uint64_t n) {
  if (n == 0) return "-";
  const auto [lo, hi] = wilson_interval(k, n);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f%% [%.0f-%.0f]", 100.0 * k / n, 100 * lo, 100 * hi);
  return buf;
}

void run_show(const BookArgs& a) {
  GamePtr game = book_game(a);
  const OpeningBook book = open_book(a, *game, false);
  const std::string position = a.position.empty() ? book.header().root() : a.position;
  if (position.empty() && a.moves.empty() && game->random_start()) {
    // A random-start book of statistics only has no one start to show; the first mover's
    // advantage over every start is still there.
    const FirstMoverAdvantage adv = first_mover_advantage(book, *game);
    if (a.as_json) {
      std::printf("%s\n", json{{"first_mover", json(advantage_json(adv))}}.dump(2).c_str());
    } else {
      std::printf(
          "%s\n\nThe book has no root position (%s has a random start): give --position "
          "to see a position's moves\n",
          advantage_text(adv).c_str(), game->ruleset_name().c_str());
    }
    return;
  }
  const Line line = play_line(*game, position, a.moves);
  const BookPosition* p = book.find(line.state->hash());
  if (!p) throw std::invalid_argument("the position is not in the book: " + line.state->to_text());
  const FirstMoverAdvantage adv = first_mover_advantage(book, *game);
  if (a.as_json) {
    json out = position_json(book, *game, *p);
    out["first_mover"] = json(advantage_json(adv));
    std::printf("%s\n", out.dump(2).c_str());
    return;
  }
  std::printf("%s\n\n", advantage_text(adv).c_str());
  std::printf("%s\n%s  %s to move  value %+.3f%s  visits %u  games %llu\n",
              line.state->to_diagram().c_str(), p->text().c_str(),
              game->side_name(p->to_move()).c_str(), p->value(), p->solved() ? " (proved)" : "",
              p->visits(), static_cast<unsigned long long>(p->stats().games()));
  std::vector<const BookMove*> moves;
  for (const BookMove& m : p->moves()) moves.push_back(&m);
  // Searched: best value first. Known only from games: the most played first.
  std::stable_sort(moves.begin(), moves.end(), [&](const BookMove* x, const BookMove* y) {
    if (!p->searched()) return x->stats().games() > y->stats().games();
    return move_value(book, *p, *x) > move_value(book, *p, *y);
  });
  const int me = p->to_move();
  std::printf("%-10s %8s %8s %7s %6s %6s  %-16s %-16s %-16s\n", "move", "value", "q", "visits",
              "prior", "games", "mover wins", "draws", "mover losses");
  for (const BookMove* m : moves) {
    const BookPosition* c = book.find(m->child_hash());
    const GameStats& s = m->stats();
    const uint64_t wins = me == 0 ? s.wins0() : s.wins1(), losses = me == 0 ? s.wins1() : s.wins0();
    std::printf("%-10s %+7.3f%s %+8.3f %7u %6.3f %6llu  %-16s %-16s %-16s\n", m->text().c_str(),
                move_value(book, *p, *m), c && c->solved() ? "!" : (c && c->searched() ? "*" : " "),
                m->q(), m->visits(), m->prior(), static_cast<unsigned long long>(s.games()),
                pct(wins, s.games()).c_str(), pct(s.draws(), s.games()).c_str(),
                pct(losses, s.games()).c_str());
  }
}

void run_export(const BookArgs& a) {
  GamePtr game = book_game(a);
  const OpeningBook book = open_book(a, *game, false);
  if (a.format == "json") {
    json positions = json::array();
    std::vector<uint64_t> hashes;
    for (const auto& [h, p] : book.positions()) hashes.push_back(h);
    std::sort(hashes.begin(), hashes.end());
    for (uint64_t h : hashes) positions.push_back(position_json(book, *game, *book.find(h)));
    const BookHeader& hd = book.header();
    json out = {{"game", hd.game()},
                {"ruleset", hd.ruleset_name()},
                {"fingerprint", hd.fingerprint()},
                {"model_id", hd.model_id()},
                {"visits", hd.visits()},
                {"root", hd.root()},
                {"first_mover", json(advantage_json(first_mover_advantage(book, *game)))},
                {"positions", positions}};
    std::printf("%s\n", out.dump(1).c_str());
    return;
  }
  // SGN: the main line after each of the root's moves, best first.
  std::unique_ptr<State> root = game->parse_start(book.header().root());
  const BookPosition* r = book.find(root->hash());
  if (!r) throw std::invalid_argument("the book has no root position");
  std::string out;
  for (const BookMove& first : r->moves()) {
    const BookPosition* c = book.find(first.child_hash());
    if (!c || !(c->searched() || c->terminal())) continue;
    std::vector<Action> actions{first.action()};
    for (const BookMove* m : main_line(book, first.child_hash())) actions.push_back(m->action());
    out += write_sgn(*game, *root, actions,
                     {{"Event", "book main line"},
                      {"BookValue", std::to_string(move_value(book, *r, first))}}) +
           "\n";
  }
  std::printf("%s", out.c_str());
}

void run_report(const BookArgs& a) {
  GamePtr game = book_game(a);
  const OpeningBook book = open_book(a, *game, false);
  ReportOptions o;
  o.min_games = a.min_games_shown;
  o.max_plies = a.report_plies;
  const std::string html = report_html(book, *game, o);
  atomic_write_file(a.out, html);
  std::printf("%s: %zu searched positions of %zu, %.1f MB\n%s\n", a.out.c_str(), book.searched(),
              book.size(), html.size() / 1e6,
              advantage_text(first_mover_advantage(book, *game)).c_str());
}

// The classical players take book=PATH too (the net player: cli/torch/player_net.cpp).
struct RegisterBookPlayers {
  RegisterBookPlayers() {
    for (const char* kind : {"alphabeta", "mcts"}) add_book_to_player_kind(kind);
  }
} register_book_players;

RegisterCommand register_book{
    "book", "Opening books: build by search, add game statistics, show, export", [](CLI::App& app) {
      app.require_subcommand(1);
      auto a = std::make_shared<BookArgs>();
      auto common = [&](CLI::App* c) {
        c->add_option("--rules", a->rules, "Ruleset name or file (default: the book's)");
        c->add_option("--book", a->book, "Book file")->required();
      };
      CLI::App* b = app.add_subcommand("build", "Grow the book by search (resumable)");
      common(b);
      b->add_option("--model", a->model, "Model file (needs torch)");
      b->add_option("--device", a->device, "Device of --model");
      b->add_option("--evaluator", a->evaluator,
                    "Without --model: uniform, rollout, or alphabeta (the classical search)")
          ->check(CLI::IsMember({"uniform", "rollout", "alphabeta"}));
      b->add_option("--depth", a->depth, "--evaluator alphabeta: plies searched per position")
          ->check(CLI::Range(1, 64));
      b->add_option("--positions", a->positions, "Total positions to reach")
          ->check(CLI::Range(int64_t{1}, int64_t{100000000}));
      b->add_option("--visits", a->visits, "Search visits per position")
          ->check(CLI::Range(1, 10000000));
      b->add_option("--threads", a->threads, "Search threads")->check(CLI::Range(1, 256));
      b->add_option("--save-every", a->save_every, "Save after this many new positions")
          ->check(CLI::Range(1, 1000000));
      b->add_option("--position", a->position, "Root position (default: the start)");
      b->add_option("--moves", a->moves, "Moves from the root position");
      b->add_option("--seed", a->seed, "Random-start games: the start this seed draws");
      b->callback([a] { run_build(*a); });

      CLI::App* s =
          app.add_subcommand("stats", "Add game statistics from SGN records and self-play chunks");
      common(s);
      s->add_option("--games", a->games, "SGN files, record chunks or directories of them")
          ->required();
      s->add_option("--model-id", a->model_id,
                    "Only chunk games played by models whose id starts so (one generation)");
      s->add_option("--min-games", a->min_games, "Add new positions reached by this many games");
      s->add_option("--max-plies", a->max_plies, "Count positions up to this ply")
          ->check(CLI::Range(0, 10000));
      s->callback([a] { run_stats(*a); });

      CLI::App* sh = app.add_subcommand("show", "A book position and its moves");
      common(sh);
      sh->add_option("--position", a->position, "Position (default: the book's root)");
      sh->add_option("--moves", a->moves, "Moves from the position");
      sh->add_flag("--json", a->as_json, "JSON for tools");
      sh->callback([a] { run_show(*a); });

      CLI::App* r =
          app.add_subcommand("report", "One self-contained HTML page to explore the book");
      common(r);
      r->add_option("--out", a->out, "HTML file to write")->required();
      r->add_option("--min-games", a->min_games_shown,
                    "Show positions known only from games when this many games reached them")
          ->capture_default_str();
      r->add_option("--max-plies", a->report_plies,
                    "Show only positions this many plies or fewer from the root (a page grows by "
                    "4 to 8 KB a position: 16 MB for a 2,000-position SE!ZE book)")
          ->check(CLI::Range(0, 10000));
      r->callback([a] { run_report(*a); });

      CLI::App* e = app.add_subcommand("export", "The book as JSON, or its main lines as SGN");
      common(e);
      e->add_option("--format", a->format, "json or sgn")->check(CLI::IsMember({"json", "sgn"}));
      e->callback([a] { run_export(*a); });
    }};

}  // namespace
}  // namespace pincer::cli
