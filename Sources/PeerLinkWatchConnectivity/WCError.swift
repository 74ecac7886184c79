import Foundation
import PeerLinkCore

/// `WCErrorDomain`: the domain of WatchConnectivity's errors.
public let WCErrorDomain = "WCErrorDomain"

/// WatchConnectivity's error (`WCError`), with Apple's codes 7001–7019, names and raw values.
///
///     do { try session.updateApplicationContext(context) }
///     catch let e as WCError where e.code == .payloadTooLarge { … }
///     catch WCError.sessionNotActivated { … }
public struct WCError: Error, Hashable, CustomNSError, CustomStringConvertible, @unchecked Sendable {
    /// `WCError.Code`, Apple's raw values.
    public enum Code: Int, Sendable, CaseIterable, Equatable, Hashable {
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
    }

    public let code: Code
    /// `userInfo` of the bridged `NSError`; PeerLink puts its reason under `NSLocalizedDescriptionKey`.
    public let userInfo: [String: Any]

    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.userInfo = userInfo
    }

    public static var errorDomain: String { WCErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { userInfo }
    public var localizedDescription: String { (userInfo[NSLocalizedDescriptionKey] as? String) ?? "\(WCErrorDomain) \(code.rawValue)" }
    public var description: String { "WCError(\(code.rawValue) \(code)\(reason.map { ": \($0)" } ?? ""))" }
    var reason: String? { userInfo[NSLocalizedDescriptionKey] as? String }

    public static func == (a: WCError, b: WCError) -> Bool { a.code == b.code }
    public func hash(into h: inout Hasher) { h.combine(code) }

    // Apple's `WCError.notReachable` etc., the codes as static members.
    public static var genericError: Code { .genericError }
    public static var sessionNotSupported: Code { .sessionNotSupported }
    public static var sessionMissingDelegate: Code { .sessionMissingDelegate }
    public static var sessionNotActivated: Code { .sessionNotActivated }
    public static var deviceNotPaired: Code { .deviceNotPaired }
    public static var watchAppNotInstalled: Code { .watchAppNotInstalled }
    public static var notReachable: Code { .notReachable }
    public static var invalidParameter: Code { .invalidParameter }
    public static var payloadTooLarge: Code { .payloadTooLarge }
    public static var payloadUnsupportedTypes: Code { .payloadUnsupportedTypes }
    public static var messageReplyFailed: Code { .messageReplyFailed }
    public static var messageReplyTimedOut: Code { .messageReplyTimedOut }
    public static var fileAccessDenied: Code { .fileAccessDenied }
    public static var deliveryFailed: Code { .deliveryFailed }
    public static var insufficientSpace: Code { .insufficientSpace }
    public static var sessionInactive: Code { .sessionInactive }
    public static var transferTimedOut: Code { .transferTimedOut }
    public static var companionAppNotInstalled: Code { .companionAppNotInstalled }
    public static var watchOnlyApp: Code { .watchOnlyApp }
}

extension WCError {
    /// The core's error (same code, its reason as the description).
    init(_ e: PeerLinkCore.WCError) {
        self.init(Code(rawValue: e.code.rawValue) ?? .genericError,
                  userInfo: [NSLocalizedDescriptionKey: e.reason.isEmpty ? e.code.name : e.reason])
    }

    init(_ code: Code, _ reason: String) {
        self.init(code, userInfo: [NSLocalizedDescriptionKey: reason])
    }
}

/// `catch WCError.notReachable { … }`: an error matches its code.
public func ~= (code: WCError.Code, error: any Error) -> Bool {
    (error as? WCError)?.code == code
}
