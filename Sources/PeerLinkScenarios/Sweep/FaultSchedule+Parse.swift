import PeerLinkCore
import PeerLinkPOSIX

/// Reading the `--faults` syntax: faults separated by `;`, each `@OFFSET ACTION [for DURATION]`
/// with OFFSET from the scenario's start and ACTION as in a scenario step:
///
/// ```
/// @1m link down for 30s; @2m30s crash watch; @3m kill phone for 1m; @4m clock watch +5m;
/// @5m clock phone drift 800ppm for 10m; @6m clock watch freeze for 2m; @7m corrupt phone;
/// @8m rollback watch; @9m link loss 20% for 2m; @10m link reset; @11m damage-partial-file phone
/// ```
extension FaultSchedule {
    /// Parses `text` (`none` or empty: no faults); errors name the fault and what is wrong.
    public static func parse(_ text: String) throws(ScenarioError) -> FaultSchedule {
        let trimmed = text.trimmingCharacters()
        if trimmed.isEmpty || trimmed == "none" { return FaultSchedule(faults: []) }
        var faults: [ScheduledFault] = []
        for (i, part) in trimmed.split(separator: ";").enumerated() {
            let words = part.split(separator: " ").map(String.init)
            faults.append(try parseOne(words, index: i + 1))
        }
        return FaultSchedule(faults: faults)
    }

    static func parseOne(_ input: [String], index: Int) throws(ScenarioError) -> ScheduledFault {
        let loc = SourceLocation(file: "--faults", line: 1, column: index)
        func fail(_ m: String) -> ScenarioError {
            ScenarioError(location: loc, message: "fault \(index) '\(input.joined(separator: " "))': \(m)")
        }
        guard let first = input.first, first.hasPrefix("@"), let at = ScenarioParser.duration(String(first.dropFirst())) else {
            throw fail("expected @OFFSET first (e.g. @5m30s)")
        }
        var words = Array(input.dropFirst())
        var forMs: Int64?
        if words.count >= 2, words[words.count - 2] == "for" {
            guard let d = ScenarioParser.duration(words[words.count - 1]), d > 0 else { throw fail("bad duration after 'for'") }
            forMs = d
            words.removeLast(2)
        }
        guard let verb = words.first else { throw fail("missing action") }
        let role = words.count >= 2 ? DeviceRole(rawValue: words[1]) : nil
        switch verb {
        case "link":
            var p = ScenarioParser(file: "--faults", rng: SplitMix64(seed: 0))
            let step = try p.linkStep(Array(words.dropFirst()), at: 0, loc: loc, text: words.joined(separator: " "))
            guard case .link(let change) = step.action else { throw fail("not a link fault") }
            if forMs != nil && change.inverse == nil { throw fail("'link \(words[1])' cannot take 'for'") }
            return ScheduledFault(atMs: at, kind: .link(change), forMs: forMs)
        case "kill", "crash", "corrupt", "rollback", "damage-partial-file":
            guard words.count == 2, let r = role else { throw fail("expected '\(verb) phone' or '\(verb) watch'") }
            switch verb {
            case "kill":
                guard forMs != nil else { throw fail("kill takes 'for DURATION' (when it restarts)") }
                return ScheduledFault(atMs: at, kind: .kill(r), forMs: forMs)
            case "crash": return ScheduledFault(atMs: at, kind: .crash(r))
            case "corrupt": return ScheduledFault(atMs: at, kind: .corrupt(r))
            case "damage-partial-file": return ScheduledFault(atMs: at, kind: .damagePartialFile(r))
            default: return ScheduledFault(atMs: at, kind: .rollback(r))
            }
        case "clock":
            var p = ScenarioParser(file: "--faults", rng: SplitMix64(seed: 0))
            let step = try p.step(words, at: 0, loc: loc)
            guard case .clock(let r, let change) = step.action else { throw fail("not a clock fault") }
            switch change {
            case .drift, .freeze: break
            default: if forMs != nil { throw fail("only a drift or a freeze takes 'for'") }
            }
            return ScheduledFault(atMs: at, kind: .clock(r, change), forMs: forMs)
        default:
            throw fail("unknown fault (link …, kill ROLE for D, crash ROLE, clock ROLE …, corrupt ROLE, rollback ROLE, damage-partial-file ROLE)")
        }
    }
}
