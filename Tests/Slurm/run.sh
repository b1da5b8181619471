#!/usr/bin/env bash
# `blurtool batch` as a Slurm array job, on a one-node cluster this script starts on this machine (as root):
#   Tests/Slurm/run.sh .build/release/blurtool
# Round 1: a 4-task array over a few hundred generated photos does each photo exactly once. Rounds 2 and 3:
# task 2 stopped mid-run by SIGTERM (exit 75, nothing partial left) and by SIGKILL, the set shown incomplete,
# task 2 resubmitted alone (--array=2 with --shards 4, then with --shard 2/4), and the set then complete with
# nothing else written. The tasks run contrib/slurm/blurtool-batch.sbatch, so their logs and reports go in the
# folder sbatch runs in ($work/logs), outside DEST, which must hold only outputs and .blurtool-batch/'s journals.
# Environment: PHOTOS (300), KILL_SIZE (the --size of rounds 2 and 3, large enough for task 2 to be caught
# mid-run: 1170x2532), KILL_AFTER (photos journaled before the kill: 5), KEEP=1 keeps the work folder,
# SLURM_PORTS (16817,16818).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
sbatch_script=$(cd "$here/../../contrib/slurm" && pwd)/blurtool-batch.sbatch
photos=${PHOTOS:-300}
kill_size=${KILL_SIZE:-1170x2532}
kill_after=${KILL_AFTER:-5}
IFS=, read -r ctld_port slurmd_port <<<"${SLURM_PORTS:-16817,16818}"
shards=4
material=thin
started=$SECONDS

