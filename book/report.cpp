#include "book/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <unordered_map>

#include "book/advantage.h"
#include "book/stats.h"
#include "engine/embedded.h"
#include "engine/html.h"
#include "serve/board.h"

namespace pincer {
const std::vector<EmbeddedFile>& embedded_book_report();
}

namespace pincer::book {
namespace {

using serve::Json;

std::string key(uint64_t hash) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(hash));
  return buf;
}

// Games, wins of the mover with its 95% interval, draws, losses of the mover.
Json stats_json(const GameStats& s, int mover) {
  const uint64_t wins = mover == 0 ? s.wins0() : s.wins1();
  const uint64_t losses = mover == 0 ? s.wins1() : s.wins0();
  Json out{{"games", s.games()}, {"wins", wins}, {"draws", s.draws()}, {"losses", losses}};
  if (s.games() > 0) {
    const auto [lo, hi] = wilson_interval(wins, s.games());
    out["winRate"] = {round4(double(wins) / s.games()), round4(lo), round4(hi)};
  }
  return out;
}

bool in_book(const BookPosition* p) { return p && (p->searched() || p->terminal()); }

std::string embedded(const std::string& stem) {
  for (const EmbeddedFile& f : embedded_book_report()) {
    if (stem == f.name) return f.text;
  }
  throw std::logic_error("book/report/" + stem + " is not embedded");
}

// Plies from the root of every position reached through the book's moves (breadth first).
std::unordered_map<uint64_t, int> plies_from_root(const OpeningBook& book, uint64_t root,
                                                  int max_plies) {
  std::unordered_map<uint64_t, int> plies;
  if (!book.find(root)) return plies;
  std::deque<uint64_t> queue{root};
  plies[root] = 0;
  while (!queue.empty()) {
    const uint64_t hash = queue.front();
    queue.pop_front();
    const int ply = plies[hash];
    if (ply >= max_plies) continue;
    for (const BookMove& m : book.find(hash)->moves()) {
      if (!book.find(m.child_hash()) || plies.count(m.child_hash())) continue;
      plies[m.child_hash()] = ply + 1;
      queue.push_back(m.child_hash());
    }
  }
  return plies;
}

}  // namespace

Json position_report(const OpeningBook& book, const BookPosition& p, const State& state,
                     const std::function<bool(const BookPosition*)>& linked) {
  std::vector<const BookMove*> moves;
  for (const BookMove& m : p.moves()) moves.push_back(&m);
  std::stable_sort(moves.begin(), moves.end(), [&](const BookMove* x, const BookMove* y) {
    if (!p.searched()) return x->stats().games() > y->stats().games();
    return move_value(book, p, *x) > move_value(book, p, *y);
  });
  Json mj = Json::array();
  for (const BookMove* m : moves) {
    const BookPosition* child = book.find(m->child_hash());
    Json j{{"move", m->text()},
           {"cells", serve::cells_json(state.action_cells(m->action()))},
           {"games", stats_json(m->stats(), p.to_move())}};
    if (p.searched()) {
      // A move the search never visited has no q (the book stores -1 to rank it last) and no
      // value unless its position is in the book: the page shows "-", not a lost game.
      if (m->visits() > 0 || in_book(child)) j["value"] = round4(move_value(book, p, *m));
      if (m->visits() > 0) j["q"] = round4(m->q());
      j["visits"] = m->visits();
      j["prior"] = round4(m->prior());
    }
    if (linked(child)) j["child"] = key(child->hash());
    j["inBook"] = in_book(child);
    j["proved"] = in_book(child) && child->solved();
    mj.push_back(std::move(j));
  }
  Json pj{{"text", p.text()},
          {"toMove", p.to_move()},
          {"view", serve::view_json(state)},
          {"searched", p.searched()},
          {"terminal", p.terminal()},
          {"games", stats_json(p.stats(), p.to_move())},
          {"moves", std::move(mj)}};
  if (p.searched() || p.terminal()) {
    pj["value"] = round4(p.value());
    pj["proved"] = p.solved();
    pj["wdl"] = Json::array();
    for (float x : p.wdl()) pj["wdl"].push_back(round4(x));
    pj["visits"] = p.visits();
  }
  return pj;
}

