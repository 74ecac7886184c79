import PeerLinkCore
import PeerLinkSim

extension ScenarioRunner {
    // MARK: - Steps

    func perform(_ step: ScenarioStep) throws -> [CheckOutcome] {
        // What crossed the link before this step comes before whatever the step adds.
        timeline += driver.takeTimeline()
        switch step.action {
        case .node(let role, let cmd):
            guard driver.isRunning(role) else {
                return [CheckOutcome(location: step.location, description: step.text, passed: false, detail: "the \(role) is not running")]
            }
            _ = try driver.settle()
            let run = { [self] () throws -> [CheckOutcome] in
                switch try driver.call(role, cmd.raw) {
                case .success: return []
                case .failure(let e):
                    return [CheckOutcome(location: step.location, description: step.text, passed: false, detail: "the \(role) refused: \(e.message)")]
                }
            }
            guard let w = workload else { return try run() }
            return try w.aroundScenarioCommand(role, cmd, driver: driver, nowMs: nowMs, run)
        case .workload(let op):
            try workload?.issue(op, driver: driver, nowMs: nowMs)
            return []
        case .checkWorkload:
            guard let w = workload else { return [] }
            let problems = try w.check(scenario: scenario, driver: driver)
            return problems.isEmpty
                ? [CheckOutcome(location: step.location, description: "workload \(w.kind.rawValue) matches its model", passed: true,
                                detail: "\(w.entries.filter { $0.skipped == nil }.count) of \(w.entries.count) operations issued")]
                : problems.map { CheckOutcome(location: step.location, description: "workload \(w.kind.rawValue) model", passed: false, detail: $0) }
        case .expectValue(let role, let path, let op, let expected):
            _ = try driver.settle()
            guard driver.isRunning(role) else {
                return [CheckOutcome(location: step.location, description: step.text, passed: false, detail: "the \(role) is not running")]
            }
            switch try driver.call(role, "query " + path.map { $0.contains(" ") ? "\"\($0)\"" : $0 }.joined(separator: " ")) {
            case .success(let actual):
                let ok = ExpectationCheck.compare(actual, op, expected)
                return [CheckOutcome(location: step.location, description: step.text, passed: ok, detail: ok ? "" : "actual \(actual.jsonString())")]
            case .failure(let e):
                return [CheckOutcome(location: step.location, description: step.text, passed: false, detail: e.message)]
            }
        case .expectConverged:
            return [try converge(step)]
        case .expectRefusal(let role, let cmd):
            guard driver.isRunning(role) else {
                return [CheckOutcome(location: step.location, description: step.text, passed: false, detail: "the \(role) is not running")]
            }
            _ = try driver.settle()
            switch try driver.call(role, cmd.raw) {
            case .success(let v):
                return [CheckOutcome(location: step.location, description: step.text, passed: false, detail: "accepted: \(v.jsonString())")]
            case .failure(let e):
                return [CheckOutcome(location: step.location, description: step.text, passed: true, detail: "refused: \(e.message)")]
            }
        case .link(let change):
            if change == .reset {
                try driver.resetConnection()
            } else {
                change.apply(to: &faults)
                try driver.setFaults(faults)
            }
            note("\(nowMs) link: \(faults)")
            return []
        case .kill(let role):
            try driver.kill(role)
            note("\(nowMs) kill -9 \(role)")
            return []
        case .restart(let role):
            try restartOnItsClock(role)
            note("\(nowMs) restart \(role)")
            return []
        case .clock(let role, let change):
            clocks[role].apply(change, at: nowMs)
            if driver.isRunning(role) { try driver.setWallOffset(role, clocks[role].offset(at: nowMs)) }
            return []
        case .stranger:
            seed &+= 0x9E37
            var rng = SplitMix64(seed: seed)
            let key = (0..<32).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let wrong = (0..<32).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let answer = try driver.injectStranger(StrangerFrames.attempt(ephemeralKey: key, wrongSecret: wrong))
            var decoder = RecordDecoder()
            decoder.feed(answer)
            var kinds: [String] = []
            while let r = try? decoder.next() { kinds.append("\(r.type)") }
            note("\(nowMs) a stranger tried to pair with the phone; it answered: \(kinds.joined(separator: ", "))")
            let sawOnlyHandshake = kinds.allSatisfy { $0 == "reject" }
            return [CheckOutcome(location: step.location, description: "stranger connects", passed: sawOnlyHandshake,
                                 detail: sawOnlyHandshake ? "refused; it saw only \(kinds.isEmpty ? "nothing" : kinds.joined(separator: ", "))" : "it saw \(kinds.joined(separator: ", "))")]
        case .rollbackStore(let role):
            let dropped = try damageStore(role, rollback: true) { try driver.rollBackStore(role, seed: $0) }
            note("\(nowMs) roll back the store of \(role) by \(dropped) commits, restart")
            return []
        case .damagePartialFile(let role):
            armedFileDamage.insert(role)
            try damageArmedPartialFiles()
            return []
        case .corruptStore(let role):
            try damageStore(role, rollback: false) { try driver.corruptStore(role, seed: $0) }
            note("\(nowMs) corrupt store of \(role), restart")
            return []
        }
    }
}
