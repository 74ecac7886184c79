import Foundation
import PeerLinkCore

/// The steps of the scenario language: what follows a line's time (docs/SCENARIOS.md, "Steps").
extension ScenarioParser {
    mutating func step(_ words: [String], at: EpochMs, loc: SourceLocation) throws(ScenarioError) -> ScenarioStep {
        guard let target = words.first else { throw ScenarioError(location: loc, message: "missing action after the time") }
        switch target {
        case "phone", "watch":
            guard words.count >= 2 else { throw ScenarioError(location: loc, message: "missing command for the \(target)") }
            let expanded = try Array(words.dropFirst()).map { w throws(ScenarioError) in try expandRange(w, loc: loc) }
            let cmd = NodeCommand(words: expanded, raw: Self.commandText(expanded))
            return ScenarioStep(atMs: at, action: .node(target == "phone" ? .phone : .watch, cmd), location: loc, text: "\(target) \(cmd.raw)")
        case "expect" where words.count >= 3 && words[1] == "always":
            // `expect always …`: kept under a sweep's faults.
            var s = try step(["expect"] + words.dropFirst(2), at: at, loc: loc)
            guard case .expectConverged = s.action else {
                s.always = true
                s.text = "expect always " + s.text.dropFirst("expect ".count)
                return s
            }
            throw ScenarioError(location: loc, message: "'expect converged' is always kept: 'always' is for a value or a refusal")
        case "expect":
            if words.count == 2 && words[1] == "converged" {
                return ScenarioStep(atMs: at, action: .expectConverged, location: loc, text: "expect converged")
            }
            if words.count >= 4, let role = DeviceRole(rawValue: words[1]), words[2] == "refuses" {
                let cmdWords = Array(words.dropFirst(3))
                let cmd = NodeCommand(words: cmdWords, raw: Self.commandText(cmdWords))
                return ScenarioStep(atMs: at, action: .expectRefusal(role, cmd), location: loc, text: words.joined(separator: " "))
            }
            guard words.count >= 5, let role = DeviceRole(rawValue: words[1]),
                  let op = ExpectOperator(rawValue: words[words.count - 2]) else {
                throw ScenarioError(location: loc, message: "expected 'expect converged', 'expect phone|watch refuses COMMAND…' or 'expect phone|watch PATH… OP VALUE' (OP one of == != < <= > >=)")
            }
            let path = Array(words[2..<(words.count - 2)])
            let literal = words[words.count - 1]
            let value: PlistValue = Self.expectedValue(word: literal, op: op, line: currentLine)
            // The report shows a container VALUE as JSON (its quotes were lost to tokenizing).
            let shown: String
            switch value {
            case .array, .dictionary: shown = (words.dropLast() + [value.jsonString()]).joined(separator: " ")
            default: shown = words.joined(separator: " ")
            }
            return ScenarioStep(atMs: at, action: .expectValue(role, path: path, op, value), location: loc, text: shown)
        case "stranger":
            guard words.count == 2, words[1] == "connects" else { throw ScenarioError(location: loc, message: "expected 'stranger connects'") }
            return ScenarioStep(atMs: at, action: .stranger, location: loc, text: "stranger connects")
        case "link":
            return try linkStep(Array(words.dropFirst()), at: at, loc: loc, text: words.joined(separator: " "))
        case "kill", "restart", "crash", "corrupt", "rollback", "damage-partial-file":
            guard words.count == 2, let role = DeviceRole(rawValue: words[1]) else {
                throw ScenarioError(location: loc, message: "expected '\(target) phone' or '\(target) watch'")
            }
            let text = words.joined(separator: " ")
            switch target {
            case "kill": return ScenarioStep(atMs: at, action: .kill(role), location: loc, text: text)
            case "restart": return ScenarioStep(atMs: at, action: .restart(role), location: loc, text: text)
            case "corrupt": return ScenarioStep(atMs: at, action: .corruptStore(role), location: loc, text: text)
            case "rollback": return ScenarioStep(atMs: at, action: .rollbackStore(role), location: loc, text: text)
            case "damage-partial-file": return ScenarioStep(atMs: at, action: .damagePartialFile(role), location: loc, text: text)
            default:
                pendingSteps.append(ScenarioStep(atMs: at, action: .restart(role), location: loc, text: "restart \(role)"))
                return ScenarioStep(atMs: at, action: .kill(role), location: loc, text: text)
            }
        case "clock":
            guard words.count >= 3, let role = DeviceRole(rawValue: words[1]) else {
                throw ScenarioError(location: loc, message: "expected 'clock phone|watch +DURATION|-DURATION|drift PPMppm|freeze|unfreeze|reset'")
            }
            let text = words.joined(separator: " ")
            let change: ClockChange
            switch words[2] {
            case "freeze": change = .freeze
            case "unfreeze": change = .unfreeze
            case "reset": change = .reset
            case "drift":
                guard words.count == 4, let ppm = Int64(words[3].hasSuffix("ppm") ? String(words[3].dropLast(3)) : words[3]) else {
                    throw ScenarioError(location: loc, message: "expected 'clock \(role) drift N' (parts per million, e.g. 500ppm or -200ppm)")
                }
                change = .drift(ppm: ppm)
            default:
                let w = words[2]
                guard w.hasPrefix("+") || w.hasPrefix("-"), let d = Self.duration(String(w.dropFirst())) else {
                    throw ScenarioError(location: loc, message: "expected a clock bump like +7m or -1h, found '\(w)'")
                }
                change = .bump(w.hasPrefix("-") ? -d : d)
            }
            return ScenarioStep(atMs: at, action: .clock(role, change), location: loc, text: text)
        default:
            throw ScenarioError(location: loc, message: "unknown action '\(target)' (expected phone, watch, expect, link, kill, restart, crash, clock, corrupt, rollback, damage-partial-file, stranger or every)")
        }
    }

