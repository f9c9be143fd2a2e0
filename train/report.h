// The run report: report.html in the run directory, one self-contained page (inline SVG plots,
// no scripts, no external files) built from metrics.csv, gating.textproto and the models.
#pragma once

#include <string>

#include "store/run_dir.h"

namespace pincer {

// Rebuilds <run dir>/report.html (atomically); returns its path.
std::string write_report(const RunDir& dir);

}  // namespace pincer
