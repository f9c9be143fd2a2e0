#include "book/advantage.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>

namespace pincer::book {
namespace {

constexpr int kTextMinGames = 10;

std::string percent(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100 * x);
  return buf;
}

// "55.1% [53.5–56.6]" (an en dash between the bounds).
std::string score_text(const ScoreEstimate& e) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.1f%% [%.1f\u2013%.1f]", 100 * e.score, 100 * e.score_low,
                100 * e.score_high);
  return buf;
}

std::string games_word(uint64_t n) { return std::to_string(n) + (n == 1 ? " game" : " games"); }

// "55.1% [53.5–56.6] over 3915 games (2000 won, 3 drawn, 1912 lost; 4 unfinished not counted)"
// for games with a finished one.
std::string scored_games_text(const MoverGames& g) {
  std::string out = score_text(g.score) + " over " + games_word(g.score.games) + " (" +
                    std::to_string(g.wins) + " won, " + std::to_string(g.draws) + " drawn, " +
                    std::to_string(g.losses) + " lost";
  if (g.unfinished > 0) out += "; " + std::to_string(g.unfinished) + " unfinished not counted";
  return out + ")";
}

serve::Json games_json(const MoverGames& g) {
  serve::Json j{{"games", g.score.games},
                {"wins", g.wins},
                {"draws", g.draws},
                {"losses", g.losses},
                {"unfinished", g.unfinished}};
  if (g.score.games > 0) {
    j["score"] = round4(g.score.score);
    j["low"] = round4(g.score.score_low);
    j["high"] = round4(g.score.score_high);
    j["interval"] = g.score.variance > 0 ? "normal" : "wilson";
  }
  return j;
}

serve::Json move_json(const FirstMove& m) {
  serve::Json j{{"move", m.move}};
  if (m.value) {
    j["value"] = round4(*m.value);
    j["score"] = round4((*m.value + 1) / 2);
    j["proved"] = m.proved;
  }
  j["games"] = games_json(m.games);
  return j;
}

// Whether three result counts fit `games` games, and games fits an int (estimate_score's type).
// Overflow-safe: the sum is taken only once each count is at most games.
bool counts_fit(uint64_t a, uint64_t b, uint64_t c, uint64_t games) {
  return games <= static_cast<uint64_t>(INT_MAX) && a <= games && b <= games && c <= games &&
         a + b + c <= games;
}

// Counts already checked by counts_fit: the games not won, drawn or lost are unfinished.
MoverGames scored_games(uint64_t wins, uint64_t draws, uint64_t losses, uint64_t games) {
  MoverGames g;
  g.wins = wins;
  g.draws = draws;
  g.losses = losses;
  g.unfinished = games - wins - draws - losses;
  g.score =
      estimate_score(static_cast<int>(wins), static_cast<int>(draws), static_cast<int>(losses));
  return g;
}

}  // namespace

MoverGames mover_games(const MoverStats& s) {
  if (!counts_fit(s.wins(), s.draws(), s.losses(), s.games())) {
    throw BookError("damaged book: the every-start statistics' " + std::to_string(s.wins()) +
                    " wins, " + std::to_string(s.draws()) + " draws and " +
                    std::to_string(s.losses()) + " losses do not fit " + std::to_string(s.games()) +
                    " games");
  }
  return scored_games(s.wins(), s.draws(), s.losses(), s.games());
}

MoverGames mover_games(const GameStats& s, int mover) {
  if (!counts_fit(s.wins0(), s.wins1(), s.draws(), s.games())) {
    throw BookError("damaged book: game statistics " + std::to_string(s.wins0()) + " + " +
                    std::to_string(s.wins1()) + " wins and " + std::to_string(s.draws()) +
                    " draws do not fit " + std::to_string(s.games()) + " games");
  }
  return mover == 0 ? scored_games(s.wins0(), s.draws(), s.wins1(), s.games())
                    : scored_games(s.wins1(), s.draws(), s.wins0(), s.games());
}

FirstMoverAdvantage first_mover_advantage(const OpeningBook& book, const Game& game, size_t top) {
  FirstMoverAdvantage a;
  // Over every start: from the header, so known whether or not the book has a root.
  const BookHeader& header = book.header();
  a.every_start = mover_games(header.every_start());
  a.starts = static_cast<uint64_t>(header.start_hashes_size());
  if (a.starts > header.every_start().games()) {
    throw BookError("damaged book: " + std::to_string(a.starts) + " distinct starts for " +
                    std::to_string(header.every_start().games()) + " games");
  }
  const BookPosition* root = book.find(root_hash(book, game));
  if (!root) {
    a.side = game.side_name(0);
    return a;
  }
  if (root->to_move() != 0 && root->to_move() != 1) {
    throw BookError("damaged book: the root's side to move is " + std::to_string(root->to_move()));
  }
  a.has_root = true;
  a.root = root->text();
  a.mover = root->to_move();
  a.side = game.side_name(a.mover);
  a.games = mover_games(root->stats(), a.mover);
  if (root->searched() || root->terminal()) {
    if (root->wdl_size() == 3) a.search_score = root->wdl(0) + root->wdl(1) / 2.0;
    a.book_score = (root->value() + 1) / 2.0;
    a.proved = root->solved();
  }

  std::vector<FirstMove> moves;
  for (const BookMove& m : root->moves()) {
    FirstMove f;
    f.move = m.text();
    const BookPosition* c = book.find(m.child_hash());
    const bool child_known = c && (c->searched() || c->terminal());
    // A move the search never visited and the book never expanded has no value (its q is a
    // placeholder): it is ranked by the games only.
    if (root->searched() && (child_known || m.visits() > 0)) {
      f.value = move_value(book, *root, m);
      f.proved = child_known && c->solved();
    }
    f.games = mover_games(m.stats(), a.mover);
    moves.push_back(std::move(f));
  }
  for (const FirstMove& f : moves) {
    if (f.value) a.by_search.push_back(f);
  }
  std::stable_sort(a.by_search.begin(), a.by_search.end(),
                   [](const FirstMove& x, const FirstMove& y) { return *x.value > *y.value; });
  if (a.by_search.size() > top) a.by_search.resize(top);
  for (const FirstMove& f : moves) {
    if (f.games.score.games == 0) continue;
    a.by_games.push_back(f);
    ++a.moves_played;
  }
  std::stable_sort(a.by_games.begin(), a.by_games.end(),
                   [](const FirstMove& x, const FirstMove& y) {
                     if (x.games.score.games != y.games.score.games) {
                       return x.games.score.games > y.games.score.games;
                     }
                     return x.games.score.score > y.games.score.score;
                   });
  if (a.by_games.size() > top) a.by_games.resize(top);
  return a;
}