    /// `link down|up|reset|clear`, `link latency 50ms [jitter 20ms]`, `link bandwidth 8000`
    /// (bytes per second) `| off`, `link loss|duplicate|reorder|tamper 10%`, `link slice 7 | off`,
    /// `link close-after 5000 | off`; any of them may end with `for DURATION`.
    mutating func linkStep(_ args: [String], at: EpochMs, loc: SourceLocation, text: String) throws(ScenarioError) -> ScenarioStep {
        var words = args
        var forMs: Int64?
        if words.count >= 2, words[words.count - 2] == "for" {
            guard let d = Self.duration(words[words.count - 1]), d > 0 else { throw ScenarioError(location: loc, message: "bad duration after 'for'") }
            forMs = d
            words.removeLast(2)
        }
        func percent(_ w: String) throws(ScenarioError) -> Double {
            guard w.hasSuffix("%"), let v = Double(w.dropLast()), v >= 0, v <= 100 else {
                throw ScenarioError(location: loc, message: "expected a percentage like 10%, found '\(w)'")
            }
            return v
        }
        func count(_ w: String) throws(ScenarioError) -> Int64? {
            if w == "off" { return nil }
            guard let v = Int64(w), v > 0 else { throw ScenarioError(location: loc, message: "expected a positive number or 'off', found '\(w)'") }
            return v
        }
        guard let verb = words.first else { throw ScenarioError(location: loc, message: "missing link fault") }
        let change: LinkFaultChange
        switch (verb, words.count) {
        case ("down", 1): change = .down
        case ("up", 1): change = .up
        case ("reset", 1): change = .reset
        case ("clear", 1): change = .clear
        case ("latency", 2), ("latency", 4):
            guard let l = Self.duration(words[1]) else { throw ScenarioError(location: loc, message: "bad latency '\(words[1])'") }
            var j: Int64 = 0
            if words.count == 4 {
                guard words[2] == "jitter", let jj = Self.duration(words[3]) else { throw ScenarioError(location: loc, message: "expected 'jitter DURATION'") }
                j = jj
            }
            change = .latency(l, jitterMs: j)
        case ("bandwidth", 2): change = .bandwidth(try count(words[1]))
        case ("loss", 2): change = .loss(try percent(words[1]))
        case ("duplicate", 2): change = .duplicate(try percent(words[1]))
        case ("reorder", 2): change = .reorder(try percent(words[1]))
        case ("tamper", 2): change = .tamper(try percent(words[1]))
        case ("slice", 2): change = .slice(try count(words[1]).map { Int($0) })
        case ("close-after", 2): change = .closeAfter(try count(words[1]))
        default:
            throw ScenarioError(location: loc, message: "unknown link fault '\(words.joined(separator: " "))' (down, up, reset, clear, latency, bandwidth, loss, duplicate, reorder, tamper, slice, close-after)")
        }
        if let d = forMs {
            guard let undo = change.inverse else { throw ScenarioError(location: loc, message: "'link \(verb)' cannot take 'for'") }
            pendingSteps.append(ScenarioStep(atMs: at + d, action: .link(undo), location: loc, text: "(end of) \(text)"))
        }
        return ScenarioStep(atMs: at, action: .link(change), location: loc, text: text)
    }

    /// `words` as a command line: a word holding a space is quoted. (The space is looked for
    /// on the UTF-8 view: Foundation's `contains(" ")` cost ~3 k instructions a word.)
    static func commandText(_ words: [String]) -> String {
        words.map { $0.utf8.contains(UInt8(ascii: " ")) ? "\"\($0)\"" : $0 }.joined(separator: " ")
    }

    /// `120..165` becomes one integer drawn from the scenario's seeded generator.
    mutating func expandRange(_ w: String, loc: SourceLocation) throws(ScenarioError) -> String {
        // Exactly two pieces around one `..` (as `components(separatedBy: "..")` would give),
        // found on the UTF-8 view: the generic collection split cost ~14 k instructions a word.
        let u = w.utf8
        guard let dot = u.firstIndex(of: UInt8(ascii: ".")) else { return w }  // most words: no range
        let second = u.index(after: dot)
        guard second < u.endIndex, u[second] == UInt8(ascii: ".") else { return w }
        let loText = w[..<dot], hiText = w[u.index(after: second)...]
        // A further `.` makes a third piece or a non-integer: the word stays as written.
        guard !hiText.utf8.contains(UInt8(ascii: ".")), let lo = Int(loText), let hi = Int(hiText) else { return w }
        guard lo <= hi else { throw ScenarioError(location: loc, message: "empty range \(w)") }
        return String(rng.next(in: lo...hi))
    }
}
