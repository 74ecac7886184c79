import Foundation
import PeerLinkCore

/// `[String: Any]` payloads, as WatchConnectivity takes and gives them, to and from the core's
/// `PlistValue`. Property-list types only: String, integers, Double/Float, Bool, Date, Data,
/// arrays and dictionaries with String keys; anything else is `payloadUnsupportedTypes`.
enum PropertyList {
    /// The payload as the core's value; `payloadUnsupportedTypes` names the first value that is not a property-list type.
    static func value(_ dictionary: [String: Any]) -> Result<PlistValue, WCError> {
        do { return .success(try PlistValue(any: dictionary)) } catch let e as UnsupportedPayloadType {
            return .failure(WCError(.payloadUnsupportedTypes, e.description))
        } catch {
            return .failure(WCError(.genericError, "\(error)"))
        }
    }

    /// The core's value as WatchConnectivity hands it out: integers as `Int`, numbers with a
    /// fraction as `Double`, dates as `Date`, data as `Data`.
    static func any(_ v: PlistValue) -> Any {
        switch v {
        case .string(let s): s
        case .int(let i): Int(i)
        case .double(let d): d
        case .bool(let b): b
        case .date(let s): Date(timeIntervalSince1970: s)
        case .data(let b): Data(b)
        case .array(let a): a.map(any)
        case .dictionary(let d): d.mapValues(any)
        }
    }

    /// A dictionary value as `[String: Any]` (empty for anything else).
    static func dictionary(_ v: PlistValue?) -> [String: Any] {
        guard case .dictionary(let d)? = v else { return [:] }
        return d.mapValues(any)
    }

    static func dictionary(_ d: [String: PlistValue]) -> [String: Any] { d.mapValues(any) }
}
