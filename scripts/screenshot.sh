#!/usr/bin/env bash
# Take a screenshot of an X11/OpenGL app (e.g. the eframe/egui + glow app) under Xvfb.
#
# Usage: scripts/screenshot.sh OUTPUT.png [SECONDS] -- COMMAND [ARGS...]
#
#   Starts Xvfb on a free display (1600x1000x24), runs COMMAND there with
#   LIBGL_ALWAYS_SOFTWARE=1 (Mesa llvmpipe), waits SECONDS (default 6),
#   captures the whole screen to OUTPUT.png, kills COMMAND and Xvfb.
#   Exits 0 if OUTPUT.png was written.
#
#   Optional: SCREENSHOT_CLICKS="400,300 800,500" clicks those screen points (left
#   button) with xdotool, then SCREENSHOT_KEYS="Escape space" sends those keys with
#   `xdotool key` (to the focused/first window), just before capturing.
#
# Needs these Debian packages (apt-get install -y ...):
#   xvfb libx11-6 libx11-xcb1 libxcursor1 libxi6 libxkbcommon-x11-0 libegl1
#   libgl1-mesa-dri x11-apps imagemagick xdotool
# (x11-apps provides xwd; imagemagick provides convert.)
set -euo pipefail

usage() {
    echo "usage: $0 OUTPUT.png [SECONDS] -- COMMAND [ARGS...]" >&2
    exit 2
}

[[ $# -ge 3 ]] || usage
out=$1; shift
secs=6
if [[ $1 != "--" ]]; then
    secs=$1; shift
fi
[[ $# -ge 2 && $1 == "--" ]] || usage
shift
[[ $secs =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "SECONDS must be a number: $secs" >&2; exit 2; }

# The real ImageMagick binary (a `convert` earlier in PATH may be a stand-in).
convert_bin=""
for c in /usr/bin/convert-im6.q16 /usr/bin/magick /usr/bin/convert; do
    if [[ -x $c ]]; then convert_bin=$c; break; fi
done
[[ -n $convert_bin ]] || { echo "ImageMagick not found (apt-get install imagemagick)" >&2; exit 1; }
for t in Xvfb xwd; do
    command -v "$t" >/dev/null || { echo "$t not found; see packages at top of $0" >&2; exit 1; }
done

# Pick a free display number, starting at :99.
disp=99
while [[ -e /tmp/.X${disp}-lock || -e /tmp/.X11-unix/X${disp} ]]; do
    disp=$((disp + 1))
done
display=":$disp"

xvfb_pid=""
app_pid=""
cleanup() {
    if [[ -n $app_pid ]] && kill -0 "$app_pid" 2>/dev/null; then
        kill "$app_pid" 2>/dev/null || true
        sleep 0.5
        kill -9 "$app_pid" 2>/dev/null || true
    fi
    if [[ -n $xvfb_pid ]] && kill -0 "$xvfb_pid" 2>/dev/null; then
        kill "$xvfb_pid" 2>/dev/null || true
        wait "$xvfb_pid" 2>/dev/null || true
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

Xvfb "$display" -screen 0 1600x1000x24 -nolisten tcp >/dev/null 2>&1 &
xvfb_pid=$!

# Wait (up to ~5 s) for the X server to accept connections.
for _ in $(seq 50); do
    if xwd -root -silent -display "$display" >/dev/null 2>&1; then break; fi
    kill -0 "$xvfb_pid" 2>/dev/null || { echo "Xvfb failed to start on $display" >&2; exit 1; }
    sleep 0.1
done

DISPLAY="$display" LIBGL_ALWAYS_SOFTWARE=1 "$@" &
app_pid=$!

sleep "$secs"

if ! kill -0 "$app_pid" 2>/dev/null; then
    echo "warning: command exited before the capture" >&2
fi

if [[ -n ${SCREENSHOT_CLICKS:-} ]] && command -v xdotool >/dev/null; then
    for point in $SCREENSHOT_CLICKS; do
        DISPLAY="$display" xdotool mousemove --sync "${point%,*}" "${point#*,}" click 1 || echo "warning: click failed" >&2
        sleep 1
    done
fi
if [[ -n ${SCREENSHOT_KEYS:-} ]]; then
    if command -v xdotool >/dev/null; then
        # No window manager: focus the app's window (found by PID) first, if any.
        win=$(DISPLAY="$display" xdotool search --onlyvisible --pid "$app_pid" 2>/dev/null | head -n1 || true)
        if [[ -n $win ]]; then
            DISPLAY="$display" xdotool windowfocus --sync "$win" 2>/dev/null || true
        fi
        # shellcheck disable=SC2086  # word-split the key list on purpose
        DISPLAY="$display" xdotool key --delay 100 $SCREENSHOT_KEYS || echo "warning: xdotool failed" >&2
        sleep 1
    else
        echo "warning: xdotool not installed; SCREENSHOT_KEYS ignored" >&2
    fi
fi

rm -f "$out"
xwd -root -silent -display "$display" | "$convert_bin" xwd:- "png:$out"

[[ -s $out ]] || { echo "screenshot not written: $out" >&2; exit 1; }
echo "wrote $out"
exit 0
