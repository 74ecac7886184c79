
/// A command given to a node: a scenario step, a conductor request, or a line typed by hand.
public struct NodeCommand: Sendable, Equatable {
    /// The words of the line (split on spaces; double quotes group words).
    public var words: [String]
    /// The line as given.
    public var raw: String

    public init(words: [String], raw: String) {
        self.words = words
        self.raw = raw
    }

    /// Splits `line` into words; `"a b"` is one word, and inside quotes `\"` is a quote and
    /// `\\` a backslash (so JSON with escaped quotes passes whole). Nil when a quote is not closed.
    ///
    /// An ASCII line (every command a scenario or a shell sends, nearly) is split on its bytes;
    /// any other line by `Character`s, so that a quote or a space joined with a combining mark
    /// stays the one character it is. Both give the same words for an ASCII line
    /// (`NodeCommandLineTests`).
    public init?(line: String) {
        // .none: not split on bytes (not ASCII, or not contiguous); .some(nil): a quote not closed.
        let onBytes: [String]?? = line.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { $0 < 0x80 } ? .some(Self.words(asciiLine: bytes)) : .none
        } ?? .none
        let words = onBytes ?? Self.words(characters: line)
        guard let words else { return nil }
        self.init(words: words, raw: line)
    }

    /// The words of a line by its `Character`s (nil when a quote is not closed).
    static func words(characters line: String) -> [String]? {
        var words: [String] = []
        var current = ""
        var inQuotes = false
        var hasWord = false
        var escaped = false
        for ch in line {
            if escaped { current.append(ch); escaped = false; continue }
            if ch == "\\" && inQuotes { escaped = true; continue }
            if ch == "\"" { inQuotes.toggle(); hasWord = true; continue }
            if ch == " " && !inQuotes {
                if hasWord { words.append(current); current = ""; hasWord = false }
                continue
            }
            current.append(ch)
            hasWord = true
        }
        if inQuotes { return nil }
        if hasWord { words.append(current) }
        return words
    }

    /// `words(characters:)` of an ASCII line, on its bytes: in ASCII every byte is one
    /// `Character` (a CR LF pair is one `Character`, but neither byte is a space, a quote or a
    /// backslash, so it lands in the word unchanged).
    static func words(asciiLine bytes: UnsafeBufferPointer<UInt8>) -> [String]? {
        let space = UInt8(ascii: " "), quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        if !bytes.contains(where: { $0 == quote || $0 == backslash }) { return words(plainASCIILine: bytes) }
        var words: [String] = []
        var current: [UInt8] = []
        var inQuotes = false
        var hasWord = false
        var escaped = false
        func word() -> String { String(decoding: current, as: UTF8.self) }
        for b in bytes {
            if escaped { current.append(b); escaped = false; continue }
            if b == backslash && inQuotes { escaped = true; continue }
            if b == quote { inQuotes.toggle(); hasWord = true; continue }
            if b == space && !inQuotes {
                if hasWord { words.append(word()); current.removeAll(keepingCapacity: true); hasWord = false }
                continue
            }
            current.append(b)
            hasWord = true
        }
        if inQuotes { return nil }
        if hasWord { words.append(word()) }
        return words
    }

    /// `words(asciiLine:)` of a line with no quote and no backslash: the runs between spaces,
    /// each made from its bytes in place (one byte copied at a time into a buffer per word was
    /// most of a scenario step's parse).
    static func words(plainASCIILine bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        var words: [String] = []
        // Room for every word at once (`hr 140` grew the array twice).
        var spaces = 0
        for b in bytes where b == UInt8(ascii: " ") { spaces += 1 }
        words.reserveCapacity(spaces + 1)
        var start = 0
        for i in 0...bytes.count where i == bytes.count || bytes[i] == UInt8(ascii: " ") {
            if i > start { words.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)) }
            start = i + 1
        }
        return words
    }

    /// The value after `--name`, if present.
    public func option(_ name: String) -> String? {
        guard let i = words.firstIndex(of: "--\(name)"), i + 1 < words.count else { return nil }
        return words[i + 1]
    }

    /// True when `--name` is present.
    public func flag(_ name: String) -> Bool { words.contains("--\(name)") }
}

/// A node's answer to a command: data for tools and tests, text for people.
public struct CommandReply: Sendable, Equatable {
    public var isOK: Bool
    public var value: PlistValue
    public var text: String

    public static func ok(_ value: PlistValue = .dictionary([:]), text: String = "ok") -> CommandReply {
        CommandReply(isOK: true, value: value, text: text)
    }

    public static func error(_ message: String) -> CommandReply {
        CommandReply(isOK: false, value: .string(message), text: message)
    }
}

