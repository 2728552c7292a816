#!/usr/bin/env bash
# local-shards.sh N K [OUTDIR] — count the n-queens problem for an N×N board
# as K shards run as separate processes on this machine, then merge them.
#
# Runs the shards with GNU parallel if it is installed, else with xargs -P.
# Each shard keeps a checkpoint journal, so rerunning the same command after
# a crash or Ctrl-C resumes every shard where it stopped; finished shards
# (result file present) are not run again.
#
# Environment:
#   NQUEENS   the nqueens binary (default: nqueens on PATH)
#   JOBS      shards run at once (default: the number of CPUs)
#   WORKERS   --workers of each shard (default: 1)
#   NQ_ARGS   extra flags for every 'nqueens count', e.g. "--depth 2"
set -euo pipefail

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	echo "usage: $0 N K [OUTDIR]" >&2
	exit 2
fi
n=$1 k=$2 out=${3:-nqueens-$1-shards}
nq=${NQUEENS:-nqueens}
jobs=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
workers=${WORKERS:-1}
mkdir -p "$out"

# run_shard I: count shard I of K unless its result file exists; a shard
# that fails leaves its exit status in shard-I.status. A usage error
# returns 255, which stops xargs (and parallel --halt) at once: every
# other shard would fail the same way.
run_shard() {
	local i=$1 code=0
	[ -s "$out/shard-$i.json" ] && return 0
	rm -f "$out/shard-$i.status"
	# shellcheck disable=SC2086
	"$nq" count "$n" --shard "$i/$k" --out "$out/shard-$i.json" \
		--checkpoint "$out/shard-$i.journal" --workers "$workers" --progress off $NQ_ARGS \
		>"$out/shard-$i.log" 2>&1 || code=$?
	[ "$code" -eq 0 ] || echo "$code" >"$out/shard-$i.status"
	[ "$code" -eq 2 ] && return 255
	return "$code"
}
export -f run_shard
export n k out nq workers NQ_ARGS="${NQ_ARGS:-}"

status=0
if command -v parallel >/dev/null 2>&1 && parallel --version 2>/dev/null | grep -q GNU; then
	seq 0 $((k - 1)) | parallel --halt soon,fail=1 -j "$jobs" run_shard {} || status=$?
else
	seq 0 $((k - 1)) | xargs -P "$jobs" -I{} bash -c 'run_shard "$@"' _ {} || status=$?
fi
if [ "$status" -ne 0 ]; then
	# A usage error (exit 2: N, K or NQ_ARGS wrong, such as more shards
	# than tasks) fails every shard the same way: say it, once; a rerun
	# cannot help. Other failures (a crash, Ctrl-C) resume on a rerun.
	for f in "$out"/shard-*.status; do
		[ -e "$f" ] || continue
		if [ "$(cat "$f")" = 2 ]; then
			log=${f%.status}.log
			echo "$0: the shards cannot run as asked: $(head -n 1 "$log")" >&2
			echo "$0: (see $log; fix N, K or NQ_ARGS: rerunning the same command cannot help)" >&2
			exit 2
		fi
	done
	echo "$0: some shards failed (see $out/shard-*.log); rerun the same command to resume them" >&2
	exit "$status"
fi
files=()
for ((i = 0; i < k; i++)); do files+=("$out/shard-$i.json"); done
"$nq" merge "${files[@]}"
