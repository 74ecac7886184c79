import PeerLinkCore

extension FaultKind {
    /// The class a fault of this kind belongs to.
    public var faultClass: FaultClass {
        switch self {
        case .link(let c):
            switch c {
            case .down, .up, .clear: .partition
            case .loss, .duplicate, .reorder: .lossy
            case .latency: .latency
            case .bandwidth: .bandwidth
            case .slice: .slicing
            case .closeAfter: .closeAfter
            case .reset: .resets
            case .tamper: .tamper
            }
        case .kill, .crash: .kills
        case .clock: .clocks
        case .corrupt: .corruption
        case .rollback: .rollback
        case .damagePartialFile: .damagePartialFile
        }
    }
}

/// Drawing a random fault schedule from a seed.
extension FaultSchedule {
    // MARK: - Limits

    /// The chance of each fault class being on for a seed (at least one always is).
    public static let classOnPercent = 40.0
    /// Faults drawn per class that is on.
    public static let faultsPerClass = 1...3
    /// The longest partition, kill, or link-fault window.
    public static let longestPartitionMs: Int64 = 20 * 60_000
    public static let longestKillMs: Int64 = 10 * 60_000
    public static let longestWindowMs: Int64 = 20 * 60_000
    /// The shortest window of a lasting fault.
    public static let shortestWindowMs: Int64 = 1_000

    /// A schedule over `spanMs` (the scenario's time span), the same for the same seed: which
    /// classes are on, then one to three faults of each (but one damaged store at most), at uniform times, with durations and
    /// strengths drawn from each class's ranges.
    /// With `allowing`, the faults of other classes are left out of that same draw (so a
    /// seed's schedule without a class is its full schedule minus those faults).
    public static func random(seed: UInt64, spanMs: Int64, allowing allowed: Set<FaultClass> = Set(FaultClass.allCases)) -> FaultSchedule {
        var rng = SplitMix64(seed: seed &* 0xD1B5_4A32_D192_ED03 ^ 0x5357_4545_502D_4641)
        // The classes drawn from the seed's first generator, as before `tamper` existed: a
        // seed's other faults are the same with it; `tamper` is drawn from a second one.
        let drawnFirst = FaultClass.allCases.filter { $0 != .tamper }
        var classes = drawnFirst.filter { _ in rng.chance(classOnPercent) }
        if classes.isEmpty { classes = [drawnFirst[rng.next(in: 0...(drawnFirst.count - 1))]] }
        var tamperRng = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15 ^ 0x5441_4D50_4552_2121)
        let tamperOn = tamperRng.chance(classOnPercent)
        let span = max(1_000, spanMs)
        var faults: [ScheduledFault] = []
        var storeDamaged = false
        for c in classes {
            let isStoreDamage = c == .corruption || c == .rollback
            for _ in 0..<rng.next(in: faultsPerClass) {
                let at = Int64(rng.next(in: 0...Int(span / 1000))) * 1000
                let fault = draw(c, at: at, span: span, rng: &rng)
                // At most one damaged store per seed: PeerLink repairs any single loss of a
                // store (corrupt or rolled back) from the peer; when both lose what they had
                // acknowledged to each other, nothing is left to repair from.
                if isStoreDamage {
                    if storeDamaged { continue }
                    storeDamaged = true
                }
                faults.append(fault)
            }
        }
        if tamperOn {
            classes.append(.tamper)
            for _ in 0..<tamperRng.next(in: faultsPerClass) {
                faults.append(draw(.tamper, at: Int64(tamperRng.next(in: 0...Int(span / 1000))) * 1000, span: span, rng: &tamperRng))
            }
        }
        faults.sort { $0.atMs < $1.atMs }
        if allowed.count < FaultClass.allCases.count {
            faults = faults.filter { allowed.contains($0.kind.faultClass) }
            classes = classes.filter { allowed.contains($0) }
        }
        return FaultSchedule(faults: faults, classes: classes)
    }

    static func window(_ longest: Int64, span: Int64, rng: inout SplitMix64) -> Int64 {
        let top = max(shortestWindowMs, min(longest, span / 3))
        // Round to whole seconds: the schedule reads well and replays exactly.
        return Int64(rng.next(in: Int(shortestWindowMs / 1000)...Int(top / 1000))) * 1000
    }

    static func role(_ rng: inout SplitMix64) -> DeviceRole { rng.next(in: 0...1) == 0 ? .phone : .watch }

    static func draw(_ c: FaultClass, at: Int64, span: Int64, rng: inout SplitMix64) -> ScheduledFault {
        switch c {
        case .partition:
            return ScheduledFault(atMs: at, kind: .link(.down), forMs: window(longestPartitionMs, span: span, rng: &rng))
        case .lossy:
            let p = Double(rng.next(in: 1...40))
            let change: LinkFaultChange = switch rng.next(in: 0...2) {
            case 0: .loss(p)
            case 1: .duplicate(p)
            default: .reorder(p)
            }
            return ScheduledFault(atMs: at, kind: .link(change), forMs: window(longestWindowMs, span: span, rng: &rng))
        case .latency:
            let l = rng.next(in: 5...800)
            return ScheduledFault(atMs: at, kind: .link(.latency(Int64(l), jitterMs: Int64(rng.next(in: 0...(l / 2))))),
                                  forMs: window(longestWindowMs, span: span, rng: &rng))
        case .bandwidth:
            return ScheduledFault(atMs: at, kind: .link(.bandwidth(Int64(rng.next(in: 200...20_000)))),
                                  forMs: window(longestWindowMs, span: span, rng: &rng))
        case .slicing:
            return ScheduledFault(atMs: at, kind: .link(.slice(rng.next(in: 1...64))), forMs: window(longestWindowMs, span: span, rng: &rng))
        case .closeAfter:
            return ScheduledFault(atMs: at, kind: .link(.closeAfter(Int64(rng.next(in: 100...20_000)))),
                                  forMs: window(longestWindowMs, span: span, rng: &rng))
        case .resets:
            return ScheduledFault(atMs: at, kind: .link(.reset))
        case .kills:
            let r = role(&rng)
            if rng.next(in: 0...1) == 0 { return ScheduledFault(atMs: at, kind: .crash(r)) }
            return ScheduledFault(atMs: at, kind: .kill(r), forMs: window(longestKillMs, span: span, rng: &rng))
        case .clocks:
            let r = role(&rng)
            switch rng.next(in: 0...2) {
            case 0:
                let d = Int64(rng.next(in: 1...7200)) * 1000
                return ScheduledFault(atMs: at, kind: .clock(r, .bump(rng.next(in: 0...1) == 0 ? d : -d)))
            case 1:
                let ppm = Int64(rng.next(in: 100...5000))
                return ScheduledFault(atMs: at, kind: .clock(r, .drift(ppm: rng.next(in: 0...1) == 0 ? ppm : -ppm)),
                                      forMs: window(longestWindowMs, span: span, rng: &rng))
            default:
                return ScheduledFault(atMs: at, kind: .clock(r, .freeze), forMs: window(longestWindowMs, span: span, rng: &rng))
            }
        case .corruption:
            return ScheduledFault(atMs: at, kind: .corrupt(role(&rng)))
        case .rollback:
            return ScheduledFault(atMs: at, kind: .rollback(role(&rng)))
        case .damagePartialFile:
            return ScheduledFault(atMs: at, kind: .damagePartialFile(role(&rng)))
        case .tamper:
            return ScheduledFault(atMs: at, kind: .link(.tamper(Double(rng.next(in: 1...20)))), forMs: window(longestWindowMs, span: span, rng: &rng))
        }
    }
}
