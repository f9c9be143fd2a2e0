#!/usr/bin/env bash
# tests/cli/kill_resume.sh on a run that grows its network (PINCER_KILL_GROWTH=1): kills land
# during the distillation, and the run still ends with the grown network taken over at its step.
# Usage: kill_resume_growth.sh PINCER SOURCE_DIR [KILLS]
PINCER_KILL_GROWTH=1 PINCER_KILLS=${PINCER_KILLS:-4} exec bash "$(dirname "$0")/kill_resume.sh" "$@"