/// The app of a node (phone or watch): a pure core that the engine drives.
///
/// It reads and writes the replicated state and uses the link through `NodeContext`; it
/// never does I/O itself. Every callback's writes are committed together with the
/// session's bookkeeping of the event that caused it.
public protocol NodeApp: Sendable {
    /// Which of the app's replicated collections are grow-only sets (none by default).
    static var replicaSchema: ReplicaSchema { get }
    /// Called once the store is loaded and the session activated.
    mutating func onLaunch(_ ctx: inout NodeContext)
    /// A command for the app; unknown commands return `.error`.
    mutating func onCommand(_ command: NodeCommand, _ ctx: inout NodeContext) -> CommandReply
    /// A WCSession delegate event (user info the sync layer did not consume, reachability…).
    mutating func onLinkEvent(_ event: LinkEvent, _ ctx: inout NodeContext)
    /// The replicated state changed because of the peer's writes.
    mutating func onReplicaMerged(_ ctx: inout NodeContext)
    /// Time passed (`ctx.now`); fire what is due.
    mutating func onTick(_ ctx: inout NodeContext)
    /// The next time the app needs `onTick`; nil for none.
    func nextDeadline(_ ctx: NodeContext) -> EpochMs?
    /// A value for `query PATH` (expectations and `show`); nil when there is no such value.
    func query(_ path: [String], _ ctx: NodeContext) -> PlistValue?
    /// True when a received message, user info, application context or file is one of the
    /// app's own kinds. The engine shows the others to the person at the prompt (the peer
    /// sent them by hand); the app gets every event either way.
    func isOwnTraffic(_ event: LinkEvent, _ ctx: NodeContext) -> Bool
    /// The reply to a command that only reads (`show SCREEN --svg`), computed without changing
    /// anything; nil when `command` is not one of those (the engine then runs `onCommand`).
    /// By default the `readOnly` column of `commands`.
    func readOnlyReply(_ command: NodeCommand, _ ctx: NodeContext) -> CommandReply?
    /// The app's commands (CommandTable.swift): what its `onCommand` dispatches through, what
    /// `readOnlyReply` answers from, what `help` and the docs' command reference list. None by default.
    static var commands: CommandTable<Self> { get }
    /// What of the app's own state both sides must agree on once converged (`expect
    /// converged` compares the phone's with the watch's, as `query sync-state`'s `app`); nil
    /// (the default) for an app whose state is all in the replica.
    func convergenceState(_ ctx: NodeContext) -> PlistValue?
    /// How an effect the app asked for (`ctx.perform(_:)`) went: `.success` carries the path
    /// written (an export's as shown to people). Called in the same event, right after the
    /// callback that asked. During a command, a non-nil return replaces that command's reply
    /// (an export's reply says where the file went, or why it did not); elsewhere it is ignored.
    mutating func onEffectOutcome(_ effect: AppEffect, _ outcome: Result<String, AppEffectError>, _ ctx: inout NodeContext) -> CommandReply?
    /// Received files up to this size (bytes) come with their content read
    /// (`ReceivedFile.contents`); larger ones only with their path. 0 (the default): none.
    static var receivedFileReadLimit: Int64 { get }
}

extension NodeApp {
    public static var replicaSchema: ReplicaSchema { ReplicaSchema() }
    public mutating func onLaunch(_ ctx: inout NodeContext) {}
    public mutating func onLinkEvent(_ event: LinkEvent, _ ctx: inout NodeContext) {}
    public mutating func onReplicaMerged(_ ctx: inout NodeContext) {}
    public mutating func onTick(_ ctx: inout NodeContext) {}
    public func nextDeadline(_ ctx: NodeContext) -> EpochMs? { nil }
    public func query(_ path: [String], _ ctx: NodeContext) -> PlistValue? { nil }
    public func isOwnTraffic(_ event: LinkEvent, _ ctx: NodeContext) -> Bool { false }
    public func readOnlyReply(_ command: NodeCommand, _ ctx: NodeContext) -> CommandReply? {
        Self.commands.readOnlyReply(self, command, ctx)
    }
    public static var commands: CommandTable<Self> { CommandTable() }
    public func convergenceState(_ ctx: NodeContext) -> PlistValue? { nil }
    public mutating func onEffectOutcome(_ effect: AppEffect, _ outcome: Result<String, AppEffectError>, _ ctx: inout NodeContext) -> CommandReply? {
        if case .failure(let e) = outcome { ctx.logFailure(of: effect, e) }
        return nil
    }
    public static var receivedFileReadLimit: Int64 { 0 }
}
