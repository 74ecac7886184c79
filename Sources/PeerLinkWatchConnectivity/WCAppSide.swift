import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PeerLinkCore

/// One side (phone or watch) of an app written against `WCSession`, as PeerLink runs it:
/// how to make its app object, the test verbs a scenario types at it, what it answers to
/// `query`, what both sides must agree on, and what of it survives a restart. This is test
/// harness code (the only place a WatchConnectivity app names PeerLink); the app itself
/// knows only `WCSession`.
///
///     enum ListPhone: WCAppSide {
///         static func makeApp(_ role: DeviceRole, restoring saved: PlistValue?) -> ShoppingList { ShoppingList(…saved…) }
///         static var commands: [WCTestCommand<ShoppingList>] { [WCTestCommand("add", "ITEM", en: "adds ITEM") { list, c in … }] }
///         static func convergenceState(_ list: ShoppingList) -> PlistValue? { … }
///     }
public protocol WCAppSide: SendableMetatype {
    associatedtype App: AnyObject
    /// The app object of `role` at launch (inside, `WCSession.default` is this side's
    /// session). `saved`: what `save` returned at the end of the last event before a restart;
    /// nil at the first launch.
    static func makeApp(_ role: DeviceRole, restoring saved: PlistValue?) -> App
    /// What of the app's state survives a restart (its own storage: files, a database,
    /// `UserDefaults`), taken after every event; nil (the default) for nothing.
    static func save(_ app: App) -> PlistValue?
    /// The scenario's verbs for this side (`add milk`); none by default.
    static var commands: [WCTestCommand<App>] { get }
    /// The heading of the verbs in `help`.
    static var title: String { get }
    /// `query PATH`: values expectations read; nil for none.
    static func query(_ app: App, _ path: [String]) -> PlistValue?
    /// What both sides must hold alike once converged (`expect converged`); nil for nothing.
    static func convergenceState(_ app: App) -> PlistValue?
}

extension WCAppSide {
    public static func save(_ app: App) -> PlistValue? { nil }
    public static var commands: [WCTestCommand<App>] { [] }
    public static var title: String { "\(App.self)" }
    public static func query(_ app: App, _ path: [String]) -> PlistValue? { nil }
    public static func convergenceState(_ app: App) -> PlistValue? { nil }
}

/// A test verb of a WatchConnectivity app: its words, what follows, a line of help, and what
/// it does to the app object (which calls its `WCSession` as the app's UI would).
public struct WCTestCommand<App>: @unchecked Sendable {
    public let verb: String
    public let args: String
    public let ja: String
    public let en: String
    public let run: (App, NodeCommand) -> CommandReply

    public init(_ verb: String, _ args: String = "", ja: String? = nil, en: String, run: @escaping (App, NodeCommand) -> CommandReply) {
        self.verb = verb
        self.args = args
        self.ja = ja ?? en
        self.en = en
        self.run = run
    }
}

/// Where a side keeps what outlives its app's restarts: a real directory (its received
/// files' inbox, `watchDirectoryURL`) and the app's saved state. The simulator keeps one per
/// side for a run; a node process one under its state directory.
public final class WCSideStorage: @unchecked Sendable {
    // Unchecked: one node uses it, one event at a time.
    public let directory: URL
    private let load: () -> PlistValue?
    private let store: (PlistValue?) -> Void
    private var last: PlistValue?

    /// Kept in memory (the simulator: the pair holds it for the run).
    public init(directory: URL) {
        self.directory = directory
        var value: PlistValue?
        load = { value }
        store = { value = $0 }
    }

    /// Kept in `directory/app-state` (a node process), written when it changes.
    public init(persistentDirectory directory: URL) {
        self.directory = directory
        let file = directory.appendingPathComponent("app-state")
        load = {
            guard let d = try? Data(contentsOf: file) else { return nil }
            return try? CanonicalEncoding.decode([UInt8](d))
        }
        store = { v in
            let tmp = directory.appendingPathComponent("app-state.tmp")
            guard let v else { try? FileManager.default.removeItem(at: file); return }
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            if (try? Data(CanonicalEncoding.encode(v)).write(to: tmp)) != nil { _ = rename(tmp.path, file.path) }
        }
        last = load()
    }

    var saved: PlistValue? { load() }

    func save(_ v: PlistValue?) {
        guard v != last else { return }
        last = v
        store(v)
    }
}