namespace {

// "; over every start (N starts): the first mover scores ..." when the book's games came from more
// than one start (with one, the root's games say it); "" otherwise.
std::string every_start_text(const FirstMoverAdvantage& a) {
  if (a.starts < 2) return "";
  std::string out = "; over every start (" + std::to_string(a.starts) + " starts): ";
  const MoverGames& g = a.every_start;
  if (g.score.games > 0) return out + "the first mover scores " + scored_games_text(g);
  return out + "no finished games (" + std::to_string(g.unfinished) + " unfinished)";
}

// The line without the every-start part.
std::string root_text(const FirstMoverAdvantage& a) {
  if (!a.has_root) return "First mover: the book has no root position";
  std::string out = "First mover: " + a.side;
  const MoverGames& g = a.games;
  if (g.score.games > 0) {
    out += " scores " + scored_games_text(g);
  } else if (g.unfinished > 0) {
    out += ": no finished games at the root (" + std::to_string(g.unfinished) + " unfinished)";
  } else {
    out += ": no games in the book at the root (`pincer book stats` adds them)";
  }
  if (a.search_score) {
    out += "; search says " + percent(*a.search_score);
    if (a.book_score) {
      out += " (book minimax " + percent(*a.book_score) + (a.proved ? ", proved)" : ")");
    }
  } else {
    out += "; the root is not searched";
  }
  if (!a.by_search.empty()) {
    out += "; best first moves by search:";
    for (size_t i = 0; i < a.by_search.size(); ++i) {
      const FirstMove& m = a.by_search[i];
      out += (i ? ", " : " ") + m.move + " " + percent((*m.value + 1) / 2) + (m.proved ? "!" : "");
    }
  }
  if (!a.by_games.empty()) {
    // Moves played in fewer than kTextMinGames games are only counted: their intervals span most
    // of the scale (the JSON has them).
    out += a.by_search.empty() ? "; best first moves by games:" : "; by games:";
    size_t listed = 0;
    for (const FirstMove& m : a.by_games) {
      if (m.games.score.games < kTextMinGames) break;  // most played first: the rest are rarer
      out += (listed++ ? ", " : " ") + m.move + " " + score_text(m.games.score) + " in " +
             games_word(m.games.score.games);
    }
    // The other moves played: all rarer than kTextMinGames when one of the top ones was.
    const size_t rest = a.moves_played - listed;
    if (rest > 0) {
      out += std::string(listed ? ", " : " ") + std::to_string(rest) + (listed ? " other" : "") +
             (rest == 1 ? " move" : " moves") +
             (listed < a.by_games.size()
                  ? " with fewer than " + std::to_string(kTextMinGames) + " games"
                  : std::string(" played"));
    }
  }
  return out;
}

}  // namespace

std::string advantage_text(const FirstMoverAdvantage& a) {
  return root_text(a) + every_start_text(a);
}

serve::Json advantage_json(const FirstMoverAdvantage& a) {
  serve::Json j{{"side", a.side}, {"mover", a.mover}, {"hasRoot", a.has_root}};
  if (a.has_root) {
    j["root"] = a.root;
    j["games"] = games_json(a.games);
    if (a.search_score) j["searchScore"] = round4(*a.search_score);
    if (a.book_score) {
      j["bookScore"] = round4(*a.book_score);
      j["proved"] = a.proved;
    }
    serve::Json s = serve::Json::array(), g = serve::Json::array();
    for (const FirstMove& m : a.by_search) s.push_back(move_json(m));
    for (const FirstMove& m : a.by_games) g.push_back(move_json(m));
    j["bySearch"] = std::move(s);
    j["byGames"] = std::move(g);
  }
  if (a.every_start.score.games > 0 || a.every_start.unfinished > 0) {
    serve::Json e = games_json(a.every_start);
    e["starts"] = a.starts;
    j["everyStart"] = std::move(e);
  }
  j["text"] = advantage_text(a);
  return j;
}

}  // namespace pincer::book
