import PeerLinkCore

/// The words of the watch's control-channel commands that are not plain numbers: durations,
/// extended-runtime kinds and app presences. Pure parsing, shared by the app and its tests.
public enum WatchCommandWords {
    /// The longest duration a command accepts (`energy --over`, `steps --over`): one day.
    public static let maxDurationMs: Int64 = 24 * 60 * 60 * 1000

    // MARK: - Numbers

    /// `Double(text)`; a plain run of up to 15 ASCII digits (a heart rate, on every sample) is
    /// read without the general parser: such an integer is exactly a double.
    public static func number(_ text: String) -> Double? {
        var text = text
        let whole: Int? = text.withUTF8 { b in
            guard b.count >= 1, b.count <= 15 else { return nil }
            var n = 0
            for c in b {
                guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
                n = n * 10 + Int(c &- UInt8(ascii: "0"))
            }
            return n
        }
        if let whole { return Double(whole) }
        return Double(text)
    }

    // MARK: - Durations

    /// Parses a duration as the scenario language writes it: units `ms`, `s`, `m`, `h`, `d`,
    /// combined (`1h30m`, `250ms`, `5s`); nil when malformed, zero, or over `maxDurationMs`. A bare number is refused (the unit must be explicit).
    public static func durationMs(_ text: String) -> Int64? {
        DurationWords.parseMs(text, maxMs: maxDurationMs)
    }

    // MARK: - Names

    /// An extended-runtime kind by its raw value or kebab-case name (`self-care`, `selfCare`).
    public static func runtimeKind(_ word: String) -> ExtendedRuntimeKind? {
        if let k = ExtendedRuntimeKind(rawValue: word) { return k }
        return ExtendedRuntimeKind.allCases.first { kebab($0.rawValue) == word }
    }

    /// `selfCare` → `self-care`.
    public static func kebab(_ camel: String) -> String {
        var out = ""
        for ch in camel {
            if ch.isUppercase { out += "-" + ch.lowercased() } else { out.append(ch) }
        }
        return out
    }

    /// `stepGoal` from `step-goal`: the inverse of `kebab`.
    public static func camel(_ kebab: String) -> String {
        var out = ""
        var upper = false
        for ch in kebab {
            if ch == "-" { upper = true; continue }
            out += upper ? ch.uppercased() : String(ch)
            upper = false
        }
        return out
    }
}
