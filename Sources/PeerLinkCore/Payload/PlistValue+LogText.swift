/// A value the peer sent, as a log line shows it: bounded, so a paired peer that sends
/// payloads the app ignores cannot grow the node's log by more than a line's length each
/// (the payloads themselves go up to 64 KiB, contexts to 256 KiB).
extension PlistValue {
    /// The most characters `logSummary` and `logText` give.
    public static let logTextLimit = 200

    /// The value's canonical size and, for a dictionary, its top-level keys (as JSON strings,
    /// in UTF-8 order) — never the values: `1234 bytes, 2 keys: "a", "type"`; for another
    /// value `9 bytes, a double`. At most `limit` characters (cut with "…").
    public func logSummary(limit: Int = PlistValue.logTextLimit) -> String {
        let size = CanonicalEncoding.encodedSize(self)
        guard case .dictionary(let d) = self else { return Self.cutForLog("\(size) bytes, \(kindName)", limit) }
        var text = "\(size) bytes, \(d.count) key\(d.count == 1 ? "" : "s")"
        var separator = ": "
        for key in d.keys.sorted(by: CanonicalEncoding.utf8Less) {
            if text.count > limit { break }  // the rest would be cut anyway
            text += separator + PlistValue.string(key).jsonString()
            separator = ", "
        }
        return Self.cutForLog(text, limit)
    }

    /// The value's JSON when it has at most `limit` characters; else its first characters,
    /// "…" and the value's canonical size, in `limit` characters in all.
    public func logText(limit: Int = PlistValue.logTextLimit) -> String {
        let json = jsonString()
        guard json.count > limit else { return json }
        let tail = "… (\(CanonicalEncoding.encodedSize(self)) bytes)"
        return String(json.prefix(max(0, limit - tail.count))) + tail
    }

    /// `text` whole when it fits in `limit` characters, else its first `limit - 1` and "…".
    static func cutForLog(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(max(0, limit - 1))) + "…"
    }

    /// What kind of value this is, for a summary: "a string", "an array of 3"…
    var kindName: String {
        switch self {
        case .string: "a string"
        case .int: "an integer"
        case .double: "a double"
        case .bool: "a boolean"
        case .date: "a date"
        case .data: "data"
        case .array(let a): "an array of \(a.count)"
        case .dictionary(let d): "a dictionary of \(d.count)"
        }
    }
}
