#!/bin/sh
# Sets up a separate virtual environment holding the public packages that `make bench` measures
# cardgen against, so they never enter the project's own environment (.venv).
#
#   sh bench/setup-comparison.sh PYTHON VENV
#
# Every package is installed on its own, at the version in bench/comparison-requirements.txt; one
# that cannot be installed is reported in a single line and the others still are. VENV/.ok-NAME
# marks a package that installed (and checked out by importing it), so a second run is quick.
set -u
PYTHON=${1:-python3}
VENV=${2:-.bench-venv}
HERE=$(dirname "$0")
REQUIREMENTS="$HERE/comparison-requirements.txt"

if [ ! -x "$VENV/bin/python" ]; then
    if ! "$PYTHON" -m venv "$VENV" >/dev/null 2>&1; then
        echo "comparison: cannot create the virtual environment $VENV; the comparisons are skipped"
        exit 0
    fi
fi

# Lines look like `name==version  import-name`; blank lines and comments are skipped.
grep -v '^[[:space:]]*\(#\|$\)' "$REQUIREMENTS" | while read -r spec module _rest; do
    name=${spec%%==*}
    mark="$VENV/.ok-$name"
    # The mark holds the pinned spec: a changed pin installs again.
    if [ -f "$mark" ] && [ "$(cat "$mark")" = "$spec" ]; then
        continue
    fi
    rm -f "$mark"
    log="$VENV/install-$name.log"
    if "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "$spec" >"$log" 2>&1 \
        && "$VENV/bin/python" -c "import $module" >>"$log" 2>&1; then
        echo "$spec" >"$mark"
        echo "comparison: installed $spec into $VENV"
    else
        reason=$(grep -E 'ERROR|Error' "$log" | tail -n 1 | cut -c1-140)
        echo "comparison: $spec could not be installed (${reason:-see $log}); its comparison is skipped"
    fi
done
exit 0
