#include "train/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "engine/atomic_file.h"
#include "engine/html.h"
#include "nn/model.h"
#include "proto/train_state.pb.h"
#include "train/anchor.h"
#include "train/checkpoint_rating.h"
#include "train/config.h"

namespace fs = std::filesystem;

namespace pincer {
namespace {

struct Series {
  Series(std::string n, std::string c) : name(std::move(n)), color(std::move(c)) {}
  std::string name;
  std::string color;
  std::vector<std::pair<double, double>> points;
  bool markers = false;
  std::vector<bool> filled;  // per point, with markers: filled (e.g. promoted) or hollow
  std::vector<std::pair<double, double>> bars;  // per point: an interval drawn as a bar
};

std::string num(double v) {
  char buf[32];
  if (std::fabs(v) >= 1e4 || (std::fabs(v) < 1e-2 && v != 0)) {
    std::snprintf(buf, sizeof buf, "%.3g", v);
  } else {
    std::snprintf(buf, sizeof buf, "%.4g", v);
  }
  return buf;
}

// "Nice" tick values covering [lo, hi].
std::vector<double> ticks(double lo, double hi, int target = 5) {
  const double span = hi - lo;
  const double raw = span / target;
  const double mag = std::pow(10, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  }
  std::vector<double> t;
  for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) t.push_back(v);
  return t;
}

std::string chart(const std::string& title, const std::string& xlabel, const std::string& ylabel,
                  const std::vector<Series>& series,
                  const std::vector<std::pair<double, std::string>>& hlines = {}) {
  const int W = 640, H = 316, L = 64, R = 16, T = 50, B = 44;  // legend between title and plot
  double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
  for (const Series& s : series) {
    for (auto [x, y] : s.points) {
      if (!std::isfinite(x) || !std::isfinite(y)) continue;
      x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
    }
    for (auto [lo, hi] : s.bars) {
      if (std::isfinite(lo)) y0 = std::min(y0, lo);
      if (std::isfinite(hi)) y1 = std::max(y1, hi);
    }
  }
  for (auto& [y, label] : hlines) y0 = std::min(y0, y), y1 = std::max(y1, y);
  std::ostringstream o;
  o << "<figure><svg xmlns='http://www.w3.org/2000/svg' width='" << W << "' height='" << H
    << "' viewBox='0 0 " << W << " " << H << "' role='img' aria-label='" << html_escape(title)
    << "'>";
  o << "<text x='" << W / 2 << "' y='20' text-anchor='middle' class='t'>" << html_escape(title)
    << "</text>";
  if (x0 > x1) {
    o << "<text x='" << W / 2 << "' y='" << H / 2
      << "' text-anchor='middle' class='n'>no data yet</text></svg></figure>";
    return o.str();
  }
  if (x1 == x0) x0 -= 1, x1 += 1;
  if (y1 == y0) y0 -= 0.5, y1 += 0.5;
  const double pad = (y1 - y0) * 0.05;
  y0 -= pad, y1 += pad;
  auto X = [&](double x) { return L + (x - x0) / (x1 - x0) * (W - L - R); };
  auto Y = [&](double y) { return H - B - (y - y0) / (y1 - y0) * (H - T - B); };
  o << "<rect x='" << L << "' y='" << T << "' width='" << W - L - R << "' height='" << H - T - B
    << "' class='f'/>";
  for (double t : ticks(x0, x1)) {
    o << "<line x1='" << X(t) << "' x2='" << X(t) << "' y1='" << T << "' y2='" << H - B
      << "' class='g'/><text x='" << X(t) << "' y='" << H - B + 14
      << "' text-anchor='middle' class='a'>" << num(t) << "</text>";
  }
  for (double t : ticks(y0, y1)) {
    o << "<line x1='" << L << "' x2='" << W - R << "' y1='" << Y(t) << "' y2='" << Y(t)
      << "' class='g'/><text x='" << L - 6 << "' y='" << Y(t) + 4
      << "' text-anchor='end' class='a'>" << num(t) << "</text>";
  }
  o << "<text x='" << (L + W - R) / 2 << "' y='" << H - 8 << "' text-anchor='middle' class='a'>"
    << html_escape(xlabel) << "</text>";
  o << "<text transform='translate(14," << (T + H - B) / 2
    << ") rotate(-90)' text-anchor='middle' class='a'>" << html_escape(ylabel) << "</text>";
  for (auto& [y, label] : hlines) {
    o << "<line x1='" << L << "' x2='" << W - R << "' y1='" << Y(y) << "' y2='" << Y(y)
      << "' stroke='#888' stroke-dasharray='5,4'/><text x='" << W - R - 4 << "' y='" << Y(y) - 4
      << "' text-anchor='end' class='a'>" << html_escape(label) << "</text>";
  }
  int legend_x = L + 8;
  for (const Series& s : series) {
    if (s.points.empty()) continue;
    std::ostringstream path;
    for (size_t i = 0; i < s.points.size(); ++i) {
      path << (i ? " L" : "M") << X(s.points[i].first) << "," << Y(s.points[i].second);
    }
    o << "<path d='" << path.str() << "' fill='none' stroke='" << s.color
      << "' stroke-width='1.8'/>";
    for (size_t i = 0; i < s.bars.size() && i < s.points.size(); ++i) {
      const double x = X(s.points[i].first);
      const double lo = Y(s.bars[i].first), hi = Y(s.bars[i].second);
      o << "<path d='M" << x << "," << lo << " L" << x << "," << hi << " M" << x - 4 << "," << lo
        << " L" << x + 4 << "," << lo << " M" << x - 4 << "," << hi << " L" << x + 4 << "," << hi
        << "' stroke='" << s.color << "' stroke-width='1.2' fill='none'/>";
    }
    if (s.markers) {
      for (size_t i = 0; i < s.points.size(); ++i) {
        const bool fill = i < s.filled.size() ? s.filled[i] : true;
        o << "<circle cx='" << X(s.points[i].first) << "' cy='" << Y(s.points[i].second)
          << "' r='4' stroke='" << s.color << "' fill='" << (fill ? s.color : "white") << "'/>";
      }
    }
    o << "<rect x='" << legend_x << "' y='" << T - 12 << "' width='12' height='4' fill='" << s.color
      << "'/><text x='" << legend_x + 16 << "' y='" << T - 6 << "' class='a'>"
      << html_escape(s.name) << "</text>";
    legend_x += 24 + 7 * static_cast<int>(s.name.size());
  }
  o << "</svg></figure>";
  return o.str();
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : line) {
    if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

double to_d(const std::string& s) {
  if (s.empty()) return NAN;
  try {
    return std::stod(s);
  } catch (...) {
    return NAN;
  }
}

}  // namespace

std::string write_report(const RunDir& dir) {
  // metrics.csv
  std::vector<std::map<std::string, std::string>> rows;
  {
    std::ifstream in(dir.metrics());
    std::string line;
    std::vector<std::string> header;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      auto f = split(line);
      if (header.empty()) {
        header = f;
        continue;
      }
      // A line cut short by a kill is skipped; a longer one (a newer version's columns after an
      // older header) keeps the header's columns.
      if (f.size() < header.size()) continue;
      std::map<std::string, std::string> r;
      for (size_t i = 0; i < f.size(); ++i) r[header[i]] = f[i];
      rows.push_back(std::move(r));
    }
  }
  const double t0 = rows.empty() ? 0 : to_d(rows.front()["unix_ms"]);
  // The x-axis of the curves: the run's core-hours (train/cpu_time.h) where the rows have them,
  // wall-clock hours for rows of older builds.
  const bool have_core_hours = !rows.empty() && std::isfinite(to_d(rows.back()["core_hours"]));
  auto hours_of = [&](std::map<std::string, std::string>& r) {
    const double c = to_d(r["core_hours"]);
    return have_core_hours ? c : (to_d(r["unix_ms"]) - t0) / 3600000.0;
  };
  const std::string hours_label = have_core_hours ? "core-hours" : "hours";
  Series pol{"policy loss", "#1f77b4"}, val{"value loss", "#d62728"};
  // The auxiliary heads' losses (empty fields where the network has no such head).
  Series pts{"points loss (Huber, points)", "#2ca02c"},
      own{"ownership loss (squared error per cell)", "#9467bd"};
  Series games{"self-play games", "#2ca02c"}, sps{"samples/s", "#9467bd"};
  Series eps{"network evals/s", "#ff7f0e"};
  for (auto& r : rows) {
    const double minutes = hours_of(r);
    if (!std::isfinite(minutes)) continue;
    if (r["event"] == "train") {
      const double step = to_d(r["step"]);
      if (std::isfinite(to_d(r["policy_loss"])))
        pol.points.push_back({step, to_d(r["policy_loss"])});
      if (std::isfinite(to_d(r["value_loss"]))) val.points.push_back({step, to_d(r["value_loss"])});
      if (std::isfinite(to_d(r["points_loss"])))
        pts.points.push_back({step, to_d(r["points_loss"])});
      if (std::isfinite(to_d(r["ownership_loss"]))) {
        own.points.push_back({step, to_d(r["ownership_loss"])});
      }
      if (std::isfinite(to_d(r["samples_per_s"])))
        sps.points.push_back({minutes, to_d(r["samples_per_s"])});
    }
    games.points.push_back({minutes, to_d(r["games"])});
    if (std::isfinite(to_d(r["evals_per_s"])) && to_d(r["evals_per_s"]) > 0) {
      eps.points.push_back({minutes, to_d(r["evals_per_s"])});
    }
  }
  // Anchored Elo (train/anchor.h): rows of event "anchor", against hours and games.
  Series anc_h{"anchored Elo (95% interval)", "#8c564b"},
      anc_g{"anchored Elo (95% interval)", "#8c564b"};
  anc_h.markers = anc_g.markers = true;
  for (auto& r : rows) {
    if (r["event"] != "anchor" || !std::isfinite(to_d(r["anchor_elo"]))) continue;
    const double hours = hours_of(r);
    const std::pair<double, double> bar{to_d(r["anchor_low"]), to_d(r["anchor_high"])};
    anc_h.points.push_back({hours, to_d(r["anchor_elo"])});
    anc_h.bars.push_back(bar);
    anc_g.points.push_back({to_d(r["games"]), to_d(r["anchor_elo"])});
    anc_g.bars.push_back(bar);
  }
  // Checkpoints rated afterwards (`pincer rate`, train/checkpoint_rating.h), by settings.
  std::vector<CheckpointRating> rated;
  std::string rated_error;
  try {
    rated = read_ratings(ratings_path(dir));
  } catch (const std::exception& e) {
    rated_error = e.what();
  }
  std::vector<Series> rated_series;
  {
    // One curve per player setting (the player, games, openings): ratings against other
    // opponents of the same ladder stand on the same scale, so a run rated against deeper
    // opponents as it grew stays one curve; the table names each point's opponents.
    std::stable_sort(rated.begin(), rated.end(),
                     [](const CheckpointRating& a, const CheckpointRating& b) {
                       return a.core_hours < b.core_hours;
                     });
    static const char* colors[] = {"#8c564b", "#1f77b4", "#2ca02c", "#d62728", "#9467bd"};
    std::vector<std::string> settings;
    for (const CheckpointRating& r : rated) {
      const std::string player = r.settings.substr(0, r.settings.find(" | vs"));
      auto it = std::find(settings.begin(), settings.end(), player);
      if (it == settings.end()) {
        settings.push_back(player);
        rated_series.emplace_back(player, colors[(settings.size() - 1) % 5]);
        rated_series.back().markers = true;
        it = settings.end() - 1;
      }
      Series& sr = rated_series[it - settings.begin()];
      sr.points.push_back({r.core_hours, r.rating.elo});
      sr.bars.push_back({r.rating.low, r.rating.high});
    }
  }
  std::vector<std::pair<double, std::string>> ladder_lines;
  std::string ladder_caption;
  bool no_gate = false;  // gating.promotion "always": every candidate promoted unplayed
  bool anchors_in_loop = true;
  try {
    const RunConfig cfg = load_run_config(dir.config());
    no_gate = cfg.gating().promotion() == "always";
    anchors_in_loop = cfg.anchor().in_loop();
    if (!cfg.anchor().ladder().empty()) {
      const Ladder ladder = load_ladder(cfg.anchor().ladder());
      ladder_caption = cfg.anchor().ladder();
      for (const LadderPlayer& p : ladder.players()) ladder_lines.push_back({p.elo(), p.player()});
    }
  } catch (const std::exception&) {
  }
  const GateLog log = read_gate_log(dir);
  Series score{"candidate score vs best", "#1f77b4"};
  score.markers = true;
  Series elo{"estimated Elo of the best model", "#d62728"};
  elo.markers = true;
  Series rnd{"candidate score vs random", "#2ca02c"};
  rnd.markers = true;
  double gate_t0 = t0 > 0 ? t0 : (log.gates_size() ? double(log.gates(0).finished_unix_ms()) : 0);
  elo.points.push_back({0, 0});
  for (const GateResult& g : log.gates()) {
    score.points.push_back({double(g.candidate_step()), g.score()});
    score.filled.push_back(g.promoted());
    const double minutes = (g.finished_unix_ms() - gate_t0) / 60000.0;
    elo.points.push_back({minutes, g.best_elo()});
    if (g.vs_random() >= 0) rnd.points.push_back({double(g.candidate_step()), g.vs_random()});
  }
  if (log.gates_size() == 0) elo.points.clear();

