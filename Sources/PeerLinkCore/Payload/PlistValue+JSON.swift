import Foundation

extension PlistValue {
    /// JSON text with keys sorted (byte order), no insignificant spaces: stable across runs.
    /// Dates become numbers of seconds since 1970; data becomes a base64 string; a double
    /// that is not finite becomes null.
    public func jsonString() -> String {
        var out = ""
        writeJSON(into: &out)
        return out
    }

    private func writeJSON(into out: inout String) {
        switch self {
        case .string(let s): PlistValue.writeJSONString(s, into: &out)
        case .int(let i): out += String(i)
        case .double(let d): out += PlistValue.jsonNumber(d)
        case .bool(let b): out += b ? "true" : "false"
        case .date(let d): out += PlistValue.jsonNumber(d)
        case .data(let bytes): PlistValue.writeJSONString(Data(bytes).base64EncodedString(), into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.writeJSON(into: &out)
            }
            out += "]"
        case .dictionary(let dict):
            out += "{"
            for (i, key) in dict.keys.sorted(by: CanonicalEncoding.utf8Less).enumerated() {
                if i > 0 { out += "," }
                PlistValue.writeJSONString(key, into: &out)
                out += ":"
                dict[key]!.writeJSON(into: &out)
            }
            out += "}"
        }
    }

    static func jsonNumber(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d.rounded() == d, abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }

    static func writeJSONString(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// Parses JSON text (objects, arrays, strings, numbers, booleans). `null` is refused:
    /// it is not a property-list value. Numbers without a fraction or exponent become `.int`.
    public static func parseJSON(_ text: String) throws(JSONParseError) -> PlistValue {
        var p = JSONParser(Array(text.utf8))
        p.skipSpace()
        let v = try p.value(depth: 0)
        p.skipSpace()
        guard p.i == p.b.count else { throw p.error("trailing characters") }
        return v
    }
}

/// Why JSON text could not be read; `offset` is the byte where it went wrong.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public var offset: Int
    public var reason: String
    public var description: String { "\(reason) at byte \(offset)" }
}

struct JSONParser {
    let b: [UInt8]
    var i = 0
    init(_ b: [UInt8]) { self.b = b }

    func error(_ reason: String) -> JSONParseError { JSONParseError(offset: i, reason: reason) }

    mutating func skipSpace() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
    }

    mutating func literal(_ word: String) -> Bool {
        let w = Array(word.utf8)
        guard i + w.count <= b.count, Array(b[i..<i + w.count]) == w else { return false }
        i += w.count
        return true
    }

    mutating func value(depth: Int) throws(JSONParseError) -> PlistValue {
        guard depth <= CanonicalEncoding.maxDepth else { throw error("nesting too deep") }
        guard i < b.count else { throw error("unexpected end of input") }
        switch b[i] {
        case UInt8(ascii: "{"):
            i += 1
            var dict: [String: PlistValue] = [:]
            skipSpace()
            if i < b.count, b[i] == UInt8(ascii: "}") { i += 1; return .dictionary(dict) }
            while true {
                skipSpace()
                guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw error("expected a string key") }
                let key = try string()
                skipSpace()
                guard i < b.count, b[i] == UInt8(ascii: ":") else { throw error("expected ':'") }
                i += 1
                skipSpace()
                dict[key] = try value(depth: depth + 1)
                skipSpace()
                guard i < b.count else { throw error("unterminated object") }
                if b[i] == UInt8(ascii: ",") { i += 1; continue }
                if b[i] == UInt8(ascii: "}") { i += 1; return .dictionary(dict) }
                throw error("expected ',' or '}'")
            }
        case UInt8(ascii: "["):
            i += 1
            var items: [PlistValue] = []
            skipSpace()
            if i < b.count, b[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard i < b.count else { throw error("unterminated array") }
                if b[i] == UInt8(ascii: ",") { i += 1; continue }
                if b[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                throw error("expected ',' or ']'")
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"):
            if literal("true") { return .bool(true) }
            throw error("unknown literal")
        case UInt8(ascii: "f"):
            if literal("false") { return .bool(false) }
            throw error("unknown literal")
        case UInt8(ascii: "n"):
            throw error("null is not a property-list value")
        default:
            return try number()
        }
    }

    mutating func number() throws(JSONParseError) -> PlistValue {
        let start = i
        var isInteger = true
        if i < b.count, b[i] == UInt8(ascii: "-") { i += 1 }
        while i < b.count {
            let c = b[i]
            if c >= 0x30 && c <= 0x39 { i += 1; continue }
            if c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") || c == UInt8(ascii: "+") || (c == UInt8(ascii: "-") && i > start) {
                isInteger = false; i += 1; continue
            }
            break
        }
        let text = String(decoding: b[start..<i], as: UTF8.self)
        if isInteger, let v = Int64(text) { return .int(v) }
        guard let d = Double(text), !text.isEmpty else { i = start; throw error("invalid number") }
        return .double(d)
    }

    mutating func string() throws(JSONParseError) -> String {
        i += 1
        var out: [UInt8] = []
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") { i += 1; return String(decoding: out, as: UTF8.self) }
            if c == UInt8(ascii: "\\") {
                i += 1
                guard i < b.count else { break }
                switch b[i] {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "u"):
                    guard i + 4 < b.count, let code = UInt32(String(decoding: b[i + 1...i + 4], as: UTF8.self), radix: 16),
                          let scalar = Unicode.Scalar(code) else { throw error("bad \\u escape") }
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    i += 4
                default: out.append(b[i])
                }
                i += 1
                continue
            }
            out.append(c)
            i += 1
        }
        throw error("unterminated string")
    }
}
