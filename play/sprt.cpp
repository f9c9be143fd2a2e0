#include "play/sprt.h"

#include <cmath>
#include <stdexcept>

#include "play/elo.h"

namespace pincer {

const char* sprt_decision_name(SprtDecision d) {
  switch (d) {
    case SprtDecision::kContinue:
      return "continue";
    case SprtDecision::kAcceptH0:
      return "H0";
    case SprtDecision::kAcceptH1:
      return "H1";
  }
  return "";
}

void check_sprt(const SprtConfig& c) {
  if (!(c.elo0 < c.elo1)) throw std::invalid_argument("SPRT: elo0 must be below elo1");
  if (!(c.alpha > 0 && c.alpha <= 0.5) || !(c.beta > 0 && c.beta <= 0.5)) {
    throw std::invalid_argument("SPRT: alpha and beta must be in (0, 0.5]");
  }
}

SprtConfig parse_sprt_bounds(const std::string& text, SprtConfig base) {
  const size_t comma = text.find(',');
  auto bad = [&] {
    throw std::invalid_argument("--sprt wants elo0,elo1 (e.g. 0,10), not '" + text + "'");
  };
  if (comma == std::string::npos) bad();
  try {
    size_t used0 = 0, used1 = 0;
    const std::string a = text.substr(0, comma), b = text.substr(comma + 1);
    base.elo0 = std::stod(a, &used0);
    base.elo1 = std::stod(b, &used1);
    if (used0 != a.size() || used1 != b.size()) bad();
  } catch (const std::logic_error&) {
    bad();
  }
  check_sprt(base);
  return base;
}

SprtStatus sprt_status(const SprtConfig& c, int wins, int draws, int losses) {
  check_sprt(c);
  SprtStatus st;
  st.lower = std::log(c.beta / (1 - c.alpha));
  st.upper = std::log((1 - c.beta) / c.alpha);
  const int n = wins + draws + losses;
  if (n == 0) return st;
  const double s = (wins + 0.5 * draws) / n;
  double var = (wins * (1 - s) * (1 - s) + draws * (0.5 - s) * (0.5 - s) + losses * s * s) / n;
  if (var <= 0) {
    const double m = (wins + 1 + 0.5 * draws) / (n + 2);
    var = ((wins + 1) * (1 - m) * (1 - m) + draws * (0.5 - m) * (0.5 - m) + (losses + 1) * m * m) /
          (n + 2);
  }
  const double s0 = score_from_elo(c.elo0), s1 = score_from_elo(c.elo1);
  st.llr = n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var);
  if (st.llr >= st.upper)
    st.decision = SprtDecision::kAcceptH1;
  else if (st.llr <= st.lower)
    st.decision = SprtDecision::kAcceptH0;
  return st;
}

}  // namespace pincer
