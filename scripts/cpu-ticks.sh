# shellcheck shell=bash
# CPU time, in clock ticks, for the benchmarks' before-and-after (sourced by scripts/api-bench
# and scripts/api-ab).

# A process's user + system time.
cpu_ticks() { sed 's/.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'; }

# "pid ticks" of each PostgreSQL backend serving database $1 (nothing when $1 is empty: SQLite
# runs inside the servers).
db_snapshot() {
  [ -n "${1:-}" ] || return 0
  local p
  # The title of a backend: "postgres: [cluster: ]user database client state".
  for p in $(pgrep -f "^postgres: ([^ ]+: )?[^ ]+ $1 "); do
    sed "s/.*) //; s/^/$p /" "/proc/$p/stat" 2>/dev/null || true
  done | awk '{ print $1, $13 + $14 }'
}

# What the backends alive at snapshot $2 spent since snapshot $1 (one that ended meanwhile
# takes its time with it).
db_ticks() {
  awk 'NR == FNR { was[$1] = $2; next } { t += $2 - was[$1] } END { print t + 0 }' \
    <(printf '%s\n' "$1") <(printf '%s\n' "$2")
}
