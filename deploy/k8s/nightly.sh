#!/usr/bin/env bash
# One night's sweep on Kubernetes (docs/FLEET.md): the Indexed Job of sweep-job.yaml with this
# night's image, scenario and seeds, then — once every index has ended, passed or failed — the
# merge of merge-job.yaml. Prints the merge's log; exits with its status (0: every seed passed,
# 1: a seed failed, 2: the shards could not be merged), or 3 when a Job did not end in time.
#
#   deploy/k8s/nightly.sh IMAGE SCENARIO SEEDS SHARDS [PARALLELISM]
#   deploy/k8s/nightly.sh registry.example.com/peerlink-sweep:3f9a1b2 scenarios/morning-run.scenario 1000000 100 20
#
# Each night sweeps new seeds: FROM is the day number since 1970 times SEEDS, plus 1. Each run
# writes its reports to a directory of its own on the volume, /reports/NIGHT/run-HHMMSS (UTC),
# and merges only those: a run again the same night (other SHARDS, another image) does not
# see the shards of the one before.
#
# Environment: SWEEP_TIMEOUT, seconds to wait for the sweep Job to end (default 21600: 6 h);
# MERGE_TIMEOUT, for the merge Job (default 1800). Past it the Job is left as it is.
set -euo pipefail
if [ $# -lt 4 ]; then
  sed -n '2,/^[^#]/{/^#/p}' "$0" >&2
  exit 2
fi
cd "$(dirname "$0")"
image=$1 scenario=$2 seeds=$3 shards=$4 parallelism=${5:-20}
sweep_timeout=${SWEEP_TIMEOUT:-21600} merge_timeout=${MERGE_TIMEOUT:-1800}
case "$sweep_timeout $merge_timeout" in
  *[!0-9\ ]*) echo "nightly.sh: SWEEP_TIMEOUT and MERGE_TIMEOUT are whole seconds" >&2; exit 2 ;;
esac
# One clock reading for the night, the run and the seeds.
read -r night run now <<< "$(date -u '+%F run-%H%M%S %s')"
from=$(( now / 86400 * seeds + 1 ))

# The manifests with tonight's values (the fields the comments in them name).
render() {
  sed -e "s|image: .*peerlink-sweep:.*|image: $image|" \
      -e "/name: NIGHT/{n;s|value: .*|value: \"$night\"|}" \
      -e "/name: RUN/{n;s|value: .*|value: \"$run\"|}" \
      -e "/name: SCENARIO/{n;s|value: .*|value: $scenario|}" \
      -e "/name: FROM/{n;s|value: .*|value: \"$from\"|}" \
      -e "/name: SEEDS/{n;s|value: .*|value: \"$seeds\"|}" \
      -e "/name: PEERLINK_SHARD_COUNT/{n;s|value: .*|value: \"$shards\"|}" \
      -e "s|^  completions: .*|  completions: $shards|" \
      -e "s|^  parallelism: .*|  parallelism: $parallelism|" "$1"
}

# Until Job $1 is Complete or Failed, asking every $2 s, for at most $3 s (named by $4).
wait_for() {
  local deadline=$(( $(date +%s) + $3 )) left
  until kubectl get job "$1" -o jsonpath='{.status.conditions[*].type}' | grep -qE 'Complete|Failed'; do
    left=$(( deadline - $(date +%s) ))
    if [ "$left" -le 0 ]; then
      echo "nightly.sh: job $1 has not ended after $3 s (raise $4 to wait longer); it is left as it is: kubectl get job $1" >&2
      exit 3
    fi
    sleep $(( left < $2 ? left : $2 ))
  done
}

echo "reports: /reports/$night/$run on the volume peerlink-sweep-reports"
kubectl delete job peerlink-sweep peerlink-sweep-merge --ignore-not-found
render sweep-job.yaml | kubectl apply -f -
# Failed indexes are shards with failing seeds.
wait_for peerlink-sweep 30 "$sweep_timeout" SWEEP_TIMEOUT
kubectl get job peerlink-sweep -o jsonpath='failed shards (index): {.status.failedIndexes}{"\n"}'
render merge-job.yaml | kubectl apply -f -
wait_for peerlink-sweep-merge 10 "$merge_timeout" MERGE_TIMEOUT
kubectl logs job/peerlink-sweep-merge
status=$(kubectl get pods -l job-name=peerlink-sweep-merge -o jsonpath='{.items[0].status.containerStatuses[0].state.terminated.exitCode}')
exit "${status:-2}"
