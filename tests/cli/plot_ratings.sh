#!/usr/bin/env bash
# scripts/plot-ratings.py: a curve from a ratings.json of `pincer rate` and a lone point become
# an SVG with one marker and one interval bar per rating, in core-hour order; bad input is refused
# with a message and leaves no file. Usage: plot_ratings.sh PINCER SOURCE_DIR
source "$(dirname "$0")/lib.sh"
src=$2
command -v python3 > /dev/null || { echo "no python3: skipped"; exit 77; }
make_tmp
plot="$src/scripts/plot-ratings.py"

# Out of order on purpose: the line must join them by core-hours.
cat > "$tmp/ratings.json" <<'JSON'
[{"core_hours": 2.0, "elo": 1300, "low": 1200, "high": 1400, "model": "b"},
 {"core_hours": 1.0, "elo": 1100, "low": 1000, "high": 1200, "model": "a"}]
JSON
python3 "$plot" --out "$tmp/c.svg" --curve "run=$tmp/ratings.json" --point "old=1.5:1250:1240:1260"
check "exit status" 0 $?
svg=$(cat "$tmp/c.svg")
contains "svg root" "<svg" "$svg"
contains "legend run" ">run</text>" "$svg"
contains "legend point" ">old</text>" "$svg"
check "circles (curve points)" 2 "$(grep -o '<circle' "$tmp/c.svg" | wc -l)"
check "polylines" 1 "$(grep -o '<polyline' "$tmp/c.svg" | wc -l)"
# x of the line's points rise: 1.0 before 2.0 core-hours.
xs=$(grep -o 'points="[^"]*"' "$tmp/c.svg" | sed 's/points="//;s/"//' | tr ' ' '\n' | cut -d, -f1)
check "line in core-hour order" "$(echo "$xs" | sort -n)" "$xs"

err=$(python3 "$plot" --out "$tmp/bad.svg" --curve "run=$tmp/missing.json" 2>&1)
check "missing file status" 1 $?
contains "missing file message" "missing.json" "$err"
echo '{"not": "a list"}' > "$tmp/obj.json"
err=$(python3 "$plot" --out "$tmp/bad.svg" --curve "run=$tmp/obj.json" 2>&1)
contains "not a list" "not a list of ratings" "$err"
echo '[{"core_hours": 1}]' > "$tmp/short.json"
err=$(python3 "$plot" --out "$tmp/bad.svg" --curve "run=$tmp/short.json" 2>&1)
contains "missing fields" "lacks core_hours, elo, low or high" "$err"
err=$(python3 "$plot" --out "$tmp/bad.svg" --point "x=1:2" 2>&1)
contains "bad point" "LABEL=CORE_HOURS:ELO:LOW:HIGH" "$err"
check "no file from bad input" "" "$(ls "$tmp" | grep -E 'bad|\.plot-')"

finish "plot-ratings: all checks passed"
