import PeerLinkCore
import PeerLinkPOSIX

/// The classes of faults a sweep draws from; which are on is itself drawn per seed.
public enum FaultClass: String, Sendable, CaseIterable {
    case partition, lossy, latency, bandwidth, slicing
    case closeAfter = "close-after"
    case resets, kills, clocks, corruption, rollback
    case damagePartialFile = "damage-partial-file"
    /// A relay on the link flips a byte of a record now and then: detected, the connection
    /// closed, the peers reconnect and resend.
    case tamper

    /// Parses `a,b,c` (class names); nil when one is unknown.
    public static func list(_ text: String) -> [FaultClass]? {
        let names = text.split(separator: ",").map { String($0).trimmingCharacters() }
        let classes = names.compactMap(FaultClass.init(rawValue:))
        return classes.count == names.count && !classes.isEmpty ? classes : nil
    }
}

/// What one scheduled fault does.
public enum FaultKind: Sendable, Equatable {
    /// A link fault (`link …` of the scenario language); `reset` is instant.
    case link(LinkFaultChange)
    /// `kill -9`; restarted `forMs` later.
    case kill(DeviceRole)
    /// `kill -9` and restart at once.
    case crash(DeviceRole)
    /// A wall-clock change; a drift or a freeze is undone `forMs` later.
    case clock(DeviceRole, ClockChange)
    /// Random bytes in the store: the node quarantines it and starts empty.
    case corrupt(DeviceRole)
    /// The store loses its last commits.
    case rollback(DeviceRole)
    /// Bytes of the node's partial incoming file change while it is down (armed until it holds one).
    case damagePartialFile(DeviceRole)
}

/// One fault at an offset from the scenario's start, undone `forMs` later when it lasts.
public struct ScheduledFault: Sendable, Equatable, CustomStringConvertible {
    public var atMs: Int64
    public var kind: FaultKind
    public var forMs: Int64?

    public init(atMs: Int64, kind: FaultKind, forMs: Int64? = nil) {
        self.atMs = atMs
        self.kind = kind
        self.forMs = forMs
    }

    /// The fault as the `--faults` syntax writes it: `@12m30s link down for 2m`.
    public var description: String {
        let at = "@" + FaultSchedule.durationText(atMs)
        let lasting = forMs.map { " for " + FaultSchedule.durationText($0) } ?? ""
        switch kind {
        case .link(let c): return "\(at) link \(Self.linkText(c))\(lasting)"
        case .kill(let r): return "\(at) kill \(r)\(lasting)"
        case .crash(let r): return "\(at) crash \(r)"
        case .clock(let r, let c): return "\(at) clock \(r) \(Self.clockText(c))\(lasting)"
        case .corrupt(let r): return "\(at) corrupt \(r)"
        case .rollback(let r): return "\(at) rollback \(r)"
        case .damagePartialFile(let r): return "\(at) damage-partial-file \(r)"
        }
    }

    static func linkText(_ c: LinkFaultChange) -> String {
        switch c {
        case .down: "down"
        case .up: "up"
        case .reset: "reset"
        case .clear: "clear"
        case .latency(let l, let j): j > 0 ? "latency \(l)ms jitter \(j)ms" : "latency \(l)ms"
        case .bandwidth(let b): "bandwidth \(b.map(String.init) ?? "off")"
        case .loss(let p): "loss \(percentText(p))"
        case .duplicate(let p): "duplicate \(percentText(p))"
        case .reorder(let p): "reorder \(percentText(p))"
        case .tamper(let p): "tamper \(percentText(p))"
        case .slice(let n): "slice \(n.map(String.init) ?? "off")"
        case .closeAfter(let n): "close-after \(n.map(String.init) ?? "off")"
        }
    }

    static func percentText(_ p: Double) -> String {
        p == p.rounded() ? "\(Int(p))%" : "\(p)%"
    }

    static func clockText(_ c: ClockChange) -> String {
        switch c {
        case .bump(let d): (d < 0 ? "-" : "+") + FaultSchedule.durationText(abs(d))
        case .drift(let ppm): "drift \(ppm)ppm"
        case .freeze: "freeze"
        case .unfreeze: "unfreeze"
        case .reset: "reset"
        }
    }

    /// The scenario steps that apply (and undo) the fault, at `startMs + atMs`.
    func steps(startMs: EpochMs, index: Int) -> [ScenarioStep] {
        let loc = SourceLocation(file: "faults", line: index + 1, column: 1)
        let t = startMs + atMs
        let text = description
        func step(_ at: EpochMs, _ a: ScenarioAction, _ what: String) -> ScenarioStep {
            ScenarioStep(atMs: at, action: a, location: loc, text: what)
        }
        let end = t + (forMs ?? 0)
        switch kind {
        case .link(let c):
            var out = [step(t, .link(c), text)]
            if forMs != nil, let undo = c.inverse { out.append(step(end, .link(undo), "(end of) \(text)")) }
            return out
        case .kill(let r):
            return [step(t, .kill(r), text), step(end, .restart(r), "(end of) \(text)")]
        case .crash(let r):
            return [step(t, .kill(r), text), step(t, .restart(r), "(restart after) \(text)")]
        case .clock(let r, let c):
            var out = [step(t, .clock(r, c), text)]
            if forMs != nil {
                switch c {
                case .drift: out.append(step(end, .clock(r, .drift(ppm: 0)), "(end of) \(text)"))
                case .freeze: out.append(step(end, .clock(r, .unfreeze), "(end of) \(text)"))
                default: break
                }
            }
            return out
        case .corrupt(let r):
            return [step(t, .corruptStore(r), text)]
        case .rollback(let r):
            return [step(t, .rollbackStore(r), text)]
        case .damagePartialFile(let r):
            return [step(t, .damagePartialFile(r), text)]
        }
    }

    /// When the fault is over (its undo, or its start when it is instant).
    var endMs: Int64 { atMs + (forMs ?? 0) }
}

/// The faults of one sweep seed: drawn from the seed (`random`) or given (`parse`).
public struct FaultSchedule: Sendable, Equatable, CustomStringConvertible {
    public var faults: [ScheduledFault]
    /// The classes that were on when it was drawn (empty when parsed).
    public var classes: [FaultClass] = []

    public init(faults: [ScheduledFault], classes: [FaultClass] = []) {
        self.faults = faults
        self.classes = classes
    }

    /// `@1m link down for 30s; @2m crash watch` (`none` when empty): what `--faults` takes.
    public var description: String {
        faults.isEmpty ? "none" : faults.map(\.description).joined(separator: "; ")
    }

    /// `1h2m3s`, `250ms`, `0s`.
    public static func durationText(_ ms: Int64) -> String {
        if ms == 0 { return "0s" }
        var rest = ms
        var out = ""
        for (unit, name) in [(Int64(86_400_000), "d"), (3_600_000, "h"), (60_000, "m"), (1000, "s"), (1, "ms")] where rest >= unit {
            out += "\(rest / unit)\(name)"
            rest %= unit
        }
        return out
    }
}
