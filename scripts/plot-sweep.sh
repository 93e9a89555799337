#!/usr/bin/env bash
# Draws `vkindex bench --sweep` as an SVG: GB/s (log axis) against row bytes (log2 axis) for Gather, GatherND,
# ScatterND, vkCmdCopyBuffer, the compute copy and Gather with host indices as copy regions (where the
# sweep timed them), titled with the device and the date the sweep ran. A tool for the plots in docs/
# (docs/benchmarks.md, "Sweep"), not part of CI. Needs gnuplot (Debian: apt-get install gnuplot-nox) and
# python3 (it reads the JSON lines).
#
# usage: scripts/plot-sweep.sh [--driver lavapipe|swiftshader] [--quick] [--input FILE] [--output FILE.svg]
#                              [--cli PATH] [-- extra bench options, e.g. --device 1]
#   --driver  run the sweep on that CPU driver (sets VK_DRIVER_FILES); without it, the default device
#   --quick   1 MiB per point instead of 16 MiB (a rough plot in seconds)
#   --input   plot this JSON-lines file (saved `vkindex bench --sweep --json` output) instead of running
#   --output  the SVG to write; default docs/sweep-<driver>.svg, or sweep.svg without --driver. A sweep
#             run here also leaves its JSON lines beside it (FILE.jsonl): the numbers behind the plot,
#             which --input can draw again
#   --cli     the vkindex binary; default build/tools/cli/vkindex
# Regenerate the plots in docs/ (with nothing else running, the numbers are timings):
#   scripts/plot-sweep.sh --driver lavapipe && scripts/plot-sweep.sh --driver swiftshader
set -euo pipefail
cd "$(dirname "$0")/.."

driver="" quick="" input="" output="" cli="build/tools/cli/vkindex"
extra=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --driver) driver="$2"; shift 2 ;;
    --quick) quick="--quick"; shift ;;
    --input) input="$2"; shift 2 ;;
    --output) output="$2"; shift 2 ;;
    --cli) cli="$2"; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "plot-sweep.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

for tool in gnuplot python3; do
  if ! command -v "$tool" >/dev/null; then
    case "$tool" in
      gnuplot) echo "plot-sweep.sh: gnuplot is missing; on Debian: sudo apt-get install -y gnuplot-nox" >&2 ;;
      python3) echo "plot-sweep.sh: python3 is missing; on Debian: sudo apt-get install -y python3" >&2 ;;
    esac
    exit 1
  fi
done

case "$driver" in
  "") ;;
  lavapipe) export VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json ;;
  swiftshader) export VK_DRIVER_FILES=/usr/lib/chromium/vk_swiftshader_icd.json ;;
  *) echo "plot-sweep.sh: --driver is lavapipe or swiftshader, not '$driver'" >&2; exit 2 ;;
esac
[[ -n "$output" ]] || output="${driver:+docs/sweep-$driver.svg}"
[[ -n "$output" ]] || output="sweep.svg"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [[ -z "$input" ]]; then
  if [[ ! -x "$cli" ]]; then
    echo "plot-sweep.sh: $cli not found; build it first (scripts/build.sh, or ninja -C build vkindex_cli)" >&2
    exit 1
  fi
  input="$work/sweep.jsonl"
  # A failed point is still a line (with "error"); the exit code says whether any point failed.
  "$cli" bench --sweep --json $quick "${extra[@]}" >"$input" || echo "plot-sweep.sh: the sweep reported a failure" >&2
  mkdir -p "$(dirname "$output")"
  cp "$input" "${output%.svg}.jsonl"
fi

# JSON lines -> a data file (row bytes, gather, copyBuffer, compute copy, host-index regions, GatherND,
# ScatterND) and gnuplot's title string. Sweeps saved before GatherND and ScatterND joined lack those
# two: "?" there too.
python3 - "$input" "$work/sweep.dat" "$work/title.gp" <<'PY'
import json, sys
source, data, title = sys.argv[1:4]
points, device, date = [], None, None
with open(source, encoding="utf-8") as lines:
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        point = json.loads(line)
        device, date = point.get("device", device), point.get("date", date)
        if "error" in point:
            print(f"plot-sweep.sh: line {number}: {point['row_bytes']}-byte rows failed: {point['error']}", file=sys.stderr)
            continue
        # Regions are timed only up to 65536 rows: "?" is gnuplot's missing value.
        def optional(key):
            value = point.get(key)
            return "?" if value is None else "%g" % value
        points.append((point["row_bytes"], point["gather_gb_per_s"], point["copy_buffer_gb_per_s"],
                       point["compute_copy_gb_per_s"], optional("regions_gb_per_s"),
                       optional("gathernd_gb_per_s"), optional("scatternd_gb_per_s")))
if not points:
    sys.exit(f"plot-sweep.sh: no sweep points in {source}")
with open(data, "w") as out:
    for point in sorted(points):
        out.write("%d %g %g %g %s %s %s\n" % point)
# gnuplot single-quoted strings: a quote is written twice.
text = f"vkindex row gathers and scatters vs copy ceilings: {device or 'unknown device'}, {date or 'unknown date'}"
with open(title, "w", encoding="utf-8") as out:
    out.write("set title '%s' noenhanced\n" % text.replace("'", "''"))
PY

mkdir -p "$(dirname "$output")"
gnuplot <<GP
set terminal svg size 900,540 dynamic font 'sans,12' background rgb 'white'
set output '${output//\'/\'\'}'
load '$work/title.gp'
set logscale x 2
set xrange [0.7:94000]
set xtics ('1' 1, '4' 4, '16' 16, '64' 64, '256' 256, '1K' 1024, '4K' 4096, '16K' 16384, '64K' 65536)
set xlabel 'row bytes (bytes per gathered or scattered slice, log2)'
# Log y as well: on the CPU drivers Gather of 1-byte rows and vkCmdCopyBuffer differ by 1000x.
set logscale y 10
set ylabel 'GB/s (2 x output bytes / median time, log)'
set grid
set key bottom right box opaque
plot '$work/sweep.dat' using 1:2 with linespoints lw 2 pt 7 title 'Gather', \
     '' using 1:6 with linespoints lw 2 pt 11 title 'GatherND, 2-component tuples', \
     '' using 1:7 with linespoints lw 2 pt 3 title 'ScatterND in place, every row once', \
     '' using 1:3 with linespoints lw 2 pt 5 title 'vkCmdCopyBuffer', \
     '' using 1:4 with linespoints lw 2 pt 9 title 'compute copy', \
     '' using 1:5 with linespoints lw 2 pt 13 dt 2 title 'Gather, host indices as copy regions'
GP
echo "plot-sweep.sh: wrote $output"
