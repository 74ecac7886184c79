
/// WatchConnectivity's error codes (`WCErrorDomain`), with Apple's names and numbers.
public enum WCErrorCode: Int, Sendable, CaseIterable, CustomStringConvertible {
    case genericError = 7001
    case sessionNotSupported = 7002
    case sessionMissingDelegate = 7003
    case sessionNotActivated = 7004
    case deviceNotPaired = 7005
    case watchAppNotInstalled = 7006
    case notReachable = 7007
    case invalidParameter = 7008
    case payloadTooLarge = 7009
    case payloadUnsupportedTypes = 7010
    case messageReplyFailed = 7011
    case messageReplyTimedOut = 7012
    case fileAccessDenied = 7013
    case deliveryFailed = 7014
    case insufficientSpace = 7015
    case sessionInactive = 7016
    case transferTimedOut = 7017
    case companionAppNotInstalled = 7018
    case watchOnlyApp = 7019

    /// Apple's case name, e.g. `payloadTooLarge`.
    public var name: String {
        switch self {
        case .genericError: "genericError"
        case .sessionNotSupported: "sessionNotSupported"
        case .sessionMissingDelegate: "sessionMissingDelegate"
        case .sessionNotActivated: "sessionNotActivated"
        case .deviceNotPaired: "deviceNotPaired"
        case .watchAppNotInstalled: "watchAppNotInstalled"
        case .notReachable: "notReachable"
        case .invalidParameter: "invalidParameter"
        case .payloadTooLarge: "payloadTooLarge"
        case .payloadUnsupportedTypes: "payloadUnsupportedTypes"
        case .messageReplyFailed: "messageReplyFailed"
        case .messageReplyTimedOut: "messageReplyTimedOut"
        case .fileAccessDenied: "fileAccessDenied"
        case .deliveryFailed: "deliveryFailed"
        case .insufficientSpace: "insufficientSpace"
        case .sessionInactive: "sessionInactive"
        case .transferTimedOut: "transferTimedOut"
        case .companionAppNotInstalled: "companionAppNotInstalled"
        case .watchOnlyApp: "watchOnlyApp"
        }
    }

    public var description: String { "WCErrorDomain \(rawValue) \(name)" }
}

/// An error as the session reports it: a code and a human explanation.
public struct WCError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: WCErrorCode
    public var reason: String

    public init(_ code: WCErrorCode, _ reason: String = "") {
        self.code = code
        self.reason = reason
    }

    public var description: String { reason.isEmpty ? code.description : "\(code.description): \(reason)" }

    /// `payloadUnsupportedTypes` for a value `PlistValue(any:)` refused.
    public init(unsupported e: UnsupportedPayloadType) {
        self.init(.payloadUnsupportedTypes, e.description)
    }
}

/// The payload limits, measured on the canonical encoding (`CanonicalEncoding`).
public enum PayloadLimits {
    /// `sendMessage` and `sendMessageData`.
    public static let messageBytes = 65_536
    /// `transferUserInfo` and `transferCurrentComplicationUserInfo`.
    public static let userInfoBytes = 65_536
    /// `updateApplicationContext`.
    public static let applicationContextBytes = 262_144
    /// The metadata of `transferFile`.
    public static let fileMetadataBytes = 65_536

    /// Checks a received payload of `bytes` canonical bytes against `limit`: a sender that
    /// keeps to the protocol never sends more, so more is a protocol error (thrown: the
    /// connection is closed and nothing is delivered).
    static func enforce(_ what: String, bytes: Int, limit: Int) throws(ByteReaderError) {
        guard bytes <= limit else { throw .malformed("\(what) of \(bytes) bytes, over the limit of \(limit)") }
    }
}