  ModelMetadata best;
  try {
    best = Model::read_metadata(dir.best());
  } catch (const std::exception&) {
  }
  std::string config_text;
  try {
    config_text = read_whole_file(dir.config());
  } catch (const std::exception&) {
  }
  const auto& last = rows.empty() ? std::map<std::string, std::string>{} : rows.back();
  auto get = [&](const char* k) {
    auto it = last.find(k);
    return it == last.end() ? std::string("") : it->second;
  };
  // Network growth (RunConfig.growth): a "growth" row at each take-over.
  std::string growth_summary, growth_table;
  for (auto& r : rows) {
    if (r["event"] != "growth") continue;
    growth_summary += (growth_summary.empty() ? " (grown " : "; ") +
                      html_escape(r["network_before"]) + " &rarr; " +
                      html_escape(r["network_after"]) + " at step " + html_escape(r["step"]);
    growth_table += "<tr><td>" + html_escape(r["step"]) + "</td><td>" + num(to_d(r["core_hours"])) +
                    "</td><td class='l'>" + html_escape(r["network_before"]) +
                    "</td><td class='l'>" + html_escape(r["network_after"]) + "</td><td>" +
                    num(to_d(r["old_policy_loss"])) + "</td><td>" + num(to_d(r["policy_loss"])) +
                    "</td><td>" + num(to_d(r["old_value_loss"])) + "</td><td>" +
                    num(to_d(r["value_loss"])) + "</td></tr>";
  }
  if (!growth_summary.empty()) growth_summary += ")";
  std::ostringstream h;
  h << "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>pincer run: "
    << html_escape(fs::path(dir.root).filename().string()) << "</title><style>"
    << "body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1340px;color:#222}"
    << "h1{font-size:1.5em}h2{font-size:1.15em;margin-top:1.6em}"
    << "table{border-collapse:collapse;font-size:.9em}td,th{border:1px solid #ccc;padding:3px 8px;"
    << "text-align:right}th{background:#f3f3f3}td.l,th.l{text-align:left}"
    << "figure{display:inline-block;margin:.4em}svg .t{font-size:14px;font-weight:600}"
    << "svg .a{font-size:11px;fill:#444}svg .n{font-size:13px;fill:#888}svg .g{stroke:#e4e4e4}"
    << "svg .f{fill:#fcfcfc;stroke:#bbb}pre{background:#f6f6f6;padding:1em;font-size:.85em;"
    << "overflow:auto;max-height:30em}</style></head><body>";
  h << "<h1>Training run " << html_escape(fs::path(dir.root).filename().string()) << "</h1>";
  h << "<table><tr><th class='l'>game</th><td class='l'>" << html_escape(best.game())
    << "</td></tr><tr><th class='l'>rules</th><td class='l'>" << html_escape(best.ruleset_name())
    << " (" << html_escape(best.fingerprint())
    << ")</td></tr><tr><th class='l'>network</th><td class='l'>" << best.network().blocks()
    << " blocks x " << best.network().channels() << " channels" << growth_summary
    << "</td></tr><tr><th class='l'>best model</th><td class='l'>" << html_escape(best.model_id())
    << " (step " << best.training_step()
    << ")</td></tr><tr><th class='l'>training steps</th><td class='l'>" << html_escape(get("step"))
    << "</td></tr><tr><th class='l'>games / positions</th><td class='l'>"
    << html_escape(get("games")) << " / " << html_escape(get("positions"))
    << "</td></tr><tr><th class='l'>gates / promotions</th><td class='l'>" << log.gates_size()
    << " / "
    << std::count_if(log.gates().begin(), log.gates().end(),
                     [](const GateResult& g) { return g.promoted(); })
    << "</td></tr><tr><th class='l'>training CPU</th><td class='l'>"
    << (have_core_hours ? num(to_d(rows.back()["core_hours"])) + " core-hours" : std::string("-"))
    << "</td></tr><tr><th class='l'>elapsed</th><td class='l'>"
    << (rows.empty() ? std::string("-")
                     : num((to_d(rows.back()["unix_ms"]) - t0) / 60000.0) + " min")
    << "</td></tr><tr><th class='l'>updated</th><td class='l'>" << utc_now_iso()
    << "</td></tr></table>";
  h << "<h2>Losses</h2>" << chart("Training losses", "training step", "cross-entropy", {pol, val});
  if (!pts.points.empty() || !own.points.empty()) {
    std::vector<Series> aux;
    if (!pts.points.empty()) aux.push_back(pts);
    if (!own.points.empty()) aux.push_back(own);
    h << chart("Auxiliary losses", "training step", "loss", aux);
  }
  if (!growth_table.empty()) {
    h << "<h2>Network growth</h2><p>At each take-over a larger network, trained on the window "
         "beside the one self-play played, replaced it (<code>growth</code> in the config); "
         "the losses from then on are the new network's. Losses over the distillation's last "
         "steps, both networks on the same batches:</p><table><tr><th>step</th><th>"
      << hours_label
      << "</th><th class='l'>before</th><th class='l'>after</th><th>policy old</th><th>policy "
         "new</th><th>value old</th><th>value new</th></tr>"
      << growth_table << "</table>";
  }
  if (no_gate) {
    h << "<h2>Gating</h2><p>No gate (<code>gating.promotion: \"always\"</code>): every candidate "
         "drives self-play as soon as it is written. Strength is measured below.</p>";
  } else {
    h << "<h2>Gating and strength</h2>"
      << chart("Gating: candidate score against the best", "candidate step", "score", {score, rnd},
               {{0.5, "even"}})
      << chart("Strength over time (Elo chain of promotions)", "minutes", "Elo vs initial net",
               {elo});
  }
  h << "<h2>Strength against core-hours</h2>";
  if (!rated_error.empty()) h << "<p>" << html_escape(rated_error) << "</p>";
  if (rated.empty()) {
    h << "<p>No rated checkpoints yet: <code>pincer rate --dir RUN --opponent SPEC ...</code> "
         "rates the saved checkpoints against fixed opponents (docs/training.md).</p>";
  } else {
    h << "<p>Saved checkpoints rated afterwards by <code>pincer rate</code> against fixed "
         "opponents from fixed openings (95% intervals from the games alone; the "
         "opponents' Elo is held fixed, so points rated against other opponents of the same ladder "
         "share one scale). Legend: the player's settings; the table names each point's "
         "opponents.</p>"
      << chart("Anchored Elo against training core-hours", "core-hours", "Elo", rated_series);
    h << "<table><tr><th class='l'>model</th><th>step</th><th>core-hours</th><th>Elo</th>"
      << "<th>95% interval</th><th>games</th><th class='l'>opponents (points/games)</th></tr>";
    for (const CheckpointRating& r : rated) {
      std::string opp;
      for (const AnchorGames& g : r.opponents) {
        opp += (opp.empty() ? "" : "; ") + g.player + " " + num(g.score) + "/" +
               std::to_string(g.games);
      }
      h << "<tr><td class='l'>" << html_escape(r.model) << "</td><td>" << r.step << "</td><td>"
        << num(r.core_hours) << "</td><td>" << num(std::round(r.rating.elo)) << "</td><td>"
        << num(std::round(r.rating.low)) << " .. " << num(std::round(r.rating.high)) << "</td><td>"
        << r.rating.games << "</td><td class='l'>" << html_escape(opp) << "</td></tr>";
    }
    h << "</table>";
  }
  h << "<h2>Anchored strength</h2>";
  if (anc_h.points.empty()) {
    if (ladder_caption.empty()) {
      h << "<p>No anchored ratings yet (set anchor.ladder in the config).</p>";
    } else if (!anchors_in_loop) {
      h << "<p>The loop plays no anchor games (<code>anchor.in_loop: false</code>): <code>"
        << html_escape(ladder_caption)
        << "</code> is the ladder <code>pincer rate --dir</code> rates the saved checkpoints "
           "against (strength against core-hours, above).</p>";
    } else {
      h << "<p>No anchored ratings yet.</p>";
    }
  } else {
    h << "<p>Each promoted model against the reference players of <code>"
      << html_escape(ladder_caption)
      << "</code> nearest its strength (dashed lines: their ratings; random = 0).</p>"
      << chart("Anchored Elo against " + hours_label, hours_label, "Elo (random = 0)", {anc_h},
               ladder_lines)
      << chart("Anchored Elo against self-play games", "games", "Elo (random = 0)", {anc_g},
               ladder_lines);
    h << "<table><tr><th>" << hours_label
      << "</th><th>games</th><th class='l'>best model</th><th>Elo</th>"
      << "<th>95% interval</th><th>games played</th><th class='l'>opponents (points/games)</th>"
      << "</tr>";
    for (auto it = rows.rbegin(); it != rows.rend(); ++it) {
      auto& r = *it;
      if (r["event"] != "anchor" || !std::isfinite(to_d(r["anchor_elo"]))) continue;
      h << "<tr><td>" << num(hours_of(r)) << "</td><td>" << html_escape(r["games"])
        << "</td><td class='l'>" << html_escape(r["best"]) << "</td><td>"
        << num(std::round(to_d(r["anchor_elo"]))) << "</td><td>"
        << num(std::round(to_d(r["anchor_low"]))) << " .. "
        << num(std::round(to_d(r["anchor_high"]))) << "</td><td>" << html_escape(r["anchor_games"])
        << "</td><td class='l'>" << html_escape(r["anchor_opponents"]) << "</td></tr>";
    }
    h << "</table>";
  }
  h << "<h2>Throughput</h2>" << chart("Self-play games", hours_label, "games", {games})
    << chart("Speed", hours_label, "per second", {sps, eps});
  h << "<h2>Gates</h2><table><tr><th class='l'>candidate</th><th>step</th><th>games</th>"
    << "<th>+</th><th>=</th><th>-</th><th>score</th><th>Elo</th><th>vs random</th>"
    << "<th class='l'>result</th><th>best Elo</th></tr>";
  for (int i = log.gates_size() - 1; i >= 0; --i) {
    const GateResult& g = log.gates(i);
    h << "<tr><td class='l'>" << html_escape(g.candidate()) << "</td><td>" << g.candidate_step()
      << "</td><td>" << g.games() << "</td><td>" << g.wins() << "</td><td>" << g.draws()
      << "</td><td>" << g.losses() << "</td><td>" << num(g.score()) << "</td><td>"
      << num(std::round(g.elo())) << "</td><td>" << (g.vs_random() >= 0 ? num(g.vs_random()) : "")
      << "</td><td class='l'>" << (g.promoted() ? "<b>promoted</b>" : "kept best")
      << (g.stopped_by() == "sprt" ? " (SPRT)" : "") << "</td><td>" << num(std::round(g.best_elo()))
      << "</td></tr>";
  }
  h << "</table><h2>Config</h2><pre>" << html_escape(config_text) << "</pre>";
  h << "<p>Files: <code>metrics.csv</code> (every row of these plots), "
       "<code>gating.textproto</code>, "
       "<code>models/</code>, <code>records/</code>.</p></body></html>\n";
  atomic_write_file(dir.report(), h.str());
  return dir.report();
}

}  // namespace pincer
