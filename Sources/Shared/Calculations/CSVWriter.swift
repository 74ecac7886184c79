/// RFC 4180 CSV text: fields separated by commas, records ended by CRLF (the last one too),
/// a field quoted when it contains a comma, a double quote, CR or LF, and a double quote inside
/// a quoted field written twice. Output is UTF-8 with no byte-order mark.
public enum CSVWriter {
    /// The record terminator RFC 4180 prescribes.
    public static let lineEnding = "\r\n"

    /// True when `field` must be quoted.
    public static func needsQuoting(_ field: String) -> Bool {
        field.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }
    }

    /// One field, quoted when needed: `a,b` → `"a,b"`, `say "hi"` → `"say ""hi"""`.
    public static func escape(_ field: String) -> String {
        guard needsQuoting(field) else { return field }
        var out = "\""
        for ch in field.unicodeScalars {
            if ch == "\"" { out += "\"\"" } else { out.unicodeScalars.append(ch) }
        }
        return out + "\""
    }

    /// One record with its CRLF.
    public static func record(_ fields: [String]) -> String {
        fields.map(escape).joined(separator: ",") + lineEnding
    }

    /// The whole document: every record, each ended by CRLF.
    public static func document(_ records: [[String]]) -> String {
        records.map(record).joined()
    }

    /// The document as UTF-8 bytes.
    public static func bytes(_ records: [[String]]) -> [UInt8] {
        Array(document(records).utf8)
    }
}
