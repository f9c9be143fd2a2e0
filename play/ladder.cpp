#include "play/ladder.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "engine/html.h"

namespace pincer {

namespace {

constexpr double kEloPerNat = 400.0 / 2.302585092994046;  // Elo units per natural-log unit

// Solves a x = b in place (Gaussian elimination with partial pivoting); a is n x n, row major.
bool solve(std::vector<double>& a, std::vector<double>& b, int n) {
  for (int c = 0; c < n; ++c) {
    int p = c;
    for (int r = c + 1; r < n; ++r) {
      if (std::abs(a[r * n + c]) > std::abs(a[p * n + c])) p = r;
    }
    if (std::abs(a[p * n + c]) < 1e-300) return false;
    if (p != c) {
      for (int k = 0; k < n; ++k) std::swap(a[c * n + k], a[p * n + k]);
      std::swap(b[c], b[p]);
    }
    for (int r = 0; r < n; ++r) {
      if (r == c) continue;
      const double f = a[r * n + c] / a[c * n + c];
      if (f == 0) continue;
      for (int k = c; k < n; ++k) a[r * n + k] -= f * a[c * n + k];
      b[r] -= f * b[c];
    }
  }
  for (int c = 0; c < n; ++c) b[c] /= a[c * n + c];
  return true;
}

}  // namespace

EloFit fit_elo(int players, const std::vector<PairScore>& results, int anchor, double prior_draws) {
  if (players <= 0) return {};
  if (anchor < 0 || anchor >= players) throw std::invalid_argument("fit_elo: bad anchor");
  // Pooled scores and games for every ordered pair.
  std::vector<double> score(players * players, 0), games(players * players, 0);
  for (const PairScore& r : results) {
    if (r.a < 0 || r.b < 0 || r.a >= players || r.b >= players || r.a == r.b || r.games <= 0) {
      continue;
    }
    score[r.a * players + r.b] += r.score_a;
    score[r.b * players + r.a] += r.games - r.score_a;
    games[r.a * players + r.b] += r.games;
    games[r.b * players + r.a] += r.games;
  }
  for (int i = 0; i < players; ++i) {
    for (int j = 0; j < players; ++j) {
      if (i != j && games[i * players + j] > 0) {
        score[i * players + j] += 0.5 * prior_draws;
        games[i * players + j] += prior_draws;
      }
    }
  }

  // Newton's method on the log-likelihood in natural units, the anchor held at 0.
  std::vector<int> free;
  for (int i = 0; i < players; ++i) {
    if (i != anchor) free.push_back(i);
  }
  const int m = static_cast<int>(free.size());
  std::vector<double> x(players, 0);
  EloFit fit;
  std::vector<double> hess(m * m), grad(m);
  auto build = [&] {
    std::fill(hess.begin(), hess.end(), 0);
    std::fill(grad.begin(), grad.end(), 0);
    for (int u = 0; u < m; ++u) {
      const int i = free[u];
      hess[u * m + u] = 1e-9;  // keeps players without games solvable
      for (int j = 0; j < players; ++j) {
        const double g = games[i * players + j];
        if (j == i || g == 0) continue;
        const double p = 1 / (1 + std::exp(x[j] - x[i]));
        grad[u] += score[i * players + j] - g * p;
        const double w = g * p * (1 - p);
        hess[u * m + u] += w;
        const auto v = std::find(free.begin(), free.end(), j);
        if (v != free.end()) hess[u * m + (v - free.begin())] -= w;
      }
    }
  };
  for (fit.iterations = 1; fit.iterations <= 200 && m > 0; ++fit.iterations) {
    build();
    std::vector<double> a = hess, step = grad;
    if (!solve(a, step, m)) break;
    double biggest = 0;
    for (int u = 0; u < m; ++u) {
      const double s = std::clamp(step[u], -3.0, 3.0);  // damped far from the optimum
      x[free[u]] += s;
      biggest = std::max(biggest, std::abs(s));
    }
    if (biggest < 1e-10) {
      fit.converged = true;
      break;
    }
  }
  if (m == 0) fit.converged = true;
  build();
  fit.elo.assign(players, 0);
  fit.sd.assign(players, 0);
  for (int i = 0; i < players; ++i) fit.elo[i] = x[i] * kEloPerNat;
  // Standard errors: the diagonal of the inverse information matrix.
  for (int u = 0; u < m; ++u) {
    std::vector<double> a = hess, e(m, 0);
    e[u] = 1;
    if (solve(a, e, m)) fit.sd[free[u]] = std::sqrt(std::max(0.0, e[u])) * kEloPerNat;
  }
  return fit;
}

std::string ladder_html(const std::string& caption, const std::vector<LadderRow>& rows,
                        const std::vector<PairScore>& results) {
  std::ostringstream out;
  char buf[256];
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<title>pincer ladder</title>\n<style>\n"
      << "body{font-family:sans-serif;margin:2em;color:#222}\n"
      << "table{border-collapse:collapse;margin:1em 0}\n"
      << "td,th{border:1px solid #bbb;padding:.3em .7em;text-align:right}\n"
      << "td:nth-child(2),th:nth-child(2){text-align:left;font-family:monospace}\n"
      << "</style>\n</head>\n<body>\n<h1>Ladder</h1>\n<p>" << html_escape(caption) << "</p>\n";
  std::vector<size_t> rank(rows.size());
  for (size_t i = 0; i < rank.size(); ++i) rank[i] = i;
  std::stable_sort(rank.begin(), rank.end(),
                   [&](size_t x, size_t y) { return rows[x].elo > rows[y].elo; });
  out << "<table>\n<tr><th>#</th><th>player</th><th>Elo</th><th>95% interval</th>"
      << "<th>games</th><th>score</th></tr>\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const LadderRow& r = rows[rank[i]];
    std::snprintf(buf, sizeof buf,
                  "<tr><td>%zu</td><td>%s</td><td>%+.0f</td><td>%+.0f .. %+.0f</td><td>%d</td>"
                  "<td>%.1f%%</td></tr>\n",
                  i + 1, html_escape(r.player).c_str(), r.elo, r.elo - 1.96 * r.sd,
                  r.elo + 1.96 * r.sd, r.games, 100 * r.score);
    out << buf;
  }
  out << "</table>\n";

