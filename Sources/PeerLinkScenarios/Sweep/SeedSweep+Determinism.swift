extension SeedSweep {
    /// What differs between two runs of the same seed, each with its trace recorded (madsim's
    /// `MADSIM_TEST_CHECK_DETERMINISM`): the trace hashes (the timeline of every frame and
    /// fault, and both nodes' log lines), else the problems found. nil when they are the same.
    public static func determinismProblem(_ first: SeedOutcome, _ second: SeedOutcome) -> String? {
        let a = first.traceHashes.first ?? "none", b = second.traceHashes.first ?? "none"
        if a != b || first.traceHashes.isEmpty {
            return "determinism: seed \(first.seed) ran twice with different traces: \(a) then \(b)"
        }
        if first.problems != second.problems {
            return "determinism: seed \(first.seed) ran twice with the same trace \(a) but different problems: "
                + "\(first.problems.count) then \(second.problems.count) (\(first.problems.first ?? "none") / \(second.problems.first ?? "none"))"
        }
        return nil
    }
}
