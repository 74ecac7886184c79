import Foundation

/// A property-list value: the only kind of payload WatchConnectivity accepts.
///
/// Dictionaries have string keys. Everything a node sends to its peer, and every field of the
/// replicated state, is one of these. `CanonicalEncoding` gives each value exactly one byte
/// form, so sizes and digests do not depend on dictionary order.
public enum PlistValue: Hashable, Sendable {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    /// A point in time, as seconds since 1970-01-01T00:00:00Z.
    case date(Double)
    case data([UInt8])
    case array([PlistValue])
    case dictionary([String: PlistValue])
}

// MARK: - Literals

extension PlistValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: PlistValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, PlistValue)...) {
        // Sized once: grown one insertion at a time it was rehashed at 2, 4, 8… entries.
        var dict = [String: PlistValue](minimumCapacity: elements.count)
        for (key, value) in elements { dict[key] = value }
        self = .dictionary(dict)
    }
}

// MARK: - Accessors

extension PlistValue {
    public var stringValue: String? { if case .string(let v) = self { v } else { nil } }
    public var boolValue: Bool? { if case .bool(let v) = self { v } else { nil } }
    public var dataValue: [UInt8]? { if case .data(let v) = self { v } else { nil } }
    public var arrayValue: [PlistValue]? { if case .array(let v) = self { v } else { nil } }

    /// An array of `.int`s as integers; nil when it is not an array or holds anything else.
    public var int64ArrayValue: [Int64]? {
        guard case .array(let a) = self else { return nil }
        var out: [Int64] = []
        out.reserveCapacity(a.count)
        for x in a {
            guard case .int(let i) = x else { return nil }
            out.append(i)
        }
        return out
    }

    /// An array of `.double`s as doubles; nil when it is not an array or holds anything else.
    public var doubleArrayValue: [Double]? {
        guard case .array(let a) = self else { return nil }
        var out: [Double] = []
        out.reserveCapacity(a.count)
        for x in a {
            guard case .double(let d) = x else { return nil }
            out.append(d)
        }
        return out
    }
    public var dictionaryValue: [String: PlistValue]? {
        if case .dictionary(let v) = self { v } else { nil }
    }
    /// The value as an integer; a double with no fractional part converts too.
    public var intValue: Int64? {
        switch self {
        case .int(let v): v
        case .double(let d) where d.rounded() == d && abs(d) < 9.0e18: Int64(d)
        default: nil
        }
    }
    /// The value as a double; integers convert.
    public var doubleValue: Double? {
        switch self {
        case .double(let v): v
        case .int(let v): Double(v)
        default: nil
        }
    }
    /// Seconds since 1970 for `.date`, and for numbers (scenario files write dates as numbers).
    public var dateSeconds: Double? {
        if case .date(let v) = self { return v }
        return doubleValue
    }
    /// Looks up `key` when the value is a dictionary.
    public subscript(key: String) -> PlistValue? { dictionaryValue?[key] }
}

// MARK: - Bridging from untyped values

/// Why a value could not become a `PlistValue`.
public struct UnsupportedPayloadType: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where the offending value sits, e.g. `root.samples[3]`.
    public var path: String
    /// The Swift type found there.
    public var typeName: String
    public var description: String { "unsupported type \(typeName) at \(path)" }
}

extension PlistValue {
    /// Converts an untyped value, as `WCSession` receives `[String: Any]`.
    ///
    /// Accepts String, integers, Double/Float, Bool, Date, Data, [UInt8], arrays and
    /// dictionaries with String keys; anything else throws `UnsupportedPayloadType`.
    public init(any value: Any, path: String = "root") throws {
        switch value {
        case let v as PlistValue: self = v
        case let v as String: self = .string(v)
        case let v as Bool: self = .bool(v)
        case let v as Int: self = .int(Int64(v))
        case let v as Int64: self = .int(v)
        case let v as Int32: self = .int(Int64(v))
        case let v as UInt8: self = .int(Int64(v))
        case let v as Double: self = .double(v)
        case let v as Float: self = .double(Double(v))
        case let v as Date: self = .date(v.timeIntervalSince1970)
        case let v as Data: self = .data([UInt8](v))
        case let v as [UInt8]: self = .data(v)
        case let v as [Any]:
            self = .array(try v.enumerated().map { try PlistValue(any: $1, path: "\(path)[\($0)]") })
        case let v as [String: Any]:
            var out: [String: PlistValue] = [:]
            for (key, element) in v { out[key] = try PlistValue(any: element, path: "\(path).\(key)") }
            self = .dictionary(out)
        default:
            throw UnsupportedPayloadType(path: path, typeName: String(describing: type(of: value)))
        }
    }
}
