# Helpers shared by the fixture generators; source after setting FIXTURE_SCRIPT (the name in
# messages) and LOGS (where each step's stderr goes).
#
#   CFG_SRC, DATA           Debian's Darknet cfgs and data files (Weights/fetch.sh), from the
#                           repository's root
#
#   die MESSAGE...          print "NAME: error: ..." and exit 1
#   log MESSAGE...          print "NAME: ..."
#   step_done LABEL         print LABEL and the seconds since the previous step_done
#   run LOGNAME CMD...      run CMD with its stderr in LOGS/LOGNAME.log, shown (and fatal) on failure

CFG_SRC=Weights/darknet/cfg
DATA=Weights/darknet/data

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

# The parts Tools/make-fixtures.sh runs into its OUTDIR (zoo, debian, debian-lstm-crnn):
#
#   start_part OUTDIR       set OUT (OUTDIR, absolute) and TOOL (its darknet_ref, which must exist),
#                           run Darknet headless and on one thread, from the repository's root
#   cfg SRC DEST [SIZE]     DEST is Darknet's cfg SRC with batch=1, subdivisions=1 and, with SIZE,
#                           width=height=SIZE in [net] (fatal if [net] has no batch key to set)
#   debian_stamp FILE...    the darknet package version and a checksum of FILEs: what a part's
#                           output depends on
#   exit_if_complete DIR    exit 0 when DIR/.complete holds $STAMP (DIR is current); else remove
#                           DIR and start the clock for mark_complete
#   mark_complete DIR LABEL print DIR's size, write $STAMP to DIR/.complete, print the total time

start_part() {
    [ -n "${1:-}" ] || die "usage: $FIXTURE_SCRIPT.sh OUTDIR"
    OUT=$(cd "$1" && pwd)
    TOOL=$OUT/bin/darknet_ref
    [ -x "$TOOL" ] || die "$TOOL missing: run Tools/make-fixtures.sh"
    export QT_QPA_PLATFORM=offscreen
    export OMP_NUM_THREADS=1
    cd "$REPO"
}

cfg() {
    local size=${3:-}
    sed -E '/^\[(net|network)\]/,/^\[/{
        s/^[[:space:]]*batch[[:space:]]*=.*/batch=1/
        s/^[[:space:]]*subdivisions[[:space:]]*=.*/subdivisions=1/
    }' "$1" > "$2"
    grep -qx "batch=1" "$2" || die "$2: could not set batch=1"
    if [ -n "$size" ]; then
        sed -i -E '/^\[(net|network)\]/,/^\[/{
            s/^[[:space:]]*width[[:space:]]*=.*/width='"$size"'/
            s/^[[:space:]]*height[[:space:]]*=.*/height='"$size"'/
        }' "$2"
        grep -qx "width=$size" "$2" && grep -qx "height=$size" "$2" || die "$2: could not set the size $size"
    fi
}

debian_stamp() {
    local version
    version=$(dpkg-query -W -f='${Version}' darknet 2>/dev/null) || die "dpkg does not know the darknet package"
    echo "$version $(cat "$@" | sha256sum | cut -c1-16)"
}

exit_if_complete() {
    if [ -f "$1/.complete" ] && [ "$(cat "$1/.complete")" = "$STAMP" ]; then
        log "up to date ($STAMP), nothing to do"
        exit 0
    fi
    rm -rf "$1"
    T_ALL=$(date +%s.%N)
    T_STEP=$T_ALL
}

mark_complete() {
    du -sh "$1" | awk -v name="$FIXTURE_SCRIPT" '{print name ": size " $1}' >&2
    printf '%s\n' "$STAMP" > "$1/.complete"
    T_STEP=$T_ALL
    step_done "TOTAL ($2)"
}