die() {
	echo "run.sh: $*" >&2
	exit 1
}
[ $# -eq 1 ] || die "usage: $0 PATH/TO/blurtool"
[ "$(id -u)" = 0 ] || die "run as root: it installs packages and starts munged, slurmctld and slurmd"
[ -x "$1" ] || die "$1 is not an executable"
binary=$(realpath "$1")

# --- Packages ------------------------------------------------------------------------------------------------
packages=(slurmctld slurmd slurm-client munge ffmpeg)
command -v python3 >/dev/null || packages+=(python3)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
	echo "== installing ${missing[*]}"
	# Without a policy-rc.d the packages' scripts would start the system's munged and slurm daemons.
	policy=""
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		policy=/usr/sbin/policy-rc.d
		printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy"
		trap 'rm -f "$policy"' EXIT
	fi
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" 2>&1 >/dev/null |
		grep -v '^debconf: delaying package configuration' >&2 || true
	for p in "${missing[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || die "could not install $p"; done
	[ -z "$policy" ] || { rm -f "$policy"; trap - EXIT; }
fi

# --- The cluster ---------------------------------------------------------------------------------------------
work=$(mktemp -d /tmp/blurtool-slurm.XXXXXX)
chmod 755 "$work" # munged wants the path to its socket open to all
src=$work/src dest=$work/dest lists=$work/lists logs=$work/logs
mkdir -p "$src" "$lists" "$logs" "$work/munge" "$work/run" "$work/slurm/state" "$work/slurm/spool"
chmod 700 "$work/munge"
export SLURM_CONF=$work/slurm/slurm.conf
munged_pid="" ctld_pid="" slurmd_pid=""

stop_pid() { # PID NAME: SIGTERM, then SIGKILL after 10 s
	[ -n "$1" ] && kill -0 "$1" 2>/dev/null || return 0
	kill "$1" 2>/dev/null
	for _ in $(seq 100); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
	kill -0 "$1" 2>/dev/null && { echo "   $2 ($1) ignored SIGTERM: SIGKILL" >&2; kill -KILL "$1" 2>/dev/null; }
	wait "$1" 2>/dev/null || true
}
cleanup() {
	local status=$?
	set +e
	trap - EXIT INT TERM
	cd /
	if [ -n "$ctld_pid" ] && kill -0 "$ctld_pid" 2>/dev/null; then
		local jobs
		jobs=$(squeue -h -o %A 2>/dev/null | sort -u)
		if [ -n "$jobs" ]; then
			scancel $jobs 2>/dev/null
			for _ in $(seq 400); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.1; done
		fi
	fi
	stop_pid "$slurmd_pid" slurmd
	stop_pid "$ctld_pid" slurmctld
	# slurmstepd and its tasks outlive slurmd; anything still holding a file in the work folder is ours.
	local d pid
	for d in /proc/[0-9]*; do
		pid=${d#/proc/}
		[ "$pid" = $$ ] || [ "$pid" = "$BASHPID" ] || [ "$pid" = "$munged_pid" ] && continue
		if ls -l "$d/cwd" "$d/fd" 2>/dev/null | grep -qF -- "$work"; then
			echo "   stopping $(tr '\0' ' ' <"$d/cmdline" 2>/dev/null) ($pid), left over" >&2
			kill -KILL "$pid" 2>/dev/null
		fi
	done
	stop_pid "$munged_pid" munged
	if [ "${KEEP:-}" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi
	exit $status
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A copy: a build that replaces the binary during the run does not mix two versions in one run.
export BLURTOOL=$work/blurtool
blurtool=$BLURTOOL
cp "$binary" "$blurtool"
mkdir "$work/empty"
if ! probe=$("$blurtool" batch "$work/empty" -o "$work/empty-dest" --material thin --shard 0/2 --list 2>&1); then
	die "$binary has no working 'batch' subcommand: $(head -3 <<<"$probe")"
fi
rm -rf "$work/empty" "$work/empty-dest"

for port in "$ctld_port" "$slurmd_port"; do
	if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
		die "port $port is taken (another slurmctld or slurmd? a run of this script left over?); set SLURM_PORTS"
	fi
done

echo "== starting munged, slurmctld and slurmd in $work"
mungekey --create --keyfile="$work/munge/munge.key"
munge_socket=$work/run/munge.socket
munged -F --force --key-file="$work/munge/munge.key" --socket="$munge_socket" --pid-file="$work/run/munged.pid" \
	--log-file="$work/munge/munged.log" --seed-file="$work/munge/munged.seed" >>"$work/munge/munged.log" 2>&1 &
munged_pid=$!
for _ in $(seq 50); do [ -S "$munge_socket" ] && break; sleep 0.1; done
munge -S "$munge_socket" -n | unmunge -S "$munge_socket" >/dev/null ||
	die "munged does not answer on $munge_socket: $(tail -5 "$work/munge/munged.log")"

host=$(hostname -s)
memory=$(awk '/MemTotal/ { print int($2 / 1024 * 0.8) }' /proc/meminfo)
# Plugins that need neither cgroups nor systemd: processes tracked through /proc, no task binding, no
# accounting (scontrol keeps finished jobs for MinJobAge, which is where the exit states are read).
cat >"$SLURM_CONF" <<EOF
ClusterName=blurtool-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$munge_socket
StateSaveLocation=$work/slurm/state
SlurmdSpoolDir=$work/slurm/spool
SlurmctldPidFile=$work/slurm/slurmctld.pid
SlurmdPidFile=$work/slurm/slurmd.pid
SlurmctldLogFile=$work/slurm/slurmctld.log
SlurmdLogFile=$work/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
ReturnToService=2
MailProg=/bin/true
KillWait=30
MinJobAge=3600
DefMemPerCPU=512
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$memory State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -f "$SLURM_CONF" >"$work/slurm/slurmctld.out" 2>&1 &
ctld_pid=$!
slurmd -D -f "$SLURM_CONF" -N "$host" >"$work/slurm/slurmd.out" 2>&1 &
slurmd_pid=$!
for i in $(seq 300); do
	[ "$(sinfo -h -n "$host" -o %T 2>/dev/null)" = idle ] && break
	kill -0 "$ctld_pid" 2>/dev/null || die "slurmctld stopped: $(tail -5 "$work/slurm/slurmctld.log")"
	kill -0 "$slurmd_pid" 2>/dev/null || die "slurmd stopped: $(tail -5 "$work/slurm/slurmd.log")"
	[ "$i" = 300 ] && die "node $host not idle after 30 s: $(sinfo -N 2>&1)"
	sleep 0.1
done
echo "   node $host idle, $(nproc) CPUs ($((SECONDS - started)) s)"

# --- The photos ----------------------------------------------------------------------------------------------
# ffmpeg's test pattern moves from frame to frame: one run per size gives that many different photos. Six sizes,
# the last one portrait and PNG; spread over nested folders, with a space and an accent in some names, and a text
# file that is not a photo.
echo "== generating $photos photos"
sizes=(64x48 96x72 128x96 160x120 200x150 150x200)
per=$(((photos + ${#sizes[@]} - 1) / ${#sizes[@]}))
mkdir -p "$work/gen"
for s in "${sizes[@]}"; do
	ext=jpg
	[ "$s" = 150x200 ] && ext=png
	ffmpeg -nostdin -v error -f lavfi -i "testsrc2=size=$s:rate=7" -frames:v "$per" -q:v 5 "$work/gen/$s-%03d.$ext"
done
i=0
: >"$work/photos.txt"
for f in "$work/gen"/*; do
	[ $i -lt "$photos" ] || break
	name=$(basename "$f")
	case $((i % 7)) in
	0) rel=$name ;;
	1 | 2) rel="trip-$((i % 3))/$name" ;;
	3) rel="trip-$((i % 3))/day $((i % 4))/$name" ;;
	4) rel="café/$name" ;;
	5) rel="a/b/c/d/$name" ;;
	6) rel="trip-$((i % 3))/day $((i % 4))/IMG $i.${name##*.}" ;;
	esac
	mkdir -p "$src/$(dirname "$rel")"
	mv "$f" "$src/$rel"
	printf '%s\n' "$rel" >>"$work/photos.txt"
	i=$((i + 1))
done
rm -rf "$work/gen"
mkdir -p "$src/trip-1" && echo "not a photo" >"$src/trip-1/notes.txt"
echo "   $(wc -l <"$work/photos.txt") photos and a text file, in $(find "$src" -type d | wc -l) folders ($((SECONDS - started)) s)"

# Each shard's photos, as blurtool itself lists them: what the reports are held to.
for k in $(seq 0 $((shards - 1))); do
	"$blurtool" batch "$src" -o "$work/list-dest" --material $material --shard "$k/$shards" --list >"$lists/list-$k.txt"
done
written=$( (find "$work/list-dest" -type f ! -path '*/.blurtool-batch/*' 2>/dev/null || true) | wc -l)
rm -rf "$work/list-dest"

# --- Helpers -------------------------------------------------------------------------------------------------
passed=0 failed=0 round=setup
declare -a failures=() summary=()
pass() {
	passed=$((passed + 1))
	echo "   ok  $*"
}
fail() {
	failed=$((failed + 1))
	failures+=("$round: $*")
	echo "   FAIL $*"
}
[ "$written" = 0 ] && pass "--list wrote no output" || fail "--list wrote $written files into its DEST"

submit() { # ARRAY [blurtool options...]: prints the array's job id
	local array=$1
	shift
	(cd "$logs" && sbatch --parsable --array="$array" --cpus-per-task=1 --mem=1G "$sbatch_script" "$src" "$dest" "$@") |
		cut -d';' -f1
}
wait_job() { # JOB: until no task of it is pending or running
	local deadline=$((SECONDS + 240))
	while [ -n "$(squeue -h -j "$1" 2>/dev/null)" ]; do
		if [ $SECONDS -gt "$deadline" ]; then
			scancel "$1"
			die "job $1 still running after 240 s: $(squeue -j "$1" 2>&1)"
		fi
		sleep 0.2
	done
}
state() { # JOB_TASK: "STATE EXIT:SIGNAL"
	scontrol -o show job "$1" | grep -o -E ' (JobState|ExitCode)=[^ ]+' | cut -d= -f2 | tr '\n' ' ' | sed 's/ $//'
}
expect_state() { # JOB_TASK PATTERN (an extended regex over "STATE EXIT:SIGNAL")
	local s
	s=$(state "$1")
	if [[ $s =~ ^($2)$ ]]; then pass "task $1: $s"; else
		fail "task $1: $s, expected $2"
		echo "      its log: $(tail -3 "$logs/blurtool-batch-$1.out" 2>/dev/null | tr '\n' '|')"
	fi
}
check() { # MODE K=REPORT...: runs check.py, counts its lines
	local out
	out=$(python3 "$here/check.py" "$work/photos.txt" "$src" "$dest" $material "$lists" $shards "$@") || true
	echo "$out"
	passed=$((passed + $(grep -c '^   ok ' <<<"$out" || true)))
	local bad
	bad=$(grep -c '^   FAIL' <<<"$out" || true)
	failed=$((failed + bad))
	[ "$bad" = 0 ] || mapfile -t -O ${#failures[@]} failures < <(grep '^   FAIL' <<<"$out" | sed "s/^   FAIL /$round: /")
}
reports() { # JOB: K=REPORT for each of the array's tasks
	local k
	for k in $(seq 0 $((shards - 1))); do echo "$k=$logs/blurtool-batch-${1}_$k.jsonl"; done
}
statuses() { # REPORT: "N done, M skipped"
	python3 -c 'import json,sys,collections
c=collections.Counter()
for l in open(sys.argv[1]):
    try: c[json.loads(l)["status"]]+=1
    except Exception: c["cut short"]+=1
print(", ".join(f"{n} {s}" for s,n in sorted(c.items())))' "$1"
}

# --- Round 1: the whole set -----------------------------------------------------------------------------------
t=$SECONDS round="round 1"
echo "== round 1: sbatch --array=0-3, --material $material"
job=$(submit 0-3 --material $material)
[ -n "$job" ] || die "sbatch failed"
wait_job "$job"
for k in $(seq 0 $((shards - 1))); do expect_state "${job}_$k" "COMPLETED 0:0"; done
# shellcheck disable=SC2046
CHECK_LISTS=1 check complete $(reports "$job")
summary+=("round 1, array 0-3: $(wc -l <"$work/photos.txt") photos in $((SECONDS - t)) s")

# --- Rounds 2 and 3: task 2 stopped, then resubmitted alone ---------------------------------------------------
interrupt() { # TERM|KILL
	local signal=$1 t=$SECONDS
	round="SIG$signal round"
	rm -rf "$dest"
	echo "== round with SIG$signal: sbatch --array=0-3, --material $material --size $kill_size; task 2 sent SIG$signal"
	job=$(submit 0-3 --material $material --size "$kill_size")
	local journal=$dest/.blurtool-batch/journal-2-of-$shards.tsv lines=0
	while :; do
		lines=$( (cat "$journal" 2>/dev/null || true) | wc -l)
		[ "$lines" -ge "$kill_after" ] && break
		[ -n "$(squeue -h -j "${job}_2" 2>/dev/null)" ] || die "task ${job}_2 ended before $kill_after photos were journaled: raise KILL_SIZE"
		[ $((SECONDS - t)) -lt 200 ] || die "task ${job}_2 journaled no $kill_after photos in 200 s"
		sleep 0.05
	done
	if [ "$signal" = TERM ]; then
		scancel "${job}_2" # SIGTERM to the batch step, SIGKILL after KillWait (30 s)
	else
		scancel --batch --signal=KILL "${job}_2" # plain scancel --signal=KILL cancels, which is SIGTERM first
	fi
	wait_job "$job"
	local done_before
	done_before=$(wc -l <"$journal")
	echo "   task 2 had journaled $lines photos when signalled, $done_before when it ended"
	for k in 0 1 3; do expect_state "${job}_$k" "COMPLETED 0:0"; done
	local mode
	if [ "$signal" = TERM ]; then
		expect_state "${job}_2" "CANCELLED 75:0"
		mode=stopped:2
	else
		expect_state "${job}_2" "(FAILED|CANCELLED) 0:9"
		mode=killed:2
	fi
	local first=$job
	# shellcheck disable=SC2046
	check $mode $(reports "$first")
	if [ "$signal" = KILL ]; then
		local left
		left=$(cd "$logs" && find . -name '.*.tmp' | sed 's|^\./||' | tr '\n' ' ')
		echo "   ..  temporary files left beside the reports: ${left:-none}"
	fi
	# Both ways of telling a task alone in its array which shard it is: the array's size (--shards, the task id
	# then being the index) and the shard itself.
	local which=(--shards $shards)
	[ "$signal" = TERM ] || which=(--shard 2/$shards)
	echo "   resubmitting task 2 alone: sbatch --array=2 … ${which[*]}"
	round="SIG$signal round, after the rerun"
	job=$(submit 2 --material $material --size "$kill_size" "${which[@]}")
	wait_job "$job"
	expect_state "${job}_2" "COMPLETED 0:0"
	local rerun=$logs/blurtool-batch-${job}_2.jsonl
	local counts
	counts=$(statuses "$rerun")
	echo "   the rerun's report: $counts"
	[[ $counts == *"$done_before skipped"* ]] && pass "the rerun skipped the $done_before photos journaled before" ||
		fail "the rerun's report says $counts, but $done_before photos were journaled before it"
	# shellcheck disable=SC2046
	check "complete$([ "$signal" = KILL ] && echo :2)" $(reports "$first") "2=$rerun"
	summary+=("round with SIG$signal to task 2: stopped after $done_before photos, rerun $counts, $((SECONDS - t)) s")
}
interrupt TERM
interrupt KILL

# --- Summary -------------------------------------------------------------------------------------------------
echo "== summary"
echo "   shards: $(for k in $(seq 0 $((shards - 1))); do printf '%s ' "$(wc -l <"$lists/list-$k.txt")"; done)photos"
for line in "${summary[@]}"; do echo "   $line"; done
echo "   $((SECONDS - started)) s in all"
if [ "$failed" -gt 0 ]; then
	echo "failed checks:"
	printf '   %s\n' "${failures[@]}"
fi
echo "slurm: $passed passed, $failed failed"
[ "$failed" = 0 ]