  // The plot: one row per player, a dot at its rating and a bar over its interval.
  const int width = 720, left = 260, right = 30, row_h = 28, top = 30;
  const int height = top + row_h * static_cast<int>(rows.size()) + 40;
  double lo = 0, hi = 0;
  for (const LadderRow& r : rows) {
    lo = std::min(lo, r.elo - 1.96 * r.sd);
    hi = std::max(hi, r.elo + 1.96 * r.sd);
  }
  lo = std::floor(lo / 100) * 100 - 50;
  hi = std::ceil(hi / 100) * 100 + 50;
  auto px = [&](double elo) { return left + (elo - lo) / (hi - lo) * (width - left - right); };
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  const double step = (hi - lo) > 1200 ? 200 : 100;
  for (double g = std::ceil(lo / step) * step; g <= hi; g += step) {
    std::snprintf(buf, sizeof buf,
                  "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>"
                  "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%+.0f</text>\n",
                  px(g), top - 10, px(g), height - 30, px(g), height - 14, g);
    out << buf;
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    const LadderRow& r = rows[rank[i]];
    const int y = top + row_h * static_cast<int>(i) + row_h / 2;
    std::snprintf(buf, sizeof buf,
                  "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" font-family=\"monospace\">%s"
                  "</text>\n<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#36c\" "
                  "stroke-width=\"3\"/>\n<circle cx=\"%.1f\" cy=\"%d\" r=\"5\" fill=\"#c33\"/>\n",
                  left - 10, y + 4, html_escape(r.player).c_str(), px(r.elo - 1.96 * r.sd), y,
                  px(r.elo + 1.96 * r.sd), y, px(r.elo), y);
    out << buf;
  }
  out << "</svg>\n";

  if (!results.empty()) {
    out << "<h2>Pairings</h2>\n<table>\n<tr><th>#</th><th>pairing</th><th>games</th>"
        << "<th>score of the first</th></tr>\n";
    for (size_t i = 0; i < results.size(); ++i) {
      const PairScore& p = results[i];
      const std::string a = p.a < static_cast<int>(rows.size()) ? rows[p.a].player : "?";
      const std::string b = p.b < static_cast<int>(rows.size()) ? rows[p.b].player : "?";
      std::snprintf(buf, sizeof buf,
                    "<tr><td>%zu</td><td>%s vs %s</td><td>%d</td><td>%.1f</td></tr>\n", i + 1,
                    html_escape(a).c_str(), html_escape(b).c_str(), p.games, p.score_a);
      out << buf;
    }
    out << "</table>\n";
  }
  out << "</body>\n</html>\n";
  return out.str();
}

}  // namespace pincer
