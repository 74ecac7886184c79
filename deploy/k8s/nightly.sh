#!/usr/bin/env bash
# One night's sweep on Kubernetes (docs/FLEET.md): the Indexed Job of sweep-job.yaml with this
# night's image, scenario and seeds, then — once every index has ended, passed or failed — the
# merge of merge-job.yaml. Prints the merge's log; exits with its status (0: every seed passed,
# 1: a seed failed, 2: the shards could not be merged).
#
#   deploy/k8s/nightly.sh IMAGE SCENARIO SEEDS SHARDS [PARALLELISM]
#   deploy/k8s/nightly.sh registry.example.com/peerlink-sweep:3f9a1b2 scenarios/morning-run.scenario 1000000 100 20
#
# Each night sweeps new seeds: FROM is the day number since 1970 times SEEDS, plus 1. Each run
# writes its reports to a directory of its own on the volume, /reports/NIGHT/run-HHMMSS (UTC),
# and merges only those: a run again the same night (other SHARDS, another image) does not
# see the shards of the one before.
set -euo pipefail
cd "$(dirname "$0")"
if [ $# -lt 4 ]; then
  sed -n '2,13p' "$0" >&2
  exit 2
fi
image=$1 scenario=$2 seeds=$3 shards=$4 parallelism=${5:-20}
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

echo "reports: /reports/$night/$run on the volume peerlink-sweep-reports"
kubectl delete job peerlink-sweep peerlink-sweep-merge --ignore-not-found
render sweep-job.yaml | kubectl apply -f -
# Until the Job is Complete or Failed (failed indexes are shards with failing seeds).
until kubectl get job peerlink-sweep -o jsonpath='{.status.conditions[*].type}' | grep -qE 'Complete|Failed'; do
  sleep 30
done
kubectl get job peerlink-sweep -o jsonpath='failed shards (index): {.status.failedIndexes}{"\n"}'
render merge-job.yaml | kubectl apply -f -
until kubectl get job peerlink-sweep-merge -o jsonpath='{.status.conditions[*].type}' | grep -qE 'Complete|Failed'; do
  sleep 10
done
kubectl logs job/peerlink-sweep-merge
status=$(kubectl get pods -l job-name=peerlink-sweep-merge -o jsonpath='{.items[0].status.containerStatuses[0].state.terminated.exitCode}')
exit "${status:-2}"
