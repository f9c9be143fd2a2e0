// Sequential probability ratio test on game results, to stop a match as soon as it is clear
// whether A is at least elo1 stronger (H1) or at most elo0 (H0). The log-likelihood ratio is the
// generalized SPRT's normal approximation over trinomial (win/draw/loss) results:
//   LLR = n (s1 - s0) (2 s - s0 - s1) / (2 var)
// with s the observed score, var one game's score variance and s0, s1 the scores of elo0, elo1
// (logistic Elo). It stops at log(beta / (1 - alpha)) (accept H0) or log((1 - beta) / alpha)
// (accept H1). Used by `pincer match --sprt` and the gatekeeper.
#pragma once

#include <string>

namespace pincer {

struct SprtConfig {
  double elo0 = 0;
  double elo1 = 10;
  double alpha = 0.05;  // false positive rate (accept H1 when H0 holds)
  double beta = 0.05;   // false negative rate
};

enum class SprtDecision { kContinue, kAcceptH0, kAcceptH1 };
const char* sprt_decision_name(SprtDecision d);  // "continue", "H0", "H1"

struct SprtStatus {
  double llr = 0;
  double lower = 0, upper = 0;
  SprtDecision decision = SprtDecision::kContinue;
};

// Throws std::invalid_argument for elo0 >= elo1 or alpha, beta outside (0, 0.5].
void check_sprt(const SprtConfig& config);
// "elo0,elo1" -> config (alpha and beta left as they are); throws std::invalid_argument.
SprtConfig parse_sprt_bounds(const std::string& text, SprtConfig base = {});
// Where every game ended alike (variance 0) one win and one loss are added to the variance
// estimate only, so that a couple of games cannot end the test.
SprtStatus sprt_status(const SprtConfig& config, int wins, int draws, int losses);

}  // namespace pincer
