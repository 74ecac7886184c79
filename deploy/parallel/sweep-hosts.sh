#!/usr/bin/env bash
# A sweep over several hosts with GNU parallel over ssh, then the merge (docs/FLEET.md).
#
#   deploy/parallel/sweep-hosts.sh SCENARIO FROM SEEDS SHARDS OUT [SSHLOGIN…]
#   deploy/parallel/sweep-hosts.sh scenarios/morning-run.scenario 1 100000 40 /tmp/night 8/alice@h1 8/alice@h2 :
#
# Runs SHARDS shards of seeds FROM… (SEEDS of them) of SCENARIO, one job per shard, on the
# SSHLOGINs (GNU parallel's --sshlogin: `[N/]user@host`, N jobs at once there; `:` is this
# machine; default `:`). Each host gets the sync-sim executable and the scenario once, before
# its first job (--basefile), removed after its last (--cleanup); each job's reports come back
# (--return, then removed there) as OUT/shard-K.json and .xml, K being parallel's job number
# {#}, which `--shard auto/SHARDS` reads as PARALLEL_SEQ; then OUT/merged.json, .xml and
# .html. Exits as the merge does: 0 when every seed passed, 1 when one failed, 2 when the
# shards could not be merged (a host lost, a shard missing: the merge names it).
#
# Environment: SYNC_SIM, the executable to ship (default .build/release/sync-sim, built with
# `swift build -c release --product sync-sim --static-swift-stdlib` so hosts need no Swift,
# only libsqlite3 and libcrypto, and rsync, as parallel's transfers need); JOBS, threads per
# shard (default 2); PEERLINK_COMMIT, the commit every shard's report names (default: the one
# `$SYNC_SIM --version` names); PARALLEL_SSH, the ssh command (parallel's own variable).
set -euo pipefail
if [ $# -lt 5 ]; then
  sed -n '2,/^[^#]/{/^#/p}' "$0" >&2
  exit 2
fi
scenario=$1 from=$2 seeds=$3 shards=$4 out=$5
shift 5
logins=("$@")
[ ${#logins[@]} -gt 0 ] || logins=(:)
command -v parallel >/dev/null || { echo "sweep-hosts.sh: GNU parallel is not installed (apt-get install parallel)" >&2; exit 2; }
sync_sim=$(realpath "${SYNC_SIM:-.build/release/sync-sim}")
[ -x "$sync_sim" ] || { echo "sweep-hosts.sh: no executable $sync_sim (set SYNC_SIM)" >&2; exit 2; }
[ -r "$scenario" ] || { echo "sweep-hosts.sh: no scenario file $scenario" >&2; exit 2; }
# One commit for every shard (a host's copy of the executable is in no checkout): the one this
# sync-sim names (`--version`: PEERLINK_COMMIT, else the checkout it was built in), else the
# scenario's checkout.
commit=$("$sync_sim" --version | sed -n 's/.*(commit \(.*\))$/\1/p')
if [ "$commit" = unknown ]; then commit=$(git -C "$(dirname "$scenario")" rev-parse HEAD 2>/dev/null || echo unknown); fi
export PEERLINK_COMMIT=$commit

# What each host is sent, under the relative paths the jobs name: the scenario keeps its path,
# so every replay command in the reports names it as given here.
mkdir -p "$out/stage/$(dirname "$scenario")"
cp "$sync_sim" "$out/stage/sync-sim"
cp "$scenario" "$out/stage/$scenario"
cd "$out"
# Reports of an earlier run here must not stand in for a shard that does not come back.
rm -f shard-*.json shard-*.xml merged.json merged.xml merged.html stage/shard-*.json stage/shard-*.xml
cd stage

sshlogins=()
for l in "${logins[@]}"; do sshlogins+=(--sshlogin "$l"); done
# A job that fails (failing seeds: exit 1) still returns its reports; the merge judges. Each
# shard's own output, tagged with its number, goes to OUT/shards.log; OUT/jobs.log has each
# job's host, time and exit status. The scenario is a --basefile, not a --transferfile: the
# jobs on a host share its path, and a transferred file is removed by --cleanup when its job
# ends, under another job of the host that has not opened it yet.
parallel "${sshlogins[@]}" --env PEERLINK_COMMIT --basefile sync-sim --basefile "$scenario" \
  --return 'shard-{#}.json' --return 'shard-{#}.xml' --cleanup --tag --joblog ../jobs.log \
  ./sync-sim sweep "$scenario" --from "$from" --seeds "$seeds" --shard "auto/$shards" --jobs "${JOBS:-2}" \
  --json 'shard-{#}.json' --junit 'shard-{#}.xml' ::: $(seq 1 "$shards") > ../shards.log || true

mv shard-*.json shard-*.xml .. 2>/dev/null || true
cd ..
./stage/sync-sim merge shard-*.json --json merged.json --junit merged.xml --html merged.html