Json report_data(const OpeningBook& book, const Game& game, const ReportOptions& options) {
  const BookHeader& h = book.header();
  Json positions = Json::object();
  std::vector<uint64_t> hashes;
  const uint64_t root = root_hash(book, game);
  const bool limited = options.max_plies >= 0;
  const std::unordered_map<uint64_t, int> plies =
      limited ? plies_from_root(book, root, options.max_plies)
              : std::unordered_map<uint64_t, int>{};
  const auto shown = [&](const BookPosition* p) {
    return p && (!limited || plies.count(p->hash())) &&
           (in_book(p) || p->stats().games() >= options.min_games || p->hash() == root);
  };
  for (const auto& [hash, p] : book.positions()) {
    if (shown(&p)) hashes.push_back(hash);
  }
  std::sort(hashes.begin(), hashes.end());
  for (uint64_t hash : hashes) {
    const BookPosition& p = *book.find(hash);
    std::unique_ptr<State> state;
    try {
      state = game.parse_state(p.text());
    } catch (const GameError& e) {
      throw BookError("damaged book: position " + p.text() + ": " + e.what());
    }
    if (state->hash() != p.hash()) {
      throw BookError("damaged book: position " + p.text() + " does not match its hash");
    }
    positions[key(hash)] = position_report(book, p, *state, shown);
  }
  const Json header{{"game", h.game()},
                    {"ruleset", h.ruleset_name()},
                    {"fingerprint", h.fingerprint()},
                    {"evaluator", h.model_id()},
                    {"visits", h.visits()},
                    {"searched", book.searched()},
                    {"positions", book.size()},
                    {"shown", hashes.size()},
                    {"minGames", options.min_games},
                    {"maxPlies", options.max_plies},
                    {"recordsRead", h.records_read()}};
  return {{"header", header},
          {"sides", {game.side_name(0), game.side_name(1)}},
          {"layout", serve::layout_json(game)},
          {"root", key(root)},
          {"firstMover", advantage_json(first_mover_advantage(book, game))},
          {"positions", std::move(positions)}};
}

std::string report_html(const OpeningBook& book, const Game& game, const ReportOptions& options) {
  const Json d = report_data(book, game, options);
  const std::string first_mover = d["firstMover"]["text"];
  // JSON inside <script>: "</" would end the element, so it is written "<\/" (the same string).
  std::string data = d.dump(-1, ' ', false, Json::error_handler_t::replace);
  std::string safe;
  safe.reserve(data.size());
  for (size_t i = 0; i < data.size(); ++i) {
    if (data[i] == '<' && i + 1 < data.size() && data[i + 1] == '/') {
      safe += "<\\/";
      ++i;
    } else {
      safe += data[i];
    }
  }
  const std::string title = "Opening book: " + book.header().ruleset_name();
  return "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + title +
         "</title>\n<style>\n" + embedded("report_style") +
         "</style>\n</head>\n<body>\n"
         "<header><h1>" +
         title +
         "</h1><p id=\"meta\"></p>"
         "<p id=\"first-mover\" class=\"first-mover\">" +
         html_escape(first_mover) +
         "</p></header>\n"
         "<nav id=\"crumbs\"></nav>\n"
         "<main>\n<section class=\"board\"><svg id=\"board\" class=\"board\"></svg>"
         "<div id=\"position\"></div></section>\n"
         "<section class=\"moves\"><table id=\"moves\"></table>"
         "<h2>Values of the moves</h2><svg id=\"chart\"></svg>"
         "<p class=\"legend\">Bar: the book's value as an expected score for the side to move. "
         "Dot and whisker: the side to move's win rate in the games read, with its 95% "
         "interval.</p></section>\n</main>\n"
         "<script type=\"application/json\" id=\"book-data\">" +
         safe + "</script>\n<script type=\"module\">\n" + serve::board_script() +
         // In a block: board.js's own top-level names stay out of the report's way.
         "\n{\n" + embedded("report") + "}\n</script>\n</body>\n</html>\n";
}

}  // namespace pincer::book
