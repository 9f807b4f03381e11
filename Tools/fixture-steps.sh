# Helpers shared by the fixture generators; source after setting FIXTURE_SCRIPT (the name in
# messages) and LOGS (where each step's stderr goes).
#
#   die MESSAGE...          print "NAME: error: ..." and exit 1
#   log MESSAGE...          print "NAME: ..."
#   step_done LABEL         print LABEL and the seconds since the previous step_done
#   run LOGNAME CMD...      run CMD with its stderr in LOGS/LOGNAME.log, shown (and fatal) on failure

die() { echo "$FIXTURE_SCRIPT: error: $*" >&2; exit 1; }
log() { echo "$FIXTURE_SCRIPT: $*" >&2; }

T_STEP=$(date +%s.%N)
step_done() {
    local now; now=$(date +%s.%N)
    awk -v a="$now" -v b="$T_STEP" -v s="$1" -v name="$FIXTURE_SCRIPT" \
        'BEGIN { printf "%s: %-44s %6.1f s\n", name, s, a - b }' >&2
    T_STEP=$now
}

run() {
    local logf=$LOGS/$1.log; shift
    if ! "$@" 2>>"$logf"; then
        tail -n 20 "$logf" >&2
        die "command failed: $* (log: $logf)"
    fi
}
