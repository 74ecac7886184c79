import PeerLink
import Shared

/// A scenario error: `file:line:col: error: message`.
public struct ScenarioError: Error, Sendable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String
    public var description: String { "\(location): error: \(message)" }
}

/// Reads the scenario language (docs/SCENARIOS.md).
///
/// ```
/// # comment
/// scenario "Morning run"
/// start 2026-06-01T07:00:00+09:00
/// timezone Asia/Tokyo
/// seed 42
/// 07:00:00 watch workout start running
/// +5s watch hr 118
/// every 5s for 30m: watch hr 120..165
/// 07:31:00 expect converged
/// +0s expect phone workouts == 1
/// ```
public struct ScenarioParser {
    let file: String
    var rng: SplitMix64

    /// Parses `text`; `file` names it in errors.
    public static func parse(_ text: String, file: String) throws(ScenarioError) -> Scenario {
        var p = ScenarioParser(file: file, rng: SplitMix64(seed: 0))
        return try p.parse(text)
    }

    mutating func parse(_ text: String) throws(ScenarioError) -> Scenario {
        var name = file
        var start: EpochMs?
        var timeZone = "Asia/Tokyo"
        var language = AppLanguage.ja
        var seed: UInt64 = 1
        var steps: [ScenarioStep] = []
        var last: EpochMs?
        var calendar = LocalCalendar(identifier: timeZone)!
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, rawLine) in lines.enumerated() {
            let lineNo = index + 1
            var line = Substring(rawLine)
            if let hash = Self.commentStart(line) { line = line[..<hash] }
            let indent = line.prefix { $0 == " " || $0 == "\t" }.count
            let content = String(line.dropFirst(indent)).trimmingCharacters()
            if content.isEmpty { continue }
            let loc = SourceLocation(file: file, line: lineNo, column: indent + 1)
            guard let words = NodeCommand(line: content)?.words, let head = words.first else {
                throw ScenarioError(location: loc, message: "unclosed quote")
            }
            let headerKeyword = ["scenario", "start", "timezone", "seed", "locale"].contains(head)
            if headerKeyword {
                guard steps.isEmpty else { throw ScenarioError(location: loc, message: "'\(head)' belongs in the header, before the first step") }
                guard words.count == 2 else { throw ScenarioError(location: loc, message: "'\(head)' takes one value") }
                let valueLoc = SourceLocation(file: file, line: lineNo, column: indent + head.count + 2)
                switch head {
                case "scenario": name = words[1]
                case "start":
                    guard let ms = ISOInstant.parse(words[1]) else {
                        throw ScenarioError(location: valueLoc, message: "start takes an ISO date-time with an offset, like 2026-06-01T07:00:00+09:00")
                    }
                    start = ms
                case "timezone":
                    guard let c = LocalCalendar(identifier: words[1]) else { throw ScenarioError(location: valueLoc, message: "unknown time zone '\(words[1])'") }
                    timeZone = words[1]
                    calendar = c
                case "seed":
                    guard let s = UInt64(words[1]) else { throw ScenarioError(location: valueLoc, message: "seed takes an unsigned integer") }
                    seed = s
                    rng = SplitMix64(seed: s)
                case "locale":
                    guard let l = AppLanguage(rawValue: words[1]) else { throw ScenarioError(location: valueLoc, message: "locale takes ja or en") }
                    language = l
                default: break
                }
                continue
            }
            guard let startMs = start else { throw ScenarioError(location: loc, message: "a step before the header's 'start' line") }
            let previous = last ?? startMs
            let at = try time(words[0], previous: previous, start: startMs, calendar: calendar, loc: loc)
            guard at >= previous else {
                throw ScenarioError(location: loc, message: "step time \(words[0]) is before the previous step; steps must be in time order")
            }
            var rest = Array(words.dropFirst())
            let actionColumn = indent + words[0].count + 2
            if rest.first == "every" {
                // every PERIOD for LENGTH: ACTION
                guard rest.count >= 5, rest[2] == "for", rest[3].hasSuffix(":") || rest[4] == ":" else {
                    throw ScenarioError(location: loc, message: "expected 'every PERIOD for LENGTH: ACTION'")
                }
                guard let period = Self.duration(rest[1]), period > 0 else { throw ScenarioError(location: loc, message: "bad period '\(rest[1])'") }
                let lengthWord = rest[3].hasSuffix(":") ? String(rest[3].dropLast()) : rest[3]
                guard let length = Self.duration(lengthWord) else { throw ScenarioError(location: loc, message: "bad length '\(lengthWord)'") }
                rest = Array(rest.dropFirst(rest[4] == ":" ? 5 : 4))
                var t = at
                while t < at + length {
                    steps.append(try step(rest, at: t, loc: SourceLocation(file: file, line: lineNo, column: actionColumn)))
                    t += period
                }
                last = at
            } else {
                steps.append(try step(rest, at: at, loc: SourceLocation(file: file, line: lineNo, column: actionColumn)))
                last = at
            }
        }
        guard let startMs = start else {
            throw ScenarioError(location: SourceLocation(file: file, line: max(1, lines.count), column: 1), message: "missing 'start' line in the header")
        }
        steps.sort { $0.atMs < $1.atMs }  // stable: 'every' expansions interleave with later steps by time
        return Scenario(name: name, file: file, startMs: startMs, timeZone: timeZone, language: language, seed: seed, steps: steps)
    }

    static func commentStart(_ line: Substring) -> Substring.Index? {
        var inQuotes = false
        for i in line.indices {
            if line[i] == "\"" { inQuotes.toggle() }
            if line[i] == "#" && !inQuotes { return i }
        }
        return nil
    }

    /// `HH:MM[:SS]` on the start day (or a later day when it wraps past midnight), or `+DURATION`.
    func time(_ w: String, previous: EpochMs, start: EpochMs, calendar: LocalCalendar, loc: SourceLocation) throws(ScenarioError) -> EpochMs {
        if w.hasPrefix("+") {
            guard let d = Self.duration(String(w.dropFirst())) else { throw ScenarioError(location: loc, message: "bad duration '\(w)' (e.g. +5s, +10m, +1h30m)") }
            return previous + d
        }
        let parts = w.split(separator: ":").map { Int($0) }
        guard parts.count == 2 || parts.count == 3, parts.allSatisfy({ $0 != nil }), parts[0]! < 24, parts[1]! < 60, (parts.count == 2 || parts[2]! < 60) else {
            throw ScenarioError(location: loc, message: "expected a time (HH:MM[:SS] or +DURATION), found '\(w)'")
        }
        var day = calendar.civilDate(previous)
        var t = calendar.instant(day, hour: parts[0]!, minute: parts[1]!, second: parts.count == 3 ? parts[2]! : 0)
        if t < previous {
            day = day.adding(days: 1)
            t = calendar.instant(day, hour: parts[0]!, minute: parts[1]!, second: parts.count == 3 ? parts[2]! : 0)
        }
        return t
    }

    /// `1h30m`, `5s`, `250ms`, `2d` → milliseconds.
    public static func duration(_ s: String) -> Int64? {
        guard !s.isEmpty else { return nil }
        var total: Int64 = 0
        var number: Int64 = 0
        var hasDigits = false
        let u = Array(s.utf8)
        var i = 0
        while i < u.count {
            let c = u[i]
            if c >= 0x30 && c <= 0x39 {
                number = number * 10 + Int64(c - 0x30)
                hasDigits = true
                guard number < 1 << 40 else { return nil }
                i += 1
                continue
            }
            guard hasDigits else { return nil }
            let unit: Int64
            if c == UInt8(ascii: "m"), i + 1 < u.count, u[i + 1] == UInt8(ascii: "s") { unit = 1; i += 1 }
            else if c == UInt8(ascii: "d") { unit = 86_400_000 }
            else if c == UInt8(ascii: "h") { unit = 3_600_000 }
            else if c == UInt8(ascii: "m") { unit = 60_000 }
            else if c == UInt8(ascii: "s") { unit = 1000 }
            else { return nil }
            total += number * unit
            number = 0
            hasDigits = false
            i += 1
        }
        return hasDigits ? nil : total
    }

    mutating func step(_ words: [String], at: EpochMs, loc: SourceLocation) throws(ScenarioError) -> ScenarioStep {
        guard let target = words.first else { throw ScenarioError(location: loc, message: "missing action after the time") }
        switch target {
        case "phone", "watch":
            guard words.count >= 2 else { throw ScenarioError(location: loc, message: "missing command for the \(target)") }
            let expanded = try Array(words.dropFirst()).map { w throws(ScenarioError) in try expandRange(w, loc: loc) }
            let cmd = NodeCommand(words: expanded, raw: expanded.map { $0.contains(" ") ? "\"\($0)\"" : $0 }.joined(separator: " "))
            return ScenarioStep(atMs: at, action: .node(target == "phone" ? .phone : .watch, cmd), location: loc, text: "\(target) \(cmd.raw)")
        case "expect":
            if words.count == 2 && words[1] == "converged" {
                return ScenarioStep(atMs: at, action: .expectConverged, location: loc, text: "expect converged")
            }
            guard words.count >= 5, let role = DeviceRole(rawValue: words[1]),
                  let op = ExpectOperator(rawValue: words[words.count - 2]) else {
                throw ScenarioError(location: loc, message: "expected 'expect converged' or 'expect phone|watch PATH… OP VALUE' (OP one of == != < <= > >=)")
            }
            let path = Array(words[2..<(words.count - 2)])
            let literal = words[words.count - 1]
            let value: PlistValue = (try? PlistValue.parseJSON(literal)) ?? .string(literal)
            return ScenarioStep(atMs: at, action: .expectValue(role, path: path, op, value), location: loc, text: words.joined(separator: " "))
        default:
            throw ScenarioError(location: loc, message: "unknown action '\(target)' (expected phone, watch, expect or every)")
        }
    }

    /// `120..165` becomes one integer drawn from the scenario's seeded generator.
    mutating func expandRange(_ w: String, loc: SourceLocation) throws(ScenarioError) -> String {
        let parts = w.components(separatedBy: "..")
        guard parts.count == 2, let lo = Int(parts[0]), let hi = Int(parts[1]) else { return w }
        guard lo <= hi else { throw ScenarioError(location: loc, message: "empty range \(w)") }
        return String(rng.next(in: lo...hi))
    }
}

extension String {
    func components(separatedBy sep: String) -> [String] {
        var out: [String] = []
        var rest = Substring(self)
        while let r = rest.range(of: sep) {
            out.append(String(rest[..<r.lowerBound]))
            rest = rest[r.upperBound...]
        }
        out.append(String(rest))
        return out
    }
}
