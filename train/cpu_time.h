// Training budgets in core-hours: the CPU time (user + system, every thread) a run's processes
// used, so that other work on the machine (builds, matches) does not change the figure.
#pragma once

namespace pincer {

// CPU seconds this process has used so far, all threads (getrusage RUSAGE_SELF).
double process_cpu_seconds();

}  // namespace pincer
