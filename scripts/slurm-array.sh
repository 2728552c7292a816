#!/usr/bin/env bash
# slurm-array.sh — count n-queens as a Slurm job array of K shards, with the
# merge as a job that starts when every shard has ended.
#
# Submit (the script submits itself twice: the array, then the merge):
#
#   N=20 K=64 scripts/slurm-array.sh            # from a login node
#
# Shards are numbered from 0: the array is --array=0-(K-1), and array
# task I counts shard I of K (--shard I/K: SLURM_ARRAY_TASK_ID and K, not
# the array's size, which is 1 when one index is rerun). Each shard keeps a
# checkpoint journal, so a requeued or preempted task (--requeue) resumes
# where it stopped, and counts with the CPUs Slurm gave it. The merge
# starts once every shard has ended, failed or not (afterany: afterok would
# wait for ever after a failure); it checks that every shard wrote its
# result, and if some did not it names them and prints the line that
# reruns them, with the same CPUs and memory, for example:
#
#   N=20 K=64 sbatch --array=7,12 --cpus-per-task=8 --mem=4G --export=ALL scripts/slurm-array.sh shard
#   N=20 K=64 scripts/slurm-array.sh merge
#
# Environment: N, K, OUT (shared directory, default $PWD/nqueens-$N),
# NQUEENS (path of the binary on the compute nodes), CPUS (per shard),
# MEM (per shard, as sbatch --mem: the count plans for half of it, see
# scripts/README.md's memory table), TIME (per shard), PARTITION, NQ_ARGS
# (extra count flags).
#SBATCH --job-name=nqueens
#SBATCH --requeue
#SBATCH --open-mode=append
set -euo pipefail

N=${N:?set N, the board size}
K=${K:?set K, the number of shards}
OUT=${OUT:-$PWD/nqueens-$N}
NQUEENS=${NQUEENS:-$(command -v nqueens || echo ./nqueens)}
CPUS=${CPUS:-8}
MEM=${MEM:-4G}
TIME=${TIME:-24:00:00}

case "${1:-submit}" in
submit)
	mkdir -p "$OUT"
	part=()
	[ -n "${PARTITION:-}" ] && part=(--partition "$PARTITION")
	export N K OUT NQUEENS CPUS MEM NQ_ARGS="${NQ_ARGS:-}"
	array=$(sbatch --parsable "${part[@]}" --array="0-$((K - 1))" \
		--cpus-per-task="$CPUS" --mem="$MEM" --time="$TIME" \
		--output="$OUT/shard-%a.log" --export=ALL "$0" shard)
	array=${array%%;*} # --parsable prints JOBID;CLUSTER on a multi-cluster site
	merge=$(sbatch --parsable "${part[@]}" --dependency="afterany:$array" \
		--cpus-per-task=1 --mem=1G --time=00:10:00 \
		--output="$OUT/merge.log" --export=ALL "$0" merge)
	merge=${merge%%;*}
	echo "submitted shards as job $array (array 0-$((K - 1))), merge as job $merge"
	echo "results: $OUT/shard-*.json, total: $OUT/merge.log and $OUT/total.json"
	;;
shard)
	i=${SLURM_ARRAY_TASK_ID:?run as an array task (sbatch --array=0-$((K - 1)))}
	# The CPUs of this allocation, whatever CPUS said at submission (a
	# rerun may ask for others); outside Slurm, this machine's.
	workers=${SLURM_CPUS_PER_TASK:-${SLURM_CPUS_ON_NODE:-$(nproc 2>/dev/null || echo "$CPUS")}}
	# shellcheck disable=SC2086
	exec "$NQUEENS" count "$N" --shard "$i/$K" --workers "$workers" \
		--out "$OUT/shard-$i.json" --checkpoint "$OUT/shard-$i.journal" ${NQ_ARGS:-}
	;;
merge)
	files=()
	missing=()
	for ((i = 0; i < K; i++)); do
		files+=("$OUT/shard-$i.json")
		[ -s "$OUT/shard-$i.json" ] || missing+=("$i")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		list=$(
			IFS=,
			echo "${missing[*]}"
		)
		echo "slurm-array.sh: ${#missing[@]} of $K shards wrote no result (shards $list: see $OUT/shard-I.log); rerun them, then merge:" >&2
		echo "  N=$N K=$K OUT=$OUT sbatch --array=$list --cpus-per-task=$CPUS --mem=$MEM --time=$TIME --output=$OUT/shard-%a.log --export=ALL $0 shard" >&2
		echo "  N=$N K=$K OUT=$OUT $0 merge" >&2
		exit 1
	fi
	# The total is written only when merge succeeds: a failed merge
	# leaves neither total.json nor total.json.part behind, and the job
	# fails.
	if ! "$NQUEENS" merge --json "${files[@]}" >"$OUT/total.json.part"; then
		rm -f "$OUT/total.json.part"
		exit 1
	fi
	mv "$OUT/total.json.part" "$OUT/total.json"
	"$NQUEENS" merge "${files[@]}"
	;;
*)
	echo "usage: N=... K=... $0 [submit|shard|merge]" >&2
	exit 2
	;;
esac
