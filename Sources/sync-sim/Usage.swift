/// `sync-sim --help`.
let usage = """
    usage: sync-sim [FILE…] [options]      replay scenarios against a phone node and a watch node
           sync-sim sweep FILE --seeds N [--from S] [--shard i/n|auto[/n]] [--jobs J] [--json PATH] [--junit PATH]
           sync-sim sweep FILE --seed S [--faults "…"] [--workload NAME [--ops "…"]]
           sync-sim merge SHARD.json… [--json PATH] [--junit PATH] [--html PATH]
                                          combine the reports of a sweep's shards (`merge --help`)
           sync-sim commands phone|watch|node|shell [--markdown] [--locale ja|en]
                                          a node's commands, from the table behind its dispatch and
                                          `help` (`--markdown`: the reference in docs/PHONE.md, WATCH.md)
           sync-sim node phone|watch [node options]
                                          run this executable as phone-node or watch-node (process
                                          mode starts its nodes this way; `… --help` lists their options)

    With no FILE, runs scenarios/morning-run.scenario: from the current directory, or else from
    the checkout this sync-sim was built in.
    The last line is always `N passed, M failed`; the exit status is 0 only when all passed.

    options:
      --mode process|sim  process: real phone-node and watch-node over TCP (default);
                          sim: both apps in this process on the simulated network (deterministic)
      --json          print the report as one JSON object (the summary line still ends it)
      --junit PATH    also write a JUnit XML report to PATH (one test case per scenario)
      --html PATH     also write the run as one self-contained HTML page to PATH: the space-time
                      diagram of every frame, both devices' screens at each check, fault and every
                      few minutes, the checks, digests and logs (docs/REPORT.md); with sweep: the
                      seeds per fault class and each failing seed's schedule, replay and run
      --keep          keep the nodes' state directories (printed in the report; process mode)
      --bin DIR       run the phone-node and watch-node executables in DIR (default: this
                      executable, as `sync-sim node phone|watch`)
      --help          this text
      --version       the version, and the commit sweep reports name

    sweep: runs FILE in sim mode once per seed with a random fault schedule (partitions, loss,
    duplication, reordering, latency, bandwidth, slicing, close-after, resets, kill/crash,
    clock bumps/drift/freeze, corruption/rollback, damage to a partial file, a relay flipping
    bytes; which classes are on
    is drawn per seed),
    then clears the faults, restarts both nodes and checks convergence, that no acknowledged
    user-info transfer was lost or delivered twice, and that each node's clock and seq only
    went forward. A failure prints the seed, its faults, a shrunk minimal fault list and the
    commands that replay it.
      --seeds N       how many seeds (default 100), starting at --from S (default 1)
      --shard i/n     only every n-th seed of the range, starting at the i-th (1 ≤ i ≤ n)
      --shard auto[/n] the shard from the engine's environment: PEERLINK_SHARD_INDEX (1-based;
                      a GitHub Actions matrix), JOB_COMPLETION_INDEX (Kubernetes Indexed Job,
                      0-based) or PARALLEL_SEQ (GNU parallel's {#}); n, or PEERLINK_SHARD_COUNT,
                      says how many shards there are (docs/FLEET.md)
      --json PATH     write the sweep's report: every seed's outcome, failures with their shrunk
                      schedules and replay commands, the scenario's SHA-256, the commit, the
                      version and the options (what `sync-sim merge` reads; docs/FLEET.md)
      --junit PATH    write JUnit XML: one test case per seed
      --check-determinism
                      run each seed twice with its trace recorded; a seed whose two traces differ
                      fails, named with both trace hashes
      --dry-run       print the shard and the seeds it would run, and run nothing
      --seed S        one seed (replay); with --faults "…" its schedule is replaced
      --faults "…"    faults `@OFFSET ACTION [for D]` separated by `;` (see docs/SCENARIOS.md)
      --logs          print the nodes' log lines of each failing seed (use with --seed)
      --jobs J        threads (default 2)
      --classes LIST  only these fault classes (comma-separated): partition, lossy, latency,
                      bandwidth, slicing, close-after, resets, kills, clocks, corruption, rollback,
                      damage-partial-file, tamper
      --without LIST  all fault classes but these
      --no-shrink     do not shrink failing schedules
      --workload NAME mix a workload into every seed: seeded app actions on both devices
                      (fitness, countdown, or default: the scenario's own), its model checked
                      against both nodes after the recovery (the scenario's `expect always`
                      expectations are checked only without a workload)
      --ops "…"       the workload's operations instead of the seed's (with --seed and --workload)
    """
